#!/bin/sh
# Runs every test twice: in the release build, and in a build with AddressSanitizer and
# UndefinedBehaviorSanitizer (build-sanitize/, built without io_uring, so that the way a tree's
# heads are read without it is tested too: src/input/heads.h); with clang, fuzzes each target briefly and
# runs the multi-threaded paths under ThreadSanitizer (build-tsan/). Prints the failures, then as its last line
# "N passed, N failed" counting every test point of both runs. Exit 1 if any failed.
# Usage: sh scripts/test.sh   (after scripts/setup.sh)
set -u
cd "$(dirname "$0")/.."
if [ ! -d build-sanitize ]; then
    meson setup build-sanitize -Dbuildtype=debug -Db_sanitize=address,undefined -Db_lundef=false \
        -Dio_uring=disabled >/dev/null || exit 1
fi
ninja -C build >/dev/null && ninja -C build-sanitize >/dev/null || { echo "0 passed, 1 failed"; exit 1; }
# A whole run writes about 6 GB here (.eras/ 4.3 GB, the four builds 0.8 GB, ~/.cache 0.3 GB):
# say how much room there is, so that a run failing for a full disk says why.
free_gib() { df -Pk "$1" 2>/dev/null | awk 'NR == 2 { printf "%d", $4 / 1048576 }'; }
echo "== disk: $(free_gib .) GiB free here, $(free_gib "${TMPDIR:-/tmp}") GiB in ${TMPDIR:-/tmp}"
[ "$(free_gib .)" -ge 7 ] 2>/dev/null || echo "note: under 7 GiB free; failures below may be the disk's"
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
# An allocation past 3 GiB is a finding too (a size taken from the input and believed):
# nothing fatcheck reads in these tests needs that much.
export ASAN_OPTIONS=detect_leaks=$leaks:abort_on_error=1:max_allocation_size_mb=3072:allocator_may_return_null=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# Real files from other CUDA releases, for the driver oracle (tests/oracle): downloaded once
# into .eras/ (FATCHECK_ERAS=skip leaves them out; their tests then say they were skipped).
if [ "${FATCHECK_ERAS:-}" != skip ]; then
    echo "== files of other CUDA releases"
    sh scripts/fetch-eras.sh ${FATCHECK_ERAS:+--$FATCHECK_ERAS} 2>&1 | tail -n 3
fi
# The real files the golden tests beyond ELF check (Windows DLLs from npm, a Debian program):
# ~280 MB, downloaded once into ~/.cache/fatcheck/real (FATCHECK_REAL=skip leaves them out;
# their tests then say they were skipped). Without them those tests rot unseen: one kept a
# summary two changes old until a machine that had the files ran it.
if [ "${FATCHECK_REAL:-}" != skip ]; then
    echo "== real files beyond ELF"
    sh scripts/fetch-real-files.sh 2>&1 | tail -n 3
fi
for b in build build-sanitize; do
    echo "== tests in $b"
    meson test -C "$b" --print-errorlogs --no-rebuild 2>&1 | grep -E "^ *[0-9]+/[0-9]+ |^(Ok|Fail|Skipped|Timeout):" || true
done
# Each fuzzer, briefly (FUZZ_SECONDS each, default 15): a crash, leak or sanitizer report
# fails it, and the input that caused it is kept in fuzz/crashes/ for the replay tests.
fuzz_passed=0
fuzz_failed=0
seconds=${FUZZ_SECONDS:-15}
if command -v clang >/dev/null 2>&1; then
    echo "== fuzzing, ${seconds} s a target"
    if [ -d build-fuzz-ci ] || CC=clang meson setup build-fuzz-ci -Dfuzzing=true -Db_sanitize=address,undefined \
            -Db_lundef=false -Dbuildtype=debugoptimized >/dev/null 2>&1; then
        if ninja -C build-fuzz-ci >/dev/null 2>&1; then
            for t in fuzz_fatbin fuzz_scan fuzz_decompress fuzz_text fuzz_pe fuzz_escape fuzz_stream fuzz_image; do
                rm -rf build-fuzz-ci/fuzz-work
                out=$(sh fuzz/run.sh "$t" "$seconds" build-fuzz-ci)
                if grep -q "SUMMARY\|ERROR" "build-fuzz-ci/fuzz-work/$t.log"; then
                    echo "$t: FAILED"; grep -m3 "SUMMARY\|ERROR" "build-fuzz-ci/fuzz-work/$t.log"
                    fuzz_failed=$((fuzz_failed + 1))
                else
                    echo "$t: $(echo "$out" | grep -o 'Done [0-9]* runs in [0-9]* second(s)' | head -n 1)"
                    fuzz_passed=$((fuzz_passed + 1))
                fi
            done
        else
            echo "fuzzing: the libFuzzer build failed"; fuzz_failed=$((fuzz_failed + 1))
        fi
    fi
else
    echo "note: no clang, so no fuzzing here"
fi

# ThreadSanitizer over what runs on several threads: the split walk of registered sections,
# the embedded search, the helper pool and the kernel view. A race fails the check.
tsan_passed=0
tsan_failed=0
if command -v clang >/dev/null 2>&1; then
    echo "== ThreadSanitizer"
    if { [ -d build-tsan ] || CC=clang meson setup build-tsan -Db_sanitize=thread -Db_lundef=false \
            -Dbuildtype=debugoptimized >/dev/null 2>&1; } && ninja -C build-tsan >/dev/null 2>&1; then
        # CHECK NAME OK_CODES COMMAND...: passes when COMMAND exits with one of OK_CODES
        # (fatcheck's 1 is a verdict) and ThreadSanitizer said nothing.
        check() {
            name=$1 codes=$2
            shift 2
            TSAN_OPTIONS=halt_on_error=1:exitcode=66 "$@" >/dev/null 2>build-tsan/tsan.log
            rc=$?
            if echo " $codes " | grep -q " $rc " && ! grep -q ThreadSanitizer build-tsan/tsan.log; then
                echo "$name: ok"; tsan_passed=$((tsan_passed + 1))
            else
                echo "$name: FAILED (exit $rc)"; head -n 30 build-tsan/tsan.log; tsan_failed=$((tsan_failed + 1))
            fi
        }
        check "test_sections" "0" build-tsan/tests/test_sections
        check "test_pe (a .nv_fatb split at its records)" "0" build-tsan/tests/test_pe
        check "fixtures, kernel view, -j 4" "0 1" build-tsan/fatcheck --gpu 9.0 -j 4 --kernels fixtures
        check "packages, -j 4" "0 1" build-tsan/fatcheck --gpu 9.0 -j 4 fixtures/packages
        # A tree's files looked at on the scan's threads (walk.c); the odd files exit 3.
        check "a tree of folders, -j 4" "3" build-tsan/fatcheck --gpu 9.0 -j 4 fixtures tests
        # The readers judge what they read (fc_options.ahead), the first settling the targets
        # while the local GPUs are asked (none here).
        check "a tree judged ahead, targets detected, -j 4" "0 1" build-tsan/fatcheck -j 4 fixtures
        # The survey reads files whole on every thread and keeps what they said (survey.c).
        check "damaged files and fixtures in a tree, kernel view, -j 8" "3" build-tsan/fatcheck --gpu 9.0 -j 8 -k \
            fixtures fuzz/broken
        check "container images, layers at once, -j 4" "0 1" build-tsan/fatcheck --gpu 9.0 -j 4 tests/images/oci-gzip \
            tests/images/oci-zstd tests/images/whiteouts.tar tests/images/multi.tar tests/images/docker25.tar
        if [ -e /usr/local/cuda/lib64/libcublasLt.so.13 ]; then
            check "CUDA lib64, --embedded, -j 4" "0 1" build-tsan/fatcheck --gpu 9.0 -j 4 --embedded /usr/local/cuda/lib64
            # cuBLASLt's 8.7 MB of relocations are sifted in pieces on the scan's threads
            # (elf_pointers.c); --embedded leaves that search out.
            check "libcublasLt.so.13's relocations, -j 4" "0 1" build-tsan/fatcheck --gpu 9.0 -j 4 \
                /usr/local/cuda/lib64/libcublasLt.so.13
            # The kernel view's threads share one pool of names (name_pool.c).
            check "kernel view of libcufft.so.12, -j 4" "0 1" build-tsan/fatcheck --gpu 9.0 -j 4 -k \
                /usr/local/cuda/lib64/libcufft.so.12
        else
            echo "note: no /usr/local/cuda/lib64/libcublasLt.so.13, its ThreadSanitizer run is skipped"
        fi
    else
        echo "ThreadSanitizer: the build failed"; tsan_failed=$((tsan_failed + 1))
    fi
else
    echo "note: no clang, so no ThreadSanitizer run here"
fi

# Installing: fatcheck, the library and its headers, the pkg-config file, the man page, the
# JSON schema, the bash completion and the Python package, into a scratch root; then a program
# built from that install, and the Python package's tests importing it from there.
echo "== install"
rm -f build/meson-logs/python-installed.json
inst=$(mktemp -d)
install_ok=0
if DESTDIR="$inst" meson install -C build --quiet >/dev/null 2>&1; then
    pc=$(find "$inst" -name fatcheck.pc | head -n 1)
    prefix=$(sed -n 's/^prefix=//p' "$pc")
    printf '#include <fatcheck.h>\n#include <stdio.h>\nint main(void){fc_options o; fc_options_init(&o); puts(FC_VERSION_STRING); return 0;}\n' > "$inst/t.c"
    if PKG_CONFIG_PATH=$(dirname "$pc") PKG_CONFIG_SYSROOT_DIR="$inst" \
       cc -o "$inst/t" "$inst/t.c" $(PKG_CONFIG_PATH=$(dirname "$pc") PKG_CONFIG_SYSROOT_DIR="$inst" pkg-config --cflags --libs fatcheck) 2>/dev/null &&
       LD_LIBRARY_PATH=$(dirname "$(find "$inst" -name 'libfatcheck.so*' | head -n 1)") "$inst/t" >/dev/null &&
       [ -f "$inst$prefix/share/man/man1/fatcheck.1" ] && find "$inst" -path '*completions/fatcheck' | grep -q . &&
       [ -f "$inst$prefix/share/fatcheck/fatcheck.schema.json" ] &&
       [ -x "$inst$prefix/bin/fatcheck" ]; then
        install_ok=1
    fi
    # The Python package as installed (python/meson.build): its tests, importing it from there.
    pkg=$(find "$inst" -path '*-packages/fatcheck/__init__.py' | head -n 1)
    if [ -n "$pkg" ]; then
        FATCHECK_PYTHON_FROM=$(dirname "$pkg") meson test -C build --no-rebuild --logbase python-installed python \
            >/dev/null 2>&1
        echo "python package, installed: $(grep -c '^ok' build/meson-logs/python-installed.txt) ok," \
             "$(grep -c '^not ok' build/meson-logs/python-installed.txt) not ok"
    elif [ -d build/python/fatcheck ]; then
        echo "install: the Python package was built but not installed"; install_ok=0
    else
        echo "note: no Python package built (no Python headers?), so none installed"
    fi
fi
rm -rf "$inst"
[ "$install_ok" = 1 ] && echo "install: ok" || echo "install: FAILED"

FUZZ_PASSED=$((fuzz_passed + tsan_passed)) FUZZ_FAILED=$((fuzz_failed + tsan_failed)) INSTALL_OK=$install_ok python3 - build build-sanitize <<'PY'
import json, os, sys
passed = failed = skipped = 0
logs = [(b, b + "/meson-logs/testlog.json") for b in sys.argv[1:]]
if os.path.exists("build/meson-logs/python-installed.json"):  # the Python package, installed
    logs.append(("install", "build/meson-logs/python-installed.json"))
for build, log in logs:
    # A log that is missing or cut short (a full disk, a killed run) fails: its tests are unknown.
    try:
        lines = open(log).read().splitlines()
    except OSError as e:
        print("%s: its test log cannot be read: %s" % (build, e))
        failed += 1
        continue
    for n, line in enumerate(lines, 1):
        try:
            t = json.loads(line)
        except ValueError:
            print("%s: line %d of %s is not whole JSON (the disk full?)" % (build, n, log))
            failed += 1
            continue
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
if os.environ.get("INSTALL_OK") == "1":
    passed += 1
else:
    print("install: the installed files or a program built against them failed")
    failed += 1
passed += int(os.environ.get("FUZZ_PASSED", "0"))
failed += int(os.environ.get("FUZZ_FAILED", "0"))
print("%d skipped" % skipped)
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
PY
