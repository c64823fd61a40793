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


# The slowest tests first: ./dev test's workers (pytest-xdist, --dist worksteal) each start
# on half of this order and steal from the other's end, so the long e2e and integration tests
# start at once and the short ones fill in at the end, instead of one worker finishing a long
# tail alone.
FIRST = ("e2e", "integration", "api")


class Order:
    """The items' marks, before `-m` selects by them; their order, once collected (after
    pytest's own grouping by fixture, which a stable sort keeps)."""

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        for item in items:
            if fast(item):
                item.add_marker(pytest.mark.fast)

    @pytest.hookimpl(tryfirst=True)  # before pytest-xdist's worker reports the order
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        session.items.sort(
            key=lambda item: FIRST.index(f) if (f := folder(item)) in FIRST else len(FIRST)
        )


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(Order(), "jackpot-run-order")


def folder(item: pytest.Item) -> str:
    """The top folder of tests/ the item is in ('' outside it)."""
    if not item.path.is_relative_to(TESTS):
        return ""
    return item.path.relative_to(TESTS).parts[0]


def fast(item: pytest.Item) -> bool:
    """The edit-test loop's tier (`./dev test fast`): the rules, the table side and the API
    on one redis-server, less what is marked slow."""
    if item.get_closest_marker("slow") is not None:
        return False
    top = folder(item)
    if top in ("unit", "table_adapter", "test_suite_layout.py"):
        return True
    callspec = getattr(item, "callspec", None)
    return top == "api" and callspec is not None and callspec.params.get("store") == "server"


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
