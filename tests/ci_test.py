#!/usr/bin/env python3
"""CLI tests of what fatcheck gives CI systems (issue 15): --format github, junit and
markdown; --gpu all, checked against CUDA's loading rules written out here on their own;
accepted exceptions (--accept); -q with -l; every document kind of these validated against
the schema.

Usage: ci_test.py FATCHECK FIXTURES_DIR FAKECUDA_DIR
Writes TAP."""
import io
import json
import os
import re
import shutil
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap_cli import FIXTURES, eq, fx, main, run, test  # noqa: E402
import schema_validate  # noqa: E402

# A file name that breaks every format that does not escape: a newline that forges a line, an
# escape sequence, the separators of workflow-command properties (',' ':'), '%' (their escape
# character), XML's '<' '&' '"', Markdown's '|' '*' '`' and a mention.
HOSTILE = b"bad\n::error::forged,%0A:x<&\"|*`@me\x1b[31m.so"


def with_hostile_copy(tmp, source="app"):
    path = os.path.join(os.fsencode(tmp), HOSTILE)
    shutil.copy(fx(source), path)
    return path


def lines(b):
    return b.decode("utf-8").splitlines()


# ---- --format github -------------------------------------------------------------------

ANNOTATION = re.compile(r"^::(error|warning|notice)(?: (file=[^,:\r\n]*(?:,line=[0-9]+)?(?:,title=[^,:\r\n]*)?"
                        r"|title=[^,:\r\n]*))?::([^\r\n]*)$")


def annotations(out):
    """Each line as (level, {property: value decoded}, message decoded); fails on any other line."""
    found = []
    for line in lines(out):
        m = ANNOTATION.match(line)
        assert m, "not a well-formed workflow command: %r" % line
        props = {}
        for prop in (m.group(2) or "").split(","):
            if prop:
                key, value = prop.split("=", 1)
                props[key] = value.replace("%3A", ":").replace("%2C", ",").replace("%0D", "\r") \
                                  .replace("%0A", "\n").replace("%25", "%")
        message = m.group(3).replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")
        assert "\n" not in message and "\x1b" not in message, message
        found.append((m.group(1), props, message))
    return found


@test
def github_annotations_name_file_target_and_reason():
    rc, out, err = run("--format=github", "--gpu", "9.0,8.0", fx("libmulti.so"), fx("app"), fx("variants.fatbin"),
                       cwd=FIXTURES)
    eq(rc, 1)
    got = [(level, props.get("file"), props.get("title")) for level, props, _ in annotations(out)]
    eq(got, [("warning", fx("libmulti.so"), "fatcheck: partial on sm_80 (--gpu 8.0)"),
             ("error", fx("app"), "fatcheck: none on sm_80 (--gpu 8.0)"),
             ("error", fx("variants.fatbin"), "fatcheck: none on sm_80 (--gpu 8.0)")])
    message = annotations(out)[1][2]
    eq(message, "%s: sm_80 (--gpu 8.0): none, no module can load (no kernel image for sm_80): every kernel "
                "launch fails with \"no kernel image is available for execution on the device\"" % fx("app"))
    # --strict: partial fails the check, and is an error
    rc, out, _ = run("--format=github", "--strict", "--gpu", "8.0", fx("libmulti.so"))
    eq((rc, [a[0] for a in annotations(out)]), (1, ["error"]))
    # nothing to say for a file every target loads: no line at all, exit 0
    rc, out, _ = run("--format=github", "--gpu", "9.0", fx("kernels.sm_90.cubin"))
    eq((rc, out), (0, b""))


@test
def github_annotations_stay_well_formed_with_hostile_names():
    with tempfile.TemporaryDirectory() as tmp:
        bad = with_hostile_copy(tmp)
        broken = os.path.join(os.fsencode(tmp), b"cut,%:\n.fatbin")
        open(broken, "wb").write(open(fx("all_archs.fatbin"), "rb").read()[:200])
        rc, out, err = run("--format=github", "--gpu", "8.0", bad, broken, b"/nonexistent/x:y,z")
        eq(rc, 3)
        found = annotations(out)
        eq([level for level, _, _ in found], ["error", "error", "error"])
        # the names come back as fatcheck's text escaping writes them (fatcheck(1), Names)
        quoted = '"' + os.fsencode(tmp).decode() + '/bad\\n::error::forged,%0A:x<&\\"|*`@me\\033[31m.so"'
        eq(found[0][1]["file"], quoted)
        assert found[0][2].startswith(quoted + ": sm_80 (--gpu 8.0): none"), found[0][2]
        eq(found[1][1]["title"], "fatcheck: could not be decoded")
        eq(found[2][1], {"file": "/nonexistent/x:y,z", "title": "fatcheck: could not be read"})


# ---- --format junit --------------------------------------------------------------------

def junit(out):
    root = ET.fromstring(out)
    eq(root.tag, "testsuites")
    suites = root.findall("testsuite")
    eq(len(suites), 1)
    cases = suites[0].findall("testcase")
    for element in (root, suites[0]):  # the counts agree with the cases
        for attr, child in [("failures", "failure"), ("errors", "error"), ("skipped", "skipped")]:
            eq(int(element.get(attr)), sum(1 for c in cases if c.find(child) is not None), attr)
        eq(int(element.get("tests")), len(cases))
    return [(c.get("classname"), c.get("name"),
             next((k.tag for k in c), None), next((k.get("message") for k in c), None)) for c in cases]


@test
def junit_has_a_case_per_file_and_target():
    rc, out, err = run("--format=junit", "--gpu", "9.0,8.0", fx("libmulti.so"), fx("app"),
                       fx("kernels.sm_90.cubin"), fx("missing"), cwd=FIXTURES)
    eq(rc, 3)
    cases = junit(out)
    eq([c[:3] for c in cases], [
        (fx("libmulti.so"), "sm_90 (--gpu 9.0)", None), (fx("libmulti.so"), "sm_80 (--gpu 8.0)", None),
        (fx("app"), "sm_90 (--gpu 9.0)", None), (fx("app"), "sm_80 (--gpu 8.0)", "failure"),
        (fx("kernels.sm_90.cubin"), "sm_90 (--gpu 9.0)", None),
        (fx("kernels.sm_90.cubin"), "sm_80 (--gpu 8.0)", "failure"),
        (fx("missing"), "read", "error")])
    assert cases[3][3].startswith("none, no module can load (no kernel image for sm_80)"), cases[3]
    # --strict: partial is a failure too
    cases = junit(run("--format=junit", "--strict", "--gpu", "8.0", fx("libmulti.so"))[1])
    eq([c[2] for c in cases], ["failure"])
    # a file named alone that holds no CUDA code is a passing case; no target, said
    rc, out, err = run("--format=junit", "/bin/sh")
    eq(junit(out), [("/bin/sh", "no CUDA code", None, None)])
    assert ET.fromstring(out).find("testsuite/system-err").text.startswith("not judging any GPU: "), out


@test
def junit_parses_with_hostile_names():
    with tempfile.TemporaryDirectory() as tmp:
        bad = with_hostile_copy(tmp)
        rc, out, _ = run("--format=junit", "--gpu", "8.0", bad)
        eq(rc, 1)
        cases = junit(out)
        eq(len(cases), 1)
        eq(cases[0][0], '"' + os.fsencode(tmp).decode() + '/bad\\n::error::forged,%0A:x<&\\"|*`@me\\033[31m.so"')
        eq(cases[0][2], "failure")
        # A TAB and a literal backslash-t were one test case (rt8 finding 8).
        tab, literal = os.path.join(tmp, "a\tb.so"), os.path.join(tmp, "a\\tb.so")
        for p in (tab, literal):
            shutil.copy(fx("app"), p)
        names = [c[0] for c in junit(run("--format=junit", "--gpu", "8.0", tab, literal)[1])]
        eq(names, ['"%s/a\\tb.so"' % tmp, '"%s/a\\\\tb.so"' % tmp])


@test
def junit_cases_of_a_container_image():
    image = os.path.join(os.path.dirname(FIXTURES), "tests", "images", "docker25.tar")
    rc, out, _ = run("--format=junit", "--gpu", "9.0", "--driver", "13.0", image)
    eq(rc, 1)
    eq([c[:3] for c in junit(out)], [("d25:latest", "image", None),
                                     ("d25:latest:/usr/lib/libsm100.so", "sm_90 (--gpu 9.0)", "failure"),
                                     ("d25:latest:/usr/lib/libsm90.so", "sm_90 (--gpu 9.0)", None)])


# ---- --format markdown -----------------------------------------------------------------

@test
def markdown_is_a_table_then_the_problems():
    rc, out, err = run("--format=markdown", "--gpu", "9.0,8.0", "--driver", "13.0", "libmulti.so", "app",
                       "missing", cwd=FIXTURES)
    eq(rc, 3)
    text = out.decode()
    eq(text.split("### Problems")[0],
       "## fatcheck\n\nJudged with a driver for CUDA 13.0.\n\n"
       "| file | sm\\_90 (--gpu 9.0) | sm\\_80 (--gpu 8.0) |\n|:--|:-:|:-:|\n"
       "| libmulti.so | ✅ ok | ⚠️ partial |\n"
       "| app | ✅ ok | ❌ none |\n"
       "| missing | ❌ not read | ❌ not read |\n\n")
    assert "- **app** on sm\\_80 (--gpu 8.0): none, no module can load" in text, text
    assert text.endswith("### Inputs that could not be read\n\n- missing: cannot open: No such file or directory\n"), text
    # -q: the rows of files with problems only
    rc, out, _ = run("--format=markdown", "-q", "--strict", "--gpu", "8.6", "libmulti.so", "app", cwd=FIXTURES)
    rows = [l for l in lines(out) if l.startswith("| ") and not l.startswith("| file")]
    eq(rows, ["| libmulti.so | ❌ partial |"])


@test
def markdown_escapes_names():
    with tempfile.TemporaryDirectory() as tmp:
        bad = with_hostile_copy(tmp)
        rc, out, _ = run("--format=markdown", "--gpu", "8.6", bad)
        rows = [l for l in lines(out) if l.startswith("| ") and not l.startswith("| file")]
        eq(len(rows), 1)
        row = rows[0]
        # one cell for the name: every '|' in it escaped; nothing that opens Markdown or HTML
        eq(len(re.findall(r"(?<!\\)\|", row)), 3, row)
        for c in "<&*`@":
            assert ("\\" + c) in row, (c, row)
        assert "\x1b" not in row and row.endswith("| ✅ ok |"), row


@test
def formats_agree_on_the_exit_status():
    cases = [(["--gpu", "9.0"], fx("libmulti.so")), (["--gpu", "9.0", "--strict"], fx("libmulti.so")),
             (["--gpu", "8.0"], fx("app")), (["--gpu", "8.6", "--arch-list", "8.0"], fx("app")),
             (["--gpu", "9.0"], fx("missing"))]
    for args, path in cases:
        want = run(*args, path)[0]
        for f in ["json", "github", "junit", "markdown", "text"]:
            eq(run("--format=" + f, *args, path)[0], want, (f, args))


@test
def format_usage():
    for args, msg in [(["--format=yaml"], b"fatcheck: --format takes text, json, github, junit or markdown, not 'yaml'"),
                      (["--format=github", "-l"], b"fatcheck: choose one of -l, --json, --list-elf/--list-ptx and --format"),
                      (["--format=junit", "--json"], b"fatcheck: choose one of -l, --json, --list-elf/--list-ptx and --format")]:
        rc, out, err = run(*args, fx("app"))
        eq((rc, out), (2, b""), args)
        assert err.startswith(msg), err
    # text is the default, -l refines it; json is --json
    eq(run("--format=text", "-l", fx("app")), run("-l", fx("app")))
    eq(run("--format=json", "--gpu", "9.0", fx("app")), run("--json", "--gpu", "9.0", fx("app")))
    eq(run("--format=text", "--gpu", "9.0", fx("app")), run("--gpu", "9.0", fx("app")))


# ---- --gpu all, against CUDA's rules -----------------------------------------------------

# The architectures fatcheck knows (arch.c's table), and the Jetson ones among them.
ALL = [37, 50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90, 100, 103, 110, 120, 121]
TEGRA = {53, 62, 72, 87, 101, 110}


def arch_of(name):
    m = re.match(r"^(sm|compute|lto)_([0-9]+)([af]?)$", name)
    return m.group(1), int(m.group(2)), m.group(3)


def cubin_runs(arch, variant, cc):
    """CUDA's rule for SASS (docs/matching.md 1): same major, minor at least the cubin's, never
    across Jetson and desktop parts; 'a' exactly; 'f' within its family."""
    if variant == "a":
        return arch == cc
    if (arch in TEGRA) != (cc in TEGRA):
        return False
    return arch // 10 == cc // 10 and cc % 10 >= arch % 10


def ptx_jits(arch, variant, cc):
    """PTX (rule 2): for any GPU at or above it; 'a' exactly; 'f' within its family."""
    if variant == "a":
        return arch == cc
    if variant == "f":
        return arch // 10 == cc // 10 and cc % 10 >= arch % 10
    return cc >= arch


def expected_load(entries, cc):
    """Rule 3, with a driver new enough for any PTX: native, compatible, jit or none."""
    cubins = [arch_of(e["arch"]) for e in entries if e["kind"] == "cubin"]
    ptx = [arch_of(e["arch"]) for e in entries if e["kind"] == "ptx"]
    if any(a == cc and cubin_runs(a, v, cc) for _, a, v in cubins):
        return "native"
    if any(cubin_runs(a, v, cc) for _, a, v in cubins):
        return "compatible"
    if any(ptx_jits(a, v, cc) for _, a, v in ptx):
        return "jit"
    return "none"


def expected_link(entries, cc):
    """Rule 5: what a device linker takes: a cubin as the driver would run, else PTX at or
    below, else LTO-IR at or below; None when nothing fits."""
    for kind, fits in [("cubin", cubin_runs), ("ptx", ptx_jits), ("ltoir", ptx_jits)]:
        if any(fits(a, v, cc) for _, a, v in (arch_of(e["arch"]) for e in entries if e["kind"] == kind)):
            return kind
    return None


def expected_group(ways):
    """The coverage group of a target from what each container does there."""
    if not ways:
        return None
    failing = [w for w in ways if w in ("none", "no link")]
    if len(failing) == len(ways):
        return "none"
    if failing:
        return "partial"
    if all(w == "links" for w in ways):
        return "links"
    return "JIT only" if "jit" in ways else "compatible" if "compatible" in ways else "native"


def coverage_lines(text):
    """{file label: {sm: group}} from the summary's coverage lines (wrapped lines joined)."""
    joined = re.sub(r"\n    (?=\S)", " ", text)
    result, label = {}, None
    for line in joined.splitlines():
        if not line.startswith(" ") and ":" in line and not line.startswith("judging for"):
            label = line.split(": ", 1)[0]
        m = re.match(r"^  coverage: (.*)$", line)
        if m:
            groups = {}
            for part in m.group(1).split("; "):
                name, archs = re.match(r"^(native|compatible|JIT only|links|accepted|partial|none) (.*)$", part).groups()
                for a in archs.split():
                    lo, _, hi = a.partition("-")
                    lo, hi = int(lo[3:]), int((hi or lo)[3:])
                    for cc in ALL[ALL.index(lo):ALL.index(hi) + 1]:
                        groups[cc] = name
            result[label] = groups
    return result


GPU_ALL_FILES = ["all_archs.fatbin", "variants.fatbin", "ptx_only.fatbin", "ptx_and_cubin.fatbin",
                 "kernels.sm_90.cubin", "kernels.sm_90a.cubin", "kernels.sm_100f.cubin", "kernels.ptx",
                 "libmulti.so", "libembedded.so", "app", "librdc.a", "rdc_main.o", "rdc_lto.o"]


@test
def gpu_all_judges_every_architecture_by_cudas_rules():
    paths = [fx(f) for f in GPU_ALL_FILES]
    rc, out, err = run("--json", "--gpu", "all", *paths)
    doc = json.loads(out)
    eq(schema_validate.errors(doc), [])
    eq([t["target"] for t in doc["targets"]], ["sm_%d" % cc for cc in ALL])
    eq({t["source"] for t in doc["targets"]}, {"--gpu all"})
    want_groups = {}
    for f in doc["files"]:
        label = f["path"] + ("(%s)" % f["member"] if f.get("member") else "")
        groups = {}
        for t, cc in enumerate(ALL):
            ways = []
            for c in f["containers"]:
                load = c["loads"][t]
                if load.get("unused_link_input"):
                    continue
                if load.get("defines_nothing"):  # rule 10: nothing to launch, whatever it loads
                    assert all(e["kind"] == "cubin" for e in c["entries"]), label
                    continue
                if c["role"] == "link_input":
                    want = expected_link(c["entries"], cc)
                    got = load["link"]["kind"] if load["link"] else None
                    eq(got, want, "%s link on sm_%d" % (label, cc))
                    ways.append("links" if want else "no link")
                else:
                    want = expected_load(c["entries"], cc)
                    got = load["via"]["kind"] if load["result"] == "CUDA_SUCCESS" else "none"
                    eq(got, want, "%s on sm_%d: %s" % (label, cc, [e["arch"] for e in c["entries"]]))
                    ways.append(want)
            groups[cc] = expected_group(ways)
            v = f["verdicts"][t]
            eq(v["status"], {None: "no-code", "none": "none", "partial": "partial"}.get(groups[cc], "ok"),
               "%s on sm_%d" % (label, cc))
        want_groups[label] = {cc: g for cc, g in groups.items() if g}
    # the summary's coverage line says the same, file by file
    rc2, text, _ = run("--gpu", "all", *paths)
    eq(rc2, rc)
    got = coverage_lines(text.decode())
    eq({k: v for k, v in want_groups.items() if v}, got)
    assert text.decode().startswith("judging for: 20 architectures, sm_37 to sm_121 (--gpu all); driver assumed new\n"
                                    "    enough for any PTX (name one with --driver)\n"), text


@test
def gpu_all_in_the_summary():
    rc, out, err = run("--gpu", "all", fx("app"))
    eq(rc, 1)
    eq(out.decode().split("\n", 2)[2],
       fx("app") + ": 2 containers in .nv_fatbin\n"
       "  cubin        2  sm_86:2\n"
       "  ptx          1  compute_86:1\n"
       "  PTX ISA 9.0; stored: zstd 1, uncompressed 2\n"
       "  runtime: libcudart.so.13; needs a driver for CUDA 13.0 or newer (>= 580.65.06)\n"
       "  coverage: native sm_86; compatible sm_89; JIT only sm_87 sm_90-sm_121; none\n"
       "    sm_37-sm_80\n")
    # with other targets: --gpu all,H100 is still every architecture once
    doc = json.loads(run("--json", "--gpu", "all,H100", fx("app"))[1])
    eq(len(doc["targets"]), len(ALL))
    eq(doc["targets"][ALL.index(90)]["source"], "--gpu all, --gpu H100")
    assert "  coverage: native sm_86;" in run("--gpu", "all,H100", fx("app"))[1].decode()
    # A target first, or an inventory's beside (rv38 F3): the coverage line ran backwards
    # ("none sm_120-sm_72") and named sm_90 in two groups; each target is said instead.
    with tempfile.NamedTemporaryFile("w", suffix=".csv") as fleet:
        fleet.write("name, compute_cap, driver_version\nNVIDIA H100 80GB HBM3, 9.0, 550.54.15\n")
        fleet.flush()
        for args, first in ((["--gpu", "sm_120,all"], "  sm_120 (--gpu sm_120, --gpu all)\n"),
                            (["--gpu", "all", "--gpus-from", fleet.name], "  sm_37 (--gpu all)\n")):
            rc, out, err = run(*args, fx("app"))
            text = out.decode()
            eq(rc, 1)
            assert text.startswith("judging for:\n" + first) and "coverage:" not in text, text
            verdicts = [l for l in text.splitlines() if re.match(r"^  sm_\d+ \(.*\): (ok|none|partial)", l)]
            eq(len(verdicts), len(ALL) + (1 if "--gpus-from" in args else 0), text)
            assert "| file | coverage |" not in run("--format=markdown", *args, fx("app"))[1].decode()


@test
def gpu_all_in_the_ci_formats():
    paths = [fx("app"), fx("all_archs.fatbin"), fx("kernels.ptx")]
    want_groups = ["native sm_86; compatible sm_89; JIT only sm_87 sm_90-sm_121; none sm_37-sm_80",
                   "native sm_75-sm_121; none sm_37-sm_72", "JIT only sm_89-sm_121; none sm_37-sm_87"]
    # github: one annotation per file whose coverage is not whole, the groups as the summary has them
    rc, out, _ = run("--format=github", "--gpu", "all", *paths)
    eq(rc, 1)
    eq(annotations(out), [("error", {"file": p, "title": "fatcheck: GPU coverage"}, "%s: %s" % (p, g))
                          for p, g in zip(paths, want_groups) if g])
    # markdown: one coverage column, sm_ escaped
    rc, out, _ = run("--format=markdown", "--gpu", "all", *paths)
    eq(rc, 1)
    rows = [l for l in lines(out) if l.startswith("| ")]
    eq(rows, ["| file | coverage |"] +
       ["| %s | %s |" % (p.replace("_", "\\_"), g.replace("_", "\\_")) for p, g in zip(paths, want_groups) if g])
    # junit: a case per file and architecture (PTX for compute_90 has code for sm_90 on)
    rc, out, _ = run("--format=junit", "--gpu", "all", *paths)
    cases = junit(out)
    eq(len(cases), 3 * len(ALL))
    eq([c[1] for c in cases[:len(ALL)]], ["sm_%d (--gpu all)" % cc for cc in ALL])
    failing = lambda path: [int(c[1][3:].split()[0]) for c in cases if c[0] == path and c[2] == "failure"]
    eq(failing(fx("app")), [cc for cc in ALL if cc < 86])
    eq(failing(fx("all_archs.fatbin")), [cc for cc in ALL if cc < 75])
    eq(failing(fx("kernels.ptx")), [cc for cc in ALL if cc < 89])


@test
def arch_list_and_no_target_in_the_ci_formats():
    args = ["--gpu", "8.0", "--arch-list", "8.0;9.0", fx("app")]
    found = annotations(run("--format=github", *args)[1])
    eq([(level, props["title"]) for level, props, _ in found],
       [("error", "fatcheck: none on sm_80 (--gpu 8.0, --arch-list)"), ("error", "fatcheck: not what the arch list builds")])
    eq(found[1][2], "%s: arch list \"8.0;9.0\": missing sm_80; missing sm_90; not asked for: sm_86 compute_86" % fx("app"))
    eq(junit(run("--format=junit", *args)[1])[2],
       (fx("app"), "arch list", "failure", "arch list \"8.0;9.0\": missing sm_80; missing sm_90; not asked for: sm_86 "
                                           "compute_86"))
    out = run("--format=markdown", *args)[1].decode()
    assert out.endswith("- **%s**: arch list \"8.0;9.0\": missing sm\\_80; missing sm\\_90; not asked for: sm\\_86 "
                        "compute\\_86\n" % fx("app").replace("_", "\\_")), out
    # no target (none named, none detected): said in each format as on standard error, exit 0
    rc, out, err = run(fx("app"))
    eq(rc, 0)
    why = err.decode().splitlines()[0]
    assert why.startswith("fatcheck: warning: not judging any GPU: "), why
    why = why[len("fatcheck: warning: "):]
    rc, out, _ = run("--format=github", fx("app"))
    eq((rc, annotations(out)), (0, [("warning", {"title": "fatcheck: no target GPU"}, why)]))
    rc, out, _ = run("--format=junit", fx("app"))
    eq((rc, junit(out)), (0, [(fx("app"), "read", None, None)]))
    eq(ET.fromstring(out).find("testsuite/system-err").text, why)
    rc, out, _ = run("--format=markdown", fx("app"), fx("missing"))
    eq((rc, out.decode()), (3, "## fatcheck\n\nN" + why[1:] + "\n\n| file |\n|:--|\n| %s |\n| %s (❌ not read) |\n\n"
                               "### Inputs that could not be read\n\n- %s: cannot open: No such file or directory\n"
                               % (fx("app"), fx("missing"), fx("missing"))))


# ---- --accept ----------------------------------------------------------------------------

def accept_file(tmp, text):
    path = os.path.join(tmp, "accept")
    open(path, "w").write(text)
    return path


@test
def accepted_verdicts_pass_the_check_and_say_why():
    with tempfile.TemporaryDirectory() as tmp:
        rules = accept_file(tmp, "# known\n"
                                 "*/libmulti.so  sm_86  partial  sm_90 kernels of one module never launched here\n"
                                 "\n"
                                 "*/app  8.0  none  \"Ampere\" is not deployed   \n"
                                 "*/nothing.so  *  none  left over\n")
        # without the rules: --strict fails on libmulti.so (partial) and app (none)
        eq(run("--strict", "--gpu", "8.6,8.0", fx("libmulti.so"), fx("app"))[0], 1)
        rc, out, err = run("--strict", "--gpu", "8.6", "--accept", rules, fx("libmulti.so"))
        eq(rc, 0)
        text = out.decode()
        assert re.search(r"\n  sm_86 \(--gpu 8\.6\): partial, 1 of 2 modules load; 1 cannot\n    \(no kernel image for sm_86\)\n"
                         r"    accepted \(%s:2\): sm_90 kernels of one module never\s+launched here\n" % re.escape(rules),
                         text), text
        # the stale rule, on standard error (line 4's target, sm_80, is not judged: not stale);
        # the exit status is not its
        eq([l for l in err.decode().splitlines() if "stale" in l],
           ["fatcheck: %s:5: stale exception: no none or partial verdict of */nothing.so on any target to accept "
            "(remove the rule)" % rules])
        rc, out, err = run("--strict", "--gpu", "8.6,8.0", "--accept", rules, fx("libmulti.so"))
        eq([l for l in err.decode().splitlines() if "stale" in l],
           ["fatcheck: %s:4: stale exception: no none or partial verdict of */app on 8.0 to accept (remove the rule)" % rules,
            "fatcheck: %s:5: stale exception: no none or partial verdict of */nothing.so on any target to accept "
            "(remove the rule)" % rules])
        # app on sm_80 is accepted; libmulti.so on sm_80 is partial, which --strict still fails:
        # nothing new is hidden
        rc, out, err = run("--strict", "--gpu", "8.6,8.0", "--accept", rules, fx("libmulti.so"), fx("app"))
        eq(rc, 1)
        rc, out, err = run("--gpu", "8.0", "--accept", rules, fx("app"))
        eq(rc, 0)
        # JSON: the verdict's rule, and each rule's count
        rc, out, err = run("--json", "--strict", "--gpu", "8.6,8.0", "--accept", rules, fx("libmulti.so"), fx("app"))
        doc = json.loads(out)
        eq(schema_validate.errors(doc), [])
        eq([[v.get("accepted") for v in f["verdicts"]] for f in doc["files"]],
           [[{"reason": "sm_90 kernels of one module never launched here", "line": 2}, None],
            [None, {"reason": "\"Ampere\" is not deployed", "line": 4}]])
        eq([(r["line"], r["pattern"], r["target"], r["status"], r["accepted"], r["stale"]) for r in doc["accept"]["rules"]],
           [(2, "*/libmulti.so", "sm_86", "partial", 1, False), (4, "*/app", "8.0", "none", 1, False),
            (5, "*/nothing.so", "*", "none", 0, True)])
        eq(rc, 1)  # libmulti.so on sm_80
        # -q leaves out a file whose only problems are accepted
        rc, out, err = run("-q", "--strict", "--gpu", "8.6", "--accept", rules, fx("libmulti.so"), fx("kernels.sm_90.cubin"))
        assert fx("libmulti.so").encode() not in out and (fx("kernels.sm_90.cubin") + ":").encode() in out, out


@test
def a_rule_does_not_accept_what_the_driver_fails():
    # A rule written for a file's images accepted a none of another cause: its CUDA 13 runtime
    # unable to start on a CUDA 12.4 driver, every CUDA call failing (review of 2026-12-04, R1).
    # Not accepted, and the rule, which matched, is not called stale.
    with tempfile.TemporaryDirectory() as tmp:
        rules = accept_file(tmp, '*/libmulti.so sm_90 none "no kernel image here, CPU fallback"\n')
        rc, out, err = run("--gpu", "9.0", "--driver", "12.4", "--accept", rules, fx("libmulti.so"))
        eq((rc, b"accepted (" in out, b"stale" in err), (1, False, False))
        rc, out, err = run("--gpu", "9.0", "--driver", "13.0", "--accept", rules, fx("libmulti.so"))
        eq((rc, b"stale exception" in err), (0, True))  # ok there: nothing to accept
        rc, out, err = run("--gpu", "B200", "--driver", "12.4", "--accept",
                           accept_file(tmp, '*/libmulti.so * none "old GPUs"\n'), fx("libmulti.so"))
        eq((rc, b"accepted (" in out), (1, False))

@test
def a_rule_for_a_target_not_judged_is_not_stale():
    with tempfile.TemporaryDirectory() as tmp:
        rules = accept_file(tmp, "*app sm_80 none Ampere nodes run the CPU path\n*app sm_90 partial nothing to accept\n")
        args = ["--gpu", "9.0", "--accept", rules, fx("kernels.sm_90.cubin")]
        rc, out, err = run(*args)
        eq((rc, [l for l in err.decode().splitlines() if "stale" in l]),
           (0, ["fatcheck: %s:2: stale exception: no partial verdict of *app on sm_90 to accept (remove the rule)" % rules]))
        doc = json.loads(run("--json", *args)[1])
        eq(schema_validate.errors(doc), [])
        eq([(r["accepted"], r["stale"]) for r in doc["accept"]["rules"]], [(0, False), (0, True)])
        eq([(level, props.get("line")) for level, props, _ in annotations(run("--format=github", *args)[1])],
           [("warning", "2")])
        eq([c[1:] for c in junit(run("--format=junit", *args)[1])[1:]],
           [("line 1: *app sm_80 none", "skipped", "its target is not judged in this run"),
            ("line 2: *app sm_90 partial", "skipped", "stale: no verdict to accept; remove the rule")])
        out = run("--format=markdown", *args)[1].decode()
        assert out.endswith("### Stale exceptions (remove them)\n\n- %s:2: \\*app sm\\_90 partial: no such verdict "
                            "to accept\n" % rules.replace("_", "\\_")), out


@test
def an_inventory_or_rules_file_that_cannot_be_read_is_said_in_every_format():
    # rv43 F7: the run stopped at standard error, and --format junit > report.xml or --json >
    # report.json kept an empty file, which a pipeline shows as nothing wrong or cannot parse.
    with tempfile.TemporaryDirectory() as tmp:
        inventory = os.path.join(tmp, "fleet.csv")
        open(inventory, "w").write("index,name,compute_cap,driver\n0,NVIDIA H100,9.0,470.57.02\n")
        rules = accept_file(tmp, "*app sm_90 broken why\n")
        for args, path, why in ((("--gpus-from", inventory), inventory, "line 1: column 'driver' is not"),
                                (("--gpu", "9.0", "--accept", rules), rules, ":1: the accepted status is")):
            rc, out, err = run("--json", *args, fx("app"))
            doc = json.loads(out)
            eq(schema_validate.errors(doc), [])
            eq((rc, [e["path"] for e in doc["errors"]], doc["files"], err.count(b"\n")), (3, [path], [], 1))
            assert why in doc["errors"][0]["message"], doc
            rc, out, err = run("--format=github", *args, fx("app"))
            eq((rc, [(level, props.get("file")) for level, props, _ in annotations(out) if level == "error"]),
               (3, [("error", path)]))
            rc, out, err = run("--format=junit", *args, fx("app"))
            eq((rc, [c[:3] for c in junit(out)]), (3, [(path, "read", "error")]))
            rc, out, err = run("--format=markdown", *args, fx("app"))
            eq(rc, 3)
            assert "### Inputs that could not be read" in out.decode() and why in out.decode(), out
            rc, out, err = run(*args, fx("app"))
            eq((rc, out), (3, b""))


@test
def a_bounded_partial_rule_accepts_no_more_failing_modules():
    # rv43 F4: a partial rule written for one legacy module also accepted a later build whose
    # main module stopped loading ("partial, 1 of 3"), exit 0 under --strict: a partial verdict
    # of any number of failing modules was accepted. "partial:N" accepts at most N failing; the
    # rule that refuses is not stale.
    with tempfile.TemporaryDirectory() as tmp:
        rules = accept_file(tmp, "*/libmulti.so sm_86 partial:1 its sm_90 module is never launched here\n")
        rc, out, err = run("--json", "--strict", "--gpu", "8.6", "--accept", rules, fx("libmulti.so"))
        doc = json.loads(out)
        eq(schema_validate.errors(doc), [])
        eq((rc, doc["files"][0]["verdicts"][0]["status"], doc["files"][0]["verdicts"][0].get("accepted", {}).get("line"),
            [(r["status"], r.get("max_failing"), r["accepted"]) for r in doc["accept"]["rules"]]),
           (0, "partial", 1, [("partial", 1, 1)]))
        # fixtures/libthree.so: on sm_90 two modules of three fail, one more than the rule allows;
        # not accepted, and the rule, which matched, is not called stale. Unbounded, it was.
        three = fx("libthree.so")
        for status, rc_want in (("partial:1", 1), ("partial:2", 0), ("partial", 0)):
            rules = accept_file(tmp, "*/libthree.so * %s its sm_80 modules are never launched on Hopper\n" % status)
            rc, out, err = run("--strict", "--gpu", "9.0", "--driver", "13.0", "--accept", rules, three)
            eq((rc, b"partial, 1 of 3 modules load; 2 cannot" in out, b"accepted (" in out, b"stale" in err),
               (rc_want, True, rc_want == 0, False), status)
            rc, out, err = run("--strict", "--gpu", "8.0", "--driver", "13.0", "--accept", rules, three)
            eq((rc, b"partial, 2 of 3 modules load; 1 cannot" in out, b"accepted (" in out), (0, True, True), status)
        # A module the runtime links loads, as the summary counts it: "1 of 2 modules load; 1
        # cannot" was not accepted by partial:1 (its linked module counted as failing).
        rdc = os.path.join(FIXTURES, "rules", "libkept_rdc_ptx.so")
        rules = accept_file(tmp, "*/libkept_rdc_ptx.so 10.0 partial:1 its sm_80 module is never launched here\n")
        rc, out, err = run("--strict", "--gpu", "10.0", "--driver", "13.0", "--accept", rules, rdc)
        eq((rc, b"partial, 1 of 2 modules load; 1 cannot" in out, b"accepted (" in out), (0, True, True))
        # JUnit names the bound, and a rule that matched only what it may not accept is no
        # target left unjudged (rv44 F6).
        rules = accept_file(tmp, "*/libthree.so 8.0 partial:1 one is never launched on Ampere\n"
                                 "*/libthree.so 9.0 partial:1 two fail here\n")
        rc, out, err = run("--strict", "--format=junit", "--gpu", "8.0,9.0", "--driver", "13.0", "--accept", rules, three)
        eq((rc, [c[1:] for c in junit(out) if c[0].startswith("--accept")]),
           (1, [("line 1: */libthree.so 8.0 partial:1", None, None),
                ("line 2: */libthree.so 9.0 partial:1", "skipped", "matched only verdicts it may not accept (the "
                 "driver fails them, or more modules fail than partial:N allows)")]))
        # Under --kernels, modules that load an image lacking a kernel count as failing too: a
        # partial:1 rule accepted three of them (rv44 F3).
        guarded = open(fx("archguard.fatbin"), "rb").read()
        for copies, rc_want in ((1, 0), (3, 1)):
            path = os.path.join(tmp, "guard%d.fatbin" % copies)
            open(path, "wb").write(guarded * copies)
            rules = accept_file(tmp, "*.fatbin 8.0 partial:1 one module lacks only90 on Ampere\n")
            rc, out, err = run("-k", "--strict", "--gpu", "8.0", "--accept", rules, path)
            eq((rc, b"accepted (" in out), (rc_want, rc_want == 0), copies)


@test
def a_partial_rule_does_not_accept_none():
    with tempfile.TemporaryDirectory() as tmp:
        rules = accept_file(tmp, "*app sm_80 partial only partial is known\n")
        rc, out, err = run("--gpu", "8.0", "--accept", rules, fx("app"))
        eq(rc, 1)
        assert b"accepted" not in out, out
        assert b":1: stale exception: no partial verdict of *app on sm_80" in err, err


@test
def accepted_in_every_format():
    with tempfile.TemporaryDirectory() as tmp:
        rules = accept_file(tmp, "*libmulti.so A100 partial the sm_90 module is never launched\n*x.so * none stale\n")
        args = ["--strict", "--gpu", "8.0", "--accept", rules, fx("libmulti.so")]
        rc, out, _ = run("--format=github", *args)
        eq(rc, 0)
        eq([(level, props) for level, props, _ in annotations(out)],
           [("notice", {"file": fx("libmulti.so"), "title": "fatcheck: partial on sm_80 (--gpu 8.0), accepted"}),
            ("warning", {"file": rules, "line": "2", "title": "fatcheck: stale exception"})])
        rc, out, _ = run("--format=junit", *args)
        eq(junit(out), [(fx("libmulti.so"), "sm_80 (--gpu 8.0)", "skipped",
                         "accepted (%s:1): the sm_90 module is never launched" % rules),
                        ("--accept " + rules, "line 1: *libmulti.so A100 partial", None, None),
                        ("--accept " + rules, "line 2: *x.so * none", "skipped",
                         "stale: no verdict to accept; remove the rule")])
        rc, out, _ = run("--format=markdown", *args)
        assert "| ☑️ accepted (partial) |" in out.decode(), out
        assert "### Stale exceptions (remove them)" in out.decode(), out


@test
def accept_files_that_cannot_be_read():
    with tempfile.TemporaryDirectory() as tmp:
        for text, why in [("*app sm_90 partial\n", ":1: expected PATTERN TARGET STATUS REASON"),
                          ('*app sm_90 partial ""\n', ":1: expected PATTERN TARGET STATUS REASON"),
                          ("# c\n*app sm_90 broken why\n", ":2: the accepted status is partial, partial:N (at most N "
                           "modules failing) or none, not 'broken'"),
                          ("*app sm_90 partial:0 why\n", ":1: the accepted status is partial, partial:N"),
                          ("*app sm_90 partial:1x why\n", ":1: the accepted status is partial, partial:N"),
                          ("*app Voodoo5 partial why\n", ":1: unknown GPU 'Voodoo5'"),
                          ('"*app sm_90 partial why\n', ":1: a quoted field does not end"),
                          ("*app sm_90 partial why\0\n", ": not a text file (it holds a NUL byte)")]:
            rules = accept_file(tmp, text)
            rc, out, err = run("--gpu", "9.0", "--accept", rules, fx("app"))
            eq((rc, out), (3, b""), text)
            assert err.decode().startswith("fatcheck: " + rules + why), err
        # A byte order mark (Windows editors) was the first rule's pattern, matching nothing (rv43 F8).
        rules = accept_file(tmp, "\ufeff*/app sm_80 none Ampere nodes run the CPU path\n")
        rc, out, err = run("--strict", "--gpu", "8.0", "--accept", rules, fx("app"))
        eq((rc, b"accepted (" in out, err), (0, True, b""))
        rc, out, err = run("--gpu", "9.0", "--accept", "/nonexistent", fx("app"))
        eq(rc, 3)
        assert err.startswith(b"fatcheck: /nonexistent: cannot open: No such file or directory"), err
        # a quoted pattern holds spaces; CRLF line ends are fine
        copy = os.path.join(tmp, "my app")
        shutil.copy(fx("app"), copy)
        rules = accept_file(tmp, '"*/my app" sm_80 none "an old build" \r\n')
        eq(run("--gpu", "8.0", "--accept", rules, copy)[0], 0)


@test
def accept_matches_package_members_by_their_name():
    with tempfile.TemporaryDirectory() as tmp:
        pkg = os.path.join(FIXTURES, "packages", "libs.tar.gz")
        doc = json.loads(run("--json", "--strict", "--gpu", "8.0", pkg)[1])
        failing = [(f["member"], f["verdicts"][0]["status"]) for f in doc["files"]
                   if f.get("member") and f["verdicts"][0]["status"] in ("partial", "none")]
        eq(failing, [("lib/libmulti.so", "partial")])
        eq(run("--strict", "--gpu", "8.0", pkg)[0], 1)
        # a pattern for the member's own path matches the file named alone, not the member
        rules = accept_file(tmp, "*/lib/libmulti.so sm_80 partial known\n")
        eq(run("--strict", "--gpu", "8.0", "--accept", rules, pkg)[0], 1)
        rules = accept_file(tmp, "*libs.tar.gz!lib/libmulti.so sm_80 partial known\n")
        rc, out, err = run("--strict", "--gpu", "8.0", "--accept", rules, pkg)
        eq((rc, b"stale" in err), (0, False), err)


# ---- hostile names, damage and unread inputs in every CI format ---------------------------

# More names no format may let through as they are: bytes that are not UTF-8, U+FFFE (valid
# UTF-8, but no XML character), a right-to-left override, workflow-command and Markdown
# separators at the start, a table row of their own.
MORE_HOSTILE = [b"x\xff\xfe\xef\xbf\xbe\xe2\x80\xaey.so", b"%0A::warning file=y::z.so", b"|a|b|\n|c|d|.so",
                b"<testcase name='forged'>&amp;.so"]


def text_escaped(name):
    """NAME as fatcheck's text escaping writes it (escape.h): control characters, the
    bidirectional ones and bytes that are not UTF-8 as octal escapes, the common controls as
    C escapes."""
    out = []
    s = name.decode("utf-8", "surrogateescape")
    for ch in s:
        cp = ord(ch)
        if 0xDC80 <= cp <= 0xDCFF:  # a byte that is not UTF-8
            out.append("\\%03o" % (cp - 0xDC00))
        elif ch in "\a\b\t\n\v\f\r":
            out.append({"\a": "\\a", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\v": "\\v", "\f": "\\f", "\r": "\\r"}[ch])
        elif cp < 0x20 or 0x7F <= cp <= 0x9F or cp in (0x61C, 0x200E, 0x200F, 0x2028, 0x2029) \
                or 0x202A <= cp <= 0x202E or 0x2066 <= cp <= 0x2069:
            out.append("".join("\\%03o" % b for b in ch.encode()))
        else:
            out.append(ch)
    return "".join(out)


def text_quoted(name):
    """NAME as fatcheck quotes a name (escape.h, ESCAPE_NAME; fatcheck(1), Names): as it is when
    nothing needs escaping, else in double quotes with '"' and '\\' escaped too. The CI formats
    write names so (a TAB and a literal "\\t" were one name: review of 2026-12-05, rt8 finding 8)."""
    escaped = text_escaped(name)
    plain = name.decode("utf-8", "surrogateescape")
    if escaped == plain and '"' not in plain and "\\" not in plain:
        return plain
    return '"' + text_escaped(name.replace(b"\\", b"\x00BS").replace(b'"', b"\x00DQ")) \
        .replace("\\000BS", "\\\\").replace("\\000DQ", '\\"') + '"'


def hostile_copies(tmp, source="app"):
    names = [HOSTILE] + MORE_HOSTILE
    paths = [os.path.join(os.fsencode(tmp), n) for n in names]
    for p in paths:
        shutil.copy(fx(source), p)
    return paths


@test
def hostile_names_forge_nothing_in_any_format():
    with tempfile.TemporaryDirectory() as tmp:
        paths = hostile_copies(tmp)
        want = [text_quoted(p) for p in paths]
        # github: one ::error per file (none on sm_80), every line a well-formed command,
        # the file property the name as the text output quotes it
        rc, out, err = run("--format=github", "--gpu", "8.0", *paths)
        eq(rc, 1)
        found = annotations(out)
        eq([(level, props["file"]) for level, props, _ in found], [("error", w) for w in want])
        # junit: well-formed XML, one case per file, the names back as the text output quotes
        # them, U+FFFE (no XML character) as its bytes' escapes
        rc, out, err = run("--format=junit", "--gpu", "8.0", *paths)
        eq(rc, 1)
        cases = junit(out)
        eq([c[0] for c in cases], [w.replace("\ufffe", "\\357\\277\\276") for w in want])
        eq({c[2] for c in cases}, {"failure"})
        # markdown: one row per file, each with exactly its three cell separators
        rc, out, err = run("--format=markdown", "--gpu", "8.0", *paths)
        eq(rc, 1)
        rows = [l for l in lines(out) if l.startswith("| ") and not l.startswith("| file")]
        eq(len(rows), len(paths), rows)
        for row in rows:
            eq(len(re.findall(r"(?<!\\)\|", row)), 3, row)
            assert row.endswith("| ❌ none |") and "<" not in row.replace("\\<", ""), row


def damaged_copy(tmp):
    """libmulti.so with its first container's magic zeroed: .nv_fatbin cannot be walked, and
    the registered code counts as a module that fails (formats_test has the text)."""
    garbage = bytearray(open(fx("libmulti.so"), "rb").read())
    garbage[0x2028:0x202c] = bytes(4)
    path = os.path.join(tmp, "damaged.so")
    open(path, "wb").write(garbage)
    return path


@test
def an_accept_rule_never_hides_damage_or_an_unread_input():
    with tempfile.TemporaryDirectory() as tmp:
        damaged = damaged_copy(tmp)
        missing = os.path.join(tmp, "missing.so")
        rules = accept_file(tmp, "* * none every verdict, whatever it is\n")
        args = ["--strict", "--gpu", "8.0", "--accept", rules, damaged, missing, fx("app")]
        for f in ["text", "json", "github", "junit", "markdown"]:
            eq(run("--format=" + f, *args)[0], 3, f)
        doc = json.loads(run("--json", *args)[1])
        eq(schema_validate.errors(doc), [])
        eq([(f["path"], f["verdicts"][0]["status"], f["verdicts"][0].get("accepted")) for f in doc["files"]],
           [(damaged, "none", None), (fx("app"), "none", {"reason": "every verdict, whatever it is", "line": 1})])
        eq([e["path"] for e in doc["errors"]], [missing])
        found = annotations(run("--format=github", *args)[1])
        eq([(level, props.get("file"), props.get("title")) for level, props, _ in found],
           [("error", damaged, "fatcheck: could not be decoded"), ("error", damaged, "fatcheck: none on sm_80 (--gpu 8.0)"),
            ("error", missing, "fatcheck: could not be read"),
            ("notice", fx("app"), "fatcheck: none on sm_80 (--gpu 8.0), accepted")])
        eq([c[:3] for c in junit(run("--format=junit", *args)[1])],
           [(damaged, "read", "error"), (damaged, "sm_80 (--gpu 8.0)", "failure"), (missing, "read", "error"),
            (fx("app"), "sm_80 (--gpu 8.0)", "skipped"), ("--accept " + rules, "line 1: * * none", None)])
        rows = [l for l in lines(run("--format=markdown", *args)[1]) if l.startswith("| ") and not l.startswith("| file")]
        eq(rows, ["| %s (❌ could not be decoded) | ❌ none |" % damaged.replace("_", "\\_"),
                  "| %s | ❌ not read |" % missing.replace("_", "\\_"),
                  "| %s | ☑️ accepted (none) |" % fx("app").replace("_", "\\_")])


@test
def unread_images_are_errors_in_every_format():
    with tempfile.TemporaryDirectory() as tmp:
        # compress_size.fatbin with its first zstd frame overwritten: the cubin's image cannot
        # be decompressed, which --kernels finds (exit 3); its first block does not inflate, so
        # the driver refuses the module too ("Uncompress failed"): none on sm_90
        data = bytearray(open(fx("compress_size.fatbin"), "rb").read())
        at = data.index(b"\x28\xb5\x2f\xfd")
        data[at + 30:at + 200] = b"\xff" * 170
        bad = os.path.join(tmp, "corrupt.fatbin")
        open(bad, "wb").write(data)
        args = ["--kernels", "--gpu", "9.0", bad]
        rc, out, err = run(*args)
        eq(rc, 3)
        assert b"cubin image sm_90 could not be read: format error" in err, err
        for f in ["json", "github", "junit", "markdown"]:
            eq(run("--format=" + f, *args)[0], 3, f)
        eq([(level, props["title"]) for level, props, _ in annotations(run("--format=github", *args)[1])],
           [("error", "fatcheck: none on sm_90 (--gpu 9.0)"), ("error", "fatcheck: images could not be read")])
        eq([c[1:3] for c in junit(run("--format=junit", *args)[1])],
           [("sm_90 (--gpu 9.0)", "failure"), ("images", "error")])
        out = run("--format=markdown", *args)[1].decode()
        assert "| %s | ❌ images not read |\n" % bad.replace("_", "\\_") in out, out


# ---- what was not seen or judged, and warnings --------------------------------------------

def md(text):
    """TEXT as --format markdown writes it (render_markdown.c put_md)."""
    return re.sub(r"([\\`*_\[\]<>|&!~$@#])", r"\\\1", text)


def md_problems(out):
    """The table's rows and every section after it, as lines."""
    text = out.decode()
    return [l for l in text.split("|:-:|\n", 1)[1].splitlines() if l]


@test
def what_was_not_seen_or_judged_fails_strict_in_every_ci_format():
    """Review of 2026-12-03: --strict's failures for what was not seen or judged (cb21d2d) and a
    tar that may have been cut short (56daf0c) were said on standard error only: --format github
    printed nothing, JUnit had passing cases only, Markdown a row of ok, for an exit status of 3.
    Each format says them now: without --strict as what --strict would fail (::warning, a skipped
    case, a row marked ⚠️), with it as a failure (::error, an error case, a row marked ❌)."""
    import lzma
    import tarfile
    with tempfile.TemporaryDirectory() as tmp:
        lib = open(fx("libmulti.so"), "rb").read()
        appended = os.path.join(tmp, "appended.so")
        open(appended, "wb").write(lib + bytes(8192))
        # a tar cut right after its first member (packages_test: the end-of-archive marker)
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as t:
            for name, data in (("a.so", lib), ("b.so", lib)):
                info = tarfile.TarInfo(name)
                info.size = len(data)
                t.addfile(info, io.BytesIO(data))
        cut = os.path.join(tmp, "cut.tar")
        open(cut, "wb").write(buf.getvalue()[:512 + (len(lib) + 511) // 512 * 512])
        # a static runtime dated nowhere (runtime_test: an undated static runtime)
        data = lzma.decompress(open(os.path.join(FIXTURES, "runtime", "libstatic.so.xz"), "rb").read())
        data = data.replace(b"Cuda compilation tools, release ", b"Cuda compilation tools, relxase ")
        at = data.find(bytes([0, 0, 9, 0, 86, 0, 0, 0]))
        data = data[:at + 2] + bytes([42]) + data[at + 3:]
        for name in (b"cuMemGetDefaultMemPool", b"cuDeviceGetHostAtomicCapabilities", b"cuMemPrefetchBatchAsync",
                     b"cuLibraryLoadData", b"cuKernelGetFunction", b"cuGraphInstantiateWithParams",
                     b"cuCtxResetPersistingL2Cache"):
            data = data.replace(b"\0" + name + b"\0", b"\0" + name.replace(b"cu", b"cx", 1) + b"\0")
        static = os.path.join(tmp, "static.so")
        open(static, "wb").write(data)
        image = os.path.join(os.path.dirname(FIXTURES), "tests", "images", "whiteouts.tar")
        # each judged where it loads (the static runtime's sm_86 code; libmulti.so's sm_90)
        gpu = {appended: ("--gpu", "9.0", "--driver", "13.0"), cut: ("--gpu", "9.0", "--driver", "13.0"),
               static: ("--gpu", "8.6", "--driver", "13.0")}
        SEEN = "8,192 bytes appended after the ELF image were not read"
        CUT = (cut + ": the tar ends without its end-of-archive marker: it may have been cut short, and members "
               "after the cut are not seen")
        RUNTIME = "whether the targets' driver starts its CUDA runtime is not judged"
        CONTAINER = "whether the NVIDIA Container Toolkit starts its container depends on what is not known"
        for strict in (False, True):
            flag = ("--strict",) if strict else ()
            tail = "; --strict fails it" if strict else " (--strict fails it)"
            level = "error" if strict else "warning"
            skipped = "error" if strict else "skipped"
            mark = "❌" if strict else "⚠️"
            for path in (appended, cut, static):  # the exit status is every format's
                for f in ("text", "github", "junit", "markdown", "json"):
                    eq(run("--format=" + f, *(gpu[path] + flag + (path,)))[0], 3 if strict else 0, (f, path))
            # github: an annotation on the file, with the reason
            eq(annotations(run("--format=github", *(gpu[appended] + flag + (appended,)))[1]),
               [(level, {"file": appended, "title": "fatcheck: not all seen"}, appended + ": " + SEEN + tail)])
            eq(annotations(run("--format=github", *(gpu[static] + flag + (static,)))[1]),
               [(level, {"file": static, "title": "fatcheck: not judged"}, static + ": " + RUNTIME + tail)])
            eq(annotations(run("--format=github", *(gpu[cut] + flag + (cut,)))[1]),
               [("error", {"file": cut, "title": "fatcheck: could not be read"}, CUT)] if strict else
               [("warning", {"file": cut, "title": "fatcheck: may be incomplete"}, CUT + " (--strict fails it)")])
            # junit: a case of its own, skipped, or an error with --strict
            eq(junit(run("--format=junit", *(gpu[appended] + flag + (appended, cut)))[1]), [
                (appended, "sm_90 (--gpu 9.0)", None, None),
                (appended, "appended bytes", skipped, SEEN + tail),
                (cut + "!a.so", "sm_90 (--gpu 9.0)", None, None),
                (cut, "read", "error", CUT) if strict else (cut, "read", "skipped", CUT + " (--strict fails it)")])
            eq(junit(run("--format=junit", *(gpu[static] + flag + (static,)))[1]),
               [(static, "sm_86 (--gpu 8.6)", None, None), (static, "runtime start", skipped, RUNTIME + tail)])
            # markdown: the row marked, the reason in words (names escaped: a temporary folder may hold '_')
            eq(md_problems(run("--format=markdown", *(gpu[appended] + flag + (appended, cut)))[1]), [
                "| %s (%s not all seen) | ✅ ok |" % (md(appended), mark),
                "| %s | ✅ ok |" % md(cut + "!a.so"),
                "| %s | %s |" % (md(cut), "❌ not read" if strict else "⚠️ may be incomplete"),
                "### Problems",
                "- **%s**: %s%s" % (md(appended), SEEN, tail)] +
               (["### Inputs that could not be read", "- " + md(CUT)] if strict else
                ["### Inputs that may be incomplete", "- %s (--strict fails it)" % md(CUT)]))
            eq(md_problems(run("--format=markdown", *(gpu[static] + flag + (static,)))[1]), [
                "| %s (%s not all judged) | ✅ ok |" % (md(static), mark), "### Problems",
                "- **%s**: %s%s" % (md(static), md(RUNTIME), tail)])
        # a container image whose start depends on what is not known: the image and each file
        args = ("--gpu", "H100", "--driver", "535.104.05", "--strict", image)
        said = [(level, props["title"], message) for level, props, message in annotations(run("--format=github", *args)[1])
                if props["title"] == "fatcheck: not judged"]
        eq(said, [("error", "fatcheck: not judged", name + ": " + CONTAINER + "; --strict fails it")
                  for name in ("app:1.0", "app:1.0:/usr/lib/libold.so", "app:1.0:/usr/local/lib/libmulti.so")])
        eq([c[:3] for c in junit(run("--format=junit", *args)[1]) if c[1] == "container start"],
           [(name, "container start", "error")
            for name in ("app:1.0", "app:1.0:/usr/lib/libold.so", "app:1.0:/usr/local/lib/libmulti.so")])


@test
def what_walks_passed_over_is_said_in_every_ci_format():
    """'N packages not opened', 'N symlinked directories not followed' were said on standard
    error only: a ::notice, a line of JUnit's system-err, a Markdown section."""
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(os.path.join(FIXTURES, "packages", "libs.tar.gz"), tmp)
        os.symlink(FIXTURES, os.path.join(tmp, "link"))
        args = ("--gpu", "9.0", tmp)
        eq(run(*args)[::2], (0, b"fatcheck: 1 symlinked directory not followed (-L follows)\n"
                                b"fatcheck: 1 package not opened (--packages opens them)\n"))
        eq(annotations(run("--format=github", *args)[1]),
           [("notice", {"title": "fatcheck: not searched"}, "1 symlinked directory not followed (-L follows)"),
            ("notice", {"title": "fatcheck: not searched"}, "1 package not opened (--packages opens them)")])
        eq(ET.fromstring(run("--format=junit", *args)[1]).find("testsuite/system-err").text,
           "1 symlinked directory not followed (-L follows)\n1 package not opened (--packages opens them)")
        assert run("--format=markdown", *args)[1].decode().endswith(
            "\n### Not searched\n\n- 1 symlinked directory not followed (-L follows)\n"
            "- 1 package not opened (--packages opens them)\n")


@test
def strict_fails_packages_a_walk_did_not_open_in_every_format():
    """'fatcheck --strict dist/' on a folder of wheels said '1 package not opened' and exited 0:
    a release gate passed what it never looked at (stop 52's note). A symlinked directory not
    followed is still only said."""
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(os.path.join(FIXTURES, "packages", "libs.tar.gz"), tmp)
        os.symlink(FIXTURES, os.path.join(tmp, "link"))
        args = ("--strict", "--gpu", "9.0", tmp)
        fails = "1 package not opened (--packages opens them); --strict fails it"
        eq(run(*args)[::2], (3, b"fatcheck: 1 symlinked directory not followed (-L follows)\n"
                                b"fatcheck: " + fails.encode() + b"\n"))
        rc, out, _ = run("--format=github", *args)
        eq((rc, annotations(out)),
           (3, [("notice", {"title": "fatcheck: not searched"}, "1 symlinked directory not followed (-L follows)"),
                ("error", {"title": "fatcheck: not searched"}, fails)]))
        rc, out, _ = run("--format=junit", *args)
        eq((rc, [c[:3] for c in junit(out) if c[0] == "walks"]), (3, [("walks", "packages", "error")]))
        rc, out, _ = run("--format=markdown", *args)
        eq(rc, 3)
        assert out.decode().endswith("- " + fails + "\n"), out
        rc, out, _ = run("--json", *args)
        eq((rc, json.loads(out)["skipped_in_walks"]), (3, {"symlinked_directories": 1, "packages": 1}))
        eq(run("--strict", "--packages", "--gpu", "9.0", tmp)[0], 0)
        os.unlink(os.path.join(tmp, "libs.tar.gz"))
        eq(run(*args)[::2], (0, b"fatcheck: 1 symlinked directory not followed (-L follows)\n"))


@test
def an_unread_torch_extension_folder_is_an_error_in_every_format():
    """fc_torch_extensions' own error (a folder with no extension) was said on standard error only."""
    with tempfile.TemporaryDirectory() as tmp:
        args = ("--gpu", "9.0", "--torch-extensions", tmp)
        rc, out, err = run(*args)
        eq(rc, 3)
        message = err.decode().split("fatcheck: ", 1)[1].rstrip("\n")
        assert message.startswith(tmp + ": "), message
        eq(annotations(run("--format=github", *args)[1]),
           [("error", {"file": tmp, "title": "fatcheck: could not be read"}, message)])
        eq(junit(run("--format=junit", *args)[1]), [(tmp, "read", "error", message)])
        eq(json.loads(run("--json", *args)[1])["errors"], [{"path": tmp, "message": message}])


# ---- -q with -l ------------------------------------------------------------------------

@test
def quiet_list_shows_only_files_with_problems():
    rc, out, _ = run("-q", "-l", "--gpu", "8.6", fx("app"), fx("libmulti.so"))
    heads = [l for l in lines(out) if not l.startswith(" ")]
    eq(heads, [])  # libmulti.so is partial on sm_86: no problem without --strict
    rc, out, _ = run("-q", "-l", "--strict", "--gpu", "8.6", fx("app"), fx("libmulti.so"))
    heads = [l for l in lines(out) if not l.startswith(" ")]
    eq(heads, [fx("libmulti.so") + ":"])
    # without -q, both
    rc, out, _ = run("-l", "--strict", "--gpu", "8.6", fx("app"), fx("libmulti.so"))
    eq(len([l for l in lines(out) if not l.startswith(" ")]), 2)


sys.exit(main())
