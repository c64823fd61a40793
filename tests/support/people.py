"""People for the tests: the register (jackpot.domain.people) holds a cast of names the
tests use as payers and witnesses, and a person's key is issued to the person its label names.

A person's id is made from their name, upper-cased with dashes (`Sam Okafor` -> `SAM-OKAFOR`),
so a test reads `"witness": pid("Sam Okafor")` or simply `"witness": "SAM-OKAFOR"`.
"""

from __future__ import annotations

import re
from typing import Any

from jackpot.conflicts import PersonError
from jackpot.domain.auth import PEOPLES_ROLES, Role
from jackpot.domain.people import Person

# the names the tests confirm hand pays with
CAST = (
    "Sam Okafor",
    "Sam",
    "Lee Chan",
    "Lee",
    "Lee Park",
    "Dana Reyes",
    "Dana",
    "Ana Ruiz",
    "Sam Ortiz",
    "Ari Novak",
)


def pid(name: str) -> str:
    """The id the tests register `name` under."""
    return "-".join(re.findall(r"[A-Za-z0-9]+", name)).upper()[:32].strip("-")


def person(services: Any, name: str) -> Person:
    """The active person of the register called `name` (registered now if need be)."""
    ident = pid(name)
    found = services.people.get(ident)
    if found is not None:
        return found if found.active else services.people.reactivate(ident, "the tests")
    try:
        return services.people.register(ident, name)
    except PersonError as exc:
        if exc.code != "person_confusable":
            raise
        return services.people.register(ident, name, "", "the tests: another person", True)


def cast(services: Any) -> None:
    """Register the tests' cast of payers and witnesses."""
    for name in CAST:
        person(services, name)


def issue(services: Any, role: Role, tables: frozenset[str] | tuple[str, ...], label: str) -> str:
    """A new key: a person's (operator, auditor) issued to the person `label` names, as
    `jackpot keys create --person` issues it; a device's labelled `label`."""
    tables = frozenset(tables)
    if role in PEOPLES_ROLES:
        cast(services)
        holder = person(services, label)
        return str(services.credentials.create(role, tables, "", holder.id)[0])
    return str(services.credentials.create(role, tables, label)[0])
