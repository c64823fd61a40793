"""Jackpot payouts and their verification: hand pays, two-person approval, disputes, voids.

The steps and the statuses they move between are payout_status.lua's: a confirmation pays a
pending (or disputed) jackpot, or, from the approval threshold up, leaves it awaiting a
second operator's approval; a dispute holds it back; a void cancels a confirmed, awaiting or
disputed one for good, and from the same threshold up only asks for it until another person
approves the void (or refuses it, or its asker withdraws it). Each step is journaled once,
with the key and the person acting.
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass

from jackpot.domain.payout import Payout, PayoutAfterStep
from jackpot.domain.people import Person
from jackpot.store.payouts import PayoutStore


@dataclass(frozen=True, slots=True)
class HandPay:
    """What a confirmation records of the hand pay: two active people of the register."""

    paid_by: Person  # who paid it
    witness: Person  # who witnessed it: another person
    slip: str  # the hand-pay slip or reference number
    note: str


@dataclass(frozen=True, slots=True)
class Actor:
    """Who takes a step: the key (`operator:<id>`) and the person it is issued to."""

    who: str
    person: str  # as shown: name and number (`Dana Reyes (E1042)`), else the key
    person_id: str = ""  # the register's id ('' for a device's key: a table's)
    name: str = ""  # the person's name alone (compared only with records from before ids)

    @property
    def compared(self) -> str:
        """What a rule of two people compares: the person's id, else the key."""
        return self.person_id or self.who


@dataclass(slots=True)
class ApprovalThreshold:
    """From how many cents of pay a hand pay, or a void, needs a second person (0: never):
    the controller's one threshold (JACKPOT_HANDPAY_APPROVAL_CENTS), given once at build and
    read by every link group's payouts and voids at each step."""

    cents: int = 0


class Payouts:
    def __init__(self, store: PayoutStore, threshold: ApprovalThreshold) -> None:
        self._store = store
        self._threshold = threshold

    def list(self, status: str | None, limit: int) -> list[Payout]:
        """Payouts, newest first, optionally of one status."""
        return self._store.list(status, limit)

    def get(self, payout: str) -> Payout:
        return self._store.get(payout)

    def unsettled(self) -> builtins.list[Payout]:
        """Jackpots won and not yet paid or voided."""
        return self._store.unsettled()

    def awaiting_voids(self) -> builtins.list[Payout]:
        """Payouts with a void asked, awaiting a second person's approval (or refusal)."""
        return self._store.awaiting_voids()

    def live(self) -> builtins.list[Payout]:
        """The payouts the archive may not hold as they are now (PayoutStore.live)."""
        return self._store.live()

    def confirm(
        self,
        payout: str,
        actor: Actor,
        hand_pay: HandPay,
        expect: str = "",
    ) -> PayoutAfterStep:
        """Record the hand pay: paid, or awaiting approval from the threshold up."""
        return self._store.step(
            payout,
            "confirm",
            actor.who,
            actor.person,
            hand_pay.note,
            (hand_pay.paid_by.shown, hand_pay.witness.shown, hand_pay.slip),
            expect,
            self._threshold.cents,
            (actor.compared, hand_pay.paid_by.id, hand_pay.witness.id),
            actor.name,
        )

    def step(
        self,
        payout: str,
        step: str,
        actor: Actor,
        note: str,
        expect: str = "",
    ) -> PayoutAfterStep:
        """A step that takes a note or reason: `approve` (a second operator's approval of a
        confirmed hand pay: now it is paid), `dispute` (hold a pending or awaiting jackpot
        back), `void` (cancel a confirmed, awaiting or disputed one for good; from the
        approval threshold up, ask for it: the payout comes back in its status, with its
        `void_request`), `approve_void` (another person applies the void asked for) or
        `refuse_void` (another person refuses it, or its asker withdraws it: the request is
        dropped, nothing else changes)."""
        return self._store.step(
            payout,
            step,
            actor.who,
            actor.person,
            note,
            expect=expect,
            threshold=self._threshold.cents,
            ids=(actor.compared, "", ""),
            old_name=actor.name,
        )
