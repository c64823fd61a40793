"""The controller's round report (docs/API.md "Round report") built from a finished round."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from table_adapter.game.records import Hand, Round
from table_adapter.game.strategies import Decision


def round_report(rnd: Round) -> dict[str, Any]:
    """The report dict exactly as docs/API.md writes it; war cards only where a bet went to war."""
    stadium = rnd.profile.stadium
    spots = [_stadium_spot(rnd, h) if stadium else _live_spot(rnd, h) for h in rnd.hands]
    at_war = any("war_card" in s for s in spots)
    dealer: dict[str, Any] = {"card": str(rnd.dealer_card)}
    if at_war and rnd.dealer_war_card is not None:
        dealer["war_card"] = str(rnd.dealer_war_card)
    # the shoe audit: the controller counts a shoe's cards over its rounds (none from a
    # continuous shuffler, whose cards go back into the machine after every round)
    shoe = {} if rnd.position is None else {"shoe": rnd.shoe_id, "position": rnd.position}
    return {
        "table": rnd.table,
        "round": rnd.round_id,
        "dealer": dealer,
        "community_war": stadium and at_war,
        "spots": spots,
        **shoe,
    }


def dealt_at(epoch_ms: int) -> str:
    """A report's `dealt_at`: RFC 3339 in UTC to the millisecond, `2026-11-24T10:34:17.123Z`."""
    seconds, ms = divmod(epoch_ms, 1000)
    return f"{datetime.fromtimestamp(seconds, UTC):%Y-%m-%dT%H:%M:%S}.{ms:03d}Z"


def stamped(report: dict[str, Any], epoch_ms: int) -> dict[str, Any]:
    """The report with its `dealt_at`, stamped once when it is journaled: every resend repeats
    the journaled text, so the controller's digest of the body never changes."""
    return {**report, "dealt_at": dealt_at(epoch_ms)}


def _live_spot(rnd: Round, hand: Hand) -> dict[str, Any]:
    (result,) = rnd.results_on(hand.spot)
    out: dict[str, Any] = {"spot": hand.spot}
    # The controller takes `player` only with a wager: a spot without one names nobody.
    if result.bet.side:
        if result.bet.player is not None:
            out["player"] = result.bet.player
        out["wager"] = result.bet.side
    out["card"] = str(hand.card)
    if result.decision is Decision.WAR and hand.war_card is not None:
        out["war"] = True
        out["war_card"] = str(hand.war_card)
    return out


def _stadium_spot(rnd: Round, hand: Hand) -> dict[str, Any]:
    out: dict[str, Any] = {"spot": hand.spot, "card": str(hand.card)}
    bets = [
        {"player": r.bet.player, "wager": r.bet.side, "war": r.decision is Decision.WAR}
        for r in rnd.results_on(hand.spot)
        if r.bet.side
    ]
    # A hand at war only for wagers without a progressive bet shows no war card: the
    # controller requires a war card exactly where a reported bet went to war.
    if any(b["war"] for b in bets) and hand.war_card is not None:
        out["war_card"] = str(hand.war_card)
    if bets:
        out["bets"] = bets
    return out
