"""The people who act on money, and how the controller tells them apart: by id, never by name.

Each person who may act on money (supervisors, cashiers, security officers who witness,
auditors) is in the register (jackpot.store.people) under the id the casino already uses for
them, an employee or badge number. A control that compares people (two-person approval, a
witness who is not the payer) compares these ids, and nothing else: a name is what the
controller shows beside the number, never what it compares (docs/DECISIONS.md D232).

An id is 1 to 32 ASCII letters, digits, `-` and `.`, starting and ending with a letter or a
digit; letters are upper-cased, so `e1042` and `E1042` are one person. What a display name may
hold, and when two names are confusable, is jackpot.domain.names.

`person_of` is the comparison of the names kept before the register (payouts confirmed, and
voids asked, before it): such a record is still compared as it was written.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any, ClassVar

from jackpot.domain.answers import BOOLEAN, MS, TEXT, Derived, Each, answer_field
from jackpot.errors import ValidationError

MAX_PERSON_ID = 32
_PERSON_ID = re.compile(r"[A-Z0-9](?:[A-Z0-9.-]{0,30}[A-Z0-9])?")
# as a request may write it (the register keeps it upper-cased)
PERSON_ID_PATTERN = r"^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,30}[A-Za-z0-9])?$"


def parse_person_id(raw: Any, field: str = "person") -> str:
    """A person's id as the register keeps it (upper case), or a 400 naming `field`."""
    if not isinstance(raw, str):
        raise ValidationError(
            field, "must be a person's id, as a string (employee or badge number)", "not_a_string"
        )
    if not raw:
        raise ValidationError(field, "must be a person's id (employee or badge number)", "empty")
    ident = raw.upper() if raw.isascii() else raw
    if not _PERSON_ID.fullmatch(ident):
        raise ValidationError(
            field,
            f"{raw!r} is not a person's id: 1 to {MAX_PERSON_ID} ASCII letters, digits, '-' "
            "and '.', starting and ending with a letter or digit (an employee or badge number)",
        )
    return ident


# a person as shown: `Dana Reyes (E1042)` (D235); `shown_parts` reads it back
_SHOWN = re.compile(r"(.*) \(([A-Z0-9.-]+)\)")


def shown(name: str, person_id: str) -> str:
    """A person as slips, records and reports show them: name and number."""
    return f"{name} ({person_id})"


def shown_parts(text: str) -> tuple[str, str]:
    """(name, id) of a person as shown; (text, "") for a name alone (a record from before
    the register)."""
    found = _SHOWN.fullmatch(text)
    return (found[1], found[2]) if found else (text, "")


@dataclass(frozen=True, slots=True)
class Person:
    """One person of the register."""

    NAME: ClassVar[str] = "Person"
    DOC: ClassVar[str] = "a person of the register: every rule of people compares `id`"
    DERIVED: ClassVar[tuple[Derived, ...]] = (
        Derived("shown", TEXT, "name and number: `Dana Reyes (E1042)`"),
    )

    id: str = answer_field(TEXT, "the employee or badge number: what every control compares")
    name: str = answer_field(TEXT, "shown beside the number, never compared")
    position: str = answer_field(
        TEXT, 'what they do on the floor (shown only): "shift supervisor"', default=""
    )
    active: bool = answer_field(BOOLEAN, "false once deactivated", default=True)
    created: int = answer_field(MS, "when first registered", default=0)
    changed: int = answer_field(
        MS, "last registered, renamed, deactivated or reactivated", default=0
    )
    keys: tuple[str, ...] = answer_field(
        Each(TEXT), "the ids of the keys issued to them, revoked or not", default=()
    )

    @property
    def shown(self) -> str:
        """Name and number, as slips, records and reports show a person: `Dana Reyes (E1042)`."""
        return shown(self.name, self.id)


def person_of(name: str) -> str:
    """How names were compared before the register (kept for records written then): NFKC,
    case folded, without white space or format characters ("" for no name at all)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    folded = unicodedata.normalize("NFKC", folded)
    return "".join(c for c in folded if not c.isspace() and unicodedata.category(c) != "Cf")
