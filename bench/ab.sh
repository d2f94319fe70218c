#!/bin/sh
# A/B timing of two fatcheck builds on the same files, alternating so that both see the same
# machine load: ROUNDS rounds of `bench/measure RUNS` for each build and file; prints each
# round's median wall time (ms) and the median of the rounds. Figures only.
# Usage: bench/ab.sh BEFORE AFTER ROUNDS RUNS FILE... (fatcheck options in $FATCHECK_ARGS)
set -eu
measure=$(dirname "$0")/../build/bench/measure
a=$1 b=$2 rounds=$3 runs=$4
shift 4
for f in "$@"; do
    ta="" tb=""
    i=0
    while [ "$i" -lt "$rounds" ]; do
        ta="$ta $("$measure" "$runs" "$a" ${FATCHECK_ARGS:-} "$f" | cut -d' ' -f1)"
        tb="$tb $("$measure" "$runs" "$b" ${FATCHECK_ARGS:-} "$f" | cut -d' ' -f1)"
        i=$((i + 1))
    done
    python3 - "$f" "$ta" "$tb" <<'PY'
import statistics, sys
f, a, b = sys.argv[1], [float(x) * 1e3 for x in sys.argv[2].split()], [float(x) * 1e3 for x in sys.argv[3].split()]
ma, mb = statistics.median(a), statistics.median(b)
print("%s: before %.2f ms, after %.2f ms (%+.1f%%); rounds before %s, after %s" % (
    f, ma, mb, 100 * (mb - ma) / ma, " ".join("%.1f" % x for x in a), " ".join("%.1f" % x for x in b)))
PY
done
