#!/bin/sh
# A/B CPU time (user + system, perf's task-clock) of two fatcheck builds on the same files,
# alternating so that both see the same machine load: ROUNDS rounds of `perf stat -r REPS`
# for each build and file; prints the median of the rounds and each round's figure (ms).
# Figures only. CPU time is steadier than wall time on a shared machine.
# Usage: bench/cpu_ab.sh BEFORE AFTER ROUNDS REPS FILE...   (fatcheck options in $FATCHECK_ARGS,
# default "-g sm_90": a named target, so no GPU detection is timed)
set -eu
a=$1 b=$2 rounds=$3 reps=$4
shift 4
cpu() {
    perf stat -r "$reps" -x, -e task-clock "$1" ${FATCHECK_ARGS:--g sm_90} "$2" 2>&1 >/dev/null | tail -1 | cut -d, -f1
}
for f in "$@"; do
    ta="" tb=""
    i=0
    while [ "$i" -lt "$rounds" ]; do
        ta="$ta $(cpu "$a" "$f")"
        tb="$tb $(cpu "$b" "$f")"
        i=$((i + 1))
    done
    python3 - "$f" "$ta" "$tb" <<'PY'
import statistics, sys
f, a, b = sys.argv[1], [float(x) for x in sys.argv[2].split()], [float(x) for x in sys.argv[3].split()]
ma, mb = statistics.median(a), statistics.median(b)
print("%s: before %.1f ms, after %.1f ms CPU (%+.1f%%); rounds before %s, after %s" % (
    f, ma, mb, 100 * (mb - ma) / ma, " ".join("%.1f" % x for x in a), " ".join("%.1f" % x for x in b)))
PY
done
