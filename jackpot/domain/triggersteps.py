"""A trigger level's bets' steps, held to its round's record (D272).

Each contribution to a level with a hidden trigger names every bet's step onto the meter and
whether the bet could win it (jackpot.domain.triggers). `TriggerAudit` gathers them as
`Stretch`es while it walks a pool's journal; verify then holds each round's stretches to the
bets' wagers its record commits, so steps moved from one bet to another are found.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Stretch:
    """One contribution entry of a trigger level: its bets' steps, as verify met it."""

    seq: int
    key: tuple[str, str, str]  # the round's table, id and stamp
    steps: tuple[int, ...]  # units each bet put on the meter, in settlement order
    marks: str  # "1" a bet that could win the level, "0" one below its qualifying wager
    won_here: bool  # after the level's win in this round: no bet moves its meter
    rate_bp: int | None  # the level's rate then in force (None: not known to a --since walk)
    qualifying_wager: int
    overflow: int  # units the cap diverted: the steps are then not whole wagers at the rate


def stretch_problems(wagers: Sequence[int], stretches: Sequence[Stretch]) -> list[tuple[int, str]]:
    """A round's contributions to a trigger level (its stretches, in journal order) against
    its record's bets' wagers (cents) in settlement order (D272): one step a bet; a bet could
    win if its wager is at least the qualifying wager; its step is its wager at the rate then
    in force if it could win and the level was not won before it in the round, else 0
    (RULES.md §4 "Levels won by a hidden trigger"). So steps moved between bets are found."""
    named = sum(len(s.steps) for s in stretches)
    if not stretches:
        return []
    if named != len(wagers):
        return [
            (
                stretches[0].seq,
                f"its bets' steps name {named} bets, the round's record {len(wagers)}",
            )
        ]
    out: list[tuple[int, str]] = []
    at = 0
    for s in stretches:
        for units, mark, wager in zip(
            s.steps, s.marks, wagers[at : at + len(s.steps)], strict=True
        ):
            at += 1
            problem = _bet_problem(s, at, units, mark, wager)
            if problem is not None:
                out.append((s.seq, problem))
                break
    return out


def _bet_problem(s: Stretch, at: int, units: int, mark: str, wager: int) -> str | None:
    """What bet `at` of a stretch shows against its recorded wager: a mark the wager
    contradicts, or a step that is not the wager at the rate then in force."""
    can = wager >= s.qualifying_wager
    return _mark_contradicted(at, mark, wager, can) or _step_moved(s, at, units, wager, can)


def _mark_contradicted(at: int, mark: str, wager: int, can: bool) -> str | None:
    if mark != ("1" if can else "0"):
        return (
            f"bet {at} is marked {'able' if mark == '1' else 'unable'} to win, "
            f"and its recorded wager ({wager} cents) says otherwise"
        )
    return None


def _step_moved(s: Stretch, at: int, units: int, wager: int, can: bool) -> str | None:
    """A step that is not the bet's wager at the rate then in force (unknown rate, or the
    cap diverted part of the contribution: not checked)."""
    if s.rate_bp is None or s.overflow:
        return None
    expected = wager * s.rate_bp if can and not s.won_here else 0
    if units != expected:
        return (
            f"bet {at}'s step ({units} units) is not its recorded wager ({wager} "
            f"cents) at the level's rate ({expected} units): steps were moved"
        )
    return None
