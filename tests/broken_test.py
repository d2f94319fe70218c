#!/usr/bin/env python3
"""fatcheck over hostile input: the broken-file corpus (fuzz/broken, made by
fuzz/make-corpus.py), plus what cannot be committed: a missing file, a FIFO, a symlink
loop, a multi-gigabyte sparse file. Each must give one stderr line naming the file and the
reason, exit status 3, no crash, no hang; the other inputs of the same run are still
reported. In the sanitizer build, AddressSanitizer and LeakSanitizer watch every run.

Usage: broken_test.py FATCHECK FIXTURES BROKEN FAKECUDA       Writes TAP."""
import os
import shutil
import subprocess
import sys
import tempfile
import time

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


def cut_while_scanned(name, source, args, d):
    """Copies SOURCE into D, starts fatcheck ARGS on it and a good file, and truncates the
    copy to a fifth while it is read (sooner each time the run ended first): exit 3, one
    stderr line saying the file changed, and the good file reported. Before file mappings
    survived this, the run died of SIGBUS."""
    global n, failed
    n += 1
    good = os.path.join(FIXTURES, "ptx_only.fatbin")
    copy = os.path.join(d, "cut-" + os.path.basename(source))
    problems = ["every run ended before the file was cut"]
    for delay in (0.3, 0.15, 0.08, 0.04, 0.02):
        shutil.copyfile(source, copy)
        size = os.path.getsize(copy)
        p = subprocess.Popen([FATCHECK] + args + [copy, good], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
        time.sleep(delay)
        os.truncate(copy, size // 5)
        out, err = p.communicate(timeout=300)
        if p.returncode == 0:
            continue  # it was done before the cut
        out, err = out.decode("utf-8", "replace"), err.decode("utf-8", "replace")
        lines = err.splitlines()
        problems = []
        if p.returncode != 3:
            problems.append("exit status %d, want 3 (delay %.2f s)" % (p.returncode, delay))
        if len(lines) != 1 or not lines[0].startswith("fatcheck: %s: the file changed while being read" % copy):
            problems.append("stderr %r, want one line saying %s changed" % (err[:600], copy))
        if good + ": 1 container" not in out:
            problems.append("the good file was not reported")
        break
    if problems:
        failed += 1
        print("not ok %d - %s" % (n, name))
        for p_ in problems:
            print("#   " + p_)
    else:
        print("ok %d - %s" % (n, name))
    sys.stdout.flush()


def main():
    global n
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
        # An object (no program headers) stripped of its section table: read as holding no
        # CUDA code before, exit 0.
        obj = bytearray(open(os.path.join(FIXTURES, "rdc_main.o"), "rb").read())
        obj[0x28:0x30] = bytes(8)
        obj[0x3a:0x40] = bytes(6)
        with open(os.path.join(d, "noshdr.o"), "wb") as f:
            f.write(obj)
        check("an object without its section table", [os.path.join(d, "noshdr.o")],
              "fatcheck: %s/noshdr.o: neither a section table nor a loaded segment" % d)
        # The kernel view reads a PTX file through its mapping, 600,000 entries in about a
        # second.
        ptx = os.path.join(d, "many.ptx")
        with open(ptx, "w") as f:
            f.write(".version 9.0\n.target sm_90\n.address_size 64\n\n")
            f.write("".join(".visible .entry kernel_%d(\n\t.param .u64 p\n)\n{\n\tret;\n}\n" % i
                            for i in range(600000)))
        cut_while_scanned("PTX file cut short under --kernels", ptx, ["--kernels", "-j", "1", "--gpu", "9.0"], d)
        os.unlink(ptx)
        os.unlink(os.path.join(d, "cut-many.ptx"))
        lt = "/usr/local/cuda/lib64/libcublasLt.so.13"
        if os.path.exists(lt):
            cut_while_scanned("libcublasLt.so.13 cut short under --kernels", lt,
                              ["--kernels", "-j", "1", "--gpu", "9.0"], d)
        else:
            n += 1
            print("ok %d - libcublasLt.so.13 cut short under --kernels # SKIP %s is absent" % (n, lt))
    print("1..%d" % n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
