#!/bin/sh
# Builds the libraries that check how CUDA runtimes of two eras treat -rdc code and code a
# library keeps as data (docs/matching.md, rules 5 and 12), for each nvcc named and for the
# shared and the static runtime, into OUTDIR/<release>-<runtime>/:
#   rdc_sm80.so    ../fixtures/src/tu_a.cu -rdc code=sm_80, beside a kept fat binary of tu_b.cu
#                  for sm_75, sm_86 and sm_90 (fc_kept())
#   rdc_ptx.so     the same with code=[sm_80,compute_80]
#   rdc_ptxonly.so the same with code=compute_80
#   rdc_mix.so     tu_a.cu as rdc_ptx, tu_b.cu -rdc code=sm_80, the kept fat binary
#   kept_loads.so  tu_a.cu code=sm_80 (whole program), the kept fat binary
#   ptx.so         tu_a.cu code=compute_80 (whole program), nothing kept
#   rdc_devfn.so   rdc_launch.cu -rdc code=sm_80 (a kernel calling fc_rdc_twice) and rdc_dev.cu
#                  -rdc code=sm_80 and sm_90 (which defines it: no kernel), linked for sm_80,
#                  the kept fat binary: on sm_90 only the object without a kernel has an image
#                  (rule 12)
# and of each, s_NAME.so: a copy as sstrip leaves it (no section table: e_shoff, e_shentsize,
# e_shnum and e_shstrndx zero), which the runtime loads the same way and fatcheck must judge
# from its program headers and registration records alone.
# Each also has fc_last_error() and fc_sync(): its own runtime's cudaGetLastError and
# cudaDeviceSynchronize. bench/kept_check.c launches their kernels (bench/device-rdc-runtimes.sh on a GPU machine).
# Usage: scripts/make-rdc-runtimes.sh OUTDIR NVCC...
#   NVCC 13.0: /usr/local/cuda/bin/nvcc. NVCC 11.8: Debian 12's non-free nvidia-cuda-toolkit
#   and nvidia-cuda-dev (apt-get download, with the source list scripts/fetch-eras.sh keeps in
#   .eras/apt/bookworm), unpacked with dpkg-deb -x into ROOT (of nvidia-cuda-dev, usr/include
#   and usr/lib/x86_64-linux-gnu's libcudart*, libcudadevrt.a and stubs/ suffice), with
#   ROOT/usr/lib/nvidia-cuda-toolkit/bin/nvcc.profile (a link to /etc/nvcc.profile) replaced by
#   one whose paths start at ROOT: NVVMIR_LIBRARY_DIR, PATH, INCLUDES and LIBRARIES as Debian's
#   with ROOT before each path. It is run with clang++-14 as host compiler (-ccbin).
set -eu
out=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
src=$here/../fixtures/src
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/local/cuda/bin/nvcc -fatbin -gencode arch=compute_75,code=sm_75 -gencode arch=compute_86,code=sm_86 \
    -gencode arch=compute_90,code=sm_90 -o "$tmp/kept.fatbin" "$src/tu_b.cu"
python3 -c 'import sys; b = open(sys.argv[1], "rb").read()
open(sys.argv[2], "w").write("__attribute__((aligned(8))) const unsigned char fc_kept_fatbin[%d] = {%s};\n"
    "const void *fc_kept(void) { return fc_kept_fatbin; }\n" % (len(b), ",".join(map(str, b))))' \
    "$tmp/kept.fatbin" "$tmp/kept.c"
# What the library's own runtime says: with the static runtime, or another release's, the
# caller's cudaGetLastError asks another instance.
printf '#include <cuda_runtime_api.h>\nint fc_last_error(void) { return (int)cudaGetLastError(); }\n%s\n' \
    'int fc_sync(void) { return (int)cudaDeviceSynchronize(); }' > "$tmp/errors.c"
for nvcc in "$@"; do
    release=$("$nvcc" --version | sed -n 's/.*release \([0-9.]*\),.*/\1/p')
    host=""
    case $release in 11.*) host="-ccbin clang++-14" ;; esac
    for rt in shared static; do
        d=$out/$release-$rt
        mkdir -p "$d"
        # shellcheck disable=SC2086 # HOST is words
        nv() { "$nvcc" $host -Xcompiler -fPIC -shared -cudart $rt "$@"; }
        nv -rdc=true -gencode arch=compute_80,code=sm_80 -o "$d/rdc_sm80.so" "$src/tu_a.cu" "$tmp/kept.c" "$tmp/errors.c"
        nv -rdc=true -gencode 'arch=compute_80,code=[sm_80,compute_80]' -o "$d/rdc_ptx.so" "$src/tu_a.cu" "$tmp/kept.c" "$tmp/errors.c"
        nv -rdc=true -gencode arch=compute_80,code=compute_80 -o "$d/rdc_ptxonly.so" "$src/tu_a.cu" "$tmp/kept.c" "$tmp/errors.c"
        # shellcheck disable=SC2086
        "$nvcc" $host -Xcompiler -fPIC -c -rdc=true -gencode 'arch=compute_80,code=[sm_80,compute_80]' -o "$tmp/a.o" "$src/tu_a.cu"
        # shellcheck disable=SC2086
        "$nvcc" $host -Xcompiler -fPIC -c -rdc=true -gencode arch=compute_80,code=sm_80 -o "$tmp/b.o" "$src/tu_b.cu"
        nv -rdc=true -gencode arch=compute_80,code=sm_80 -o "$d/rdc_mix.so" "$tmp/a.o" "$tmp/b.o" "$tmp/kept.c" "$tmp/errors.c"
        nv -gencode arch=compute_80,code=sm_80 -o "$d/kept_loads.so" "$src/tu_a.cu" "$tmp/kept.c" "$tmp/errors.c"
        nv -gencode arch=compute_80,code=compute_80 -o "$d/ptx.so" "$src/tu_a.cu" "$tmp/errors.c"
        # shellcheck disable=SC2086
        "$nvcc" $host -Xcompiler -fPIC -c -rdc=true -gencode arch=compute_80,code=sm_80 -o "$tmp/launch.o" "$src/rdc_launch.cu"
        # shellcheck disable=SC2086
        "$nvcc" $host -Xcompiler -fPIC -c -rdc=true -gencode arch=compute_80,code=sm_80 \
            -gencode arch=compute_90,code=sm_90 -o "$tmp/dev.o" "$src/rdc_dev.cu"
        nv -rdc=true -gencode arch=compute_80,code=sm_80 -o "$d/rdc_devfn.so" "$tmp/launch.o" "$tmp/dev.o" "$tmp/kept.c" "$tmp/errors.c"
        for f in "$d"/[!s]*.so; do  # the names above; none starts with s
            python3 -c 'import struct, sys; b = bytearray(open(sys.argv[1], "rb").read())
struct.pack_into("<Q", b, 0x28, 0); struct.pack_into("<HHH", b, 0x3a, 0, 0, 0)
open(sys.argv[2], "wb").write(b)' "$f" "$d/s_${f##*/}"
        done
    done
done
