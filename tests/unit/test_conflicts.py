"""The tree of conflicts drawn in jackpot/conflicts.py's docstring is the tree of its classes,
each a kind of jackpot.errors.ConflictError: the errors' tree (tests/unit/test_errors.py)
continued."""

from __future__ import annotations

import inspect
import re

from jackpot import conflicts, errors


def drawn() -> dict[str, str]:
    """Each class drawn under ConflictError in the docstring, with the class it is under."""
    parents: dict[str, str] = {}
    for line in (conflicts.__doc__ or "").splitlines():
        found = re.match(r"^[├└]── ([A-Z][A-Za-z]*Error)\b", line)
        if found:
            parents[found.group(1)] = "ConflictError"
    return parents


def defined() -> dict[str, str]:
    return {
        name: cls.__bases__[0].__name__
        for name, cls in inspect.getmembers(conflicts, inspect.isclass)
        if issubclass(cls, errors.JackpotError) and cls.__module__ == conflicts.__name__
    }


def test_every_conflict_is_drawn_and_is_a_conflict_answered_409() -> None:
    assert drawn() == defined()
    for name in defined():
        conflict = getattr(conflicts, name)
        assert issubclass(conflict, errors.ConflictError) and conflict.status == 409, name


def test_every_conflict_names_itself_an_error_and_none_is_left_in_the_errors_module() -> None:
    assert all(name.endswith("Error") for name in defined())
    left = [
        name
        for name, cls in inspect.getmembers(errors, inspect.isclass)
        if issubclass(cls, errors.ConflictError) and cls is not errors.ConflictError
    ]
    assert left == []
