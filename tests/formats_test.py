#!/usr/bin/env python3
"""CLI tests of the inputs beyond ordinary ELF files: Windows PE images and COFF objects;
ELF files whose section table is missing or does not show their CUDA code; files of no
known format holding fat binaries; PTX kept as text inside programs.

Usage: formats_test.py FATCHECK FIXTURES_DIR FAKECUDA
Writes TAP. The fixtures are made by fixtures/pe/make.sh (mingw-w64 and a Python PE
writer, from the committed fat binaries), fixtures/noshdr/make.py (from libmulti.so and
app), fixtures/merged/make.sh (a linker script that merges .nv_fatbin and .nvFatBinSegment into
.rodata and .data) and fixtures/ptxtext/make.sh (from kernels.ptx); the expectations below are what those fat binaries hold, placed where each format puts
them."""
import io
import json
import lzma
import re
import os
import shutil
import struct
import subprocess
import sys
import tarfile
import tempfile
import zipfile

from tap import eq, main, test  # noqa: E402

FATCHECK, FIXTURES, FAKECUDA = (os.path.abspath(p) for p in sys.argv[1:4])
BASE_ENV = {k: v for k, v in os.environ.items()
            if not k.startswith(("CUDA_", "FAKE_CUDA_")) and k != "LD_LIBRARY_PATH"}
BASE_ENV["LD_LIBRARY_PATH"] = FAKECUDA
# With no GPU there and none named, every run says so first on standard error.
NO_GPU = ("fatcheck: warning: not judging any GPU: the CUDA driver (CUDA 13.0) reports no GPU; "
          "name target GPUs with --gpu or --arch-list\n")


def run(*args, cwd=None, env=None):
    p = subprocess.run([FATCHECK] + list(args), capture_output=True, cwd=cwd, timeout=120,
                       env=dict(BASE_ENV, **(env or {})))
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def fx(name):
    return os.path.join(FIXTURES, name)


def md_escaped(text):
    """TEXT as --format markdown writes it (render_markdown.c put_md): a temporary folder may hold '_'."""
    return re.sub(r"([\\`*_\[\]<>|&!~$@#])", r"\\\1", text)


def schema_errors(doc):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import schema_validate
    return schema_validate.errors(doc)


# What the Windows fixtures hold: ptx_and_cubin.fatbin (sm_80 + compute_80) and
# compress_size.fatbin (sm_90 + compute_90) registered, ptx_only.fatbin kept as data.
PE_KINDS = ("  cubin        2  sm_80:1 sm_90:1\n"
            "  ptx          2  compute_80:1 compute_90:1\n"
            "  PTX ISA 9.0; stored: zstd 3, uncompressed 1\n"
            "  embedded as data, loaded by the library itself: 1 container in .rdata\n"
            "    ptx          1  compute_80:1\n"
            "    PTX ISA 9.0; stored: zstd 1\n")
# What a Windows image that registers code and imports no cudart64_*.dll needs: its static
# runtime, dated by its PTX; no driver release named (they are Linux's).
PE_RUNTIME = "  runtime: static, CUDA 13 (PTX ISA 9.0); needs a driver for CUDA 13.0 or newer\n"


@test
def pe_dll_summary():
    rc, out, err = run(fx("pe/libpe.dll"))
    eq((rc, err), (0, NO_GPU))
    eq(out, fx("pe/libpe.dll") + ": 2 containers in .nv_fatb\n" + PE_KINDS + PE_RUNTIME)


@test
def coff_objects_with_long_section_names():
    # GNU as writes ".nv_fatbin" as "/4", a string table reference; /bigobj has 20-byte symbols.
    for name in ("pe/kernels.obj", "pe/kernels_bigobj.obj"):
        rc, out, err = run(fx(name))
        eq((rc, err), (0, NO_GPU), name)
        eq(out, fx(name) + ": 2 containers in .nv_fatbin\n" + PE_KINDS, name)
        doc = json.loads(run("--json", fx(name))[1])
        eq(doc["files"][0]["format"], "coff")


@test
def windows_static_library_of_coff_objects():
    path = fx("pe/kernels.lib")
    rc, out, err = run(path)
    eq((rc, err), (0, NO_GPU))
    eq(out, path + "(kernels.obj): 2 containers in .nv_fatbin\n" + PE_KINDS +
       path + "(kernels_bigobj.obj): 2 containers in .nv_fatbin\n" + PE_KINDS)
    doc = json.loads(run("--json", path)[1])
    eq([(f["member"], f["format"], len(f["containers"])) for f in doc["files"]],
       [("kernels.obj", "coff", 3), ("kernels_bigobj.obj", "coff", 3)])


@test
def pe32_image_written_without_a_linker():
    rc, out, err = run(fx("pe/pe32.exe"))
    eq((rc, err), (0, NO_GPU))
    eq(out, fx("pe/pe32.exe") + ": 1 container in .nv_fatb\n"
            "  cubin        1  sm_86:1\n"
            "  ptx          1  compute_86:1\n"
            "  PTX ISA 9.0; stored: zstd 2; 2 with debug info\n" + PE_RUNTIME)


@test
def pe_json_names_format_sections_and_offsets():
    rc, out, err = run("--json", "--gpu", "sm_80", fx("pe/libpe.dll"), fx("pe/pe32.exe"))
    eq((rc, err), (1, ""))  # pe32.exe has nothing for sm_80
    doc = json.loads(out)
    eq(schema_errors(doc)[:5], [])
    f = doc["files"][0]
    eq(f["format"], "pe")
    eq([(c["offset"], c["section"], c["origin"]) for c in f["containers"]],
       [(0x2200, ".nv_fatb", "section"), (0x3fe8, ".nv_fatb", "section"), (0x1a00, ".rdata", "embedded")])
    eq([l["result"] for c in f["containers"] for l in c["loads"]], ["CUDA_SUCCESS", "CUDA_ERROR_NO_BINARY_FOR_GPU",
                                                                  "CUDA_SUCCESS"])
    eq(f["verdicts"][0]["status"], "partial")
    # The bytes at the offsets given are the containers: the fat binaries the fixture holds.
    data = open(fx("pe/libpe.dll"), "rb").read()
    for c, name in zip(f["containers"], ("ptx_and_cubin.fatbin", "compress_size.fatbin", "ptx_only.fatbin")):
        eq(data[c["offset"]:c["offset"] + c["size"]], open(fx(name), "rb").read(), name)
    eq(doc["files"][1]["format"], "pe")


@test
def pe_listings_like_cuobjdump():
    rc, out, err = run("--list-elf", "--list-ptx", "pe/libpe.dll", cwd=FIXTURES)
    eq((rc, err), (0, NO_GPU))
    eq(out, "ELF file    1: libpe.1.sm_80.cubin\n"
            "PTX file    1: libpe.1.sm_80.ptx\n"
            "ELF file    2: libpe.2.sm_90.cubin\n"
            "PTX file    2: libpe.2.sm_90.ptx\n")
    rc, out, err = run("-l", fx("pe/libpe.dll"))
    eq(rc, 0)
    eq([line.split()[:4] for line in out.splitlines()[2:]],
       [["0x2200", ".nv_fatb", "cubin", "sm_80"], ["0x2200", ".nv_fatb", "ptx", "compute_80"],
        ["0x3fe8", ".nv_fatb", "cubin", "sm_90"], ["0x3fe8", ".nv_fatb", "ptx", "compute_90"],
        ["0x1a00", ".rdata", "ptx", "compute_80"]])
    assert out.splitlines()[-1].endswith(" embedded"), out


@test
def pe_verdicts_and_kernels():
    rc, out, err = run("--kernels", "--gpu", "sm_75", fx("pe/libpe.dll"))
    eq(rc, 1)
    assert "  sm_75 (--gpu sm_75): none, no module can load (no kernel image for sm_75):\n" in out, out
    assert "    missing here: 3 kernels:\n      fc_add  (in sm_80 compute_80 sm_90 compute_90)\n" in out, out
    rc, out, err = run("--gpu", "sm_90", fx("pe/libpe.dll"))
    eq(rc, 0)
    assert "  sm_90 (--gpu sm_90): ok, 3 modules load: 1 native, 2 only through PTX JIT\n" in out, out


def pe_variants():
    """{name: path} of fixtures/pe/variants.py's files, written to a new directory."""
    sys.path.insert(0, fx("pe"))
    import variants
    made = tempfile.mkdtemp()
    out = {}
    for name, data in variants.variants().items():
        out[name] = os.path.join(made, name)
        open(out[name], "wb").write(data)
    return made, out


@test
def a_static_runtime_in_a_windows_image_is_judged_without_registered_code():
    # Stop 52's note, and a survey of 273 real Windows images (review of 2026-12-08): an image
    # that links cudart_static.lib and registers no code (a program of host code, PTX kept as
    # text, ONNX Runtime's TensorRT provider) was "no CUDA code", exit 0, on a driver its CUDA 13
    # runtime cannot start on. Told by the runtime's strings by "nvcuda.dll" (pe_runtime.c).
    sys.path.insert(0, fx("pe"))
    import static_runtime
    with tempfile.TemporaryDirectory() as made:
        for name, data in static_runtime.images().items():
            open(os.path.join(made, name), "wb").write(data)
        said = {}
        for name, driver, rc_want, needs in (("hybrid13.exe", "12.4", 1, "13"), ("table12.exe", "11.8", 1, "12"),
                                             ("table11_before.exe", "11.8", 0, "11"), ("loader36.exe", "11.8", 0, None),
                                             ("far12.exe", "11.8", 0, None), ("writable13.exe", "12.4", 0, None),
                                             ("shim.dll", "11.8", 0, None), ("loader.dll", "11.8", 0, None),
                                             ("many.dll", "11.8", 0, None), ("messages12.exe", "11.8", 1, "12"),
                                             ("messages_cu12.exe", "11.8", 1, "12"), ("before12.exe", "11.8", 1, "12")):
            rc, out, err = run("--json", "--gpu", "9.0", "--driver", driver, os.path.join(made, name))
            f = json.loads(out)["files"][0]
            rt = f.get("runtime") or {}
            said[name] = (rc, rt.get("kind"), rt.get("needs_cuda"))
            eq(said[name], (rc_want, "static" if needs else None, needs + ".0" if needs else None), name)
        rc, out, err = run("--gpu", "9.0", "--driver", "12.4", os.path.join(made, "hybrid13.exe"))
        assert ("  runtime: static, CUDA 13 (its runtime's strings date it to CUDA 13); needs a\n"
                "    driver for CUDA 13.0 or newer\n  sm_90 (--gpu 9.0): none, its static CUDA runtime cannot start "
                "on a driver for\n") in out, out
        # In a walk, the program is shown where its runtime cannot start, and only there.
        rc, out, err = run("-q", "--gpu", "9.0", "--driver", "12.4", made)
        eq((rc, sorted(l.split(": ")[0].rsplit("/", 1)[-1] for l in out.splitlines() if l.startswith("/"))),
           (1, ["hybrid13.exe"]))


@test
def pe_records_lead_to_code_whatever_the_section_is_named():
    # Campaign F2: the runtime reads each container at the address its .nvFatBi record holds;
    # .nv_fatb renamed or retyped lost the registered code ("no CUDA code", or a false "ok").
    made, v = pe_variants()
    by_records = ", registered with the CUDA runtime: found through its registration records, not a section " \
                 "named .nv_fatb\n"
    rc, out, err = run(v["renamed_code.dll"])
    eq((rc, err), (0, NO_GPU))
    eq(out, v["renamed_code.dll"] + ": 2 containers in .text2" + by_records + PE_KINDS + PE_RUNTIME)
    rc, out, err = run(v["renamed_rdata2.dll"])
    eq(out, v["renamed_rdata2.dll"] + ": 2 containers in .rdata2" + by_records + PE_KINDS + PE_RUNTIME)
    rc, out, err = run(v["code_only.dll"])
    eq((rc, out), (0, v["code_only.dll"] + ": 2 containers in .text2" + by_records +
                   PE_KINDS[:PE_KINDS.index("  embedded")] + PE_RUNTIME))
    # Judged as the original is: partial on sm_86 (exit 1 with --strict), not a false "ok".
    def verdicts(text):
        return text[text.index("  sm_86 (--gpu sm_86): "):]
    rc, out, err = run("--strict", "--gpu", "sm_86", v["renamed_code.dll"])
    rc0, out0, err0 = run("--strict", "--gpu", "sm_86", fx("pe/libpe.dll"))
    eq((rc, verdicts(out)), (rc0, verdicts(out0)))
    eq(rc, 1)
    rc, out, err = run("--strict", "--gpu", "sm_86", v["code_only.dll"])
    eq(rc, 1)
    assert "  sm_86 (--gpu sm_86): partial, 1 of 2 modules load; 1 cannot\n" in out, out
    # A record's first bytes as a constant in code, leading to no container, are no record: a
    # DLL so made was "could not be decoded", exit 3 (review of 2026-12-06, rv11 4).
    rc, out, err = run("--gpu", "sm_86", v["code_constant.dll"])
    eq((rc, err), (0, ""))
    assert "\n" + v["code_constant.dll"] + ": 2 containers in .nv_fatb\n" in out, out
    # The records moved out of .nvFatBi too (link.exe /MERGE): found in a data section's head.
    # It was "no CUDA code", exit 0 under --strict (review of 2026-12-06, rt10 F5).
    # In a code section too (/MERGE:.nvFatBi=.text), which a static runtime leaves no import
    # to tell (review of 2026-12-06, rv10 3).
    # And in a 32-bit image, records of 4-byte addresses (rv11 3).
    rc, out, err = run(v["pe32_records_moved.exe"])
    assert v["pe32_records_moved.exe"] + ": 1 container in .text2" + by_records in out, out
    for name in ("records_moved.dll", "records_in_code.dll", "cudart12_records_in_code.dll"):
        rc, out, err = run("--strict", "--gpu", "sm_86", v[name])
        eq(rc, 1, name)
        assert "\n" + v[name] + ": 2 containers in .text2" + by_records in out, out
        assert "  sm_86 (--gpu sm_86): partial, " in out, out
    doc = json.loads(run("--json", v["renamed_code.dll"])[1])
    eq(schema_errors(doc)[:5], [])
    eq([(c["section"], c["origin"]) for c in doc["files"][0]["containers"]],
       [(".rdata", "embedded"), (".text2", "wrapper"), (".text2", "wrapper")])
    # A record that leads where the file holds no bytes: the runtime cannot register it.
    rc, out, err = run(v["rawsize0.dll"])
    eq((rc, err), (3, NO_GPU + "fatcheck: %s: registration record 1 (offset 0x4800) points at 0x3717c5000, outside "
                   "every section's bytes in the file: there is no fat binary there, and the CUDA runtime fails to "
                   "register it\n" % v["rawsize0.dll"]))
    # A 32-bit image's records are 16 bytes, with 4-byte pointers.
    pe32 = bytearray(open(fx("pe/pe32.exe"), "rb").read())
    at = pe32.index(struct.pack("<I", 0x466243B1))
    pointer, = struct.unpack_from("<I", pe32, at + 8)
    struct.pack_into("<I", pe32, at + 8, pointer + 16)
    bad = os.path.join(made, "pe32.exe")
    open(bad, "wb").write(pe32)
    rc, out, err = run(bad)
    eq((rc, err), (3, NO_GPU + "fatcheck: %s: registration record 1 (offset 0x%x) points at 0x%x (offset 0x%x), where "
                   "there is no fat binary: the CUDA runtime fails to register it\n" % (bad, at, pointer + 16,
                                                                                          0x400 + 16)))
    shutil.rmtree(made)


@test
def registered_code_that_cannot_be_decoded_is_never_judged_ok():
    # Campaign U2: .nv_fatb's VirtualSize 16 cuts its first container short. Its stdout said
    # "no containers registered with the CUDA runtime ... sm_90: ok" (and JSON status ok)
    # while stderr and exit 3 carried the error.
    made, v = pe_variants()
    path = v["vsize16.dll"]
    rc, out, err = run("--gpu", "sm_90", path)
    eq((rc, err), (3, "fatcheck: %s: .nv_fatb+0x0: container of 7640 bytes runs past the end (0 bytes left)\n" % path))
    # Its registered code fails, while the PTX it keeps as data loads: none (rule 12).
    eq(out.split("\n")[3:10], [
        path + ": its registered code could not be decoded",
        "  embedded as data, loaded by the library itself: 1 container in .rdata",
        "    ptx          1  compute_80:1",
        "    PTX ISA 9.0; stored: zstd 1",
        "  sm_90 (--gpu sm_90): none, its 1 module the CUDA runtime registers cannot load",
        "    (registered code that could not be decoded): every kernel launched through",
        "    the runtime fails; only 1 module that it loads itself loads"])
    assert "to build native code" not in out, out  # damage is no matter of build flags
    doc = json.loads(run("--json", "--gpu", "sm_90", path)[1])
    eq(schema_errors(doc)[:5], [])
    verdict = doc["files"][0]["verdicts"][0]
    eq((verdict["status"], verdict["modules"], verdict["loadable"], verdict["undecoded"], verdict["registered_all_fail"],
        verdict["registered_modules"]), ("none", 2, 1, 1, True, 1))
    # The same in an ELF file, a record leading to a container damaged past its first entry:
    # the three containers read (one in part), and what could not be read as one more module
    # (the sm_75 one of the link step defines nothing and is none: rule 10).
    bad = bytearray(open(fx("noshdr/libmulti.sstrip.so"), "rb").read())
    bad[0x2620 + 20:0x2620 + 24] = (8).to_bytes(4, "little")
    p = os.path.join(made, "bad.so")
    open(p, "wb").write(bad)
    doc = json.loads(run("--json", "--gpu", "sm_90", p)[1])
    verdict = doc["files"][0]["verdicts"][0]
    eq((verdict["status"], verdict["modules"], verdict["loadable"], verdict["undecoded"],
        verdict["modules_defining_nothing"]), ("partial", 3, 1, 1, 1))
    # Where nothing else is known, nothing loads.
    garbage = bytearray(open(fx("libmulti.so"), "rb").read())
    garbage[0x2028:0x202c] = bytes(4)  # the first container's magic: .nv_fatbin cannot be walked
    p = os.path.join(made, "garbage.so")
    open(p, "wb").write(garbage)
    rc, out, err = run("--gpu", "sm_90", p)
    eq((rc, out.split("\n")[3], out.split("\n")[5:7]), (3, p + ": could not be decoded", [
        "  sm_90 (--gpu sm_90): none, no module can load", "    (registered code that could not be decoded): every kernel "
        "launch fails with"]))
    shutil.rmtree(made)


@test
def windows_images_need_the_runtime_their_imports_name():
    """Campaign F1: a CUDA 13.1 DLL was "ok" on a CUDA 12.4 driver. The import table (and the
    delay-load one) names the CUDA DLLs; with no cudart64_*.dll the runtime is linked in."""
    def runtime(path, driver):
        rc, out, err = run("--json", "--gpu", "sm_90", "--driver", driver, path)
        f = json.loads(out)["files"][0]
        eq(schema_errors(json.loads(out))[:5], [])
        r, v = f["runtime"], f["verdicts"][0]
        return (r["kind"], r["cuda_libraries"], r["needs_cuda"], r["min_driver"], r["decided_by"],
                v["runtime_starts"], rc)
    eq(runtime(fx("pe/cudart12.dll"), "11.8"),
       ("shared", ["cudart64_12.dll"], "12.0", None, "cudart64_12.dll", False, 1))
    eq(runtime(fx("pe/cudart12.dll"), "12.0")[5], True)
    # Delay-loaded (lld-link /delayload): the same need, from the delay-load directory.
    eq(runtime(fx("pe/cudart110_delay.dll"), "10.2"),
       ("shared", ["cudart64_110.dll"], "11.0", None, "cudart64_110.dll", False, 1))
    eq(runtime(fx("pe/cudart110_delay.dll"), "11.0")[5], True)
    # __cudaRegisterFatBinary from a DLL that is no CUDA runtime; cuBLAS 12 beside it.
    eq(runtime(fx("pe/process_rt.dll"), "11.8"),
       ("process", ["cublas64_12.dll"], "12.0", None, "cublas64_12.dll", False, 1))
    eq(runtime(fx("pe/libpe.dll"), "12.9"),
       ("static", [], "13.0", None, "its static CUDA 13 runtime", False, 1))
    # No Linux driver release in a Windows file's fixes either (rv45 F6: "(>= 570.26)" for an
    # RTX 5090, whose first Windows driver is 572.16).
    rc, out, err = run("--gpu", "12.0", "--driver", "12.4", fx("pe/cudart12.dll"))
    eq((rc, [l for l in out.splitlines() if "fix:" in l or ">=" in l]),
       (1, ["    fix: install a driver for CUDA 12.8 or newer"]))
    # A DLL name of the libraries rv45 F5 found unknown ("no CUDA code" on a 12.4 driver):
    # process_rt.dll's cuBLAS import renamed in place (the same length).
    data = open(fx("pe/process_rt.dll"), "rb").read()
    assert data.count(b"cublas64_12.dll") == 1
    with tempfile.TemporaryDirectory() as tmp:
        p = os.path.join(tmp, "nvjpeg_user.dll")
        open(p, "wb").write(data.replace(b"cublas64_12.dll", b"nvjpeg64_13.dll"))
        eq(runtime(p, "12.4")[1:3] + runtime(p, "12.4")[5:], (["nvjpeg64_13.dll"], "13.0", False, 1))
    # The CUDA DLLs named are those objdump lists among the imports.
    for name in ("cudart12.dll", "process_rt.dll", "libpe.dll"):
        listed = subprocess.run(["objdump", "-p", fx("pe/" + name)], capture_output=True, text=True).stdout
        dlls = re.findall(r"DLL Name: (\S+)", listed)
        eq(runtime(fx("pe/" + name), "13.0")[1],
           [d for d in dlls if re.match(r"(cudart|cublas|cufft|cusparse|cusolver|curand|nvrtc)", d, re.I)], name)
    # Text: the DLL, the CUDA version, no Linux driver release, no Linux compat package.
    rc, out, err = run("--gpu", "sm_90", "--driver", "11.8", fx("pe/cudart12.dll"))
    assert "  runtime: cudart64_12.dll; needs a driver for CUDA 12.0 or newer\n" in out, out
    assert "    fix: install a driver for CUDA 12.0 or newer\n" in out and "cuda-compat" not in out, out
    assert "525.60.13" not in out, out
    # Import tables that point outside the file: the runtime is not judged, and said so.
    made, v = pe_variants()
    rc, out, err = run("--gpu", "sm_90", "--driver", "11.8", v["imports_outside.dll"])
    assert "  runtime: not named, and linked in or not cannot be told: its import tables\n    cannot be read\n" \
        in out, out
    assert "this driver starts it is not judged" in out, out
    # --strict fails it (exit 3), saying why.
    rc, out, err = run("--strict", "--gpu", "sm_90", "--driver", "11.8", v["imports_outside.dll"])
    eq((rc, err), (3, "fatcheck: %s: whether the targets' driver starts its CUDA runtime is not judged; --strict "
                      "fails it\n" % v["imports_outside.dll"]))
    shutil.rmtree(made)


@test
def pe_extract():
    with tempfile.TemporaryDirectory() as tmp:
        rc, out, err = run("--extract", tmp, fx("pe/libpe.dll"))
        eq(rc, 0, err)
        eq(sorted(os.listdir(tmp)), ["libpe.1.sm_80.cubin", "libpe.1.sm_80.ptx", "libpe.2.sm_90.cubin",
                                     "libpe.2.sm_90.ptx", "libpe.rdata.1.compute_80.ptx"])
        # The uncompressed sm_80 cubin is the one ptx_and_cubin.fatbin stores.
        cubin = open(os.path.join(tmp, "libpe.1.sm_80.cubin"), "rb").read()
        assert cubin.startswith(b"\x7fELF") and cubin in open(fx("ptx_and_cubin.fatbin"), "rb").read()


@test
def pe_files_in_directories_and_packages():
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "bin"))
        shutil.copy(fx("pe/libpe.dll"), os.path.join(tmp, "bin", "cuda.dll"))
        shutil.copy(fx("pe/kernels.obj"), os.path.join(tmp, "bin", "k.obj"))
        open(os.path.join(tmp, "bin", "readme.txt"), "w").write("text\n")
        rc, out, err = run(tmp)
        eq((rc, err), (0, NO_GPU))
        eq([l for l in out.splitlines() if not l.startswith(" ")],
           [tmp + "/bin/cuda.dll: 2 containers in .nv_fatb", tmp + "/bin/k.obj: 2 containers in .nv_fatbin"])
        tgz = os.path.join(tmp, "pkg.tgz")
        with tarfile.open(tgz, "w:gz") as t:
            t.add(fx("pe/libpe.dll"), "package/bins/win-x64-cuda/ggml-cuda.dll")
        rc, out, err = run(tgz)
        eq((rc, err), (0, NO_GPU))
        eq(out, tgz + "!package/bins/win-x64-cuda/ggml-cuda.dll: 2 containers in .nv_fatb\n" + PE_KINDS + PE_RUNTIME)


# libmulti.so: sm_75 (the device-link container), sm_80 + compute_80, sm_90 + compute_90.
RUNTIME_13 = "  runtime: libcudart.so.13; needs a driver for CUDA 13.0 or newer (>= 580.65.06)\n"
MULTI_KINDS = ("  cubin        3  sm_75:1 sm_80:1 sm_90:1\n"
               "  ptx          2  compute_80:1 compute_90:1\n"
               "  PTX ISA 9.0; stored: zstd 2, uncompressed 3\n") + RUNTIME_13
BY_RECORDS = ", registered with the CUDA runtime: found through its registration records and the program " \
             "headers, not the section table\n"


@test
def elf_without_usable_section_headers():
    for name in ("libmulti.sstrip.so", "libmulti.shnum0.so", "libmulti.nobits.so", "libmulti.note.so",
                 "libmulti.size0.so", "libmulti.lld.so"):
        path = fx("noshdr/" + name)
        rc, out, err = run(path)
        eq((rc, err), (0, NO_GPU), name)
        eq(out, path + ": 3 containers" + BY_RECORDS + MULTI_KINDS, name)
        # The same containers, at the same offsets, as through the section table.
        doc = json.loads(run("--json", path)[1])
        want = json.loads(run("--json", fx("libmulti.so"))[1])["files"][0]["containers"]
        for c in want:
            c["section"], c["origin"] = None, "wrapper"
        eq(doc["files"][0]["containers"], want, name)
        eq(schema_errors(doc)[:5], [], name)
    rc, out, err = run(fx("noshdr/app.sstrip"))
    eq((rc, err), (0, NO_GPU))
    eq(out, fx("noshdr/app.sstrip") + ": 2 containers" + BY_RECORDS +
       "  cubin        2  sm_86:2\n  ptx          1  compute_86:1\n  PTX ISA 9.0; stored: zstd 1, uncompressed 2\n" +
       RUNTIME_13)


@test
def elf_section_table_that_disagrees_with_the_records():
    path = fx("noshdr/libmulti.renamed.so")
    rc, out, err = run(path)
    eq((rc, err), (0, NO_GPU))
    eq(out, path + ": 3 containers in .nv_fatbix" + BY_RECORDS + MULTI_KINDS)
    doc = json.loads(run("--json", path)[1])
    eq({(c["section"], c["origin"]) for c in doc["files"][0]["containers"]}, {(".nv_fatbix", "wrapper")})
    rc, out, err = run("-l", path)
    assert all(line.endswith(" wrapper") for line in out.splitlines()[2:]), out


@test
def elf_found_only_by_searching_the_segments():
    path = fx("noshdr/libmulti.norecords.so")
    rc, out, err = run(path)
    eq((rc, err), (0, NO_GPU))
    eq(out, path + ": 3 containers, found by searching the loaded segments: no section table or registration "
                   "record shows them\n" + MULTI_KINDS)
    doc = json.loads(run("--json", path)[1])
    eq({(c["section"], c["origin"]) for c in doc["files"][0]["containers"]}, {(None, "segment")})
    # Judged as the whole file: its kernel-less containers (the device link step's) give
    # nothing to launch, found by the segment search or not (it was "partial", exit 0, on
    # sm_75, where the whole file is "none", and "partial" on sm_90 and newer for "ok").
    targets = ("--gpu", "sm_75,sm_80,sm_90,sm_100", "--driver", "13.0", "--json")
    for p in (path, fx("libmulti.so")):
        rc, out, err = run(*(targets + (p,)))
        got = (rc, [v["status"] for v in json.loads(out)["files"][0]["verdicts"]])
        eq(got, (1, ["none", "partial", "ok", "ok"]), p)


@test
def elf_without_sections_is_judged_listed_and_extracted():
    path = fx("noshdr/libmulti.sstrip.so")
    # Judged, kernels and all, exactly as through the section table.
    for args in (["--kernels", "--gpu", "sm_86"], ["--gpu", "sm_70,sm_90", "--strict"]):
        rc, out, err = run(*(args + [path]))
        rc0, out0, err0 = run(*(args + [fx("libmulti.so")]))
        def verdicts(text, p):  # what follows the file's five summary lines
            lines = text.split("\n")
            return lines[[l.startswith(p + ":") for l in lines].index(True) + 5:]
        eq((rc, verdicts(out, path)), (rc0, verdicts(out0, fx("libmulti.so"))), args)
    rc, out, err = run("--list-elf", "noshdr/libmulti.sstrip.so", cwd=FIXTURES)
    eq(out, "ELF file    1: libmulti.sstrip.1.sm_75.cubin\nELF file    2: libmulti.sstrip.2.sm_80.cubin\n"
            "ELF file    3: libmulti.sstrip.3.sm_90.cubin\n")
    with tempfile.TemporaryDirectory() as tmp:
        eq(run("--extract", tmp, path)[0], 0)
        eq(len(os.listdir(tmp)), 5)
    # A record that leads to a damaged container: the damage is reported, exit 3.
    with tempfile.TemporaryDirectory() as tmp:
        bad = bytearray(open(path, "rb").read())
        bad[0x2620 + 20:0x2620 + 24] = (8).to_bytes(4, "little")  # second container's entry header size
        p = os.path.join(tmp, "bad.so")
        open(p, "wb").write(bad)
        rc, out, err = run(p)
        eq((rc, err), (3, NO_GPU + "fatcheck: %s: offset 0x2630: entry header size 8 is below the minimum 64\n" % p))


def no_fat_binary(path, record, at, off):
    return ("fatcheck: %s: registration record %d (offset 0x5088) points at 0x%x (offset 0x%x), where there is no "
            "fat binary: the CUDA runtime fails to register it\n" % (path, record, at, off))


@test
def registration_records_that_lead_to_no_fat_binary_are_errors():
    # Campaign F3: the runtime calls __cudaRegisterFatBinary on every record at start-up; one
    # that leads to no container fails it. These were "no CUDA code", exit 0.
    sys.path.insert(0, fx("noshdr"))
    import make
    made = tempfile.mkdtemp()
    for name, data in make.failing().items():
        open(os.path.join(made, name), "wb").write(data)
    for name in ("garbage.so", "garbage_shdr.so"):  # records found by search; named by the table
        path = os.path.join(made, name)
        rc, out, err = run(path)
        eq((rc, err, out), (3, NO_GPU + no_fat_binary(path, 1, 0x2028, 0x2028),
                            path + ": could not be decoded\n" + RUNTIME_13), name)
        doc = json.loads(run("--json", path)[1])
        eq(schema_errors(doc)[:5], [], name)
        f = doc["files"][0]
        eq((f["containers"], f["error"]), ([], no_fat_binary(path, 1, 0x2028, 0x2028)[10:-1]), name)
    # Records past every loaded segment: the containers the section table shows are read, and
    # the records said.
    path = os.path.join(made, "outside.so")
    rc, out, err = run(path)
    eq((rc, err), (3, NO_GPU + "fatcheck: %s: registration record 1 (offset 0x5088) points at 0x7fff00000000, "
                   "outside every loaded segment: there is no fat binary there, and the CUDA runtime fails to "
                   "register it\n" % path))
    eq(out, path + ": 3 containers in .nv_fatbin\n" + MULTI_KINDS)
    # The section table's .nv_fatbin pointed at other code appended to the file, which the
    # loader never maps (review of 2026-12-03, F7: read as what the runtime registers, all 12
    # architectures of all_archs.fatbin). What the records register is read instead; the lie said.
    path = os.path.join(made, "shdr_lies.so")
    rc, out, err = run(path)
    eq((rc, err), (3, NO_GPU + "fatcheck: %s: section .nv_fatbin (offset 0x6bb8, 111080 bytes) lies outside every "
                   "loaded segment: the loader never maps it, so the CUDA runtime cannot register what it holds; "
                   "not read as registered code\n" % path))
    eq(out, path + ": 3 containers" + BY_RECORDS + MULTI_KINDS)
    # A record into .nv_fatbin that is not where a container starts.
    with tempfile.TemporaryDirectory() as tmp:
        bad = bytearray(open(fx("libmulti.so"), "rb").read())
        at = int.from_bytes(bad[0x5088 + 24 + 8:0x5088 + 24 + 16], "little")
        bad[0x5088 + 24 + 8:0x5088 + 24 + 16] = (at + 8).to_bytes(8, "little")
        p = os.path.join(tmp, "inside.so")
        open(p, "wb").write(bad)
        rc, out, err = run(p)
        eq((rc, err), (3, NO_GPU + no_fat_binary(p, 2, at + 8, at + 8).replace("record 2 (offset 0x5088)",
                                                                               "record 2 (offset 0x50a0)")))
        eq(out, p + ": 3 containers in .nv_fatbin\n" + MULTI_KINDS)
    shutil.rmtree(made)


MERGED_TAIL = ("to build native code for these targets: TORCH_CUDA_ARCH_LIST=\"9.0\"\n"
               "  CMake: CUDA_ARCHITECTURES=\"90-real\"\n  nvcc:  -gencode arch=compute_90,code=sm_90\n"
               "  with PTX for newer GPUs: TORCH_CUDA_ARCH_LIST=\"9.0+PTX\"\n"
               "                           CUDA_ARCHITECTURES=\"90\"\n")


@test
def records_a_linker_script_moved_out_of_nvfatbinsegment():
    # Review of 2026-12-03: a script that merges .nv_fatbin into .rodata and .nvFatBinSegment
    # into .data (fixtures/merged/make.sh). The runtime registers and loads the code as ever
    # (the red team's builds on the H200: 218 for this PTX, 209 for sm_80 code on sm_90); read
    # by section names, the library was "kept as data", its PTX unread ("ok", exit 0), and the
    # program, its containers past the searched head of .rodata, "no CUDA code", exit 0.
    targets = ("--gpu", "sm_90", "--driver", "13.0")
    for name in ("libextern_merged.so", "libextern_merged_lld.so"):  # GNU ld stores the address; lld leaves 0
        path = fx("merged/" + name)
        for args in ((), ("--strict",), ("--embedded",)):
            rc, out, err = run(*(targets + args + (path,)))
            eq((rc, err), (1, ""), (name, args))
            eq(out, "judging for: sm_90 (--gpu sm_90); driver for CUDA 13.0\n" + path +
               ": 2 containers in .rodata" + BY_RECORDS +
               "  ptx          1  compute_80:1\n  PTX ISA 9.0; stored: zstd 1\n" + RUNTIME_13 +
               "  sm_90 (--gpu sm_90): none, no module can load\n"
               "    (PTX that calls functions it does not define): every kernel launch fails\n"
               "    with \"a PTX JIT compilation failed\"\n"
               "    note: 1 module holds PTX compiled as a whole program that calls functions defined elsewhere "
               "(ptxas: \"Unresolved extern function\"): link it with their code\n" + MERGED_TAIL, (name, args))
        doc = json.loads(run("--json", path)[1])
        eq(schema_errors(doc)[:5], [], name)
        eq([(c["offset"], c["section"], c["origin"], c.get("device_link", False))
            for c in doc["files"][0]["containers"]],
           [(0x2020, ".rodata", "wrapper", False), (0x2010, ".rodata", "wrapper", True)], name)
        # Not looking for containers kept as data leaves the registered ones to be found.
        rc, out, err = run(*(targets + ("--no-embedded", path)))
        eq((rc, out.splitlines()[1]), (1, path + ": 2 containers" + BY_RECORDS[:-1]), name)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "app_merged")
        open(path, "wb").write(lzma.decompress(open(fx("merged/app_merged.xz"), "rb").read()))
        for args in ((), ("--strict",), ("--embedded",), ("--no-embedded",)):
            rc, out, err = run(*(targets + args + (path,)))
            lines = out.splitlines()
            eq((rc, err, lines[1], lines[2]), (1, "", path + ": 3 containers" +
               ("" if args == ("--no-embedded",) else " in .rodata") + BY_RECORDS[:-1],
               "  cubin        3  sm_75:1 sm_80:2"), args)
            assert "  sm_90 (--gpu sm_90): none, no module can load (no kernel image for sm_90):" in lines, out
        rc, out, err = run("--gpu", "sm_80", "--driver", "13.0", path)
        eq(rc, 0)
        assert "  sm_80 (--gpu sm_80): ok, native SASS for its 1 module" in out.splitlines(), out


@test
def every_loadable_segment_is_read_up_to_a_bound():
    # Campaign F4: only the first 64 PT_LOAD headers were read, the rest dropped silently.
    path = fx("noshdr/libmulti.loads100.so")
    rc, out, err = run(path)
    eq((rc, err), (0, NO_GPU))
    eq(out, path + ": 3 containers" + BY_RECORDS + MULTI_KINDS)
    sys.path.insert(0, fx("noshdr"))
    import make
    with tempfile.TemporaryDirectory() as tmp:
        sstripped = open(fx("noshdr/libmulti.sstrip.so"), "rb").read()
        many = os.path.join(tmp, "many.so")
        open(many, "wb").write(make.with_loads(sstripped, 4200))
        rc, out, err = run(many)
        eq((rc, err), (3, NO_GPU + "fatcheck: %s: 4204 loadable segments (PT_LOAD), more than the 4096 read: the "
                       "others were not searched for CUDA code\n" % many))
        # A program header table that runs past the end of the file.
        cut = bytearray(make.with_loads(sstripped, 0))
        cut[0x38:0x3a] = (12).to_bytes(2, "little")
        p = os.path.join(tmp, "cut.so")
        open(p, "wb").write(cut)
        rc, out, err = run(p)
        eq((rc, out.splitlines()[0], err), (3, p + ": could not be decoded", NO_GPU +
           "fatcheck: %s: program header table (12 entries at offset 0x50d0) cannot be read from entry 0 on (invalid "
           "data): what those segments load was not searched for CUDA code\n" % p))


@test
def files_of_no_known_format_are_searched_whole():
    fatbin = open(fx("compress_size.fatbin"), "rb").read()
    ptx_only = open(fx("ptx_only.fatbin"), "rb").read()
    with tempfile.TemporaryDirectory() as tmp:
        # A model blob: a text header, a container at an odd offset, another across the
        # 8 MiB boundary where the search is cut between threads.
        blob = bytearray(b"MODEL v1\n" + bytes(range(256)) * (9 << 12))
        blob[1001:1001 + len(fatbin)] = fatbin
        at = (8 << 20) - 2
        blob[at:at + len(ptx_only)] = ptx_only
        path = os.path.join(tmp, "model.bin")
        open(path, "wb").write(blob)
        for j in ("1", "4"):
            rc, out, err = run("-j", j, "--gpu", "sm_90", path)
            eq((rc, err), (0, ""), j)
            eq(out.split("\n")[3:7], [path + ": a file of no known format, searched whole: 2 containers kept as data",
                                      "  cubin        1  sm_90:1", "  ptx          2  compute_80:1 compute_90:1",
                                      "  PTX ISA 9.0; stored: zstd 3"], j)
        doc = json.loads(run("--json", path)[1])
        eq(schema_errors(doc)[:5], [])
        f = doc["files"][0]
        eq((f["format"], [(c["offset"], c["section"], c["origin"]) for c in f["containers"]]),
           ("data", [(1001, None, "embedded"), (at, None, "embedded")]))
        # A sparse file: the holes are skipped, the container after 1 GiB of them found.
        sparse = os.path.join(tmp, "sparse.bin")
        with open(sparse, "wb") as f:
            f.write(b"header")
            f.seek(1 << 30)
            f.write(ptx_only)
            f.truncate(3 << 30)
        rc, out, err = run(sparse)
        eq((rc, out.splitlines()[0]), (0, sparse + ": a file of no known format, searched whole: 1 container kept "
                                          "as data"))
        # Nothing found: an error as before, never "no CUDA code".
        rc, out, err = run(fx("make-fixtures.sh"))
        eq((rc, out), (3, ""))
        assert err.endswith("fatcheck: %s: not an ELF file, archive, fat binary, cubin, PTX file or package\n"
                            % fx("make-fixtures.sh")), err
        rc, out, err = run("--no-embedded", path)
        eq(rc, 3)


def ar_archive(members):
    """An ar archive (System V, as GNU ar writes one) of (name, bytes) members."""
    out = bytearray(b"!<arch>\n")
    for name, data in members:
        out += b"%-16s%-12d%-6d%-6d%-8s%-10d`\n" % ((name + "/").encode(), 0, 0, 0, b"644", len(data))
        out += data + (b"\n" if len(data) % 2 else b"")
    return bytes(out)


@test
def a_compressed_cubin_of_another_sm_than_its_entry_fails():
    """A cubin whose own ELF header names another SM than its entry header: the H200's driver
    refused an sm_80 cubin stored as sm_90 with CUDA_ERROR_INVALID_SOURCE (300) stored
    uncompressed, LZ4 and zstd alike (tests/oracle: kernels.othersm*). LZ4's ELF header is
    inflated from the bytes that come with the entry header; zstd's takes its first block,
    inflated only by the kernel view and --strict. Here an sm_90 cubin is stored as sm_80."""
    with tempfile.TemporaryDirectory() as tmp:
        for name, how in (("compress_speed_all.fatbin", "lz4"), ("compress_size.fatbin", "zstd")):
            data = bytearray(open(fx(name), "rb").read())
            eq((struct.unpack_from("<H", data, 16)[0], struct.unpack_from("<I", data, 16 + 28)[0]), (2, 90), name)
            struct.pack_into("<I", data, 16 + 28, 80)
            path = os.path.join(tmp, how + ".fatbin")
            open(path, "wb").write(bytes(data))
            for args in ([], ["--strict"], ["--kernels"]):
                rc, out, err = run("--json", *args, "--gpu", "8.0", "--driver", "13.0", path)
                load = json.loads(out)["files"][0]["containers"][0]["loads"][0]
                want = "CUDA_SUCCESS" if how == "zstd" and not args else "CUDA_ERROR_INVALID_SOURCE"
                eq((load["result"], rc), (want, 0 if want == "CUDA_SUCCESS" else 1), (how, args))


@test
def a_compressed_cubins_own_sm_is_read_wherever_its_entry_lies():
    """The decoder reads entry headers through a window: an entry header near its end comes with
    few of its payload's bytes, too few for the ELF header (review of 2026-12-03, F1: an LZ4 cubin
    of another SM there read ok, exit 0, even with --strict; 0 to 3 bytes left a zstd one
    unread under --strict). Those bytes are read for the chosen image then. Here an sm_90 cubin
    stored as sm_80 sits after an uncompressed sm_75 entry of 0 to 1,100 bytes; and cubins that
    do not inflate to an ELF header (a corrupt LZ4 match, a declared size that lies) fail too."""
    def entries(data):
        pos, end, out = 16, 16 + struct.unpack_from("<Q", data, 8)[0], []
        while pos < end:
            hsize, psize = struct.unpack_from("<IQ", data, pos + 4)
            out.append(bytearray(data[pos:pos + hsize + psize]))
            pos += hsize + psize
        return out

    def container(ents):
        body = b"".join(bytes(e) for e in ents)
        return struct.pack("<IHHQ", 0xBA55ED50, 1, 16, len(body)) + body

    def filler(size):  # an uncompressed sm_75 cubin entry of SIZE bytes
        h = bytearray(64)
        struct.pack_into("<HHIQ", h, 0, 2, 0x0101, 64, size)
        struct.pack_into("<I", h, 28, 75)
        struct.pack_into("<Q", h, 40, 0x11)
        return h + bytes(size)

    # A standalone file is read FC_READER_SMALL_READ (1,024) bytes at a time from the container's
    # start: the second entry's header (64 bytes) begins at 16 + 64 + size, so fillers of about
    # 830 to 880 bytes leave it 0 to 52 of its payload's bytes at hand, and past 880 its header
    # is read again with the bytes after it. Every fourth size is swept there, every size where 0
    # to 15 bytes are at hand (a zstd frame header's), and elsewhere, where nothing changes from
    # one size to the next, every 52nd (1,650 runs took minutes under ASan).
    filler_sizes = sorted(set(range(0, 1100, 52)) | set(range(700, 960, 4)) | set(range(865, 885)))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "k.fatbin")
        for name, how, args in (("compress_speed_all.fatbin", "lz4", []), ("compress_size.fatbin", "zstd", ["--strict"]),
                                ("compress_none.fatbin", "none", [])):
            good = entries(open(fx(name), "rb").read())[0]
            other = bytearray(good)
            struct.pack_into("<I", other, 28, 80)
            wrong = []
            for size in filler_sizes:
                # the same cubin as what it is: ok wherever it lies
                open(path, "wb").write(container([filler(size), good]))
                if run("-q", *args, "--gpu", "9.0", "--driver", "13.0", path)[0] != 0:
                    wrong.append(("sm_90 cubin", size))
                open(path, "wb").write(container([filler(size), other]))
                if run("-q", *args, "--gpu", "8.0", "--driver", "13.0", path)[0] != 1:
                    wrong.append(("stored as sm_80", size))
            eq(wrong, [], how + ": filler sizes whose file was judged wrongly")
        cubin = entries(open(fx("compress_speed_all.fatbin"), "rb").read())[0]
        payload = cubin[64:]
        bad = bytearray(cubin)
        assert payload[0] >> 4 == 10  # a token: 10 literals, then the first match's offset
        bad[64 + 11:64 + 13] = b"\x40\x00"  # 64 bytes back, past the start of the output
        lying = bytearray(cubin)
        struct.pack_into("<I", lying, 16, 20)  # 20 stored bytes: no ELF header inflates from them
        for what, entry in (("a corrupt match", bad), ("a compressed size that lies", lying)):
            assert payload[1:5] == b"\x7fELF"
            open(path, "wb").write(container([entry]))
            rc, out, err = run("--json", "--gpu", "9.0", path)
            load = json.loads(out)["files"][0]["containers"][0]["loads"][0]["result"]
            eq((rc, load), (1, "UNCOMPRESS_FAILED"), what)


@test
def an_archive_without_members_holds_no_cuda_code():
    """"!<arch>\n" alone is an archive of no members: glibc 2.34 and later ship libdl.a,
    libpthread.a, librt.a, libutil.a and libanl.a so, and `ar rc x.a` with nothing writes it.
    It was "bad archive: offset out of range", exit 3, failing a walk of /usr/lib. A byte after
    the magic is still damage."""
    with tempfile.TemporaryDirectory() as tmp:
        lib = os.path.join(tmp, "libdl.a")
        open(lib, "wb").write(ar_archive([]))
        eq(run("-q", "--gpu", "sm_90", lib), (0, "", ""))
        rc, out, err = run("--gpu", "sm_90", lib)
        eq((rc, out.splitlines()[3:], err), (0, [lib + ": no CUDA code"], ""))
        eq(run("--strict", "-q", "--gpu", "sm_90", tmp), (0, "", ""))
        open(lib, "ab").write(b"\n")
        rc, out, err = run("-q", "--gpu", "sm_90", lib)
        eq((rc, err), (3, "fatcheck: %s: bad archive: offset out of range\n" % lib))


@test
def static_archive_members_read_as_they_are_named_alone():
    """An .a holding a bare fat binary, a PTX file and a blob (ar rcs kernels.a k.fatbin k.ptx
    model.bin): each member is read as the same bytes named on their own are; a text member
    holding nothing is passed over; it said "no CUDA code" (campaign F14)."""
    fatbin = open(fx("compress_size.fatbin"), "rb").read()
    ptx = open(fx("kernels.ptx"), "rb").read()
    blob = b"MODEL v1\n" + bytes(range(256)) * 4 + open(fx("ptx_only.fatbin"), "rb").read() + bytes(333)
    members = [("k.fatbin", fatbin), ("notes.txt", b"nothing here\n" * 50), ("k.ptx", ptx), ("model.bin", blob)]
    with tempfile.TemporaryDirectory() as tmp:
        lib = os.path.join(tmp, "kernels.a")
        open(lib, "wb").write(ar_archive(members))
        rc, out, err = run("--gpu", "sm_90", lib)
        eq((rc, err), (0, ""))
        eq([l for l in out.splitlines()[3:] if not l.startswith(" ")],
           [lib + "(k.fatbin): 1 container (bare fat binary)", lib + "(k.ptx): PTX file",
            lib + "(model.bin): a file of no known format, searched whole: 1 container kept as data"])
        doc = json.loads(run("--json", "--gpu", "sm_90", lib)[1])
        eq(schema_errors(doc)[:5], [])
        alone = {}
        for name, data in members:
            path = os.path.join(tmp, name)
            open(path, "wb").write(data)
            if name != "notes.txt":
                alone[name] = json.loads(run("--json", "--gpu", "sm_90", path)[1])["files"][0]
        eq([f["member"] for f in doc["files"]], ["k.fatbin", "k.ptx", "model.bin"])
        for f in doc["files"]:  # the same containers, entries and verdicts as the file alone
            one = alone[f["member"]]
            eq({k: f[k] for k in ("format", "size", "containers", "verdicts")},
               {k: one[k] for k in ("format", "size", "containers", "verdicts")}, f["member"])
        # What cannot be read as its own bytes would be is said, not passed over.
        broken = bytearray(open(fx("kernels.sm_90.cubin"), "rb").read())
        broken[4] = 9  # no ELF class 9
        bad = os.path.join(tmp, "bad.a")
        open(bad, "wb").write(ar_archive([("k.o", bytes(broken)), ("inner.a", ar_archive(members[:1])),
                                          ("k.fatbin", fatbin)]))
        rc, out, err = run("--gpu", "sm_90", bad)
        eq(rc, 3)
        eq(err.splitlines(), ["fatcheck: %s(k.o): the ELF header's class (EI_CLASS) is 9: neither 32-bit (1) nor "
                              "64-bit (2)" % bad,
                              "fatcheck: %s(inner.a): an archive inside the archive: not read" % bad])
        eq([l for l in out.splitlines()[3:] if not l.startswith(" ")], [bad + "(k.fatbin): 1 container (bare fat binary)"])


def program_with_data(tmp, name, data, before):
    """A host program (cc) keeping DATA as plain data BEFORE bytes into .rodata, as a program
    that hands it to cuModuleLoadData itself does (xxd -i, Rust include_bytes!, Go embed)."""
    open(os.path.join(tmp, name + ".pad"), "wb").write(bytes(before))
    open(os.path.join(tmp, name + ".dat"), "wb").write(data)
    src = os.path.join(tmp, name + ".c")
    open(src, "w").write(
        '__asm__(".section .rodata\\n.balign 64\\npad: .incbin \\"%s.pad\\"\\n.balign 64\\n.globl blob\\n"\n'
        '        "blob: .incbin \\"%s.dat\\"\\n.previous\\n");\n'
        'extern const unsigned char blob[];\n'
        'int main(void) { return blob[0] == 1; }\n' % (name, name))
    out = os.path.join(tmp, name)
    subprocess.run(["cc", "-O1", "-o", out, src], cwd=tmp, check=True)
    return out


@test
def data_sections_searched_in_part_are_said():
    """By default a data section's rest is searched only when its first MiB holds a container:
    a fat binary 2 MiB into .rodata is not seen, and the report says what was not looked at
    instead of a definite "no CUDA code" (campaign F10); --embedded finds it."""
    fatbin = open(fx("compress_size.fatbin"), "rb").read()
    with tempfile.TemporaryDirectory() as tmp:
        deep = program_with_data(tmp, "deep", fatbin, 2 << 20)
        small = program_with_data(tmp, "small", b"no CUDA here", 4096)
        partial = ("no CUDA code in the parts searched (1 data section searched only in its first MiB; --embedded "
                   "searches them whole)")
        rc, out, err = run("--gpu", "sm_90", deep)
        eq((rc, err, out.splitlines()[3:]), (0, "", [deep + ": " + partial]))
        # --quiet keeps what could not be seen (review R18: it printed nothing, exit 0).
        rc, out, err = run("-q", "--gpu", "sm_90", deep, small)
        eq((rc, err, out), (0, "", deep + ": " + partial + "\n"))
        rc, out, err = run("-l", deep)
        eq((rc, out), (0, deep + ":\n  " + partial + "\n"))
        # --strict fails what was not seen, saying why; --embedded sees it all.
        rc, out, err = run("--strict", "--gpu", "sm_90", deep, small)
        eq((rc, err), (3, "fatcheck: %s: no CUDA code in the parts searched, 1 data section searched only in part "
                          "(--embedded searches them whole); --strict fails it\n" % deep))
        eq(run("--strict", "--embedded", "--gpu", "sm_90", deep, small)[::2], (0, ""))
        # ... wherever it is found: in a folder and inside a package as when named (a folder
        # passed it unsaid, exit 0). Without --strict a folder lists only what holds code.
        folder = os.path.join(tmp, "tree", "lib")
        os.makedirs(folder)
        shutil.copy(deep, folder)
        shutil.copy(small, folder)
        with zipfile.ZipFile(os.path.join(tmp, "deep.whl"), "w") as z:
            z.write(deep, "pkg/deep")
            z.write(small, "pkg/small")
        for where, label in ((os.path.join(tmp, "tree"), os.path.join(folder, "deep")),
                             (os.path.join(tmp, "deep.whl"), os.path.join(tmp, "deep.whl") + "!pkg/deep")):
            rc, out, err = run("--strict", "-q", "--gpu", "sm_90", where)
            eq((rc, out, err), (3, label + ": " + partial + "\n",
                                "fatcheck: %s: no CUDA code in the parts searched, 1 data section searched only "
                                "in part (--embedded searches them whole); --strict fails it\n" % label), where)
            eq(run("--strict", "--embedded", "-q", "--gpu", "sm_90", where), (0, "", ""), where)
            eq(run("-q", "--gpu", "sm_90", where), (0, "", ""), where)
        # ... and so do the CI formats (they said nothing of it: exit 3 with no annotation, a
        # passing "no CUDA code" case, a row of "no code").
        why = ("no CUDA code in the parts searched, 1 data section searched only in part (--embedded searches them "
               "whole); --strict fails it")
        eq(run("--format=github", "--strict", "--gpu", "sm_90", deep)[:2],
           (3, "::error file=%s,title=fatcheck%%3A not all seen::%s: %s\n" % (deep, deep, why)))
        rc, out, err = run("--format=junit", "--strict", "--gpu", "sm_90", deep)
        assert ('<testcase classname="%s" name="parts searched">\n      <error type="unseen" message="%s"/>'
                % (deep, why)) in out, out
        rc, out, err = run("--format=markdown", "--gpu", "sm_90", deep)
        assert ("| %s (⚠️ not all seen) | no code |\n\n### Problems\n\n- **%s**: %s\n"
                % ((md_escaped(deep),) * 2 + (why.replace("; --strict fails it", " (--strict fails it)"),))) in out, out
        rc, out, err = run("--json", "--gpu", "sm_90", deep)
        doc = json.loads(out)
        eq(schema_errors(doc)[:5], [])
        f = doc["files"][0]
        eq((f["containers"], f["sections_searched_in_part"], f["verdicts"][0]["status"]), ([], 1, "no-code"))
        rc, out, err = run("--embedded", "--json", "--gpu", "sm_90", deep)
        f = json.loads(out)["files"][0]
        eq(([(c["section"], c["origin"]) for c in f["containers"]], "sections_searched_in_part" in f),
           ([(".rodata", "embedded")], False))
        # With code found elsewhere, the sections searched in part are said too (they were only
        # in JSON): here a fat binary in .rodata's first MiB, 3 MiB of .data beside it.
        src = os.path.join(tmp, "both.c")
        open(src, "w").write('__asm__(".section .rodata\\n.balign 64\\n.globl blob\\nblob: .incbin \\"deep.dat\\"\\n"\n'
                             '        ".data\\n.globl big\\nbig: .fill 3145728, 1, 7\\n.previous\\n");\n'
                             'extern const unsigned char blob[], big[];\n'
                             'int main(void) { return blob[0] == big[0]; }\n')
        both = os.path.join(tmp, "both")
        subprocess.run(["cc", "-O1", "-o", both, src], cwd=tmp, check=True)
        rc, out, err = run("--gpu", "sm_90", both)
        eq(out.splitlines()[3:5], [both + ": no containers registered with the CUDA runtime",
                                   "  embedded as data, loaded by the library itself: 1 container in .rodata"])
        assert ("  note: 1 data section searched only in its first MiB and where pointers\n"
                "    lead (--embedded searches them whole)\n") in out, out
        eq(json.loads(run("--json", both)[1])["files"][0]["sections_searched_in_part"], 1)
        # A program whose data was searched whole: "no CUDA code" is a definite answer.
        rc, out, err = run("--gpu", "sm_90", small)
        eq((rc, out.splitlines()[3:]), (0, [small + ": no CUDA code"]))
        assert "sections_searched_in_part" not in json.loads(run("--json", small)[1])["files"][0]


@test
def cubins_kept_as_data_are_found_and_judged_like_cubin_files():
    """Programs that hand cuModuleLoadData a cubin of their own keep the bare ELF image as data
    (TensorRT-LLM's FMHA kernels): found by the embedded search (ELF magic, EM_CUDA, a header
    and section table that hold together inside the section), reported as embedded_cubin,
    judged like a cubin file (campaign F11: never found, even with --embedded)."""
    cubin = open(fx("kernels.sm_90.cubin"), "rb").read()
    with tempfile.TemporaryDirectory() as tmp:
        near = program_with_data(tmp, "near", cubin, 4096)
        rc, out, err = run("--gpu", "sm_90", near)
        eq((rc, err), (0, ""))
        eq(out.splitlines()[3:], [near + ": no containers registered with the CUDA runtime",
                                  "  cubins kept as data, loaded by the program itself: 1 cubin in .rodata",
                                  "    cubin        1  sm_90:1",
                                  "  sm_90 (--gpu sm_90): ok, native SASS for its 1 module"])
        doc = json.loads(run("--json", "--gpu", "sm_80,sm_90", near)[1])
        eq(schema_errors(doc)[:5], [])
        f = doc["files"][0]
        eq(len(f["containers"]), 1)
        c = f["containers"][0]
        data = open(near, "rb").read()
        eq((c["origin"], c["section"], c["role"], c["size"], data[c["offset"]:c["offset"] + c["size"]]),
           ("embedded_cubin", ".rodata", "module", len(cubin), cubin))
        e = c["entries"][0]
        eq((e["kind"], e["arch"], e["offset"], e["payload_offset"], e["header_size"], e["size"]),
           ("cubin", "sm_90", c["offset"], c["offset"], 0, len(cubin)))
        eq([v["status"] for v in f["verdicts"]], ["none", "ok"])
        # the same as the cubin named on its own: its kernels, and the image extracted
        rc, out, err = run("-l", "-k", near)
        eq(rc, 0)
        assert "embedded_cubin" in out and "kernel fc_add  [12 registers]" in out, out
        rc, out, err = run("-q", "--gpu", "sm_90", "--extract", os.path.join(tmp, "x"), near)
        eq(os.listdir(os.path.join(tmp, "x")), ["near.rodata.1.sm_90.cubin"])
        eq(open(os.path.join(tmp, "x", "near.rodata.1.sm_90.cubin"), "rb").read(), cubin)
        # 2 MiB in: by default past what is searched (and said); --embedded finds it
        deep = program_with_data(tmp, "deep", cubin, 2 << 20)
        eq(run("--gpu", "sm_90", deep)[1].splitlines()[3],
           deep + ": no CUDA code in the parts searched (1 data section searched only in its first MiB; --embedded "
                  "searches them whole)")
        f = json.loads(run("--embedded", "--json", "--gpu", "sm_90", deep)[1])["files"][0]
        eq([(c["origin"], c["size"], f["verdicts"][0]["status"]) for c in f["containers"]],
           [("embedded_cubin", len(cubin), "ok")])
        # as CUDA 11's and 12's ptxas write one: ELF ABI 7, OS/ABI 51, e_version 124 (12.4's
        # release, not 1): "no CUDA code" before, even with --embedded; on a driver before
        # CUDA 12.0 it does not run (rules_test: cubins_of_a_later_cuda_major...)
        old = bytearray(cubin)
        old[7], old[8], old[20:24] = 51, 7, (124).to_bytes(4, "little")
        old[48:52] = (90 | 0x05 << 8 | 90 << 16).to_bytes(4, "little")
        prog = program_with_data(tmp, "cuda12", bytes(old), 4096)
        for driver, rc_want, status in (("12.4", 0, "ok"), ("520.61.05", 1, "none")):
            rc, out, err = run("--json", "--gpu", "sm_90", "--driver", driver, prog)
            f = json.loads(out)["files"][0]
            eq((rc, [(c["origin"], c["size"]) for c in f["containers"]], f["verdicts"][0]["status"]),
               (rc_want, [("embedded_cubin", len(cubin))], status), driver)
        # the variant from the cubin's own note, a relocatable cubin as a link input
        for name, arch, role in (("kernels.sm_90a.cubin", "sm_90a", "module"), ("shared.sm_90.cubin", "sm_90",
                                                                                 "link_input")):
            prog = program_with_data(tmp, name.split(".")[0] + "_prog", open(fx(name), "rb").read(), 64)
            c = json.loads(run("--json", "--gpu", "sm_90", prog)[1])["files"][0]["containers"][0]
            eq((c["origin"], c["entries"][0]["arch"], c["role"]), ("embedded_cubin", arch, role), name)
        # a cubin that is a fat binary's entry payload is the container's, even one whose magic
        # is gone: not a cubin the program loads on its own
        damaged = bytearray(open(fx("compress_none.fatbin"), "rb").read())
        assert cubin in damaged
        damaged[0:4] = bytes(4)
        prog = program_with_data(tmp, "damaged", bytes(damaged), 64)
        eq([c["origin"] for c in json.loads(run("--json", prog)[1])["files"][0]["containers"]], ["ptx_text"])
        # a file of no known format: any offset; a cubin whose sections run past the data is none
        broken = bytearray(cubin)
        broken[40:48] = (len(cubin) * 4).to_bytes(8, "little")  # e_shoff past the end
        blob = b"MODEL v1\n" + cubin + bytes(3) + bytes(broken)[:len(cubin)]
        path = os.path.join(tmp, "weights.bin")
        open(path, "wb").write(blob)
        f = json.loads(run("--json", path)[1])["files"][0]
        eq((f["format"], [(c["offset"], c["origin"]) for c in f["containers"]]), ("data", [(9, "embedded_cubin")]))
        rc, out, err = run("--gpu", "sm_90", path)
        eq(out.splitlines()[3:6], [path + ": a file of no known format, searched whole",
                                   "  cubins kept as data, loaded by the program itself: 1 cubin",
                                   "    cubin        1  sm_90:1"])


@test
def ptx_files_as_ptxas_reads_them():
    """Campaign U1. A byte order mark is read past to tell the format, but kept in the module:
    ptxas rejects it ("Unexpected non-ASCII character"), so the file is judged as PTX the JIT
    cannot read. Comments before .version are read to their end, however long, in directory
    walks too. A file of no known format holding only PTX text says just that."""
    ptx = open(fx("kernels.ptx"), "rb").read()
    with tempfile.TemporaryDirectory() as d:
        bom = os.path.join(d, "bom.ptx")
        open(bom, "wb").write(b"\xef\xbb\xbf" + ptx)
        rc, out, err = run("--gpu", "sm_90", bom)
        eq((rc, err), (1, ""))
        eq(out.splitlines()[3:8], [
            bom + ": PTX file", "  ptx          1  compute_89:1", "  PTX ISA 9.0; stored: uncompressed 1",
            "  sm_90 (--gpu sm_90): none, no module can load (PTX the JIT cannot read): every",
            '    kernel launch fails with "device kernel image is invalid"'])
        doc = json.loads(run("--json", "--gpu", "sm_90", bom)[1])
        eq(doc["files"][0]["verdicts"][0]["invalid_ptx"], 1)
        eq(doc["files"][0]["containers"][0]["loads"][0]["result"], "CUDA_ERROR_INVALID_IMAGE")
        walk = os.path.join(d, "walk")
        os.mkdir(walk)
        long = os.path.join(walk, "long_comment.ptx")
        open(long, "wb").write(b"/*" + b" licence text\n" * 10000 + b"*/\n" + ptx)  # 140 KB of comment
        rc, out, err = run("--gpu", "sm_90", walk)
        eq((rc, err, out.splitlines()[3]), (0, "", long + ": PTX file"))
        # A source file whose head is all comment is read on, and is no PTX: not reported.
        open(os.path.join(walk, "long_comment.ptx"), "wb").write(b"// x\n" * 2000 + b"int main() {}\n")
        rc, out, err = run("--gpu", "sm_90", walk)
        eq((rc, err), (0, ""))
        assert "long_comment" not in out, out
        blob = os.path.join(d, "model.bin")
        open(blob, "wb").write(b"MODEL v1\n\0\0\0" + ptx)
        rc, out, err = run("--gpu", "sm_90", blob)
        eq(out.splitlines()[3:5], [blob + ": a file of no known format, searched whole",
                                   "  PTX kept as text, loaded by the program itself: 1 module"])


@test
def embedded_searches_every_offset():
    """Review R13: a cubin or fat binary kept as data one byte past a 4-byte boundary (an
    .incbin array is aligned to 1) was found by no search; --embedded searches every offset,
    and the default, which looks at aligned offsets only, is documented as such."""
    with tempfile.TemporaryDirectory() as d:
        found = {}
        for pad in (0, 1, 2, 4):
            for name, blob in (("cubin", fx("kernels.sm_90.cubin")), ("fatbin", fx("ptx_only.fatbin"))):
                src = os.path.join(d, "pad%d_%s.c" % (pad, name))
                lib = os.path.join(d, "libpad%d_%s.so" % (pad, name))
                with open(src, "w") as f:
                    f.write('__asm__(".section .rodata\\n.balign 64\\n.skip 100000, 120\\n.skip %d\\n'
                            '.incbin \\"%s\\"\\n.previous\\n");\n' % (pad, blob))
                subprocess.run(["cc", "-shared", "-fPIC", "-o", lib, src], check=True)
                rc, out, err = run("--embedded", "--gpu", "sm_90", lib)
                found[(pad, name)] = (rc, out.splitlines()[4] if len(out.splitlines()) > 4 else out)
        for pad in (0, 1, 2, 4):
            eq(found[(pad, "cubin")], (0, "  cubins kept as data, loaded by the program itself: 1 cubin in .rodata"), pad)
            eq(found[(pad, "fatbin")], (0, "  embedded as data, loaded by the library itself: 1 container in .rodata"),
               pad)


@test
def bytes_appended_after_an_elf_image_are_said():
    """Review R11: an AppImage (an ELF runtime, then a squashfs holding the application's
    libraries) was "no CUDA code", exit 0, though its squashfs was never read."""
    with tempfile.TemporaryDirectory() as d:
        app = os.path.join(d, "App.AppImage")
        elf = open("/bin/true", "rb").read()
        squash = b"hsqs" + bytes(range(256)) * 40  # 10,244 bytes
        open(app, "wb").write(elf + squash)
        rc, out, err = run("-q", "--gpu", "sm_90", app)
        eq((rc, err), (0, ""))
        eq(out, "%s: no CUDA code in the ELF image, but 10,244 bytes appended after it (at 0x%x) were not read "
                "(an AppImage's or snap's squashfs? unpack it and check the folder)\n" % (app, len(elf)))
        doc = json.loads(run("--json", "--gpu", "sm_90", app)[1])
        eq(schema_errors(doc)[:5], [])
        eq(doc["files"][0]["appended"], {"offset": len(elf), "size": 10244})
        lib = os.path.join(d, "libmulti.so")
        open(lib, "wb").write(open(fx("libmulti.so"), "rb").read() + bytes(8192))
        rc, out, err = run("--gpu", "sm_90", lib)
        assert "  note: 8,192 bytes appended after the ELF image (at 0x" in out, out
        # --strict fails both, saying why (exit 3: not read).
        for path, n in ((app, "10,244"), (lib, "8,192")):
            rc, out, err = run("--strict", "--gpu", "sm_90", "--json", path)
            eq((rc, err), (3, "fatcheck: %s: %s bytes appended after the ELF image were not read; --strict fails it\n"
                              % (path, n)), path)
        # What is not 4 KiB (a kernel module's signature, padding) is no note.
        open(lib, "wb").write(open(fx("libmulti.so"), "rb").read() + bytes(4095))
        assert "appended" not in run("--gpu", "sm_90", lib)[1]
        eq(run("--strict", "--gpu", "sm_90", lib)[::2], (0, ""))


@test
def ptx_kept_as_text_in_a_program():
    path = fx("ptxtext/app_ptxtext")
    rc, out, err = run("--gpu", "sm_80", path)
    eq((rc, err), (0, ""))
    eq(out.split("\n")[3:12], [
        path + ": no containers registered with the CUDA runtime",
        "  PTX kept as text, loaded by the program itself: 2 modules in .rodata",
        "    ptx          2  compute_75:1 compute_89:1",
        "    PTX ISA 9.0; stored: uncompressed 2",
        "  sm_80 (--gpu sm_80): partial, 1 of 2 modules load; 1 cannot",
        "    (no kernel image for sm_80)",
        "    (their kernels fail only if launched here; libraries often carry modules",
        "    for one architecture that are never launched on another)",
        "    note: 1 module runs only through PTX JIT (compute_75): slow first launch,"])
    doc = json.loads(run("--json", "--kernels", "--gpu", "sm_80", path)[1])
    eq(schema_errors(doc)[:5], [])
    cs = doc["files"][0]["containers"]
    eq([(c["section"], c["origin"], c["size"]) for c in cs], [(".rodata", "ptx_text", 2896)] * 2)
    eq([(e["kind"], e["arch"], e["ptx_isa"], e["compression"], e["header_size"], e["offset"] == e["payload_offset"])
        for c in cs for e in c["entries"]],
       [("ptx", "compute_89", "9.0", "none", 0, True), ("ptx", "compute_75", "9.0", "none", 0, True)])
    eq([k["name"] for k in cs[0]["entries"][0]["kernels"]],
       ["fc_add", "_ZN10fc_fixture5scaleIfEEvPT_S1_i", "_ZN10fc_fixture5scaleIdEEvPT_S1_i"])
    eq([l["result"] for c in cs for l in c["loads"]], ["CUDA_ERROR_NO_BINARY_FOR_GPU", "CUDA_SUCCESS"])
    # Each module is the PTX the program holds, byte for byte: kernels.ptx less its last newline.
    data = open(path, "rb").read()
    ptx = open(fx("kernels.ptx"), "rb").read()
    eq(data[cs[0]["offset"]:cs[0]["offset"] + cs[0]["size"]], ptx.rstrip(b"\n") + b"\n")
    rc, out, err = run("-l", path)
    assert all(line.endswith(" ptx_text") for line in out.splitlines()[2:]), out
    with tempfile.TemporaryDirectory() as tmp:
        eq(run("--extract", tmp, path)[0], 0)
        eq(sorted(os.listdir(tmp)), ["app_ptxtext.rodata.1.compute_89.ptx", "app_ptxtext.rodata.2.compute_75.ptx"])
    # cuobjdump does not see them, and its listings say so.
    rc, out, err = run("--list-ptx", path)
    eq(out, "")
    rc, out, err = run(fx("ptxtext/libptxtext.so"))
    eq(out.splitlines()[1:3], ["  PTX kept as text, loaded by the program itself: 1 module in .rodata",
                               "    ptx          1  compute_80:1"])


@test
def thin_archives_are_said_not_read():
    """Review of 2026-12-03, M1: a thin archive (ar rcT, which GNU ld links) holds its members'
    names, not their bytes. Named, it was "not an ELF file, archive, ..."; in a tree holding only
    it, nothing was printed, exit 0 (JUnit tests="0"). Now the one-line error, exit 3, both ways."""
    import tempfile
    if not shutil.which("ar"):
        print("# SKIP ar absent")
        return
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "obj"))
        os.makedirs(os.path.join(tmp, "lib"))
        shutil.copy(fx("rdc_main.o"), os.path.join(tmp, "obj"))
        subprocess.run(["ar", "rcT", "libk.a", "../obj/rdc_main.o"], cwd=os.path.join(tmp, "lib"), check=True)
        thin = os.path.join(tmp, "lib", "libk.a")
        want = "fatcheck: %s: a thin archive: its members are files outside it, which are not read here; " \
               "give fatcheck those files\n" % thin
        for where in (thin, os.path.join(tmp, "lib")):
            rc, out, err = run("--gpu", "9.0", where)
            eq((rc, err), (3, want), where)


@test
def code_sections_without_bytes_are_said_not_read():
    """Review of 2026-12-03, M4: objcopy --only-keep-debug turns every loaded section into
    SHT_NOBITS, .nv_fatbin and .nvFatBinSegment (or an object's __nv_relfatbin) included: the
    file was "no CUDA code", exit 0, where the library it describes holds kernels. Now one line
    naming the sections, exit 3: named, in a tree, in an archive and in a tarball."""
    if not shutil.which("objcopy") or not shutil.which("ar"):
        print("# SKIP objcopy or ar absent")
        return
    why = " hold no bytes in this file (SHT_NOBITS: a debug-info file, or one whose code was " \
          "stripped out?): its CUDA code cannot be read here\n"
    with tempfile.TemporaryDirectory() as tmp:
        dbg = os.path.join(tmp, "tree", "libmulti.debug")
        os.makedirs(os.path.dirname(dbg))
        subprocess.run(["objcopy", "--only-keep-debug", fx("libmulti.so"), dbg], check=True)
        obj = os.path.join(tmp, "rdc_main.debug.o")
        subprocess.run(["objcopy", "--only-keep-debug", fx("rdc_main.o"), obj], check=True)
        ar = os.path.join(tmp, "libdbg.a")
        subprocess.run(["ar", "rc", ar, obj], check=True)
        tgz = os.path.join(tmp, "dbg.tar.gz")
        with tarfile.open(tgz, "w:gz") as t:
            t.add(dbg, "usr/lib/debug/libmulti.debug")
        for path, name, sections in (
                (dbg, dbg, ".nv_fatbin and .nvFatBinSegment sections"),
                (os.path.dirname(dbg), dbg, ".nv_fatbin and .nvFatBinSegment sections"),
                (obj, obj, "__nv_relfatbin and .nvFatBinSegment sections"),
                (ar, ar + "(rdc_main.debug.o)", "__nv_relfatbin and .nvFatBinSegment sections"),
                (tgz, tgz + "!usr/lib/debug/libmulti.debug", ".nv_fatbin and .nvFatBinSegment sections")):
            rc, out, err = run("--gpu", "9.0", "--driver", "13.0", path)
            eq((rc, err), (3, "fatcheck: %s: its %s%s" % (name, sections, why)), path)
            rc, out, err = run("--gpu", "9.0", "--driver", "13.0", "--strict", "--json", path)
            eq((rc, [f["error"] for f in json.loads(out)["files"]]), (3, [name + ": its " + sections + why[:-1]]),
               path)
        # .nv_fatbin retyped NOBITS, its bytes still loaded where the records lead: read.
        rc, out, err = run(fx("noshdr/libmulti.nobits.so"))
        eq((rc, err), (0, NO_GPU))


def one_cubin_container(cubin, flags=0x11, arch=90):
    """A container of one uncompressed cubin entry, as fatbinary writes it."""
    payload = cubin + b"\0" * (-len(cubin) % 8)
    head = struct.pack("<HHIQIIHHIIIQQQ", 2, 0x0101, 64, len(payload), 0, 0, 8, 1, arch, 0, 0, flags, 0, 0)
    return struct.pack("<IHHQ", 0xBA55ED50, 1, 16, len(head) + len(payload)) + head + payload


def results_by_mode(path, gpu="9.0"):
    """{mode: (load result, exit status)} with no option, --strict and --kernels."""
    got = {}
    for mode, args in (("default", []), ("strict", ["--strict"]), ("kernels", ["--kernels"])):
        rc, out, err = run("--json", *args, "--gpu", gpu, "--driver", "13.0", path)
        got[mode] = (json.loads(out)["files"][0]["containers"][0]["loads"][0]["result"], rc)
    return got


@test
def cubin_identity_bytes_the_driver_refuses():
    """The H200's driver (580.159.04) refused an ABI-8 cubin marked big-endian, or with OS/ABI 0,
    51 or 41, with CUDA_ERROR_INVALID_IMAGE, and loaded one with EI_VERSION 0 (review of
    2026-12-03: v10, v11, b6, b6b, b7; each was ok, exit 0). Real cubins pair ABI version 7 with
    OS/ABI 51 and 8 with 65 (bench/cubin_survey over CUDA 11.8, 12.x and 13.0); another pair is
    taken as damage. (-k also fails to read the big-endian one and the EI_VERSION 0 one: libelf.)"""
    cubin = open(fx("kernels.sm_90.cubin"), "rb").read()
    eq((cubin[5], cubin[7], cubin[8]), (1, 65, 8), "the fixture's identity")
    refused = ("CUDA_ERROR_INVALID_IMAGE", 1)
    cases = (("eidata2", 5, 2, refused, 3), ("osabi0", 7, 0, refused, 1), ("osabi51", 7, 51, refused, 1),
             ("osabi41", 7, 41, refused, 1), ("abi7", 8, 7, refused, 1),
             ("eiversion0", 6, 0, ("CUDA_SUCCESS", 0), 3))
    with tempfile.TemporaryDirectory() as tmp:
        for name, at, value, want, kernels_rc in cases:
            c = bytearray(cubin)
            c[at] = value
            path = os.path.join(tmp, name + ".fatbin")
            open(path, "wb").write(one_cubin_container(bytes(c)))
            eq(results_by_mode(path), {"default": want, "strict": want, "kernels": (want[0], kernels_rc)}, name)


@test
def entry_flags_no_toolchain_writes():
    """Flag bits no toolchain was seen writing (none in CUDA 11.8, 12.x or 13.0, bench/cubin_survey):
    the H200's driver refused a cubin flagged 0x4000 (200) and 0x1000 (999), found no image in
    an sm_90 cubin flagged f (209; sm_90 has no family) and loaded one flagged a and f both, and
    one flagged 0x400000: that one, like any other bit, is not judged (exit 3, said). Each was
    ok, exit 0 (review of 2026-12-03: v16, v17, v33, v32, v18)."""
    cubin = open(fx("kernels.sm_90.cubin"), "rb").read()
    cases = (("flag4000", 0x4011, ("CUDA_ERROR_INVALID_IMAGE", 1)), ("flag1000", 0x1011, ("UNCOMPRESS_FAILED", 1)),
             ("sm90f", 0x200011, ("CUDA_ERROR_NO_BINARY_FOR_GPU", 1)), ("sm90af", 0x300011, ("CUDA_SUCCESS", 0)),
             ("flag400000", 0x400011, ("CUDA_SUCCESS", 3)),
             # 0x4, "CUDA's code" (an old fatbinary.h's FATBIN_FLAG_CUDA), which nvcc set before
             # CUDA 11 on Windows (0x45, 0x2047): such files were not judged, exit 3 (rv45 F1).
             # Not loaded on a device (none was lent this session): judged as without it.
             ("flag4", 0x45, ("CUDA_SUCCESS", 0)))
    with tempfile.TemporaryDirectory() as tmp:
        for name, flags, want in cases:
            path = os.path.join(tmp, name + ".fatbin")
            open(path, "wb").write(one_cubin_container(cubin, flags))
            eq(results_by_mode(path), {"default": want, "strict": want, "kernels": want}, name)
        rc, out, err = run("--gpu", "9.0", "--driver", "13.0", os.path.join(tmp, "flag400000.fatbin"))
        eq((rc, "entry flags 0x400011 hold bits 0x400000 that no CUDA toolchain is known to write" in err), (3, True),
           err)


@test
def an_entry_flagged_lz4_and_zstd_is_not_judged():
    """No toolchain flags an entry LZ4 and zstd at once. Read as neither, a zstd cubin on a CUDA
    12.2 driver (which reads no zstd) was ok, exit 0, with --strict and -k too, where the same
    cubin flagged zstd alone is none (review of 2026-12-05, rt7 F4)."""
    data = bytearray(open(fx("compress_size.fatbin"), "rb").read())
    flags = struct.unpack_from("<Q", data, 16 + 40)[0]
    eq(flags & 0xA000, 0x8000)  # the first entry is zstd
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "both.fatbin")
        struct.pack_into("<Q", data, 16 + 40, flags | 0x2000)
        open(path, "wb").write(bytes(data))
        for extra in ([], ["--strict"], ["--strict", "-k"]):
            rc, out, err = run(*extra, "--gpu", "9.0", "--driver", "12.2", path)
            eq((rc, "say LZ4 and zstd at once, which no CUDA toolchain is known to write" in err), (3, True),
               (extra, err))
        eq(run("--gpu", "9.0", "--driver", "12.2", fx("compress_size.fatbin"))[0], 1)


@test
def a_compressed_cubins_declared_size_is_what_it_inflates_to():
    """The driver inflates a compressed cubin into the size its entry declares: the H200's
    answered 209 for an LZ4 one declared 64 bytes larger or smaller or 0, and 999 for a zstd one
    64 larger or smaller (review of 2026-12-03: v24, v25, v26c, v26, v26b; each ok, exit 0, with
    --strict and -k too). zstd's frame states its size, read by default; an LZ4 block does not,
    and is inflated whole only by --strict and the kernel view; 0 is no cubin's size."""
    lz4_failed, zstd_failed, ok = ("UNCOMPRESS_FAILED", 1), ("UNCOMPRESS_FAILED", 1), ("CUDA_SUCCESS", 0)
    with tempfile.TemporaryDirectory() as tmp:
        for name, how, delta, default in (("compress_speed_all.fatbin", "lz4", 64, ok),
                                          ("compress_speed_all.fatbin", "lz4", -64, ok),
                                          ("compress_speed_all.fatbin", "lz4", None, lz4_failed),
                                          ("compress_size.fatbin", "zstd", 64, zstd_failed),
                                          ("compress_size.fatbin", "zstd", -64, zstd_failed)):
            data = bytearray(open(fx(name), "rb").read())
            eq((struct.unpack_from("<H", data, 16)[0], struct.unpack_from("<I", data, 16 + 28)[0]), (2, 90), name)
            declared = struct.unpack_from("<Q", data, 16 + 56)[0]
            struct.pack_into("<Q", data, 16 + 56, 0 if delta is None else declared + delta)
            path = os.path.join(tmp, "%s%s.fatbin" % (how, delta))
            open(path, "wb").write(bytes(data))
            failed = lz4_failed if how == "lz4" else zstd_failed
            eq(results_by_mode(path), {"default": default, "strict": failed, "kernels": failed}, (how, delta))
        # as stored, every mode loads it
        for name in ("compress_speed_all.fatbin", "compress_size.fatbin"):
            eq(results_by_mode(fx(name)), {"default": ok, "strict": ok, "kernels": ok}, name)


if __name__ == "__main__":
    sys.exit(main())
