#!/usr/bin/env python3
"""What a program built against libfatcheck meets: the shared library's dynamic symbol table
(the API, nothing else), and fatcheck.pc (a static link through `pkg-config --static`, and
`pkg-config --cflags --libs` where libarchive.pc is absent).

Usage: packaging_test.py LIBFATCHECK_SO INCLUDE_DIR UNINSTALLED_PC_DIR CC FATCHECK FIXTURES_DIR
Writes TAP. The pkg-config file used is the build tree's fatcheck-uninstalled.pc, which meson
writes from the same description as the installed fatcheck.pc (scripts/test.sh links against
the installed one as well)."""
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

from tap import eq, main, test  # noqa: E402

LIB, INCLUDE, PC_DIR, FATCHECK, FIXTURES = (os.path.abspath(a) for a in sys.argv[1:4] + sys.argv[5:7])
CC = sys.argv[4]
# A program that scans its arguments and counts containers, through the public header alone.
PROGRAM = r"""
#include <fatcheck.h>
#include <stdio.h>
static int on_object(void *ctx, const fc_object *o) { *(size_t *)ctx += o->n_containers; return 0; }
static int on_error(void *ctx, const fc_error *e) { (void)ctx; fprintf(stderr, "%s\n", e->message); return 0; }
int main(int argc, char **argv)
{
    fc_options o;
    fc_options_init(&o);
    size_t n = 0;
    for (int i = 1; i < argc; i++)
        if (fc_scan(argv[i], &o, on_object, on_error, &n) < 0)
            return 1;
    printf("%zu containers\n", n);
    return 0;
}
"""
INPUTS = [os.path.join(FIXTURES, f) for f in ("libmulti.so", "all_archs.fatbin", "librdc.a")]


def api_functions():
    """Every function the public headers declare with FC_API."""
    names = set()
    for h in glob.glob(os.path.join(INCLUDE, "*.h")) + glob.glob(os.path.join(INCLUDE, "fatcheck", "*.h")):
        text = re.sub(r"^\s*#.*$", "", re.sub(r"/\*.*?\*/", "", open(h).read(), flags=re.S), flags=re.M)
        for decl in re.findall(r"\bFC_API\b([^;{]*?)\(", text):
            names.add(re.findall(r"[A-Za-z_]\w*", decl)[-1])
    return names


def dynamic_symbols():
    """The symbols libfatcheck.so defines in its dynamic symbol table."""
    out = subprocess.run(["nm", "-D", "--defined-only", LIB], capture_output=True, text=True, check=True).stdout
    return {line.split()[-1].split("@")[0] for line in out.splitlines() if line.strip()}


@test
def the_shared_library_exports_the_api_and_nothing_else():
    api, exported = api_functions(), dynamic_symbols()
    assert len(api) > 50, "the headers' FC_API functions were not found: %d" % len(api)
    eq(sorted(exported - api), [], "exported but not in the headers (libiberty's xmalloc, cplus_demangle...)")
    eq(sorted(api - exported), [], "in the headers but not exported")


def pkg_config(*args, env=None):
    p = subprocess.run(["pkg-config"] + list(args), capture_output=True, text=True,
                       env=dict(os.environ, PKG_CONFIG_PATH=PC_DIR, **(env or {})))
    if p.returncode:
        raise AssertionError("pkg-config %s: %s" % (" ".join(args), p.stderr.strip()))
    return shlex.split(p.stdout)


def build_and_run(tmp, flags, link=()):
    src = os.path.join(tmp, "t.c")
    open(src, "w").write(PROGRAM)
    exe = os.path.join(tmp, "t")
    p = subprocess.run([CC] + list(link) + ["-o", exe, src] + flags, capture_output=True, text=True)
    if p.returncode:
        raise AssertionError("%s failed:\n%s" % (" ".join([CC] + list(link) + flags), p.stderr[-2000:]))
    p = subprocess.run([exe] + INPUTS, capture_output=True, text=True,
                       env=dict(os.environ, LD_LIBRARY_PATH=os.path.dirname(LIB)))
    eq(p.returncode, 0, p.stderr)
    return exe, p.stdout


def containers_fatcheck_finds():
    p = subprocess.run([FATCHECK, "--json", "--gpu", "9.0"] + INPUTS, capture_output=True, text=True)
    return "%d containers\n" % sum(len(f["containers"]) for f in json.loads(p.stdout)["files"])


@test
def a_static_link_through_pkg_config_static():
    flags = pkg_config("--static", "--cflags", "--libs", "fatcheck")
    assert not any("archive" in f or "lzma" in f or f == "-lacl" for f in flags), flags
    with tempfile.TemporaryDirectory() as tmp:
        exe, out = build_and_run(tmp, flags, link=["-static"])
        eq(out, containers_fatcheck_finds())
        head = open(exe, "rb").read(1 << 16)
        assert b"ld-linux" not in head, "not a static executable: it names a dynamic loader"


@test
def pkg_config_cflags_libs_without_libarchive_pc():
    """Only the .pc files fatcheck.pc requires, none of libarchive's or liblzma's."""
    default = subprocess.run(["pkg-config", "--variable", "pc_path", "pkg-config"], capture_output=True,
                             text=True, check=True).stdout.strip().split(":")
    with tempfile.TemporaryDirectory() as tmp:
        pcs = os.path.join(tmp, "pc")
        os.mkdir(pcs)
        for d in default:
            for pc in glob.glob(os.path.join(d, "*.pc")):
                name = os.path.basename(pc)
                if not name.startswith(("libarchive", "liblzma")) and not os.path.exists(os.path.join(pcs, name)):
                    shutil.copy(pc, pcs)
        flags = pkg_config("--cflags", "--libs", "fatcheck", env={"PKG_CONFIG_LIBDIR": pcs})
        eq([f for f in flags if f.startswith("-l")], ["-lfatcheck"])
        _, out = build_and_run(tmp, flags)
        eq(out, containers_fatcheck_finds())


sys.exit(main())
