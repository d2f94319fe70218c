#!/bin/sh
# Runs one libFuzzer target until it has run SECONDS or 10 million inputs, whichever first.
# Usage: fuzz/run.sh TARGET SECONDS [BUILD]   (BUILD: a meson build dir configured with
#   CC=clang meson setup build-fuzz -Dfuzzing=true -Db_sanitize=address,undefined -Db_lundef=false)
# The working corpus grows in BUILD/fuzz-work/TARGET (seeded from fuzz/corpus/TARGET); a crash
# lands in fuzz/crashes/TARGET, where the replay test picks it up. The log is
# BUILD/fuzz-work/TARGET.log; its last line says how many inputs ran and for how long.
set -eu
target=$1
seconds=$2
build=${3:-build-fuzz}
here=$(cd "$(dirname "$0")" && pwd)
work="$build/fuzz-work/$target"
mkdir -p "$work" "$here/crashes/$target"
ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
"$build/fuzz/$target" "$work" "$here/corpus/$target" \
    -max_total_time="$seconds" -runs=10000000 -rss_limit_mb=2048 -timeout=20 \
    -artifact_prefix="$here/crashes/$target/" -print_final_stats=1 \
    > "$build/fuzz-work/$target.log" 2>&1 || true
grep -E "^stat::number_of_executed_units|^stat::average_exec_per_sec|Done [0-9]+ runs|ERROR|SUMMARY" \
    "$build/fuzz-work/$target.log" | tail -5
