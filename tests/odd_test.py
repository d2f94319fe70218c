#!/usr/bin/env python3
"""fatcheck over odd ELF files and static archives (tests/odd, made by tests/odd/make.py;
issue 17 item 8): each says what it truly is, on one stderr line when something is wrong,
and lists what it holds once, under true names.

Usage: odd_test.py FATCHECK ODD_DIR FAKECUDA       Writes TAP."""
import json
import os
import subprocess
import sys

FATCHECK, ODD, FAKECUDA = (os.path.abspath(p) for p in sys.argv[1:4])
ENV = {k: v for k, v in os.environ.items() if not k.startswith(("CUDA_", "FAKE_CUDA_"))}
ENV["LD_LIBRARY_PATH"] = FAKECUDA
n = failed = 0


def run(*args):
    p = subprocess.run([FATCHECK, "--gpu", "9.0"] + list(args), capture_output=True, timeout=60, env=ENV)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def ok(cond, name, detail=""):
    global n, failed
    n += 1
    print("%sok %d - %s" % ("" if cond else "not ", n, name))
    if not cond:
        failed += 1
        for line in str(detail).splitlines()[:20]:
            print("#   " + line)
    sys.stdout.flush()


def one_error(name, file, says, rc_want=3, args=()):
    """Exit RC_WANT and exactly one stderr line: "fatcheck: ODD/FILE: ..." holding SAYS."""
    path = os.path.join(ODD, file)
    rc, out, err = run(*(list(args) + [path]))
    lines = err.splitlines()
    ok(rc == rc_want and len(lines) == 1 and lines[0].startswith("fatcheck: " + path) and says in lines[0],
       name, "exit %d, stderr %r, want %r" % (rc, err, says))
    return out


def listing(file):
    """(member label, arch) of every entry of FILE, from --json."""
    rc, out, err = run("--json", os.path.join(ODD, file))
    doc = json.loads(out)
    return [(f.get("member") or "", e["arch"]) for f in doc["files"] for c in f["containers"] for e in c["entries"]]


def main():
    # Section tables naming the same bytes twice.
    out = one_error("a second header over .nv_fatbin's bytes: said", "libmulti.twice.so",
                    "names the bytes of section .nv_fatbin (offset 0x2028, 9488 bytes) again, as .nv_fatbin: they "
                    "were read once")
    ok(": 3 containers in .nv_fatbin" in out, "... and its 3 containers counted once, not 6", out)

    # ELF headers that are not what they say.
    one_error("EI_CLASS flipped: the true reason", "libmulti.class32.so",
              "the ELF header says 32-bit (EI_CLASS 1), but is laid out as a 64-bit one: its class byte is damaged")
    one_error("EI_DATA flipped: the true reason", "libmulti.data-be.so",
              "the ELF header says big-endian (EI_DATA 2), but its fields are little-endian")
    one_error("a genuine big-endian ELF file: said so", "bigendian.so",
              "a big-endian ELF file: not searched (CUDA code is built only for little-endian hosts)")
    out = one_error("a host library claiming e_machine 190: said what it is", "libmulti.machine190.so",
                    "e_machine is 190 (EM_CUDA), but OS/ABI 0 (System V) is no CUDA toolchain's")
    ok(": 3 containers in .nv_fatbin" in out and "sm_0" not in out and "cubin file" not in out,
       "... and read as the host library it is, not one sm_0 cubin", out)

    # Registered sections stored compressed.
    for file, section in (("libmulti.zlib.so", ".nv_fatbin"), ("libmulti.zstd.so", ".nv_fatbin"),
                          ("libmulti.znv.so", ".znv_fatbin")):
        out = one_error(file + ": the runtime cannot load it, said", file,
                        "section %s is stored compressed: the CUDA runtime reads it as it lies and cannot load it"
                        % section)
        ok("%s(%s): 3 containers in %s" % (os.path.join(ODD, file), section, section) in out,
           file + ": its containers decompressed and listed apart", out)
        got = listing(file)
        ok(sorted(set(a for _, a in got)) == ["compute_80", "compute_90", "sm_75", "sm_80", "sm_90"] and
           all(m == section for m, _ in got), file + ": the same images as the uncompressed library", got)
    rc, out, err = run("-k", "-l", os.path.join(ODD, "libmulti.zstd.so"))
    ok("kernel fc_tu_a_fill" in out and "kernel fc_tu_b_square" in out and len(err.splitlines()) == 1,
       "libmulti.zstd.so: -k reads the kernels of the decompressed images", out + err)

    # Archive member names.
    got = listing("longnames.a")
    ok([m for m, _ in got] == ["a_member_with_a_long_name.o", "a_member_with_a_long_name.o",
                               "another_member_with_a_long_name.o", "another_member_with_a_long_name.o",
                               "short.o", "short.o"], "GNU long names read from the table", got)
    got = listing("longnames-msvc.a")
    ok([m for m, _ in got][::2] == ["a_member_with_a_long_name.obj", "another_member_with_a_long_name.obj"],
       "long names ended by NUL bytes (Microsoft's librarian)", got)
    got = listing("bsd.a")
    ok([m for m, _ in got][::2] == ["a_long_bsd_member_name.o", "short.o"],
       "BSD names (#1/N): the member found and named (it was skipped)", got)
    out = one_error('"/1x": not taken for "/1"', "longname-bad.a",
                    'member at offset 0x23c8: the member name "/1x" is neither a long-name reference')
    ok("(/1x): 1 container" in out and "(a_member_with_a_long_name.o): 1 container" in out,
       '... the member read under the name its header gives, the other under its own', out)
    out = one_error("a long-name table that does not end the name: said", "longnames-open.a",
                    'the member name "/0" refers to offset 0 of the long-name table, where no name ends before the '
                    'table does (27 bytes)')
    ok("longnames-open.a(/0): 1 container" in out, "... and not named \"\"", out)
    out = one_error("a reference past the long-name table: said", "longname-past.a",
                    'member at offset 0x23c8: the member name "/999" refers past the end of the long-name table '
                    '(offset 999 of 64 bytes); the rest of the archive (18056 bytes) could not be read')
    ok("(a_member_with_a_long_name.o): 1 container" in out, "... the members before it still reported", out)

    print("1..%d" % n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
