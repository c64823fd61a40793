"""How the suite runs, whichever machine runs it: the edit-test loop's tier (`fast`), and CI's
rule that a skipped test is a failure (CI installs every real component, so a skip there is
a missing install step, never a green run that tested less). Loaded by tests/conftest.py."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if fast(item):
            item.add_marker(pytest.mark.fast)


def fast(item: pytest.Item) -> bool:
    """The edit-test loop's tier (`./dev test fast`): the rules, the table side and the API
    on one redis-server, less what is marked slow."""
    if item.get_closest_marker("slow") is not None:
        return False
    if not item.path.is_relative_to(TESTS):
        return False
    folder = item.path.relative_to(TESTS).parts[0]
    if folder in ("unit", "table_adapter", "test_suite_layout.py"):
        return True
    callspec = getattr(item, "callspec", None)
    return folder == "api" and callspec is not None and callspec.params.get("store") == "server"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> pytest.TestReport:
    """On CI, which installs every real component, a skipped test is a failure: a missing
    install step must never pass as a green run that tested less."""
    report: pytest.TestReport = yield
    if in_ci() and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"skipped on CI, where nothing may be: {reason}"
    return report


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """On CI, a skip the hook above could not turn into a failure (a module skipped while it
    was collected) fails the run all the same."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter is not None else []
    if (
        in_ci()
        and skipped
        and exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED)
    ):
        for report in skipped:
            reporter.write_line(f"skipped on CI, where nothing may be: {report.nodeid}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
