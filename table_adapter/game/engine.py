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
from table_adapter.game.irregularities import AT_A_CARD, Handling, Irregular, Irregularity, Mishap
from table_adapter.game.profiles import PROFILES, Layout, Profile, SettleOrder
from table_adapter.game.records import BetResult, Cut, Hand, Reason, Role, Round, VoidRound
from table_adapter.game.settlement import settle
from table_adapter.game.shoe import Shoe, Shuffler
from table_adapter.game.strategies import Decision, Tie, resolve

MAX_SPOTS = 7
MAX_PREFIX = 100


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
        self.profile = PROFILES[profile] if isinstance(profile, str) else profile
        if decks not in self.profile.decks:
            raise ValueError(f"{self.profile.name} deals from {self.profile.decks} decks")
        self.spots = self.profile.hands or spots
        if not 1 <= self.spots <= MAX_SPOTS:
            raise ValueError(f"a table has 1..{MAX_SPOTS} spots")
        self.decision_timer_ms = (
            self.profile.decision_timer_ms if decision_timer_ms is None else decision_timer_ms
        )
        self.rng: random.Random = random.SystemRandom() if seed is None else random.Random(seed)
        if id_prefix is None:
            # Seeded runs repeat their round ids; unseeded tables draw a fresh prefix.
            id_prefix = f"seed{seed}" if seed is not None else f"{self.rng.getrandbits(40):010x}"
        if len(id_prefix) > MAX_PREFIX or not IDENTIFIER.fullmatch(id_prefix):
            raise ValueError(f"id_prefix is 1-{MAX_PREFIX} characters of A-Z a-z 0-9 . _ : -")
        self.shoe = Shoe(
            decks,
            cut=self.profile.cut,
            rng=self.rng,
            shuffler=shuffler,
            face_up_rate=face_up_rate,
            marker_from_back=marker_from_back,
            prefix=id_prefix,
        )
        if self.shoe.marker_from_back < max_round_cards(self.profile, self.spots):
            raise ValueError("the marker leaves too few cards to finish a round")
        self.rounds = 0
        self._standoffs: list[Bet] = []
        # the cut: how often an offered player refuses it (or which seats do), and whether
        # the casino has the dealer cut for the table where the rule allows it (205 CMR §5(b))
        if dealer_cuts and not self.profile.cut.casino_may_cut:
            raise ValueError(f"{self.profile.name}: the cut is offered to the players")
        if callable(declines_cut):
            self._declines: Callable[[int], bool] = declines_cut
        elif 0.0 <= declines_cut <= 1.0:
            rate = declines_cut
            # no draw at 0 or 1: a seeded table deals the same cards whatever its cut policy
            self._declines = lambda _spot: rate >= 1.0 or (rate > 0.0 and self.rng.random() < rate)
        else:
            raise ValueError("declines_cut is a probability")
        self.dealer_cuts = dealer_cuts

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
        cut = None
        # Wisconsin §37(g)(4), 205 CMR §7(d): the marker round is completed, then reshuffle.
        if self.shoe.needs_shuffle:
            reason, at = (
                (Reason.CASINO, None)
                if self.shoe.void
                else cut_card_appeared(self.shoe.drawn, self.shoe.marker_index)
            )
            self.shoe.shuffle()
            cut = None if self.shoe.continuous else self._cut(reason, placed, at)
        elif self.rounds == 0 and not self.shoe.continuous:  # the first shoe, shuffled at opening
            cut = self._cut(Reason.BEGINNING, placed, None)
        self.rounds += 1
        round_id = f"{self.shoe.shoe_id}-{self.rounds:06d}"
        failed = mishap is not None and mishap.kind is Irregular.SHUFFLER_FAILED
        if failed:
            self.shoe.shuffler_failed()
        elif mishap is not None and mishap.kind is Irregular.FORGOTTEN_BURN:
            self.shoe.forget_burn()
        position = None if self.shoe.continuous else self.shoe.position
        try:
            self.shoe.begin_round()
            if failed:
                self.shoe.note(Irregularity(Irregular.SHUFFLER_FAILED))
            played = replace(self._deal(round_id, placed, mishap), cut=cut, position=position)
            self.shoe.end_round()
        except VoidRoundError:
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
        self._standoffs = [
            replace(
                r.bet,
                initial=r.settlement.standoff,
                dealer_ante=r.settlement.dealer_standoff,
                tie=0,
                war_tie=0,
                side=0,
                dealer_tie=0,
            )
            for r in played.results
            if r.settlement.standoff or r.settlement.dealer_standoff
        ]
        return played

    def _check_mishap(self, mishap: Mishap, bets: Sequence[Bet]) -> None:
        """Raise ValueError for a mishap the profile's rules or this round cannot have."""
        kind = mishap.kind
        if kind not in self.profile.irregularities:
            raise ValueError(f"{self.profile.name}'s rules name no {kind.value} irregularity")
        if kind is Irregular.SHUFFLER_FAILED and self.shoe.shuffler is Shuffler.NONE:
            raise ValueError("shuffler_failed needs an automated shuffler")
        if kind not in AT_A_CARD:
            return
        spots = {b.spot for b in bets}
        if mishap.spot is not None and mishap.spot not in spots and not self.profile.stadium:
            raise ValueError(f"spot {mishap.spot} has no wager: no card is dealt to it")
        later = {s for s in spots if mishap.spot is None or s >= mishap.spot}
        if not set(mishap.let_out) <= later:
            raise ValueError("only players not yet dealt when the card went astray are let out")
        out = set(mishap.let_out) | ({mishap.spot} if kind is Irregular.NOT_DEALT else set())
        if spots and spots <= out:
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
        spots = (
            list(range(1, self.spots + 1))
            if self.profile.stadium
            else sorted({b.spot for b in placed})
        )
        cards, dealer, out = self._original_deal(spots, mishap)
        if mishap is not None and mishap.kind is Irregular.MALFUNCTION:
            # the rule voids the pays and plays; it calls for no reshuffle: the shoe deals on
            shoe.void_round(Irregularity(Irregular.MALFUNCTION), reshuffle=False)
        bets = tuple(b for b in placed if b.spot not in out)
        spots = [s for s in spots if s not in out]
        decisions = [self._decide(bet, cards[bet.spot], dealer) for bet in _by_spot(bets)]
        at_war = sorted(
            {
                bet.spot
                for bet, (own, on_dealer, _) in zip(_by_spot(bets), decisions, strict=True)
                if Decision.WAR in (own, on_dealer)
            }
        )
        war_cards, dealer_war = self._war_deal(at_war)
        hands = tuple(Hand(s, cards[s], war_cards.get(s)) for s in spots)
        results = []
        for bet, (own, on_dealer, timed_out) in zip(_by_spot(bets), decisions, strict=True):
            hand = cards[bet.spot]
            war_card = war_cards.get(bet.spot)
            settlement = settle(
                self.profile, bet, hand, dealer, war_card, dealer_war, own, on_dealer
            )
            outcome = None
            if bet.side:
                at = own is Decision.WAR
                outcome = evaluate(
                    hand, dealer, war_card if at else None, dealer_war if at else None
                )
            results.append(BetResult(bet, own, on_dealer, timed_out, settlement, outcome))
        if self.profile.settle_order is SettleOrder.FROM_RIGHT:
            # 205 CMR §8(a), (g): from the dealer's right; a spot's bets keep their order.
            results.sort(key=lambda r: -r.bet.spot)
        return Round(
            table=self.name,
            round_id=round_id,
            shoe_id=shoe.shoe_id,
            profile=self.profile,
            draws=shoe.round_draws,
            dealer_card=dealer,
            dealer_war_card=dealer_war,
            hands=hands,
            results=tuple(results),
            irregularities=shoe.round_irregularities,
            returned=tuple(b for b in placed if b.spot in out),
        )

    def _original_deal(
        self, spots: list[int], mishap: Mishap | None
    ) -> tuple[dict[int, Card], Card, set[int]]:
        """One card to each spot in order, then the dealer's (Wisconsin §37(h)(1), 205 CMR
        §8(a)), with a dealer's error at a card applied by its rule. Returns the spots' cards,
        the dealer's, and the spots dealt out of the round (not dealt, let out)."""
        shoe = self.shoe
        order: list[int | None] = [*spots, None]  # None: the dealer's card
        at_card = mishap is not None and mishap.kind in AT_A_CARD
        cards: dict[int, Card] = {}
        dealer: Card | None = None
        out: set[int] = set()

        def deal(at: int | None) -> Card:
            nonlocal dealer
            if at is None:
                dealer = shoe.draw(Role.DEALER)
                return dealer
            cards[at] = shoe.draw(Role.HAND, at)
            return cards[at]

        for i, at in enumerate(order):
            if at in out or at in cards or (at is None and dealer is not None):
                continue  # dealt out of the round, or given its card already
            if not at_card or mishap is None or mishap.spot != at:
                deal(at)
                continue
            at_card = False
            if mishap.kind is Irregular.NOT_DEALT:
                # Wisconsin §37(j)(3), 205 CMR §10(d): the spot's wagers are void
                assert at is not None
                out.add(at)
                shoe.note(Irregularity(Irregular.NOT_DEALT, spot=at))
                continue
            if mishap.kind is Irregular.DRAWN_IN_ERROR:
                # Wisconsin §37(j)(2), 205 CMR §10(c): used as though it was the next card
                card = deal(at)
                shoe.note(Irregularity(Irregular.DRAWN_IN_ERROR, spot=at, card=card))
                continue
            # 205 CMR §10(a): never placed backwards; the players the casino lets out (none
            # dealt yet) take back their wagers before the deal goes on
            out |= set(mishap.let_out)
            card = self._misdelivered(mishap.handling, order[i:], out, deal)
            shoe.note(
                Irregularity(
                    Irregular.MISDELIVERED,
                    spot=at,
                    card=card,
                    handling=mishap.handling,
                    let_out=tuple(sorted(mishap.let_out)),
                )
            )
            if at not in out and at not in cards and (at is not None or dealer is None):
                deal(at)  # the hand it was meant for takes the next card
        assert dealer is not None
        return cards, dealer, out

    def _misdelivered(
        self,
        handling: Handling,
        ahead: list[int | None],
        out: set[int],
        deal: Callable[[int | None], Card],
    ) -> Card:
        """Where the card delivered incorrectly goes (205 CMR §10(a)); it is drawn here."""
        if handling is Handling.FORWARD:
            # to the next hand still owed a card, as though it had been delivered there
            return deal(next(at for at in ahead if at not in out))
        if handling is Handling.DEALER:
            return deal(None)
        # put in the discard rack as a burn: not one of the burns the rules owe, so a burn
        # the dealer is to forget (forgotten_burn) stays to come
        return self.shoe.draw(Role.BURN)

    def _decide(
        self, bet: Bet, card: Card, dealer: Card
    ) -> tuple[Decision | None, Decision | None, bool]:
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

    def _war_deal(self, at_war: list[int]) -> tuple[dict[int, Card], Card | None]:
        """Deal the war per the profile's layout (docs/RULES.md §2); {} and None without a war."""
        if not at_war:
            return {}, None
        shoe, burns = self.shoe, self.profile.war_burns
        layout = self.profile.layout
        war_cards: dict[int, Card] = {}
        if layout is Layout.STADIUM:
            # Stadium rule 8: 3 burns, one community war card for every hand at war.
            shoe.burn(burns)
            community = shoe.draw(Role.COMMUNITY_WAR)
            war_cards = dict.fromkeys(at_war, community)
        else:
            if layout is Layout.STANDARD:
                # Wisconsin §37(h)(6), 205 CMR §8(f): 3 burns, then each spot in order.
                shoe.burn(burns)
            for spot in at_war:
                if layout is Layout.SOUTH_DAKOTA:
                    # S.D. 20:18:16:15.17(4)(d): three burns before each war card.
                    shoe.burn(burns)
                war_cards[spot] = shoe.draw(Role.HAND_WAR, spot)
        if layout is not Layout.STANDARD:
            shoe.burn(burns)
        return war_cards, shoe.draw(Role.DEALER_WAR)


def _by_spot(bets: tuple[Bet, ...]) -> list[Bet]:
    """Bets in spot order; a spot's bets in the order placed."""
    return sorted(bets, key=lambda b: b.spot)
