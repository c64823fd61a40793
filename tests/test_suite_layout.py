"""The suite's own layout: test modules share helpers only through tests/support/."""

from __future__ import annotations

import ast
from pathlib import Path

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
