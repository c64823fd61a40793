"""What the API answers of payouts: a payout's full record, a page of a search, a list.

`GET /v1/payouts/{payout}/record` (docs/API.md): the payout and every step it took. Each
step is one entry of the payout's pool journal (jackpot.domain.payoutrecord names the
kinds): what was done, when, by which key and person, what the step recorded, and its place
in the journal. `GET /v1/payouts/history`: a page of the payouts a search matched, and the
totals of every match. `GET /v1/payouts`: the payouts, newest first. The payout itself is
jackpot.domain.payout's. Declared once (jackpot.domain.answers) for the JSON and the
published schema.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from jackpot.domain.answers import (
    BOOLEAN,
    CENTS,
    INTEGER,
    MS,
    TEXT,
    ByName,
    Each,
    Given,
    Nested,
    OneOf,
    OrNull,
    answer_field,
)
from jackpot.domain.checkpoints import COVERED_SCHEMA
from jackpot.domain.payout import Payout


class StepName(StrEnum):
    """What a step did, by the entry it is."""

    WON = "won"  # hit: a jackpot
    HELD = "held"  # hand_pay: a fixed or envy pay held for verification
    CONFIRMED = "confirmed"  # confirmed, awaiting a second operator's approval
    PAID = "paid"  # confirmed and paid
    APPROVED = "approved"  # a confirmed payout approved by a second person, and paid
    DISPUTED = "disputed"
    VOID_REQUESTED = "void_requested"  # awaiting a second person
    VOID_WITHDRAWN = "void_withdrawn"  # the request withdrawn by a later step
    VOID_REFUSED = "void_refused"  # refused by another person, or withdrawn by its asker
    VOIDED = "voided"


_NAMES = {
    "hit": StepName.WON,
    "hand_pay": StepName.HELD,
    "payout_confirmed": StepName.CONFIRMED,
    "payout_disputed": StepName.DISPUTED,
    "payout_void_requested": StepName.VOID_REQUESTED,
    "payout_void_withdrawn": StepName.VOID_WITHDRAWN,
    "payout_void_refused": StepName.VOID_REFUSED,
    "payout_voided": StepName.VOIDED,
}
# what a step recorded, shown where its entry holds it (each an entry field of that name)
RECORDED = ("paid_by", "witness", "slip", "approver", "from", "note", "outcome", "player",
            "level", "trigger_cents", "commitment", "reason", "requested_by", "requester",
            "approval_note", "by_step")  # fmt: skip


def _shown(doc: str) -> Any:
    """A text the step recorded: in the answer only where its entry holds it."""
    return answer_field(TEXT, doc, omitted=True)


@dataclass(frozen=True, slots=True)
class PayoutStep:
    NAME: ClassVar[str] = "PayoutStep"
    DOC: ClassVar[str] = "one step of a payout: one entry of its pool's journal"

    step: StepName = answer_field(OneOf(StepName), "what was done")
    at: int = answer_field(MS, "when")
    who: str = answer_field(TEXT, "the key that took it")
    person: str | None = answer_field(
        OrNull(TEXT), "the key's holder as the register names them (null: no holder given)"
    )
    seq: int = answer_field(INTEGER, "its entry's place in the pool's journal")
    hash: str | None = answer_field(
        OrNull(TEXT), "its entry's hash once archived (null: in Redis, not yet archived)"
    )
    amount: int | None = answer_field(CENTS, "won or held: how much", omitted=True)
    outcome: str | None = _shown("won or held: the hand that won it")
    player: str | None = _shown("won or held: the player's id, as the table reported it")
    level: str | None = _shown("won by reaching a hidden trigger: the level")
    trigger_cents: str | None = _shown("won by reaching a hidden trigger: the trigger, cents")
    commitment: str | None = _shown("won by reaching a hidden trigger: its published commitment")
    paid_by: str | None = _shown("paid or confirmed: who paid it")
    witness: str | None = _shown("paid or confirmed: who witnessed it")
    slip: str | None = _shown("paid or confirmed: the hand-pay slip")
    approver: str | None = _shown("approved: the second person")
    from_: str | None = answer_field(
        TEXT, "voided or a void asked: the status it left", name="from", omitted=True
    )
    reason: str | None = _shown("a void asked, refused or withdrawn: why")
    note: str | None = _shown("the note the step was taken with")
    requested_by: str | None = _shown("voided on request: the key that asked")
    requester: str | None = _shown("voided on request: the person who asked")
    approval_note: str | None = _shown("voided on request: the approver's note")
    by_step: str | None = _shown("a void request withdrawn: the step that withdrew it")
    withdrawn: bool | None = answer_field(
        BOOLEAN,
        "void_refused: withdrawn by its asker (true) or refused by another person (false)",
        omitted=True,
    )
    refuser: str | None = _shown("void_refused: the person who refused or withdrew it")

    @classmethod
    def of(
        cls, fields: dict[str, str], seq: int, hash: str | None, person: str | None
    ) -> PayoutStep:
        """The step an entry (`fields` by name) records, at `seq` of its journal."""
        kind = fields.get("type", "")
        shown: dict[str, Any] = {
            _ATTRIBUTE.get(key, key): fields[key] for key in RECORDED if fields.get(key)
        }
        return cls(
            step=_name(kind, fields),
            at=int(fields.get("ts") or 0),
            who=fields.get("who", ""),
            person=person,
            seq=seq,
            hash=hash,
            **_KIND_FIELDS.get(kind, _nothing)(fields),
            **shown,
        )


_ATTRIBUTE = {"from": "from_"}  # an entry field whose name is Python's own


def _made(fields: dict[str, str]) -> dict[str, Any]:
    """What a won or held step adds: its amount."""
    return {"amount": int(fields.get("amount") or 0)}


def _refused(fields: dict[str, str]) -> dict[str, Any]:
    """What a void_refused step adds: withdrawn by its asker, or refused by whom."""
    return {"withdrawn": fields.get("withdrawn") == "1", "refuser": fields.get("person", "")}


def _nothing(fields: dict[str, str]) -> dict[str, Any]:
    return {}


_KIND_FIELDS = {"hit": _made, "hand_pay": _made, "payout_void_refused": _refused}


def _name(kind: str, fields: dict[str, str]) -> StepName:
    if kind == "payout_paid":
        return StepName.APPROVED if "approver" in fields else StepName.PAID
    return _NAMES[kind]


@dataclass(frozen=True, slots=True)
class PayoutRecord:
    NAME: ClassVar[str] = "PayoutRecord"
    DOC: ClassVar[str] = "a payout as it is now, and every step it took, oldest first"

    payout: Payout = answer_field(Nested(Payout), "the payout as it is now")
    journal: str = answer_field(TEXT, "its pool's journal: every step is one of its entries")
    steps: tuple[PayoutStep, ...] = answer_field(Each(Nested(PayoutStep)), "oldest first")
    checkpoint: dict[str, Any] | None = answer_field(
        Given(COVERED_SCHEMA), "the signed checkpoint covering its newest step"
    )


@dataclass(frozen=True, slots=True)
class StatusTotal:
    NAME: ClassVar[str] = "StatusTotal"
    DOC: ClassVar[str] = "the payouts a search matched in one status: how many, and their sum"

    payouts: int = answer_field(INTEGER, "how many")
    amount: int = answer_field(CENTS, "their amounts summed")


@dataclass(frozen=True, slots=True)
class PayoutPage:
    NAME: ClassVar[str] = "PayoutHistory"
    DOC: ClassVar[str] = "a page of the payouts a search matched, newest first"

    payouts: tuple[Payout, ...] = answer_field(Each(Nested(Payout)), "newest first")
    totals: dict[str, StatusTotal] = answer_field(
        ByName(Nested(StatusTotal)), "every payout matched (not the page's only), by status"
    )
    next: str | None = answer_field(
        OrNull(TEXT), "the page's end when more match: give it back as `before`"
    )


@dataclass(frozen=True, slots=True)
class PayoutList:
    NAME: ClassVar[str] = "Payouts"
    DOC: ClassVar[str] = "the payouts of every link group, newest first"

    payouts: tuple[Payout, ...] = answer_field(Each(Nested(Payout)), "newest first")
