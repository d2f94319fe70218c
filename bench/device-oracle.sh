#!/bin/bash
# device-oracle.sh - the driver-oracle checks and the default-path timings of this session's last
# H200 run (docs/matching.md "--probe on the H200", docs/performance.md): fatcheck --probe with
# the final rules over the oracle images, the 213 containers of tests/oracle/real.jsonl (picked
# by scripts/driver-oracle/pick.py into devrun-lead/picks), the fixtures and the machine's own
# CUDA code (NCCL, the device runtime, PyTorch, JAX, CuPy); then timings with bench/measure.
# Run from the repository root with devrun-lead/ holding bin/{fatcheck,measure}, lib/ (libelf,
# libzstd, liblz4, libjansson the machine lacks) and picks/: bash bench/device-oracle.sh
set -u
D=$PWD/devrun-lead; export LD_LIBRARY_PATH=$D/lib; O=${OUT:-/tmp/out}; mkdir -p "$O"
F=$D/bin/fatcheck; M=$D/bin/measure; SP=/opt/torch/.venv/lib/python3.12/site-packages
T=$SP/torch/lib/libtorch_cuda.so; log=$O/log.txt; t0=$(date +%s)
{ date; nvidia-smi --query-gpu=index,name,driver_version,compute_cap --format=csv; nproc; } > "$log" 2>&1
NC=$SP/nvidia/nccl/lib/libnccl.so.2; DEVRT=/usr/local/cuda/lib64/libcudadevrt.a
J=$(find "$SP/jax_plugins" "$SP/cupy" -name '*.so*' -size +100k 2>/dev/null)
sha256sum "$NC" "$DEVRT" "$T" >> "$log"
timeout 280 "$F" --json --probe --embedded tests/oracle/images "$D/picks" fixtures "$NC" "$DEVRT" \
    "$SP/torch/lib/libtorch_cuda_linalg.so" $J > "$O/probe.json" 2>> "$log"
echo "probe rc=$? $(( $(date +%s) - t0 )) s" >> "$log"
timeout 150 "$F" --json --probe "$T" > "$O/probe-torch.json" 2>> "$log"
echo "probe torch rc=$? $(( $(date +%s) - t0 )) s" >> "$log"
{
  cat "$T" > /dev/null; find "$SP" -name '*.so*' -exec cat {} + > /dev/null 2>&1
  echo "default (detected) libtorch_cuda.so: $($M 21 "$F" "$T")"
  echo "--gpu 9.0 --driver 13.0 libtorch_cuda.so: $($M 21 "$F" --gpu 9.0 --driver 13.0 "$T")"
  echo "site-packages -q --gpu 9.0 --driver 13.0: $($M 5 "$F" -q --gpu 9.0 --driver 13.0 "$SP")"
  echo "site-packages -q (detected): $($M 5 "$F" -q "$SP")"
  for j in 1 4 16; do echo "-k -j $j libtorch_cuda.so: $($M 3 "$F" -k -j $j --gpu 9.0 --driver 13.0 "$T")"; done
} > "$O/timings.txt" 2>&1
echo "all $(( $(date +%s) - t0 )) s" >> "$log"
