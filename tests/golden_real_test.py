#!/usr/bin/env python3
"""Golden tests on real files beyond Linux ELF, when this machine has them.

Usage: golden_real_test.py FATCHECK [DIR]
DIR (default: $FATCHECK_REAL_FILES, else ~/.cache/fatcheck/real) is where
scripts/fetch-real-files.sh puts them; it is not run in CI. A file that is absent, or not
the build these expectations were taken from (sha256 differs), is skipped with a message.
Writes TAP."""
import collections
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap_golden import done, report, sha256  # noqa: E402

FATCHECK = os.path.abspath(sys.argv[1])
DIR = sys.argv[2] if len(sys.argv) > 2 else os.environ.get(
    "FATCHECK_REAL_FILES", os.path.join(os.path.expanduser("~"), ".cache", "fatcheck", "real"))
FILES = {
    "node-llama-cpp-win-x64-cuda-3.21.1.tgz": "7824fb3d391d32194f3ee537d70ab3e334030cca71a85b855c368f36b251dc83",
    "win-x64-cuda/ggml-cuda.dll": "9e3607d198a3b09807fb7ac66a7240fc574ffafdd7d3fe10b9989e28096505c4",
    "mumax3": "d946d04178881168f6b09f39c121f1d632cd01251e6bb5e72c79930832908801",
}



def present(name):
    """The file's path, or None (reported as a skip) when absent or another build."""
    path = os.path.join(DIR, name)
    if not os.path.isfile(path):
        report(None, name, "not in %s (scripts/fetch-real-files.sh downloads it)" % DIR)
        return None
    digest = sha256(path)
    if digest != FILES[name]:
        report(None, name, "sha256 %s is not the file these expectations were taken from" % digest)
        return None
    return path


def fatcheck(*args):
    """Exit status, output and standard error, less the warning that no GPU is judged (which
    a machine without one gives every run with no target named)."""
    p = subprocess.run([FATCHECK] + list(args), capture_output=True, timeout=600)
    err = p.stderr.decode("utf-8", "replace")
    if err.startswith("fatcheck: warning: not judging any GPU: "):
        err = err.split("\n", 1)[1]
    return p.returncode, p.stdout.decode("utf-8", "replace"), err


# ggml-cuda.dll (llama.cpp built with CUDA 13.1 for Windows): 143 translation units, each one
# container of cubins for sm_86, sm_89, sm_120a, sm_121a and PTX for compute_75, 80, 90.
GGML_SUMMARY = (": 143 containers in .nv_fatb\n"
                "  cubin      572  sm_86:143 sm_89:143 sm_120a:143 sm_121a:143\n"
                "  ptx        429  compute_75:143 compute_80:143 compute_90:143\n"
                "  PTX ISA 9.1; stored: zstd 1,001\n"
                # One data section past its first MiB is not searched (the default since ae2d7c3;
                # pointers are followed in ELF files only: rv45 F4).
                "  note: 1 data section searched only in its first MiB (--embedded\n"
                "    searches them whole)\n"
                # It imports cublas64_13.dll and no cudart64_*.dll: CUDA 13's static runtime, its
                # strings (the hybrid runtime's, and a table of driver functions) dating it.
                "  runtime: static, CUDA 13 (its runtime's strings date it to CUDA 13); needs a\n"
                "    driver for CUDA 13.0 or newer\n")


def ggml_cuda_dll():
    dll = present("win-x64-cuda/ggml-cuda.dll")
    if not dll:
        return
    rc, out, err = fatcheck(dll)
    report((rc, out, err) == (0, dll + GGML_SUMMARY, ""), "ggml-cuda.dll: summary", "%d %r %r" % (rc, out, err))
    rc, out, err = fatcheck("--json", dll)
    f = json.loads(out)["files"][0]
    cs = f["containers"]
    archs = collections.Counter(e["arch"] for c in cs for e in c["entries"])
    isas = collections.Counter(e.get("ptx_isa") for c in cs for e in c["entries"] if e["kind"] == "ptx")
    # The section's place, as objdump -h gives it: file offset 0xf4f800, 0x7acc380 bytes.
    inside = all(0xf4f800 <= c["offset"] and c["offset"] + c["size"] <= 0xf4f800 + 0x7acc380 for c in cs)
    report(f["format"] == "pe" and len(cs) == 143 and cs[0]["offset"] == 0xf4f800 and inside and
           {c["section"] for c in cs} == {".nv_fatb"} and {c["origin"] for c in cs} == {"section"},
           "ggml-cuda.dll: 143 containers, all in .nv_fatb", "%s %d" % (f["format"], len(cs)))
    report(archs == {a: 143 for a in ("sm_86", "sm_89", "sm_120a", "sm_121a", "compute_75", "compute_80",
                                      "compute_90")} and isas == {"9.1": 429},
           "ggml-cuda.dll: 143 of each image, PTX ISA 9.1", "%s %s" % (archs, isas))
    for mode, count in (("elf", 572), ("ptx", 429)):
        rc, out, err = fatcheck("--list-" + mode, dll)
        lines = out.splitlines()
        report(rc == 0 and len(lines) == count and lines[0].endswith(": ggml-cuda.1.sm_%s.%s" % (
            "86" if mode == "elf" else "75", "cubin" if mode == "elf" else "ptx")),
            "ggml-cuda.dll: --list-%s names %d images" % (mode, count), "%d %s" % (len(lines), lines[:1]))
    rc, out, err = fatcheck("--gpu", "H200", "--gpu", "RTX 4090", "--gpu", "sm_70", dll)
    report(rc == 1 and "sm_90 (--gpu H200): ok, 143 modules load: 143 only through PTX JIT" in out and
           "sm_89 (--gpu RTX 4090): ok, native SASS for all 143 modules" in out and
           "sm_70 (--gpu sm_70): none, no module can load" in out, "ggml-cuda.dll: verdicts", out)


def npm_tarball():
    tgz = present("node-llama-cpp-win-x64-cuda-3.21.1.tgz")
    if not tgz:
        return
    rc, out, err = fatcheck(tgz)
    want = tgz + "!package/bins/win-x64-cuda/ggml-cuda.dll" + GGML_SUMMARY
    report((rc, out, err) == (0, want, ""), "npm tarball: ggml-cuda.dll found and judged inside it",
           "%d %r %r" % (rc, out, err))


# mumax3 3.10-7 (Debian 12, a Go program): its kernels as PTX text in .rodata, one module per
# kernel and target, back to back. 49 kernels for each of 13 targets sm_30..sm_75 at PTX ISA
# 6.5 (50 for sm_70), and 4 more at ISA 6.4 for 10 of the targets: 678 modules, 54 kernels.
MUMAX_TARGETS = (30, 32, 35, 37, 50, 52, 53, 60, 61, 62, 70, 72, 75)


def mumax3():
    exe = present("mumax3")
    if not exe:
        return
    rc, out, err = fatcheck("--gpu", "H200", exe)
    want = (exe + ": no containers registered with the CUDA runtime\n"
            "  PTX kept as text, loaded by the program itself: 678 modules in .rodata\n")
    report(rc == 0 and want in out and "sm_90 (--gpu H200): ok, 678 modules load: 678 only through PTX JIT" in out,
           "mumax3: 678 PTX modules kept as text, all JIT-compiled on an H200", out)
    rc, out, err = fatcheck("--json", "--kernels", exe)
    cs = json.loads(out)["files"][0]["containers"]
    per = collections.Counter((e["arch"], e["ptx_isa"]) for c in cs for e in c["entries"])
    want = {("compute_%d" % t, "6.5"): 50 if t == 70 else 49 for t in MUMAX_TARGETS}
    want.update({("compute_%d" % t, "6.4"): 4 for t in MUMAX_TARGETS if t not in (32, 62, 72)})
    report(per == want and {(c["section"], c["origin"]) for c in cs} == {(".rodata", "ptx_text")},
           "mumax3: 638 modules of ISA 6.5 and 40 of 6.4 for 13 targets", str(sorted(per.items())))
    names = {k["name"] for c in cs for e in c["entries"] for k in e.get("kernels") or []}
    report(len(names) == 54, "mumax3: 54 kernels", str(len(names)))
    # Each module is a whole one: it opens with .version and closes a function; between
    # modules of a run lie blank lines only.
    data = open(exe, "rb").read()
    bad = [c["offset"] for c in cs if not data[c["offset"]:c["offset"] + 8] == b".version" or
           not data[c["offset"]:c["offset"] + c["size"]].endswith(b"}\n")]
    gaps = {data[a["offset"] + a["size"]:b["offset"]] for a, b in zip(cs, cs[1:])
            if b["offset"] - a["offset"] - a["size"] < 16}
    report(not bad and gaps <= {b"\n\n\n", b"\n\n", b"\n", b""}, "mumax3: modules start at .version and end at '}'",
           "%s %s" % (bad[:3], gaps))
    rc, out, err = fatcheck("--gpu", "sm_70", exe)
    report(rc == 0 and "sm_70 (--gpu sm_70): partial, 576 of 678 modules load; 102 cannot" in out,
           "mumax3 on sm_70: the sm_72 and sm_75 modules cannot load", out)


def main():
    ggml_cuda_dll()
    npm_tarball()
    mumax3()
    return done()


if __name__ == "__main__":
    sys.exit(main())
