#!/bin/sh
# device-ptx-read.sh - what reading registered PTX for its bytes (review 8, A3) costs: cuSPARSELt's
# libcusparseLt.so.0 (a 70 MB compute_75 PTX module that sm_90 JITs) and the whole site-packages,
# for each fatcheck build named, side by side (docs/performance.md, runs 45 to 48).
#   LIBS=DIR sh bench/device-ptx-read.sh FATCHECK...     (LIBS: the Debian libraries it needs)
# MEASURE: bench/measure built on dev (default build/bench/measure); TORCH_SP: site-packages.
set -u
export LD_LIBRARY_PATH=${LIBS:-$PWD/.devdata/lib}
M=${MEASURE:-$PWD/build/bench/measure}
SP=${TORCH_SP:-/opt/torch/.venv/lib/python3.12/site-packages}
C=$SP/nvidia/cusparselt/lib/libcusparseLt.so.0
first=$1
"$first" --gpu 9.0 --driver 13.0 "$SP" > /dev/null 2>&1 # warm the page cache
for b in "$@"; do
    "$b" --json --gpu 9.0,10.0,12.0,8.6 --driver 13.0 "$SP" 2>&1 | cksum | sed "s|^|json cksum $b: |"
done
for p in 1 2 3; do
    for b in "$@"; do
        echo "[$p $b] cusparseLt 9.0: $($M 7 "$b" --gpu 9.0 --driver 13.0 "$C")"
        echo "[$p $b] cusparseLt 9.0,10.0,12.0,8.6: $($M 5 "$b" --gpu 9.0,10.0,12.0,8.6 --driver 13.0 "$C")"
        echo "[$p $b] site-packages --gpu 9.0: $($M 9 "$b" --gpu 9.0 --driver 13.0 "$SP")"
        echo "[$p $b] site-packages detected: $($M 9 "$b" "$SP")"
    done
done
for b in "$@"; do echo "[-j 1 $b] site-packages --gpu 9.0: $($M 3 "$b" -j 1 --gpu 9.0 --driver 13.0 "$SP")"; done
