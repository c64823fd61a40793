"""The bodies of the steps of a payout (confirm, approve, dispute, void) and of a round's
void."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jackpot.domain.config import MAX_SPOTS
from jackpot.domain.fields import (
    MAX_REASON,
    Choice,
    Field,
    Integer,
    ListOf,
    PersonId,
    Presence,
    Record,
    Rule,
    Text,
)
from jackpot.domain.payout import PayoutStatus

#: The optional body of POST /v1/payouts/{payout}/confirm.
MAX_SLIP = 64
PAYOUT_STATUSES = tuple(s.value for s in PayoutStatus)
WITNESS_IS_NOT_THE_PAYER = Rule(
    "witness", "must be another person than the one who paid", "same_person"
)
WITNESS_IS_NOT_THE_CONFIRMER = Rule(
    "witness", "must be another person than the operator confirming", "same_person"
)
EXPECT = Field(
    Choice(PAYOUT_STATUSES),
    description=(
        "the status the caller last saw; if the payout changed meanwhile the step is 409 "
        "`payout_changed` and nothing changes (a stale console page never overwrites)"
    ),
)
CONFIRM_REQUEST = Record(
    {
        "paid_by": Field(
            PersonId(),
            description=(
                "the id (employee or badge number) of the registered, active person who paid "
                "the jackpot by hand (default: the person the key is issued to)"
            ),
        ),
        "witness": Field(
            PersonId(),
            Presence.REQUIRED,
            "the id of the registered, active person who witnessed the hand pay: another "
            "person than the payer and the one confirming",
        ),
        "slip": Field(Text(MAX_SLIP), Presence.REQUIRED, "the hand-pay slip or reference number"),
        "reason": Field(Text(MAX_REASON), description="a note for the journal"),
        "expect": EXPECT,
    },
    "The hand pay's record: who witnessed it and its slip, always; who paid it.",
    rules=(WITNESS_IS_NOT_THE_PAYER, WITNESS_IS_NOT_THE_CONFIRMER),
    notes=(
        "An id that is not in the register is 404 `unknown_person`, one of a person not "
        "active 409 `person_inactive`, each naming its field. People are compared by id, "
        "never by name (docs/DECISIONS.md D232).",
        "From the approval threshold (JACKPOT_HANDPAY_APPROVAL_CENTS) up, a confirmed "
        "jackpot is `awaiting_approval` until another operator approves it.",
    ),
)


@dataclass(frozen=True, slots=True)
class Confirmation:
    """A checked confirm body: the hand pay as the operator recorded it."""

    paid_by: str  # a person's id; empty: not given (the key's person stands in)
    witness: str  # a person's id
    slip: str
    note: str
    expect: str = ""

    @classmethod
    def from_json(cls, raw: Any) -> Confirmation:
        data = CONFIRM_REQUEST.check(raw)
        return cls(
            str(data.get("paid_by", "")),
            str(data["witness"]),
            str(data.get("slip", "")),
            str(data.get("reason", "")),
            str(data.get("expect", "")),
        )

    def check_people(self, paid_by: str, confirmer: str) -> None:
        """The witness is another person than the one who paid and the one confirming, by
        their ids (the payout script checks it again where the payout changes)."""
        if self.witness == paid_by:
            raise WITNESS_IS_NOT_THE_PAYER.error()
        if self.witness == confirmer:
            raise WITNESS_IS_NOT_THE_CONFIRMER.error()


#: The optional body of POST /v1/payouts/{payout}/approve.
APPROVE_REQUEST = Record(
    {"reason": Field(Text(MAX_REASON), description="a note for the journal"), "expect": EXPECT},
    "A second operator approves a confirmed hand pay; the body may be left out.",
    notes=(
        "The key that confirmed, the person who paid and the person who confirmed may not "
        "approve: 409 `second_person_required`.",
    ),
)
#: The body of POST /v1/payouts/{payout}/dispute.
DISPUTE_REQUEST = Record(
    {
        "reason": Field(Text(MAX_REASON), Presence.REQUIRED, "why the jackpot is disputed"),
        "expect": EXPECT,
    },
    "A dispute names its reason.",
)
#: The body of POST /v1/payouts/{payout}/void.
VOID_REQUEST = Record(
    {
        "reason": Field(Text(MAX_REASON), Presence.REQUIRED, "why the jackpot is voided"),
        "expect": EXPECT,
    },
    "Cancels a confirmed, awaiting or disputed jackpot for good: nothing is owed any more.",
    notes=(
        "A pending jackpot is disputed first. A void moves no money: what should return "
        "to a meter is an adjustment of its own.",
        "From `JACKPOT_HANDPAY_APPROVAL_CENTS` up the void is only asked for (202; the "
        "payout keeps its status and shows `void_request`) until another person approves "
        "it (`POST /v1/payouts/{payout}/void/approve`).",
    ),
)
#: The optional body of POST /v1/payouts/{payout}/void/approve.
VOID_APPROVE_REQUEST = Record(
    {"reason": Field(Text(MAX_REASON), description="a note for the journal"), "expect": EXPECT},
    "A second person applies the void asked of a jackpot; the body may be left out.",
    notes=(
        "The key that asked for the void, or another key of the same person, may not "
        "approve it: 409 `second_person_required`. No void awaiting approval (never asked, "
        "or withdrawn by a later confirmation, approval or dispute) is 409 "
        "`no_void_awaiting`; one applied already answers `changed: false`.",
    ),
)
#: The body of POST /v1/payouts/{payout}/void/refuse.
VOID_REFUSE_REQUEST = Record(
    {"reason": Field(Text(MAX_REASON), Presence.REQUIRED, "why the void is refused")},
    "Another person refuses the void asked of a jackpot, or the one who asked withdraws it: "
    "the request is dropped and nothing else changes (journaled `payout_void_refused`).",
    notes=(
        "No void awaiting approval (never asked, approved, refused or withdrawn already) is "
        "409 `no_void_awaiting`.",
    ),
)


#: The body of POST /v1/rounds/{table}/{round}/void.
ROUND_VOID_REQUEST = Record(
    {
        "reason": Field(Text(MAX_REASON), Presence.REQUIRED, "why the round is voided"),
        "spots": Field(
            ListOf(Integer(1, MAX_SPOTS), "spot numbers", min_items=1, unique=True, one="a spot"),
            description="void only the bets of these spots (a card not dealt to a wager); "
            "left out: the round whole (a malfunction voids all pays and plays)",
        ),
    },
    "Voids a settled round, or the bets of some of its spots: its pays, its handle, its "
    "meter contributions and its jackpots are taken back as new journal entries.",
    notes=(
        "A void whose pays (fixed, envy and jackpot) reach the hand-pay approval threshold is "
        "held (202 `awaiting_approval`) until another person approves it. Voiding what is "
        "void already answers `unchanged`. A spot without a bet in the round is 400 naming "
        "it; a jackpot of the void already paid or confirmed paid is 409 `jackpot_paid` "
        "naming the payout (an adjustment corrects a paid one); another void of the round "
        "awaiting approval is 409 `void_awaiting_approval`.",
    ),
)
#: The optional body of POST /v1/rounds/{table}/{round}/void/approve.
ROUND_VOID_APPROVE_REQUEST = Record(
    {"reason": Field(Text(MAX_REASON), description="a note for the journal")},
    "A second person approves the void held for approval; the body may be left out.",
    notes=(
        "The key that asked for the void, or another key of the same person, may not approve "
        "it: 409 `second_person_required`. No void awaiting approval is 409 "
        "`no_void_awaiting`; one applied already answers `unchanged`.",
    ),
)

ROUND_VOID_REFUSE_REQUEST = Record(
    {"reason": Field(Text(MAX_REASON), Presence.REQUIRED, "why the void is refused")},
    "A person refuses the void awaiting approval, or the one who asked withdraws it: it is "
    "dropped and nothing moves (journaled `void_refused`).",
    notes=("No void awaiting approval is 409 `no_void_awaiting`.",),
)
