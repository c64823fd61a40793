"""The table: deals rounds of Casino War for a live or a Stadium table under a profile."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace

from jackpot.domain.cards import Card
from jackpot.domain.outcomes import evaluate
from table_adapter.errors import VoidRoundError
from table_adapter.game.bets import IDENTIFIER, Bet, check_bets
from table_adapter.game.cut import cut_card_appeared, offer_cut
from table_adapter.game.deal import original_deal, war_deal
from table_adapter.game.irregularities import AT_A_CARD, Irregular, Irregularity, Mishap
from table_adapter.game.profiles import PROFILES, Layout, Profile, SettleOrder
from table_adapter.game.records import BetResult, Cut, Hand, Reason, Round, VoidRound
from table_adapter.game.settlement import settle
from table_adapter.game.shoe import Shoe, Shuffler
from table_adapter.game.strategies import Decision, Tie, resolve

MAX_SPOTS = 7
MAX_PREFIX = 100

# A bet's decisions on a tie: its own, on the dealer's ante, and whether the timer ran out.
Decided = tuple[Decision | None, Decision | None, bool]


def max_round_cards(profile: Profile, hands: int) -> int:
    """The most cards one round can take out of the shoe, irregularities included."""
    burns = profile.war_burns
    war = {
        Layout.STANDARD: burns + hands + 1,
        Layout.SOUTH_DAKOTA: (burns + 1) * (hands + 1),
        Layout.STADIUM: 2 * (burns + 1),
    }[profile.layout]
    # Two owed burns (new shoe, new dealer) and one face-up discard (a second voids).
    return 2 + hands + 1 + war + 1


class Table:
    """A Casino War table: a shoe, a profile, and rounds dealt from bets."""

    def __init__(
        self,
        name: str,
        profile: Profile | str = "wisconsin",
        *,
        decks: int = 6,
        spots: int = MAX_SPOTS,
        seed: int | None = None,
        shuffler: Shuffler = Shuffler.NONE,
        face_up_rate: float = 0.0,
        marker_from_back: int | None = None,
        decision_timer_ms: int | None = None,
        id_prefix: str | None = None,
        declines_cut: float | Callable[[int], bool] = 0.0,
        dealer_cuts: bool = False,
    ) -> None:
        if not IDENTIFIER.fullmatch(name):
            raise ValueError("a table id is 1-128 characters of A-Z a-z 0-9 . _ : -")
        self.name = name
        self.profile = _dealing_from(profile, decks)
        self.spots = _spot_count(self.profile, spots)
        self.decision_timer_ms = (
            self.profile.decision_timer_ms if decision_timer_ms is None else decision_timer_ms
        )
        self.rng: random.Random = random.SystemRandom() if seed is None else random.Random(seed)
        self.shoe = Shoe(
            decks,
            cut=self.profile.cut,
            rng=self.rng,
            shuffler=shuffler,
            face_up_rate=face_up_rate,
            marker_from_back=marker_from_back,
            prefix=self._id_prefix(id_prefix, seed),
        )
        if self.shoe.marker_from_back < max_round_cards(self.profile, self.spots):
            raise ValueError("the marker leaves too few cards to finish a round")
        self.rounds = 0
        self._standoffs: list[Bet] = []
        # the cut: how often an offered player refuses it (or which seats do), and whether
        # the casino has the dealer cut for the table where the rule allows it (205 CMR §5(b))
        if dealer_cuts and not self.profile.cut.casino_may_cut:
            raise ValueError(f"{self.profile.name}: the cut is offered to the players")
        self._declines = self._cut_declines(declines_cut)
        self.dealer_cuts = dealer_cuts

    def _id_prefix(self, id_prefix: str | None, seed: int | None) -> str:
        """The prefix of the shoes' (and so the rounds') ids."""
        if id_prefix is None:
            # Seeded runs repeat their round ids; unseeded tables draw a fresh prefix.
            id_prefix = f"seed{seed}" if seed is not None else f"{self.rng.getrandbits(40):010x}"
        if len(id_prefix) > MAX_PREFIX or not IDENTIFIER.fullmatch(id_prefix):
            raise ValueError(f"id_prefix is 1-{MAX_PREFIX} characters of A-Z a-z 0-9 . _ : -")
        return id_prefix

    def _cut_declines(self, declines_cut: float | Callable[[int], bool]) -> Callable[[int], bool]:
        """Whether the player offered the cut at a spot refuses it: a rate, or a policy."""
        if callable(declines_cut):
            return declines_cut
        if not 0.0 <= declines_cut <= 1.0:
            raise ValueError("declines_cut is a probability")
        rate = declines_cut
        # no draw at 0 or 1: a seeded table deals the same cards whatever its cut policy
        return lambda _spot: rate >= 1.0 or (rate > 0.0 and self.rng.random() < rate)

    def new_dealer(self) -> None:
        """A new dealer takes over: one burn card before their first round."""
        self.shoe.new_dealer()

    def play_round(
        self, bets: Sequence[Bet] = (), mishap: Mishap | None = None
    ) -> Round | VoidRound:
        """Deal and settle one round, with `mishap` going wrong in it if given; a round whose
        hands are all void (two face-up cards, a malfunction) is returned unplayed."""
        check_bets(self.profile, self.spots, bets)
        if not self.profile.stadium and not bets:
            raise ValueError("a live round needs at least one spot with an initial wager")
        if mishap is not None:
            self._check_mishap(mishap, bets)
        placed = self._with_standoffs(bets)
        cut = self._shuffle_if_due(placed)
        self.rounds += 1
        round_id = f"{self.shoe.shoe_id}-{self.rounds:06d}"
        failed = self._shoe_mishap(mishap)
        position = None if self.shoe.continuous else self.shoe.position
        try:
            self.shoe.begin_round()
            if failed:
                self.shoe.note(Irregularity(Irregular.SHUFFLER_FAILED))
            played = replace(self._deal(round_id, placed, mishap), cut=cut, position=position)
            self.shoe.end_round()
        except VoidRoundError:
            return self._void(round_id, bets, cut)
        self._standoffs = _standoffs_kept(played.results)
        return played

    def _shuffle_if_due(self, placed: Sequence[Bet]) -> Cut | None:
        """Shuffle before the round if the shoe is due, and have the new shoe cut; the cut."""
        # Wisconsin §37(g)(4), 205 CMR §7(d): the marker round is completed, then reshuffle.
        if self.shoe.needs_shuffle:
            reason, at = (
                (Reason.CASINO, None)
                if self.shoe.void
                else cut_card_appeared(self.shoe.drawn, self.shoe.marker_index)
            )
            self.shoe.shuffle()
            return None if self.shoe.continuous else self._cut(reason, placed, at)
        if self.rounds == 0 and not self.shoe.continuous:  # the first shoe, shuffled at opening
            return self._cut(Reason.BEGINNING, placed, None)
        return None

    def _shoe_mishap(self, mishap: Mishap | None) -> bool:
        """Put a mishap of the shoe's own in place before the round: the dealer forgets a
        burn, or the shuffler fails (True: the round notes it)."""
        if mishap is not None and mishap.kind is Irregular.SHUFFLER_FAILED:
            self.shoe.shuffler_failed()
            return True
        if mishap is not None and mishap.kind is Irregular.FORGOTTEN_BURN:
            self.shoe.forget_burn()
        return False

    def _void(self, round_id: str, bets: Sequence[Bet], cut: Cut | None) -> VoidRound:
        """The round whose hands were all void, unplayed."""
        # the round's own wagers go back; a kept stand-off stays on the felt for the next
        # game dealt (Stadium rule 8(a)), so it is neither returned nor counted twice
        kept = tuple(self._standoffs)
        return VoidRound(
            self.name,
            round_id,
            self.shoe.shoe_id,
            self.shoe.round_draws,
            tuple(bets),
            kept,
            cut,
            self.shoe.round_irregularities,
        )

    def _check_mishap(self, mishap: Mishap, bets: Sequence[Bet]) -> None:
        """Raise ValueError for a mishap the profile's rules or this round cannot have."""
        kind = mishap.kind
        if kind not in self.profile.irregularities:
            raise ValueError(f"{self.profile.name}'s rules name no {kind.value} irregularity")
        if kind is Irregular.SHUFFLER_FAILED and self.shoe.shuffler is Shuffler.NONE:
            raise ValueError("shuffler_failed needs an automated shuffler")
        if kind in AT_A_CARD:
            self._check_card_mishap(mishap, bets)

    def _check_card_mishap(self, mishap: Mishap, bets: Sequence[Bet]) -> None:
        """Raise ValueError for an error at a card that this round's wagers cannot have."""
        spots = {b.spot for b in bets}
        if mishap.spot is not None and mishap.spot not in spots and not self.profile.stadium:
            raise ValueError(f"spot {mishap.spot} has no wager: no card is dealt to it")
        if not set(mishap.let_out) <= _not_yet_dealt(spots, mishap.spot):
            raise ValueError("only players not yet dealt when the card went astray are let out")
        if spots and spots <= _out_of_round(mishap):
            raise ValueError("the mishap leaves no wager in the round")

    def _cut(self, reason: Reason, placed: Sequence[Bet], at: int | None) -> Cut:
        """Who cuts the new shoe: offered to the players at the table (those with a bet on
        this round) in the rule's order; the first player to the table is the first bet's
        spot of the table's first round."""
        seated = [] if self.dealer_cuts else [b.spot for b in placed]
        first = placed[0].spot if placed else None
        return offer_cut(
            reason,
            seated,
            self.profile.cut.passing,
            self._declines,
            first_player=first,
            at_spot=at,
        )

    def _with_standoffs(self, bets: Sequence[Bet]) -> tuple[Bet, ...]:
        """Stadium rule 8(a): pushed antes kept on the felt join this round's bets."""
        placed = list(bets)
        for kept in self._standoffs:
            for i, bet in enumerate(placed):
                if (bet.spot, bet.player) == (kept.spot, kept.player):
                    placed[i] = replace(
                        bet,
                        initial=bet.initial + kept.initial,
                        dealer_ante=bet.dealer_ante + kept.dealer_ante,
                    )
                    break
            else:
                placed.append(kept)
        return tuple(placed)

    def _deal(self, round_id: str, placed: tuple[Bet, ...], mishap: Mishap | None) -> Round:
        shoe = self.shoe
        spots = self._spots_dealt(placed)
        cards, dealer, out = self._original_deal(spots, mishap)
        bets = _by_spot(tuple(b for b in placed if b.spot not in out))
        results, war_cards, dealer_war = self._played_out(bets, cards, dealer)
        return Round(
            table=self.name,
            round_id=round_id,
            shoe_id=shoe.shoe_id,
            profile=self.profile,
            draws=shoe.round_draws,
            dealer_card=dealer,
            dealer_war_card=dealer_war,
            hands=tuple(Hand(s, cards[s], war_cards.get(s)) for s in spots if s not in out),
            results=tuple(results),
            irregularities=shoe.round_irregularities,
            returned=tuple(b for b in placed if b.spot in out),
        )

    def _original_deal(
        self, spots: list[int], mishap: Mishap | None
    ) -> tuple[dict[int, Card], Card, set[int]]:
        """The original deal with `mishap` going wrong in it: the spots' cards, the dealer's,
        the spots out of the round."""
        dealt = original_deal(self.shoe, spots, mishap)
        if mishap is not None and mishap.kind is Irregular.MALFUNCTION:
            # the rule voids the pays and plays; it calls for no reshuffle: the shoe deals on
            self.shoe.void_round(Irregularity(Irregular.MALFUNCTION), reshuffle=False)
        return dealt

    def _played_out(
        self, bets: list[Bet], cards: dict[int, Card], dealer: Card
    ) -> tuple[list[BetResult], dict[int, Card], Card | None]:
        """The ties decided, the war dealt and every bet settled, in the order the rules
        settle them; with the war cards dealt (spot's and dealer's)."""
        decisions = [self._decide(bet, cards[bet.spot], dealer) for bet in bets]
        war_cards, dealer_war = war_deal(self.shoe, self.profile, _at_war(bets, decisions))
        results = [
            self._result(bet, decided, cards[bet.spot], dealer, war_cards.get(bet.spot), dealer_war)
            for bet, decided in zip(bets, decisions, strict=True)
        ]
        if self.profile.settle_order is SettleOrder.FROM_RIGHT:
            # 205 CMR §8(a), (g): from the dealer's right; a spot's bets keep their order.
            results.sort(key=lambda r: -r.bet.spot)
        return results, war_cards, dealer_war

    def _spots_dealt(self, placed: tuple[Bet, ...]) -> list[int]:
        """The spots dealt a hand, in order: a Stadium table deals every spot, a live table
        those with a wager."""
        if self.profile.stadium:
            return list(range(1, self.spots + 1))
        return sorted({b.spot for b in placed})

    def _result(
        self,
        bet: Bet,
        decided: Decided,
        hand: Card,
        dealer: Card,
        war_card: Card | None,
        dealer_war: Card | None,
    ) -> BetResult:
        """A bet settled, with its side bet's outcome if it has one."""
        own, on_dealer, timed_out = decided
        settlement = settle(self.profile, bet, hand, dealer, war_card, dealer_war, own, on_dealer)
        outcome = None
        if bet.side:
            at = own is Decision.WAR
            outcome = evaluate(hand, dealer, war_card if at else None, dealer_war if at else None)
        return BetResult(bet, own, on_dealer, timed_out, settlement, outcome)

    def _decide(self, bet: Bet, card: Card, dealer: Card) -> Decided:
        """(own, on the dealer, timed out) decisions of a bet whose hand may be tied."""
        if card.rank != dealer.rank:
            return None, None, False
        own = on_dealer = None
        timed_out = False
        for stake, for_dealer in ((bet.initial, False), (bet.dealer_ante, True)):
            if not stake:
                continue
            tie = Tie(bet.spot, bet.player, card, dealer, stake, bet.side, for_dealer)
            decision, late = resolve(bet.strategy.decide(tie, self.rng), self.decision_timer_ms)
            timed_out |= late
            if for_dealer:
                on_dealer = decision
            else:
                own = decision
        return own, on_dealer, timed_out


def _dealing_from(profile: Profile | str, decks: int) -> Profile:
    """The table's profile (by name, or itself); raise ValueError if it does not deal from
    `decks` decks."""
    dealing = PROFILES[profile] if isinstance(profile, str) else profile
    if decks not in dealing.decks:
        raise ValueError(f"{dealing.name} deals from {dealing.decks} decks")
    return dealing


def _spot_count(profile: Profile, spots: int) -> int:
    """The table's spots: the profile's hands, else `spots`; raise ValueError outside 1..7."""
    count = profile.hands or spots
    if not 1 <= count <= MAX_SPOTS:
        raise ValueError(f"a table has 1..{MAX_SPOTS} spots")
    return count


def _not_yet_dealt(spots: set[int], astray: int | None) -> set[int]:
    """The wagered spots not yet dealt when the card at `astray` went wrong (all: none named)."""
    return {s for s in spots if astray is None or s >= astray}


def _out_of_round(mishap: Mishap) -> set[int | None]:
    """The spots a mishap at a card takes out of the round: those let out, and the spot
    not dealt."""
    return set(mishap.let_out) | ({mishap.spot} if mishap.kind is Irregular.NOT_DEALT else set())


def _at_war(bets: list[Bet], decisions: list[Decided]) -> list[int]:
    """The spots going to war, on the player's own hand or on the dealer's ante."""
    return sorted(
        {
            bet.spot
            for bet, (own, on_dealer, _) in zip(bets, decisions, strict=True)
            if Decision.WAR in (own, on_dealer)
        }
    )


def _standoffs_kept(results: Sequence[BetResult]) -> list[Bet]:
    """Stadium rule 8(a): the pushed antes that stay on the felt for the next game."""
    return [
        replace(
            r.bet,
            initial=r.settlement.standoff,
            dealer_ante=r.settlement.dealer_standoff,
            tie=0,
            war_tie=0,
            side=0,
            dealer_tie=0,
        )
        for r in results
        if r.settlement.standoff or r.settlement.dealer_standoff
    ]


def _by_spot(bets: tuple[Bet, ...]) -> list[Bet]:
    """Bets in spot order; a spot's bets in the order placed."""
    return sorted(bets, key=lambda b: b.spot)
