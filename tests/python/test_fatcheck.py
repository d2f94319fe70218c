"""The Python package: the document fatcheck.scan returns is the one `fatcheck --json` prints
for the same arguments, its exit_status the command's exit code; iteration; errors as
exceptions. Run by meson against the build tree and by scripts/test.sh against an install.

Environment: FATCHECK (the program), FIXTURES, BROKEN (fuzz/broken), FAKECUDA (the stand-in
driver libraries, on LD_LIBRARY_PATH); FATCHECK_PYTHON_FROM, when set, the folder the package
must have been imported from (an install)."""
import json
import os
import pathlib
import subprocess
import warnings

import pytest

import fatcheck

FATCHECK = os.environ["FATCHECK"]
FIXTURES = pathlib.Path(os.environ["FIXTURES"])
BROKEN = pathlib.Path(os.environ["BROKEN"])
GPUS = ["9.0", "7.0", "12.0"]


@pytest.fixture(autouse=True)
def no_local_gpu(monkeypatch):
    """No GPU unless a test names one (the stand-in driver reads FAKE_CUDA_DEVICES)."""
    for k in list(os.environ):
        if k.startswith(("FAKE_CUDA_", "FAKE_NVML_", "CUDA_")):
            monkeypatch.delenv(k)


def cli(*args):
    p = subprocess.run([FATCHECK, "--json", *args], capture_output=True, env=os.environ)
    return json.loads(p.stdout), p.returncode


def arguments(paths, gpus=None, driver=None, arch_list=None, strict=False, kernels=False, embedded="auto",
              packages=False):
    """The command's arguments for scan()'s."""
    args = []
    for g in gpus or []:
        args += ["--gpu", g]
    if driver:
        args += ["--driver", driver]
    if arch_list:
        args += ["--arch-list", arch_list]
    args += ["--strict"] if strict else []
    args += ["--kernels"] if kernels else []
    args += {"all": ["--embedded"], "none": ["--no-embedded"], "auto": []}[embedded]
    args += ["--packages"] if packages else []
    return args + [str(p) for p in paths]


CASES = [
    dict(paths=[FIXTURES], gpus=GPUS, driver="12.4"),
    dict(paths=[FIXTURES], gpus=GPUS, driver="13.0", kernels=True, embedded="all"),
    dict(paths=[FIXTURES], arch_list="8.0;9.0+PTX", strict=True),
    dict(paths=[FIXTURES / "libmulti.so", FIXTURES / "kernels.sm_90.cubin"], gpus=["H100,RTX 4090"],
         driver="550.54.14", kernels=True),
    dict(paths=[FIXTURES / "packages"], gpus=["8.6"], packages=True),
    dict(paths=[BROKEN], gpus=["9.0"], driver="13.0"),
    dict(paths=[FIXTURES / "no-such-file", FIXTURES / "app"], gpus=["7.5"]),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: " ".join(arguments(**c)).replace(str(FIXTURES), "fixtures"))
def test_same_document_and_exit_status_as_the_command(case):
    want, rc = cli(*arguments(**case))
    report = fatcheck.scan(errors="report", **case)
    assert report == want
    assert report.exit_status == rc


def test_local_gpus_as_the_command_finds_them(monkeypatch):
    monkeypatch.setenv("FAKE_CUDA_DEVICES", "NVIDIA H200:9.0:bus=2;NVIDIA GeForce RTX 4090:8.9:bus=1")
    monkeypatch.setenv("FAKE_CUDA_DRIVER", "12080")
    want, rc = cli(str(FIXTURES / "libmulti.so"))
    report = fatcheck.scan([FIXTURES / "libmulti.so"])
    assert report == want and report.exit_status == rc
    assert [(t["target"], t["source"], t["driver_cuda"]) for t in report["targets"]] == [
        ("sm_90", "GPU 0", "12.8"), ("sm_89", "GPU 1", "12.8")]
    assert report["detection"]["by"] == "driver"  # two models: the runtime's own order


def test_no_gpu_warns():
    want, rc = cli(str(FIXTURES / "app"))
    with pytest.warns(fatcheck.NoTargetsWarning, match="not judging any GPU"):
        report = fatcheck.scan([FIXTURES / "app"])
    assert report == want and report["targets"] == [] and "targets_note" in report
    with pytest.raises(fatcheck.CheckError, match="not judging any GPU") as raised:
        fatcheck.scan([FIXTURES / "app"], require_targets=True)
    # as `fatcheck --require-targets` exits: 0 let a wrapper's sys.exit(e.exit_status) pass
    # (review of 2026-12-04, F6)
    rc = cli("--require-targets", str(FIXTURES / "app"))[1]
    assert raised.value.exit_status == rc == fatcheck.EXIT_NO_TARGETS == 6
    assert raised.value.report.exit_status == 6


def test_iteration():
    report = fatcheck.scan([FIXTURES], gpus=["8.0", "9.0"], driver="13.0")
    files = list(report.files())
    assert files == report["files"] and len(files) > 10
    assert len(list(report.containers())) == sum(len(f["containers"]) for f in files)
    verdicts = list(report.verdicts())
    assert len(verdicts) == sum(len(f.get("verdicts", [])) for f in files)
    assert {v["target"] for _, v in verdicts} == {"sm_80", "sm_90"}
    multi = next(f for f in files if f["path"].endswith("libmulti.so"))
    # sm_90 code only for 9.0; the sm_75 cubin of the device link step defines nothing
    assert [v["status"] for v in multi["verdicts"]] == ["partial", "ok"]
    assert [v.get("modules_defining_nothing") for v in multi["verdicts"]] == [1, 1]
    assert [c["entries"][0]["arch"] for c in multi["containers"]] == ["sm_75", "sm_80", "sm_90"]


def test_paths_as_str_bytes_and_pathlike():
    one = fatcheck.scan(str(FIXTURES / "libmulti.so"), gpus="9.0")
    assert [f["path"] for f in one["files"]] == [str(FIXTURES / "libmulti.so")]
    assert fatcheck.scan([os.fsencode(FIXTURES / "libmulti.so")], gpus="9.0") == one
    assert fatcheck.scan(FIXTURES / "libmulti.so", gpus="9.0") == one


def test_unreadable_input_raises():
    with pytest.raises(fatcheck.InputError) as e:
        fatcheck.scan([FIXTURES / "no-such-file", FIXTURES / "libmulti.so"], gpus=["9.0"])
    assert any("no-such-file" in m and "cannot open" in m for m in e.value.messages)
    assert [f["path"] for f in e.value.report["files"]] == [str(FIXTURES / "libmulti.so")]
    assert e.value.report.exit_status == fatcheck.EXIT_INPUT
    with pytest.raises(fatcheck.InputError):  # decoded only in part
        fatcheck.scan([BROKEN / "archive-truncated.a"], gpus=["9.0"])


def test_bad_arguments_raise_usage_errors():
    for kw in [dict(gpus=["sm_999x"]), dict(gpus=["9.0"], driver="twelve"), dict(arch_list="8.0;bogus"),
               dict(gpus="9.0", embedded="some"), dict(gpus="9.0", errors="ignore"),
               dict(gpus="9.0", detect_timeout=0)]:
        with pytest.raises(fatcheck.UsageError):
            fatcheck.scan([FIXTURES / "app"], **kw)
    with pytest.raises(ValueError, match="Frobnicator"):
        fatcheck.scan([FIXTURES / "app"], gpus=["Frobnicator"])


def test_nothing_named_is_no_pass():
    """Review R8, R17: an empty glob, or an unset GPU variable, must not open the gate."""
    with pytest.raises(fatcheck.UsageError, match="no input files"):
        fatcheck.scan([], gpus=["9.0"])
    for gpus in ("", ",", [], [""], " , "):
        with pytest.raises(fatcheck.UsageError, match="names no GPU"):
            fatcheck.scan([FIXTURES / "libmulti.so"], gpus=gpus)


def test_check():
    ok = fatcheck.scan([FIXTURES / "libmulti.so"], gpus=["9.0"], driver="13.0")
    assert ok.ok and ok.check() is ok
    none = fatcheck.scan([FIXTURES / "libmulti.so"], gpus=["7.0"], driver="13.0")
    with pytest.raises(fatcheck.CheckError, match="libmulti.so: none on sm_70") as e:
        none.check()
    assert e.value.exit_status == fatcheck.EXIT_LOAD_RISK
    assert [bits for _, bits in none.problems()] == [fatcheck.PROBLEM_LOAD]
    partial = fatcheck.scan([FIXTURES / "libmulti.so"], gpus=["8.0"], driver="13.0", strict=True)
    with pytest.raises(fatcheck.CheckError, match="partial on sm_80"):
        partial.check()
    arch = fatcheck.scan([FIXTURES / "libmulti.so"], arch_list="9.0")
    with pytest.raises(fatcheck.CheckError, match="does not hold what 9.0 builds") as e:
        arch.check()
    assert e.value.exit_status == fatcheck.EXIT_ARCH_LIST



def test_strict_fails_what_was_not_seen(tmp_path):
    """Bytes appended after an ELF image, and a tar without its end-of-archive marker: a note
    and a warning by default, exit 3 with strict=True, as the command."""
    lib = tmp_path / "libmulti.so"
    lib.write_bytes((FIXTURES / "libmulti.so").read_bytes() + bytes(8192))
    data = (FIXTURES / "libmulti.so").read_bytes()
    cut = tmp_path / "cut.tar"  # a header, the data padded to 512 bytes, no marker
    import io
    import tarfile
    head = tarfile.TarInfo("lib/libmulti.so")
    head.size = len(data)
    cut.write_bytes(head.tobuf() + data + bytes(-len(data) % 512))
    # A program whose 3 MiB .rodata is searched only in its first MiB, found in a folder: failed
    # by strict=True as when named (a folder passed it, exit 0).
    tree = tmp_path / "tree"
    tree.mkdir()
    src = tmp_path / "big.c"
    src.write_text('__asm__(".section .rodata\\n.globl big\\nbig: .fill 3145728, 1, 7\\n.previous\\n");\n'
                   'extern const unsigned char big[];\nint main(void) { return big[0]; }\n')
    subprocess.run(["cc", "-o", str(tree / "big"), str(src)], check=True)
    for paths in ([lib], [cut], [tree]):
        for strict in (False, True):
            case = dict(paths=paths, gpus=["9.0"], driver="13.0", strict=strict)
            want, rc = cli(*arguments(**case))
            report = fatcheck.scan(errors="report", **case)
            assert report == want and report.exit_status == rc == (3 if strict else 0), (paths, strict)
    report = fatcheck.scan([lib], gpus=["9.0"], driver="13.0", strict=True)
    assert [bits for _, bits in report.problems()] == [fatcheck.PROBLEM_UNSEEN]
    assert report.counts["unseen"] == 1
    with pytest.raises(fatcheck.CheckError, match="libmulti.so: not fully seen or judged"):
        report.check()
    assert "warnings" in fatcheck.scan([cut], gpus=["9.0"], driver="13.0")
    # A package a walk did not open: strict=True fails it as the command does, and says why.
    dist = tmp_path / "dist"
    dist.mkdir()
    (dist / "libs.tar.gz").write_bytes((FIXTURES / "packages" / "libs.tar.gz").read_bytes())
    for strict in (False, True):
        case = dict(paths=[dist], gpus=["9.0"], driver="13.0", strict=strict)
        want, rc = cli(*arguments(**case))
        report = fatcheck.scan(errors="report", **case)
        assert report == want and report.exit_status == rc == (3 if strict else 0), strict
    with pytest.raises(fatcheck.CheckError, match="1 package not opened"):
        report.check()


def test_imported_from_where_it_should_be():
    where = os.environ.get("FATCHECK_PYTHON_FROM")
    if not where:
        pytest.skip("the build tree's package (FATCHECK_PYTHON_FROM names an install's)")
    assert pathlib.Path(fatcheck.__file__).resolve().parent == pathlib.Path(where).resolve()
    assert fatcheck.__version__ == subprocess.run([FATCHECK, "--version"], capture_output=True,
                                                  text=True).stdout.split()[1]
