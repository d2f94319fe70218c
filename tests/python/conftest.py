"""The Python package's tests report in TAP (meson counts test points the same way for every
test): one "ok N - name" line per test, failures' details as comments, and nothing else."""
import os
import sys

import pytest

# An installed package, when FATCHECK_PYTHON_FROM names it, before the build tree's.
if os.environ.get("FATCHECK_PYTHON_FROM"):
    sys.path.insert(0, os.path.dirname(os.path.abspath(os.environ["FATCHECK_PYTHON_FROM"])))

_n = 0


@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    reporter = config.pluginmanager.getplugin("terminalreporter")
    if reporter:
        config.pluginmanager.unregister(reporter)


def pytest_runtest_logreport(report):
    global _n
    if report.when == "call" or (report.when == "setup" and not report.passed):
        _n += 1
        name = report.nodeid.split("::", 1)[-1]
        if report.passed:
            print("ok %d - %s" % (_n, name), flush=True)
        elif report.skipped:
            print("ok %d - %s # SKIP %s" % (_n, name, report.longrepr[2] if isinstance(report.longrepr, tuple)
                                              else ""), flush=True)
        else:
            print("not ok %d - %s" % (_n, name), flush=True)
            for line in str(report.longrepr).splitlines():
                print("# " + line, flush=True)


def pytest_sessionfinish(session, exitstatus):
    if exitstatus not in (0, 1):  # 1: some test failed (said above)
        print("not ok %d - pytest stopped: exit status %d" % (_n + 1, exitstatus))
        print("1..%d" % (_n + 1))
    else:
        print("1..%d" % _n)
    sys.stdout.flush()
