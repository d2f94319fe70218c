"""The small harness of the golden tests on real files (golden_cuda_test.py,
golden_real_test.py, oracle_test.py): numbered TAP lines, skips with a reason, and the sha256
that tells whether a file is the build its expectations were taken from."""
import hashlib
import sys

_n = 0
_failed = 0


def report(ok, name, detail=""):
    """One test point: OK true passes, false fails with DETAIL, None is a skip saying DETAIL."""
    global _n, _failed
    _n += 1
    if ok is None:
        print("ok %d - %s # SKIP %s" % (_n, name, detail))
    elif ok:
        print("ok %d - %s" % (_n, name))
    else:
        _failed += 1
        print("not ok %d - %s" % (_n, name))
        for line in detail.splitlines():
            print("#   " + line)
    sys.stdout.flush()


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def done():
    """Prints the plan; returns the exit status (1 when a point failed)."""
    print("1..%d" % _n)
    return 1 if _failed else 0
