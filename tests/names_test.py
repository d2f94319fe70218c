#!/usr/bin/env python3
"""Names from inputs and drivers cannot forge report lines, drive the terminal or break JSON.

Usage: names_test.py FATCHECK FIXTURES_DIR FAKECUDA_DIR. The scheme (fatcheck(1), "NAMES"):
text quotes a name that holds control characters, bytes that are not UTF-8, '"' or '\\' in
double quotes with C escapes (git's quoting); text in sentences gets the escapes without quotes;
JSON is always UTF-8, with U+FFFD for bytes that are not, and the exact bytes in a KEY_bytes
sibling in base64. Every file here is a fixture copied under a hostile name, or with a kernel
name rewritten in place (same length)."""
import base64
import codecs
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import schema_validate  # noqa: E402
from tap_cli import FATCHECK, FIXTURES, NO_GPU, SOURCE_ROOT, eq, fx, main, run, test  # noqa: E402

HOSTILE = [
    b"evil\nlibtorch_cuda.so: 1 container in .nv_fatbin\n  cubin 1 sm_90:1",  # forges report lines
    b"\x1b[31mred\x1b[0m.so",      # recolours the terminal
    b"\x1b]0;title\x07.so",        # sets the window title
    b"overlong\xe0\x80\xaf.so",    # overlong '/'
    b"surrogate\xed\xa0\x80.so",   # UTF-16 surrogate
    b"above\xf4\x90\x80\x80.so",   # above U+10FFFF
    b"truncated\xe2\x82.so",       # a sequence cut short
    b"lone\xff.so",
    b"csi\xc2\x9b31m.so",          # C1 control (8-bit CSI)
    b"bidi\xe2\x80\xaeos.so",      # right-to-left override
    b"del\x7f.so",
    b"cr\rx.so",
    b'quote".so',
    b"back\\slash.so",
]
PLAIN = [b"plain.so", b"caf\xc3\xa9 \xe2\x9c\x93.so", b"sp ace's.so"]  # printed as they are

BIDI = {0x061c, 0x200e, 0x200f, 0x2028, 0x2029} | set(range(0x202a, 0x202f)) | set(range(0x2066, 0x206a))


def clean(data, what, allow=b""):
    """DATA (a whole output) is UTF-8 with no control character but newlines (and ALLOW)."""
    text = data.decode("utf-8")  # strict: no overlong forms, surrogates or bytes above U+10FFFF
    bad = [c for c in text if (ord(c) < 0x20 and c != "\n" and c.encode() not in allow)
           or 0x7f <= ord(c) <= 0x9f or ord(c) in BIDI]
    assert not bad, "%s: control characters %r in %r" % (what, bad, data[:300])


def unquote(token):
    """The bytes a printed name stands for: C escapes undone inside double quotes."""
    if token.startswith(b'"'):
        assert token.endswith(b'"') and len(token) >= 2, token
        return codecs.escape_decode(token[1:-1])[0]
    return token


def copies(tmp, names, fixture="libmulti.so"):
    paths = []
    for n in names:
        p = os.path.join(os.fsencode(tmp), n)
        shutil.copy(fx(fixture), p)
        paths.append(p)
    return paths


@test
def file_names_in_the_summary():
    with tempfile.TemporaryDirectory() as tmp:
        paths = copies(tmp, HOSTILE + PLAIN)
        rc, want, err = run(paths[len(HOSTILE)])
        eq((rc, err), (0, NO_GPU))
        want_rest = want.split(b": ", 1)[1]
        for p in paths:
            rc, out, err = run(p)
            eq((rc, err), (0, NO_GPU), p)
            clean(out, p)
            token, rest = out.split(b": 3 containers", 1)
            eq(unquote(token), p, "the printed name stands for the file's exact bytes")
            eq(b"3 containers" + rest, want_rest, p)
            eq(token == p, p in paths[len(HOSTILE):], "quoted exactly when needed: %r" % token)
        # the whole directory: one report per file, every first line starting with a name
        rc, out, err = run(tmp)
        eq(rc, 0)
        clean(out, "directory")
        heads = [line for line in out.split(b"\n") if line and not line.startswith(b" ")]
        eq(sorted(unquote(h.split(b": 3 containers")[0]) for h in heads), sorted(paths))
        eq(len(out.split(b"\n")), 5 * len(paths) + 1)  # four lines of images, one of the runtime
    # exactly as git quotes
    d = os.fsencode(tmp)
    eq(unquote(b'"' + d + b'/\\033[31mred\\033[0m.so"'), d + b"/\x1b[31mred\x1b[0m.so")


@test
def exact_quoting():
    with tempfile.TemporaryDirectory() as tmp:
        names = [b"a\nb.so", b"\x1b[31m.so", b"x\xe0\x80\xaf.so", b'q"\\.so', b"\xe2\x80\xae.so", b"t\tv\x0b.so"]
        want = [b'"a\\nb.so"', b'"\\033[31m.so"', b'"x\\340\\200\\257.so"', b'"q\\"\\\\.so"',
                b'"\\342\\200\\256.so"', b'"t\\tv\\v.so"']
        copies(tmp, names)
        for n, w in zip(names, want):
            out = run(n, cwd=tmp)[1]
            eq(out.split(b": ")[0], w)


@test
def file_names_in_listings_and_kernel_views():
    with tempfile.TemporaryDirectory() as tmp:
        paths = copies(tmp, HOSTILE)
        for p in paths:
            for args in (["-l"], ["-l", "-k"], ["--list-elf"], ["--list-ptx"], ["-k", "--gpu", "sm_86"],
                         ["--gpu", "sm_86,sm_90"], ["-q", "--gpu", "sm_86"]):
                rc, out, err = run(*args, p)
                clean(out, (args, p))
                clean(err, (args, p))
            out = run("-l", p)[1]
            eq(unquote(out.split(b"\n")[0][:-1]), p)
            out = run("--list-elf", os.path.basename(p), cwd=tmp)[1]
            stem = os.path.splitext(os.path.basename(p))[0]
            eq([unquote(line.split(b": ", 1)[1]) for line in out.splitlines()],
               [stem + b".%d.sm_%d.cubin" % (i, a) for i, a in ((1, 75), (2, 80), (3, 90))])


@test
def messages_quote_the_name_and_escape_the_rest():
    with tempfile.TemporaryDirectory() as tmp:
        name = os.path.join(os.fsencode(tmp), b"gone\n\x1b[2J\xff.so")
        rc, out, err = run(name)
        eq(rc, 3)
        eq(err, NO_GPU + b'fatcheck: "' + os.fsencode(tmp) + b'/gone\\n\\033[2J\\377.so": cannot open: No such file or directory\n')
        # a damaged file: the message names it, quoted, then the reason
        data = open(fx("libmulti.so"), "rb").read()
        damaged = os.path.join(os.fsencode(tmp), b"cut\n\x1b[31m.so")
        open(damaged, "wb").write(data[:len(data) * 3 // 4])
        for args in ([], ["-l"], ["--json"], ["--list-elf"], ["-k"]):
            rc, out, err = run(*args, damaged)
            clean(err, args)
            eq(rc, 3, args)
            assert err.startswith(NO_GPU), err
            lines = err[len(NO_GPU):].splitlines()
            eq(len(lines), 2 if args == ["--list-elf"] else 1, (args, err))  # and "no ELF file found"
            for line in lines:
                assert line.startswith(b'fatcheck: "' + os.fsencode(tmp) + b'/cut\\n\\033[31m.so": '), line
        # arguments echoed in usage errors
        rc, out, err = run("--gpu", "\x1b[31mRTX\n9999", fx("app"))
        eq(rc, 2)
        clean(err, "usage error")
        assert b"\\033[31mRTX\\n9999" in err, err


def check_json(data, what):
    data.decode("utf-8")
    doc = json.loads(data)  # strict: no control characters inside strings
    eq(schema_validate.errors(doc)[:5], [], what)
    return doc


def exact(record, key):
    """The bytes RECORD[KEY] stands for: KEY_bytes when present, else the string itself."""
    if key + "_bytes" in record:
        raw = base64.b64decode(record[key + "_bytes"], validate=True)
        assert "\ufffd" in record[key], "a KEY_bytes sibling only for strings that are not UTF-8"
        return raw
    return record[key].encode("utf-8")


@test
def json_is_always_utf8_and_keeps_the_exact_bytes():
    with tempfile.TemporaryDirectory() as tmp:
        paths = copies(tmp, HOSTILE + PLAIN)
        missing = os.path.join(os.fsencode(tmp), b"missing\xe0\x80\xaf\n.so")
        for args in (["--json"], ["--json", "-k", "--gpu", "sm_86"]):
            rc, out, err = run(*args, *paths, missing)
            eq(rc, 3)
            doc = check_json(out, args)
            eq([exact(f, "path") for f in doc["files"]], paths)
            for f, p in zip(doc["files"], paths):
                valid = True
                try:
                    p.decode("utf-8")
                except UnicodeDecodeError:
                    valid = False
                eq("path_bytes" in f, not valid, p)
            eq([exact(e, "path") for e in doc["errors"]], [missing])
            eq(exact(doc["errors"][0], "message"), missing + b": cannot open: No such file or directory")
        # the walk reports the same names
        doc = check_json(run("--json", tmp)[1], "directory")
        eq(sorted(exact(f, "path") for f in doc["files"]), sorted(paths))


def ar_archive(members):
    """A GNU ar archive with every name in the long-name table."""
    table = b"".join(n + b"/\n" for n, _ in members)
    offsets, at = [], 0
    for n, _ in members:
        offsets.append(at)
        at += len(n) + 2

    def header(name, size):
        return (name.ljust(16) + b"0".ljust(12) + b"0".ljust(6) + b"0".ljust(6) + b"100644".ljust(8)
                + str(size).encode().ljust(10) + b"`\n")
    out = b"!<arch>\n" + header(b"//", len(table)) + table + b"\n" * (len(table) % 2)
    for (n, data), off in zip(members, offsets):
        out += header(b"/%d" % off, len(data)) + data + b"\n" * (len(data) % 2)
    return out


MEMBER_NAMES = [b"\x1b[31mred.o", b"bad\xe0\x80\xaf\xff.o", b"bidi\xe2\x80\xae.o", b'q"\\.o']


@test
def archive_member_names():
    obj = open(fx("rdc_main.o"), "rb").read()
    with tempfile.TemporaryDirectory() as tmp:
        lib = os.path.join(tmp, "libhostile.a")
        open(lib, "wb").write(ar_archive([(n, obj) for n in MEMBER_NAMES]))
        rc, out, err = run(lib)
        eq((rc, err), (0, NO_GPU))
        clean(out, "archive")
        heads = [line.split(b": ")[0] for line in out.splitlines() if not line.startswith(b" ")]
        eq([unquote(h) for h in heads], [os.fsencode(lib) + b"(" + n + b")" for n in MEMBER_NAMES])
        for args in (["-l"], ["--list-elf"], ["-k", "--gpu", "sm_90"]):
            rc, out, err = run(*args, lib, cwd=tmp)
            clean(out, args)
            clean(err, args)
        out = run("--list-elf", "libhostile.a", cwd=tmp)[1]
        members = [line for line in out.splitlines() if line.startswith(b"member ")]
        eq([unquote(m[len(b"member "):-1].rsplit(b":", 1)[1]) for m in members], MEMBER_NAMES)
        doc = check_json(run("--json", lib)[1], "archive")
        eq([exact(f, "member") for f in doc["files"]], MEMBER_NAMES)


@test
def package_member_names():
    names = [b"lib/evil\nfake.so: no CUDA code", b"lib/\x1b[31mred.so", b"lib/bad\xed\xa0\x80.so", b"lib/\xff.so"]
    with tempfile.TemporaryDirectory() as tmp:
        pkg = os.path.join(tmp, "hostile.tar")
        with tarfile.open(pkg, "w", format=tarfile.GNU_FORMAT, encoding="utf-8", errors="surrogateescape") as t:
            for n in names:
                t.add(fx("libmulti.so"), arcname=os.fsdecode(n))
        rc, out, err = run(pkg)
        eq((rc, err), (0, NO_GPU))
        clean(out, "package")
        heads = [line.split(b": 3 containers")[0] for line in out.splitlines() if not line.startswith(b" ")]
        eq([unquote(h) for h in heads], [os.fsencode(pkg) + b"!" + n for n in names])
        for args in (["-l", "-k"], ["--list-elf"]):
            rc, out, err = run(*args, pkg)
            clean(out, args)
            clean(err, args)
        doc = check_json(run("--json", pkg)[1], "package")
        eq([exact(f, "member") for f in doc["files"]], names)


def rewritten(tmp, fixture, old, new, name):
    """A copy of FIXTURE with every OLD replaced by NEW (same length)."""
    assert len(old) == len(new)
    data = open(fx(fixture), "rb").read()
    assert old in data
    p = os.path.join(tmp, name)
    open(p, "wb").write(data.replace(old, new))
    return p


@test
def kernel_names():
    with tempfile.TemporaryDirectory() as tmp:
        # PTX names end at '(' or a blank; a cubin's symbols may hold any byte but NUL
        ptx = rewritten(tmp, "kernels.ptx", b"fc_add", b"\x1b[1m\xff\xe0", "k.ptx")
        cubin = rewritten(tmp, "kernels.sm_90.cubin", b"fc_add", b"\nX\x1b[1m", "k.cubin")
        for path, raw, shown in ((ptx, b"\x1b[1m\xff\xe0", b"\\033[1m\\377\\340"),
                                 (cubin, b"\nX\x1b[1m", b"\\nX\\033[1m")):
            rc, out, err = run("-l", "-k", path)
            eq((rc, err), (0, NO_GPU), path)
            clean(out, path)
            assert b"\n      kernel " + shown + b"\n" in out or b"\n      kernel " + shown + b"  [" in out, out
            doc = check_json(run("--json", "-k", "--gpu", "sm_90", path)[1], path)
            kernels = doc["files"][0]["containers"][0]["entries"][0]["kernels"]
            assert raw in [exact(k, "name") for k in kernels], kernels
            assert raw in [exact(k, "demangled") for k in kernels], kernels
        # kernels a target lacks are named in the summary
        lib = rewritten(tmp, "libmulti.so", b"fc_tu_b_square", b"\x1b[2J\nok:\xffs\xe0\x80\xaf\x7f", "libk.so")
        rc, out, err = run("-k", "--gpu", "sm_86", lib)
        clean(out, "missing kernels")
        assert b"      \\033[2J\\nok:\\377s\\340\\200\\257\\177  (in sm_90)\n" in out, out
        doc = check_json(run("--json", "-k", "--gpu", "sm_86", lib)[1], "missing kernels")
        missing = doc["files"][0]["verdicts"][0]["missing_kernels"]
        assert b"\x1b[2J\nok:\xffs\xe0\x80\xaf\x7f" in [exact(m, "name") for m in missing], missing


@test
def a_name_that_demangles_exponentially_is_kept_mangled():
    # Substitutions nested 24 deep: 323 bytes of PTX whose one name demangled to 1.1 GB in 12 s
    # under -k (review of 2026-12-04, B1). The demangled form is bounded (64 KiB); past it the
    # mangled name stands.
    def sub(i):
        digits, n, s = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", i - 1, ""
        if i == 0:
            return "S_"
        while True:
            s, n = digits[n % 36] + s, n // 36
            if n == 0:
                return "S" + s + "_"
    name = "_Z1f1AIiiE" + "".join("S_I%s%sE" % (sub(n - 1), sub(n - 1)) for n in range(2, 26))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bomb.ptx")
        open(path, "w").write(".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry %s()\n{\n ret;\n}\n"
                              % name)
        rc, out, err = run("--json", "-k", "--gpu", "sm_90", path, timeout=20)
        kernels = json.loads(out)["files"][0]["containers"][0]["entries"][0]["kernels"]
        eq((rc, [(k["name"], k["demangled"]) for k in kernels]), (0, [(name, name)]))
        # ten levels deep (34,756 bytes demangled, as c++filt has it) is demangled still
        short = "_Z1f1AIiiE" + "".join("S_I%s%sE" % (sub(n - 1), sub(n - 1)) for n in range(2, 12))
        open(path, "w").write(".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry %s()\n{\n ret;\n}\n"
                              % short)
        kernels = json.loads(run("--json", "-k", "--gpu", "sm_90", path)[1])["files"][0]["containers"][0]["entries"][0]["kernels"]
        eq((kernels[0]["demangled"][:15], len(kernels[0]["demangled"])), ("f(A<int, int>, ", 34756))


@test
def gpu_names_from_the_driver_and_inventories():
    env = {"FAKE_CUDA_DEVICES": b"NVIDIA \x1b[31mH200\nfake line\xff:9.0"}
    rc, out, err = run(fx("app"), env=env)
    clean(out, "driver name")
    assert b"sm_90 (GPU 0: NVIDIA \\033[31mH200\\nfake line\\377)" in out, out
    doc = check_json(run("--json", fx("app"), env=env)[1], "driver name")
    eq(exact(doc["targets"][0], "name"), b"NVIDIA \x1b[31mH200\nfake line\xff")
    with tempfile.TemporaryDirectory() as tmp:
        csv = os.path.join(tmp, "gpus.csv")
        open(csv, "wb").write(b"name, compute_cap\n\x1b[31mEvil\nGPU, 9.0\n")
        rc, out, err = run("--gpus-from", csv, fx("app"))
        clean(out, "inventory")
        clean(err, "inventory")
        open(csv, "wb").write(b"name\n\x1b[31mNo Such GPU\n")
        rc, out, err = run("--gpus-from", csv, fx("app"))
        eq(rc, 3)
        clean(err, "inventory error")
        assert b"\\033[31mNo Such GPU" in err, err


def progress_lines(tmp, columns):
    """What fatcheck writes to a terminal COLUMNS wide on standard error, walking TMP."""
    import fcntl
    import pty
    import select
    import struct
    import termios
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    env = dict(os.environb)
    env[b"LD_LIBRARY_PATH"] = b"/nonexistent"
    p = subprocess.Popen([FATCHECK, "--gpu", "sm_90", tmp], stdout=subprocess.PIPE, stderr=slave, env=env)
    os.close(slave)
    got = b""
    while True:
        ready, _, _ = select.select([master], [], [], 10)
        if not ready:
            break
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        got += chunk
    p.wait(timeout=30)
    os.close(master)
    return got


@test
def progress_line_shows_names_escaped_within_the_terminal():
    with tempfile.TemporaryDirectory() as tmp:
        copies(tmp, [b"\x1b]0;owned\x07\n" + "\u00e9".encode() * 60 + b"x" * 100 + b".so"])
        for columns in (80, 40):
            got = progress_lines(tmp, columns)
            assert b"fatcheck: 1 files... " in got, got
            assert got.endswith(b"\r\x1b[K"), got  # erased at the end
            clean(got.replace(b"\r\x1b[K", b""), "progress")
            for line in got.split(b"\r\x1b[K"):
                # the line never reaches the last column, so it never wraps and stays on screen
                assert len(line.decode()) < columns, (columns, line)
            assert b"..." in got and got.rstrip(b"\r\x1b[K").endswith(b"xxx.so"), got


@test
def torch_fix_is_a_shell_word_for_the_exact_folder():
    with tempfile.TemporaryDirectory() as tmp:
        parent = os.path.join(os.fsencode(tmp), b"it's\n\x1b[31m\xff")
        os.mkdir(parent)
        import tarfile as tf
        with tf.open(os.path.join(FIXTURES, "torch_ext", "cache.tar.xz")) as t:
            t.extractall(os.fsdecode(parent))
        ext = os.path.join(parent, b"torch_extensions", b"py312_cu130", b"fc_ext_86")
        rc, out, err = run("--torch-extensions", ext, env={"FAKE_CUDA_DEVICES": "NVIDIA H200:9.0"})
        clean(out, "torch")
        line = [l for l in out.splitlines() if l.startswith(b"  fix: rm -rf ")][0]
        word = line[len(b"  fix: rm -rf "):]
        eq(word, b"'" + os.fsencode(tmp) + b"/it'\\''s'$'\\n\\033''[31m'$'\\377''/torch_extensions/py312_cu130/fc_ext_86'")
        if shutil.which("bash"):
            got = subprocess.run(["bash", "-c", b"printf %s " + word], capture_output=True).stdout
            eq(got, ext)


if __name__ == "__main__":
    sys.exit(main())
