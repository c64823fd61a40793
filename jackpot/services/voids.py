"""Voids of settled rounds (docs/RULES.md §6): the plan from the round's stored result, one
void_round script call to apply it, or to hold it for a second person's approval."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jackpot.conflicts import MeterLimitError, RoundVoidError
from jackpot.domain.auth import a_tables_key
from jackpot.domain.voids import (
    VoidUnsupportedError,
    covers,
    parse_spots,
    plan_void,
    trigger_won,
)
from jackpot.errors import ControllerInoperableError, JackpotError, NotFoundError
from jackpot.services.payouts import Actor, ApprovalThreshold
from jackpot.services.rounds import Rounds
from jackpot.store.rounds import StoredRound
from jackpot.store.voids import VoidAnswer, VoidStore

#: how a payout that blocks a void is named in the refusal
PAID = {
    "paid": "paid",
    "awaiting_approval": "confirmed paid (awaiting approval)",
    "void_after_paid": "paid and then voided (its void moved no money: the patron was paid)",
    "disputed_after_confirm": "confirmed paid and then disputed (its confirmation stands: "
    "the money may have left the cage)",
    "void_after_confirm": "confirmed paid, then disputed and voided (its confirmation stands: "
    "the money may have left the cage)",
}


class Voids:
    def __init__(self, store: VoidStore, rounds: Rounds, threshold: ApprovalThreshold) -> None:
        self._store = store
        self._rounds = rounds
        self._threshold = threshold  # the payouts' own: a void's pays are counted against it

    def state(self, table: str, round_id: str) -> dict[str, Any] | None:
        """What is void of the round (None: nothing, and nothing awaits approval)."""
        state = self._store.state(table, round_id)
        if not state["voids"] and not state["held"]:
            return None
        return view(state)

    def awaiting(self) -> list[dict[str, Any]]:
        """Every void of this group's rounds awaiting people's approval, oldest first: the
        round, and what `awaiting_approval` says of it."""
        found = [
            {"table": table, "round": round_id, **view(state)["awaiting_approval"]}
            for table, round_id, state in self._store.awaiting()
        ]
        return sorted(found, key=lambda v: (v["at"], v["table"], v["round"]))

    def void(
        self,
        table: str,
        round_id: str,
        reason: str,
        spots: Any,
        actor: Actor,
    ) -> tuple[str, dict[str, Any]]:
        """Void the round, or the bets of `spots` (None: every spot): ("voided" |
        "awaiting_approval" | "unchanged", what is void of the round after it). From the
        approval threshold's pays up (0: never) two people stand behind it; a table's key is
        no person. void_round.lua holds the rule (docs/RULES.md §6, D226)."""
        found = self._round(table, round_id)
        wanted = parse_spots(spots, found.static)
        won = trigger_won(found.dynamic)
        if won is not None:
            raise RoundVoidError(
                table,
                round_id,
                "trigger_level_won",
                f"its jackpot {won['id']} won the {str(won['level']).replace('_', '-')} level "
                f"{won['pool']} at its trigger, revealed at the hit: the round stands; correct "
                "its pays with the payout's own void and an adjustment",
            )
        for _ in range(3):
            state = self._store.state(table, round_id)
            try:
                plan = plan_void(found.static, found.dynamic, state["spots"], wanted)
            except VoidUnsupportedError as exc:
                raise RoundVoidError(
                    table, round_id, "void_unsupported", f"{exc}: correct it with adjustments"
                ) from exc
            if not plan.spots and (state["whole"] or not plan.whole):
                return "unchanged", view(state)
            answer = self._store.void(
                plan, actor.who, (actor.person, actor.compared), reason, self._threshold.cents
            )
            # another void of the round came first, or a pool was retired: plan again
            if answer.verdict not in ("stale", "rerouted"):
                return self._answer(table, round_id, answer)
        raise RoundVoidError(
            table, round_id, "void_conflict", "other voids of the round kept coming first"
        )

    def approve(
        self, table: str, round_id: str, actor: Actor, note: str = ""
    ) -> tuple[str, dict[str, Any]]:
        """Another person approves the void held for approval: it applies once as many people
        stand behind it as the approval threshold asks (void_round.lua), else the approval is
        recorded and the void waits for another person ("awaiting_approval")."""
        self._round(table, round_id)
        held = self._store.state(table, round_id)["held"]
        pools = [str(p["id"]) for p in (held["plan"]["pools"] or [])] if held else []
        for _ in range(3):  # a pool retired meanwhile: route it again
            answer = self._store.approve(
                table,
                round_id,
                pools,
                actor.who,
                (actor.person, actor.compared),
                note,
                self._threshold.cents,
            )
            if answer.verdict != "rerouted":
                return self._answer(table, round_id, answer)
        raise RoundVoidError(
            table, round_id, "void_conflict", "the round's pools kept being retired meanwhile"
        )

    def refuse(
        self, table: str, round_id: str, actor: Actor, reason: str
    ) -> tuple[str, dict[str, Any]]:
        """A person says no to the void held for approval (or its asker withdraws it): it is
        dropped and journaled, and nothing moves."""
        self._round(table, round_id)
        answer = self._store.refuse(
            table, round_id, actor.who, (actor.person, actor.compared), reason
        )
        if answer.verdict == "refused":
            return "refused", view(answer.state)
        return self._answer(table, round_id, answer)

    def _round(self, table: str, round_id: str) -> StoredRound:
        found = self._rounds.result(table, round_id)
        if found is None:
            raise NotFoundError("round", f"{table}/{round_id}")
        return found

    def _answer(self, table: str, round_id: str, answer: VoidAnswer) -> tuple[str, dict[str, Any]]:
        verdict = answer.verdict
        if verdict in ("voided", "unchanged"):
            return verdict, view(answer.state)
        if verdict == "awaiting":
            return "awaiting_approval", view(answer.state)
        raise _refusal(table, round_id, answer)


def _refusal(table: str, round_id: str, answer: VoidAnswer) -> JackpotError:
    """The error of a void the script refused, by its verdict."""
    if answer.verdict == "tampered":
        return ControllerInoperableError(
            [f"pool {answer.detail[0]}: its meter and reserve are not what its books give"]
        )
    if answer.verdict == "overflow":
        return MeterLimitError(answer.detail[0])
    code, reason, field = _ROUND_VOID_REFUSALS.get(answer.verdict, _missing_pool)(answer)
    return RoundVoidError(table, round_id, code, reason, field)


# a RoundVoidError's (code, reason, field) for a refusal
_Refused = tuple[str, str, str | None]


def _jackpot_paid(answer: VoidAnswer) -> _Refused:
    payout, status = answer.detail
    return (
        "jackpot_paid",
        f"its pay {payout} (a jackpot or a hand pay) was {PAID.get(status, status)}: a "
        "void cannot take it back; correct it with an adjustment, which says so",
        "payout",
    )


def _held_other(answer: VoidAnswer) -> _Refused:
    held = answer.state["held"] or {}
    return (
        "void_awaiting_approval",
        f"a void of {covers(held.get('plan') or {})} asked by "
        f"{held.get('label') or held.get('who')} awaits a second person's approval: "
        "approve or refuse it first",
        None,
    )


def _pool_retired(answer: VoidAnswer) -> _Refused:
    return (
        "pool_retired",
        f"the round fed pool {answer.detail[0]}, retired since with no record of the "
        "pool its balance went to: correct it with adjustments",
        None,
    )


def _missing_pool(answer: VoidAnswer) -> _Refused:
    """missing_pool: the round fed a pool no longer in its table's link group."""
    return (
        "void_unsupported",
        f"the round fed pool {answer.detail[0]}, which is not in the table's link group "
        "now: correct it with adjustments",
        None,
    )


#: void_round.lua's refusals of a void the round cannot take now; any other: _missing_pool
_ROUND_VOID_REFUSALS: dict[str, Callable[[VoidAnswer], _Refused]] = {
    "paid": _jackpot_paid,
    "held_other": _held_other,
    "nothing": lambda _: ("no_void_awaiting", "no void of this round awaits approval", None),
    "same_person": lambda _: (
        "second_person_required",
        "the void was asked for, or approved already, by this key or person: another "
        "person approves it",
        None,
    ),
    "retired": _pool_retired,
    "rerouted": lambda _: (
        "void_conflict",
        "the round's pools kept being retired meanwhile",
        None,
    ),
}


def view(state: dict[str, Any]) -> dict[str, Any]:
    """What is void of a round, for the API: the spots, whether whole, each void applied, and
    the one awaiting approval."""
    held = state["held"]
    return {
        "status": "void" if state["whole"] else "partly_void" if state["spots"] else "not_void",
        "spots": sorted(int(s) for s in state["spots"]),
        "whole": state["whole"],
        "voids": [_void(v) for v in state["voids"]],
        "awaiting_approval": None if not held else _awaiting(held),
    }


def _awaiting(held: dict[str, Any]) -> dict[str, Any]:
    """The void held for a second person's approval, and the approvals it has so far."""
    return {
        "spots": sorted(int(s) for s in (held["plan"]["spots"] or [])),
        "whole": bool(held["plan"]["whole"]),
        "pays": _pays(held["plan"]),
        "requested_by": held["who"],
        "person": held["label"],
        # the register's id of the one who asked (None: a table's key), which a person
        # approving must not be (compared by id, D232)
        "person_id": _person_id(held["who"], held.get("person")),
        "reason": held["reason"],
        "at": int(held["at"]),
        "approvals": [
            {
                "approved_by": a["who"],
                "approver": a["label"],
                "person_id": _person_id(a["who"], a.get("person")),
                "note": a.get("note") or "",
                "at": int(a["at"]),
            }
            for a in (held.get("approvals") or [])
        ],
    }


def _person_id(key: str, compared: Any) -> str | None:
    """The id the void script compared a step's person by: the register's id of a person's
    key; a table's key is no person (void_round.lua a_person)."""
    return None if a_tables_key(key) or not compared else str(compared)


def _void(v: dict[str, Any]) -> dict[str, Any]:
    out = {
        "spots": sorted(int(s) for s in (v.get("spots") or [])),
        "whole": bool(v.get("whole")),
        "wagered": int(v["wagered"]),
        "pays": int(v["pays"]),
        "requested_by": v["who"],
        "person": v["person"],
        "reason": v["reason"],
        "at": int(v["at"]),
    }
    if v.get("approved_by"):
        out |= {"approved_by": v["approved_by"], "approver": v["approver"]}
        out["approvals"] = [
            {"approved_by": a["approved_by"], "approver": a["approver"], "at": int(a["at"])}
            for a in (v.get("approvals") or [])
        ] or [{"approved_by": v["approved_by"], "approver": v["approver"], "at": int(v["at"])}]
    return out


def _pays(plan: dict[str, Any]) -> int:
    return int(plan["fixed"]) + int(plan["envy"]) + int(plan["jackpot"])
