#!/usr/bin/env python3
"""What fatcheck says of the CUDA runtime of each Windows image named (one path a line on
standard input), and how many of each kind: the measurement behind docs/matching.md's rule 7
for Windows (the survey's files: docs/evidence/pe-runtime-survey.txt).

Usage: python3 bench/pe_runtime_survey.py FATCHECK [DRIVER] < LIST
Prints a line a file (path, runtime kind, CUDA version needed, what dated it) and then the
counts by kind and evidence. DRIVER (default 10.2) only makes every verdict say its runtime."""
import collections
import json
import subprocess
import sys


def main():
    fatcheck = sys.argv[1]
    driver = sys.argv[2] if len(sys.argv) > 2 else "10.2"
    counts = collections.Counter()
    for path in (line.strip() for line in sys.stdin):
        if not path:
            continue
        p = subprocess.run([fatcheck, "--json", "--gpu", "9.0", "--driver", driver, path], capture_output=True,
                           text=True)
        try:
            files = json.loads(p.stdout)["files"]
        except (ValueError, KeyError):
            print("%s\tnot read: %s" % (path, p.stderr.strip().splitlines()[-1:]))
            counts["not read"] += 1
            continue
        rt = (files[0].get("runtime") if files else None) or {}
        evidence = rt.get("built_by_evidence") or rt.get("decided_by") or ""
        how = "strings" if "strings date it" in evidence else "device code" if evidence else "-"
        kind = rt.get("kind") or "none"
        print("%s\t%s\t%s\t%s" % (path, kind, rt.get("needs_cuda"), evidence))
        counts[(kind, how, rt.get("needs_cuda"))] += 1
    for key, n in sorted(counts.items(), key=str):
        print("# %5d %s" % (n, key))


if __name__ == "__main__":
    main()
