#!/bin/sh
# Compares fatcheck --list-elf/--list-ptx with NVIDIA's cuobjdump, byte for byte.
# Usage: scripts/compare-cuobjdump.sh FATCHECK FILE...
# Needs cuobjdump on PATH (CUDA toolkit). Prints a line per file and listing:
#   SAME|DIFF  elf|ptx  LINES  FILE
# then the first differing lines of each DIFF, and exits 1 if any listing differed.
set -u
fatcheck=$1; shift
CUOBJDUMP=${CUOBJDUMP:-cuobjdump}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for f in "$@"; do
    for m in elf ptx; do
        "$CUOBJDUMP" --list-$m "$f" > "$tmp/want" 2>/dev/null
        "$fatcheck" --list-$m "$f" > "$tmp/got" 2>/dev/null
        n=$(wc -l < "$tmp/want")
        if cmp -s "$tmp/want" "$tmp/got"; then
            echo "SAME $m $n $f"
        else
            echo "DIFF $m $n $f"
            diff "$tmp/want" "$tmp/got" | head -6 | sed 's/^/    /'
            status=1
        fi
    done
done
exit $status
