#!/usr/bin/env python3
"""Times the kernel view on images with very many kernels.

Usage: bench/many_kernels.py [--fatcheck PATH] [--runs N] [COUNT...]

For each COUNT (default 40000 80000 2000000) it writes, to a temporary folder:
  - a PTX file with COUNT .entry declarations, each declared twice (a prototype, then the
    definition), so every name is looked up again;
  - for counts up to 200,000, a cubin (ELF, e_machine 190) with COUNT entry points, each
    with a .nv.shared.<name> section, which the kernel view matches to its kernel by name;
and prints the median wall time and peak RSS of `fatcheck --kernels --gpu 9.0 FILE`
(through bench/measure). Figures only; no thresholds.
"""
import argparse
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def write_ptx(path, n):
    with open(path, "w") as f:
        f.write(".version 9.0\n.target sm_90\n.address_size 64\n\n")
        for proto in (True, False):
            body = ";\n" if proto else "{\n\tret;\n}\n"
            f.write("".join(".visible .entry kernel_with_a_long_name_%d(\n\t.param .u64 p\n)\n%s" % (i, body)
                            for i in range(n)))


def write_cubin(path, n):
    """A 64-bit little-endian ELF cubin for sm_90 (ABI version 8: the SM in e_flags bits 8-15)."""
    names = ["k%d" % i for i in range(n)]
    shstr = bytearray(b"\0")

    def shname(s):
        off = len(shstr)
        shstr.extend(s.encode() + b"\0")
        return off

    strtab = bytearray(b"\0")
    sym_names = []
    for s in names:
        sym_names.append(len(strtab))
        strtab.extend(s.encode() + b"\0")
    # Sections: null, .shstrtab, .strtab, .symtab, .text, then one .nv.shared.<name> each.
    sections = [(0, 0, 0, 0, 0, 0, 0)]  # (name, type, offset, size, link, info, entsize)
    n_sections = 5 + n
    text_index = 4
    symtab = bytearray(24)  # the null symbol
    for i, off in enumerate(sym_names):
        # st_name, st_info (GLOBAL FUNC), st_other (0x10: an entry point), st_shndx, value, size
        symtab += struct.pack("<IBBHQQ", off, 0x12, 0x10, text_index, 0, 4)
    shared_names = [shname(".nv.shared." + s) for s in names]
    n_shstr = shname(".shstrtab")
    n_str = shname(".strtab")
    n_sym = shname(".symtab")
    n_text = shname(".text")
    data = bytearray(64)
    layout = []
    for blob in (bytes(shstr), bytes(strtab), bytes(symtab), b"\0" * 16):
        while len(data) % 8:
            data.append(0)
        layout.append((len(data), len(blob)))
        data += blob
    sections = [
        (0, 0, 0, n_sections if n_sections >= 0xFF00 else 0, 0, 0, 0),
        (n_shstr, 3, layout[0][0], layout[0][1], 0, 0, 0),
        (n_str, 3, layout[1][0], layout[1][1], 0, 0, 0),
        (n_sym, 2, layout[2][0], layout[2][1], 2, 1, 24),
        (n_text, 1, layout[3][0], layout[3][1], 0, 0, 0),
    ] + [(shared_names[i], 8, layout[3][0], 4 * (i + 1), 0, 0, 0) for i in range(n)]  # SHT_NOBITS
    while len(data) % 8:
        data.append(0)
    shoff = len(data)
    for name, typ, off, size, link, info, entsize in sections:
        data += struct.pack("<IIQQQQIIQQ", name, typ, 0, 0, off, size, link, info, 8, entsize)
    ident = b"\x7fELF" + bytes([2, 1, 1, 0x33, 8]) + b"\0" * 7
    header = ident + struct.pack("<HHIQQQIHHHHHH", 2, 190, 1, 0, 0, shoff, 90 << 8, 64, 0, 0, 64,
                                 0 if n_sections >= 0xFF00 else n_sections, 1)
    data[:64] = header
    with open(path, "wb") as f:
        f.write(data)


def measure(cmd, runs):
    measure_exe = os.environ.get("MEASURE") or os.path.join(os.path.dirname(os.path.abspath(cmd[0])), "bench",
                                                            "measure")
    out = subprocess.run([measure_exe, str(runs)] + cmd, capture_output=True, text=True, check=True).stdout
    t, rss = out.split()
    return float(t), int(rss)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fatcheck", default="build/fatcheck")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("counts", nargs="*", type=int, default=[40000, 80000, 2000000])
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for n in a.counts:
            files = [("PTX", os.path.join(tmp, "k%d.ptx" % n), write_ptx)]
            if n <= 200000:
                files.append(("cubin", os.path.join(tmp, "k%d.cubin" % n), write_cubin))
            for kind, path, writer in files:
                writer(path, n)
                check = subprocess.run([a.fatcheck, "--kernels", "--json", "--gpu", "9.0", path],
                                       capture_output=True, text=True)
                listed = check.stdout.count('"name"')
                t, rss = measure([a.fatcheck, "--kernels", "--gpu", "9.0", path], a.runs)
                print("%s, %d kernels (%.1f MB): %.3f s, peak RSS %.1f MiB, %d kernels listed" % (
                    kind, n, os.path.getsize(path) / 1e6, t, rss / 1024, listed))
                sys.stdout.flush()
                os.unlink(path)


if __name__ == "__main__":
    main()
