#!/usr/bin/env python3
"""The command fails closed when memory runs out or its output cannot be written: a run either
prints what a normal run prints, exit status included, or exits 4 (internal or output error:
README.md, fatcheck(1)) saying why on standard error; never 0 or 1 over a report that lacks a
verdict or a listing, and never "(null)". test_oom.c does this for the library's scan; here
the allocations that fail are the whole command's (its reports, their strings, stdio's),
through failmalloc.so (LD_PRELOAD): for every N up to the number a normal run makes, the Nth
fails alone, and then every one from the Nth on.

Usage: oom_cli_test.py FATCHECK FIXTURES_DIR FAKECUDA FAILMALLOC_SO       Writes TAP."""
import os
import resource
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tap_cli  # noqa: E402
from tap_cli import BASE_ENV, FATCHECK, eq, fx, test  # noqa: E402

FAILMALLOC = os.path.abspath(sys.argv[4])
TMP = tempfile.mkdtemp(prefix="fatcheck-oom-")
ENV = dict(BASE_ENV)
# One thread: the same allocations in the same order each run, so that N reaches each one.
GPU = ("--gpu", "9.0", "--driver", "13.0", "-j", "1")
# More than this many allocations in a run: every Nth is tried, beyond the first ones.
DENSE = 400


def run(args, fail_at=None, fail_count=1, preexec_fn=None, stdout=subprocess.PIPE, count=True):
    """(exit status, stdout, stderr, allocations made: without FAIL_AT and with COUNT)."""
    env = dict(ENV)
    env[b"LD_PRELOAD"] = os.fsencode(FAILMALLOC)
    report = os.path.join(TMP, "count")
    count = count and fail_at is None
    if count:
        env[b"FAILMALLOC_REPORT"] = os.fsencode(report)
    elif fail_at is not None:
        env[b"FAILMALLOC_AT"] = b"%d" % fail_at
        env[b"FAILMALLOC_COUNT"] = b"%d" % fail_count
    p = subprocess.run([FATCHECK] + list(args), stdout=stdout, stderr=subprocess.PIPE, env=env, timeout=60,
                       preexec_fn=preexec_fn)
    if count:
        with open(report) as f:
            count = int(f.read())
    return p.returncode, p.stdout, p.stderr, count or None


def points(count, dense=DENSE, sampled=200):
    """The Ns tried: each one up to DENSE, then SAMPLED more."""
    step = max(1, (count - dense) // sampled)
    return list(range(1, min(count, dense) + 1)) + list(range(dense + 1, count + 2, step))


def fails_closed(args, crash_ok=False, dense=DENSE, sampled=200):
    """Each allocation of a run of ARGS failing (alone, then with all after it): the normal
    run's output, or exit 4 and out of memory said on standard error; or exit 3 with the
    library's reason on standard error (libarchive's own words: "damaged package after 1
    members: Can't allocate memory for Pathname"), an input not read. CRASH_OK: a death by a
    signal inside libarchive is let pass (libarchive 3.6 crashes where its own allocations
    fail: no exit status of a report), as failmalloc.so names the object it came from; one in
    fatcheck's own code is not (two in the image reader were found so, 1a3f6b8)."""
    rc, out, err, count = run(args)
    assert rc not in (2, 4), "the normal run failed: %d %r" % (rc, err)
    assert count and count > 10, "failmalloc.so counted %r allocations: is it loaded?" % count
    bad = []
    for fail_count in (1, 0):
        for n in points(count, dense, sampled):
            got_rc, got_out, got_err, _ = run(args, n, fail_count)
            why = None
            if b"(null)" in got_out or b"(null)" in got_err:
                why = "(null) printed"
            elif (got_rc, got_out, got_err) == (rc, out, err):
                continue
            elif got_rc < 0 and crash_ok and b"failmalloc: fatal signal" in got_err and \
                    got_err.split(b"failmalloc: fatal signal")[-1].split(b"\n")[0].split(b" in ")[-1].startswith(
                        b"libarchive"):
                continue
            elif got_rc == 3 and b"fatcheck: " in got_err and b"memory" in got_err.lower():
                continue
            elif got_rc != 4:
                why = "exit %d (normal run: %d)" % (got_rc, rc)
            elif b"out of memory" not in got_err:
                why = "exit 4 without saying out of memory"
            if why:
                bad.append("allocation %d%s failing: %s; stderr %r; stdout %r" % (
                    n, " and on" if not fail_count else "", why, got_err[-300:], got_out[-200:]))
    eq(bad[:8], [], "%s (%d allocations in a normal run; %d wrong)" % (" ".join(args), count, len(bad)))


def json_fails_closed(*names, gpu=(), crash_ok=False):
    """fails_closed on the JSON document of each fixture of NAMES (paths under the fixtures
    folder), judged for GPU's targets too."""
    for name in names:
        fails_closed(GPU + tuple(gpu) + ("--json", fx(name)), crash_ok=crash_ok)


def tar_of_fixtures():
    path = os.path.join(TMP, "fixtures.tar")
    if not os.path.exists(path):
        with tarfile.open(path, "w") as t:
            for name in ("libmulti.so", "all_archs.fatbin", "kernels.ptx"):
                t.add(fx(name), "lib/" + name)
    return path


@test
def text_summary():
    fails_closed(GPU + (fx("libmulti.so"),))


@test
def text_summary_failing_verdict():
    # sm_75 has no image in libmulti.so's third module: a partial verdict, the advice printed.
    fails_closed(GPU + ("--gpu", "7.5", fx("libmulti.so"), fx("all_archs.fatbin")))


@test
def text_failing_target_alone():
    fails_closed(("--gpu", "5.0", "-j", "1", fx("libmulti.so")))


@test
def json_document():
    fails_closed(GPU + ("--gpu", "7.5", "--json", fx("all_archs.fatbin")))


@test
def json_document_elf():
    # fc_elf_unlisted, out of memory, left the file without its "device_link": true (exit 0).
    fails_closed(GPU + ("--gpu", "7.5", "--json", fx("libmulti.so"), fx("all_archs.fatbin")))


@test
def json_document_stripped():
    # Section tables stripped: the registration records are searched for in the loaded bytes,
    # and their addresses found through PT_DYNAMIC's relocations (elf_segments.c relocate).
    json_fails_closed("noshdr/libmulti.sstrip.so", "noshdr/libmulti.lld.so", "noshdr/libmulti.norecords.so",
                      gpu=("--gpu", "7.5"))


@test
def json_document_kept_behind_pointers():
    # A fat binary kept past a data section's first MiB, found through relative relocations
    # (elf_pointers.c): out of memory there, the section went unsearched and the copy unseen.
    path = os.path.join(TMP, "behind.so")
    data, _ = tap_cli.kept_behind_pointers(open(fx(os.path.join("rules", "libkept_deep.so")), "rb").read())
    with open(path, "wb") as f:
        f.write(data)
    fails_closed(GPU + ("--json", path))


@test
def json_document_ptx_text():
    # PTX kept as text in a library's data (embedded.c): a place that could not be noted lost
    # the module, and libptxtext.so turned "no CUDA code", exit 0 (oom22).
    json_fails_closed("ptxtext/libptxtext.so", "ptxtext/app_ptxtext", gpu=("--gpu", "7.5"))


@test
def entries_list():
    fails_closed(GPU + ("-l", fx("all_archs.fatbin")))


@test
def cuobjdump_list():
    fails_closed(GPU + ("--list-elf", "--list-ptx", fx("libmulti.so")))


@test
def kernels():
    fails_closed(GPU + ("--gpu", "7.5", "-k", fx("libmulti.so")))


@test
def coverage():
    fails_closed(("--gpu", "all", "-j", "1", fx("libmulti.so")))


@test
def ci_formats():
    for fmt in ("github", "junit", "markdown"):
        fails_closed(GPU + ("--gpu", "7.5", "--format", fmt, fx("libmulti.so")))


@test
def tar_of_files():
    fails_closed(GPU + ("--gpu", "7.5", tar_of_fixtures()), crash_ok=True)


@test
def tar_of_files_json():
    fails_closed(GPU + ("--json", tar_of_fixtures()), crash_ok=True)


@test
def json_document_records_elsewhere():
    # Registration records in a section a linker script merged .nvFatBinSegment into: a record
    # not kept for want of memory turned a registered container "embedded", sm_90 "none" to
    # "ok" (oom22).
    json_fails_closed("merged/libextern_merged.so", "merged/libextern_merged_lld.so")


@test
def static_archives():
    # libelf out of memory read as damage: "bad section header 1: invalid operand" dropped a
    # member's container (sm_90 "ok" to "no-code"), "damaged archive: no readable member"
    # (oom22).
    json_fails_closed("librdc.a", "pe/kernels.lib")


@test
def rdc_links_judged():
    # The runtime's own link of -rdc objects, judged from their functions and kernels: a name
    # list or kernel list cut short by a failed allocation turned sm_90 "ok" to "none" (xref)
    # and "none" to "partial" (devfn) (oom22).
    json_fails_closed("rules/librdc_xref.so", "rules/libkept_rdc_devfn.so")


@test
def cuda_runtime_library():
    # libcudart.so.13 itself, known by its soname: the name not kept left "runtime" out of
    # the JSON of a run that exited as a normal one (oom22).
    json_fails_closed("runtime/cudart13/libcudart.so.13")


@test
def kernels_of_a_dll():
    # A cubin's head that could not be inflated for want of memory was judged a cubin that
    # fails to ("CUDA_ERROR_UNCOMPRESS_FAILED"), native 1 to 0 (oom22).
    fails_closed(GPU + ("--json", "-k", fx(os.path.join("pe", "libpe.dll"))))


@test
def compressed_files():
    # A library under xz: libarchive's xz filter that could not be set up left the bytes read
    # as a package of no members, "no CUDA code", exit 0 (oom22).
    json_fails_closed("merged/app_merged.xz", "runtime/libstatic.so.xz", crash_ok=True)


@test
def container_image():
    # docker save's archive (oom22): a listing that failed made a plain tar of the image, its
    # image judgement lost, exit 0; jansson dropped a character it could not append (a digest
    # one short, "its digest is ..., not ..."); a slot, a tag or a layer not kept left the image
    # judged without it. libarchive 3.6 still crashes on some of its own allocations.
    json_fails_closed("packages/image.tar", crash_ok=True)


@test
def packages_in_a_folder():
    # Every package of fixtures/packages (wheel, conda, deb, rpm, tarballs, an image) opened in
    # a folder walk (oom22 saw a death there, at an allocation of the image's file tree).
    fails_closed(GPU + ("--json", "--packages", fx("packages")), crash_ok=True, dense=60, sampled=120)


def limited_to(size):
    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return limit


@test
def output_not_written():
    """Standard output on /dev/full, or a file that can take only part of the report (ulimit
    -f: the write fails with EFBIG): exit 4, said."""
    for args in (GPU + (fx("libmulti.so"),), GPU + ("--gpu", "7.5", fx("libmulti.so")),
                 GPU + ("--json", fx("libmulti.so")), GPU + ("--format", "junit", fx("libmulti.so")),
                 GPU + ("-l", fx("all_archs.fatbin"))):
        rc, out, _, _ = run(args)
        with open("/dev/full", "wb") as full:
            got = run(args, stdout=full, count=False)
        eq((got[0], b"fatcheck: error writing output" in got[2]), (4, True), "%s > /dev/full: %r" % (args, got[2]))
        for size in (0, 1, len(out) // 2, len(out) - 1):
            path = os.path.join(TMP, "out")
            with open(path, "wb") as f:
                got = run(args, stdout=f, preexec_fn=limited_to(size), count=False)
            eq((got[0], b"fatcheck: error writing output" in got[2]), (4, True),
               "%s into %d bytes: %r" % (args, size, got[2]))


if __name__ == "__main__":
    try:
        sys.exit(tap_cli.main())
    finally:
        import shutil
        shutil.rmtree(TMP, ignore_errors=True)
