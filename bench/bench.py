#!/usr/bin/env python3
"""Times fatcheck beside cuobjdump (when present) and beside floors on the same machine.

Usage: bench/bench.py [--fatcheck PATH] [--runs N] [--args "..."] FILE|DIR...

For every input it prints the median wall time and the peak resident set of:
  - fatcheck (default summary, or the --args given), after one warm-up run;
  - cuobjdump --list-elf, when cuobjdump is on PATH (fewer runs: it is slow);
  - a floor: reading the whole file once with the page cache warm (cat > /dev/null).
and the ratio cuobjdump / fatcheck measured in the same run. Figures only; no thresholds.
"""
import argparse
import os
import shutil
import subprocess
import sys


def measure(cmd, runs):
    """Median wall seconds and max peak RSS (KiB) of CMD over RUNS runs, after a warm-up,
    through the C helper bench/measure (built by meson next to fatcheck)."""
    out = subprocess.run([MEASURE, str(runs)] + cmd, capture_output=True, text=True, check=True).stdout
    t, rss = out.split()
    return float(t), int(rss)


def kernel_view(fatcheck, path, runs):
    """--kernels on PATH beside its floor: zstd -d over the same zstd payload bytes."""
    import json
    import tempfile
    doc = json.loads(subprocess.run([fatcheck, "--json", "--no-embedded", path], capture_output=True,
                                    text=True).stdout)
    frames, unpacked = [], 0
    with open(path, "rb") as f:
        for fl in doc["files"]:
            for c in fl["containers"]:
                for e in c["entries"]:
                    if e["kind"] in ("cubin", "ptx"):
                        unpacked += e["uncompressed_size"]
                    if e["compression"] == "zstd":
                        f.seek(e["payload_offset"])
                        frames.append(f.read(e["size"]))
    print("kernel view of %s: %.0f MB of images after decompression" % (os.path.basename(path), unpacked / 1e6))
    with tempfile.NamedTemporaryFile(suffix=".zst") as t:
        t.write(b"".join(frames))
        t.flush()
        zt, _ = measure(["zstd", "-q", "-d", "-c", "-T1", t.name], runs) if shutil.which("zstd") else (None, 0)
    if zt:
        print("  floor: zstd -d -T1 over its %d zstd payloads: %s" % (len(frames), fmt_time(zt)))
    for threads in ("1", "2", "4", "8", "0"):
        if threads != "0" and int(threads) > (os.cpu_count() or 1):
            continue
        args = [fatcheck, "--kernels", "--no-embedded", "--gpu", "9.0"] + (["-j", threads] if threads != "0" else [])
        ft, rss = measure(args + [path], runs)
        print("  fatcheck --kernels -j %s: %s, %.2f GB/s of images, peak RSS %.1f MiB" % (
            threads if threads != "0" else "(all CPUs: %d)" % os.cpu_count(), fmt_time(ft), unpacked / ft / 1e9,
            rss / 1024))


def fmt_time(s):
    return "%.2f ms" % (s * 1e3) if s < 1 else "%.2f s" % s


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fatcheck", default="build/fatcheck")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--cuobjdump-runs", type=int, default=3)
    ap.add_argument("--args", default="", help="extra fatcheck arguments, e.g. --no-embedded")
    ap.add_argument("--kernel-view", action="store_true", help="also time --kernels beside zstd -d")
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("--measure", default=None, help="path of bench/measure (default: next to fatcheck)")
    a = ap.parse_args()
    global MEASURE
    MEASURE = a.measure or os.path.join(os.path.dirname(a.fatcheck), "bench", "measure")
    cuobjdump = shutil.which("cuobjdump")
    print("machine: %s, %d CPUs" % (os.uname().nodename, os.cpu_count()))
    print("%-40s %12s %9s %12s %9s %10s %10s" % ("input", "fatcheck", "RSS MiB", "cuobjdump", "RSS MiB",
                                                 "ratio", "cat floor"))
    for f in a.inputs:
        fc_t, fc_rss = measure([a.fatcheck] + a.args.split() + [f], a.runs)
        cu = ("-", "-", "-")
        if cuobjdump and os.path.isfile(f):
            cu_t, cu_rss = measure([cuobjdump, "--list-elf", f], a.cuobjdump_runs)
            cu = (fmt_time(cu_t), "%.1f" % (cu_rss / 1024), "%.0fx" % (cu_t / fc_t))
        floor = "-"
        if os.path.isfile(f):
            floor = fmt_time(measure(["cat", f], 5)[0])
        print("%-40s %12s %9.1f %12s %9s %10s %10s" % (os.path.basename(f.rstrip("/")) or f, fmt_time(fc_t),
                                                       fc_rss / 1024, cu[0], cu[1], cu[2], floor))
    sys.stdout.flush()
    if a.kernel_view:
        for f in a.inputs:
            if os.path.isfile(f):
                kernel_view(a.fatcheck, f, max(1, a.runs // 5))


if __name__ == "__main__":
    main()
