#!/usr/bin/env python3
"""Compares fatcheck's kernel view with cuobjdump on a sample of a file's cubins.

Usage: scripts/compare-kernels.py FATCHECK FILE [SAMPLES]
For SAMPLES cubins spread evenly over what cuobjdump --list-elf lists (default 20): the
cubin cuobjdump -xelf extracts must be byte-identical to the one fatcheck --extract writes,
and the functions, registers and static shared memory cuobjdump -res-usage reports must be
those fatcheck --kernels reads, but for local device functions (FUNC LOCAL, not kernels), which
cuobjdump lists and fatcheck leaves out: nothing outside their image can call them (review 8,
D1). Needs cuobjdump on PATH. Prints a line per sample and a total; exits 1 on any
difference."""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

STO_CUDA_ENTRY = 0x10


def local_functions(cubin):
    """Names of a 64-bit cubin's local functions that are not kernels (entries)."""
    data = open(cubin, "rb").read()
    if data[:4] != b"\x7fELF" or data[4] != 2:
        return set()
    shoff, = struct.unpack_from("<Q", data, 40)
    shentsize, shnum = struct.unpack_from("<HH", data, 58)
    secs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    found = set()
    for _, typ, _, _, off, size, link, _, _, entsize in secs:
        if typ != 2 or not entsize:  # SHT_SYMTAB
            continue
        stroff = secs[link][4]
        for k in range(1, size // entsize):
            st_name, st_info, st_other, st_shndx, _, _ = struct.unpack_from("<IBBHQQ", data, off + k * entsize)
            if st_info & 15 == 2 and st_info >> 4 == 0 and st_shndx and not st_other & STO_CUDA_ENTRY:
                end = data.index(b"\0", stroff + st_name)
                found.add(data[stroff + st_name:end].decode("utf-8", "replace"))
    return found


def res_usage(cubin):
    """{function: (registers, shared)} from cuobjdump -res-usage."""
    out = subprocess.run(["cuobjdump", "-res-usage", cubin], capture_output=True, text=True).stdout
    funcs, name = {}, None
    for line in out.splitlines():
        m = re.match(r"\s*Function (\S+):", line)
        if m:
            name = m.group(1)
            continue
        m = re.search(r"REG:(\d+).*SHARED:(\d+)", line)
        if m and name:
            funcs[name] = (int(m.group(1)), int(m.group(2)))
            name = None
    return funcs


def main():
    fatcheck, path = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    samples = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    names = [l.split(": ", 1)[1] for l in subprocess.run([fatcheck, "--list-elf", path], capture_output=True,
                                                          text=True).stdout.splitlines() if l.startswith("ELF file")]
    doc = json.loads(subprocess.run([fatcheck, "--json", "--kernels", "--no-embedded", path], capture_output=True,
                                    text=True).stdout)
    # The cubins cuobjdump lists, in its order: the registered containers' cubin entries.
    listed = []
    for f in doc["files"]:
        sections = {c["section"] for c in f["containers"]}
        keep = ".nv_fatbin" if ".nv_fatbin" in sections else "__nv_relfatbin"
        for c in f["containers"]:
            if c["origin"] != "embedded" and (f["format"] != "elf" or c["section"] == keep):
                listed += [e for e in c["entries"] if e["kind"] == "cubin"]
    if len(listed) != len(names):
        print("MISMATCH: fatcheck has %d listed cubins, its listing %d" % (len(listed), len(names)))
        return 1
    step = max(1, len(names) // samples)
    picks = list(range(0, len(names), step))[:samples]
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        ours = os.path.join(tmp, "ours")
        subprocess.run([fatcheck, "--extract", ours, path], capture_output=True, cwd=tmp)
        for i in picks:
            name = names[i]
            subprocess.run(["cuobjdump", "-xelf", name, path], capture_output=True, cwd=tmp)
            theirs = os.path.join(tmp, name)
            same_bytes = os.path.exists(theirs) and open(theirs, "rb").read() == open(os.path.join(ours, name), "rb").read()
            want = res_usage(theirs) if os.path.exists(theirs) else {}
            local = local_functions(theirs) if os.path.exists(theirs) else set()
            want = {k: v for k, v in want.items() if k not in local}
            got = {k["name"]: (k.get("registers", -1), max(k.get("shared_bytes", 0), 0)) for k in listed[i]["kernels"]}
            same = got == want
            bad += not (same and same_bytes)
            print("%s %s %s %d functions%s" % ("SAME" if same else "DIFF", "bytes-same" if same_bytes else "bytes-DIFF",
                                               name, len(want), " (%d local left out)" % len(local) if local else ""))
            if not same:
                for k in sorted(set(got) | set(want))[:5]:
                    if got.get(k) != want.get(k):
                        print("    %s: fatcheck %s, cuobjdump %s" % (k[:80], got.get(k), want.get(k)))
            if os.path.exists(theirs):
                os.remove(theirs)
    print("TOTAL %d sampled, %d differ" % (len(picks), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
