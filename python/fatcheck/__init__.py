"""fatcheck: which GPUs can run the CUDA code in a file, from Python.

    import fatcheck
    report = fatcheck.scan(["build/lib/my_ext.so"], gpus=["H100", "L4"], driver="12.4")
    report.check()            # raises fatcheck.CheckError unless every target can run it
    for f, v in report.verdicts():
        print(f["path"], v["target"], v["status"])

scan() reads the files through libfatcheck (a C extension; the fatcheck program is never
run) and returns the document `fatcheck --json` prints for the same arguments, as dicts: its
schema is docs/json.md. Inputs that cannot be read raise InputError (errors="report" returns
them in the document instead); bad arguments raise UsageError.
"""

import json
import os
import warnings

from . import _fatcheck

__all__ = ["scan", "Report", "Error", "UsageError", "InputError", "CheckError", "NoTargetsWarning"]
__version__ = _fatcheck.version

#: Why a file fails a check (Report.problems): its decoding stopped early; a target's verdict is
#: none (with strict=True: or partial); it does not hold exactly what arch_list builds; with
#: strict=True, part of it was not seen or judged (its notes say what).
PROBLEM_INPUT, PROBLEM_LOAD, PROBLEM_ARCH_LIST, PROBLEM_UNSEEN = (
    _fatcheck.PROBLEM_INPUT, _fatcheck.PROBLEM_LOAD, _fatcheck.PROBLEM_ARCH_LIST, _fatcheck.PROBLEM_UNSEEN)

#: The exit statuses of the fatcheck command, which Report.exit_status follows.
EXIT_OK, EXIT_LOAD_RISK, EXIT_USAGE, EXIT_INPUT, EXIT_INTERNAL, EXIT_ARCH_LIST, EXIT_NO_TARGETS = 0, 1, 2, 3, 4, 5, 6


class Error(Exception):
    """Anything fatcheck raises."""


class UsageError(Error, ValueError):
    """A bad argument: an unknown GPU name, driver version or arch list, a bad option."""


class InputError(Error):
    """Some input could not be read or decoded. The rest was judged: .report holds all of it,
    .messages what went wrong (as fatcheck prints them)."""

    def __init__(self, report):
        self.report = report
        self.messages = report.messages()
        super().__init__("; ".join(self.messages) or "an input could not be read")


class CheckError(Error):
    """Report.check() failed: .report, and .exit_status as the fatcheck command would exit."""

    def __init__(self, report, reasons):
        self.report = report
        self.exit_status = report.exit_status
        super().__init__("; ".join(reasons))


class NoTargetsWarning(UserWarning):
    """No GPU was named and none was found: nothing was judged."""


class Report(dict):
    """The --json document (a dict), with ways through it.

    exit_status is what `fatcheck` would exit with for the same run (0 ok; 1 a target cannot
    load any module of some file, or with strict=True some module; 3 an input could not be
    read, or with strict=True not fully seen or judged; 4 internal error; 5 a file does not hold
    what arch_list builds; 6 no target GPU, with require_targets); counts says what it rests on (input_errors, load_failures,
    arch_mismatches, unseen, internal).
    """

    def __init__(self, document, exit_status, counts, problems, strict=False):
        super().__init__(document)
        self.exit_status = exit_status
        self.counts = counts
        self._problems = problems
        self._strict = strict

    def problems(self):
        """(file, bits) for every file: the PROBLEM_* bits the library's rule gives it."""
        return zip(self["files"], self._problems)

    def files(self):
        """Every file and member reported, in scan order."""
        return iter(self["files"])

    def containers(self):
        """(file, container) for every container of every file."""
        for f in self["files"]:
            for c in f["containers"]:
                yield f, c

    def verdicts(self):
        """(file, verdict) for every file and target judged."""
        for f in self["files"]:
            for v in f.get("verdicts", []):
                yield f, v

    def messages(self):
        """What could not be read: inputs that gave no file, and files decoded only in part."""
        return [e["message"] for e in self["errors"]] + [f["error"] for f in self["files"] if "error" in f]

    @property
    def ok(self):
        return self.exit_status == EXIT_OK

    def check(self):
        """Raises CheckError unless the run would pass as `fatcheck` (exit status 0)."""
        if self.ok:
            return self
        reasons = []
        for f, bits in self.problems():
            name = f["path"] + ("!" + f["member"] if "member" in f else "")
            if bits & PROBLEM_LOAD:
                reasons.append("%s: %s" % (name, ", ".join(
                    "%s on %s" % (v["status"], v["target"]) for v in f["verdicts"] if v["status"] in ("none", "partial"))))
            if bits & PROBLEM_UNSEEN:
                reasons.append("%s: not fully seen or judged (strict)" % name)
            if bits & PROBLEM_ARCH_LIST:
                reasons.append("%s: does not hold what %s builds" % (name, f["arch_list_check"]["arch_list"]))
        reasons += self.messages()
        unopened = self.get("skipped_in_walks", {}).get("packages", 0)
        if self._strict and unopened:  # as the command says it (review of 2026-12-08, rv44)
            reasons.append("%d package%s not opened (packages=True opens them); strict fails it"
                           % (unopened, "" if unopened == 1 else "s"))
        raise CheckError(self, reasons or ["exit status %d" % self.exit_status])


def scan(paths, gpus=None, driver=None, *, arch_list=None, strict=False, kernels=False, embedded="auto",
         packages=False, recurse=True, follow_symlinks=False, threads=0, detect_timeout=None,
         require_targets=False, errors="raise"):
    """Scans PATHS (files, directories, packages; str, bytes or os.PathLike) and judges them.

    gpus: GPUs to judge for, as `fatcheck --gpu` names them ("sm_86", "8.6", "H100"); a string
    may list several, comma-separated. Without gpus or arch_list, the local GPUs are judged
    (NoTargetsWarning, or with require_targets=True a CheckError, when there are none).
    driver: their driver, a CUDA version ("12.4", or 12040 as cuDriverGetVersion gives it) or a
        driver release ("550.54.14").
    arch_list: a TORCH_CUDA_ARCH_LIST; files must hold exactly what it builds.
    strict: a partial verdict fails too. kernels: read every image's kernels and name those
    each target lacks. embedded: "auto", "all" or "none" (--embedded, --no-embedded).
    packages: open packages found in directories. recurse, follow_symlinks, threads: as the
    command's --no-recurse, --follow and --threads. detect_timeout: seconds detection may take.
    errors: "raise" (InputError when an input could not be read) or "report".
    """
    if errors not in ("raise", "report"):
        raise UsageError("errors takes 'raise' or 'report', not %r" % (errors,))
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    paths = list(paths)
    # As the command: no input is a usage error, never a pass (an empty glob in a build
    # script must not open the gate), and so is a GPU list that names none.
    if not paths:
        raise UsageError("no input files")
    if gpus is not None and not isinstance(gpus, str):
        gpus = list(gpus)
    if gpus is not None and not [g for g in (gpus.split(",") if isinstance(gpus, str) else gpus) if str(g).strip()]:
        raise UsageError("gpus names no GPU (leave it out to judge the local GPUs)")
    timeout_ms = 0
    if detect_timeout is not None:
        timeout_ms = int(round(float(detect_timeout) * 1000))
        if not 1 <= timeout_ms <= 600000:
            raise UsageError("detect_timeout takes 0.001 to 600 seconds")
    try:
        text, status, counts, problems = _fatcheck.scan(paths, gpus, driver, arch_list, bool(strict), bool(kernels),
                                              embedded, bool(packages), bool(recurse), bool(follow_symlinks),
                                              threads=int(threads), detect_timeout_ms=timeout_ms)
    except ValueError as e:
        raise UsageError(str(e)) from None
    report = Report(json.loads(text), status, counts, list(problems), strict=bool(strict))
    if not report["targets"]:
        note = report.get("targets_note", "no target GPU")
        if require_targets:
            if report.exit_status != EXIT_INTERNAL:  # the command's order: 4, then 6
                report.exit_status = EXIT_NO_TARGETS
            raise CheckError(report, ["not judging any GPU: " + note])
        warnings.warn("not judging any GPU: " + note, NoTargetsWarning, stacklevel=2)
    if errors == "raise" and counts["input_errors"]:
        raise InputError(report)
    if counts["internal"]:
        raise MemoryError("fatcheck ran out of memory")
    return report
