"""The error tree drawn in jackpot/errors.py's docstring is the tree of its classes."""

from __future__ import annotations

import inspect
import re

from jackpot import errors


def drawn_tree() -> dict[str, str | None]:
    """Each class drawn in the docstring with the class it is drawn under."""
    parents: dict[str, str | None] = {}
    stack: list[tuple[int, str]] = []
    for line in (errors.__doc__ or "").splitlines():
        found = re.match(r"^([│ ]*(?:[├└]── )?)([A-Z][A-Za-z]*Error)\b", line)
        if not found:
            continue
        depth = len(found.group(1))
        while stack and stack[-1][0] >= depth:
            stack.pop()
        parents[found.group(2)] = stack[-1][1] if stack else None
        stack.append((depth, found.group(2)))
    return parents


def defined_tree() -> dict[str, str | None]:
    classes = {
        name: cls
        for name, cls in inspect.getmembers(errors, inspect.isclass)
        if issubclass(cls, errors.JackpotError) and cls.__module__ == errors.__name__
    }
    return {
        name: (None if cls is errors.JackpotError else cls.__bases__[0].__name__)
        for name, cls in classes.items()
    }


def test_every_error_class_is_drawn_under_its_parent() -> None:
    assert drawn_tree() == defined_tree()


def test_every_error_class_name_ends_in_error() -> None:
    assert all(name.endswith("Error") for name in defined_tree())
