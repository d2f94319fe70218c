#!/bin/sh
# device-rdc-runtimes.sh - on a GPU machine, launches the kernels of the libraries
# scripts/make-rdc-runtimes.sh built (RT: its OUTDIR) through each library's own CUDA runtime,
# lazily and eagerly, and loads each one's kept fat binary (bench/kept_check.c, KEPT_CHECK),
# then prints fatcheck's verdicts for the local GPU and --probe's agreement beside
# (docs/matching.md, rules 5 and 12), for each library and for its copy without a section
# table (s_*). LIBS: the libraries fatcheck and kept_check need (libelf, ..., libcudart.so.13,
# and libcudart.so.11.0 for CUDA 11.8's shared builds).
#   RT=DIR KEPT_CHECK=EXE FATCHECK=EXE LIBS=DIR sh bench/device-rdc-runtimes.sh
set -u
export LD_LIBRARY_PATH="$LIBS"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for mode in LAZY EAGER; do
    export CUDA_MODULE_LOADING=$mode
    for d in "$RT"/*; do
        for f in "$d"/*.so; do
            case $f in *mix*) fns="fc_tu_a_launch fc_tu_b_launch" ;; *devfn*) fns=fc_rdc_launch ;; *) fns=fc_tu_a_launch ;; esac
            # shellcheck disable=SC2086 # FNS are words
            "$KEPT_CHECK" "$f" $fns | sed "s|$RT/||;s|^|$mode |"
        done
    done
done
unset CUDA_MODULE_LOADING
cd "$RT" || exit 1
echo "== fatcheck, the local GPU"
"$FATCHECK" ./*/*.so | grep -E "^\./|\(GPU 0"
echo "== fatcheck --probe"
"$FATCHECK" --probe ./*/*.so 2>&1 | grep -E "^\./|probe:"
