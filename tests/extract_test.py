#!/usr/bin/env python3
"""--extract: every image gets a file of its own, and nothing already in DIR is opened.

Usage: extract_test.py FATCHECK FIXTURES_DIR FAKECUDA_DIR. Names are cuobjdump's (-xelf);
a name taken earlier in the run gets -2, -3... before its extension; a name longer than the
directory allows keeps the start of its stem, a hash of the whole stem, and its tail. With
--force an existing file is replaced by renaming a new file over it: a FIFO or other
non-regular file is refused, a hard link to a file outside DIR is replaced, not written
through. (tests/cli_test.py has the naming and the refusal to follow links or leave DIR.)"""
import os
import shutil
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap_cli import SOURCE_ROOT, eq, fx, main, run, test  # noqa: E402

MULTI = ["libmulti.1.sm_75.cubin", "libmulti.2.sm_80.cubin", "libmulti.1.sm_80.ptx", "libmulti.3.sm_90.cubin",
         "libmulti.2.sm_90.ptx"]


def extract(out_dir, *inputs, force=False, timeout=60):
    args = ["-q", "--gpu", "sm_90", "--extract", out_dir] + (["--force"] if force else []) + list(inputs)
    return run(*args, timeout=timeout)


def suffixed(name, n):
    stem, ext = name.rsplit(".", 1)
    return "%s-%d.%s" % (stem, n, ext)


def files(d):
    return sorted(os.listdir(d))


@test
def inputs_with_the_same_name_keep_every_image():
    with tempfile.TemporaryDirectory() as tmp:
        for sub in ("a", "b"):
            os.makedirs(os.path.join(tmp, sub))
            shutil.copy(fx("libmulti.so"), os.path.join(tmp, sub, "libmulti.so"))
        out = os.path.join(tmp, "out")
        inputs = [os.path.join(tmp, "a", "libmulti.so"), os.path.join(tmp, "b", "libmulti.so")]
        rc, _, err = extract(out, *inputs)
        eq(rc, 0, err)
        eq(files(out), sorted(MULTI + [suffixed(n, 2) for n in MULTI]))
        for n in MULTI:
            eq(open(os.path.join(out, n), "rb").read(), open(os.path.join(out, suffixed(n, 2)), "rb").read(), n)
        eq(err, ("fatcheck: wrote 10 images to %s; 5 given a suffix (-2, -3...) because an image before had "
                 "the same name\n" % out).encode())
        # again with --force: the same names, replaced; no temporary file left behind
        rc, _, err = extract(out, *inputs, force=True)
        eq(rc, 0, err)
        eq(files(out), sorted(MULTI + [suffixed(n, 2) for n in MULTI]))


@test
def cubin_members_of_a_package_are_named_after_themselves():
    with tempfile.TemporaryDirectory() as tmp:
        pkg = os.path.join(tmp, "kernels.tar")
        with tarfile.open(pkg, "w") as t:
            t.add(fx("kernels.sm_90.cubin"), arcname="a/k.cubin")
            t.add(fx("shared.sm_90.cubin"), arcname="b/k.cubin")
            t.add(fx("kernels.sm_90a.cubin"), arcname="c/other.cubin")
        out = os.path.join(tmp, "out")
        rc, _, err = extract(out, pkg)
        eq(rc, 0, err)
        eq(files(out), ["k.sm_90-2.cubin", "k.sm_90.cubin", "other.sm_90a.cubin"])
        eq(open(os.path.join(out, "k.sm_90.cubin"), "rb").read(), open(fx("kernels.sm_90.cubin"), "rb").read())
        eq(open(os.path.join(out, "k.sm_90-2.cubin"), "rb").read(), open(fx("shared.sm_90.cubin"), "rb").read())
        rc, listing, err = run("--list-elf", pkg)
        eq([line.split(b": ", 1)[1] for line in listing.splitlines() if line.startswith(b"ELF file")],
           [b"k.sm_90.cubin", b"k.sm_90.cubin", b"other.sm_90a.cubin"])


@test
def force_never_opens_what_is_already_there():
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        os.makedirs(out)
        os.mkfifo(os.path.join(out, MULTI[0]))  # opening it for writing would block
        os.mkdir(os.path.join(out, MULTI[2]))
        victim = os.path.join(tmp, "victim")
        open(victim, "w").write("keep me")
        os.link(victim, os.path.join(out, MULTI[1]))  # a hard link to a file outside DIR
        open(os.path.join(out, MULTI[3]), "w").write("old")
        rc, _, err = extract(out, fx("libmulti.so"), force=True, timeout=20)
        eq(rc, 4)
        eq(err.decode().splitlines(), [
            "fatcheck: %s/%s: exists and is not a regular file; not replaced" % (out, MULTI[0]),
            "fatcheck: %s/%s: exists and is not a regular file; not replaced" % (out, MULTI[2]),
            "fatcheck: wrote 3 images to %s" % out])
        eq(open(victim).read(), "keep me")
        eq(os.stat(victim).st_nlink, 1)  # the link in DIR was replaced by a new file
        cubins = {}
        rc, _, _ = extract(os.path.join(tmp, "fresh"), fx("libmulti.so"))
        for n in (MULTI[1], MULTI[3]):
            cubins[n] = open(os.path.join(tmp, "fresh", n), "rb").read()
            eq(open(os.path.join(out, n), "rb").read(), cubins[n], n)
        eq([f for f in files(out) if f.startswith(".")], [], "temporary files left")


@test
def long_input_names_are_shortened_and_stay_apart():
    with tempfile.TemporaryDirectory() as tmp:
        names = ["L" * 245 + ".so", "L" * 240 + "xxxxx.so"]  # legal names, 248 bytes
        inputs = []
        for n in names:
            shutil.copy(fx("libmulti.so"), os.path.join(tmp, n))
            inputs.append(os.path.join(tmp, n))
        out = os.path.join(tmp, "out")
        rc, _, err = extract(out, *inputs)
        eq(rc, 0, err)
        got = files(out)
        eq(len(got), 10)
        assert all(len(f.encode()) <= 255 for f in got), got
        for m in MULTI:
            tail = m[len("libmulti"):]
            eq(len([f for f in got if f.endswith(tail) and f.startswith("L" * 200)]), 2, tail)


@test
def a_cubin_file_keeps_the_name_cuobjdump_lists():
    """A cubin named on its own is written as cuobjdump --list-elf names it (the golden listing
    recorded from cuobjdump 13.0): kernels.sm_90.cubin -> kernels.sm_90.sm_90.cubin. One image
    is "1 image"."""
    golden = os.path.join(SOURCE_ROOT, "tests", "golden", "fixtures")
    with tempfile.TemporaryDirectory() as tmp:
        for cubin in ("kernels.sm_90.cubin", "kernels.sm_90a.cubin"):
            listed = open(os.path.join(golden, cubin + ".list-elf")).read().split(": ", 1)[1].strip()
            out = os.path.join(tmp, cubin)
            rc, _, err = extract(out, fx(cubin))
            eq(rc, 0, err)
            eq(files(out), [listed])
            eq(open(os.path.join(out, listed), "rb").read(), open(fx(cubin), "rb").read())
            eq(err, ("fatcheck: wrote 1 image to %s\n" % out).encode())


if __name__ == "__main__":
    sys.exit(main())
