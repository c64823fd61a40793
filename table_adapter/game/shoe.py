"""The dealing shoe: shuffle, cut, reshuffle marker, burns and face-up irregularities.

Sources: Wisconsin §37(b), (e), (g), (j) and 205 CMR §2, §5, §7, §10.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from enum import StrEnum

from jackpot.domain.cards import DECK_SIZE, FULL_DECK, Card
from table_adapter.errors import ShoeExhaustedError, VoidRoundError
from table_adapter.game.irregularities import Irregular, Irregularity
from table_adapter.game.profiles import LIVE_DECKS, CutRule
from table_adapter.game.records import Drawn, Role

BATCH_BACKS = ("red", "blue")


class Shuffler(StrEnum):
    """How the cards are shuffled (Wisconsin §37(b)(4), §37(e)(1); 205 CMR §2(d), §5(a))."""

    NONE = "none"  # by hand: one stack, shuffled and cut for each shoe
    BATCH = "batch"  # two batches of different backs: one dealt while the other is shuffled
    # a continuous shuffling machine: each round's cards go back into the machine, which puts
    # each at random among the cards it holds; no cut card, no marker, never a new shoe
    CONTINUOUS = "continuous"


class Pile(StrEnum):
    """Where a card out of the shoe went, for the conservation count."""

    DEALT = "dealt"
    BURNED = "burned"
    DISCARDED = "discarded"


def pile_of(role: Role) -> Pile:
    """The pile a drawn card counts in."""
    if role is Role.BURN:
        return Pile.BURNED
    if role is Role.FACE_UP:
        return Pile.DISCARDED
    return Pile.DEALT


class Shoe:
    """A shoe of 6, 7 or 8 decks, or one of two alternating shuffler batches."""

    def __init__(
        self,
        decks: int = 6,
        *,
        cut: CutRule,
        rng: random.Random | None = None,
        shuffler: Shuffler = Shuffler.NONE,
        face_up_rate: float = 0.0,
        marker_from_back: int | None = None,
        prefix: str = "shoe",
    ) -> None:
        if decks not in LIVE_DECKS:
            raise ValueError(f"a shoe holds 6, 7 or 8 decks, not {decks}")
        if not 0.0 <= face_up_rate < 1.0:
            raise ValueError("face_up_rate is a probability below 1")
        self.decks = decks
        self.size = decks * DECK_SIZE
        self.cut_rule = cut
        least = cut.marker_from_back(self.size)
        if marker_from_back is None:
            marker_from_back = least
        if not least <= marker_from_back <= self.size - cut.min_cut:
            raise ValueError(f"the marker must leave {least}..{self.size - cut.min_cut} cards")
        self.marker_from_back = marker_from_back
        self.shuffler = shuffler
        self.face_up_rate = face_up_rate
        self.prefix = prefix
        self._rng = rng if rng is not None else random.SystemRandom()
        # Wisconsin §37(b)(4), 205 CMR §2(d): with a shuffler, two equal batches of
        # different backs; one is dealt while the other is shuffled, every other shoe.
        batches = 2 if shuffler is Shuffler.BATCH else 1
        self._batches = [list(FULL_DECK) * decks for _ in range(batches)]
        self.batch = 0
        self.number = 0
        self.cut_at = 0
        self._stack: list[Card] = []
        self._pos = 0
        self._out: list[Drawn] = []
        self._piles: Counter[Pile] = Counter()
        self._round: list[Drawn] = []
        self._events: list[Irregularity] = []  # this round's irregularities, in order
        self._forget_burn = False
        self._face_up_found = 0
        self._face_up: set[int] = set()
        self._void = False
        self._burn_for_shoe = False
        self._burn_for_dealer = False
        self.shuffle()

    @property
    def shoe_id(self) -> str:
        """Names this shoe among the table's shoes, e.g. `T1.s12`."""
        return f"{self.prefix}.s{self.number}"

    @property
    def back(self) -> str:
        """The back colour of the batch in play."""
        return BATCH_BACKS[self.batch]

    @property
    def marker_index(self) -> int:
        """The number of cards in front of the reshuffle marker."""
        return self.size - self.marker_from_back

    @property
    def position(self) -> int:
        """The number of cards out of the shoe."""
        return self._pos

    @property
    def marker_reached(self) -> bool:
        """True once the reshuffle marker has come out (a continuous shuffler has none)."""
        return self.shuffler is not Shuffler.CONTINUOUS and self._pos >= self.marker_index

    @property
    def continuous(self) -> bool:
        """A continuous shuffling machine deals: no cut, no marker, one endless shoe."""
        return self.shuffler is Shuffler.CONTINUOUS

    @property
    def void(self) -> bool:
        """True after a second face-up card voided a round."""
        return self._void

    @property
    def needs_shuffle(self) -> bool:
        """Checked between rounds: the marker came out or a round was void."""
        return self._void or self.marker_reached

    @property
    def round_irregularities(self) -> tuple[Irregularity, ...]:
        """The irregularities of the round being dealt, in the order they happened."""
        return tuple(self._events)

    def note(self, irregularity: Irregularity) -> None:
        """Record an irregularity of the round being dealt."""
        self._events.append(irregularity)

    @property
    def round_draws(self) -> tuple[Drawn, ...]:
        """Every card drawn since the round began, burns and face-up discards included."""
        return tuple(self._round)

    @property
    def drawn(self) -> tuple[Drawn, ...]:
        """Every card out of this shoe, in order."""
        return tuple(self._out)

    def count(self, pile: Pile) -> int:
        """How many cards of this shoe went to `pile`."""
        return self._piles[pile]

    @property
    def dealt(self) -> int:
        """Cards dealt to hands and the dealer from this shoe."""
        return self._piles[Pile.DEALT]

    @property
    def burned(self) -> int:
        """Burn cards of this shoe."""
        return self._piles[Pile.BURNED]

    @property
    def discarded(self) -> int:
        """Cards found face up and discarded unused."""
        return self._piles[Pile.DISCARDED]

    @property
    def remaining(self) -> int:
        """Cards still in the shoe."""
        return self.size - self._pos

    def remaining_cards(self) -> tuple[Card, ...]:
        """The cards still in the shoe, next card first."""
        return tuple(self._stack[self._pos :])

    def conserved(self) -> bool:
        """dealt + burned + discarded + remaining = shoe size, card for card."""
        piles = sum(self._piles.values())
        seen = Counter(d.card for d in self._out) + Counter(self.remaining_cards())
        full = Counter({card: self.decks for card in FULL_DECK})
        return piles == self._pos and piles + self.remaining == self.size and seen == full

    def shuffle(self) -> None:
        """Shuffle, cut and mark a new shoe; its first card will be burned."""
        self.number += 1
        if self.shuffler is Shuffler.BATCH:
            if self.number == 1:
                for batch in self._batches:
                    self._rng.shuffle(batch)
            else:
                # The batch just dealt goes into the shuffler; the shuffled one comes out.
                self._rng.shuffle(self._batches[self.batch])
                self.batch = 1 - self.batch
            stack = list(self._batches[self.batch])
        else:
            stack = list(self._batches[0])
            self._rng.shuffle(stack)
        # Wisconsin §37(e)(4)-(5), 205 CMR §5(e)-(f): cut at least `min_cut` cards in from
        # either end and move the cards in front of the cut card to the back. A continuous
        # shuffler's cards go from the machine to the shoe uncut.
        if self.continuous:
            self.cut_at = 0
        else:
            self.cut_at = self._rng.randint(
                self.cut_rule.min_cut, self.size - self.cut_rule.min_cut
            )
        self._load(stack[self.cut_at :] + stack[: self.cut_at])
        self._round = []
        self._void = False
        # Wisconsin §37(g)(1), 205 CMR §7(a): the first card of a shoe is burned.
        self._burn_for_shoe = True

    def new_dealer(self) -> None:
        """A new dealer came to the table: one burn before their first round."""
        self._burn_for_dealer = True

    def shuffler_failed(self) -> None:
        """The automated shuffler jams, stops or fails a cycle (Wisconsin §37(j)(4), 205 CMR
        §10(e)): the cards it was shuffling are reshuffled. With batches, the one in the
        machine while the other is dealt; a continuous machine, every card it holds (its
        cycle readies the next round's cards). Only with a shuffler; record it with `note`."""
        if self.shuffler is Shuffler.NONE:
            raise ValueError("a hand shuffle has no automated shuffler to fail")
        if self.shuffler is Shuffler.BATCH:
            self._rng.shuffle(self._batches[1 - self.batch])
        else:
            held = self._stack[self._pos :]
            self._rng.shuffle(held)
            self._stack[self._pos :] = held

    def forget_burn(self) -> None:
        """The dealer forgets the next burn card (205 CMR §10(f)), in this round or the first
        later one that has a burn to make: it stays in the shoe and the hand continues."""
        self._forget_burn = True

    def void_round(self, irregularity: Irregularity, *, reshuffle: bool = True) -> None:
        """All hands of the round are void: record why, reshuffle before the next round (or
        deal on: the round's cards stay in the discard rack), and raise VoidRoundError."""
        self.note(irregularity)
        self._void = reshuffle
        raise VoidRoundError(f"shoe {self.shoe_id}: {irregularity.consequence}")

    def begin_round(self) -> None:
        """Start a round's record and make the burns owed before it."""
        self._round = []
        self._events = []
        owed = int(self._burn_for_shoe) + int(self._burn_for_dealer)
        self._burn_for_shoe = self._burn_for_dealer = False
        self.burn(owed)

    def burn(self, n: int = 1) -> None:
        """Burn `n` cards face down into the discard rack (one fewer if one is forgotten)."""
        if n and self._forget_burn:
            self._forget_burn = False
            self.note(Irregularity(Irregular.FORGOTTEN_BURN))
            n -= 1
        for _ in range(n):
            self.draw(Role.BURN)

    def draw(self, role: Role, spot: int | None = None) -> Card:
        """The next usable card; face-up cards found on the way are discarded."""
        while True:
            if self._pos >= self.size:
                raise ShoeExhaustedError(f"shoe {self.shoe_id} has no card left")
            index = self._pos
            card = self._stack[index]
            self._pos += 1
            if index not in self._face_up:
                self._record(Drawn(role, card, spot))
                return card
            # Wisconsin §37(j)(1), 205 CMR §10(b): a face-up card is not used; a second one
            # found while this shoe's cards are dealt (in any of its rounds) voids all hands
            # of the round it is found in and forces a reshuffle.
            self._record(Drawn(Role.FACE_UP, card))
            self._face_up_found += 1
            if self._face_up_found > 1:
                self.void_round(Irregularity(Irregular.FACE_UP_CARDS, card=card))
            self.note(Irregularity(Irregular.FACE_UP_CARD, card=card))

    def turn_face_up(self, ahead: int = 0) -> None:
        """Make the card `ahead` places after the next one be found face up (tests, sims)."""
        index = self._pos + ahead
        if ahead < 0 or index >= self.size:
            raise ValueError(f"no card {ahead} places ahead")
        self._face_up.add(index)

    def arrange(self, cards: Sequence[Card]) -> None:
        """Put `cards`, taken from those still in the shoe, next in this order (tests, demos)."""
        rest = self._stack[self._pos :]
        for card in cards:
            try:
                rest.remove(card)
            except ValueError:
                raise ValueError(f"no {card} left in the shoe") from None
        self._stack[self._pos :] = [*cards, *rest]

    def end_round(self) -> None:
        """A round is settled: a continuous shuffler takes its cards back at once (so what is
        set up for the next round, `arrange` or `turn_face_up`, stands)."""
        if self.continuous and self._pos and not self._void:
            self._return_to_machine()

    def _return_to_machine(self) -> None:
        """A continuous shuffler takes back every card out of the shoe and puts each at random
        among the cards it holds: the next round is dealt from all of them again (positions,
        piles and face-up cards counted afresh)."""
        held = self._stack[self._pos :]
        for drawn in self._out:
            held.insert(self._rng.randint(0, len(held)), drawn.card)
        self._load(held)  # a machine has no shoe to deal out: each round counts afresh

    def _load(self, stack: list[Card]) -> None:
        """`stack` into the shoe, none of it out yet; which of its cards will be found face up
        drawn at `face_up_rate`, and none found so far."""
        self._stack = stack
        self._pos = 0
        self._out = []
        self._piles = Counter()
        self._face_up_found = 0
        self._face_up = set()
        if self.face_up_rate:
            self._face_up = {i for i in range(self.size) if self._rng.random() < self.face_up_rate}

    def _record(self, drawn: Drawn) -> None:
        self._out.append(drawn)
        self._round.append(drawn)
        self._piles[pile_of(drawn.role)] += 1
