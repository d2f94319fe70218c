#!/bin/sh
# device-run.sh - the measurements of docs/performance.md's H200 runs J and K, as run there
# from the repository root with build/ carried from the dev machine.
#   OUT=DIR sh bench/device-run.sh      (results in DIR, default /tmp/fatcheck-bench)
# LIBS: libraries the machine lacks (Debian's libjansson, libarchive and theirs), for
# LD_LIBRARY_PATH; ZSTD_BIN: a folder with the zstd CLI for the kernel view's floor.
# CUDA_LIB, SYS_LIB, TORCH_SP: where the machine keeps CUDA, cuDNN/NCCL and PyTorch.
set -u
O=${OUT:-/tmp/fatcheck-bench}; mkdir -p "$O"
export LD_LIBRARY_PATH=${LIBS:-$PWD/.devdata/lib} PATH=${ZSTD_BIN:-$PWD/.devdata/bin}:/usr/local/cuda/bin:$PATH
F=$PWD/build/fatcheck; M=$PWD/build/bench/measure
L=${CUDA_LIB:-/usr/local/cuda/lib64}; U=${SYS_LIB:-/usr/lib/x86_64-linux-gnu}
SP=${TORCH_SP:-/opt/torch/.venv/lib/python3.12/site-packages}; T=$SP/torch/lib/libtorch_cuda.so
start=$(date +%s)
{ date; uname -r; nproc; lscpu | grep -E "Model name|MHz"; } > $O/sys.txt 2>&1
cat $L/*.so* $T > /dev/null
B=$O/measure.txt
for a in "--gpu 9.0" "--gpu 9.0 --no-embedded" "--gpu 9.0 -j 1" "--gpu 9.0 --json"; do
  for f in $L/libcublasLt.so.13 $T $L/libcufft.so.12; do echo "[$a] $(basename $f): $($M 20 $F $a $f)"; done
done > $B 2>&1
echo "[--version] $($M 20 $F --version)" >> $B
# The dev machine's lib64 (the 2.7 GB), gathered by name into /dev/shm.
D=/dev/shm/lib64; mkdir -p $D/stubs
for n in libcheckpoint.so libcublas.so.13 libcublasLt.so.13 libcudadevrt.a libcudart.so.13 libcudart_static.a libcudnn.so.9 libcudnn_adv.so.9 libcudnn_cnn.so.9 libcudnn_engines_precompiled.so.9 libcudnn_engines_runtime_compiled.so.9 libcudnn_graph.so.9 libcudnn_heuristic.so.9 libcudnn_ops.so.9 libcufft.so.12 libcufftw.so.12 libculibos.a libcupti.so.13 libcurand.so.10 libcusolver.so.12 libcusolverMg.so.12 libcusparse.so.12 libnccl.so.2 libnvJitLink.so.13 libnvblas.so.13 libnvperf_host.so libnvperf_target.so libnvrtc-builtins.alt.so.13.0 libnvrtc-builtins.so.13.0 libnvrtc.alt.so.13 libnvrtc.so.13 libnvtx3interop.so.1 libnvvm.so.4 libpcsamplingutil.so; do
  src=$(ls $L/$n $U/$n $L/../nvvm/lib64/$n $SP/nvidia/*/lib/$n 2>/dev/null | head -1)
  if [ -n "$src" ]; then cp -L $src $D/; echo "$n $src"; else echo "missing $n"; fi
done > $O/lib64set.txt 2>&1
cp -L $L/stubs/libcuda.so $D/stubs/ 2>/dev/null
du -sb $D >> $O/lib64set.txt; find $D -type f | wc -l >> $O/lib64set.txt
for i in 1 2 3; do for a in "--gpu 9.0" "--gpu 9.0 --no-embedded"; do echo "[$a] lib64-set: $($M 10 $F $a $D)"; done; done >> $B 2>&1
echo "[--gpu 9.0 --json] lib64-set: $($M 10 $F --gpu 9.0 --json $D)" >> $B 2>&1
du -sb $L >> $B
for a in "--gpu 9.0" "--gpu 9.0 --no-embedded"; do echo "[$a] lib64-full: $($M 5 $F $a $L)"; echo "[$a] cublasLt_static: $($M 5 $F $a $L/libcublasLt_static.a)"; done >> $B 2>&1
echo "measure $(( $(date +%s) - start )) s" >> $B
python3 bench/bench.py --fatcheck $F --runs 20 --cuobjdump-runs 3 --args="--gpu 9.0" $L/libcublasLt.so.13 $T > $O/bench.txt 2>&1
python3 bench/bench.py --fatcheck $F --runs 20 --cuobjdump-runs 1 --args="--gpu 9.0 --no-embedded" $L/libcublasLt.so.13 $T >> $O/bench.txt 2>&1
python3 bench/bench.py --fatcheck $F --runs 15 --cuobjdump-runs 1 --kernel-view --args="--gpu 9.0" $L/libcublasLt.so.13 >> $O/bench.txt 2>&1
for f in $(find $L/ -maxdepth 1 -type f -size +20M); do echo "$(basename $f) $(stat -c %s $f) $($M 1 $F --gpu 9.0 $f)"; done | sort -k4 -n | tail -6 >> $B
echo "all $(( $(date +%s) - start )) s" >> $B
cat $B; cat $O/bench.txt
