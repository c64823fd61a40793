"""Irregularities: what goes wrong at a table, and each rule's consequence as written.

A `Mishap` is what a test or the floor simulator makes go wrong in a round (the dealer's or
the machine's error); the engine applies the profile's rule to it and records an
`Irregularity` on the round, which the adapter journals. Which kinds a profile knows is
`Profile.irregularities` (table_adapter.game.profiles); the consequences are here:

| kind | consequence | source |
|---|---|---|
| `face_up_card` | the card is not used: into the discard rack | Wis. §37(j)(1), 205 CMR §10(b) |
| `face_up_cards` | a second while the shoe is dealt: all hands void, reshuffle | same |
| `drawn_in_error` | used as though it was the next card from the shoe | Wis. (j)(2), §10(c) |
| `not_dealt` | that spot's wagers void; the player is in the next round | Wis. (j)(3), §10(d) |
| `shuffler_failed` | the automated shuffler's cards are reshuffled | Wis. (j)(4), §10(e) |
| `misdelivered` | moved forward, to the dealer or burned; players may be let out | 205 CMR §10(a) |
| `forgotten_burn` | the hand continues as if no mistake had been made | 205 CMR §10(f) |
| `malfunction` | voids all pays and plays | Stadium's screen |
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from jackpot.domain.cards import Card


class Irregular(StrEnum):
    """The irregularities the source rules name."""

    FACE_UP_CARD = "face_up_card"
    FACE_UP_CARDS = "face_up_cards"
    DRAWN_IN_ERROR = "drawn_in_error"
    NOT_DEALT = "not_dealt"
    SHUFFLER_FAILED = "shuffler_failed"
    MISDELIVERED = "misdelivered"
    FORGOTTEN_BURN = "forgotten_burn"
    MALFUNCTION = "malfunction"


# What a dealer's error in the original deal is made to happen to (a spot's card: the spot;
# the dealer's card: None), and which kinds void the whole round.
AT_A_CARD = frozenset({Irregular.DRAWN_IN_ERROR, Irregular.NOT_DEALT, Irregular.MISDELIVERED})
VOIDS_ROUND = frozenset({Irregular.FACE_UP_CARDS, Irregular.MALFUNCTION})


class Handling(StrEnum):
    """205 CMR §10(a): where a card delivered incorrectly goes (never backwards)."""

    FORWARD = "forward"  # to the next hand owed a card, as the next card would have gone
    DEALER = "dealer"  # used as the dealer's card; the hands after it take the cards after it
    BURN = "burn"  # burned; the hand it was meant for takes the next card


@dataclass(frozen=True, slots=True)
class Mishap:
    """What goes wrong in a round, staged by a test or the floor simulator.

    `spot`: the hand whose card in the original deal the error is at (`not_dealt`,
    `drawn_in_error`, `misdelivered`; None: the dealer's card, for the last two);
    `handling` and `let_out` (the players the casino lets out of the hand, among those not
    yet dealt when it happened) for `misdelivered`. A `malfunction` strikes after the original
    deal; the other kinds need no place.
    """

    kind: Irregular
    spot: int | None = None
    handling: Handling = Handling.FORWARD
    let_out: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.kind is Irregular.NOT_DEALT and self.spot is None:
            raise ValueError("a card not dealt to a wager names the spot")
        if self.let_out and self.kind is not Irregular.MISDELIVERED:
            raise ValueError("players are let out of a hand only after a misdelivered card")
        if self.kind in (Irregular.FACE_UP_CARD, Irregular.FACE_UP_CARDS):
            raise ValueError("face-up cards are found in the shoe (Shoe.turn_face_up)")


# Each rule's consequence, as the journal writes it beside the irregularity.
CONSEQUENCES = {
    Irregular.FACE_UP_CARD: "not used: placed in the discard rack",
    Irregular.FACE_UP_CARDS: "a second face-up card while the shoe is dealt: all hands void,"
    " the cards reshuffled",
    Irregular.DRAWN_IN_ERROR: "drawn in error, its face not shown: used as the next card",
    Irregular.NOT_DEALT: "no card dealt to the spot: its wagers void and returned; the player"
    " is in the next round",
    Irregular.SHUFFLER_FAILED: "the automated shuffler failed its cycle: its cards reshuffled",
    Irregular.MISDELIVERED: "delivered incorrectly",
    Irregular.FORGOTTEN_BURN: "a burn forgotten: the hand continues as if no mistake was made",
    Irregular.MALFUNCTION: "all pays and plays void",
}
HANDLED = {
    Handling.FORWARD: "moved forward to the next hand owed a card",
    Handling.DEALER: "used as the dealer's card",
    Handling.BURN: "burned",
}


@dataclass(frozen=True, slots=True)
class Irregularity:
    """One irregularity in a round as the table's journal keeps it: what happened, where,
    to which card, and (`consequence`) what the rule made of it."""

    kind: Irregular
    spot: int | None = None
    card: Card | None = None
    handling: Handling | None = None
    let_out: tuple[int, ...] = ()

    @property
    def voids_round(self) -> bool:
        """All hands of the round are void."""
        return self.kind in VOIDS_ROUND

    @property
    def consequence(self) -> str:
        """What the rule made of it, in words."""
        text = CONSEQUENCES[self.kind]
        if self.handling is not None:
            text = f"{text}: {HANDLED[self.handling]}"
        if self.let_out:
            text = f"{text}; players let out of the hand (wagers returned): " + ", ".join(
                f"spot {s}" for s in self.let_out
            )
        return text

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind.value}
        if self.spot is not None:
            out["spot"] = self.spot
        if self.card is not None:
            out["card"] = str(self.card)
        if self.handling is not None:
            out["handling"] = self.handling.value
        if self.let_out:
            out["let_out"] = list(self.let_out)
        out["consequence"] = self.consequence
        return out
