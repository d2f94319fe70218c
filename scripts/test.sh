#!/bin/sh
# Runs every test twice: in the release build, and in a build with AddressSanitizer and
# UndefinedBehaviorSanitizer (build-sanitize/). Prints the failures, then as its last line
# "N passed, N failed" counting every test point of both runs. Exit 1 if any failed.
# Usage: sh scripts/test.sh   (after scripts/setup.sh)
set -u
cd "$(dirname "$0")/.."
if [ ! -d build-sanitize ]; then
    meson setup build-sanitize -Dbuildtype=debug -Db_sanitize=address,undefined -Db_lundef=false >/dev/null || exit 1
fi
ninja -C build >/dev/null && ninja -C build-sanitize >/dev/null || { echo "0 passed, 1 failed"; exit 1; }
# LeakSanitizer cannot run everywhere (under ptrace, in some sandboxes): probe it once, and
# say so when leak checks must be left out rather than fail every test for it.
leaks=1
probe=$(mktemp -d)
printf 'int main(void){return 0;}\n' > "$probe/p.c"
if cc -fsanitize=address -o "$probe/p" "$probe/p.c" 2>/dev/null; then
    ASAN_OPTIONS=detect_leaks=1 "$probe/p" >/dev/null 2>&1 || leaks=0
fi
rm -rf "$probe"
[ "$leaks" = 1 ] || echo "note: LeakSanitizer does not work here; leak checks are off"
export ASAN_OPTIONS=detect_leaks=$leaks:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
for b in build build-sanitize; do
    echo "== tests in $b"
    meson test -C "$b" --print-errorlogs --no-rebuild 2>&1 | grep -E "^ *[0-9]+/[0-9]+ |^(Ok|Fail|Skipped|Timeout):" || true
done
python3 - build build-sanitize <<'PY'
import json, sys
passed = failed = skipped = 0
for build in sys.argv[1:]:
    for line in open(build + "/meson-logs/testlog.json"):
        t = json.loads(line)
        points = [l for l in t.get("stdout", "").splitlines() if l.startswith(("ok ", "not ok "))]
        bad = [l for l in points if l.startswith("not ok")]
        skips = [l for l in points if "# SKIP" in l]
        for l in bad + skips:
            print("%s: %s: %s" % (build, t["name"], l))
        ok = len(points) - len(bad) - len(skips)
        # A test that crashed or timed out fails even where its TAP lines said ok.
        if t["result"] not in ("OK", "SKIP", "EXPECTEDFAIL") and not bad:
            print("%s: %s: %s" % (build, t["name"], t["result"]))
            bad = [t["result"]]
        if not points and t["result"] == "OK":
            ok = 1
        passed += ok
        failed += len(bad)
        skipped += len(skips)
print("%d skipped" % skipped)
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
PY
