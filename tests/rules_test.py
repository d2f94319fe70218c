#!/usr/bin/env python3
"""CLI tests of loading rules found wrong by review 2 (docs/matching.md says each rule and its
evidence): exact verdicts on the fixtures of fixtures/rules/make.sh (nvcc 13.0), and on
variants of them patched here.

Usage: rules_test.py FATCHECK FIXTURES_DIR FAKECUDA
Writes TAP."""
import json
import os
import shutil
import struct
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tap_cli  # noqa: E402
from tap_cli import FIXTURES, eq, kept_behind_pointers, test, with_more_sections, without_section_table  # noqa: E402

RULES = os.path.join(FIXTURES, "rules")


def rules(name):
    return os.path.join(RULES, name)


def judge(path, *args, env=None):
    """(exit status, the file's JSON, stderr) for fatcheck --json ARGS PATH."""
    rc, out, err = tap_cli.run("--json", *args, path, env=env, timeout=120)
    return rc, json.loads(out)["files"][0], err.decode("utf-8", "replace")


def counts(verdict):
    """The verdict's nonzero fields."""
    return {k: v for k, v in verdict.items() if v not in (0, None, False)}


@test
def an_empty_fat_binary_is_no_module():
    """R14: nvcc 13's device link step leaves a 16-byte fat binary without entries in every
    PTX-only build; it holds no kernel (and the runtime never registers it), so the build is
    ok through PTX JIT, not partial. A damaged or cut container is never taken for one."""
    path = rules("libptxonly.so")
    rc, f, err = judge(path, "--strict", "--gpu", "sm_80", "--driver", "13.0")
    eq((rc, err), (0, ""))
    eq([(c["size"], len(c["entries"]), c["loads"][0]["result"]) for c in f["containers"]],
       [(16, 0, "EMPTY_CONTAINER"), (440, 1, "CUDA_SUCCESS")])
    eq(counts(f["verdicts"][0]), {"target": "sm_80", "status": "ok", "modules": 1, "loadable": 1, "jit": 1,
                                  "empty_containers": 1, "runtime_starts": True})
    rc, out, err = tap_cli.run("--strict", "--gpu", "sm_80", "--driver", "13.0", path)
    assert b"sm_80 (--gpu sm_80): ok, 1 module loads: 1 only through PTX JIT\n" in out, out
    assert b"to build native code" not in out, out
    data = open(path, "rb").read()
    at = f["containers"][0]["offset"]
    with tempfile.TemporaryDirectory() as tmp:
        for what, off, value, error in (
                ("declares 8 bytes of entries", at + 8, (8).to_bytes(8, "little"),
                 ".nv_fatbin+0x10: entry header of 1048577 bytes runs past the container (8 bytes left)"),
                ("runs past its section", at + 8, (4096).to_bytes(8, "little"),
                 ".nv_fatbin+0x0: container of 4096 bytes runs past the end (440 bytes left)"),
                ("has a header size of 8", at + 6, (8).to_bytes(2, "little"),
                 ".nv_fatbin+0x0: container header size 8 is invalid")):
            bad = bytearray(data)
            bad[off:off + len(value)] = value
            p = os.path.join(tmp, "bad.so")
            open(p, "wb").write(bad)
            rc, f, err = judge(p, "--gpu", "sm_80", "--driver", "13.0")
            eq((rc, err, f["verdicts"][0]["status"], f["verdicts"][0].get("empty_containers")),
               (3, "fatcheck: %s: %s\n" % (p, error), "none", None), what)


@test
def a_fat_binary_of_empty_containers_holds_no_kernel():
    """Rule 10 on a bare fat binary of nothing but 16-byte headers: no kernel to launch, said
    so (not a "stored:" line with nothing after it). 200,000 of them: asking every container
    whether the file holds -rdc objects made the judgement quadratic (35 s here, 2026-12-02)."""
    header = (0xBA55ED50).to_bytes(4, "little") + (1).to_bytes(2, "little") + (16).to_bytes(2, "little") + bytes(8)
    with tempfile.TemporaryDirectory() as tmp:
        for n in (1, 200000):
            path = os.path.join(tmp, "empty%d.fatbin" % n)
            open(path, "wb").write(header * n)
            rc, out, err = tap_cli.run("--gpu", "sm_90", path, timeout=120)
            eq((rc, err, out.decode().split("\n")[3:]), (0, b"", [
                "%s: %s container%s (bare fat binary)" % (path, "{:,}".format(n), "" if n == 1 else "s"),
                "  no images: its containers hold no entries",
                "  no kernel to launch on any GPU: its %s %s no image" % (
                    "{:,}".format(n), "container holds" if n == 1 else "containers hold"), ""]), n)
            rc, f, err = judge(path, "--gpu", "sm_90")
            eq(counts(f["verdicts"][0]), {"target": "sm_90", "status": "no-code", "empty_containers": n}, n)


@test
def registered_whole_program_ptx_is_read_for_unresolved_calls():
    """R10: PTX the runtime registers, compiled as a whole program, is JIT-compiled by the driver
    as a bare fat binary's is: a call to a function defined nowhere fails it (rule 6). It was
    "partial" (the PTX counted as loading), exit 0."""
    path = rules("libextern.so")
    rc, f, err = judge(path, "--gpu", "sm_80,sm_90", "--driver", "13.0")
    eq((rc, err), (1, ""))
    eq([[l["result"] for l in c["loads"]] for c in f["containers"]],
       [["EMPTY_CONTAINER", "EMPTY_CONTAINER"], ["CUDA_ERROR_INVALID_PTX", "CUDA_ERROR_INVALID_PTX"]])
    for v, target in zip(f["verdicts"], ("sm_80", "sm_90")):
        eq(counts(v), {"target": target, "status": "none", "modules": 1, "invalid_ptx": 1, "empty_containers": 1,
                       "runtime_starts": True})
    rc, out, err = tap_cli.run("--gpu", "sm_80", "--driver", "13.0", path)
    assert (b"  sm_80 (--gpu sm_80): none, no module can load\n"
            b"    (PTX that calls functions it does not define): every kernel launch fails\n") in out, out
    # The same source's PTX that calls nothing outside loads (libptxonly.so: ok, above); with
    # the JIT disabled nothing is read and the answer is the driver's refusal.
    rc, out, err = tap_cli.run("--json", "--gpu", "sm_80", "--driver", "13.0", path,
                               env={"CUDA_DISABLE_PTX_JIT": "1"})
    eq(json.loads(out)["files"][0]["containers"][1]["loads"][0]["result"], "CUDA_ERROR_JIT_COMPILATION_DISABLED")


@test
def ptx_older_than_its_target_cannot_be_compiled():
    """R5: PTX whose .version predates its .target (sm_90 came with ISA 7.8, sm_90a with 8.0:
    PTX ISA "Release History"; ptxas 13.0: "PTX .version 7.7 does not support .target sm_90")
    is refused by the JIT on every GPU: CUDA_ERROR_INVALID_PTX, never "ok"."""
    def judged(name, target):
        rc, f, err = judge(rules(name), "--gpu", target, "--driver", "13.0")
        load = f["containers"][0]["loads"][0]
        return rc, load["result"], f["verdicts"][0]["status"], f["verdicts"][0]["invalid_ptx"]
    eq(judged("sm90_isa77.ptx", "sm_90"), (1, "CUDA_ERROR_INVALID_PTX", "none", 1))
    eq(judged("sm90_isa77.ptx", "sm_120"), (1, "CUDA_ERROR_INVALID_PTX", "none", 1))
    eq(judged("sm90_isa78.ptx", "sm_90"), (0, "CUDA_SUCCESS", "ok", 0))
    eq(judged("sm90a_isa78.ptx", "sm_90"), (1, "CUDA_ERROR_INVALID_PTX", "none", 1))
    rc, out, err = tap_cli.run("--gpu", "sm_90", "--driver", "13.0", rules("sm90_isa77.ptx"))
    assert b"sm_90 (--gpu sm_90): none, no module can load (PTX the JIT cannot read)" in out, out
    assert b"a .version older than its .target" in out, out
    # Below its target no GPU takes it anyway: that stays "no kernel image".
    eq(judged("sm90_isa77.ptx", "sm_80")[1], "CUDA_ERROR_NO_BINARY_FOR_GPU")


@test
def bytes_outside_ascii_fail_the_jit_by_its_release():
    """A byte outside ASCII in PTX: CUDA 13.0's JIT rejects it anywhere ("Unexpected non-ASCII
    character": driver 580.159.04 on tests/oracle's kernels.utf8*.ptx, lazy and eager; ptxas
    13.0). Older ones read it in a comment (ptxas 11.8 and 12.4 compiled each comment case);
    in a name they fail (11.8: "Parsing error"; 12.4 crashed) and in a string 12.4 crashed, so
    a string counts as code for them. The same text with .version 7.8 and .target sm_80, which
    a 12.4 driver takes."""
    with open(os.path.join(FIXTURES, "kernels.ptx"), "rb") as f:
        lines = f.read().replace(b".version 9.0", b".version 7.8").replace(b".target sm_89", b".target sm_80").split(b"\n")
    cases = {"comment": (12, b"// caf\xc3\xa9"), "body comment": (22, b"\t// caf\xc3\xa9"),
             "string": (12, b'.file 1 "/home/jos\xc3\xa9/k.cu"')}
    want = {"comment": "CUDA_SUCCESS", "body comment": "CUDA_SUCCESS", "string": "CUDA_ERROR_INVALID_PTX",
            "name": "CUDA_ERROR_INVALID_PTX"}
    with tempfile.TemporaryDirectory() as tmp:
        texts = {k: b"\n".join(lines[:at] + [line] + lines[at:]) for k, (at, line) in cases.items()}
        texts["name"] = b"\n".join(lines).replace(b".entry fc_add(", b".entry fc_add\xc3\xa9(", 1)
        for what, text in texts.items():
            path = os.path.join(tmp, what.replace(" ", "_") + ".ptx")
            open(path, "wb").write(text)
            for driver in ("12.4", "13.0"):
                rc, f, err = judge(path, "--gpu", "sm_90", "--driver", driver)
                expected = want[what] if driver == "12.4" else "CUDA_ERROR_INVALID_PTX"
                eq((what, driver, f["containers"][0]["loads"][0]["result"]), (what, driver, expected))
        rc, f, err = judge(os.path.join(FIXTURES, "kernels.ptx"), "--gpu", "sm_90", "--driver", "13.0")
        eq(f["containers"][0]["loads"][0]["result"], "CUDA_SUCCESS")


@test
def a_file_without_cuda_code_does_not_match_an_arch_list():
    """R7: --arch-list passed a CPU-only build (exit 0) while its JSON said "matches": false with
    nothing missing. A file named on the command line with no CUDA code at all lacks every image
    of a non-empty list: exit 5. A directory walk still passes over files without CUDA code."""
    path = rules("libcpu_only.so")
    rc, f, err = judge(path, "--arch-list", "8.0;9.0")
    eq((rc, err, f["arch_list_check"]),
       (5, "", {"arch_list": "8.0;9.0", "matches": False, "unexpected": [],
                "missing": [{"image": "sm_80", "containers_lacking": 1}, {"image": "sm_90", "containers_lacking": 1}]}))
    rc, out, err = tap_cli.run("--arch-list", "8.0;9.0", path)
    eq(rc, 5)
    assert (path.encode() + b": no CUDA code\n"
            b'  arch list "8.0;9.0": missing every image: the file holds no CUDA code (built without CUDA?)\n') in out, out
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("libcpu_only.so",):
            open(os.path.join(tmp, name), "wb").write(open(rules(name), "rb").read())
        open(os.path.join(tmp, "k.cubin"), "wb").write(open(os.path.join(FIXTURES, "kernels.sm_90.cubin"), "rb").read())
        rc, out, err = tap_cli.run("--arch-list", "9.0", tmp)
        eq((rc, b"libcpu_only.so" in out), (0, False))


def as_cuda12(name, tmp):
    """A copy of fixture NAME, a bare fat binary, whose cubin entries say code version 1.7, as a
    CUDA 12 toolchain's do: the fixtures are CUDA 13's (1.8), which no driver before CUDA 13.0
    runs (rule 13), and rules about older drivers are tested on such copies."""
    data = bytearray(open(os.path.join(FIXTURES, name), "rb").read())
    at, end = 16, 16 + int.from_bytes(data[8:16], "little")
    while at + 64 <= end:
        if int.from_bytes(data[at:at + 2], "little") == 2:  # a cubin
            data[at + 24:at + 26] = (7).to_bytes(2, "little")
        at += int.from_bytes(data[at + 4:at + 8], "little") + int.from_bytes(data[at + 8:at + 16], "little")
    path = os.path.join(tmp, name)
    open(path, "wb").write(bytes(data))
    return path


@test
def zstd_images_need_a_driver_for_cuda_12_4():
    """R1: images stored zstd-compressed (--compress-mode=size or balance; CUDA 13's default for
    PTX) cannot be read by drivers before CUDA 12.4, 550.54.14 (nvcc's documentation of
    --compress-mode; rapids-cmake: "CUDA 12 Requires Driver Version: 550.54.14+" for size and
    balance, 525.60.13+ for the LZ4 modes). They were "ok" on a 535 driver. (The fixtures'
    cubins are CUDA 13's, which those drivers do not run at all: rule 13; as_cuda12's copies
    are a CUDA 12 toolchain's.)"""
    tmp = tempfile.mkdtemp()

    def judged(name, driver):
        rc, f, err = judge(as_cuda12(name, tmp), "--gpu", "sm_90", "--driver", driver)
        v = f["verdicts"][0]
        return rc, f["containers"][0]["loads"][0]["result"], v["status"], v.get("unsupported_compression")
    for driver in ("535.104.05", "12.3", "545.23.06", "11.8"):
        eq(judged("compress_size.fatbin", driver), (1, "UNSUPPORTED_COMPRESSION", "none", 1), driver)
    for driver in ("550.54.14", "12.4", "13.0"):
        eq(judged("compress_size.fatbin", driver), (0, "CUDA_SUCCESS", "ok", None), driver)
    # balance and speed store the cubin as it is, the PTX with zstd or LZ4: the cubin is chosen,
    # and zstd is no matter; their own ELF headers say CUDA 13 (ABI 8), which a copy cannot hide.
    for name in ("compress_balance.fatbin", "compress_speed.fatbin"):
        eq(judged(name, "535.104.05"), (1, "TOOLKIT_TOO_NEW", "none", None), name)
        eq(judged(name, "13.0"), (0, "CUDA_SUCCESS", "ok", None), name)
    # The fixture itself: a CUDA 13 cubin on a CUDA 12.2 driver.
    rc, f, err = judge(os.path.join(FIXTURES, "compress_size.fatbin"), "--gpu", "sm_90", "--driver", "535.104.05")
    eq((rc, f["containers"][0]["loads"][0]["result"], f["verdicts"][0]["toolkit_too_new"]), (1, "TOOLKIT_TOO_NEW", 1))
    rc, out, err = tap_cli.run("--gpu", "sm_90", "--driver", "535.104.05", as_cuda12("compress_size.fatbin", tmp))
    shutil.rmtree(tmp)
    assert (b"  sm_90 (--gpu sm_90): none, no module can load\n"
            b"    (images compressed with zstd, which drivers before CUDA 12.4 cannot read):\n"
            b"    every kernel launch fails with \"device kernel image is invalid\"\n"
            b"    fix: install a driver for CUDA 12.4 or newer (>= 550.54.14), or rebuild with\n"
            b"         nvcc --compress-mode=speed (LZ4) or none\n") in out, out
    assert b"to build native code" not in out, out



def symtab_entries(cubin):
    """(file offset within CUBIN of each symbol's st_info byte, its type) of a 64-bit ELF's
    .symtab."""
    shoff = int.from_bytes(cubin[0x28:0x30], "little")
    shentsize, shnum = (int.from_bytes(cubin[i:i + 2], "little") for i in (0x3a, 0x3c))
    for i in range(shnum):
        sh = cubin[shoff + i * shentsize:shoff + (i + 1) * shentsize]
        if int.from_bytes(sh[4:8], "little") == 2:  # SHT_SYMTAB
            off, size, entsize = (int.from_bytes(sh[k:k + 8], "little") for k in (0x18, 0x20, 0x38))
            return [(off + k * entsize + 4, cubin[off + k * entsize + 4] & 15) for k in range(1, size // entsize)]
    return []


@test
def a_cubin_that_defines_nothing_is_no_module():
    """Review 8, C1: with code=sm_80 nvcc 13's device link step leaves a 1,448-byte sm_80
    cubin whose symbols are its sections' own: nothing in it can be launched or reached. Every
    "sm_80 plus PTX" build was partial on newer GPUs, exit 1 under --strict. Its load is still
    predicted as the driver answers it (tests/oracle compares); the verdict leaves it out. A
    cubin that defines a function, or cannot be read, still counts."""
    path = rules("liblineinfo.so")
    rc, f, err = judge(path, "--strict", "--gpu", "sm_90,sm_80", "--driver", "13.0")
    eq((rc, err), (0, ""))
    eq([(c["size"], [e["arch"] for e in c["entries"]], [(l["result"], l.get("defines_nothing")) for l in c["loads"]])
        for c in f["containers"]],
       [(1544, ["sm_80"], [("CUDA_ERROR_NO_BINARY_FOR_GPU", True), ("CUDA_SUCCESS", True)]),
        (5680, ["compute_80", "sm_80"], [("CUDA_SUCCESS", None), ("CUDA_SUCCESS", None)])])
    eq([counts(v) for v in f["verdicts"]],
       [{"target": "sm_90", "status": "ok", "modules": 1, "loadable": 1, "jit": 1, "modules_defining_nothing": 1,
         "runtime_starts": True},
        {"target": "sm_80", "status": "ok", "modules": 1, "loadable": 1, "native": 1, "modules_defining_nothing": 1,
         "runtime_starts": True}])
    rc, out, err = tap_cli.run("--gpu", "sm_90", "--driver", "13.0", path)
    assert b"sm_90 (--gpu sm_90): ok, 1 module loads: 1 only through PTX JIT\n" in out, out
    data = open(path, "rb").read()
    cubin = f["containers"][0]["entries"][0]["payload_offset"]
    symbols = symtab_entries(data[cubin:cubin + 1448])
    eq([t for _, t in symbols], [3, 3, 3, 3])  # STT_SECTION
    with tempfile.TemporaryDirectory() as tmp:
        for what, patch, error in [
                ("a symbol made a function", (cubin + symbols[0][0], 0x12), ""),
                ("its ELF magic broken", (cubin + 1, ord("X")), None)]:
            bad = bytearray(data)
            bad[patch[0]] = patch[1]
            p = os.path.join(tmp, "lib.so")
            open(p, "wb").write(bad)
            rc, g, err = judge(p, "--strict", "--gpu", "sm_90", "--driver", "13.0")
            v = g["verdicts"][0]
            eq((rc, v["status"], v["modules"], v.get("modules_defining_nothing"),
                g["containers"][0]["loads"][0].get("defines_nothing")), (1, "partial", 2, None, None), what)
            if error is not None:
                eq(err, error, what)


@test
def a_library_whose_registered_code_defines_nothing_has_no_kernel_to_fail():
    """Review 8, C1, the whole file: a translation unit without kernels (CUDA 13.0's
    libcufftw.so.12 is such a library) registers cubins that define nothing. It was "none" on
    every GPU but its own; nothing in it can be launched anywhere. It is no-code, said so, and
    an arch list check fails on it as on a file without CUDA code."""
    path = rules("libhostonly.so")
    rc, f, err = judge(path, "--strict", "--gpu", "sm_90,sm_80", "--driver", "13.0")
    eq((rc, err), (0, ""))
    eq([[(l["result"], l.get("defines_nothing")) for l in c["loads"]] for c in f["containers"]],
       [[("CUDA_ERROR_NO_BINARY_FOR_GPU", True), ("CUDA_SUCCESS", True)]] * 2)
    eq([(v["status"], v["modules"], v["modules_defining_nothing"]) for v in f["verdicts"]],
       [("no-code", 0, 2), ("no-code", 0, 2)])
    rc, out, err = tap_cli.run("--gpu", "sm_90,sm_80", "--driver", "13.0", path)
    eq(out.count(b"  no kernel to launch on any GPU: its 2 registered containers define no function\n"
                 b"    and no variable\n"), 1)
    rc, out, err = tap_cli.run("--gpu", "sm_90", "--driver", "13.0", "--arch-list", "8.0", path)
    eq(rc, 5)
    assert b'  arch list "8.0": missing every image: the file\'s registered code defines no kernel\n' in out, out

@test
def registered_code_that_fails_beside_kept_code_that_loads_is_none():
    """Review 8, A2 (rule 12): a library whose registered modules all fail on a target while a
    module it keeps as data loads there was partial, exit 0; every kernel it launches through
    the runtime fails. A registered cubin that defines nothing, even stored compressed, is no
    such module (CUDA 13.0's cuFFT registers only one): that library stays partial, whatever
    other targets are judged beside."""
    path = rules("libkept_loads.so")
    for gpus in ("sm_90,sm_80", "sm_90"):
        rc, f, err = judge(path, "--gpu", gpus, "--driver", "13.0")
        eq((rc, err), (1, ""), gpus)
        eq([c["origin"] for c in f["containers"]], ["section", "section", "embedded"], gpus)
        eq(counts(f["verdicts"][0]),
           {"target": "sm_90", "status": "none", "modules": 2, "loadable": 1, "native": 1, "no_binary": 1,
            "modules_defining_nothing": 1, "registered_all_fail": True, "registered_modules": 1,
            "runtime_starts": True}, gpus)
    rc, f, err = judge(path, "--gpu", "sm_80", "--driver", "13.0")
    eq((rc, f["verdicts"][0]["status"], f["verdicts"][0].get("registered_all_fail")), (0, "partial", None))
    rc, out, err = tap_cli.run("--gpu", "sm_90", "--driver", "13.0", path)
    assert (b"  sm_90 (--gpu sm_90): none, its 1 module the CUDA runtime registers cannot load\n"
            b"    (no kernel image for sm_90): every kernel launched through the runtime\n"
            b"    fails; only 1 module that it loads itself loads\n") in out, out
    path = rules("libkept_idle.so")
    for gpus in ("sm_90,sm_80", "sm_90", "sm_80"):
        rc, f, err = judge(path, "--gpu", gpus, "--driver", "13.0")
        eq((rc, err), (0, ""), gpus)
        eq([[e["compression"] for e in c["entries"]] for c in f["containers"]], [["zstd"], ["zstd"], ["none"]], gpus)
        eq([(v["target"], v["status"], v["modules"], v.get("registered_all_fail")) for v in f["verdicts"]],
           [(t, "partial", 3, None) for t in gpus.split(",")], gpus)


@test
def registered_code_that_holds_nothing_or_links_itself_is_not_all_that_fails():
    """Rule 12's edges (review of 2026-12-02): registered PTX that declares nothing (a
    translation unit without kernels built -arch=compute_80) holds no kernel to fail; a
    kernel-less module that loads does not make the kernels that fail usable; and -rdc objects
    that hold no code (the H200 ran such a library) make nothing fail: the runtime's own link
    of them (rule 5) has nothing to miss."""
    cases = (("libkept_ptxstub.so", "sm_75", 0, "partial", None),   # was none
             ("libkept_mixed.so", "sm_86", 1, "none", 1),           # was partial
             ("libkept_mixed.so", "sm_75", 0, "partial", None),
             ("libkept_rdc.so", "sm_90", 0, "ok", None))            # was none, then partial
    for name, target, code, status, failing in cases:
        rc, f, err = judge(rules(name), "--gpu", target, "--driver", "13.0")
        v = f["verdicts"][0]
        eq((rc, err, v["status"], v.get("registered_all_fail"), v.get("registered_modules")),
           (code, "", status, True if failing else None, failing), (name, target))
    rc, out, err = tap_cli.run("--gpu", "sm_86", "--driver", "13.0", rules("libkept_mixed.so"))
    assert (b"  sm_86 (--gpu sm_86): none, its 1 module the CUDA runtime registers cannot load\n"
            b"    (no kernel image for sm_86): every kernel launched through the runtime\n"
            b"    fails; only 1 module that it loads itself loads\n") in out, out


@test
def rdc_code_the_runtime_cannot_link_beside_kept_code_is_none():
    """Rule 12 where the file holds -rdc objects: where the linked image does not fit, the
    runtime links the __nv_relfatbin objects itself, so registered code fails only where none
    of them that holds code has an image a link for the target could take. A library of
    tu_a.cu built -rdc code=sm_80 beside kept sm_90 code failed its launch with error 500 on
    the H200 and was partial, exit 0 (review of 2026-12-02); built code=[sm_80,compute_80] it
    ran (rule 5: the runtime links the object's PTX itself), and is ok there; one whose other
    -rdc object has PTX ran that object's kernel and failed the other's (error 500): partial."""
    cases = (("libkept_rdc_sm80.so", "sm_90", 1, "none", 1, 1),
             ("libkept_rdc_sm80.so", "sm_86", 0, "ok", None, None),
             ("libkept_rdc_ptx.so", "sm_90", 0, "ok", None, None),
             ("libkept_rdc_ptx.so", "sm_75", 1, "none", 1, 1),    # compute_80 PTX: not for sm_75
             ("libkept_rdc_mix.so", "sm_90", 0, "partial", None, None),
             ("libkept_rdc.so", "sm_90", 0, "ok", None, None))
    for name, target, code, status, failing, unlinkable in cases:
        rc, f, err = judge(rules(name), "--gpu", target, "--driver", "13.0")
        v = f["verdicts"][0]
        eq((rc, err, v["status"], v.get("registered_all_fail"), v.get("registered_modules"), v.get("rdc_unlinkable")),
           (code, "", status, True if failing else None, failing, unlinkable), (name, target))
    rc, f, err = judge(rules("libkept_rdc_ptx.so"), "--gpu", "sm_90,sm_80", "--driver", "13.0")
    eq([c.get("device_link") for c in f["containers"]], [True, None, None])
    eq([(v["status"], v["loadable"], v.get("runtime_linked")) for v in f["verdicts"]],
       [("ok", 2, 1), ("partial", 1, None)])  # on sm_80 the linked image loads; the kept code has none
    rc, f, err = judge(rules("libkept_rdc_mix.so"), "--gpu", "sm_90", "--driver", "13.0", "--kernels")
    eq((f["verdicts"][0]["status"], f["verdicts"][0].get("runtime_linked")), ("partial", None))
    # The H200 ran tu_a's kernel (its object has PTX) and failed tu_b's.
    eq([k["name"] for k in f["verdicts"][0]["missing_kernels"]], ["fc_tu_b_square"])
    rc, f, err = judge(rules("libkept_rdc_ptx.so"), "--gpu", "sm_90", "--driver", "13.0", "--kernels")
    eq(f["verdicts"][0].get("missing_kernels", []), [])
    rc, out, err = tap_cli.run("--gpu", "sm_90", "--driver", "13.0", rules("libkept_rdc_ptx.so"))
    assert (b"  sm_90 (--gpu sm_90): ok, 2 modules load: 1 native, 1 only through the\n"
            b"    runtime's own link\n"
            b"    note: 1 module has no code for sm_90 as linked; the CUDA runtime links the\n"
            b"          file's -rdc objects itself when it is loaded, each with an image for\n"
            b"          sm_90 (slow first load where they are PTX)\n") in out, out
    rc, f, err = judge(rules("libkept_rdc_ptx.so"), "--gpu", "sm_90", "--driver", "13.0",
                       env={"CUDA_DISABLE_PTX_JIT": "1"})
    eq((rc, f["verdicts"][0]["status"], f["verdicts"][0].get("runtime_linked")), (1, "none", None))
    rc, out, err = tap_cli.run("--gpu", "sm_90", "--driver", "13.0", rules("libkept_rdc_sm80.so"))
    assert (b"  sm_90 (--gpu sm_90): none, its 1 module the CUDA runtime registers cannot load\n"
            b"    (no kernel image for sm_90), nor has its 1 -rdc object an image the runtime\n"
            b"    could link for sm_90: every kernel launched through the runtime fails; only\n"
            b"    1 module that it loads itself loads\n") in out, out


@test
def rdc_libraries_of_cuda_11_8_fare_as_the_h200_ran_them():
    """Rules 5 and 12 with CUDA 11.8's nvcc and runtime (scripts/make-rdc-runtimes.sh; Debian
    12's toolkit, clang-14 as host compiler): on the H200 (driver 580.159.04, lazy and eager,
    the library's own runtime asked) the kernel of libkept_loads.so (code=sm_80) failed with
    209 and that of librdc_sm80.so (-rdc code=sm_80) with 500, while each library's kept sm_90
    code ran; librdc_ptx.so's (-rdc code=[sm_80,compute_80]) ran; librdc_mix.so ran its PTX
    object's kernel and failed the other's with 500."""
    cases = (("libkept_loads.so", 1, "none", None), ("librdc_sm80.so", 1, "none", None),
             ("librdc_ptx.so", 0, "ok", 1), ("librdc_mix.so", 0, "partial", None))
    for name, code, status, runtime_linked in cases:
        rc, f, err = judge(rules(os.path.join("cuda11.8", name)), "--gpu", "sm_90", "--driver", "13.0")
        v = f["verdicts"][0]
        eq((rc, err, v["status"], v.get("runtime_linked"), f["runtime"]["decided_by"]),
           (code, "", status, runtime_linked, "libcudart.so.11.0"), name)


@test
def the_runtime_links_only_what_it_can_read_and_only_for_want_of_an_image():
    """Rule 5, after a review (2026-12-02) found false oks on the H200: an -rdc object's PTX
    that the target's JIT cannot read (a byte outside ASCII: error 218) gives the runtime
    nothing to link (nor does one calling a function defined nowhere: the next test), and a
    device link output that fails for another reason than a missing image (a damaged cubin:
    error 200) is not made up for by the objects."""
    path = rules("librdc_plain.so")
    rc, f, err = judge(path, "--gpu", "sm_90", "--driver", "13.0")
    eq((rc, f["verdicts"][0]["status"], f["verdicts"][0].get("runtime_linked")), (0, "ok", 1))
    data = open(path, "rb").read()
    blank = b"\n" * 8 + b".version 9.0\n.target sm_80\n"
    eq(data.count(blank), 1)
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "e9.so")  # a comment with an "e acute" in Latin-1: JITs from 13.0 refuse it
        open(p, "wb").write(data.replace(blank, b"//\xe9\xe9\n\n\n\n" + blank[8:]))
        rc, f, err = judge(p, "--gpu", "sm_90", "--driver", "13.0")
        v = f["verdicts"][0]
        eq((rc, v["status"], v.get("runtime_linked")), (1, "none", None))
        # The device link step's sm_80 cubin with its ELF magic overwritten: on sm_80 the driver
        # refuses it (a review's library so damaged failed with error 200 on the H200, on sm_90,
        # though its object had PTX), and the runtime does not link the objects instead.
        container = data.index(b"\x50\xed\x55\xba")  # the first container in the file: .nv_fatbin's
        entry = container + struct.unpack_from("<H", data, container + 6)[0]
        image = entry + struct.unpack_from("<I", data, entry + 4)[0]
        eq(data[image:image + 4], b"\x7fELF")
        p = os.path.join(d, "damaged.so")
        open(p, "wb").write(data[:image] + b"XELF" + data[image + 4:])
        rc, f, err = judge(p, "--gpu", "sm_80", "--driver", "13.0")
        eq([(c["offset"], c.get("device_link")) for c in f["containers"]][0], (container, True))
        v = f["verdicts"][0]
        eq((rc, v["status"], v.get("runtime_linked"), v.get("damaged_cubins")), (1, "none", None, 1))


@test
def rdc_calls_link_where_another_object_defines_the_function():
    """Rule 5: -rdc PTX that calls a function it does not define links where another object the
    runtime links defines it (the review's xref.so and dp.so ran on the H200) and not where none
    does (a call into nothing failed with 300). librdc_xref.so: a kernel calling fc_rdc_twice,
    defined in the other object; patched so that the caller's PTX alone names another function."""
    path = rules("librdc_xref.so")
    rc, f, err = judge(path, "--gpu", "sm_90", "--driver", "13.0")
    eq((rc, f["verdicts"][0]["status"], f["verdicts"][0].get("runtime_linked")), (0, "ok", 1))
    data = open(path, "rb").read()
    texts = [i for i in range(len(data)) if data.startswith(b".version 9.0\n", i)]
    callers = [i for i in texts if b".extern .func" in data[i:data.index(b"\0", i)]]
    eq((len(texts), len(callers)), (2, 1))
    start, end = callers[0], data.index(b"\0", callers[0])
    caller = data[start:end]
    assert caller.count(b"_Z12fc_rdc_twicef") >= 2, caller
    patched = data[:start] + caller.replace(b"_Z12fc_rdc_twicef", b"_Z12fc_rdc_twiceX") + data[end:]
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "nowhere.so")
        open(p, "wb").write(patched)
        rc, f, err = judge(p, "--gpu", "sm_90", "--driver", "13.0")
        eq((rc, f["verdicts"][0]["status"], f["verdicts"][0].get("runtime_linked")), (1, "none", None))
        rc, f, err = judge(p, "--gpu", "sm_80", "--driver", "13.0")  # its linked sm_80 image loads
        eq((rc, f["verdicts"][0]["status"]), (0, "ok"))


@test
def rdc_objects_without_kernels_do_not_make_rule_12_pass():
    """Rule 12: registered code fails where none of the -rdc objects with a kernel links
    either; one of device functions alone (libcudadevrt's, which dynamic parallelism links in)
    gives the runtime's own link nothing to launch. libkept_rdc_devfn.so: a kernel's object for
    sm_100 only, its device function's for sm_90 and sm_100, kept code for sm_75, sm_86 and
    sm_90; on sm_90 it was `partial`, exit 0."""
    path = rules("libkept_rdc_devfn.so")
    rc, f, err = judge(path, "--gpu", "sm_90,sm_100", "--driver", "13.0")
    eq((rc, [(v["status"], v.get("rdc_unlinkable")) for v in f["verdicts"]]), (1, [("none", 1), ("partial", None)]))
    rc, out, err = tap_cli.run("--gpu", "sm_90", "--driver", "13.0", path)
    assert (b"  sm_90 (--gpu sm_90): none, its 1 module the CUDA runtime registers cannot load\n"
            b"    (no kernel image for sm_90), nor has its 1 -rdc object an image the runtime\n"
            b"    could link for sm_90: every kernel launched through the runtime fails; only\n") in out, out


@test
def relocation_tables_cost_what_the_file_holds():
    """Hostile input (review of 2026-12-02, H1): 20,000 relocation section headers naming one
    16 MiB block beside a 2 MiB data section were each read whole, 320 GB in all (55 s for
    60,000); reading is now capped at the file's size, and the file is judged at once."""
    data = open(rules("libkept_deep.so"), "rb").read()
    block = 16 << 20

    def more(blob, names):
        yield (names[".rodata"], 1, 2, 1 << 40, blob, 2 << 20, 0)  # SHT_PROGBITS, SHF_ALLOC
        for _ in range(20000):
            yield (names[".rela.dyn"], 4, 2, 0, blob, block - block % 24, 24)  # SHT_RELA
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "many_rela.so")
        open(p, "wb").write(with_more_sections(data, block, more))
        rc, f, err = judge(p, "--gpu", "sm_90", "--driver", "13.0")
        eq((rc, f["verdicts"][0]["status"]), (1, "none"))  # as the file itself: its kept sm_90 code alone fits


@test
def a_container_behind_many_smaller_pointed_objects_is_found():
    """The pointer search looks at the 256 addresses whose objects reach furthest (review of
    2026-12-02, F2: grouped by powers of two and taken in address order, a container reaching
    4,000 bytes after 255 objects of 2,056 was passed over): kept_behind_pointers' copy of
    libkept_deep.so's fat binary, behind 301 smaller objects, is found."""
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "behind.so")
        data, container = kept_behind_pointers(open(rules("libkept_deep.so"), "rb").read())
        open(p, "wb").write(data)
        for args in ((), ("--embedded",)):
            rc, f, err = judge(p, *args, "--gpu", "sm_90", "--driver", "13.0")
            eq(sum(c["origin"] == "embedded" and c["offset"] == container for c in f["containers"]), 1, args)
        # Behind 4 Mi relocations of another kind (97 MiB), which took the room for addresses
        # (review of 2026-12-07, rv25 5): found.
        data, container = kept_behind_pointers(open(rules("libkept_deep.so"), "rb").read(), junk=(1 << 22) + 10)
        open(p, "wb").write(data)
        rc, f, err = judge(p, "--gpu", "sm_90", "--driver", "13.0")
        eq(sum(c["origin"] == "embedded" and c["offset"] == container for c in f["containers"]), 1, "junk first")


@test
def rdc_objects_are_known_by_their_records_without_a_section_table():
    """Rule 5 without __nv_relfatbin's name: nvcc gives each -rdc object a version-1
    registration record that only the device link step's code reads, beside the output's
    version-2 one. With the section table gone, a container a version-1 record leads to that
    holds relocatable code only is such an object, not a module the runtime registers (they
    were judged as modules: libkept_rdc_ptx.so, whose kernel ran on the H200, was "none"), and
    the output's 16-byte empty container (libptxonly.so) is no damaged registration. Each file
    is judged as with its section table, on every target."""
    targets = "sm_75,sm_80,sm_86,sm_90,sm_100,sm_120"
    with tempfile.TemporaryDirectory() as d:
        for name in ("librdc_plain.so", "librdc_xref.so", "libkept_rdc_ptx.so", "libkept_rdc_sm80.so",
                     "libkept_rdc_mix.so", "libkept_rdc.so", "libptxonly.so", "libkept_ptxstub.so"):
            stripped = os.path.join(d, name)
            open(stripped, "wb").write(without_section_table(open(rules(name), "rb").read()))
            rc, f, err = judge(rules(name), "--gpu", targets, "--driver", "13.0")
            rc2, f2, err2 = judge(stripped, "--gpu", targets, "--driver", "13.0")
            eq((rc2, [v["status"] for v in f2["verdicts"]]), (rc, [v["status"] for v in f["verdicts"]]), name)
            roles = sorted((c["role"], bool(c.get("device_link"))) for c in f["containers"] if c["origin"] != "embedded")
            roles2 = sorted((c["role"], bool(c.get("device_link"))) for c in f2["containers"] if c["origin"] != "embedded")
            eq(roles2, roles, name)
        rc, out, err = tap_cli.run("--gpu", "sm_80", "--driver", "13.0", os.path.join(d, "libkept_rdc_sm80.so"))
        assert (b"    note: 1 -rdc object not counted: the runtime registers the device link\n"
                b"          step's output\n") in out, out
        # Whole-program code (version-1 records, no output) stays registered modules.
        stripped = os.path.join(d, "libkept_loads.so")
        open(stripped, "wb").write(without_section_table(open(rules("libkept_loads.so"), "rb").read()))
        rc, f, err = judge(stripped, "--gpu", "sm_90", "--driver", "13.0")
        eq(sorted((c["origin"], c["role"]) for c in f["containers"]),
           [("embedded", "module"), ("wrapper", "module"), ("wrapper", "module")])


NOTE_13 = b"ptxas\0Cuda compilation tools, release 13.0, V13.0.88\0"
NOTE_12_8 = b"ptxas\0Cuda compilation tools, release 12.8, V12.8.93\0"


def from_ptxas(data, release, note=NOTE_13):
    """DATA (liblineinfo*.so) with its cubin's toolkit NOTE made to name ptxas of RELEASE, or
    another tool, in as many bytes."""
    data = bytes(data)
    eq((data.count(note), len(release)), (1, len(note)))
    return data.replace(note, release)


def as_12_8(data):
    """DATA (liblineinfo.so, built by nvcc 13.0) as a CUDA 12.8 build, as liblineinfo_e9.so is:
    its cubin's note names ptxas 12.8, whose input may hold bytes outside ASCII (ptxas 13.0
    refuses them: ascii_by_ptxas)."""
    return from_ptxas(data, NOTE_12_8)


@test
def registered_ptx_beside_a_linked_cubin_is_still_read_for_its_bytes():
    """Review 8, A3: a -lineinfo build puts its source's path in the PTX's .file string; built in
    a folder named with an 'é' (0xE9) the CUDA 13 driver's JIT refuses it (tests/oracle's
    kernels.utf8file.ptx, driver 580.159.04: CUDA_ERROR_INVALID_PTX). PTX registered beside a
    linked cubin was never read, and such a build was judged to JIT on sm_90. nvcc 13.0 cannot
    make one (its ptxas refuses the PTX): the fixture's note names ptxas 12.8."""
    rc, f, err = judge(rules("liblineinfo_e9.so"), "--gpu", "sm_90,sm_80", "--driver", "13.0")
    eq((rc, err), (1, ""))
    eq([l["result"] for l in f["containers"][1]["loads"]], ["CUDA_ERROR_INVALID_PTX", "CUDA_SUCCESS"])
    eq([(v["status"], v["invalid_ptx"]) for v in f["verdicts"]], [("none", 1), ("ok", 0)])
    # the same build from a folder named in ASCII: the PTX is read and loads
    rc, f, err = judge(rules("liblineinfo.so"), "--gpu", "sm_90", "--driver", "13.0")
    eq((rc, f["containers"][1]["loads"][0]["result"], f["verdicts"][0]["status"]), (0, "CUDA_SUCCESS", "ok"))


@test
def ptx_beside_a_cubin_ptxas_13_compiled_from_it_is_not_read():
    """ptxas 13.0 refuses a byte outside ASCII anywhere in PTX (fixtures/rules/make.sh checks it),
    so PTX of 1 MiB or more beside a linked cubin of its architecture from that ptxas holds
    none, and is not inflated to be sure (cuSPARSELt's 70 MB compute_75 module); smaller PTX is
    read (a review made one by hand, edited after ptxas ran). Shown with a build no nvcc 13
    makes: liblineinfo_e9.so with its cubin's note made ptxas 13.0's loads, its 0xE9 bytes
    unread, also with the cubin stored zstd (the notes found by inflating its first part); the
    same note written by another tool, by a ptxas of 12.8 (as built) or 9.2, or a cubin of
    another architecture, proves nothing, and the PTX is read. ('a' PTX, always read, cannot be
    shown here: sm_90 does not JIT compute_80a.)"""
    import struct
    data = from_ptxas(open(rules("liblineinfo_e9.so"), "rb").read(), NOTE_13, NOTE_12_8)
    rc, f, err = judge(rules("liblineinfo_e9.so"), "--gpu", "sm_90", "--driver", "13.0")
    eq([(e["kind"], e["arch"]) for e in f["containers"][1]["entries"]], [("ptx", "compute_80"), ("cubin", "sm_80")])
    other_arch = bytearray(data)  # the cubin's entry made sm_86's: PTX and cubin of two architectures
    ptx, cubin = f["containers"][1]["entries"]
    hdr = cubin["offset"]
    zstd_cubin = bytes(zstd_ptx(bytearray(data), hdr, cubin["payload_offset"], cubin["size"]))
    eq(struct.unpack_from("<I", other_arch, hdr + 28)[0], 80)
    struct.pack_into("<I", other_arch, hdr + 28, 86)

    def large(image):
        """IMAGE with its PTX stored zstd and declared 2 MiB: the notes are trusted from 1 MiB on
        (smaller PTX is read: a hand-assembled fat binary can hold PTX edited after ptxas ran)."""
        b = zstd_ptx(bytearray(image), ptx["offset"], ptx["payload_offset"], ptx["size"])
        struct.pack_into("<Q", b, ptx["offset"] + 56, 2 << 20)
        return bytes(b)
    with tempfile.TemporaryDirectory() as tmp:
        for name, image, result in (
                ("13.0", large(data), "CUDA_SUCCESS"),
                ("13.0, PTX of %d bytes" % ptx["size"], data, "CUDA_ERROR_INVALID_PTX"),
                ("nvlink", large(from_ptxas(data, b"nvlnk\0Cuda compilation tools, release 13.0, V13.0.88\0")),
                 "CUDA_ERROR_INVALID_PTX"),
                ("12.8", large(as_12_8(data)), "CUDA_ERROR_INVALID_PTX"),
                ("9.2", large(from_ptxas(data, b"ptxas\0Cuda compilation tools, release 9.2, V9.2.88.0\0")),
                 "CUDA_ERROR_INVALID_PTX"),
                ("13.1", large(from_ptxas(data, b"ptxas\0Cuda compilation tools, release 13.1, V13.1.80\0")),
                 "CUDA_SUCCESS"),
                ("sm_86 cubin", large(bytes(other_arch)), "CUDA_ERROR_INVALID_PTX"),
                ("13.0, cubin stored zstd", large(zstd_cubin), "CUDA_SUCCESS")):
            path = os.path.join(tmp, "lib.so")
            open(path, "wb").write(image)
            rc, f, err = judge(path, "--gpu", "sm_90", "--driver", "13.0")
            eq((name, [l["result"] for l in f["containers"][1]["loads"]]), (name, [result]))

@test
def ptx_beside_a_cubin_from_other_ptx_is_read():
    """nvcc compiles a cubin from other PTX than it stores: libother_virtual.so (nvcc 13.0) holds
    an sm_86 cubin compiled from compute_80 PTX, and compute_86 PTX that ptxas never read, with
    a byte outside ASCII in inline PTX only compute_86 gets. On the H200 (driver 580.159.04) its
    kernel failed with cudaErrorInvalidPtx (review of 2026-12-02); the cubin's notes name ptxas
    13.0 but compute_80, so the PTX is read. Judged ok by cbf958f, which asked the note's
    release and the cubin's architecture only."""
    rc, f, err = judge(rules("libother_virtual.so"), "--gpu", "sm_90,sm_86", "--driver", "13.0")
    eq([(e["kind"], e["arch"]) for e in f["containers"][1]["entries"]], [("cubin", "sm_86"), ("ptx", "compute_86")])
    eq((rc, [l["result"] for l in f["containers"][1]["loads"]]), (1, ["CUDA_ERROR_INVALID_PTX", "CUDA_SUCCESS"]))
    eq([v["status"] for v in f["verdicts"]], ["none", "ok"])


def inventory(tmp, *drivers):
    """An nvidia-smi inventory of one H100 per driver, in that order."""
    path = os.path.join(tmp, "inventory.csv")
    with open(path, "w") as f:
        f.write("index, name, compute_cap, driver_version\n")
        for i, d in enumerate(drivers):
            f.write("%d, NVIDIA H100 80GB HBM3, 9.0, %s\n" % (i, d))
    return path


def ptx_entry(path):
    """(entry header offset, payload offset, stored size) of liblineinfo*.so's PTX entry."""
    rc, f, err = judge(path, "--gpu", "sm_90", "--driver", "13.0")
    e = [e for e in f["containers"][1]["entries"] if e["kind"] == "ptx"][0]
    return e["offset"], e["payload_offset"], e["size"]


def zstd_ptx(data, hdr, at, size):
    """DATA with the PTX entry at HDR stored as a zstd frame, as nvcc stores PTX by default: the
    frame at the payload's start, its size at +16, the image's at +56, flag 0x8000."""
    import struct
    import subprocess
    frame = subprocess.run(["zstd", "-q", "-c", "-19"], input=bytes(data[at:at + size]), stdout=subprocess.PIPE,
                           check=True).stdout
    assert len(frame) < size, (len(frame), size)
    data[at:at + size] = frame + bytes(size - len(frame))
    struct.pack_into("<I", data, hdr + 16, len(frame))
    struct.pack_into("<Q", data, hdr + 56, size)
    struct.pack_into("<Q", data, hdr + 40, struct.unpack_from("<Q", data, hdr + 40)[0] | 0x8000)
    return data


@test
def ptx_beside_a_linked_cubin_read_once_for_several_drivers():
    """PTX registered beside a linked cubin is read for its bytes outside ASCII once per
    container, not once per target, and stored zstd it is inflated a piece at a time: each
    target still gets its own driver's rule. A comment holding bytes outside ASCII fails CUDA
    13's JIT and not CUDA 12.8's (non_ascii_fails), whichever target comes first; a .file string
    fails both. The variants are patched here: the comment written over liblineinfo.so's
    leading blank lines, its .version made 8.7 (what a 12.8 driver reads), and each stored as
    zstd as nvcc stores PTX; both as CUDA 12.8 builds (as_12_8, and liblineinfo_e9.so as built)."""
    import struct
    hdr, at, size = ptx_entry(rules("liblineinfo.so"))
    comment = bytearray(as_12_8(open(rules("liblineinfo.so"), "rb").read()))
    assert comment[at:at + 8] == b"\n" * 8
    comment[at:at + 8] = b"//\xe9t\xe9\n\n\n"
    v = comment.index(b".version 9.0", at)
    comment[v:v + 12] = b".version 8.7"
    assert struct.unpack_from("<HH", comment, hdr + 24) == (0, 9)
    struct.pack_into("<HH", comment, hdr + 24, 7, 8)
    in_string = bytearray(open(rules("liblineinfo_e9.so"), "rb").read())
    v = in_string.index(b".version 9.0", at)
    in_string[v:v + 12] = b".version 8.7"
    struct.pack_into("<HH", in_string, hdr + 24, 7, 8)
    old, new = "570.86.10", "580.65.06"
    with tempfile.TemporaryDirectory() as tmp:
        for name, data, loads in (("comment", comment, {old: "CUDA_SUCCESS", new: "CUDA_ERROR_INVALID_PTX"}),
                                  ("string", in_string, {old: "CUDA_ERROR_INVALID_PTX",
                                                         new: "CUDA_ERROR_INVALID_PTX"})):
            for stored, image in (("plain", bytes(data)), ("zstd", bytes(zstd_ptx(bytearray(data), hdr, at, size)))):
                path = os.path.join(tmp, "lib%s_%s.so" % (name, stored))
                open(path, "wb").write(image)
                for order in ((old, new), (new, old)):
                    rc, f, err = judge(path, "--gpus-from", inventory(tmp, *order))
                    eq((name, stored, order, f["containers"][1]["entries"][0]["compression"],
                        [l["result"] for l in f["containers"][1]["loads"]]),
                       (name, stored, order, "none" if stored == "plain" else "zstd", [loads[d] for d in order]))


def ptx_fatbin(text, arch, isa=(9, 0)):
    """A bare fat binary of one uncompressed PTX entry, as fatbinary lays it out: TEXT and a NUL,
    padded to 8 bytes, under an entry header saying compute_ARCH and ISA whatever the text says
    (fatbinary --image3=kind=ptx,sm=N stores the N it is given)."""
    import struct
    payload = text + b"\0"
    payload += bytes(-len(payload) % 8)
    entry = struct.pack("<HHIQIIHHIIIQQQ", 1, 0x0101, 64, len(payload), 0, 0, isa[1], isa[0], arch, 0, 0, 0x11, 0, 0)
    return struct.pack("<IHHQ", 0xBA55ED50, 1, 16, len(entry) + len(payload)) + entry + payload


@test
def ptx_is_compiled_as_its_text_says():
    """Review of 2026-12-03 (F1, F2, F4, F5, M3): the JIT takes .version and .target from the
    text, not from the entry header, and refuses text it cannot inflate. What the H200's driver
    (580.159.04) answered for the review's files: .target sm_100 stored as compute_90 218 on
    sm_90, .version 9.1 under a header saying 9.0 222, a byte flipped in the zstd frame and a
    declared size halved or made 4 times larger 999 ("Uncompress failed"), text without
    .version 218. Each was judged ok on sm_90, exit 0. Built here from fixtures/kernels.ptx."""
    import struct
    ptx = open(os.path.join(FIXTURES, "kernels.ptx"), "rb").read()
    assert b".version 9.0\n.target sm_89\n" in ptx

    def text(target=b"sm_89", version=b"9.0"):
        return ptx.replace(b".version 9.0", b".version " + version).replace(b".target sm_89", b".target " + target)

    cases = [  # (name, text, header arch, header ISA, {target: result})
        ("honest sm_89", text(), 89, (9, 0), {"sm_90": "CUDA_SUCCESS", "sm_80": "CUDA_ERROR_NO_BINARY_FOR_GPU"}),
        (".target sm_100 stored as compute_90", text(b"sm_100"), 90, (9, 0),
         {"sm_90": "CUDA_ERROR_INVALID_PTX", "sm_100": "CUDA_SUCCESS"}),
        (".target sm_90 stored as compute_75", text(b"sm_90"), 75, (9, 0),
         {"sm_80": "CUDA_ERROR_INVALID_PTX", "sm_90": "CUDA_SUCCESS"}),
        (".target sm_90a stored as compute_90", text(b"sm_90a"), 90, (9, 0),
         {"sm_90": "CUDA_SUCCESS", "sm_100": "CUDA_ERROR_INVALID_PTX", "sm_120": "CUDA_ERROR_INVALID_PTX"}),
        (".target sm_100f stored as compute_100", text(b"sm_100f"), 100, (9, 0),
         {"sm_103": "CUDA_SUCCESS", "sm_120": "CUDA_ERROR_INVALID_PTX"}),
        (".target compute_80 (ptxas takes it)", text(b"compute_80"), 80, (9, 0), {"sm_90": "CUDA_SUCCESS"}),
        (".target sm_89, debug words after", text(b"sm_89, texmode_independent"), 89, (9, 0),
         {"sm_90": "CUDA_SUCCESS"}),
        (".version 9.1 under a header saying 9.0", text(version=b"9.1"), 89, (9, 0),
         {"sm_90": "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"}),
        (".version 7.0 below sm_89's 7.8", text(version=b"7.0"), 89, (9, 0), {"sm_90": "CUDA_ERROR_INVALID_PTX"}),
        ("no .version", ptx.replace(b".version 9.0", b"// no version"), 89, (9, 0),
         {"sm_90": "CUDA_ERROR_INVALID_PTX"}),
        ("no .target", ptx.replace(b".target sm_89", b"// no target"), 89, (9, 0),
         {"sm_90": "CUDA_ERROR_INVALID_PTX"}),
        (".address_size 32 (CUDA 13 compiles no 32-bit code)", ptx.replace(b".address_size 64", b".address_size 32"),
         89, (9, 0), {"sm_90": "CUDA_ERROR_INVALID_PTX"}),
        # ptxas 13.0: "Debug information not found in presence of .target debug"; 218 on the
        # H200 (red-team review of 2026-12-03). One .debug_ section satisfies ptxas.
        (".target sm_89, debug without debug information", text(b"sm_89, debug"), 89, (9, 0),
         {"sm_90": "CUDA_ERROR_INVALID_PTX"}),
        (".target sm_89, debug with a .debug_abbrev section", text(b"sm_89, debug") +
         b"\n\t.section\t.debug_abbrev\n\t{\n.b8 1\n.b8 0\n\t}\n", 89, (9, 0), {"sm_90": "CUDA_SUCCESS"}),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for name, body, arch, isa, want in cases:
            path = os.path.join(tmp, "k.fatbin")
            open(path, "wb").write(ptx_fatbin(body, arch, isa))
            gpus = ",".join(t.replace("sm_", "") for t in want)
            rc, f, err = judge(path, "--gpu", gpus, "--driver", "13.0")
            got = {l["target"]: l["result"] for l in f["containers"][0]["loads"]}
            eq((name, got, rc), (name, want, 0 if all(r == "CUDA_SUCCESS" for r in want.values()) else 1))
        # stored zstd, as nvcc stores PTX: the frame damaged, its declared size wrong
        data = bytearray(ptx_fatbin(text(), 89))
        size = struct.unpack_from("<Q", data, 16 + 8)[0]
        good = zstd_ptx(data, 16, 80, size)
        frame = struct.unpack_from("<I", good, 16 + 16)[0]
        flipped = bytearray(good)
        flipped[80 + frame // 2] ^= 0x40
        small, big = bytearray(good), bytearray(good)
        struct.pack_into("<Q", small, 16 + 56, size // 2)
        struct.pack_into("<Q", big, 16 + 56, size * 4)
        for name, image, want in (("zstd", good, "CUDA_SUCCESS"), ("a byte of the frame flipped", flipped,
                                                                  "UNCOMPRESS_FAILED"),
                                  ("declared size halved", small, "UNCOMPRESS_FAILED"),
                                  ("declared size 4 times", big, "UNCOMPRESS_FAILED")):
            path = os.path.join(tmp, "z.fatbin")
            open(path, "wb").write(bytes(image))
            rc, f, err = judge(path, "--gpu", "9.0", "--driver", "13.0")
            eq((name, f["containers"][0]["loads"][0]["result"], rc), (name, want, 0 if want == "CUDA_SUCCESS" else 1))
        # a compressed size of 0 (999 on the H200): no real entry has it, so the file is damaged
        zero = bytearray(good)
        struct.pack_into("<I", zero, 16 + 16, 0)
        path = os.path.join(tmp, "z0.fatbin")
        open(path, "wb").write(bytes(zero))
        rc, out, err = tap_cli.run("--gpu", "9.0", "--driver", "13.0", path)
        eq((rc, err.decode()), (3, "fatcheck: %s: offset 0x10: a compressed entry whose compressed size is 0\n" % path))


def cubin_fatbin(*images):
    """A bare fat binary of uncompressed cubins: (header arch, variant "", "a" or "f", cubin)."""
    import struct
    body = b""
    for arch, variant, cubin in images:
        payload = cubin + bytes(-len(cubin) % 8)
        flags = 0x11 | {"": 0, "a": 0x100000, "f": 0x200000}[variant]
        body += struct.pack("<HHIQIIHHIIIQQQ", 2, 0x0101, 64, len(payload), 0, 0, 8, 1, arch, 0, 0, flags, 0, 0)
        body += payload
    return struct.pack("<IHHQ", 0xBA55ED50, 1, 16, len(body)) + body


@test
def the_driver_chooses_sm_90a_before_sm_90_and_the_newest_ptx():
    """Rule 3, review of 2026-12-03 (b1, b1b, v21b, b2, b3; fixtures/rules/choice/README.md):
    on 9.0 the H200's driver (580.159.04) chose the sm_90a cubin before the sm_90 one in either
    order, and the newest PTX whatever its ISA, falling back to nothing. Before, the first native
    cubin was taken (b1 ok, exit 0, where the driver answered 300; v21b none where it loaded)
    and older PTX when the newest was too new for the driver (b2 ok through compute_75, 222)."""
    for name, result, entry in (("b1_good90_bad90a", "CUDA_ERROR_INVALID_SOURCE", 1),
                                ("b1b_bad90a_good90", "CUDA_ERROR_INVALID_SOURCE", 0),
                                ("v21b_bad90_then_90a", "CUDA_SUCCESS", 1),
                                ("b2_ptx80isa91_ptx75", "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", 0),
                                ("b3_ptxext90_ptx75", "CUDA_ERROR_INVALID_PTX", 0)):
        rc, f, err = judge(rules(os.path.join("choice", name + ".fatbin")), "--gpu", "sm_90", "--driver", "13.0")
        load = f["containers"][0]["loads"][0]
        eq((name, rc, err, load["result"], load["via"]["entry"], f["verdicts"][0]["status"]),
           (name, 0 if result == "CUDA_SUCCESS" else 1, "", result, entry,
            "ok" if result == "CUDA_SUCCESS" else "none"))
    # ISA 9.1 is what a 13.1 driver takes: then compute_80 is compiled
    rc, f, err = judge(rules("choice/b2_ptx80isa91_ptx75.fatbin"), "--gpu", "sm_90", "--driver", "13.1")
    load = f["containers"][0]["loads"][0]
    eq((rc, load["result"], load["via"]), (0, "CUDA_SUCCESS", {"kind": "jit", "image": "compute_80", "entry": 0}))


@test
def where_the_drivers_order_was_never_seen_every_image_it_may_choose_must_load():
    """Rule 3: no driver here has shown its order between an f cubin and any other, or between
    an a cubin and a plain one beyond 9.0 (only an H200 is lent). Where one of the images it
    might choose fails, the module counts as failing (unseen_order), which a normal build,
    every image good, never meets. An sm_90 cubin stored under an sm_100 or sm_100f header is
    the damaged image (the driver answers 300 for such on 9.0). Before, each was ok, exit 0,
    when the damaged image was not the one fatcheck took first."""
    good100 = open(os.path.join(FIXTURES, "kernels.sm_100.cubin"), "rb").read()
    good100f = open(os.path.join(FIXTURES, "kernels.sm_100f.cubin"), "rb").read()
    sm90 = open(os.path.join(FIXTURES, "kernels.sm_90.cubin"), "rb").read()
    cases = [  # (name, images, gpu, want result, want unseen_order)
        ("sm_100 good, sm_100f good", [(100, "", good100), (100, "f", good100f)], "10.0", "CUDA_SUCCESS", 0),
        ("sm_100 good, sm_100f good on 10.3", [(100, "", good100), (100, "f", good100f)], "10.3",
         "CUDA_SUCCESS", 0),
        ("sm_100 good, sm_100f damaged", [(100, "", good100), (100, "f", sm90)], "10.0",
         "CUDA_ERROR_INVALID_SOURCE", 1),
        ("sm_100f damaged, sm_100 good, on 10.3", [(100, "f", sm90), (100, "", good100)], "10.3",
         "CUDA_ERROR_INVALID_SOURCE", 1),
        ("sm_100f good, sm_100 damaged", [(100, "f", good100f), (100, "", sm90)], "10.0",
         "CUDA_ERROR_INVALID_SOURCE", 0),
        ("sm_100a good, sm_100 damaged", [(100, "a", good100), (100, "", sm90)], "10.0",
         "CUDA_ERROR_INVALID_SOURCE", 1),
        ("sm_100a damaged, sm_100 good", [(100, "a", sm90), (100, "", good100)], "10.0",
         "CUDA_ERROR_INVALID_SOURCE", 0),
        ("sm_100 damaged beside sm_100f good, on 12.0: neither fits", [(100, "", sm90), (100, "f", good100f)],
         "12.0", "CUDA_ERROR_NO_BINARY_FOR_GPU", 0),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "c.fatbin")
        for name, images, gpu, want, unseen in cases:
            open(path, "wb").write(cubin_fatbin(*images))
            rc, f, err = judge(path, "--gpu", gpu, "--driver", "13.0")
            v = f["verdicts"][0]
            eq((name, rc, err, f["containers"][0]["loads"][0]["result"], v.get("unseen_order", 0)),
               (name, 0 if want == "CUDA_SUCCESS" else 1, "", want, unseen))
        open(path, "wb").write(cubin_fatbin((100, "", good100), (100, "f", sm90)))
        rc, out, err = tap_cli.run("--gpu", "10.0", "--driver", "13.0", path)
        assert b"1 module holds an image the driver may choose instead of the one fatcheck\n" in out, out


@test
def a_file_that_registers_code_but_holds_none_is_an_error():
    """Review of 2026-12-03, F8: `objcopy --remove-section .nv_fatbin --remove-section
    .nvFatBinSegment` of a library left "no CUDA code", exit 0, though it still imports
    __cudaRegisterFatBinary and its kernels fail at launch (200 on the H200). Now exit 3, saying
    why; the untouched library and a copy that keeps one of the two are as before."""
    import shutil
    import subprocess
    if not shutil.which("objcopy"):
        print("# SKIP objcopy absent")
        return
    with tempfile.TemporaryDirectory() as tmp:
        gone = os.path.join(tmp, "libmulti.nofatbin.so")
        subprocess.run(["objcopy", "--remove-section", ".nv_fatbin", "--remove-section", ".nvFatBinSegment",
                        os.path.join(FIXTURES, "libmulti.so"), gone], check=True)
        rc, out, err = tap_cli.run("--gpu", "9.0", "--driver", "13.0", gone)
        eq(rc, 3)
        assert b"no CUDA code" not in out, out
        assert err.decode().startswith("fatcheck: " + gone + ": it registers CUDA code with the runtime (it imports "
                                       "__cudaRegisterFatBinary) but holds no fat binary"), err
        rc, out, err = tap_cli.run("--gpu", "9.0", "--driver", "13.0", os.path.join(FIXTURES, "libmulti.so"))
        eq(rc, 0)


def as_ptxas(cubin, release, sm=None):
    """CUBIN (nvcc 13.0's: ELF ABI 8, OS/ABI 65, e_version 1) with the identity CUDA 11's and 12's
    ptxas write: ELF ABI 7, OS/ABI 51, the SM in e_flags' low byte (its virtual arch in bits
    16-23), and e_version the ptxas release times ten (bench/cubin_survey: 114 to 118 in CUDA
    11.8's libraries, 120 to 124 in CUDA 12.2 and 12.4 builds); its header says SM if given."""
    c = bytearray(cubin)
    eq((c[7], c[8], int.from_bytes(c[20:24], "little")), (65, 8, 1))
    sm = sm or c[49]
    c[7], c[8] = 51, 7
    c[20:24] = release.to_bytes(4, "little")
    c[48:52] = (sm | 0x05 << 8 | sm << 16).to_bytes(4, "little")
    return bytes(c)


def lz4_literals(data):
    """DATA as a raw LZ4 block of one sequence of literals (valid LZ4, nothing matched)."""
    n, token = len(data), bytearray()
    if n < 15:
        token.append(n << 4)
    else:
        token.append(0xF0)
        n -= 15
        while n >= 255:
            token.append(255)
            n -= 255
        token.append(n)
    return bytes(token) + data


def fatbin_of_old_cubin(cubin, arch, lz4=False):
    """A bare fat binary of CUBIN under an entry saying code version 1.7 (CUDA 11's and 12's
    toolchains), stored as it is or LZ4-compressed."""
    stored = lz4_literals(cubin) if lz4 else cubin
    payload = stored + bytes(-len(stored) % 8)
    entry = struct.pack("<HHIQIIHHIIIQQQ", 2, 0x0101, 64, len(payload), len(stored) if lz4 else 0, 0, 7, 1, arch,
                        0, 0, 0x11 | (0x2000 if lz4 else 0), 0, len(cubin) if lz4 else 0)
    return struct.pack("<IHHQ", 0xBA55ED50, 1, 16, len(entry) + len(payload)) + entry + payload


@test
def cubins_of_a_later_cuda_major_than_the_driver_do_not_run():
    """Rule 13 for CUDA 12's cubins (ELF ABI 7, as CUDA 11's): their e_version names the ptxas
    release (124 for 12.4), and a driver older than CUDA 12.0 does not run them (Triton's CUDA
    12.3 cubins on a 470 driver: "device kernel image is invalid", pytorch issue 119054). A
    CUDA 12.4 cubin was "ok" with --driver 470.57.02, exit 0, bare, in a fat binary stored as it
    is or LZ4-compressed. One of CUDA 11.8 stays ok on an 11.x driver, and a 12.4 one on 12.0."""
    base = open(os.path.join(FIXTURES, "kernels.sm_90.cubin"), "rb").read()
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for release in (124, 118):
            cubin = as_ptxas(base, release, sm=80)  # an A100's: CUDA 11.0's drivers run it
            files[(release, "cubin")] = cubin
            files[(release, "fatbin")] = fatbin_of_old_cubin(cubin, 80)
            files[(release, "lz4")] = fatbin_of_old_cubin(cubin, 80, lz4=True)
        for (release, form), data in files.items():
            path = os.path.join(tmp, "k%d_%s.%s" % (release, form, "cubin" if form == "cubin" else "fatbin"))
            open(path, "wb").write(data)
            for driver, too_new in (("470.57.02", release >= 120), ("11.8", release >= 120), ("12.0", False),
                                    ("525.60.13", False), ("440.33.01", True)):
                rc, f, err = judge(path, "--gpu", "sm_80", "--driver", driver)
                v = f["verdicts"][0]
                got = (rc, f["containers"][0]["loads"][0]["result"], v["status"], v.get("toolkit_too_new_cuda"))
                want = ((1, "TOOLKIT_TOO_NEW", "none", "%d.0" % (release // 10)) if too_new else
                        (0, "CUDA_SUCCESS", "ok", None))
                eq(got, want, (release, form, driver))
        rc, out, err = tap_cli.run("--gpu", "sm_80", "--driver", "470.57.02", os.path.join(tmp, "k124_lz4.fatbin"))
        assert (b"  sm_80 (--gpu sm_80): none, no module can load\n"
                b"    (cubins of CUDA 12's toolchain, which drivers before CUDA 12.0 do not run):\n"
                b"    every kernel launch fails with \"device kernel image is invalid\"\n"
                b"    fix: install a driver for CUDA 12.0 or newer (>= 525.60.13), or build the cubins\n"
                b"         with a toolkit of the driver's CUDA major\n") in out, out
        # CUDA 13.0's cuDNN holds ABI 7 cubins saying e_version 130: one of those bare is CUDA
        # 13.0's on a 12.x driver too (review of 2026-12-06, rv12 F5)
        path = os.path.join(tmp, "k130.cubin")
        open(path, "wb").write(as_ptxas(base, 130))
        rc, f, err = judge(path, "--gpu", "sm_90", "--driver", "12.4")
        eq((rc, f["containers"][0]["loads"][0]["result"], f["verdicts"][0].get("toolkit_too_new_cuda")),
           (1, "TOOLKIT_TOO_NEW", "13.0"))
        # The runtime's own link of -rdc objects (rule 5) dates their cubins so too (rv12 F3): a
        # library linked for sm_75 whose -rdc object has sm_80, all written as CUDA 12.4's ptxas
        # writes them, its runtime the loading process's, was ok on sm_80 with a 470 driver
        data = bytearray(open(rules("librdc_link80.so"), "rb").read())
        at, n = data.find(b"\x7fELF\x02\x01\x01\x41\x08"), 0
        while at >= 0:
            if struct.unpack_from("<H", data, at + 18)[0] == 190:
                data[at:at + 64] = as_ptxas(bytes(data[at:at + 64]), 124)[:64]
                n += 1
            at = data.find(b"\x7fELF\x02\x01\x01\x41\x08", at + 1)
        at = data.find(struct.pack("<I", 0xBA55ED50))
        while at >= 0:
            entry, end = at + struct.unpack_from("<H", data, at + 6)[0], at + 16 + struct.unpack_from("<Q", data, at + 8)[0]
            while entry + 64 <= end:
                if struct.unpack_from("<HH", data, entry + 24) == (8, 1):
                    struct.pack_into("<HH", data, entry + 24, 7, 1)
                entry += struct.unpack_from("<I", data, entry + 4)[0] + struct.unpack_from("<Q", data, entry + 8)[0]
            at = data.find(struct.pack("<I", 0xBA55ED50), at + 4)
        eq(n, 3)
        assert data.count(b"libcudart.so.13\0") >= 1
        path = os.path.join(tmp, "librdc_link80_c124.so")
        open(path, "wb").write(bytes(data).replace(b"libcudart.so.13\0", b"libfoobar.so.13\0"))
        for driver, want in (("470.57.02", (1, "none")), ("12.0", (0, "ok"))):
            rc, f, err = judge(path, "--gpu", "sm_80", "--driver", driver)
            eq((rc, f["verdicts"][0]["status"]), want, driver)
        # CUDA 13's (ABI 8) are as before: too new before 13.0, the fix naming 13.0
        rc, out, err = tap_cli.run("--gpu", "sm_90", "--driver", "12.4", os.path.join(FIXTURES, "kernels.sm_90.cubin"))
        assert (b"    (cubins of CUDA 13's toolchain, which drivers before CUDA 13.0 do not run):\n"
                b"    every kernel launch fails with \"device kernel image is invalid\"\n"
                b"    fix: install a driver for CUDA 13.0 or newer (>= 580.65.06), or build the cubins\n") in out, out


if __name__ == "__main__":
    sys.exit(tap_cli.main())
