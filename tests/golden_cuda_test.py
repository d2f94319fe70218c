#!/usr/bin/env python3
"""Golden tests on NVIDIA's own CUDA 13.0 libraries, when this machine has them.

Usage: golden_cuda_test.py FATCHECK GOLDEN_DIR [LIBDIR]
Compares fatcheck --list-elf/--list-ptx byte for byte with what cuobjdump 13.0 printed for
the same files (GOLDEN_DIR/cuda-13.0, recorded by scripts/cuobjdump-golden.sh), and checks
the counts the summary and JSON give. A library that is absent, or not the build the goldens
were recorded from (sha256 differs), is skipped with a message. Writes TAP."""
import json
import lzma
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap_golden import done, report, sha256  # noqa: E402

FATCHECK, GOLDEN = (os.path.abspath(p) for p in sys.argv[1:3])
LIBDIR = sys.argv[3] if len(sys.argv) > 3 else "/usr/local/cuda/lib64"




def fatcheck(*args):
    return subprocess.run([FATCHECK] + list(args), capture_output=True, timeout=300)


def first_difference(want, got):
    w, g = want.splitlines(), got.splitlines()
    for i, (a, b) in enumerate(zip(w, g)):
        if a != b:
            return "line %d:\n want %r\n  got %r" % (i + 1, a, b)
    return "lengths differ: want %d lines, got %d" % (len(w), len(g))


def kernels_on_sm90(lt):
    """Issue 5: on sm_90, 1,185 of cuBLASLt's registered containers cannot load; the kernels
    reported missing are exactly theirs, less any that a loadable container also has."""
    p = fatcheck("--kernels", "--json", "--no-embedded", "--gpu", "sm_90", lt)
    doc = json.loads(p.stdout)
    f = doc["files"][0]
    failing, loading = set(), set()
    n_failing = 0
    for c in f["containers"]:
        ok = c["loads"][0]["result"] == "CUDA_SUCCESS"
        n_failing += not ok
        names = {k["name"] for e in c["entries"] for k in e.get("kernels") or [] if k.get("entry")}
        (loading if ok else failing).update(names)
    report(n_failing == 1185, "cuBLASLt on sm_90: 1,185 containers cannot load", str(n_failing))
    missing = {k["name"] for k in f["verdicts"][0]["missing_kernels"]}
    want = failing - loading
    report(missing == want and len(want) > 0,
           "cuBLASLt on sm_90: missing_kernels are the failing containers' kernels, less the loadable ones'",
           "want %d, got %d; e.g. %s" % (len(want), len(missing), sorted(want ^ missing)[:3]))


def main():
    present = {}
    for line in open(os.path.join(GOLDEN, "cuda-13.0", "index.tsv")):
        name, digest = line.split("\t")[:2]
        path = os.path.join(LIBDIR, name)
        if not os.path.isfile(path):
            report(None, "cuobjdump listings of " + name, "%s is not on this machine" % path)
            continue
        if sha256(path) != digest:
            report(None, "cuobjdump listings of " + name, "%s is another build than the goldens'" % path)
            continue
        present[name] = path
        for mode in ("elf", "ptx"):
            want = lzma.open(os.path.join(GOLDEN, "cuda-13.0", "%s.list-%s.xz" % (name, mode))).read()
            p = fatcheck("--list-" + mode, path)
            same = p.stdout == want and p.returncode == 0
            report(same, "--list-%s of %s is byte-identical to cuobjdump 13.0" % (mode, name),
                   "" if same else first_difference(want.decode(), p.stdout.decode()))

    lt = present.get("libcublasLt.so.13")
    if not lt:
        report(None, "libcublasLt.so.13 counts", "not present")
    else:
        p = fatcheck(lt)
        lines = p.stdout.decode().splitlines()
        report(lines[0] == lt + ": 2,782 containers in .nv_fatbin", "cuBLASLt summary: 2,782 containers", lines[0])
        report(lines[1].split()[:2] == ["cubin", "5,449"], "cuBLASLt summary: 5,449 cubins", lines[1])
        ptx = [l for l in lines if l.split()[:1] == ["ptx"]]
        report(ptx and ptx[0].split()[:2] == ["ptx", "288"], "cuBLASLt summary: 288 PTX", repr(ptx))
        doc = json.loads(fatcheck("--json", lt).stdout)
        cont = [c for c in doc["files"][0]["containers"] if c["origin"] == "section"]
        kinds = [e["kind"] for c in cont for e in c["entries"]]
        report((len(cont), kinds.count("cubin"), kinds.count("ptx")) == (2782, 5449, 288),
               "cuBLASLt JSON: 2,782 containers, 5,449 cubins, 288 PTX")
        emb = [c for c in doc["files"][0]["containers"] if c["origin"] == "embedded"]
        report(len(emb) == 383 and all(c["section"] == ".cask_resource" for c in emb),
               "cuBLASLt JSON: 383 containers embedded in .cask_resource", str(len(emb)))
        kernels_on_sm90(lt)

    cufft = present.get("libcufft.so.12")
    if not cufft:
        report(None, "libcufft.so.12 embedded containers", "not present")
    else:
        out = fatcheck(cufft).stdout.decode()
        report("embedded as data, loaded by the library itself: 23,983 containers in .ldata" in out,
               "cuFFT summary: 23,983 embedded containers in .ldata", out)
        out = fatcheck("--no-embedded", cufft).stdout.decode()
        report("embedded" not in out and "1 container in .nv_fatbin" in out,
               "cuFFT with --no-embedded: only the registered container", out)

    # Rule 12 on NVIDIA's own: cuFFT registers one compressed cubin that defines nothing and
    # keeps its kernels in .ldata, so it stays partial where that cubin fails (sm_90); CUDA
    # 13.0's cuSPARSE registers no code for sm_70, and only what it links itself has an image
    # there: none (it was partial, exit 0), with the advice of the last toolkit for sm_70.
    cases = (("libcufft.so.12", "sm_90", "partial", None, None),
             ("libcusparse.so.12", "sm_70", "none", 133,
              "fix: this is NVIDIA's libcusparse (a CUDA 13 build), with no code for sm_70:\n"
              "         use libcusparse from CUDA 12.x, the last release that supports sm_70\n"))
    for name, target, status, registered, fix in cases:
        path = os.path.join(LIBDIR, name)
        what = "rule 12: %s on %s is %s" % (name, target, status)
        if name not in present:
            report(None, what, "%s is absent or another build" % path)
            continue
        p = fatcheck("--json", "--gpu", target, "--driver", "13.0", path)
        v = json.loads(p.stdout)["files"][0]["verdicts"][0]
        got = (p.returncode, v["status"], v.get("registered_all_fail"), v.get("registered_modules"))
        want = (1 if status == "none" else 0, status, True if registered else None, registered)
        text = fatcheck("--gpu", target, "--driver", "13.0", path).stdout.decode()
        report(got == want and (fix is None or fix in text), what, "%r %s" % (got, text))

    # The default search for embedded containers looks at a section in full only when its
    # head holds one (.cask_resource always): it must find all that a full search finds.
    for name in ("libcublasLt.so.13", "libcufft.so.12", "libcusparse.so.12", "libcudnn_engines_precompiled.so.9"):
        path = os.path.join(LIBDIR, name)
        if not os.path.isfile(path):
            report(None, "default embedded search of %s finds what --embedded finds" % name, "%s is absent" % path)
            continue
        found = []
        for mode in ([], ["--embedded"]):
            doc = json.loads(fatcheck("--json", *mode, path).stdout)
            found.append(sorted((c["section"], c["offset"]) for c in doc["files"][0]["containers"]
                                if c["origin"] == "embedded"))
        report(found[0] == found[1] and len(found[1]) > 0,
               "default embedded search of %s finds what --embedded finds (%d)" % (name, len(found[1])),
               "default %d, --embedded %d" % (len(found[0]), len(found[1])))

    return done()


if __name__ == "__main__":
    sys.exit(main())
