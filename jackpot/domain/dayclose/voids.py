"""The voids section (layout 5, `void_register`): every void applied in the day, with who
asked, who approved and why."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from jackpot.domain.dayclose.hits import named_as
from jackpot.domain.dayclose.layouts import Entry, number, text

#: where a void happened: (table, round, ts); a round's void writes its jackpots' entries
#: with its house entry's
At = tuple[str, str, int]


def void_register(
    house_voids: Iterable[Entry],
    payout_voids: Iterable[tuple[str, Entry]],
    iso: Callable[[int], str],
    people: Mapping[str, str],
    approvals: Iterable[Entry] = (),
) -> list[dict[str, Any]]:
    """The voids section (layout 5): every void applied in the day, in time order, with who
    asked, who approved (a second person: empty when one person's void applied it) and why.

    * A round's void (`kind` round; the house journals' `void` entries): the round, the spots
      this void covered (`whole`: the round is void whole after it, a first void of every
      spot or the rest after some), the bets, handle and pays it took back, and how many
      jackpots it cancelled.
    * A payout's own void (`kind` payout; a pool journal's `payout_voided` entry that no
      round's void of the day wrote): the payout, its amount and the status it was voided
      from (a jackpot voided after it was paid was paid: nothing is taken back). A jackpot
      voided with its round is in its round's row, not again.

    `payout_voids` pairs each pool with its entry; a round's void writes its jackpots'
    entries with the same time, table and round as its house entry, which is how they are
    told apart (one script writes both). A void approved by several people (a table's,
    D226) names each in order, with each note: `approvals` are the house journals'
    `void_approved` entries up to the day's end."""
    house_voids = list(house_voids)
    rounds = {_at(v) for v in house_voids}
    cancelled: dict[At, int] = {}
    out: list[tuple[int, dict[str, Any]]] = []
    for pool, e in payout_voids:
        if _at(e) in rounds:
            cancelled[_at(e)] = cancelled.get(_at(e), 0) + 1
        else:
            out.append((int(e["ts"]), _payout_void(pool, e, iso, people)))
    earlier = _approvals_given(approvals)
    for v in house_voids:
        row = _round_void(v, iso, people, earlier, cancelled.get(_at(v), 0))
        out.append((int(v["ts"]), row))
    out.sort(key=lambda pair: (pair[0], pair[1]["kind"], pair[1]["table"], pair[1]["payout"]))
    return [row for _, row in out]


def _at(e: Entry) -> At:
    return (str(e["table"]), str(e["round"]), int(e["ts"]))


def _approvals_given(approvals: Iterable[Entry]) -> dict[tuple[str, str, str], Entry]:
    """The approvals given before the one that applied a void (the house journals'
    `void_approved` entries the void names in `approved_first_by`), each with its note, by
    (table, round, who): the last each person gave."""
    earlier: dict[tuple[str, str, str], Entry] = {}
    for a in sorted(approvals, key=lambda a: int(a["ts"])):
        earlier[(str(a["table"]), str(a["round"]), str(a["who"]))] = a
    return earlier


def _payout_void(
    pool: str, e: Entry, iso: Callable[[int], str], people: Mapping[str, str]
) -> dict[str, Any]:
    """A payout's own void: asked by its requester and approved by whoever applied it, or
    asked and applied by one person."""
    asker, who = text(e, "requested_by"), str(e["who"])
    if asker:
        asked_by = named_as(asker, people, text(e, "requester"))
        approved_by = named_as(who, people, text(e, "approver"))
    else:
        asked_by, approved_by = named_as(who, people), ""
    return void_row(
        iso(int(e["ts"])),
        "payout",
        str(e["table"]),
        str(e["round"]),
        spots=str(e.get("spot", "")),
        pool=pool,
        payout=str(e["payout"]),
        voided_from=text(e, "from"),
        payout_cents=int(e["amount"]),
        asked_by=asked_by,
        approved_by=approved_by,
        reason=text(e, "note"),
        approval_note=text(e, "approval_note"),
    )


def _round_void(
    v: Entry,
    iso: Callable[[int], str],
    people: Mapping[str, str],
    earlier: Mapping[tuple[str, str, str], Entry],
    jackpots: int,
) -> dict[str, Any]:
    """A round's void: what it took back, the jackpots it cancelled, who asked and who
    approved it."""
    approvers, notes = _approvers(v, people, earlier)
    return void_row(
        iso(int(v["ts"])),
        "round",
        str(v["table"]),
        str(v["round"]),
        spots=" ".join(str(v.get("spots", "")).split(",")),
        whole=str(v.get("whole")) == "1",
        bets=number(v, "bets"),
        handle_cents=number(v, "wagered"),
        fixed_cents=number(v, "fixed"),
        envy_cents=number(v, "envy"),
        jackpot_cents=number(v, "jackpot"),
        jackpots=jackpots,
        asked_by=named_as(text(v, "requested_by") or str(v["who"]), people, text(v, "person")),
        approved_by=", then ".join(approvers),
        reason=text(v, "reason"),
        approval_note="; ".join(notes),
    )


def _approvers(
    v: Entry, people: Mapping[str, str], earlier: Mapping[tuple[str, str, str], Entry]
) -> tuple[list[str], list[str]]:
    """Every person who approved a round's void, in order, and each note beside its
    approver: those who approved first, then who applied it when another asked."""
    firsts = [f for f in text(v, "approved_first_by").split(",") if f]
    approvers, notes = _first_approvals(v, firsts, people, earlier)
    who = str(v["who"])
    if (text(v, "requested_by") or who) != who:
        approvers.append(named_as(who, people, text(v, "approver")))
        if v.get("note"):
            notes.append(f"{approvers[-1]}: {v['note']}" if firsts else str(v["note"]))
    return approvers, notes


def _first_approvals(
    v: Entry,
    firsts: list[str],
    people: Mapping[str, str],
    earlier: Mapping[tuple[str, str, str], Entry],
) -> tuple[list[str], list[str]]:
    """Those who approved a round's void before the one who applied it, each named as
    their approval shows them, and the notes they gave."""
    approvers, notes = [], []
    for first in firsts:
        given = earlier.get((str(v["table"]), str(v["round"]), first), {})
        approvers.append(named_as(first, people, text(given, "person")))
        if given.get("note"):
            notes.append(f"{approvers[-1]}: {given['note']}")
    return approvers, notes


def void_row(
    time: str,
    kind: str,
    table: str,
    round_id: str,
    *,
    spots: str = "",
    whole: bool = False,
    pool: str = "",
    payout: str = "",
    voided_from: str = "",
    bets: int = 0,
    handle_cents: int = 0,
    fixed_cents: int = 0,
    envy_cents: int = 0,
    jackpot_cents: int = 0,
    jackpots: int = 0,
    payout_cents: int = 0,
    asked_by: str = "",
    approved_by: str = "",
    reason: str = "",
    approval_note: str = "",
) -> dict[str, Any]:
    """One row of the voids section, every row with every field (the CSV's columns)."""
    return {
        "time": time,
        "kind": kind,
        "table": table,
        "round": round_id,
        "spots": spots,
        "whole": whole,
        "pool": pool,
        "payout": payout,
        "voided_from": voided_from,
        "bets": bets,
        "jackpots": jackpots,
        "handle_cents": handle_cents,
        "fixed_pays_cents": fixed_cents,
        "envy_pays_cents": envy_cents,
        "jackpot_pays_cents": jackpot_cents,
        "payout_amount_cents": payout_cents,
        "asked_by": asked_by,
        "approved_by": approved_by,
        "reason": reason,
        "approval_note": approval_note,
    }
