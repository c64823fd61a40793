"""The suite's own layout: test modules share helpers only through tests/support/."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.support import run_policy

TESTS = Path(__file__).parent


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_no_test_module_or_conftest_is_imported_by_another_module() -> None:
    offenders = {}
    for path in sorted(TESTS.rglob("*.py")):
        bad = {
            m
            for m in imported_modules(path)
            if m.startswith("tests.")
            and any(part.startswith("test_") or part == "conftest" for part in m.split("."))
        }
        if bad:
            offenders[str(path.relative_to(TESTS))] = sorted(bad)
    assert offenders == {}


SKIPPING = """
import pytest

pytestmark = pytest.mark.skipif(True, reason="no such component here")

def test_needs_a_component():
    pass
"""

SKIPPED_MODULE = """
import pytest

pytest.skip("no such component here", allow_module_level=True)
"""


@pytest.mark.parametrize("source", [SKIPPING, SKIPPED_MODULE], ids=["test", "module"])
def test_on_ci_a_skip_fails_the_run_and_names_itself(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, source: str
) -> None:
    pytester.makepyfile(test_component=source)
    monkeypatch.setenv("CI", "true")
    on_ci = pytester.runpytest("-p", "no:cacheprovider", plugins=[run_policy])
    assert on_ci.ret == pytest.ExitCode.TESTS_FAILED
    on_ci.stdout.fnmatch_lines(["*skipped on CI, where nothing may be*"])
    monkeypatch.delenv("CI")
    here = pytester.runpytest("-p", "no:cacheprovider", plugins=[run_policy])
    assert here.ret in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED)
    here.assert_outcomes(skipped=1)
