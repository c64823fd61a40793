"""What players put on the felt, in whole cents, checked against the table's profile."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from table_adapter.errors import BetError
from table_adapter.game.profiles import Profile
from table_adapter.game.strategies import WAR, Strategy

IDENTIFIER = re.compile(r"[A-Za-z0-9._:-]{1,128}")
AMOUNTS = ("initial", "tie", "war_tie", "side", "dealer_ante", "dealer_tie")


@dataclass(frozen=True, slots=True)
class Bet:
    """One player's wagers on one spot (hand) in cents; 0 means not placed.

    `war_tie` is a tie wager on the war deal, placed only if the player goes to war;
    `side` is the progressive side wager; `dealer_ante` / `dealer_tie` are the
    Stadium wagers on the dealer against this hand.
    """

    spot: int
    initial: int
    tie: int = 0
    war_tie: int = 0
    side: int = 0
    player: str | None = None
    strategy: Strategy = WAR
    dealer_ante: int = 0
    dealer_tie: int = 0


def check_bets(profile: Profile, spots: int, bets: Sequence[Bet]) -> None:
    """Raise BetError for the first bet the profile or the table does not accept."""
    seen: set[tuple[int, str | None]] = set()
    for i, bet in enumerate(bets):
        where = f"bets[{i}]"
        key = _check_bet(profile, spots, bet, where)
        if key in seen:
            raise BetError(f"{where}.spot", "one bet per spot and player")
        seen.add(key)


def _check_bet(profile: Profile, spots: int, bet: Bet, where: str) -> tuple[int, str | None]:
    """Raise BetError if the table does not accept this bet; the place it takes: its spot
    and, at a Stadium table, its player."""
    amounts = _amounts(bet)
    _check_amounts(amounts, where)
    if not 1 <= bet.spot <= spots:
        raise BetError(f"{where}.spot", f"must be 1..{spots}")
    if bet.player is not None and not IDENTIFIER.fullmatch(bet.player):
        raise BetError(f"{where}.player", "1-128 characters of A-Z a-z 0-9 . _ : -")
    if bet.side and not bet.initial:
        raise BetError(f"{where}.side", "a progressive wager rides with an initial wager")
    _check_war_tie(profile, bet, where)
    if profile.stadium:
        _check_stadium(profile, bet, where, any(amounts))
        return (bet.spot, bet.player)
    _check_live(bet, where)
    return (bet.spot, None)  # a live spot carries one bet, whoever the player is


def _check_amounts(amounts: tuple[int, ...], where: str) -> None:
    """Raise BetError for a wager that is not a whole number of cents, or is negative."""
    for name, amount in zip(AMOUNTS, amounts, strict=True):
        if type(amount) is not int or amount < 0:
            raise BetError(f"{where}.{name}", "must be a whole number of cents, not negative")


def _check_war_tie(profile: Profile, bet: Bet, where: str) -> None:
    if bet.war_tie and not profile.war_tie_wager:
        raise BetError(f"{where}.war_tie", f"{profile.name} has no tie wager on the war deal")
    if bet.war_tie and not bet.initial:
        raise BetError(f"{where}.war_tie", "needs an initial wager to go to war with")


def _check_live(bet: Bet, where: str) -> None:
    if bet.dealer_ante or bet.dealer_tie:
        raise BetError(f"{where}.dealer_ante", "only Stadium tables take wagers on the dealer")
    if not bet.initial:
        raise BetError(f"{where}.initial", "a live spot is dealt only with an initial wager")


def _amounts(bet: Bet) -> tuple[int, ...]:
    return (bet.initial, bet.tie, bet.war_tie, bet.side, bet.dealer_ante, bet.dealer_tie)


def _check_stadium(profile: Profile, bet: Bet, where: str, placed: bool) -> None:
    if bet.player is None:
        raise BetError(f"{where}.player", "every Stadium bet comes from a player's terminal")
    if not placed:
        raise BetError(f"{where}.initial", "places no wager")
    if (bet.dealer_ante or bet.dealer_tie) and not profile.dealer_bet:
        raise BetError(f"{where}.dealer_ante", "this table takes no wagers on the dealer")
    # Stadium rule 3: an ante for the dealer needs the player's own ante first.
    if bet.dealer_ante and not bet.initial:
        raise BetError(f"{where}.dealer_ante", "needs the player's own ante on the hand")
