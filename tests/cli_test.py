#!/usr/bin/env python3
"""CLI tests of fatcheck: outputs, exit codes, JSON, and cuobjdump-identical listings.

Usage: cli_test.py FATCHECK FIXTURES_DIR GOLDEN_DIR
Writes TAP. The goldens under GOLDEN_DIR/fixtures are what NVIDIA's cuobjdump 13.0 printed
for the committed fixtures (scripts/cuobjdump-golden.sh on a machine with the toolkit)."""
import json
import os
import subprocess
import sys
import tempfile

FATCHECK, FIXTURES, GOLDEN = (os.path.abspath(p) for p in sys.argv[1:4])
results = []


def run(*args, cwd=None, timeout=60):
    p = subprocess.run([FATCHECK] + list(args), capture_output=True, cwd=cwd, timeout=timeout)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def test(fn):
    results.append(fn)
    return fn


def fx(name):
    return os.path.join(FIXTURES, name)


def eq(got, want, what=""):
    if got != want:
        raise AssertionError("%s\n got: %r\nwant: %r" % (what, got, want))


@test
def help_goes_to_stdout_and_succeeds():
    rc, out, err = run("--help")
    eq(rc, 0)
    eq(err, "")
    assert out.startswith("Usage: fatcheck [OPTION]... FILE|DIR...\n"), out
    assert "Exit status: 0 ok; 1 a target cannot load any module of some file" in out
    assert len(out.splitlines()) <= 40, "help fits a screen"


@test
def version():
    rc, out, err = run("--version")
    eq((rc, err), (0, ""))
    assert out.startswith("fatcheck "), out


@test
def usage_errors_exit_2_with_a_pointer_to_help():
    for args, msg in [(["--bogus", fx("app")], "fatcheck: unknown option '--bogus'"),
                      ([], "fatcheck: no input files"),
                      (["-j", "0", fx("app")], "fatcheck: invalid thread count (expected 1 to 256): '0'"),
                      (["-j", "4x", fx("app")], "fatcheck: invalid thread count (expected 1 to 256): '4x'"),
                      (["-j"], "fatcheck: option needs an argument: '-j'"),
                      (["--json", "-l", fx("app")], "fatcheck: choose one of -l, --json and --list-elf/--list-ptx")]:
        rc, out, err = run(*args)
        eq(rc, 2, args)
        eq(out, "", args)
        eq(err, msg + "\nTry 'fatcheck --help' for more information.\n", args)


@test
def summary_of_an_executable():
    rc, out, err = run(fx("app"))
    eq((rc, err), (0, ""))
    eq(out, fx("app") + ": 2 containers in .nv_fatbin\n"
            "  cubin        2  sm_86:2\n"
            "  ptx          1  compute_86:1\n"
            "  PTX ISA 9.0; stored: zstd 1, uncompressed 2\n")


@test
def summary_wraps_architectures_within_80_columns():
    rc, out, err = run(fx("variants.fatbin"))
    eq(rc, 0)
    eq(out.splitlines()[1:3], [
        "  cubin       11  sm_90a:1 sm_100a:1 sm_100f:1 sm_103a:1 sm_103f:1 sm_110a:1",
        "                  sm_110f:1 sm_120a:1 sm_120f:1 sm_121a:1 sm_121f:1"])
    assert all(len(line) <= 80 for line in out.splitlines())


@test
def summary_separates_embedded_containers():
    rc, out, err = run(fx("libembedded.so"))
    eq(rc, 0)
    eq(out, fx("libembedded.so") + ": no containers registered with the CUDA runtime\n"
            "  embedded as data, loaded by the library itself: 3 containers in .rodata and .fc_blobs\n"
            "    cubin        1  sm_80:1\n"
            "    ptx          3  compute_80:3\n"
            "    PTX ISA 9.0; stored: zstd 3, uncompressed 1\n")
    rc, out, err = run("--no-embedded", fx("libembedded.so"))
    eq(out, fx("libembedded.so") + ": no CUDA code\n")


@test
def bad_inputs_get_one_line_each_and_the_rest_is_reported():
    rc, out, err = run(fx("no-such-file"), fx("ptx_only.fatbin"), fx("make-fixtures.sh"))
    eq(rc, 3)
    eq(err, "fatcheck: %s: cannot open: No such file or directory\n"
            "fatcheck: %s: not an ELF file, archive, fat binary, cubin or PTX file\n"
            % (fx("no-such-file"), fx("make-fixtures.sh")))
    assert out.startswith(fx("ptx_only.fatbin") + ": 1 container (bare fat binary)\n"), out


@test
def damaged_file_names_the_offset_and_keeps_what_was_read():
    data = bytearray(open(fx("all_archs.fatbin"), "rb").read())
    data[16 + 6 * 7880:] = b""  # cut inside the entries
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "cut.fatbin")
        open(p, "wb").write(data)
        rc, out, err = run(p, fx("app"))
        eq(rc, 3)
        eq(err.count("\n"), 1)
        assert err.startswith("fatcheck: %s: offset 0x0: container of 111064 bytes runs past the end" % p), err
        assert fx("app") + ": 2 containers" in out
        rc, out, err = run("--json", p)
        doc = json.loads(out)
        assert doc["files"][0]["error"].startswith(p + ": offset 0x0"), doc


@test
def fifo_is_refused_without_blocking():
    with tempfile.TemporaryDirectory() as d:
        fifo = os.path.join(d, "fifo")
        os.mkfifo(fifo)
        rc, out, err = run(fifo, timeout=20)
        eq((rc, err), (3, "fatcheck: %s: not a regular file\n" % fifo))
        rc, out, err = run(d, timeout=20)  # inside a directory it is skipped quietly
        eq((rc, out, err), (0, "", ""))


@test
def write_error_is_noticed():
    if not os.path.exists("/dev/full"):
        return "skip: no /dev/full"
    with open("/dev/full", "w") as full:
        p = subprocess.run([FATCHECK, fx("app")], stdout=full, stderr=subprocess.PIPE)
    eq(p.returncode, 4)
    assert b"error writing output" in p.stderr


@test
def entry_listing():
    rc, out, err = run("-l", fx("debug.fatbin"))
    eq(rc, 0)
    lines = out.splitlines()
    eq(lines[0], fx("debug.fatbin") + ":")
    eq(lines[2].split(), ["0x0", "fatbin", "cubin", "sm_86", "1.8", "zstd", "4593", "23528", "debug", "id=kernels.cu"])
    assert lines[3].endswith('options="-g --dont-merge-basicblocks --return-at-end"'), lines[3]


@test
def json_document():
    rc, out, err = run("--json", fx("variants.fatbin"), fx("librdc.a"), fx("kernels.ptx"), fx("missing"))
    eq(rc, 3)
    doc = json.loads(out)
    eq(doc["schema_version"], 1)
    files = doc["files"]
    eq([(f["path"], f.get("member")) for f in files],
       [(fx("variants.fatbin"), None), (fx("librdc.a"), "rdc_main.o"), (fx("librdc.a"), "rdc_dev.o"),
        (fx("kernels.ptx"), None)])
    v = files[0]["containers"][0]
    eq((v["offset"], v["section"], v["origin"]), (0, None, "fatbin"))
    e = v["entries"]
    eq([x["arch"] for x in e][:3], ["compute_90a", "sm_90a", "sm_100a"])
    eq({k: e[0][k] for k in ("kind", "ptx_isa", "compression", "size", "uncompressed_size")},
       {"kind": "ptx", "ptx_isa": "9.0", "compression": "zstd", "size": 542, "uncompressed_size": 2509})
    eq({k: e[1][k] for k in ("kind", "compression", "size", "uncompressed_size")},
       {"kind": "cubin", "compression": "none", "size": 7880, "uncompressed_size": 7880})
    assert "ptx_isa" not in e[1]
    m = files[1]["containers"][0]
    eq((m["section"], m["origin"], m["offset"]), ("__nv_relfatbin", "section", 0x3c8))
    eq(files[3]["format"], "ptx")
    eq(files[3]["containers"][0]["entries"][0]["arch"], "compute_89")
    eq(doc["errors"], [{"path": fx("missing"), "message": fx("missing") + ": cannot open: No such file or directory"}])


@test
def json_lto_and_embedded():
    rc, out, err = run("--json", fx("rdc_lto.o"), fx("libembedded.so"))
    doc = json.loads(out)
    lto = doc["files"][0]["containers"][0]["entries"][0]
    eq((lto["kind"], lto["arch"], lto["obfuscated"]), ("ltoir", "lto_90", True))
    emb = doc["files"][1]["containers"]
    eq([(c["section"], c["origin"], c["offset"]) for c in emb],
       [(".rodata", "embedded", 0x2050), (".fc_blobs", "embedded", 0x3e38), (".fc_blobs", "embedded", 0x40c0)])


@test
def json_escapes_odd_file_names():
    with tempfile.TemporaryDirectory() as d:
        name = os.path.join(d, 'we"ird\\\x01\xe9.fatbin'.encode("latin-1").decode("utf-8", "surrogateescape"))
        name = os.fsencode(name)
        with open(name, "wb") as f:
            f.write(open(fx("ptx_only.fatbin"), "rb").read())
        p = subprocess.run([FATCHECK, "--json", name], capture_output=True)
        doc = json.loads(p.stdout)
        path = doc["files"][0]["path"]
        assert path.endswith('we"ird\\\x01\xe9.fatbin'), repr(path)


def golden_listings():
    """--list-elf/--list-ptx against what cuobjdump 13.0 printed for each fixture."""
    index = os.path.join(GOLDEN, "fixtures", "index.tsv")
    names = [line.split("\t")[0] for line in open(index) if line.strip()]
    for name in names:
        for mode in ("elf", "ptx"):
            def check(name=name, mode=mode):
                want = open(os.path.join(GOLDEN, "fixtures", "%s.list-%s" % (name, mode))).read()
                want = want.replace("@FIXTURES@", os.path.realpath(FIXTURES))
                # cuobjdump was run from the fixtures folder with relative names.
                rc, out, err = run("--list-" + mode, name, cwd=os.path.realpath(FIXTURES))
                eq(out, want, "%s --list-%s" % (name, mode))
                eq(rc, 0)
            check.__name__ = "cuobjdump_list_%s_%s" % (mode, name)
            results.append(check)


@test
def list_elf_and_ptx_together_follow_entry_order():
    rc, out, err = run("--list-elf", "--list-ptx", "variants.fatbin", cwd=FIXTURES)
    eq(out.splitlines()[:3], ["PTX file    1: variants.1.sm_90a.ptx", "ELF file    1: variants.1.sm_90a.cubin",
                              "ELF file    2: variants.2.sm_100a.cubin"])


def main():
    golden_listings()
    n = 0
    failed = 0
    for fn in results:
        n += 1
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
    print("1..%d" % n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
