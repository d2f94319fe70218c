#!/usr/bin/env python3
"""CLI tests of the runtime's driver requirement: which CUDA runtime and libraries a file
needs (DT_NEEDED, the static runtime, the loading process's), the driver that starts them,
and the verdict "none" for a target whose driver cannot.

Usage: runtime_test.py FATCHECK FIXTURES_DIR FAKECUDA [ERAS_LIB]
The fixtures are made by fixtures/runtime/make.sh; ERAS_LIB holds real files of other CUDA
releases when scripts/fetch-eras.sh fetched them (their checks are skipped, saying so,
otherwise). The rules: a runtime of CUDA 11 or later starts on a driver for its major's first
release (minor version compatibility), an earlier one only on its own release's; cuBLAS,
cuFFT and the other libraries need the CUDA release they came with (compat-rules.md, 3).
Writes TAP."""
import json
import lzma
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tap_cli  # noqa: E402
from tap_cli import FIXTURES, eq, test, without_section_table  # noqa: E402

ERAS = sys.argv[4] if len(sys.argv) > 4 else None
RT = os.path.join(FIXTURES, "runtime")
INSUFFICIENT = '"CUDA driver version is insufficient for CUDA runtime version"'


def run(*args):
    """tap_cli.run, decoded: (exit status, stdout, stderr) as text."""
    rc, out, err = tap_cli.run(*args, timeout=120)
    return rc, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


def rt(name):
    return os.path.join(RT, name)


def flat(text):
    """TEXT with its line wrapping undone, for sentences the summary wraps at 80 columns."""
    return " ".join(text.split())


# The runtime line of a file with CUDA 13's static runtime, its line wrapping undone.
STATIC_13 = ("runtime: static, CUDA 13 (its runtime resolves CUDA 13.0's driver functions); needs a driver for "
             "CUDA 13.0 or newer")


def unpacked(name, path):
    """Writes the xz-packed fixture NAME (fixtures/runtime) unpacked to PATH; returns PATH."""
    with open(path, "wb") as f:
        f.write(lzma.decompress(open(rt(name), "rb").read()))
    return path


def runtime_line(path):
    """The summary's runtime sentence, its wrapping at 80 columns undone."""
    rc, out, err = run("--gpu", "9.0", path)
    lines = out.splitlines()
    for i, l in enumerate(lines):
        if l.startswith("  runtime: "):
            assert len(l) <= 80, l
            while i + 1 < len(lines) and lines[i + 1].startswith("    ") and not lines[i + 1].startswith("     "):
                i += 1
                assert len(lines[i]) <= 80, lines[i]
                l += " " + lines[i].strip()
            return l
    return None


def judged(path, driver):
    """(exit code, the file's verdict JSON for sm_90, its runtime JSON) with DRIVER."""
    rc, out, err = run("--json", "--gpu", "9.0", "--driver", driver, path)
    f = json.loads(out)["files"][0]
    return rc, f["verdicts"][0], f.get("runtime")


@test
def each_kind_of_runtime_is_named():
    eq(runtime_line(rt("libcudart11.so")),
       "  runtime: libcudart.so.11.0; needs a driver for CUDA 11.0 or newer (>= 450.51.05)")
    eq(runtime_line(rt("libcudart102.so")),
       "  runtime: libcudart.so.10.2; needs a driver for CUDA 10.2 or newer (>= 440.33)")
    eq(runtime_line(rt("libcublas13.so")),
       "  runtime: libcudart.so.12; libcublas.so.13 needs a driver for CUDA 13.0 or newer (>= 580.65.06)")
    eq(runtime_line(rt("libprocess.so")), "  runtime: the loading process's (it imports __cudaRegisterFatBinary)")
    with tempfile.TemporaryDirectory() as tmp:
        static = os.path.join(tmp, "libstatic.so")
        with open(static, "wb") as f:
            f.write(lzma.decompress(open(rt("libstatic.so.xz"), "rb").read()))
        eq(runtime_line(static),
           "  runtime: static, CUDA 13 (its runtime resolves CUDA 13.0's driver functions); needs a driver for "
           "CUDA 13.0 or newer (>= 580.65.06)")
    # Objects and archives get their runtime when they are linked: nothing is claimed.
    eq(runtime_line(os.path.join(FIXTURES, "librdc.a")), None)
    eq(runtime_line(os.path.join(FIXTURES, "rdc_main.o")), None)


@test
def json_names_the_libraries_and_the_driver():
    rc, v, r = judged(rt("libcublas13.so"), "13.0")
    eq(r, {"kind": "shared", "cuda_libraries": ["libcudart.so.12", "libcublas.so.13"], "needs_cuda": "13.0",
           "min_driver": "580.65.06", "decided_by": "libcublas.so.13", "built_by": None,
           "built_by_evidence": None})
    eq(v["runtime_starts"], True)
    rc, out, err = run("--json", "--gpu", "9.0", rt("libcublas13.so"))  # no --driver: not judged
    eq(json.loads(out)["files"][0]["verdicts"][0]["runtime_starts"], None)
    rc, v, r = judged(rt("libprocess.so"), "11.0")  # nothing to judge by
    eq((r["kind"], r["needs_cuda"], v["runtime_starts"]), ("process", None, None))


@test
def minor_version_compatibility_from_cuda_11():
    # A CUDA 11 runtime starts on any CUDA 11 driver, a 10.2 one only on 10.2 or later.
    for path, driver, starts in ((rt("libcudart11.so"), "11.0", True), (rt("libcudart11.so"), "11.4", True),
                                 (rt("libcudart11.so"), "10.2", False), (rt("libcudart102.so"), "10.2", True),
                                 (rt("libcudart102.so"), "10.1", False), (rt("libcudart102.so"), "12.0", True),
                                 (rt("libcublas13.so"), "12.9", False), (rt("libcublas13.so"), "13.0", True)):
        rc, v, r = judged(path, driver)
        eq((v["runtime_starts"], v["status"] == "none" if not starts else True), (starts, True),
           "%s on %s" % (os.path.basename(path), driver))
        if not starts:
            eq(rc, 1, "none is exit 1")


@test
def a_runtime_that_cannot_start_is_none_with_its_fix():
    path = os.path.join(FIXTURES, "libmulti.so")
    # (sm_80: no 11.4 driver runs a 9.0 GPU, rule 3)
    rc, out, err = run("--gpu", "sm_80", "--driver", "470.82.01", path)
    eq(rc, 1)
    assert ("  sm_80 (--gpu sm_80): none, the CUDA runtime it needs cannot start on a driver\n"
            "    for CUDA 11.4: every CUDA call fails with\n"
            "    " + INSUFFICIENT + "\n"
            "    fix: install a driver for CUDA 13.0 or newer (>= 580.65.06)\n") in out, out
    assert "forward compatibility package for\n         CUDA 13 (cuda-compat)" in out, out
    # A CUDA library decides when it needs more than the runtime.
    rc, out, err = run("--gpu", "9.0", "--driver", "12.4", rt("libcublas13.so"))
    assert "none, libcublas.so.13 cannot start on a driver for CUDA 12.4" in flat(out), out
    # The same files with a new enough driver: judged on their images as before.
    rc, out, err = run("--gpu", "sm_90", "--driver", "13.0", path)
    assert "sm_90 (--gpu sm_90): ok, 2 modules load" in out, out


@test
def pytorch_is_told_which_build_would_run():
    rc, out, err = run("--gpu", "9.0", "--driver", "12.4", rt("torch/lib/libtorch_cuda.so"))
    eq(rc, 1)
    assert "or a PyTorch build for CUDA 12.x (a cu12* wheel), which this driver starts" in out, out
    rc, out, err = run("--gpu", "9.0", "--driver", "12.4", rt("libcudart11.so"))
    assert "PyTorch" not in out, out


@test
def fleets_judge_each_group_by_its_driver():
    with tempfile.TemporaryDirectory() as tmp:
        csv = os.path.join(tmp, "gpus.csv")
        with open(csv, "w") as f:
            f.write("index, name, compute_cap, driver_version\n0, NVIDIA H100 80GB HBM3, 9.0, 550.54.14\n"
                    "0, NVIDIA H100 80GB HBM3, 9.0, 580.65.06\n")
        rc, out, err = run("--json", "--gpus-from", csv, os.path.join(FIXTURES, "libmulti.so"))
        v = json.loads(out)["files"][0]["verdicts"]
        eq(sorted((x["runtime_starts"], x["status"]) for x in v), [(False, "none"), (True, "ok")])
        eq(rc, 1)


@test
def files_without_a_section_table_read_dt_needed_from_the_program_headers():
    eq(runtime_line(os.path.join(FIXTURES, "noshdr", "libmulti.sstrip.so")),
       "  runtime: libcudart.so.13; needs a driver for CUDA 13.0 or newer (>= 580.65.06)")


@test
def real_files_of_other_releases():
    cases = [("debian12-cuda11.8/bart", "  runtime: libcudart.so.11.0; needs a driver for CUDA 11.0 or newer (>= 450.51.05)"),
             ("debian12-cuda11.8/relion_refine",
              "  runtime: static, CUDA 11 (its runtime resolves CUDA 11.0's driver functions); needs a driver for "
              "CUDA 11.0 or newer (>= 450.51.05)"),
             ("debian13-cuda12.4/libmagma.so.2",
              "  runtime: libcudart.so.12; needs a driver for CUDA 12.0 or newer (>= 525.60.13)"),
             ("npm-node-llama-cpp-3.3.0/libggml-cuda.so",
              "  runtime: libcudart.so.12; needs a driver for CUDA 12.0 or newer (>= 525.60.13)")]
    skipped = []
    for rel, want in cases:
        path = os.path.join(ERAS, rel) if ERAS else None
        if not path or not os.path.exists(path):
            skipped.append(rel)
            continue
        eq(runtime_line(path), want, rel)
    if len(skipped) == len(cases):
        return "skip: not fetched (scripts/fetch-eras.sh): " + " ".join(skipped)


@test
def advice_that_can_be_followed():
    # CUDA 13 cannot build sm_70: saying "rebuild for 7.0" alone would be advice nobody can follow.
    rc, out, err = run("--gpu", "7.0", "--driver", "13.0", os.path.join(FIXTURES, "libmulti.so"))
    assert ("    note: CUDA 13, which built this, cannot build sm_70 (it starts at sm_75):\n"
            "          rebuild with CUDA 12.x, the last release that can\n"
            "    fix: rebuild with TORCH_CUDA_ARCH_LIST=") in out, out
    assert "  (CUDA 13 builds sm_75 and newer: sm_70 needs CUDA 12.x or older)\n" in out, out  # the footer
    rc, out, err = run("--gpu", "8.6", "--driver", "13.0", os.path.join(FIXTURES, "app"))
    assert "cannot build" not in out and "CUDA 13 builds" not in out, out  # sm_86 it can
    # NVIDIA's own libraries are not rebuilt by their users.
    with tempfile.TemporaryDirectory() as tmp:
        lib = os.path.join(tmp, "libcublas.so.13")
        shutil.copy(os.path.join(FIXTURES, "libmulti.so"), lib)
        rc, out, err = run("--gpu", "7.0", "--driver", "13.0", lib)
        eq(rc, 1)
        assert ("    fix: this is NVIDIA's libcublas (a CUDA 13 build), with no code for sm_70:\n"
                "         use libcublas from CUDA 12.x, the last release that supports sm_70\n") in out, out
        assert "TORCH_CUDA_ARCH_LIST=\"7.0" not in out.split("to build native code")[0], out


@test
def relocatable_code_the_runtime_registers_fails():
    # Registered code is a module whatever it holds: -rdc PTX put in .nv_fatbin is not excused
    # as a link input (the driver fails its functions: tests/oracle printf.rdc.compute_80.fatbin).
    oracle = os.path.join(os.path.dirname(os.path.abspath(__file__)), "oracle", "images")
    with tempfile.TemporaryDirectory() as tmp:
        lib = os.path.join(tmp, "librelocatable.so")
        # The records go too: they would point at containers no longer there (an error). The
        # section is replaced in place: one added (--add-section) lies in no loaded segment, and
        # is never registered (review of 2026-12-03, F7).
        subprocess.run(["objcopy", "--remove-section", ".nvFatBinSegment", "--update-section",
                        ".nv_fatbin=" + os.path.join(oracle, "printf.rdc.compute_80.fatbin"),
                        os.path.join(FIXTURES, "libmulti.so"), lib], check=True, capture_output=True)
        rc, out, err = run("--json", "--gpu", "9.0", "--driver", "13.0", lib)
        f = json.loads(out)["files"][0]
        eq((rc, f["containers"][0]["role"], f["containers"][0]["loads"][0]["result"]),
           (1, "module", "RELOCATABLE_MODULE"))
        eq((f["verdicts"][0]["status"], f["verdicts"][0]["relocatable"]), ("none", 1))


@test
def rdc_code_never_device_linked_cannot_load():
    # CMake's CUDA_SEPARABLE_COMPILATION without CUDA_RESOLVE_DEVICE_SYMBOLS: the library imports
    # __cudaRegisterLinkedBinary_*, which only the device link step defines; dlopen fails.
    path = rt("libnodlink.so")
    rc, out, err = run("--gpu", "8.0", "--driver", "13.0", path)
    eq(rc, 1)
    assert "  device link: missing: its -rdc code stands in __nv_relfatbin alone" in out, out
    assert ("none, its relocatable device code (-rdc) was never device-linked: loading it fails with "
            '"undefined symbol: __cudaRegisterLinkedBinary_..."') in flat(out), out
    rc, out, err = run("--json", "--gpu", "8.0", path)
    f = json.loads(out)["files"][0]
    eq((f.get("device_link_missing"), f["verdicts"][0]["status"]), (True, "none"))
    # A library that links them properly (libmulti.so, or rdc objects in an archive) is not.
    rc, out, err = run("--json", "--gpu", "8.0", os.path.join(FIXTURES, "librdc.a"))
    eq([f.get("device_link_missing") for f in json.loads(out)["files"]], [None, None])


@test
def a_cuda_library_dates_itself_by_its_soname():
    # cuFFT 11 came with CUDA 12: its static runtime is dated nowhere else (campaign F5).
    path = os.path.join(ERAS, "debian13-cuda12.4/libcufft.so.11.2.1.3") if ERAS else None
    if not path or not os.path.exists(path):
        return "skip: not fetched (scripts/fetch-eras.sh)"
    eq(runtime_line(path), "  runtime: static, its CUDA release not recorded in the file; libcufft.so.11 itself "
                           "needs a driver for CUDA 12.0 or newer (>= 525.60.13)")
    rc, out, err = run("--gpu", "7.5", "--driver", "10.2", path)  # 8.0 came with CUDA 11.0
    eq(rc, 1)
    assert "none, its static CUDA runtime cannot start on a driver for CUDA 10.2" in flat(out), out


@test
def host_code_needing_any_cuda_library_is_judged_by_it():
    # rv45 F5: a library whose only CUDA need was libnvjpeg.so.13, libcusolverMg.so.12 (CUDA
    # 13.0's, as /usr/local/cuda/lib64 has it) or libnvfatbin.so.13 was "no CUDA code", exit 0,
    # on a CUDA 12.4 driver; so were their Windows DLLs (formats_test). Built here with cc:
    # stubs of those sonames, and a library needing one.
    import subprocess
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "x.c")
        open(src, "w").write("int x(void) { return 1; }\n")
        for soname, needs in (("libnvjpeg.so.13", "13.0"), ("libcusolverMg.so.12", "13.0"),
                              ("libcusolverMg.so.11", "11.0"), ("libnvfatbin.so.13", "13.0"),
                              ("libnvjpeg.so.12", "12.0")):
            stub = os.path.join(tmp, soname)
            subprocess.run(["cc", "-shared", "-o", stub, "-Wl,-soname," + soname, src], check=True)
            lib = os.path.join(tmp, "libuses_" + soname.replace(".", "_") + ".so")
            subprocess.run(["cc", "-shared", "-o", lib, src, "-Wl,--no-as-needed", stub], check=True)
            rc, v, r = judged(lib, "12.4")
            eq((r and r["cuda_libraries"], r and r["needs_cuda"], rc),
               ([soname], needs, 1 if needs > "12.4" else 0), soname)


@test
def containers_kept_deep_in_data_are_found_through_their_pointers():
    # CUDA 11.8's cuFFT keeps 22,346 containers in .data, the first 2.8 MiB in, past the 1 MiB
    # head that decides whether a section is searched: they were missed, and the file was judged
    # ok on sm_120 from its 20 registered containers alone. Relative relocations point at them.
    path = os.path.join(ERAS, "debian12-cuda11.8/libcufft.so.10.9.0.58") if ERAS else None
    if not path or not os.path.exists(path):
        return "skip: not fetched (scripts/fetch-eras.sh)"
    rc, out, err = run("--json", "--gpu", "9.0,12.0", "--driver", "13.0", path)
    f = json.loads(out)["files"][0]
    kept = [c for c in f["containers"] if c["origin"] == "embedded"]
    eq((len(f["containers"]), len(kept), {c["section"] for c in kept}, f.get("sections_searched_in_part")),
       (22366, 22346, {".data"}, 1))
    eq([v["status"] for v in f["verdicts"]], ["partial", "partial"])
    rc, out, err = run("--embedded", "--json", "--gpu", "12.0", "--driver", "13.0", path)
    eq(len(json.loads(out)["files"][0]["containers"]), 22366)


@test
def the_runtime_is_read_through_the_program_headers_without_a_section_table():
    """sstrip leaves no section table: the dynamic symbols are then read as the dynamic linker
    reads them (DT_SYMTAB, counted by DT_GNU_HASH or DT_HASH) and a static runtime's driver
    functions in the loaded read-only segments. A stripped copy of a library with CUDA 13.0's
    static runtime was "ok", exit 0, on a CUDA 12.4 driver, and one never device-linked "ok"
    where it cannot be loaded. Each stripped file is judged as the whole one."""
    with tempfile.TemporaryDirectory() as tmp:
        static = os.path.join(tmp, "libstatic.so")
        open(static, "wb").write(lzma.decompress(open(rt("libstatic.so.xz"), "rb").read()))
        for path in (static, rt("libprocess.so"), rt("libprocess_sysv.so"), rt("libnodlink.so"),
                     rt("libcudart11.so")):
            name = os.path.basename(path)
            stripped = os.path.join(tmp, "stripped-" + name)
            open(stripped, "wb").write(without_section_table(open(path, "rb").read()))
            for driver in ("12.4", "13.0"):
                rc, out, err = run("--json", "--gpu", "8.0,8.6", "--driver", driver, path)
                f = json.loads(out)["files"][0]
                rc2, out2, err2 = run("--json", "--gpu", "8.0,8.6", "--driver", driver, stripped)
                f2 = json.loads(out2)["files"][0]
                eq((rc2, [v["status"] for v in f2["verdicts"]], f2.get("runtime"), f2.get("device_link_missing")),
                   (rc, [v["status"] for v in f["verdicts"]], f.get("runtime"), f.get("device_link_missing")),
                   name + " on " + driver)
        rc, v, r = judged(os.path.join(tmp, "stripped-libstatic.so"), "12.4")
        eq((rc, v["status"], r["kind"], r["built_by_evidence"]),
           (1, "none", "static", "its runtime resolves CUDA 13.0's driver functions"))
        for name in ("libprocess.so", "libprocess_sysv.so"):
            rc, v, r = judged(os.path.join(tmp, "stripped-" + name), "12.4")
            eq(r["kind"], "process", name)
        rc, out, err = run("--gpu", "8.0", "--driver", "13.0", os.path.join(tmp, "stripped-libnodlink.so"))
        eq(rc, 1)
        assert ("  device link: missing: it imports __cudaRegisterLinkedBinary_*, which only the\n"
                "    device link step defines, and holds no output of it: it cannot be loaded\n") in out, out
        # With the dynamic symbols' count unreadable (DT_GNU_HASH's tag made DT_DEBUG's), the
        # runtime's table of driver functions still tells one is linked in; without it too,
        # nothing is claimed, and that is said.
        data = bytearray(without_section_table(lzma.decompress(open(rt("libstatic.so.xz"), "rb").read())))
        tag = struct.pack("<q", 0x6ffffef5)
        at = data.find(tag)
        assert at > 0 and data.find(tag, at + 1) < 0
        data[at:at + 8] = struct.pack("<q", 21)
        open(static, "wb").write(bytes(data))
        rc, v, r = judged(static, "12.4")
        eq((rc, v["status"], r["kind"], r["needs_cuda"]), (1, "none", "static", "13.0"))
        open(static, "wb").write(without_runtime_calls(bytes(data)))
        rc, out, err = run("--gpu", "8.6", "--driver", "12.4", static)
        # Its cubins date it all the same: CUDA 13's (ABI 8), which a 12.4 driver does not run
        # (rule 13; it was ok, exit 0).
        eq(rc, 1)
        assert "(cubins of CUDA 13's toolchain, which drivers before CUDA 13.0 do not run)" in out.replace("\n    ", " "), out
        assert "  runtime: not named, and linked in or not cannot be told without the section\n" in out, out
        assert ("    note: the CUDA release of its runtime is recorded nowhere in the file: whether\n"
                "          this driver starts it is not judged\n") in out, out


@test
def overlapping_segments_are_searched_once():
    """Hostile input (review of 2026-12-02, third session): without a section table the
    loaded read-only segments are searched for a static runtime's names; 65,000 of them, each
    over the whole file, were searched one by one (42 s on dev, 0.2 s before that search).
    Overlapping ones are searched once now; the program header table is read up to 4,096
    entries and the rest said (elf_segments.c)."""
    data = bytearray(without_section_table(open(rt("libprocess.so"), "rb").read()))
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phnum, = struct.unpack_from("<H", data, 0x38)
    table = bytes(data[phoff:phoff + 56 * phnum])
    extra = 65000
    load = struct.pack("<IIQQQQQQ", 1, 4, 0, 0, 0, len(data) + 56 * (phnum + extra), 0, 4096)  # PT_LOAD, R
    struct.pack_into("<Q", data, 0x20, len(data))
    struct.pack_into("<H", data, 0x38, phnum + extra)
    data += table + load * extra
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "segments.so")
        open(path, "wb").write(bytes(data))
        rc, out, err = tap_cli.run("--gpu", "8.0", "--driver", "12.4", path, timeout=30)
        eq(rc in (0, 1, 3), True, (rc, err[-300:]))


@test
def an_undated_static_runtime_is_said_to_be_unjudged():
    with tempfile.TemporaryDirectory() as tmp:
        static = os.path.join(tmp, "libstatic.so")
        data = bytearray(lzma.decompress(open(rt("libstatic.so.xz"), "rb").read()))
        # Its one PTX entry's ISA 9.0 is what dates it: make the ISA one no table knows.
        i = data.find(bytes([0, 0, 9, 0, 86, 0, 0, 0]))  # minor 0, major 9, arch 86
        assert i > 0
        data[i + 2] = 42
        # and its cubins' ptxas notes say no release, nor its runtime the driver functions it resolves
        data = data.replace(b"Cuda compilation tools, release ", b"Cuda compilation tools, relxase ")
        data = without_runtime_calls(data)
        open(static, "wb").write(bytes(data))
        rc, out, err = run("--gpu", "8.0", "--driver", "11.0", static)  # 8.6 came with CUDA 11.1
        assert "runtime: static, its CUDA release not recorded in the file" in out, out
        assert ("note: the CUDA release of its runtime is recorded nowhere in the file: whether\n"
                "          this driver starts it is not judged") in out, out


# The driver functions whose names date a static runtime (src/input/elf_needs.c runtime_calls).
RUNTIME_CALLS = (b"cuMemGetDefaultMemPool", b"cuDeviceGetHostAtomicCapabilities", b"cuMemPrefetchBatchAsync",
                 b"cuLibraryLoadData", b"cuKernelGetFunction", b"cuGraphInstantiateWithParams",
                 b"cuCtxResetPersistingL2Cache")


def without_runtime_calls(data):
    for name in RUNTIME_CALLS:
        assert b"\0" + name + b"\0" in data, name
        data = data.replace(b"\0" + name + b"\0", b"\0" + name.replace(b"cu", b"cx", 1) + b"\0")
    return data


@test
def a_static_runtime_is_dated_by_the_driver_functions_it_resolves():
    """Review 2, R2: a static runtime was dated by the newest PTX ISA alone, so a CUDA 13 runtime
    linked with older PTX (a prebuilt library's ISA 7.8) was "ok" on a CUDA 11.8 driver. The
    driver functions its runtime names in .rodata date it (CUDA 13.0's cuMemGetDefaultMemPool);
    the device code only bounds it from below."""
    data = bytearray(lzma.decompress(open(rt("libstatic.so.xz"), "rb").read()))
    i = data.find(bytes([0, 0, 9, 0, 86, 0, 0, 0]))  # the PTX entry: minor 0, major 9, arch 86
    assert i > 0
    data[i:i + 4] = bytes([8, 0, 7, 0])  # ISA 7.8, as CUDA 11.8 writes it
    with tempfile.TemporaryDirectory() as tmp:
        static = os.path.join(tmp, "libstatic.so")
        open(static, "wb").write(bytes(data))
        rc, v, r = judged(static, "11.8")
        eq((rc, v["status"], v["runtime_starts"], r["needs_cuda"], r["built_by"], r["built_by_evidence"]),
           (1, "none", False, "13.0", "13.0", "its runtime resolves CUDA 13.0's driver functions"))
        # Without those names, the device code is a lower bound only: ISA 9.0 (CUDA 13.0) fails on
        # a 12.x driver, and on a 13.0 one nothing is judged of the runtime.
        undated = without_runtime_calls(bytes(lzma.decompress(open(rt("libstatic.so.xz"), "rb").read())))
        open(static, "wb").write(undated)
        rc, v, r = judged(static, "12.4")
        eq((rc, v["status"], v["runtime_starts"], r["built_by_evidence"]), (1, "none", False, "PTX ISA 9.0"))
        rc, v, r = judged(static, "13.0")
        eq((rc, v["status"], v["runtime_starts"], r["needs_cuda"]), (0, "ok", None, "13.0"))
        rc, out, err = run("--gpu", "9.0", "--driver", "13.0", static)
        assert ("    note: its static runtime names no driver function that dates it; its code\n"
                "          needs CUDA 13.0 or newer, and whether this driver starts the\n"
                "          runtime is not judged\n") in out, out
        # ... which --strict fails, as it fails a runtime of no known release (it passed, exit 0)
        rc, out, err = run("--strict", "-q", "--gpu", "9.0", "--driver", "13.0", static)
        eq((rc, err), (3, "fatcheck: %s: whether the targets' driver starts its CUDA runtime is not judged; "
                          "--strict fails it\n" % static))
        eq(run("--strict", "-q", "--gpu", "9.0", "--driver", "12.4", static)[0], 1)  # judged: it fails
    # Real static builds of other CUDA releases (scripts/fetch-eras.sh): each names its own.
    if not ERAS or not os.path.isdir(ERAS):
        return "skip: no real files of other CUDA releases (scripts/fetch-eras.sh)"
    for rel, cuda in (("debian12-cuda11.8/libcublas.so.11.11.3.6", "11.0"),
                      ("debian12-cuda11.8/libcusparse.so.11.7.5.86", "11.0"),
                      ("debian13-cuda12.4/libcublas.so.12.4.5.8", "12.0"),
                      ("debian13-cuda12.4/libcusparse.so.12.3.1.170", "12.0")):
        path = os.path.join(ERAS, rel)
        if not os.path.exists(path):
            return "skip: %s not fetched" % rel
        rc, out, err = run("--json", "--gpu", "8.0", "--driver", "13.0", path)
        r = json.loads(out)["files"][0]["runtime"]
        eq((r["kind"], r["built_by"], r["built_by_evidence"]),
           ("static", cuda, "its runtime resolves CUDA %s's driver functions" % cuda), rel)


@test
def a_file_without_kernels_is_judged_by_its_runtime_wherever_it_is_found():
    # The host side of a CUDA 13 build (libc10_cuda.so is one): no kernel, DT_NEEDED
    # libcudart.so.13. Named, it failed on a CUDA 12.4 driver; found in a directory, a tarball
    # or a wheel it was passed over (red-team review of 2026-12-04: exit 0 where it cannot start).
    host = rt("libhost13.so")
    eq(judged(host, "12.4")[:2][0], 1)
    with tempfile.TemporaryDirectory() as d:
        tree = os.path.join(d, "tree")
        os.makedirs(os.path.join(tree, "lib"))
        shutil.copy(host, os.path.join(tree, "lib", "libhost13.so"))
        shutil.copy(os.path.join(FIXTURES, "libmulti.so"), os.path.join(tree, "lib", "libmulti.so"))
        tarball = os.path.join(d, "tree.tar")
        subprocess.run(["tar", "-C", tree, "-cf", tarball, "lib"], check=True)
        wheel = os.path.join(d, "tree-1.0-py3-none-any.whl")
        shutil.make_archive(wheel, "zip", tree)
        os.rename(wheel + ".zip", wheel)
        for where in (tree, tarball, wheel):
            rc, out, err = run("--json", "--packages", "--gpu", "9.0", "--driver", "12.4", where)
            files = {f.get("member") or f["path"]: f for f in json.loads(out)["files"]}
            host_key = [k for k in files if k.endswith("libhost13.so")]
            eq((rc, len(host_key)), (1, 1), where)
            f = files[host_key[0]]
            eq((f["containers"], f["verdicts"][0]["status"], f["verdicts"][0]["runtime_starts"]),
               ([], "none", False), where)
            # A driver that starts it: no more than a file without CUDA code, not listed.
            rc, out, err = run("--json", "--packages", "--gpu", "9.0", "--driver", "13.0", where)
            names = [f.get("member") or f["path"] for f in json.loads(out)["files"]]
            eq((rc, [n for n in names if n.endswith("libhost13.so")]), (0, []), where)
            rc, out, err = run("-q", "--packages", "--gpu", "9.0", "--driver", "12.4", where)
            eq(rc, 1, where)
            assert "libhost13.so: no CUDA code" in out, out
            # -k: no kernel list for a file that holds none ("missing here: no kernel (what
            # fails here is also provided by a module that loads)" was said: red-team M2).
            rc, out, err = run("-k", "--packages", "--gpu", "9.0", "--driver", "12.4", where)
            shown = out.split("libhost13.so: no CUDA code\n", 1)[1].split("\n/", 1)[0]
            eq((rc, "missing here" in shown, "cannot start" in flat(shown)), (1, False, True), where)
        # In a container image (docker save), as the container sees it.
        image = os.path.join(d, "image.tar")
        tap_cli.docker_save(image, tree, "host:1")
        rc, out, err = run("--gpu", "9.0", "--driver", "12.4", image)
        eq(rc, 1)
        assert "host:1:/lib/libhost13.so: no CUDA code" in out, out
        rc, out, err = run("--gpu", "9.0", "--driver", "13.0", image)
        eq((rc, "libhost13" in out), (0, False), out)
    # What fails it is the driver alone: no advice on what to build for, and no arch list
    # complaint in a walk, which judges no file without CUDA code by the list.
    rc, out, err = run("--gpu", "9.0", "--driver", "12.4", host)
    eq((rc, "to build native code" in out), (1, False), out)
    rc, out, err = run("--arch-list", "9.0", "--driver", "12.4", RT)
    shown = out.split("libhost13.so: no CUDA code\n", 1)[1].split("\n/", 1)[0]
    assert "sm_90 (--arch-list): none" in shown and "arch list" not in shown, shown
    # A CUDA library of no device code is judged by its own soname (a wheel holding only
    # libcudart.so.13 passed, "no CUDA code", exit 0: red-team review of 2026-12-04).
    with tempfile.TemporaryDirectory() as d:
        wheel = os.path.join(d, "nvidia_cuda_runtime-13.0-py3-none-manylinux_2_28_x86_64.whl")
        with zipfile.ZipFile(wheel, "w") as z:
            z.write(rt("cudart13/libcudart.so.13"), "nvidia/cu13/lib/libcudart.so.13")
        for where in (wheel, os.path.join(RT, "cudart13")):
            rc, out, err = run("-q", "--gpu", "9.0", "--driver", "12.4", where)
            assert rc == 1 and "libcudart.so.13 itself cannot start" in flat(out), (where, rc, out)
            eq(run("-q", "--gpu", "9.0", "--driver", "13.0", where)[:2], (0, ""), where)


@test
def a_static_runtime_without_device_code_is_judged():
    """A C++ program built by g++ against libcudart_static.a holds no device code; on a CUDA
    12.4 driver every CUDA call of its CUDA 13 runtime fails, and it was "no CUDA code", exit 0,
    named or found (cuda-python's cyruntime, CuPy's runtime module and NVSHMEM's transports in
    PyTorch's site-packages are such files). It is told by what only the runtime does together:
    it imports shm_open and names the driver functions that date it. fatcheck itself names
    them and is no CUDA program."""
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "bin"))
        prog = unpacked("hostprog.xz", os.path.join(d, "bin", "hostprog"))
        shutil.copy(tap_cli.FATCHECK, os.path.join(d, "bin", "fatcheck"))
        rc, out, err = run("--gpu", "9.0", "--driver", "12.4", prog)
        eq(rc, 1, out)
        assert STATIC_13 in flat(out), out
        assert "none, its static CUDA runtime cannot start on a driver for CUDA 12.4" in flat(out), out
        rc, out, err = run("-q", "--gpu", "9.0", "--driver", "12.4", d)
        eq((rc, [l.split(":")[0] for l in out.splitlines() if l.startswith("/")]), (1, [prog]), out)
        eq(run("-q", "--gpu", "9.0", "--driver", "13.0", d)[:2], (0, ""))



@test
def a_static_runtime_beside_code_it_does_not_register_is_judged():
    """A library built by g++ against libcudart_static.a that keeps its device code as PTX text
    (or a fat binary as data) and loads it itself, and needs libcublas.so.12: its CUDA 13
    runtime fails every call on a CUDA 12.4 driver, where fatcheck said "ok" (the PTX JITs, and
    cuBLAS 12 starts), exit 0 (review of 2026-12-07: cuDNN 9's libcudnn_graph.so.9 is such a
    file). A library that imports shm_open and names the driver's functions to trace them, as
    CUPTI does, without the runtime's "/cudart.shm." segments, is no runtime."""
    with tempfile.TemporaryDirectory() as d:
        lib = unpacked("libhostptx.so.xz", os.path.join(d, "libhostptx.so"))
        rc, out, err = run("--gpu", "9.0", "--driver", "12.4", lib)
        eq(rc, 1, out)
        assert "PTX kept as text, loaded by the program itself: 1 module in .rodata" in flat(out), out
        assert STATIC_13 in flat(out), out
        assert "none, its static CUDA runtime cannot start on a driver for CUDA 12.4" in flat(out), out
        eq(run("--strict", "-q", "--gpu", "9.0", "--driver", "13.0", lib)[:2], (0, ""))
        doc = json.loads(run("--json", "--gpu", "9.0", "--driver", "12.4", lib)[1])
        eq(doc["files"][0]["runtime"]["kind"], "static")
    rc, out, err = run("--gpu", "9.0", "--driver", "12.4", rt("libtracer.so"))
    eq(rc, 0, out)
    assert "runtime:" not in out and "ok, 1 module loads: 1 only through PTX JIT" in flat(out), out


@test
def a_static_runtime_whose_anchor_name_ld_merged_away_is_judged():
    """GNU ld keeps one copy of a string: where the library's own code names
    cuCtxResetPersistingL2Cache, 1.2 MB of its strings before the runtime's, that copy is the
    only one, far from the runtime's table, and the library was "no CUDA code", exit 0, on a
    CUDA 12.4 driver its CUDA 13 runtime cannot start on (review of 2026-12-07, rv40). The
    runtime's "/cudart.shm." segment name anchors the search too."""
    with tempfile.TemporaryDirectory() as d:
        lib = unpacked("libmerged.so.xz", os.path.join(d, "libmerged.so"))
        rc, out, err = run("--gpu", "9.0", "--driver", "12.4", lib)
        eq(rc, 1, out)
        assert STATIC_13 in flat(out), out
        rc, out, err = run("--gpu", "9.0", "--driver", "13.0", lib)
        eq(rc, 0, out)

sys.exit(tap_cli.main())
