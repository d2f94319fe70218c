#!/usr/bin/env python3
"""Archives cut short: each container format fatcheck reads, cut at a member boundary and
inside a member, is an error naming the file and why (a tar without its end marker is the
warning of packages_test.py); what real producers write reads clean with --strict. Every
fixture is made here, from the committed ones, with the producers' own tools where present
(GNU ar, Info-ZIP zip, GNU cpio, dpkg-deb, rpmbuild) and Python's zipfile and tarfile.

Usage: cuts_test.py FATCHECK FIXTURES_DIR FAKECUDA       Writes TAP."""
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tap_cli  # noqa: E402
from tap_cli import BASE_ENV, FATCHECK, FIXTURES, eq, fx, test  # noqa: E402

GPU = ("--gpu", "9.0", "--driver", "13.0")
CUT = ": it was cut short, and members after the cut are not seen"


def run(*args, data=None):
    p = subprocess.run([FATCHECK] + list(GPU) + list(args), input=data, capture_output=True, timeout=120, env=BASE_ENV)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def tool(cmd, data):
    return subprocess.run(cmd, input=data, stdout=subprocess.PIPE, check=True).stdout


def put(tmp, name, data):
    path = os.path.join(tmp, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def ar_members(b):
    """(header offset, size) of each member of an ar archive."""
    at, out = 8, []
    while at + 60 <= len(b):
        size = int(b[at + 48:at + 58])
        out.append((at, size))
        at += 60 + size + (size & 1)
    return out


def said(path, reason, data=None, rc=3):
    """PATH (or DATA through a pipe) gives exit RC and REASON alone on standard error."""
    got_rc, out, err = run("-" if data is not None else path, data=data)
    label = "(standard input)" if data is not None else path
    eq((got_rc, err), (rc, "fatcheck: %s: %s\n" % (label, reason) if reason else ""), label)
    return out


def needs(*tools):
    missing = [t for t in tools if not shutil.which(t)]
    if missing:
        print("# SKIP %s absent" % " ".join(missing))
    return not missing


def staged_members(tmp):
    """The members the archive tests put in an archive, in TMP/s: an -rdc object, one with a
    long name, a cubin. Returns the folder and their names, in order."""
    stage = os.path.join(tmp, "s")
    os.makedirs(stage)
    shutil.copy(fx("rdc_main.o"), stage)
    shutil.copy(fx("rdc_lto.o"), os.path.join(stage, "a_member_with_a_long_name.o"))
    shutil.copy(fx("kernels.sm_90.cubin"), os.path.join(stage, "z.cubin"))
    return stage, ["rdc_main.o", "a_member_with_a_long_name.o", "z.cubin"]


@test
def a_static_archive_cut_at_a_member_boundary_is_an_error():
    """A GNU ar archive cut right before a member read as whole: libelf's walk ends quietly
    where the bytes end, exit 0, the members after the cut unseen (a .a of one member left
    was "no CUDA code"). Its symbol table lists the offset of every member defining a symbol,
    its long-name table every long name: one listed past the end proves the cut. A cut
    before a member neither lists (no symbol, a short name) cannot be told."""
    if not needs("ar"):
        return
    with tempfile.TemporaryDirectory() as tmp:
        stage, names = staged_members(tmp)
        with open(os.path.join(stage, "data_file_with_a_long_name.txt"), "w") as f:
            f.write("no symbols here\n")
        for flags, extra in (("rcs", []), ("rcsD", ["data_file_with_a_long_name.txt"]), ("rcS", ["data_file_with_a_long_name.txt"])):
            lib = os.path.join(tmp, "lib%s.a" % flags)
            subprocess.run(["ar", flags, lib] + names + extra, cwd=stage, check=True)
            said(lib, None, rc=0)  # whole, it says nothing
            full = open(lib, "rb").read()
            members = ar_members(full)
            first = 2 if flags != "rcS" else 1  # the first member after the tables
            for at, _ in members[first:]:
                cut = put(tmp, "cut.a", full[:at])
                rc, out, err = run(cut)
                eq(rc, 3, "%s cut at 0x%x" % (flags, at))
                listed = members[len(names) + first - 1][0]  # z.cubin's, the last defining symbols
                if "s" in flags and at <= listed:  # the symbol table lists z.cubin
                    eq(err, "fatcheck: %s: the archive's symbol table lists a member at offset 0x%x, but the archive "
                       "ends at 0x%x%s\n" % (cut, listed, at, CUT))
                else:  # the long-name table names the data file, which defines no symbol
                    eq(err, "fatcheck: %s: the archive's long-name table names a member "
                       "data_file_with_a_long_name.txt that it does not hold%s\n" % (cut, CUT))
                assert "no CUDA code" not in out, out
            # Inside a tarball, the same.
            tgz = put(tmp, "cut.tar.gz", tool(["gzip", "-n", "-c"], tar_bytes([("lib.a", full[:members[-1][0]])])))
            rc, out, err = run(tgz)
            eq((rc, err.startswith("fatcheck: %s!lib.a: the archive's " % tgz)), (3, True), err)
        # Without a symbol table, a short-named member cut off is not told: what the docs say.
        lib = os.path.join(tmp, "short.a")
        subprocess.run(["ar", "rcS", lib, "rdc_main.o", "z.cubin"], cwd=stage, check=True)
        full = open(lib, "rb").read()
        said(put(tmp, "short_cut.a", full[:ar_members(full)[-1][0]]), None, rc=0)


def ar_header(name, size):
    return b"%-16s%-12s%-6s%-6s%-8s%-10d`\n" % (name, b"0", b"0", b"0", b"644", size)


@test
def a_member_the_symbol_table_lists_is_read_or_said():
    """GNU ld goes to the member header at the offset the symbol table lists for a symbol it
    needs, not member by member. An object whose header sat inside the symbol table's own bytes,
    or a later member named "/" or "/SYM64/" (taken for a table), was never read: "no CUDA
    code", exit 0 under --strict, where ld links it and the program it writes holds its fat
    binary (review of 2026-12-06, rt10 F1 and F2)."""
    obj = open(fx("rdc_main.o"), "rb").read()
    data = b"no symbols here\n"
    with tempfile.TemporaryDirectory() as tmp:
        # F1: "/" lists launch at a member header hidden after its strings.
        strings = b"launch\0plain\0\0"  # even: a member header where ar puts one
        table_size = 4 + 8 + len(strings) + 60 + len(obj)
        hidden = 8 + 60 + 4 + 8 + len(strings)
        plain = 8 + 60 + table_size + table_size % 2
        table = (2).to_bytes(4, "big") + hidden.to_bytes(4, "big") + plain.to_bytes(4, "big") + strings + \
            ar_header(b"hid.o/", len(obj)) + obj
        lib = b"!<arch>\n" + ar_header(b"/", len(table)) + table + b"\n" * (len(table) % 2) + \
            ar_header(b"plain.txt/", len(data)) + data
        assert lib.index(b"hid.o/") == hidden and lib.index(b"plain.txt/") == plain
        path = put(tmp, "libhid.a", lib)
        rc, out, err = run("--strict", path)
        eq((rc, err), (3, "fatcheck: %s: the archive's symbol table lists a member at offset 0x%x where no member "
                          "of the archive starts: GNU ld links what it finds there, which is not read\n"
                       % (path, hidden)))
        assert "no CUDA code" not in out, out
        # F2: a third member named "/" or "/SYM64/", which the table lists, is read.
        for name in (b"/", b"/SYM64/"):
            third = 8 + 60 + 16 + 60 + len(data) + len(data) % 2
            table = (1).to_bytes(4, "big") + third.to_bytes(4, "big") + b"launch\0\0"
            assert len(table) == 16
            lib = b"!<arch>\n" + ar_header(b"/", len(table)) + table + ar_header(b"plain.txt/", len(data)) + data + \
                b"\n" * (len(data) % 2) + ar_header(name, len(obj)) + obj
            assert lib.index(obj) == third + 60
            path = put(tmp, "libmid.a", lib)
            rc, out, err = run("--strict", path)
            eq((rc, err), (0, ""), name)
            assert "(/): 1 container in __nv_relfatbin" in out or "(/SYM64/): 1 container" in out, out
        # A "/" right after "/SYM64/" is no Windows .lib's second linker member (that follows a
        # 32-bit "/" alone): ld --whole-archive links it (rv10 2).
        table = b"\0" * 8
        lib = b"!<arch>\n" + ar_header(b"/SYM64/", len(table)) + table + ar_header(b"/", len(obj)) + obj
        rc, out, err = run(put(tmp, "libsym64.a", lib))
        eq((rc, err), (0, ""))
        assert "(/): 1 container in __nv_relfatbin" in out, out
        # A BSD archive's __.SYMDEF lists offsets ld follows the same way (rv10 1); two symbols
        # of one hidden member are one member more, not two.
        def bsd_hidden(extra):
            """A BSD archive whose __.SYMDEF lists launch and stub at hid.o, hidden after its
            strings, plain at plain.txt, and EXTRA offsets besides; its path and hid.o's offset."""
            strings = b"launch\0stub\0plain\0\0\0"  # even
            hidden = 8 + 60 + 4 + 8 * (3 + len(extra)) + 4 + len(strings)
            plain_at = hidden + 60 + len(obj) + len(obj) % 2
            pairs = [(0, hidden), (7, hidden), (12, plain_at)] + [(0, off) for off in extra]
            ranlib = b"".join(x.to_bytes(4, "little") for pair in pairs for x in pair)
            symdef = len(ranlib).to_bytes(4, "little") + ranlib + len(strings).to_bytes(4, "little") + strings + \
                ar_header(b"hid.o", len(obj)) + obj + b"\n" * (len(obj) % 2)
            assert hidden % 2 == 0 and len(symdef) % 2 == 0
            lib = b"!<arch>\n" + ar_header(b"__.SYMDEF", len(symdef)) + symdef + \
                ar_header(b"plain.txt", len(data)) + data
            assert lib.index(b"hid.o ") == hidden and lib.index(b"plain.txt ") == plain_at
            return put(tmp, "libbsd.a", lib), hidden
        path, hidden = bsd_hidden([])
        rc, out, err = run("--strict", path)
        eq((rc, err), (3, "fatcheck: %s: the archive's symbol table lists a member at offset 0x%x where no member "
                          "of the archive starts: GNU ld links what it finds there, which is not read\n"
                       % (path, hidden)))
        # One more entry, at offset 4, and the table holds together in neither byte order: it is
        # read in the order of the archive's ELF members, as ld reads it (rv11 1).
        path, hidden = bsd_hidden([4])
        rc, out, err = run("--strict", path)
        eq((rc, err), (3, "fatcheck: %s: the archive's symbol table lists a member at offset 0x4 (and 1 more) where "
                          "no member of the archive starts: GNU ld links what it finds there, which is not read\n"
                       % path))


def symdef(b, wide, big=False):
    """The member offsets of the __.SYMDEF(_64) of BSD archive B (its first member, "#1/N")."""
    at, size = ar_members(b)[0]
    skip = int(b[at + 3:at + 16])
    data, w, order = b[at + 60 + skip:at + 60 + size], 8 if wide else 4, "big" if big else "little"
    n = int.from_bytes(data[:w], order)
    return [int.from_bytes(data[w + i + w:w + i + 2 * w], order) for i in range(0, n, 2 * w)]


def symdef_swapped(b, wide):
    """B with the words of its __.SYMDEF(_64) turned big-endian, as Apple's tools write them for
    a big-endian target."""
    at, size = ar_members(b)[0]
    start = at + 60 + int(b[at + 3:at + 16])
    w = 8 if wide else 4
    n = int.from_bytes(b[start:start + w], "little")
    words = 1 + n // w + 1  # the array's size, the array, the string table's size
    out = bytearray(b)
    for i in range(words):
        p = start + i * w
        out[p:p + w] = b[p:p + w][::-1]
    return bytes(out)


@test
def a_bsd_static_archive_cut_at_a_member_boundary_is_an_error():
    """A BSD-format archive (llvm-ar --format=bsd or darwin) cut right before a member read as
    whole, exit 0 (one with only its symbol table left was "no CUDA code"): it has no GNU
    tables, and its symbol table, __.SYMDEF (little-endian from llvm-ar; Apple's tools write
    the target's byte order) or __.SYMDEF_64, was not read. A member offset it lists at or past
    the end proves the cut, from a file and inside a tarball; without a symbol table (rcS) the
    cut is not told, as the docs say."""
    llvm_ar = shutil.which("llvm-ar") or shutil.which("llvm-ar-14")
    if not llvm_ar:
        return "skip: llvm-ar absent"
    with tempfile.TemporaryDirectory() as tmp:
        stage, names = staged_members(tmp)
        for fmt, wide, env in (("bsd", False, {}), ("darwin", False, {}), ("darwin", True, {"SYM64_THRESHOLD": "0"})):
            lib = os.path.join(tmp, "lib%s%d.a" % (fmt, wide))
            subprocess.run([llvm_ar, "--format=" + fmt, "rcs", lib] + names, cwd=stage, check=True,
                           env=dict(os.environ, **env))
            made = open(lib, "rb").read()
            eq(made[68:68 + (12 if wide else 9)], b"__.SYMDEF_64" if wide else b"__.SYMDEF", "%s %s" % (fmt, wide))
            for full in (made, symdef_swapped(made, wide)):
                big = full is not made
                said(put(tmp, "whole.a", full), None, rc=0)  # whole, it says nothing
                listed = max(symdef(full, wide, big))
                members = ar_members(full)
                eq(listed, members[-1][0], "%s %s: the symbol table lists z.cubin" % (fmt, wide))
                for at, _ in members[1:]:
                    cut = put(tmp, "cut.a", full[:at])
                    rc, out, err = run(cut)
                    eq((rc, err), (3, "fatcheck: %s: the archive's symbol table lists a member at offset 0x%x, but "
                                   "the archive ends at 0x%x%s\n" % (cut, listed, at, CUT)),
                       "%s %s %s cut at 0x%x" % (fmt, wide, big, at))
                    assert "no CUDA code" not in out, out
                tgz = put(tmp, "cut.tar.gz", tool(["gzip", "-n", "-c"], tar_bytes([("lib.a", full[:listed])])))
                rc, out, err = run(tgz)
                eq((rc, err), (3, "fatcheck: %s!lib.a: the archive's symbol table lists a member at offset 0x%x, but "
                               "the archive ends at 0x%x%s\n" % (tgz, listed, listed, CUT)))
        # Without a symbol table a cut is not told: what the docs say.
        lib = os.path.join(tmp, "nosym.a")
        subprocess.run([llvm_ar, "--format=bsd", "qcS", lib] + names, cwd=stage, check=True)
        full = open(lib, "rb").read()
        said(put(tmp, "nosym_cut.a", full[:ar_members(full)[-1][0]]), None, rc=0)


@test
def a_zip_cut_short_is_an_error():
    """A zip is read from its central directory, found by the record that ends it; one cut
    short has neither, and libarchive reads it from the front instead: cut before a member's
    local header, that ended in "unknown error"; cut inside the central directory or its end
    record, the zip read as whole, exit 0, though pip, unzip and Python's zipfile refuse it.
    Now each says what is wrong, from a file, a pipe and inside a tar."""
    lib = open(fx("libmulti.so"), "rb").read()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("a/libmulti.so", lib)
        z.writestr("b/readme.txt", b"hello\n")
        z.writestr("c/k.cubin", open(fx("kernels.sm_90.cubin"), "rb").read())
    full = buf.getvalue()
    infos = zipfile.ZipFile(io.BytesIO(full)).infolist()
    cd = int.from_bytes(full[-6:-2], "little")
    no_cd = "the zip ends after %d members without its central directory" + CUT
    no_end = "the zip ends without its end-of-central-directory record: it was cut short, and its central " \
             "directory, which pip and unzip go by, is not whole"
    with tempfile.TemporaryDirectory() as tmp:
        for what, size, reason in (("before member 2", infos[1].header_offset, no_cd % 1),
                                   ("before member 3", infos[2].header_offset, no_cd % 2),
                                   ("before the central directory", cd, no_cd % 3),
                                   ("inside the central directory", cd + 50, no_end),
                                   ("before the end record", len(full) - 22, no_end),
                                   ("inside the end record", len(full) - 12, no_end)):
            path = put(tmp, "cut.zip", full[:size])
            said(path, reason)
            said(path, reason, data=full[:size])
            outer = put(tmp, "outer.tar", tar_bytes([("w.whl", full[:size])]))
            rc, out, err = run(outer)
            eq((rc, err), (3, "fatcheck: %s!w.whl: %s\n" % (outer, reason)), what)
        said(put(tmp, "whole.zip", full), None, rc=0)


@test
def a_zip_with_bytes_before_it_cut_short_is_an_error():
    """A zip behind a #! line (a zipapp) or a self-extracting stub is read by its end record
    (packages_test.py); cut short it has none. A zipapp's members stored (python -m zipapp
    without -c) were then searched as bytes and the CUDA library before the cut found: exit
    0, members after the cut unseen. Now a zipapp cut short is said so, stored or deflated,
    from a file and a pipe; behind a stub of other bytes, a deflated zip cut short is no zip,
    as before, exit 3 (a stored one is still searched as bytes: docs/packages.md)."""
    lib = open(fx("libmulti.so"), "rb").read()
    shebang = b"#!/usr/bin/env python3\n"
    reason = "a zip behind a #! line (a zipapp) that does not end with its end-of-central-directory record: it " \
             "was cut short, and its central directory, which Python goes by, is not whole"
    with tempfile.TemporaryDirectory() as tmp:
        for method, prefix, why in ((zipfile.ZIP_STORED, shebang, reason), (zipfile.ZIP_DEFLATED, shebang, reason),
                                    (zipfile.ZIP_DEFLATED, b"#!/bin/sh\necho self-extracting\nexit 0\n",
                                     "not an ELF file, archive, fat binary, cubin, PTX file or package")):
            buf = io.BytesIO()
            buf.write(prefix)
            with zipfile.ZipFile(buf, "w", method) as z:
                z.writestr("a/libmulti.so", lib)
                z.writestr("b/__main__.py", b"print(1)\n")
                z.writestr("c/k.cubin", open(fx("kernels.sm_90.cubin"), "rb").read())
            full = buf.getvalue()
            infos = zipfile.ZipFile(io.BytesIO(full)).infolist()
            end = len(full) - 22
            cd = end - int.from_bytes(full[-10:-6], "little")
            for what, size in (("before member 2", infos[1].header_offset),
                               ("before member 3", infos[2].header_offset),
                               ("before the central directory", cd), ("inside it", cd + 50),
                               ("before the end record", end), ("inside it", end + 10)):
                path = put(tmp, "cut.pyz", full[:size])
                label = "%s %r %s" % (method, prefix[:12], what)
                for data in (None, full[:size]):
                    rc, out, err = run("-" if data else path, data=data)
                    eq((rc, err), (3, "fatcheck: %s: %s\n" % ("(standard input)" if data else path, why)), label)
                    assert "no CUDA code" not in out, out
            rc, out, err = run("--strict", "-q", put(tmp, "whole.pyz", full))
            eq((rc, err), (0, ""), "%s %r whole" % (method, prefix[:12]))


@test
def zips_real_writers_make_read_clean():
    """Python's zipfile (deflated, stored with a comment, zip64 by size and by count) and
    Info-ZIP zip (files, a comment, stored, to a pipe): no cut said, from a file, a pipe and
    inside a tar, with --strict."""
    lib = open(fx("libmulti.so"), "rb").read()
    zips = []
    for kind in ("deflated", "comment", "zip64", "count"):
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED if kind == "comment" else zipfile.ZIP_DEFLATED) as z:
            if kind == "zip64":
                with z.open("a/libmulti.so", "w", force_zip64=True) as f:
                    f.write(lib)
            else:
                z.writestr("a/libmulti.so", lib)
            if kind == "comment":
                z.comment = b"c" * 1000
            if kind == "count":  # more members than the end record counts: zip64 end records
                for i in range(70000):
                    z.writestr("d/%d" % i, b"")
        zips.append(buf.getvalue())
    with tempfile.TemporaryDirectory() as tmp:
        if shutil.which("zip"):
            shutil.copy(fx("libmulti.so"), tmp)
            shutil.copy(fx("rdc_main.o"), tmp)
            for args in (["-q", "a.zip", "libmulti.so", "rdc_main.o"], ["-q", "-0", "b.zip", "libmulti.so"]):
                subprocess.run(["zip"] + args, cwd=tmp, check=True)
            subprocess.run(["zip", "-q", "-z", "c.zip", "libmulti.so"], cwd=tmp, input=b"a comment\n", check=True)
            zips += [open(os.path.join(tmp, n), "rb").read() for n in ("a.zip", "b.zip", "c.zip")]
            zips.append(subprocess.run(["zip", "-q", "-", "libmulti.so"], cwd=tmp, stdout=subprocess.PIPE,
                                       check=True).stdout)
        else:
            print("# SKIP zip absent")
        for i, data in enumerate(zips):
            path = put(tmp, "w%d.zip" % i, data)
            for args, pipe in (((path,), None), (("-",), data),
                               ((put(tmp, "t%d.tar" % i, tar_bytes([("w.whl", data)])),), None)):
                rc, out, err = run("--strict", *args, data=pipe)
                eq((rc, err), (0, ""), "%d %s" % (i, args))


@test
def a_cpio_cut_short_is_named_so():
    """libarchive's cpio reader ends with no message where a cpio (compressed, or an rpm's
    payload) is cut before its trailer or inside a member: "unknown error". Exit 3 before and
    after; now it says the trailer is missing, or the member cut. GNU cpio's newc, odc, crc and
    bin formats, and an rpm with an uncompressed payload cut between members."""
    if not needs("cpio"):
        return
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(fx("libmulti.so"), os.path.join(tmp, "a.so"))
        shutil.copy(fx("kernels.sm_90.cubin"), os.path.join(tmp, "c.cubin"))
        for fmt, hdr in (("newc", 110), ("odc", 76), ("crc", 110), ("bin", 26)):
            c = subprocess.run(["cpio", "-o", "-H", fmt, "--quiet"], input=b"a.so\nc.cubin\n", cwd=tmp,
                               stdout=subprocess.PIPE, check=True).stdout
            said(put(tmp, "whole.cpio.gz", tool(["gzip", "-n", "-c"], c)), None, rc=0)
            second = c.find(b"c.cubin\0") - hdr
            for size, reason in ((second, "the cpio ends after 1 members without its trailer (TRAILER!!!)" + CUT),
                                 (c.find(b"TRAILER!!!") - hdr, "the cpio ends after 2 members without its trailer "
                                  "(TRAILER!!!)" + CUT),
                                 (second + hdr + 300, "member c.cubin: the cpio ends inside this member: it was cut "
                                  "short")):
                data = tool(["gzip", "-n", "-c"], c[:size])
                said(put(tmp, "cut.cpio.gz", data), reason)
                said(None, reason, data=data)
        if shutil.which("rpmbuild"):
            rpm = build_rpm(tmp, "w.ufdio")
            whole = open(rpm, "rb").read()
            said(rpm, None, rc=0)
            second = whole.find(b"070701", whole.find(b"070701") + 6)
            said(put(tmp, "cut.rpm", whole[:second]), "the cpio ends after 1 members without its trailer "
                 "(TRAILER!!!)" + CUT)
        else:
            print("# SKIP rpmbuild absent")


def build_rpm(tmp, payload):
    """An rpm of libmulti.so and rdc_main.o, its payload compressed as PAYLOAD says."""
    top = os.path.join(tmp, "top-" + payload)
    os.makedirs(os.path.join(top, "SPECS"))
    spec = os.path.join(top, "SPECS", "r.spec")
    with open(spec, "w") as f:
        f.write("Name: r\nVersion: 1.0\nRelease: 1\nSummary: x\nLicense: MIT\nBuildArch: x86_64\n"
                "%%description\nx\n%%install\nmkdir -p %%{buildroot}/usr/lib64\n"
                "cp %s %s %%{buildroot}/usr/lib64/\n%%files\n/usr/lib64/libmulti.so\n/usr/lib64/rdc_main.o\n"
                % (fx("libmulti.so"), fx("rdc_main.o")))
    subprocess.run(["rpmbuild", "--define", "_topdir " + top, "--define", "_binary_payload " + payload,
                    "--define", "debug_package %{nil}", "--define", "__brp_strip /bin/true", "--define",
                    "__strip /bin/true", "--define", "_build_id_links none", "-bb", spec],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    rpms = os.path.join(top, "RPMS", "x86_64")
    return os.path.join(rpms, os.listdir(rpms)[0])


@test
def a_deb_cut_before_its_data_is_an_error():
    """libarchive's ar reader ends quietly where the bytes end, even inside a member's header:
    a .deb cut before its data.tar member read as "no CUDA code", exit 0. dpkg requires the
    member (deb(5)); now its absence is the error. Members after data.tar, which dpkg
    ignores, may be cut off unsaid."""
    for name in ("demo-cuda_1.0_amd64.deb", "demo-cuda-zst_1.0_amd64.deb"):
        full = open(os.path.join(FIXTURES, "packages", name), "rb").read()
        members = ar_members(full)
        with tempfile.TemporaryDirectory() as tmp:
            for size, n in ((members[1][0], 1), (members[2][0], 2), (members[2][0] + 30, 2)):
                reason = "the .deb ends after %d members without its data.tar member: it was cut short, and the " \
                         "package's files are not seen" % n
                out = said(put(tmp, "cut.deb", full[:size]), reason)
                assert "no CUDA code" not in out, out
                said(None, reason, data=full[:size])


@test
def a_compressed_stream_cut_after_the_archive_is_an_error():
    """libarchive stops reading where the archive inside ends, so an xz stream (decoded by
    fatcheck) cut in its index or footer read as whole, exit 0: a .tar.xz, an rpm's xz payload.
    Now read to its end. Whole ones (Python's tarfile, GNU tar, xz -T4) read clean."""
    lib = open(fx("libmulti.so"), "rb").read()
    tar = tar_bytes([("libmulti.so", lib)])
    with tempfile.TemporaryDirectory() as tmp:
        xz = tool(["xz", "-c"], tar)
        reason = "after the archive's end: xz stream ends early: it was cut short or is damaged"
        said(put(tmp, "cut.tar.xz", xz[:-4]), reason)
        said(None, reason, data=xz[:-4])
        for whole in (xz, tool(["xz", "-T4", "-c"], tar)):
            rc, out, err = run("--strict", put(tmp, "whole.tar.xz", whole))
            eq((rc, err), (0, ""))
        rpm = open(os.path.join(FIXTURES, "packages", "demo-cuda-1.0-1.x86_64.rpm"), "rb").read()
        said(put(tmp, "cut.rpm", rpm[:-8]), reason)


@test
def what_real_producers_write_reads_clean():
    """GNU ar (rcs, rcsD, rcS, qc, after ar d, after ranlib), GNU cpio (gzip), dpkg-deb (none,
    gzip, xz, zstd), rpmbuild (uncompressed, gzip, xz and zstd payloads), GNU tar (plain, xz):
    with --strict, from a file and a pipe, nothing said, exit 0."""
    with tempfile.TemporaryDirectory() as tmp:
        stage = os.path.join(tmp, "s")
        os.makedirs(stage)
        shutil.copy(fx("rdc_main.o"), stage)
        shutil.copy(fx("rdc_lto.o"), os.path.join(stage, "a_member_with_a_long_name.o"))
        shutil.copy(fx("libmulti.so"), stage)
        made = []
        if shutil.which("ar"):
            objs = ["rdc_main.o", "a_member_with_a_long_name.o", "libmulti.so"]
            for flags in ("rcs", "rcsD", "rcS", "qc"):
                made.append(os.path.join(tmp, flags + ".a"))
                subprocess.run(["ar", flags, made[-1]] + objs, cwd=stage, check=True)
            subprocess.run(["ar", "d", made[0], "libmulti.so"], check=True)
            subprocess.run(["ar", "d", made[1], "a_member_with_a_long_name.o"], check=True)
            subprocess.run(["ranlib", made[3]], check=True)
        if shutil.which("cpio"):
            for fmt in ("newc", "odc", "crc", "bin"):
                c = subprocess.run(["cpio", "-o", "-H", fmt, "--quiet"], input=b"libmulti.so\nrdc_main.o\n",
                                   cwd=stage, stdout=subprocess.PIPE, check=True).stdout
                made.append(put(tmp, fmt + ".cpio.gz", tool(["gzip", "-n", "-c"], c)))
        if shutil.which("dpkg-deb"):
            for comp in ("none", "gzip", "xz", "zstd"):
                root = os.path.join(tmp, "deb-" + comp)
                os.makedirs(os.path.join(root, "DEBIAN"))
                os.makedirs(os.path.join(root, "usr", "lib"))
                shutil.copy(fx("libmulti.so"), os.path.join(root, "usr", "lib"))
                with open(os.path.join(root, "DEBIAN", "control"), "w") as f:
                    f.write("Package: d\nVersion: 1.0\nArchitecture: amd64\nMaintainer: x <x@example.org>\n"
                            "Description: x\n")
                made.append(os.path.join(tmp, comp + ".deb"))
                subprocess.run(["dpkg-deb", "--root-owner-group", "-Z" + comp, "--build", root, made[-1]],
                               stdout=subprocess.DEVNULL, check=True)
        if shutil.which("rpmbuild"):
            made += [build_rpm(tmp, p) for p in ("w.ufdio", "w9.gzdio", "w6.xzdio", "w19.zstdio")]
        if shutil.which("tar"):
            for args, name in ((["cf"], "gnu.tar"), (["cJf"], "gnu.tar.xz")):
                made.append(os.path.join(tmp, name))
                subprocess.run(["tar"] + args + [made[-1], "-C", stage, "libmulti.so", "rdc_main.o"], check=True)
        for path in made:
            with open(path, "rb") as f:
                data = f.read()
            for args, pipe in (((path,), None), (("-",), data)):
                rc, out, err = run("--strict", *args, data=pipe)
                eq((rc, err), (0, ""), "%s %s" % (os.path.basename(path), args))
        print("# checked: %s" % " ".join(os.path.basename(p) for p in made))


def tar_bytes(members):
    b = io.BytesIO()
    with tarfile.open(fileobj=b, mode="w", format=tarfile.GNU_FORMAT) as t:
        for name, data in members:
            i = tarfile.TarInfo(name)
            i.size = len(data)
            t.addfile(i, io.BytesIO(data))
    return b.getvalue()


if __name__ == "__main__":
    sys.exit(tap_cli.main())
