#!/usr/bin/env python3
"""Writes the bash completion from its template: @GPUS@ becomes the architectures and product
names `FATCHECK --gpu list` prints (the table --gpu reads), each a quoted bash word.

Usage: generate.py FATCHECK TEMPLATE OUTPUT"""
import re
import subprocess
import sys

fatcheck, template, output = sys.argv[1:4]
listing = subprocess.run([fatcheck, "--gpu", "list"], capture_output=True, text=True, check=True).stdout
words = []
for line in listing.splitlines():
    m = re.match(r"^(sm_[0-9]+) +[0-9]+\.[0-9] *(.*)$", line)
    if not m:
        sys.exit("generate.py: unexpected line of fatcheck --gpu list: %r" % line)
    words.append(m.group(1))
    words += [n for n in m.group(2).split(", ") if n]
for w in words:
    if not re.match(r"^[A-Za-z0-9 ._-]+$", w):
        sys.exit("generate.py: %r cannot be written as a bash word here" % w)
text = open(template).read()
if "@GPUS@" not in text:
    sys.exit("generate.py: no @GPUS@ in " + template)
open(output, "w").write(text.replace("@GPUS@", " ".join("'%s'" % w for w in words)))
