#!/usr/bin/env python3
"""Directory walks: nothing skipped silently, no escape from the roots by surprise.

Usage: walk_test.py FATCHECK FIXTURES_DIR FAKECUDA_DIR. The rule (fatcheck(1), "Directories"):
symlinks to directories found in a walk are not followed unless -L/--follow is given, and
then each directory is walked once and a loop back to an ancestor is reported; a symlink
named on the command line is followed; symlinks to files are read, each file once (under its
own name when the tree holds it); entries that cannot be looked at are reported (exit 3);
paths longer than PATH_MAX are reached."""
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap_cli import eq, fx, main, run, test  # noqa: E402

SUMMARY = b": 3 containers in .nv_fatbin\n"
NOT_FOLLOWED = b"fatcheck: %s not followed (-L follows)\n"


def walk(*args, **kw):
    """fatcheck judging a named GPU: the walk, not the detection, is under test."""
    return run("--gpu", "sm_90", *args, **kw)


def heads(out):
    """The file names the summary reports, in order."""
    return [line[:-len(SUMMARY)] for line in out.splitlines(keepends=True) if line.endswith(SUMMARY)]


def lib(path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    shutil.copy(fx("libmulti.so"), path)
    return path.encode()


@test
def a_symlink_to_the_file_system_root_is_not_followed():
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "checkout")
        a = lib(os.path.join(root, "a.so"))
        os.symlink("/", os.path.join(root, "slash"))
        rc, out, err = walk(root, timeout=30)  # following it would walk all of /
        eq((rc, err, heads(out)), (0, NOT_FOLLOWED % b"1 symlinked directory", [a]))


@test
def symlink_loops_are_not_walked_and_reported_when_following():
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "r")
        a = lib(os.path.join(root, "a", "lib.so"))
        os.makedirs(os.path.join(root, "a", "b"))
        os.symlink("../..", os.path.join(root, "a", "b", "loop"))
        os.symlink("self", os.path.join(root, "self"))  # a link to itself: no file at all
        rc, out, err = walk(root)
        eq((rc, err, heads(out)), (0, b"", [a]))
        rc, out, err = walk("-L", root)
        eq(heads(out), [a])
        eq(err, ("fatcheck: %s/a/b/loop: symlink loop back to %s, not followed\n" % (root, root)).encode())
        eq(rc, 3)


@test
def symlinks_to_sibling_and_outside_directories():
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "r")
        inside = lib(os.path.join(root, "real", "lib.so"))
        outside = lib(os.path.join(tmp, "elsewhere", "other.so"))
        os.symlink("real", os.path.join(root, "alias"))
        os.symlink(os.path.join(tmp, "elsewhere"), os.path.join(root, "out"))
        os.symlink("nowhere", os.path.join(root, "dangling"))
        rc, out, err = walk(root)
        # the sibling was walked under its own name: only the outside one is left unseen
        eq((rc, err, heads(out)), (0, NOT_FOLLOWED % b"1 symlinked directory", [inside]))
        # -L: the outside directory too; the sibling is the directory already walked
        rc, out, err = walk("--follow", root)
        eq((rc, err), (0, b""))
        eq(heads(out), [inside, os.path.join(root, "out", "other.so").encode()])
        assert os.path.exists(outside)


@test
def a_symlink_named_on_the_command_line_is_followed():
    with tempfile.TemporaryDirectory() as tmp:
        a = lib(os.path.join(tmp, "real", "a.so"))
        os.symlink("real", os.path.join(tmp, "link"))
        rc, out, err = walk(os.path.join(tmp, "link"))
        eq((rc, err, heads(out)), (0, b"", [os.path.join(tmp, "link", "a.so").encode()]))
        assert a


@test
def symlinks_to_files_are_read_once():
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "lib")
        real = lib(os.path.join(root, "libfoo.so.12"))
        os.symlink("libfoo.so.12", os.path.join(root, "libfoo.so"))
        os.symlink("libfoo.so", os.path.join(root, "libfoo.so.1"))
        lib(os.path.join(tmp, "store", "libbar.so.2"))
        os.symlink(os.path.join(tmp, "store", "libbar.so.2"), os.path.join(root, "libbar.so"))
        for args in ([], ["-L"]):
            rc, out, err = walk(*args, root)
            eq((rc, err), (0, b""), args)
            # the real file under its own name; a link to a file elsewhere under the link's
            eq(heads(out), [real, os.path.join(root, "libbar.so").encode()], args)


@test
def files_looked_at_ahead_on_several_threads_read_as_on_one():
    """A directory of many files has their heads read on the scan's threads before the walk
    visits them (walk.c, looking ahead): the same files, in the same order, hard links once,
    packages and unreadable files said, whatever the thread count."""
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "many")
        os.makedirs(root)
        for i in range(40):
            with open(os.path.join(root, "f%02d.py" % i), "w") as f:
                f.write("x = %d\n" % i * 50)
        for i in (3, 17, 33):
            lib(os.path.join(root, "lib%02d.so" % i))
        os.link(os.path.join(root, "lib03.so"), os.path.join(root, "lib03.hardlink.so"))
        open(os.path.join(root, "empty"), "w").close()
        shutil.copy(fx("ptx_only.fatbin"), os.path.join(root, "k.fatbin"))
        with open(os.path.join(root, "long_comment.ptx"), "wb") as f:  # the head is all comment
            f.write(b"//" + b"x" * 8000 + b"\n" + open(fx("kernels.ptx"), "rb").read())
        import zipfile
        with zipfile.ZipFile(os.path.join(root, "w.whl"), "w") as z:
            z.write(fx("libmulti.so"), "pkg/libmulti.so")
        locked = os.path.join(root, "locked.so")
        lib(locked)
        os.chmod(locked, 0)
        outs = []
        for j in ("1", "2", "4", "16"):
            rc, out, err = walk("-j", j, root)
            outs.append((rc, out, err))
        for o in outs[1:]:
            eq(o, outs[0])
        rc, out, err = outs[0]
        names = [os.path.join(root, n).encode() for n in ("lib03.hardlink.so", "lib17.so", "lib33.so")]
        if os.geteuid() == 0:  # root reads it anyway
            names.append(locked.encode())
        eq(heads(out), names)  # lib03.so is lib03.hardlink.so's inode, read first by name order
        assert b"k.fatbin: 1 container" in out and b"long_comment.ptx: PTX file" in out, out
        assert b"1 package not opened" in err, err
        if os.geteuid() != 0:  # root reads it anyway
            assert b"locked.so: cannot open" in err, err


@test
def directories_left_behind_symlinks_are_counted_once_in_every_mode():
    """A tree whose only library sits behind symlinked directories (Nix, Bazel runfiles,
    conda): nothing is found without -L, and that is said once, counting the directories
    never reached: two links to one directory count once; a link to a directory the walk
    enters by its own name (or an ancestor) does not count."""
    with tempfile.TemporaryDirectory() as tmp:
        store = os.path.join(tmp, "store")
        lib(os.path.join(store, "a", "liba.so"))
        lib(os.path.join(store, "b", "libb.so"))
        root = os.path.join(tmp, "env")
        os.makedirs(os.path.join(root, "own"))
        for name, target in (("lib", "a"), ("lib64", "a"), ("extra", "b")):
            os.symlink(os.path.join(store, target), os.path.join(root, name))
        os.symlink("own", os.path.join(root, "alias"))
        os.symlink("..", os.path.join(root, "own", "up"))
        line = NOT_FOLLOWED % b"2 symlinked directories"
        for mode in ([], ["-q"], ["-l"], ["--list-elf"]):
            rc, out, err = walk(*mode, root)
            if mode == ["--list-elf"]:  # cuobjdump's own line comes first
                eq(err[:-len(line)], b"fatcheck: %s: no ELF file found\n" % root.encode())
                err = err[-len(line):]
            eq((rc, err, heads(out)), (0, line, []), mode)
        rc, out, err = walk("--json", root)
        doc = json.loads(out)
        eq((rc, err, doc["files"], doc["skipped_in_walks"]),
           (0, line, [], {"symlinked_directories": 2, "packages": 0}))
        # several inputs: one line for the run, adding up each input's walk (own/up leads to
        # env, which the walk of own alone never enters)
        eq(walk("-q", root, os.path.join(root, "own"), root)[2], NOT_FOLLOWED % b"5 symlinked directories")
        rc, out, err = walk("-L", root)  # both libraries; the way back up is a loop
        loop = "fatcheck: %s/own/up: symlink loop back to %s, not followed\n" % (root, root)
        eq((rc, err, len(heads(out))), (3, loop.encode(), 2))
        rc, out, err = walk("-L", "--json", root)
        eq(json.loads(out)["skipped_in_walks"], {"symlinked_directories": 0, "packages": 0})


def deep_tree(tmp):
    """tmp/d/AAA.../AAA.../lib.so with a path of more than 5,000 bytes; returns that path."""
    names = ["d"] + ["%02d" % i + "a" * 250 for i in range(20)]
    fd = os.open(tmp, os.O_RDONLY)
    try:
        for n in names:
            os.mkdir(n, dir_fd=fd)
            sub = os.open(n, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = sub
        data = open(fx("libmulti.so"), "rb").read()
        out = os.open("lib.so", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
        os.write(out, data)
        os.close(out)
    finally:
        os.close(fd)
    return os.path.join(tmp, *names, "lib.so")


def coff_with_more_sections(path, extra):
    """fixtures/pe/kernels.obj with EXTRA empty sections more: an object of more than 101
    sections (C++ objects often have hundreds) has a section table longer than a 4 KiB head."""
    import struct
    b = bytearray(open(fx("pe/kernels.obj"), "rb").read())
    machine, n, stamp, symbols, nsym, optional, flags = struct.unpack_from("<HHIIIHH", b, 0)
    shift = extra * 40
    for i in range(n):
        f = list(struct.unpack_from("<8sIIIIIIHHI", b, 20 + 40 * i))
        for k in (4, 5, 6):  # the raw data's, relocations' and line numbers' offsets
            f[k] = f[k] + shift if f[k] else 0
        struct.pack_into("<8sIIIIIIHHI", b, 20 + 40 * i, *f)
    empty = struct.pack("<8sIIIIIIHHI", b".empty", 0, 0, 0, 0, 0, 0, 0, 0, 0x40100040) * extra
    out = b[:20 + 40 * n] + empty + b[20 + 40 * n:]
    struct.pack_into("<HHIIIHH", out, 0, machine, n + extra, stamp, symbols + shift, nsym, optional, flags)
    with open(path, "wb") as f:
        f.write(out)
    return path.encode()


@test
def a_coff_object_whose_section_table_outruns_the_head_is_read():
    # The head (4 KiB) a walk looks at first held only part of the section table of an object
    # of 106 sections: fc_pe_sniff took it for no object and the walk passed it over, exit 0,
    # no word said, though the object named alone is none on sm_75.
    with tempfile.TemporaryDirectory() as tmp:
        obj = coff_with_more_sections(os.path.join(tmp, "kernels.obj"), 100)
        rc, named, _ = run("--gpu", "sm_75", obj)
        eq(rc, 1, "named")
        rc, out, err = run("--gpu", "sm_75", tmp)
        eq((rc, err, out), (1, b"", named))


@test
def paths_longer_than_path_max_are_reached():
    with tempfile.TemporaryDirectory() as tmp:
        path = deep_tree(tmp)
        assert len(path) > os.pathconf("/", "PC_PATH_MAX")
        rc, out, err = walk(os.path.join(tmp, "d"))
        eq((rc, err), (0, b""))
        eq(heads(out), [path.encode()])
        rc, out, err = walk("-l", "-k", os.path.join(tmp, "d"))
        eq((rc, err), (0, b""))
        assert out.startswith(path.encode() + b":\n"), out[:100]


@test
def folders_listed_ahead_on_several_threads_read_as_on_one():
    """A tree of many folders, hard links across them, symlinks to folders and a loop back,
    and a FIFO read the same whatever the thread count (each folder's files looked at on the
    scan's threads: walk.c), with -L and without, in text and JSON."""
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "tree")
        for a in range(6):
            for b in range(5):
                d = os.path.join(root, "p%d" % a, "q%d" % b)
                os.makedirs(d)
                for i in range(3 + a):
                    with open(os.path.join(d, "m%d.py" % i), "w") as f:
                        f.write("y = %d\n" % i)
                if (a + b) % 4 == 0:
                    lib(os.path.join(d, "libk.so"))
        os.link(os.path.join(root, "p0", "q0", "libk.so"), os.path.join(root, "p5", "q4", "hard.so"))
        os.symlink("../p1", os.path.join(root, "p0", "to_p1"))
        os.symlink("../..", os.path.join(root, "p2", "q1", "up"))
        os.mkfifo(os.path.join(root, "p3", "q3", "fifo"))
        deep = os.path.join(root, "p4", "d1", "d2", "d3", "d4", "d5", "d6")
        lib(os.path.join(deep, "libdeep.so"))
        for extra in ((), ("-L",), ("--json",)):
            outs = [walk("-j", j, *extra, root) for j in ("1", "2", "4", "16")]
            for o in outs[1:]:
                eq(o, outs[0], extra)
            rc, out, err = outs[0]
            assert heads(out) or extra == ("--json",), out
            assert b"fifo" not in out + err, (out, err)
        rc, out, err = walk("-j", "4", root)
        eq(len(heads(out)), 9)  # eight libk.so and libdeep.so; hard.so is p0/q0's inode, read first
        rc, out, err = walk("-j", "4", "-L", root)
        assert b"symlink loop back to" in err, err


@test
def files_read_whole_on_the_surveys_threads_are_told_as_if_read_in_the_walk():
    """With more than one thread, a survey (survey.c) lists the tree and reads its files whole
    on every thread first, keeping what each said; the walk tells it in its own order. One
    thread has no survey: its output is the reference, in every mode, for damaged files,
    libraries over 1 MiB (read whole in tasks of their own), more files with CUDA code than
    the survey keeps open (64), and hard and symbolic links to them."""
    broken = os.path.join(os.path.dirname(os.path.abspath(sys.argv[2])), "fuzz", "broken")
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "t")
        shutil.copytree(broken, os.path.join(root, "broken"))
        for i in range(70):
            lib(os.path.join(root, "many", "lib%02d.so" % i))
        big = os.path.join(root, "big", "libbig.so")
        lib(big)
        with open(big, "ab") as f:
            f.write(b"\0" * (2 << 20))
        os.link(big, os.path.join(root, "big", "hard.so"))
        os.symlink("libbig.so", os.path.join(root, "big", "libbig.so.1"))
        os.symlink("../many/lib07.so", os.path.join(root, "big", "libseven.so"))
        for mode in ((), ("--json",), ("-k",), ("-l",)):
            outs = [walk("-j", j, *mode, root) for j in ("1", "2", "8")]
            for o in outs[1:]:
                eq(o, outs[0], mode)
        rc, out, err = outs[0]
        assert b"/broken/" in err, err  # the damaged files are said
        rc, out, err = walk("-j", "8", root)
        names = [n for n in heads(out) if b"/broken/" not in n]
        eq(len(names), 71)  # the 70 and big/hard.so, which is libbig.so's inode, read first by name
        eq(names[0], os.path.join(root, "big", "hard.so").encode())


@test
def files_over_64_mib_are_read_by_the_survey_last_several_at_once():
    """Files over 64 MiB whose head shows something are read by the survey once the rest is,
    largest first, a few at once on a few threads each (survey.c, read_big), and told by the
    walk in its order: the output is one thread's, at any thread count, also when the
    descriptors the survey may hold (an eighth of RLIMIT_NOFILE) leave some of them to the
    walk. Six libraries grown past 64 MiB (sparse), a hard link and a symbolic link to them."""
    import resource

    def limit():
        resource.setrlimit(resource.RLIMIT_NOFILE, (40, 40))  # 5 held: one of the six left
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "t")
        for i in range(6):
            big = os.path.join(root, "d%d" % (i % 2), "libbig%d.so" % i)
            lib(big)
            os.truncate(big, (65 + 3 * i) << 20)
        lib(os.path.join(root, "small", "libsmall.so"))
        os.link(os.path.join(root, "d1", "libbig3.so"), os.path.join(root, "d0", "hard.so"))
        os.symlink("../d0/libbig4.so", os.path.join(root, "d1", "libbig4.so.1"))
        for mode in ((), ("--json",), ("-l",)):
            outs = [walk("-j", j, *mode, root) for j in ("1", "2", "8", "16")]
            outs.append(walk("-j", "16", *mode, root, preexec_fn=limit))
            for o in outs[1:]:
                eq(o, outs[0], mode)
        names = heads(walk("-j", "16", root)[1])
        eq(len(names), 7, names)  # the six and libsmall.so; hard.so is libbig3.so's inode, read first
        eq(names[0], os.path.join(root, "d0", "hard.so").encode())


@test
def big_files_kept_mapped_leave_the_walk_address_space():
    """Under RLIMIT_AS the survey keeps mapped no more than a quarter of it in files waiting to
    be told, and a file it could not map is the walk's to read: -j 8 reads what -j 1 reads
    (review 7, F3: sixteen libraries of 150 MiB under 1.5 GB said "cannot map" at -j 8)."""
    import resource
    with open(sys.argv[1], "rb") as f:
        if b"__asan_init" in f.read():
            return "skip: AddressSanitizer reserves its shadow memory past any RLIMIT_AS"

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (1500 << 20, 1500 << 20))
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "t")
        for i in range(16):
            big = os.path.join(root, "d%d" % (i % 4), "libbig%02d.so" % i)
            lib(big)
            os.truncate(big, 150 << 20)
        outs = [walk("-j", j, root, preexec_fn=limit) for j in ("1", "8")]
        eq(outs[0][0], 0, outs[0][2])
        eq(len(heads(outs[0][1])), 16)
        eq(outs[1], outs[0])


@test
def a_root_folder_the_survey_keeps_no_listing_of_is_listed_by_the_walk():
    """The survey (survey.c) keeps no listing of a folder past its 32 MiB budget of listings;
    the walk then lists it itself. For the root, the survey's descriptor must not share the
    walk's offset in the folder: a dup would leave the walk at the end, with nothing to
    report and exit 0 (found in review: 250,000 long names and one CUDA file, -j 4 said
    nothing). 120,000 names of 250 bytes are 35 MiB of listing."""
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "flat")
        os.mkdir(root)
        stem = "n" * 243
        for i in range(120000):
            os.close(os.open(os.path.join(root, "%s%07d" % (stem, i)), os.O_CREAT | os.O_WRONLY, 0o644))
        lib(os.path.join(root, "libmulti.so"))
        outs = [walk("-j", j, root) for j in ("1", "4")]
        eq(outs[1], outs[0])
        eq(heads(outs[1][1]), [os.path.join(root, "libmulti.so").encode()])


@test
def a_low_descriptor_limit_leaves_the_walk_descriptors():
    """The survey keeps files open for the walk to tell (their objects read from their
    mappings), but no more than an eighth of the descriptors the process may open: under
    `ulimit -n 64` with 300 CUDA files in folders 21 deep, -j 4 reads what -j 1 reads (review 4,
    F2: every folder was "cannot open directory: Too many open files")."""
    import resource

    def limit():
        resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "t")
        for i in range(300):
            d = os.path.join(root, "d%02d" % (i // 10), *"abcdefghijklmnopqrst")
            if i % 2:
                lib(os.path.join(d, "lib%03d.so" % i))
            else:
                os.makedirs(d, exist_ok=True)
                shutil.copy(fx("all_archs.fatbin"), os.path.join(d, "f%03d.fatbin" % i))
        outs = [walk("-j", j, root, preexec_fn=limit) for j in ("1", "4")]
        eq(outs[1], outs[0])
        eq((outs[0][0], outs[0][2], len(heads(outs[0][1]))), (0, b"", 150))


@test
def a_file_mounted_over_a_hard_link_hides_nothing():
    """readdir's inode is the one under a bind mount: a file that shows nothing, mounted over
    a hard link of a CUDA binary, must not stand for that binary (review 3, F1). Needs
    unshare -m and mount (root); skipped, saying so, elsewhere."""
    with tempfile.TemporaryDirectory() as tmp:
        t = os.path.join(tmp, "t")
        lib(os.path.join(t, "lib.so"))
        os.link(os.path.join(t, "lib.so"), os.path.join(t, "a"))  # sorts before lib.so
        plain = os.path.join(tmp, "plain.txt")
        open(plain, "w").write("nothing to see\n")
        script = "mount --bind %s %s && exec \"$@\"" % (plain, os.path.join(t, "a"))
        probe = run_cmd(["unshare", "-m", "sh", "-c", script, "sh", "true"])
        if probe != 0:
            return "skip: no unshare -m and bind mount here"
        import subprocess
        p = subprocess.run(["unshare", "-m", "sh", "-c", script, "sh", sys.argv[1], "--gpu", "sm_90", t],
                           capture_output=True)
        eq(heads(p.stdout), [os.path.join(t, "lib.so").encode()], p.stderr)


@test
def a_folder_seen_through_two_mount_views_is_read_through_each():
    """A folder reached under two names (a bind mount of it) can show different things under
    each: a mount made inside one view is absent from the other. The survey's listing, or its
    look at an entry, made under one name must not stand for the other (review 7, F1 and F2:
    at -j 2 and more, a CUDA library mounted over a text file, over a folder and over an ELF
    without CUDA code, in one view only, was left out, exit 0). Needs unshare -m and mount
    (root); skipped, saying so, elsewhere."""
    import subprocess
    with tempfile.TemporaryDirectory() as tmp:
        t = os.path.join(tmp, "t")
        for d in ("a/plain", "z", "outside"):
            os.makedirs(os.path.join(tmp, d) if d == "outside" else os.path.join(t, d))
        open(os.path.join(t, "a", "plain", "readme.txt"), "w").write("text\n")
        open(os.path.join(t, "a", "notes.txt"), "w").write("text\n")
        shutil.copy("/bin/true", os.path.join(t, "a", "elfy.so"))  # an ELF without CUDA code
        lib(os.path.join(tmp, "outside", "cuda.so"))
        one, two = lib(os.path.join(tmp, "one.so")).decode(), lib(os.path.join(tmp, "two.so")).decode()
        mounts = ["mount --bind %s %s" % (os.path.join(t, "a"), os.path.join(t, "z")),
                  "mount --bind %s %s" % (os.path.join(tmp, "outside"), os.path.join(t, "a", "plain")),
                  "mount --bind %s %s" % (one, os.path.join(t, "a", "elfy.so")),
                  "mount --bind %s %s" % (two, os.path.join(t, "a", "notes.txt"))]
        script = " && ".join(mounts) + " && exec \"$@\""
        if run_cmd(["unshare", "-m", "sh", "-c", script, "sh", "true"]) != 0:
            return "skip: no unshare -m and bind mount here"
        found = []
        for j in ("1", "2", "8"):
            p = subprocess.run(["unshare", "-m", "sh", "-c", script, "sh", sys.argv[1], "--gpu", "sm_90", "-j", j, t],
                               capture_output=True)
            found.append((p.returncode, heads(p.stdout)))
        want = sorted(os.path.join(t, "a", n).encode() for n in ("elfy.so", "notes.txt", "plain/cuda.so"))
        eq(sorted(found[0][1]), want, found[0])
        for f in found[1:]:
            eq(f, found[0])


@test
def a_folder_mounted_inside_itself_is_said_as_a_mount_loop():
    """Review of 2026-12-06, rv17 9: a bind mount of a folder inside itself was "symlink loop
    back to", where no symlink is. Needs unshare -m and mount (root); skipped elsewhere."""
    import subprocess
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "a", "loop"))
        script = "mount --bind %s %s && exec \"$@\"" % (tmp, os.path.join(tmp, "a", "loop"))
        if run_cmd(["unshare", "-m", "sh", "-c", script, "sh", "true"]) != 0:
            return "skip: no unshare -m and bind mount here"
        for j in ("1", "2"):
            p = subprocess.run(["unshare", "-m", "sh", "-c", script, "sh", sys.argv[1], "--gpu", "sm_90", "-j", j, tmp],
                               capture_output=True)
            eq((p.returncode, p.stderr), (3, ("fatcheck: %s/a/loop: mount loop back to %s, not followed\n"
                                              % (tmp, tmp)).encode()), j)


@test
def ptx_files_whose_head_is_cut_anywhere_in_their_comments_are_read():
    """A PTX file's comments may run past the head a walk reads first (4,096 bytes): a head
    that ends on the '/' opening a "//", or within ".version" and its blank, decides nothing,
    and the file is read (review 8, B1: left out unsaid, about one file in the comment line
    length)."""
    ptx = b".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n"
    with tempfile.TemporaryDirectory() as tmp:
        names = []
        # The head ends on the first '/' of a comment line ...
        for length in (13, 15, 21):  # 4096 % length == 1
            names.append("slash%d.ptx" % length)
            line = b"// " + b"x" * (length - 4) + b"\n"
            with open(os.path.join(tmp, names[-1]), "wb") as f:
                f.write(line * (5000 // length + 2) + ptx)
        # ... or K bytes into ".version " (0 to 9 of them in the head).
        for k in range(10):
            names.append("version%d.ptx" % k)
            pad = 4096 - k - 1  # comment bytes, then a newline
            with open(os.path.join(tmp, names[-1]), "wb") as f:
                f.write(b"//" + b"y" * (pad - 2) + b"\n" + ptx)
        rc, out, err = walk(tmp)
        eq((rc, err), (0, b""))
        found = sorted(line.split(b":")[0].rsplit(b"/", 1)[1].decode() for line in out.splitlines()
                       if line.startswith(tmp.encode()))
        eq(found, sorted(names))


@test
def programs_with_bytes_appended_are_said_in_a_walk_too():
    """An ELF with bytes appended that are not read (an AppImage, a PyInstaller program) is
    said when found in a walk, as when named (review 8, B2: passed unsaid, exit 0)."""
    with tempfile.TemporaryDirectory() as tmp:
        with open("/bin/true", "rb") as f:
            elf = f.read()
        path = os.path.join(tmp, "app.AppImage")
        with open(path, "wb") as f:
            f.write(elf + b"\x5a" * 100000)
        named = walk(path)
        rc, out, err = walk(tmp)
        eq((rc, err), (0, b""))
        assert b"100,000 bytes appended after it" in out and out.endswith(named[1]), out
        doc = json.loads(walk("--json", tmp)[1])
        eq([f["path"] for f in doc["files"]], [path])


@test
def cupy_kernel_cache_files_are_read_in_a_walk():
    """CuPy's kernel cache (~/.cupy/kernel_cache) keeps each cubin after its hex digest (MD5,
    32 digits; SHA-1, 40): a walk of the folder said nothing, exit 0, where each file named was
    searched and judged (review 8, B3). Digits followed by anything else stay unread."""
    import hashlib
    cubin = open(fx("kernels.sm_90.cubin"), "rb").read()
    with tempfile.TemporaryDirectory() as tmp:
        files = {"md5.cubin": hashlib.md5(cubin).hexdigest().encode() + cubin,
                 "sha1.cubin": hashlib.sha1(cubin).hexdigest().encode() + cubin,
                 "notes.txt": hashlib.md5(cubin).hexdigest().encode() + b"\nnot a cubin\n"}
        for name, data in files.items():
            with open(os.path.join(tmp, name), "wb") as f:
                f.write(data)
        rc, out, err = run("--gpu", "sm_80", "--json", tmp)
        doc = json.loads(out)
        eq((rc, err), (1, b""))
        eq([(os.path.basename(f["path"]), f["format"], f["verdicts"][0]["status"]) for f in doc["files"]],
           [("md5.cubin", "data", "none"), ("sha1.cubin", "data", "none")])
        rc, out, err = walk(tmp)
        eq(rc, 0)
        assert out.count(b": a file of no known format, searched whole\n") == 2, out


@test
def a_walk_never_keeps_an_object_past_its_bytes():
    """A walk's helpers keep the objects of a file they read until the walk tells them, with
    the file's mapping; an object read from a section stored compressed lay in bytes
    decompressed onto the heap and freed meanwhile, and judging it read them (ThreadSanitizer
    and AddressSanitizer: heap-use-after-free, once cubins that define nothing were looked
    for). Such a file is left to the walk: -j 4 says what -j 1 says."""
    odd = os.path.join(os.path.dirname(os.path.abspath(__file__)), "odd")
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("libmulti.zlib.so", "libmulti.twice.so"):
            shutil.copy(os.path.join(odd, name), tmp)
        one = walk("-j", "1", "--driver", "13.0", tmp)
        eq(walk("-j", "4", "--driver", "13.0", tmp), one)
        assert b"libmulti.zlib.so" in one[1], one


@test
def a_file_that_cannot_be_read_is_said():
    """A regular file whose head cannot be read (here /proc/self/mem, which gives EIO at
    offset 0) is said, not taken for an empty file (review 3, P2)."""
    if not os.path.exists("/proc/self/mem"):
        return "skip: no /proc/self/mem here"
    with tempfile.TemporaryDirectory() as tmp:
        os.symlink("/proc/self/mem", os.path.join(tmp, "mem"))
        rc, out, err = walk(tmp)
        eq((rc, err), (3, b"fatcheck: %s/mem: cannot read: Input/output error\n" % tmp.encode()))


def run_cmd(argv):
    import subprocess
    try:
        return subprocess.run(argv, capture_output=True).returncode
    except OSError:
        return 127


def as_nobody():
    os.setgroups([])
    os.setgid(65534)
    os.setuid(65534)


@test
def entries_that_cannot_be_looked_at_are_reported():
    """A directory readable but not searchable: its entries cannot be looked at. Root is
    never refused, so as root the run is made as nobody."""
    drop = as_nobody if os.getuid() == 0 else None
    if drop and run("--version", preexec_fn=drop)[0] != 0:
        return "skip: nobody cannot run %s here" % sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)
        root = os.path.join(tmp, "r")
        ok = lib(os.path.join(root, "ok.so"))
        lib(os.path.join(root, "locked", "lib.so"))
        # A symlink there cannot be looked at either (review of 2026-12-06, rv17 1: a folder of
        # symlinks so passed, exit 0).
        os.symlink("../ok.so", os.path.join(root, "locked", "link.so"))
        lib(os.path.join(root, "closed", "lib.so"))
        for d, mode in ((root, 0o755), (os.path.join(root, "locked"), 0o644), (os.path.join(root, "closed"), 0)):
            os.chmod(d, mode)
        os.chmod(os.path.join(root, "ok.so"), 0o644)
        try:
            rc, out, err = walk(root, preexec_fn=drop)
        finally:
            os.chmod(os.path.join(root, "locked"), 0o755)
            os.chmod(os.path.join(root, "closed"), 0o755)
        eq(heads(out), [ok])
        eq(err.decode().splitlines(), ["fatcheck: %s/closed: cannot open directory: Permission denied" % root,
                                       "fatcheck: %s/locked/lib.so: cannot stat: Permission denied" % root,
                                       "fatcheck: %s/locked/link.so: cannot stat: Permission denied" % root])
        eq(rc, 3)


@test
def a_message_about_a_long_path_keeps_its_reason():
    """Review of 2026-12-06, rv17 6: past about 4.6 KB of path, an error line held only the cut
    path, the reason ("deeper than 64 directories") lost, in text and JSON."""
    with tempfile.TemporaryDirectory() as tmp:
        fd = os.open(tmp, os.O_RDONLY)
        for i in range(66):  # 66 x 205 bytes: 13.5 KB, past PATH_MAX too
            name = "d%03d" % i + "x" * 200
            os.mkdir(name, dir_fd=fd)
            deeper = os.open(name, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = deeper
        os.close(fd)
        rc, out, err = walk(tmp)
        eq((rc, err.endswith(b"x: deeper than 64 directories, not followed\n"), len(err) > 13000), (3, True, True),
           err[-100:])
        rc, out, err = walk("--json", tmp)
        msg = json.loads(out)["errors"][0]["message"]
        eq((rc, msg.endswith("x: deeper than 64 directories, not followed"), len(msg) > 13000), (3, True, True),
           msg[-100:])
    # A reason that holds a long path: a loop back to a folder 10 x 61 bytes deep (rv18 4).
    with tempfile.TemporaryDirectory() as tmp:
        deep = os.path.join(tmp, *("d%d" % i + "y" * 59 for i in range(10)))
        os.makedirs(deep)
        os.symlink(deep, os.path.join(deep, "up"))
        rc, out, err = walk("-L", tmp)
        eq((rc, err), (3, ("fatcheck: %s/up: symlink loop back to %s, not followed\n" % (deep, deep)).encode()))


@test
def a_file_whose_size_reads_0_over_bytes_is_said():
    """Review of 2026-12-06, rv17 2: a /proc file (size 0, bytes that read) holding PTX, met in
    a walk through a symlink, was read as empty and passed, exit 0 under --strict; named, it
    was "empty file". Here a process's command line is the PTX."""
    import subprocess
    ptx = open(fx("kernels.ptx")).read().replace("\0", "")
    proc = subprocess.Popen([ptx, "60"], executable="sleep")
    try:
        import time
        cmdline = "/proc/%d/cmdline" % proc.pid
        for _ in range(100):  # until the child has run sleep
            if open(cmdline, "rb").read().startswith(ptx[:64].encode()):
                break
            time.sleep(0.02)
        else:
            return "skip: this system does not show a command line of PTX"
        with tempfile.TemporaryDirectory() as tmp:
            os.symlink(cmdline, os.path.join(tmp, "kernels.ptx"))
            said = b"its size reads 0, yet it holds bytes (a /proc or /sys file, or a file system that gives no sizes?): not read\n"
            for named, where in ((tmp, os.path.join(tmp, "kernels.ptx")), (cmdline, cmdline)):
                for j in ("1", "2"):
                    rc, out, err = walk("--strict", "-j", j, named)
                    eq((rc, err), (3, b"fatcheck: " + where.encode() + b": " + said), (named, j))
    finally:
        proc.kill()
        proc.wait()


if __name__ == "__main__":
    sys.exit(main())
