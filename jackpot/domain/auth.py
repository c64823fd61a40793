"""Roles and API keys (docs/RULES.md §5): keys are random, shown once, stored only as a SHA-256."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from enum import StrEnum

from jackpot.errors import ForbiddenError

KEY_PREFIX = "jpk_"


class Role(StrEnum):
    TABLE = "table"  # report rounds and heartbeats for its own tables
    DISPLAY = "display"  # read meters
    OPERATOR = "operator"  # configure, confirm payouts, adjust
    AUDITOR = "auditor"  # read journal, exports, reports


def a_tables_key(who: str) -> bool:
    """Whether a step's `who` ("role:key id", ApiKey.who) is a table's key: a device, no
    person (void_round.lua holds the same rule)."""
    return who.partition(":")[0] == Role.TABLE.value


# the roles whose keys are issued to a person of the register (jackpot.domain.people)
PEOPLES_ROLES = frozenset({Role.OPERATOR, Role.AUDITOR})


@dataclass(frozen=True, slots=True)
class ApiKey:
    key_id: str  # public: names the key in the journal's "who"
    role: Role
    tables: frozenset[str] = frozenset()
    created: int = 0
    label: str = ""  # a note on the key: the device a table's or sign's key sits in
    person: str = ""  # the id of the person it is issued to (operator and auditor keys)

    def may_report_for(self, table: str) -> bool:
        return self.role is Role.TABLE and table in self.tables

    @property
    def who(self) -> str:
        return f"{self.role.value}:{self.key_id}"


def authorize_table(key: ApiKey, table: str) -> None:
    """403 unless `key` is a table key for `table` (rounds and heartbeats)."""
    if key.role is not Role.TABLE:
        raise ForbiddenError("only a table key reports rounds and heartbeats")
    if table not in key.tables:
        raise ForbiddenError(f"this key may not report for table {table!r}")


def new_secret() -> str:
    """A fresh API key: 256 bits of randomness."""
    return KEY_PREFIX + secrets.token_urlsafe(32)


def digest(secret: str) -> str:
    """SHA-256 of a key; a high-entropy key needs no slow hash."""
    return hashlib.sha256(secret.encode()).hexdigest()


def key_id_of(key_digest: str) -> str:
    return key_digest[:12]
