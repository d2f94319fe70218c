#!/usr/bin/env python3
"""Summarises `fatcheck --json --probe` output: per file and target, how many modules the
driver was asked to load, how many answers agreed with the prediction, and each disagreement;
and how many link inputs it was shown (fatcheck claims no driver result for those: agrees null).

Usage: fatcheck --json --probe FILE... | scripts/probe-report.py"""
import json
import sys

doc = json.load(sys.stdin)
total = agree = links = 0
for f in doc["files"]:
    name = f["path"] + ("(%s)" % f["member"] if f.get("member") else "")
    per = {}
    for c in f["containers"]:
        for l in c.get("loads", []):
            p = l.get("probe")
            if not p:
                continue
            t = per.setdefault(l["target"], [0, 0, [], 0])
            if p["agrees"] is None:
                t[3] += 1
                continue
            t[0] += 1
            if p["agrees"]:
                t[1] += 1
            else:
                archs = [e["arch"] + ("@" + e["ptx_isa"] if "ptx_isa" in e else "") for e in c["entries"]]
                t[2].append("  offset 0x%x %s: predicted %s, driver %s; entries %s" % (
                    c["offset"], c["section"] or c["origin"], l["result"],
                    "crashed" if p["crashed"] else p["code"], " ".join(archs)))
    for target, (n, ok, bad, nl) in per.items():
        total += n
        agree += ok
        links += nl
        print("%s %s: %d modules probed, %d agree, %d disagree; %d link inputs shown, not compared" % (
            name, target, n, ok, n - ok, nl))
        for line in bad[:20]:
            print(line)
print("TOTAL: %d modules probed, %d agree, %d disagree; %d link inputs not compared" % (
    total, agree, total - agree, links))
