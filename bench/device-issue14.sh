#!/bin/sh
# device-issue14.sh - issue 14's figures on the device machine, for each fatcheck build named,
# side by side with the floors they are compared to (docs/performance.md):
#   - the default path: `fatcheck libtorch_cuda.so`, the local GPU detected (goal: 25 ms);
#   - site-packages warm with targets named, detected, at -j 4 and -j 64 (goal: 150 ms), beside
#     `find -type f`;
#   - the kernel view of libtorch_cuda.so at -j 1 to 128 (goal: 256 MiB peak);
#   - cuBLASLt's summary beside `cat` of the file (goal: 0.1 of it);
#   - site-packages cold, every file evicted first, beside reading again exactly the pages the
#     last cold run left in the page cache on 16 and 64 threads (goal: 1.2x).
#   LIBS=DIR sh bench/device-issue14.sh FATCHECK...     (LIBS: the Debian libraries it needs)
# MEASURE, RESIDENCY: bench/measure and bench/residency built on dev (default build/bench/);
# TORCH_SP: site-packages; CUBLASLT: the cuBLASLt judged; PARTS: which of "outputs default
# warm cublaslt kernels cold" (all); PASSES: passes of the warm figures (3). Each warm figure is
# measure's median seconds and largest peak RSS in KiB, builds alternating within each pass;
# a cold one is one run's wall time.
set -u
export LD_LIBRARY_PATH=${LIBS:-$PWD/.devdata/lib}
M=${MEASURE:-$PWD/build/bench/measure}
R=${RESIDENCY:-$PWD/build/bench/residency}
SP=${TORCH_SP:-/opt/torch/.venv/lib/python3.12/site-packages}
T=$SP/torch/lib/libtorch_cuda.so
C=${CUBLASLT:-$SP/nvidia/cu13/lib/libcublasLt.so.13}
W="--gpu 9.0 --driver 13.0"
PARTS=${PARTS:-outputs default warm cublaslt kernels cold}
PASSES=${PASSES:-3}
evict() { # every regular file under $1 (or named on standard input) out of the page cache
    { if [ $# -gt 0 ]; then find "$1" -type f -print0; else tr '\n' '\0'; fi; } | python3 -c '
import os, sys
for p in sys.stdin.buffer.read().split(b"\0"):
    try:
        fd = os.open(p, os.O_RDONLY)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        os.close(fd)
    except OSError:
        pass'
}
{ date -u; uname -r; nproc; lscpu | grep "Model name"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } 2>&1 | sed 's/^/[host] /'
"$1" $W "$SP" > /dev/null 2>&1; cat "$T" "$C" > /dev/null # warm
has() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
once() { # seconds one run of "$@" takes (measure runs a warm-up first)
    t0=$(date +%s%N); "$@" > /dev/null 2>&1; t1=$(date +%s%N)
    echo "$(( (t1 - t0) / 1000000 )) ms"
}
if has outputs; then
    for b in "$@"; do
        echo "[outputs $b] json $("$b" --json $W "$SP" 2>&1 | cksum) text detected $("$b" "$SP" 2>&1 | cksum)"
    done
fi
for p in $(seq 1 "$PASSES"); do
    for b in "$@"; do
        has default && echo "[$p $b] libtorch_cuda.so detected: $($M 21 "$b" "$T")"
        if has warm; then
            echo "[$p $b] site-packages $W: $($M 9 "$b" -q $W "$SP")"
            echo "[$p $b] site-packages detected: $($M 9 "$b" -q "$SP")"
        fi
        has cublaslt && echo "[$p $b] cuBLASLt $W: $($M 21 "$b" $W "$C")"
    done
    has warm && echo "[$p] find -type f: $($M 9 find "$SP" -type f)"
    has cublaslt && echo "[$p] cat cuBLASLt: $($M 21 cat "$C")"
done
for b in "$@"; do
    if has warm; then
        for j in 4 64; do echo "[$b] site-packages -j $j: $($M 5 "$b" -q -j $j $W "$SP")"; done
    fi
    if has kernels; then
        for j in 1 4 16 64 128; do echo "[$b] kernel view -j $j: $($M 3 "$b" -k -j $j $W "$T")"; done
    fi
done
if has cold; then
    for p in 1 2; do
        for b in "$@"; do
            evict "$SP"
            echo "[cold $p $b] site-packages $W: $(once "$b" -q $W "$SP")"
        done
    done
    find "$SP" -type f | $R record > /tmp/ranges.txt # what the last cold run read
    for t in 16 64; do
        cut -d' ' -f3- /tmp/ranges.txt | sort -u | evict
        echo "[cold floor] read again on $t threads: $($R replay $t < /tmp/ranges.txt)"
    done
fi
