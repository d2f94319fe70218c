#!/bin/sh
# device-detect.sh - GPU detection on the 2-GPU H200 machine (docs/performance.md, "The
# default path"): for each CUDA_VISIBLE_DEVICES setting, fatcheck's answer beside the Driver
# API's (bench/detect driver) and the CUDA runtime's through torch, each in a fresh process;
# then timings with bench/measure, before (BEFORE: main's build before NVML detection) and
# after. Run from the repository root with devrun-detect/ holding before/fatcheck,
# after/{fatcheck,detect,measure} and lib/ (the Debian libraries the machine lacks: libelf,
# libzstd, liblz4, libjansson, libz): sh bench/device-detect.sh; results in $OUT/results.txt.
set -u
D=$PWD/devrun-detect; O=${OUT:-/tmp}; R=$O/results.txt
PY=/opt/torch/.venv/bin/python3
T=/opt/torch/.venv/lib/python3.12/site-packages/torch/lib/libtorch_cuda.so
A="env LD_LIBRARY_PATH=$D/lib $D/after/fatcheck"; B="env LD_LIBRARY_PATH=$D/lib $D/before/fatcheck"
DET="env LD_LIBRARY_PATH=$D/lib $D/after/detect"; M="env LD_LIBRARY_PATH=$D/lib $D/after/measure"
exec > $R 2>&1
date; uname -r; nproc
nvidia-smi --query-gpu=index,name,pci.bus_id,uuid,compute_cap,driver_version,persistence_mode,mig.mode.current --format=csv
ldd $D/after/fatcheck | grep -i "not found"
U1=$(nvidia-smi --query-gpu=uuid --format=csv,noheader | sed -n 2p | cut -c1-12)
echo "second GPU prefix: $U1"
torch_view='import torch
n = torch.cuda.device_count()
print("torch:", n, [(".".join(map(str, torch.cuda.get_device_capability(i))), torch.cuda.get_device_properties(i).name, "GPU-" + str(torch.cuda.get_device_properties(i).uuid)) for i in range(n)])'
fc_view='import json, sys
d = json.load(sys.stdin)
print("fatcheck:", len(d["targets"]), [(t["compute_capability"], t["name"], t.get("uuid"), t["driver_cuda"]) for t in d["targets"]], d.get("detection"), d.get("targets_note"))'
with() { if [ "$s" = UNSET ]; then env -u CUDA_VISIBLE_DEVICES "$@"; else env CUDA_VISIBLE_DEVICES="$s" "$@"; fi; }
for s in UNSET 0 1 "1,0" "" "$U1" "MIG-5c1e0cbd-7d5c-5c21-a5c5-5d5f3e5e5e5e" "0,nonsense,1" "0,0" nonsense GPU- "-1,0" "0,2,1" "1,$U1" " 1" "01" "1x" "0,,1" "+1" "$(echo $U1 | tr a-f A-F)" "$(echo $U1 | tr A-Z a-z)" "$U1,$U1" "0,1,0" "1,0,1"; do
  echo "=== CUDA_VISIBLE_DEVICES=[$s]"
  with $A --json fixtures/app 2>$O/err.txt | $PY -c "$fc_view"; cat $O/err.txt
  with $DET driver
  with $PY -c "$torch_view" 2>&1 | tail -1
done
for o in PCI_BUS_ID FASTEST_FIRST; do
  echo "=== CUDA_DEVICE_ORDER=$o"
  env -u CUDA_VISIBLE_DEVICES CUDA_DEVICE_ORDER=$o $A --json fixtures/app 2>/dev/null | $PY -c "$fc_view"
  env -u CUDA_VISIBLE_DEVICES CUDA_DEVICE_ORDER=$o $PY -c "$torch_view" 2>&1 | tail -1
done
echo "=== names: NVML beside the driver"; $DET nvml; $DET driver
echo "=== text header with a cut list"; CUDA_VISIBLE_DEVICES=0,nonsense,1 $A fixtures/app | head -4
echo "=== --probe"; $A --probe fixtures/app | grep -E "probe|judging|sm_90" | head -6
echo "=== --require-targets, empty list"; CUDA_VISIBLE_DEVICES= $A --require-targets fixtures/app > /dev/null; echo "exit $?"
echo "=== a 10 ms limit"; $A --detect-timeout 0.01 --json fixtures/app 2>/dev/null | $PY -c "$fc_view"; sleep 0.5; echo "left behind: $(pgrep -f after/fatcheck | wc -l)"
echo "=== chatty stdout check"; $A --json $T | $PY -c "import json,sys; json.load(sys.stdin); print('json ok')"
echo "=== timings: median seconds of 21 runs, peak KiB"
cat $T > /dev/null
unset CUDA_VISIBLE_DEVICES
export LD_LIBRARY_PATH=$D/lib; M=$D/after/measure; A=$D/after/fatcheck; B=$D/before/fatcheck
echo "before default: $($M 21 $B $T)"
echo "after default: $($M 21 $A $T)"
echo "before --gpu 9.0 --driver 13.0: $($M 21 $B --gpu 9.0 --driver 13.0 $T)"
echo "after --gpu 9.0 --driver 13.0: $($M 21 $A --gpu 9.0 --driver 13.0 $T)"
echo "after default CUDA_VISIBLE_DEVICES=0: $(CUDA_VISIBLE_DEVICES=0 $M 21 $A $T)"
echo "after default CUDA_DEVICE_ORDER=PCI_BUS_ID: $(CUDA_DEVICE_ORDER=PCI_BUS_ID $M 21 $A $T)"
echo "after default --json: $($M 21 $A --json $T)"
for m in nvml-here nvml auto driver; do echo "detect $m: $($M 21 $D/after/detect $m)"; done
for m in nvml-here nvml auto driver; do $DET $m | head -1; done
echo "after default CUDA_VISIBLE_DEVICES=' 1' (the driver answers): $(CUDA_VISIBLE_DEVICES=' 1' $M 21 $A $T)"
for m in nvml-steps nvml-noattach nvml-threads cuda-dlopen nvml-steps; do echo "== $m"; $DET $m; done
for m in nvml-steps nvml-noattach nvml-threads cuda-dlopen; do echo "detect $m: $($M 21 $D/after/detect $m)"; done
echo "before default again: $($M 21 $B $T)"
echo "after default again: $($M 21 $A $T)"
date
