#!/usr/bin/env python3
"""fatcheck over hostile input: the broken-file corpus (fuzz/broken, made by
fuzz/make-corpus.py), plus what cannot be committed: a missing file, a FIFO, a symlink
loop, a multi-gigabyte sparse file. Each must give one stderr line naming the file and the
reason, exit status 3, no crash, no hang; the other inputs of the same run are still
reported. In the sanitizer build, AddressSanitizer and LeakSanitizer watch every run.

Usage: broken_test.py FATCHECK FIXTURES BROKEN FAKECUDA       Writes TAP."""
import os
import subprocess
import sys
import tempfile

FATCHECK, FIXTURES, BROKEN, FAKECUDA = (os.path.abspath(p) for p in sys.argv[1:5])
ENV = {k: v for k, v in os.environ.items() if not k.startswith(("CUDA_", "FAKE_CUDA_"))}
ENV["LD_LIBRARY_PATH"] = FAKECUDA
# A GPU to judge for: without one, a warning that nothing is judged would come before the
# one line each input must give.
ENV["FAKE_CUDA_DEVICES"] = "NVIDIA H200:9.0"
n = failed = 0


def check(name, args, want_line):
    """Runs fatcheck ARGS + a good file; expects exit 3, one stderr line starting with
    WANT_LINE, and the good file reported."""
    global n, failed
    n += 1
    good = os.path.join(FIXTURES, "ptx_only.fatbin")
    try:
        p = subprocess.run([FATCHECK] + args + [good], capture_output=True, timeout=30, env=ENV)
        err = p.stderr.decode("utf-8", "replace")
        out = p.stdout.decode("utf-8", "replace")
        lines = err.splitlines()
        problems = []
        if p.returncode != 3:
            problems.append("exit status %d, want 3" % p.returncode)
        if len(lines) != 1 or not lines[0].startswith(want_line):
            problems.append("stderr %r, want one line starting %r" % (err[:600], want_line))
        if good + ": 1 container" not in out and '"path":"%s"' % good not in out:
            problems.append("the good file was not reported")
    except subprocess.TimeoutExpired:
        problems = ["hung (30 s)"]
    if problems:
        failed += 1
        print("not ok %d - %s" % (n, name))
        for p_ in problems:
            print("#   " + p_.replace("\n", "\n#   "))
    else:
        print("ok %d - %s" % (n, name))
    sys.stdout.flush()


def main():
    for name in sorted(os.listdir(BROKEN)):
        path = os.path.join(BROKEN, name)
        # The summary reads headers only; a corrupt stream shows once images are read.
        streams = name.startswith(("corrupt-", "declared-size"))
        args = ["--kernels", path] if streams else [path]
        check(name, args, "fatcheck: " + path)
        check(name + " (JSON)", ["--json"] + args, "fatcheck: " + path)
    with tempfile.TemporaryDirectory() as d:
        check("missing file", [os.path.join(d, "missing")], "fatcheck: %s/missing: cannot open" % d)
        fifo = os.path.join(d, "fifo")
        os.mkfifo(fifo)
        check("FIFO named directly", [fifo], "fatcheck: %s: not a regular file" % fifo)
        loop = os.path.join(d, "tree")
        os.makedirs(os.path.join(loop, "a"))
        os.symlink("..", os.path.join(loop, "a", "up"))
        check("symlink loop", ["--follow", loop], "fatcheck: %s/a/up: symlink loop" % loop)
        sparse = os.path.join(d, "sparse.bin")
        with open(sparse, "wb") as f:
            f.truncate(3 << 30)  # 3 GiB of nothing, on no disk
        check("3 GiB sparse file", [sparse], "fatcheck: %s: not an ELF file" % sparse)
        elf = os.path.join(d, "sparse.so")
        with open(elf, "wb") as f:  # a real ELF header, then 3 GiB of holes
            f.write(open(os.path.join(FIXTURES, "libmulti.so"), "rb").read()[:64])
            f.truncate(3 << 30)
        check("3 GiB sparse ELF", [elf], "fatcheck: %s: " % elf)
    print("1..%d" % n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
