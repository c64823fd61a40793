"""What the API answers of `/v1/session` (docs/API.md, the console): who the key is and the
person it is issued to, how the casino keeps time, the rules the console shows, and which
files a closed gaming day has. Declared once (jackpot.domain.answers) for the JSON and the
schema."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from jackpot.domain.answers import CENTS, TEXT, Each, OneOf, Plain, answer_field
from jackpot.domain.auth import Role


@dataclass(frozen=True, slots=True, kw_only=True)
class Session:
    NAME: ClassVar[str] = "Session"
    DOC: ClassVar[str] = "who the key is, and the casino's clock and rules the console shows"

    key: str = answer_field(TEXT, "the key's id")
    who: str = answer_field(TEXT, "the key as journaled: role:key id")
    role: Role = answer_field(OneOf(Role))
    person: str = answer_field(TEXT, "the name of the person it is issued to ('': none)")
    person_id: str = answer_field(TEXT, "their id in the register ('': none)")
    shown: str = answer_field(TEXT, "how steps name them: name and number, else the key")
    time_zone: str = answer_field(TEXT, "the casino's IANA time zone")
    gaming_day_start: str = answer_field(TEXT, "when a gaming day starts, HH:MM local")
    handpay_approval_cents: int = answer_field(
        CENTS, "from this amount a second person approves a payout; 0: never"
    )
    offline_after_seconds: int = answer_field(
        Plain("integer", "seconds"), "a table not heard from for longer is offline"
    )
    day_files: tuple[str, ...] = answer_field(
        Each(TEXT), "the names of a closed day's files (/v1/accounting/days/{day}/{name}.csv)"
    )
