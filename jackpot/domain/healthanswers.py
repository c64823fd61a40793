"""What the API answers of the controller's own health (docs/API.md, /healthz, /readyz):
that the process answers, and whether it is ready to settle rounds: the store up, and its
self-check (jackpot/services/selfcheck.py) passed, or what it found. Declared once
(jackpot.domain.answers) for the JSON and the schema."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from jackpot.domain.answers import BOOLEAN, TEXT, Each, Nested, OneOf, Plain, answer_field


class Alive(StrEnum):
    OK = "ok"


class Readiness(StrEnum):
    READY = "ready"  # 200
    INOPERABLE = "inoperable"  # 503: its self-check found a problem
    UNAVAILABLE = "unavailable"  # 503: the store does not answer


class StoreState(StrEnum):
    UP = "up"
    DOWN = "down"


class Operability(StrEnum):
    OPERABLE = "operable"
    INOPERABLE = "inoperable"


@dataclass(frozen=True, slots=True)
class Liveness:
    NAME: ClassVar[str] = "Liveness"
    DOC: ClassVar[str] = "the process answers"

    status: Alive = answer_field(OneOf(Alive))


@dataclass(frozen=True, slots=True)
class ProblemFound:
    NAME: ClassVar[str] = "HealthProblem"
    DOC: ClassVar[str] = "what a self-check found that makes the controller inoperable"

    check: str = answer_field(TEXT, "the check: e.g. durability, software, journals")
    code: str = answer_field(TEXT, "what a program matches on")
    message: str = answer_field(TEXT, "what a person reads")


@dataclass(frozen=True, slots=True)
class SoftwareFound:
    NAME: ClassVar[str] = "SoftwareCheck"
    DOC: ClassVar[str] = "what authenticating the running software found"

    digest: str = answer_field(TEXT, "of the files as found ('': nothing could be read)")
    crc32: str = answer_field(TEXT)
    authentic: bool = answer_field(BOOLEAN, "the files are the sealed ones")


@dataclass(frozen=True, slots=True, kw_only=True)
class Ready:
    NAME: ClassVar[str] = "Readiness"
    DOC: ClassVar[str] = "whether the controller settles rounds now, and if not why (503)"

    status: Readiness = answer_field(OneOf(Readiness))
    store: StoreState = answer_field(OneOf(StoreState))
    state: Operability | None = answer_field(
        OneOf(Operability), "the store up: its self-check's finding", omitted=True
    )
    problems: list[ProblemFound] | None = answer_field(
        Each(Nested(ProblemFound)), "the store up: what it found (none: operable)", omitted=True
    )
    checked: float | None = answer_field(
        Plain("number", "seconds since the epoch, to the ms"), "the store up: when", omitted=True
    )
    software: SoftwareFound | None = answer_field(
        Nested(SoftwareFound), "the store up: the software it runs", omitted=True
    )

    @classmethod
    def store_down(cls) -> Ready:
        return cls(status=Readiness.UNAVAILABLE, store=StoreState.DOWN)
