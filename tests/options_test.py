#!/usr/bin/env python3
"""Every option fatcheck takes is in --help, in fatcheck(1) as an item of its own and in the
bash completion; the completion offers --color=, --format= and --platform values after '='
and a space, and for --gpu every architecture and product name `fatcheck --gpu list` gives
(the table --gpu reads), names with spaces as one word, each of which --gpu takes.

Usage: options_test.py FATCHECK SOURCE_ROOT COMPLETION
Writes TAP."""
import json
import os
import re
import subprocess
import sys

from tap import eq, main, test  # noqa: E402

FATCHECK, ROOT, COMPLETION = (os.path.abspath(p) for p in sys.argv[1:4])
def options_in_source():
    """The long options of main.c's getopt table, and its short ones."""
    main = open(os.path.join(ROOT, "src", "cli", "main.c")).read()
    longs = set(re.findall(r'\{"([a-z][a-z-]*)", (?:no|required)_argument', main))
    shorts = set(re.search(r'getopt_long\(argc, argv, "[:+]?([^"]*)"', main).group(1).replace(":", ""))
    assert len(longs) > 25 and len(shorts) > 8, (longs, shorts)
    return {"--" + o for o in longs}, {"-" + o for o in shorts}


def man_items():
    """The options fatcheck(1) gives an item (.TP heading) of their own."""
    text = open(os.path.join(ROOT, "man", "fatcheck.1")).read()
    heads = re.findall(r"^\.TP\n(.*)$", text, re.M)
    found = set()
    for h in heads:
        h = h.replace("\\-", "-")
        found |= set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*|-[a-zA-Z])(?![\w-])", h))
    return found


def complete(*words):
    """What the completion offers for the command line WORDS (the last one being completed),
    split into words as bash splits them (at '=' too)."""
    script = 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _fatcheck; ' \
             'printf "%s\\n" "${COMPREPLY[@]}"'
    p = subprocess.run(["bash", "-c", script, "bash", COMPLETION, "fatcheck"] + list(words),
                       capture_output=True, text=True, check=True)
    eq(p.stderr, "")
    return [l for l in p.stdout.split("\n") if l]


@test
def help_lists_every_option():
    longs, shorts = options_in_source()
    out = subprocess.run([FATCHECK, "--help"], capture_output=True, text=True).stdout
    for o in sorted(longs | shorts):
        assert re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(o), out), "--help lacks " + o


@test
def the_man_page_has_an_item_for_every_option():
    longs, shorts = options_in_source()
    eq(sorted((longs | shorts) - man_items()), [])


@test
def the_completion_offers_every_option():
    longs, shorts = options_in_source()
    offered = set(o.rstrip("=") for o in complete("-")) | set(complete("--"))
    eq(sorted((longs | shorts) - offered), [])
    eq(complete("--co"), ["--color="])


@test
def option_values_after_equals_and_space():
    for opt, word, want in [("--color", "", ["auto", "always", "never"]), ("--color", "al", ["always"]),
                            ("--format", "j", ["json", "junit"]), ("--platform", "linux/arm", ["linux/arm64",
                                                                                                "linux/arm64/v8"])]:
        eq(complete(opt, "=", word) if word else complete(opt, "="), want, opt + "=" + word)
        eq(complete(opt, word), want, opt + " " + word)


def gpu_list():
    out = subprocess.run([FATCHECK, "--gpu", "list"], capture_output=True, text=True, check=True).stdout
    names = {}
    for line in out.splitlines():
        m = re.match(r"^sm_([0-9]+) +([0-9]+)\.([0-9]) +(.*)$", line)
        assert m, line
        cc = int(m.group(1))
        eq(cc, int(m.group(2)) * 10 + int(m.group(3)), line)
        names["sm_%d" % cc] = cc
        for n in m.group(4).split(", "):
            names[n] = cc
    return names


@test
def gpu_completion_is_the_gpu_table():
    names = gpu_list()
    assert len(names) > 60 and any(" " in n for n in names), names
    eq(sorted(complete("--gpu", "")), sorted(list(names) + ["all", "list"]))
    eq(complete("-g", "RTX 40"), ["RTX 4090"])
    eq(complete("--gpu", "RTX\\ 40"), ["RTX 4090"])  # as typed with a backslash
    eq(complete("--gpu", "H100,Jetson A"), ["H100,Jetson AGX Xavier", "H100,Jetson AGX Orin"])


@test
def every_gpu_name_listed_is_taken_by_gpu():
    names = gpu_list()
    fixture = os.path.join(ROOT, "fixtures", "kernels.sm_90.cubin")
    for n, cc in names.items():
        p = subprocess.run([FATCHECK, "--json", "--gpu", n, fixture], capture_output=True, text=True)
        eq([t["target"] for t in json.loads(p.stdout)["targets"]], ["sm_%d" % cc], n)


sys.exit(main())
