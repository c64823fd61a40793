"""Cards as docs/RULES.md §1 writes them: rank + suit, case-insensitive, `10` for `T`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
DECK_SIZE = 52


class Rank(IntEnum):
    """Card ranks, ordered for winning (suits never rank)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def char(self) -> str:
        return RANK_CHARS[self - 2]


class CardError(ValueError):
    """A card string that is not rank + suit."""


@dataclass(frozen=True, slots=True, order=True)
class Card:
    rank: Rank
    suit: str
    # 0..51, rank-major: the card's position in one ordered deck; with its text, what every
    # round hashes and prints a dozen times, worked out once (a card never changes)
    index: int = field(init=False, repr=False, compare=False)
    _text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", (self.rank - 2) * 4 + SUIT_CHARS.index(self.suit))
        object.__setattr__(self, "_text", RANK_CHARS[self.rank - 2] + self.suit)

    def __hash__(self) -> int:
        return self.index

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse `As`, `as`, `AS`, `10h`, `Td` into a card; raise CardError otherwise."""
        known = spelled(text)
        return known if known is not None else cls._parse(text)

    @classmethod
    def _parse(cls, text: str) -> Card:
        if not isinstance(text, str):
            raise CardError("a card is a string such as 'As' or 'Td'")
        raw = text
        if len(raw) == 3 and raw[:2] == "10":
            raw = "T" + raw[2]
        if len(raw) != 2:
            raise CardError(f"unknown card {text!r}: rank + suit such as 'As' or 'Td'")
        rank_char, suit_char = raw[0].upper(), raw[1].lower()
        if rank_char not in RANK_CHARS or suit_char not in SUIT_CHARS:
            raise CardError(f"unknown card {text!r}: rank + suit such as 'As' or 'Td'")
        return cls(Rank(RANK_CHARS.index(rank_char) + 2), suit_char)

    @classmethod
    def from_index(cls, index: int) -> Card:
        return cls(Rank(index // 4 + 2), SUIT_CHARS[index % 4])

    def same_rank(self, other: Card) -> bool:
        return self.rank == other.rank

    def __str__(self) -> str:
        return self._text


FULL_DECK: tuple[Card, ...] = tuple(Card.from_index(i) for i in range(DECK_SIZE))

# Every accepted spelling of every card (As, as, AS, aS, 10h, ...): parsing is a lookup.
_SPELLINGS: dict[str, Card] = {
    spelling: card
    for card in FULL_DECK
    for rank in ((card.rank.char, "10") if card.rank is Rank.TEN else (card.rank.char,))
    for spelling in {
        r + s for r in {rank, rank.lower(), rank.upper()} for s in {card.suit, card.suit.upper()}
    }
}


def overdrawn(cards: Iterable[Card], decks: int) -> list[Card]:
    """Cards seen more often than a shoe of `decks` decks holds, in canonical order."""
    counts = Counter(cards)
    return sorted(card for card, n in counts.items() if n > decks)


def spelled(text: object) -> Card | None:
    """The card `text` spells (As, as, 10h, ...), or None: Card.parse without its reasons."""
    return _SPELLINGS.get(text) if type(text) is str else None
