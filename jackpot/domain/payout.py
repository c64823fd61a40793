"""A payout: a jackpot won, or a fixed or envy pay held for verification, and its steps.

settle_round.lua makes a payout (pending) and payout_status.lua and void_round.lua move it
(confirmed, approved, disputed, a void asked, voided); each writes it as JSON into the
payouts' hash (jackpot.store.payouts), and the archive keeps it as its journal entries fold
to (jackpot.domain.payoutrecord). `Payout.of` reads either; the fields a step never wrote are
None, and left out of the answer. Declared once (jackpot.domain.answers) for the JSON and
the published schema: `PayoutAfterStep` is the answer of a step, `CoveredPayout` of a read
of one payout, each the payout with one field more.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, TypeVar

from jackpot.domain.answers import (
    BOOLEAN,
    CENTS,
    INTEGER,
    MS,
    TEXT,
    Given,
    Nested,
    OneOf,
    OrNull,
    answer_field,
)
from jackpot.domain.checkpoints import COVERED_SCHEMA


class PayoutStatus(StrEnum):
    """Where a payout is (payout_status.lua draws the steps between them)."""

    PENDING = "pending"  # won or held: awaiting its hand pay
    AWAITING_APPROVAL = "awaiting_approval"  # confirmed from the threshold up: a second person
    PAID = "paid"
    DISPUTED = "disputed"  # held back; may be confirmed or voided later
    VOID = "void"  # cancelled for good


def _kept(doc: str) -> Any:
    """A text a step wrote: in the answer only once a step wrote it."""
    return answer_field(TEXT, doc, omitted=True)


def _stamp(doc: str) -> Any:
    """When a step was taken: in the answer only once it was."""
    return answer_field(MS, doc, omitted=True)


@dataclass(frozen=True, slots=True)
class VoidRequest:
    NAME: ClassVar[str] = "VoidRequest"
    DOC: ClassVar[str] = (
        "a void asked from the approval threshold up, awaiting another person's approval"
    )

    requested_by: str = answer_field(TEXT, "the key that asked")
    person: str = answer_field(TEXT, "who asked, as shown: name and number (a table's key: it)")
    compared: str = answer_field(
        TEXT,
        "what an approver is compared with: the asker's id of the register, else the key (a "
        "void asked before the register: the name as compared then)",
    )
    reason: str = answer_field(TEXT, "why")
    at: int = answer_field(MS, "when it was asked")
    from_: str = answer_field(
        OneOf(PayoutStatus), "the status it was asked from: approved only in it", name="from"
    )
    person_id: str | None = _kept("the asker's id of the register, where it was kept")

    @classmethod
    def of(cls, stored: Mapping[str, Any]) -> VoidRequest:
        return cls(**{("from_" if k == "from" else k): v for k, v in stored.items()})


@dataclass(frozen=True, slots=True)
class ComparedNames:
    NAME: ClassVar[str] = "ComparedNames"
    DOC: ClassVar[str] = (
        "a payout confirmed before the register of people: the names its two-person rules "
        "compared then (jackpot.domain.people.person_of)"
    )

    confirmer: str = answer_field(TEXT, "who confirmed it")
    paid_by: str = answer_field(TEXT, "who paid it")
    witness: str = answer_field(TEXT, "who witnessed it")


P = TypeVar("P", bound="Payout")


@dataclass(frozen=True, slots=True, kw_only=True)
class Payout:
    NAME: ClassVar[str] = "Payout"
    DOC: ClassVar[str] = (
        "a jackpot won, or a fixed or envy pay held for verification (a hand pay), and what "
        "each of its steps recorded"
    )

    id: str = answer_field(TEXT, "P000123; in a link group other than main, east:P000123")
    pool: str = answer_field(TEXT, "the pool it pays from (a hand pay: its table's first pool)")
    table: str = answer_field(TEXT, "the table it was won at")
    round: str = answer_field(TEXT, "the round that won it")
    spot: int = answer_field(INTEGER, "the betting spot that won it")
    player: str | None = answer_field(
        OrNull(TEXT), "the player's id, as the table reported it; null: none reported"
    )
    outcome: str = answer_field(TEXT, "the hand that won it")
    amount: int = answer_field(CENTS, "what it pays")
    status: PayoutStatus = answer_field(OneOf(PayoutStatus), "where it is")
    created: int = answer_field(MS, "when it was won or held")
    kind: str | None = _kept("a hand pay: the pay held, `fixed` or `envy`")
    level: str | None = _kept("won by reaching a hidden trigger: the level, must_hit_by or mystery")
    trigger: int | None = answer_field(
        CENTS, "won by reaching a hidden trigger: the trigger its hit revealed", omitted=True
    )
    salt: str | None = _kept("won by reaching a hidden trigger: the salt of its commitment")
    commitment: str | None = _kept(
        "won by reaching a hidden trigger: the commitment published before play, which the "
        "trigger and the salt open"
    )
    confirmed_by: str | None = _kept("confirmed: the key that confirmed it")
    confirmed_at: int | None = _stamp("confirmed: when")
    confirmer: str | None = _kept("confirmed: that key's holder, as shown")
    paid_by: str | None = _kept("confirmed: who paid it, as shown (`Dana Reyes (E1042)`)")
    witness: str | None = _kept("confirmed: who witnessed it, as shown")
    slip: str | None = _kept("confirmed: the hand-pay slip or reference number")
    confirmer_id: str | None = _kept("confirmed: the confirming person's id (else the key)")
    paid_by_id: str | None = _kept("confirmed: the payer's id of the register")
    witness_id: str | None = _kept("confirmed: the witness's id of the register")
    paid_at: int | None = _stamp("paid: when")
    approved_by: str | None = _kept("approved by a second person: the key")
    approved_at: int | None = _stamp("approved: when")
    approver: str | None = _kept("approved: the second person, as shown")
    approver_id: str | None = _kept("approved: the second person's id (else the key)")
    disputed_by: str | None = _kept("disputed: the key")
    disputed_at: int | None = _stamp("disputed: when")
    disputer: str | None = _kept("disputed, in the payouts' history: that key's holder")
    void_request: VoidRequest | None = answer_field(
        Nested(VoidRequest), "a void asked, awaiting another person's approval", omitted=True
    )
    voided_by: str | None = _kept("void: the key that voided it (on request: the approver's)")
    voided_at: int | None = _stamp("void: when")
    voided_from: str | None = answer_field(
        OneOf(PayoutStatus), "void: the status it was voided from", omitted=True
    )
    voider: str | None = _kept("void, in the payouts' history: the voiding key's holder")
    void_requested_by: str | None = _kept("voided on request: the key that asked")
    void_requester: str | None = _kept("voided on request: the person who asked, as shown")
    void_requested_at: int | None = _stamp("voided on request: when it was asked")
    void_approver: str | None = _kept("voided on request: the person who approved, as shown")
    void_requester_id: str | None = _kept("voided on request: the asker's id (else the key)")
    void_approver_id: str | None = _kept("voided on request: the approver's id (else the key)")
    note: str | None = _kept("the note or reason of the last step given one")
    people: ComparedNames | None = answer_field(
        Nested(ComparedNames),
        "confirmed before the register of people: the names compared then",
        omitted=True,
    )

    @classmethod
    def of(cls: type[P], stored: Mapping[str, Any], **extra: Any) -> P:
        """The payout as the store keeps it (the scripts' JSON) or as its journal entries
        fold to; `extra`: an answer's own fields (`changed`, `checkpoint`). A key no field
        declares is left out, never a failure: a payout written by a later version (a
        rollback) is still read and paid (tests/api/test_answer_schemas.py holds every
        answer to the stored JSON, key for key, so a key a script adds is declared)."""
        given = {k: v for k, v in stored.items() if k in _DECLARED}
        given["status"] = PayoutStatus(given["status"])
        if given.get("void_request"):
            given["void_request"] = VoidRequest.of(given["void_request"])
        if given.get("people"):
            given["people"] = ComparedNames(**given["people"])
        return cls(**given, **extra)

    @classmethod
    def from_payout(cls: type[P], payout: Payout, **extra: Any) -> P:
        """An answer of `payout` with its own fields (`extra`)."""
        kept = {f.name: getattr(payout, f.name) for f in dataclasses.fields(Payout)}
        return cls(**kept, **extra)


@dataclass(frozen=True, slots=True, kw_only=True)
class PayoutAfterStep(Payout):
    NAME: ClassVar[str] = "PayoutAfterStep"
    DOC: ClassVar[str] = "a payout after a step, and whether the step changed it"

    changed: bool = answer_field(
        BOOLEAN,
        "false: the step had been taken already (a resend), or a void asked again: nothing "
        "was written",
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class CoveredPayout(Payout):
    NAME: ClassVar[str] = "CoveredPayout"
    DOC: ClassVar[str] = "a payout, and the signed checkpoint covering its newest step (D257)"

    checkpoint: dict[str, Any] | None = answer_field(
        Given(COVERED_SCHEMA), "the signed checkpoint covering its newest step; null: none yet"
    )


_DECLARED = frozenset(f.name for f in dataclasses.fields(Payout))
