#!/usr/bin/env python3
"""A layer's tar read as Go's archive/tar reads it (src/image/oci_tar_go.c, through
build/tests/go_tar_list), which Docker and containerd apply layers with: crafted headers whose
reading Go 1.19.8 gave (the lines below were its own, tests/golist), each fed in pieces of 1,
3, 512 and 65,536 bytes; and, where Go is installed, the two compared over more tars (Go's own
test data, Python's GNU, PAX and ustar formats, GNU tar's formats): skipped, saying so, where
it is not.

Usage: go_tar_test.py GO_TAR_LIST      Writes TAP."""
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rawtar import TAR_END, gnu_long_member, pax_member, raw_header, raw_member  # noqa: E402
from tap import eq, main, test  # noqa: E402

LISTER = os.path.abspath(sys.argv[1])
HERE = os.path.dirname(os.path.abspath(__file__))

S = b"x" * 700
CASES = {
 "slash-regular": raw_member(b"lib/a.so", S) + raw_member(b"junk/", raw_member(b"lib/a.so", b"benign")) + TAR_END,
 "pax-path-then-long-name": pax_member([(b"path", b"tmp/decoy.so")]) + gnu_long_member(b"lib/a.so") + raw_member(b"x", S) + TAR_END,
 "long-name-then-pax-path": gnu_long_member(b"lib/a.so") + pax_member([(b"path", b"tmp/decoy.so")]) + raw_member(b"x", S) + TAR_END,
 "sparse-name-not-sparse": pax_member([(b"GNU.sparse.name", b"tmp/decoy.so")]) + raw_member(b"lib/a.so", S) + TAR_END,
 "pax-sparse-0.1": pax_member([(b"GNU.sparse.major", b"0"), (b"GNU.sparse.minor", b"1"), (b"GNU.sparse.name", b"lib/real.so"),
                               (b"GNU.sparse.size", b"4096"), (b"GNU.sparse.numblocks", b"1"), (b"GNU.sparse.map", b"0,700")]) + raw_member(b"GNUSparseFile/x", S) + TAR_END,
 "pax-sparse-unknown-version": pax_member([(b"GNU.sparse.major", b"2"), (b"GNU.sparse.name", b"lib/real.so")]) + raw_member(b"lib/a.so", S) + TAR_END,
 "star-prefix-131": raw_member(b"a.so", S, prefix=b"lib/" + b"u" * 127, star=True) + TAR_END,
 "star-prefix-short": raw_member(b"a.so", S, prefix=b"lib", star=True) + TAR_END,
 "gnu-pre-go18-prefix": raw_member(b"a.so", S, magic=b"ustar  \0", prefix=b"lib/old") + TAR_END,
 "base-256-size": raw_member(b"lib/a.so", S, size_field=b"\x80" + b"\0" * 9 + (700).to_bytes(2, "big")) + TAR_END,
 "v7-nul-type-slash": raw_member(b"dir/", b"", b"\0", magic=b"") + raw_member(b"dir/f", S, b"\0", magic=b"") + TAR_END,
 "bad-mtime": raw_member(b"lib/a.so", S) + raw_member(b"lib/b.so", S, mtime=b"0000000000x\0") + TAR_END,
 "global-header-path": pax_member([(b"path", b"tmp/decoy.so")], b"g") + raw_member(b"lib/a.so", S) + TAR_END,
 "pax-then-global": pax_member([(b"path", b"tmp/decoy.so")]) + pax_member([(b"comment", b"x")], b"g") + raw_member(b"lib/a.so", S) + TAR_END,
 "hard-link-pax-and-long-link": pax_member([(b"linkpath", b"tmp/decoy.so")]) + gnu_long_member(b"lib/real.so", b"K") + raw_member(b"lib/a.so", b"", b"1", link=b"x") + TAR_END,
 "pax-size": pax_member([(b"size", b"1024")]) + raw_member(b"lib/a.so", S) + TAR_END,
 "empty-pax-path": pax_member([(b"path", b"")]) + raw_member(b"lib/a.so", S) + TAR_END,
 "bad-pax-record": pax_member([(b"path", b"lib/a.so")])[:512] + raw_member(b"x", b"99 path=x\n")[512:] + raw_member(b"lib/b.so", S) + TAR_END,
 "header-only-types-with-size": raw_member(b"lib/l", b"", b"2", link=b"a.so", size_field=b"%011o\0" % 512) + raw_member(b"lib/a.so", S) + TAR_END,
 "ustar-prefix": raw_member(b"a.so", S, prefix=b"usr/lib") + TAR_END,
}

# What Go 1.19.8's Reader.Next returned for each (tests/golist; an error is "STOPPED").
EXPECTED = {
    'bad-mtime': ['0\t700\tlib/a.so\t', 'STOPPED'],
    'bad-pax-record': ['STOPPED'],
    'base-256-size': ['0\t700\tlib/a.so\t', 'END'],
    'empty-pax-path': ['0\t700\tlib/a.so\t', 'END'],
    'global-header-path': ['0\t700\tlib/a.so\t', 'END'],
    'gnu-pre-go18-prefix': ['0\t700\tlib/old/a.so\t', 'END'],
    'hard-link-pax-and-long-link': ['1\t0\tlib/a.so\tlib/real.so', 'END'],
    'header-only-types-with-size': ['2\t512\tlib/l\ta.so', '0\t700\tlib/a.so\t', 'END'],
    'long-name-then-pax-path': ['0\t700\tlib/a.so\t', 'END'],
    'pax-path-then-long-name': ['0\t700\tlib/a.so\t', 'END'],
    'pax-size': ['0\t1024\tlib/a.so\t', 'END'],
    'pax-sparse-0.1': ['0\t4096\tlib/real.so\t', 'END'],
    'pax-sparse-unknown-version': ['0\t700\tlib/a.so\t', 'END'],
    'pax-then-global': ['0\t700\tlib/a.so\t', 'END'],
    'slash-regular': ['0\t700\tlib/a.so\t', '0\t1024\tjunk/\t', 'END'],
    'sparse-name-not-sparse': ['0\t700\tlib/a.so\t', 'END'],
    'star-prefix-131': ['0\t700\tlib/uuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuu/a.so\t', 'END'],
    'star-prefix-short': ['0\t700\tlib/a.so\t', 'END'],
    'ustar-prefix': ['0\t700\tusr/lib/a.so\t', 'END'],
    'v7-nul-type-slash': ['5\t0\tdir/\t', '0\t700\tdir/f\t', 'END'],
}


def listing(path, piece):
    out = subprocess.run([LISTER, path, str(piece)], capture_output=True, check=True).stdout.decode("latin1")
    return ["STOPPED" if line.startswith("STOPPED") else "END" if line == "NO END" else line
            for line in out.splitlines()]


@test
def crafted_headers_read_as_go_reads_them():
    with tempfile.TemporaryDirectory() as tmp:
        for name, data in sorted(CASES.items()):
            path = os.path.join(tmp, name + ".tar")
            open(path, "wb").write(data)
            for piece in (1, 3, 512, 65536):
                eq(listing(path, piece), EXPECTED[name], "%s in pieces of %d" % (name, piece))


def python_tars(tmp):
    paths = []
    for fmt, label in ((tarfile.PAX_FORMAT, "pax"), (tarfile.GNU_FORMAT, "gnu"), (tarfile.USTAR_FORMAT, "ustar")):
        path = os.path.join(tmp, "py-%s.tar" % label)
        with tarfile.open(path, "w", format=fmt) as t:
            for i, (name, kind) in enumerate((("usr/lib/" + "d" * (60 if label == "ustar" else 140) + "/x.so", "f"),
                                              ("usr/l", "l"), ("usr/h", "h"), ("usr/dir", "d"),
                                              ("usr/u.so" if label == "ustar" else "usr/\u00fc\u00f1.so", "f"))):
                info = tarfile.TarInfo(name)
                info.mtime = 1700000000 + i
                if kind == "f":
                    info.size = 1000 + i
                    t.addfile(info, io.BytesIO(b"y" * info.size))
                else:
                    info.type = {"l": tarfile.SYMTYPE, "h": tarfile.LNKTYPE, "d": tarfile.DIRTYPE}[kind]
                    if kind in "lh":
                        info.linkname = "t" * (50 if label == "ustar" else 150)
                    t.addfile(info)
        paths.append(path)
    return paths


def gnu_tars(tmp):
    if not shutil.which("tar"):
        return []
    tree = os.path.join(tmp, "tree")
    deep = os.path.join(tree, "a" * 120, "b" * 90)
    os.makedirs(deep)
    open(os.path.join(deep, "c" * 100), "wb").write(b"z" * 3000)
    with open(os.path.join(tree, "sparse"), "wb") as f:
        f.seek(3000000)
        f.write(b"data")
    os.symlink("l" * 150, os.path.join(tree, "link"))
    paths = []
    for fmt in ("gnu", "oldgnu", "pax", "ustar", "v7"):
        for sparse in ([], ["--sparse"]):
            path = os.path.join(tmp, "gnu-%s%s.tar" % (fmt, "-sparse" if sparse else ""))
            if subprocess.run(["tar", "--format=" + fmt] + sparse + ["-cf", path, "-C", tmp, "tree"],
                              capture_output=True).returncode in (0, 2) and os.path.exists(path):
                paths.append(path)
    return paths


@test
def the_same_entries_as_go_itself():
    if not shutil.which("go"):
        return "skip: Go is not installed (apt-get install golang-go compares with Go's own reading)"
    with tempfile.TemporaryDirectory() as tmp:
        golist = os.path.join(tmp, "golist")
        env = dict(os.environ, GO111MODULE="off", GOCACHE=os.path.join(tmp, "gocache"), GOPATH=os.path.join(tmp, "gopath"))
        subprocess.run(["go", "build", "-o", golist, os.path.join(HERE, "golist", "main.go")], check=True, env=env,
                       capture_output=True)
        paths = python_tars(tmp) + gnu_tars(tmp)
        goroot = subprocess.run(["go", "env", "GOROOT"], capture_output=True, env=env).stdout.decode().strip()
        data = os.path.join(goroot, "src", "archive", "tar", "testdata")
        if os.path.isdir(data):
            paths += [os.path.join(data, n) for n in sorted(os.listdir(data)) if n.endswith(".tar")]
        eq(len(paths) >= 3, True, "tars to compare: %d" % len(paths))
        for path in paths:
            out = subprocess.run([golist, path], capture_output=True).stdout.decode("latin1")
            want = ["STOPPED" if line.startswith("STOPPED") else line for line in out.splitlines()]
            got = listing(path, 4096)
            # Go also stops where the input ends inside a file's data (its writer-big*.tar) or
            # at a PAX time it cannot parse: entries that move or rename nothing. Up to there,
            # the same.
            if want and want[-1] == "STOPPED" and got[:len(want) - 1] == want[:-1]:
                continue
            eq(got, want, path)


if __name__ == "__main__":
    sys.exit(main())
