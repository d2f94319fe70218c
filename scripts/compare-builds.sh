#!/bin/sh
# Runs two fatcheck binaries over each file a list names and prints those whose exit code or
# standard error differ (what a change to reading says of real inputs: docs/packages.md).
# Usage: scripts/compare-builds.sh OLD NEW LIST   (LIST: one path a line; missing files skipped)
set -u
old=$1 new=$2 list=$3
n=0 differ=0
while IFS= read -r f; do
    [ -f "$f" ] || continue
    n=$((n + 1))
    a=$("$old" -q --gpu 9.0 --driver 13.0 "$f" 2>&1 >/dev/null; echo "exit $?")
    b=$("$new" -q --gpu 9.0 --driver 13.0 "$f" 2>&1 >/dev/null; echo "exit $?")
    if [ "$a" != "$b" ]; then
        differ=$((differ + 1))
        printf '%s\n  old: %s\n  new: %s\n' "$f" "$(echo "$a" | tr '\n' ' ' | cut -c1-300)" \
            "$(echo "$b" | tr '\n' ' ' | cut -c1-300)"
    fi
done < "$list"
echo "$differ of $n files differ"
