"""What the API answers of a sign's definition (docs/API.md, /v1/signs): the pools it shows
in order under the sign's own names, its title, branding, orientation, currency and locale.
Declared once (jackpot.domain.answers) for the JSON and the schema. How the definition is
stored is jackpot.domain.signs' `Sign.to_json`; what a sign screen is sent is the sign
feed's (jackpot/services/signboard.py)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from jackpot.domain.answers import TEXT, Each, Given, Nested, OneOf, OrNull, answer_field
from jackpot.domain.signs import CURRENCIES, LOCALES, ORIENTATIONS, Sign


class Written(StrEnum):
    """What a PUT of a sign did."""

    CREATED = "created"
    UPDATED = "updated"
    UNCHANGED = "unchanged"


class Deleted(StrEnum):
    DELETED = "deleted"


def _one_of(values: tuple[str, ...]) -> Given:
    return Given({"enum": list(values)})


@dataclass(frozen=True, slots=True)
class SignLevel:
    NAME: ClassVar[str] = "SignLevel"
    DOC: ClassVar[str] = "one level of a sign: a pool and the sign's own name for it"

    pool: str = answer_field(TEXT, "a public pool")
    name: str | None = answer_field(
        OrNull(TEXT), "the sign's own name for it; null: the pool's name, else its id"
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class SignAnswer:
    NAME: ClassVar[str] = "SignDefinition"
    DOC: ClassVar[str] = "a sign's definition: what its screen shows, and how"

    sign: str = answer_field(TEXT)
    levels: list[SignLevel] = answer_field(Each(Nested(SignLevel)), "the pools it shows, in order")
    title: str = answer_field(TEXT, "its heading")
    branding: str = answer_field(TEXT, "a line under the title ('': none)")
    orientation: str = answer_field(_one_of(ORIENTATIONS))
    currency: str = answer_field(_one_of(CURRENCIES), "ISO 4217: how amounts are written")
    locale: str = answer_field(_one_of(LOCALES), "how numbers and times are written")
    status: Written | None = answer_field(OneOf(Written), "a PUT: what it did", omitted=True)

    @classmethod
    def of(cls, sign: Sign, status: Written | None = None) -> SignAnswer:
        return cls(
            sign=sign.sign,
            levels=[SignLevel(lv.pool, lv.label) for lv in sign.levels],
            title=sign.title,
            branding=sign.branding,
            orientation=sign.orientation,
            currency=sign.currency,
            locale=sign.locale,
            status=status,
        )


@dataclass(frozen=True, slots=True)
class SignList:
    NAME: ClassVar[str] = "Signs"
    DOC: ClassVar[str] = "every sign's definition"

    signs: list[SignAnswer] = answer_field(Each(Nested(SignAnswer)))


@dataclass(frozen=True, slots=True)
class SignDeleted:
    NAME: ClassVar[str] = "SignDeleted"
    DOC: ClassVar[str] = "a sign deleted"

    sign: str = answer_field(TEXT)
    status: Deleted = answer_field(OneOf(Deleted))
