#!/usr/bin/env python3
"""Times fatcheck's summary of a Windows DLL beside the same fat binaries in an ELF file.

Usage: bench/pe_elf.py [--fatcheck PATH] [--runs N] DLL

From DLL it takes the bytes of .nv_fatb and the registration records of .nvFatBi, and writes
them to a temporary ELF shared object as .nv_fatbin and .nvFatBinSegment (the records'
addresses moved to the ELF section's): the same containers, the same hints for splitting the
walk, in each format. It then prints the time and peak RSS of `fatcheck FILE`
for both, in turns on the same load (medians of wall and CPU time; peak RSS through
bench/measure), with -j 1 and with all CPUs. Figures only.
"""
import argparse
import os
import statistics
import struct
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def pe_sections(data):
    """{name: (rva, raw offset, size)} of a PE image, and its image base."""
    lfanew, = struct.unpack_from("<I", data, 0x3C)
    n, = struct.unpack_from("<H", data, lfanew + 6)
    opt_size, = struct.unpack_from("<H", data, lfanew + 20)
    opt = lfanew + 24
    base, = struct.unpack_from("<Q", data, opt + 24)
    out = {}
    for i in range(n):
        h = opt + opt_size + 40 * i
        name = data[h:h + 8].rstrip(b"\0").decode()
        vsize, rva, raw_size, raw = struct.unpack_from("<IIII", data, h + 8)
        out[name] = (rva, raw, min(vsize, raw_size) if vsize else raw_size)
    return out, base


def write_elf(path, fatbin, records):
    """A minimal x86-64 shared object: .nv_fatbin at 0x1000 (address 0x200000), the records
    in .nvFatBinSegment, .shstrtab, section headers."""
    names = b"\0.nv_fatbin\0.shstrtab\0.nvFatBinSegment\0"
    sec_at, addr = 0x1000, 0x200000
    table_at = sec_at + len(fatbin)
    table_at += -table_at % 8
    strtab_at = table_at + len(records)
    shoff = strtab_at + len(names)
    shoff += -shoff % 8
    f = bytearray(shoff + 4 * 64)
    f[0:16] = b"\x7fELF\x02\x01\x01" + bytes(9)
    struct.pack_into("<HHIQQQIHHHHHH", f, 16, 3, 62, 1, 0, 0, shoff, 0, 64, 0, 0, 64, 4, 2)
    f[sec_at:sec_at + len(fatbin)] = fatbin
    f[table_at:table_at + len(records)] = records
    f[strtab_at:strtab_at + len(names)] = names
    def sh(i, name, typ, flags, a, off, size):
        struct.pack_into("<IIQQQQIIQQ", f, shoff + 64 * i, name, typ, flags, a, off, size, 0, 0, 8, 0)
    sh(1, 1, 1, 2, addr, sec_at, len(fatbin))
    sh(2, 12, 3, 0, 0, strtab_at, len(names))
    sh(3, 22, 1, 3, addr + 0x10000000, table_at, len(records))
    open(path, "wb").write(f)


def run_once(cmd):
    """Wall and CPU (user + system) seconds of one run of CMD."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, ru = os.wait4(p.pid, 0)
    return time.perf_counter() - t0, ru.ru_utime + ru.ru_stime


def peak_rss(cmd):
    """Peak RSS (KiB) through bench/measure: a child of this Python process would be charged
    Python's pages too."""
    out = subprocess.run([MEASURE, "3"] + cmd, capture_output=True, text=True, check=True).stdout
    return int(out.split()[1])


def compare(cmds, runs):
    """Runs the commands in turn, RUNS times each after a warm-up, so that both see the same
    load on a shared machine; medians of wall and CPU time, and the largest RSS."""
    for c in cmds.values():
        run_once(c)
    got = {k: [] for k in cmds}
    for _ in range(runs):
        for k, c in cmds.items():
            got[k].append(run_once(c))
    return {k: (statistics.median(x[0] for x in v), statistics.median(x[1] for x in v), peak_rss(cmds[k]))
            for k, v in got.items()}


def main():
    global MEASURE
    ap = argparse.ArgumentParser()
    ap.add_argument("--fatcheck", default=os.path.join(HERE, "..", "build", "fatcheck"))
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("dll")
    a = ap.parse_args()
    MEASURE = os.path.join(os.path.dirname(os.path.abspath(a.fatcheck)), "bench", "measure")
    data = open(a.dll, "rb").read()
    sections, base = pe_sections(data)
    rva, raw, size = sections[".nv_fatb"]
    fatbin = data[raw:raw + size]
    trva, traw, tsize = sections[".nvFatBi"]
    records = bytearray(data[traw:traw + tsize - tsize % 24])
    for i in range(0, len(records), 24):  # the container's address, moved into the ELF section
        va, = struct.unpack_from("<Q", records, i + 8)
        struct.pack_into("<Q", records, i + 8, 0x200000 + (va - base - rva))
    with tempfile.TemporaryDirectory() as tmp:
        elf = os.path.join(tmp, os.path.basename(a.dll) + ".so")
        write_elf(elf, fatbin, bytes(records))
        # The DLL is written anew beside it: files laid out in the page cache alike (one
        # unpacked by tar read 10-20% slower here than a fresh copy of itself).
        dll = os.path.join(tmp, os.path.basename(a.dll))
        open(dll, "wb").write(data)
        fatbin_size = len(fatbin)
        del data, fatbin
        print("%s: .nv_fatb of %.1f MB, %d registration records; the same bytes in an ELF .nv_fatbin"
              % (os.path.basename(a.dll), fatbin_size / 1e6, len(records) // 24))
        got = {}
        for label, path in (("PE", dll), ("ELF", elf)):
            out = subprocess.run([a.fatcheck, "--no-embedded", path], capture_output=True, text=True).stdout
            # What the containers hold (the lines after may say things only one format tells).
            got[label] = "\n".join(out.split(":", 1)[1].replace(".nv_fatbin", ".nv_fatb").splitlines()[:4])
        if got["PE"] != got["ELF"]:
            raise SystemExit("the two summaries differ:\n%s\n%s" % (got["PE"], got["ELF"]))
        print("  both: %s" % got["PE"].splitlines()[0].strip())
        # The DLL's .rdata (and other data sections) is probed for embedded containers too;
        # --no-embedded compares the registered section alone.
        for opts in (["-j", "1"], [], ["-j", "1", "--no-embedded"], ["--no-embedded"]):
            r = compare({"PE ": [a.fatcheck] + opts + [dll], "ELF": [a.fatcheck] + opts + [elf]}, a.runs)
            for label, (wall, cpu, rss) in r.items():
                print("  %s fatcheck %s: %.2f ms wall, %.2f ms CPU, peak RSS %.1f MiB" % (
                    label, " ".join(opts) or "(all CPUs)", wall * 1e3, cpu * 1e3, rss / 1024))

if __name__ == "__main__":
    main()
