"""The TAP harness every Python test script shares: register tests with @test, compare with
eq, and main() runs them all, printing "ok N"/"not ok N" (a test returning "skip: why" is a
skip) and "1..N", returning the exit status. What runs fatcheck is each script's own
(tap_cli.py holds the one of the scripts that take FATCHECK FIXTURES_DIR FAKECUDA_DIR).
TAP_ONLY=name runs only the tests whose names hold it (a developer's shortcut)."""
import os
import sys

_tests = []


def test(fn):
    _tests.append(fn)
    return fn


def eq(got, want, what=""):
    if got != want:
        raise AssertionError("%s\n got: %r\nwant: %r" % (what, got, want))


def main():
    failed = 0
    only = os.environ.get("TAP_ONLY")  # a developer's filter: tests whose names hold it
    chosen = [fn for fn in _tests if not only or only in fn.__name__]
    for n, fn in enumerate(chosen, 1):
        try:
            r = fn()
            if isinstance(r, str) and r.startswith("skip"):
                print("ok %d - %s # SKIP %s" % (n, fn.__name__, r[5:].strip()))
            else:
                print("ok %d - %s" % (n, fn.__name__))
        except Exception as e:  # report and go on: every test runs
            failed += 1
            print("not ok %d - %s" % (n, fn.__name__))
            for line in str(e).splitlines() or [repr(e)]:
                print("#   " + line)
        sys.stdout.flush()
    print("1..%d" % len(chosen))
    return 1 if failed else 0
