"""Round reports (docs/API.md "Round report"): parsed, checked against the table, canonical."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from jackpot import jsonio
from jackpot.domain.cards import DECK_SIZE, Card, CardError, spelled
from jackpot.domain.config import MAX_DECKS, TableConfig
from jackpot.domain.validate import (
    DOT_SEGMENTS,
    IDENTIFIER,
    expect_bool,
    expect_int,
    expect_keys,
    expect_object,
    parse_identifier,
    parse_timestamp,
)
from jackpot.errors import ValidationError

MAX_BETS_PER_SPOT = 200
MAX_SHOE_CARDS = MAX_DECKS * DECK_SIZE  # the most a report's `position` may say
INLINE_BET_FIELDS = frozenset({"wager", "player", "war"})
INLINE_SPOT_FIELDS = frozenset({"spot", "card", "war_card", *INLINE_BET_FIELDS})


@dataclass(frozen=True, slots=True)
class Bet:
    """One player's progressive wager on one spot; `war` is that player's war decision."""

    wager: int
    war: bool
    player: str | None = None


@dataclass(frozen=True, slots=True)
class Spot:
    spot: int
    card: Card
    war_card: Card | None  # at war, or the community card on a surrendered Stadium tie
    bets: tuple[Bet, ...]
    inline: bool  # the live-table form: its bet fields sit on the spot itself
    war: bool  # the hand went to war (some bet on it did, or the live spot did)


@dataclass(frozen=True, slots=True)
class RoundReport:
    table: str
    round: str
    dealer_card: Card
    dealer_war_card: Card | None
    community_war: bool  # a Stadium war: one war card dealt for every spot at war
    spots: tuple[Spot, ...]  # in settlement order: ascending spot number
    shoe: str | None = None  # the shoe it was dealt from, as the table names it
    position: int | None = None  # cards out of that shoe before the round's first card

    def canonical(self) -> dict[str, Any]:
        """The report in canonical form: what an identical replay must match."""
        dealer: dict[str, Any] = {"card": str(self.dealer_card)}
        if self.dealer_war_card is not None:
            dealer["war_card"] = str(self.dealer_war_card)
        shoe: dict[str, Any] = {} if self.shoe is None else {"shoe": self.shoe}
        if self.position is not None:
            shoe["position"] = self.position
        return {
            "table": self.table,
            "round": self.round,
            "dealer": dealer,
            "community_war": self.community_war,
            "spots": [_spot_json(s) for s in self.spots],
            **shoe,
        }

    def shown(self) -> list[tuple[str, Card]]:
        """Every physical card the round shows, with the field that names it (a Stadium
        community war card once)."""
        return _shown(self.dealer_card, self.dealer_war_card, list(self.spots), self.community_war)

    def bets(self) -> list[tuple[Spot, Bet]]:
        """Every bet in settlement order: spot order, then the order reported."""
        return [(spot, bet) for spot in self.spots for bet in spot.bets]


def _spot_json(spot: Spot) -> dict[str, Any]:
    out: dict[str, Any] = {"spot": spot.spot, "card": str(spot.card)}
    if spot.war_card is not None:
        out["war_card"] = str(spot.war_card)
    if spot.inline:
        if spot.war:
            out["war"] = True
        if spot.bets:
            bet = spot.bets[0]
            out["wager"] = bet.wager
            if bet.player is not None:
                out["player"] = bet.player
    else:
        out["bets"] = [
            {"wager": b.wager, "war": b.war, **({"player": b.player} if b.player else {})}
            for b in spot.bets
        ]
    return out


def body_digest(raw: Any) -> str:
    """The idempotency digest of a report: SHA-256 of its body as canonical JSON (sorted
    keys). A retry resends the same body; another body under the same id is a conflict."""
    return hashlib.sha256(jsonio.canonical(raw)).hexdigest()


def parse_envelope(raw: Any) -> tuple[str, str]:
    """The (table, round) a report names, checked before the table is looked up."""
    data = expect_object(raw, None)
    for key in ("table", "round"):
        if key not in data:
            raise ValidationError(key, "is required", "missing")
    return parse_identifier(data["table"], "table"), parse_identifier(data["round"], "round")


def parse_dealt_at(raw: Any) -> int | None:
    """When the report says its round was dealt (epoch ms), or None for a report without it."""
    data = expect_object(raw, None)
    if "dealt_at" not in data:
        return None
    return parse_timestamp(data["dealt_at"], "dealt_at")


def parse_report(raw: Any, table: TableConfig) -> RoundReport:
    """Check a round report against its table's configuration; raise ValidationError."""
    data = expect_object(raw, None)
    expect_keys(
        data,
        None,
        required={"table", "round", "dealer", "spots"},
        optional={"community_war", "dealt_at", "shoe", "position"},
    )
    table_id, round_id = parse_envelope(data)
    parse_dealt_at(data)  # checked here too, so the report's one validator sees every field
    # SPEC §2: a Stadium war is always communal, so the flag may be left out there; `false`
    # is taken as long as the war cards do not contradict the one community card.
    if expect_bool(data.get("community_war", False), "community_war") and not table.stadium:
        raise ValidationError("community_war", "only stadium tables deal a community war card")
    dealer_card, dealer_war = _dealer(data["dealer"])
    spots = _spots(data["spots"], dealer_card, table)
    community = _war(spots, dealer_war, table)
    shown = _shown_cards(dealer_card, dealer_war, spots, community)
    if len(shown) - len({card.index for card in shown}) >= table.decks:
        # a card may show more often than the shoe holds it: count, and name the extra copy
        _check_shoe(_shown(dealer_card, dealer_war, spots, community), table.decks)
    shoe, position = _shoe(data, len(shown), table.decks)
    return RoundReport(
        table=table_id,
        round=round_id,
        dealer_card=dealer_card,
        dealer_war_card=dealer_war,
        community_war=community,
        spots=tuple(sorted(spots, key=lambda s: s.spot)),
        shoe=shoe,
        position=position,
    )


def _dealer(raw: Any) -> tuple[Card, Card | None]:
    """The dealer's card, and war card if the round went to war."""
    dealer = expect_object(raw, "dealer")
    expect_keys(dealer, "dealer", required={"card"}, optional={"war_card"})
    card = _card(dealer["card"], "dealer.card")
    return card, _card(dealer["war_card"], "dealer.war_card") if "war_card" in dealer else None


def _spots(raw: Any, dealer_card: Card, table: TableConfig) -> list[Spot]:
    """The report's spots, each checked, none reported twice."""
    if not isinstance(raw, list):
        raise ValidationError("spots", "must be a list of spots", "not_a_list")
    if not raw:
        raise ValidationError("spots", "must list at least one spot", "empty")
    if len(raw) > table.spots:
        raise ValidationError("spots", f"the table has {table.spots} spots")
    spots = [
        _plain_spot(s, dealer_card, table) or _spot(s, f"spots[{i}]", dealer_card, table)
        for i, s in enumerate(raw)
    ]
    seen: dict[int, int] = {}
    for i, spot in enumerate(spots):
        if spot.spot in seen:
            raise ValidationError(f"spots[{i}].spot", f"spot {spot.spot} is reported twice")
        seen[spot.spot] = i
    return spots


def _war(spots: list[Spot], dealer_war: Card | None, table: TableConfig) -> bool:
    """Whether the round's war was communal (a stadium table's, one war card for every spot
    at war), once the war cards agree with who went to war."""
    at_war = [i for i, s in enumerate(spots) if s.war]
    if at_war and dealer_war is None:
        raise ValidationError("dealer.war_card", "is required when a spot goes to war", "missing")
    if not at_war and dealer_war is not None:
        raise ValidationError("dealer.war_card", "is given but no spot went to war")
    surrendered = [i for i, s in enumerate(spots) if s.war_card is not None and not s.war]
    if surrendered and not at_war:
        raise ValidationError(
            f"spots[{surrendered[0]}].war_card", "is given but no spot went to war"
        )
    community = table.stadium and bool(at_war)
    if community:
        _check_community_card(spots, spots[at_war[0]].war_card)
    return community


def _check_community_card(spots: list[Spot], first: Card | None) -> None:
    """Every war card a stadium round shows is its one community card."""
    for i, s in enumerate(spots):
        if s.war_card is not None and s.war_card != first:
            raise ValidationError(
                f"spots[{i}].war_card",
                "must equal the community war card: a stadium table deals one war card "
                "for every spot at war",
            )


def _shoe(data: dict[str, Any], shown: int, decks: int) -> tuple[str | None, int | None]:
    """The shoe a report names and its position in it (docs/API.md, the shoe audit)."""
    shoe = parse_identifier(data["shoe"], "shoe") if "shoe" in data else None
    if "position" not in data:
        return shoe, None
    if shoe is None:
        raise ValidationError("position", "is a position in the shoe named by `shoe`", "missing")
    size = decks * DECK_SIZE
    # the round's cards come out after `position`: all of them must still be in the shoe
    position = expect_int(data["position"], "position", 0, size - shown)
    return shoe, position


def _shown(
    dealer: Card, dealer_war: Card | None, spots: list[Spot], community: bool
) -> list[tuple[str, Card]]:
    """Every physical card a round shows, with the field naming it, in report order."""
    seen: list[tuple[str, Card]] = [
        *((f"spots[{i}].card", s.card) for i, s in enumerate(spots)),
        ("dealer.card", dealer),
    ]
    war = [(f"spots[{i}].war_card", s.war_card) for i, s in enumerate(spots) if s.war_card]
    seen += war[:1] if community else war  # one physical community war card
    if dealer_war is not None:
        seen.append(("dealer.war_card", dealer_war))
    return seen


def _shown_cards(
    dealer: Card, dealer_war: Card | None, spots: list[Spot], community: bool
) -> list[Card]:
    """The cards of `_shown` without the fields that name them."""
    cards = [s.card for s in spots]
    cards.append(dealer)
    war = [s.war_card for s in spots if s.war_card is not None]
    cards += war[:1] if community else war
    if dealer_war is not None:
        cards.append(dealer_war)
    return cards


def _check_shoe(seen: list[tuple[str, Card]], decks: int) -> None:
    """No card may show more often than the shoe holds; the error names the extra copy."""
    counts: dict[Card, int] = {}
    for field, card in seen:
        counts[card] = counts.get(card, 0) + 1
        if counts[card] > decks:
            raise ValidationError(
                field,
                f"{card} is shown {counts[card]} times; a {decks}-deck shoe holds {decks}",
                "impossible_cards",
            )


def _plain_spot(raw: Any, dealer: Card, table: TableConfig) -> Spot | None:
    """A spot of the live-table form whose every field is plainly sound, read without naming
    its fields; None for any other, which `_spot` reads again, naming the field at fault.
    Any spot both read, they read alike: this is only `_spot`'s common case, made cheap."""
    if type(raw) is not dict or not raw.keys() <= INLINE_SPOT_FIELDS:
        return None
    number, card = raw.get("spot"), spelled(raw.get("card"))
    if type(number) is not int or not 1 <= number <= table.spots or card is None:
        return None
    war, wager = raw.get("war", False), raw.get("wager", 0)
    if type(war) is not bool or type(wager) is not int:
        return None
    tie = card.rank == dealer.rank
    if (war and not tie) or (wager and not table.min_wager <= wager <= table.max_wager):
        return None
    player = None
    if "player" in raw:
        player = raw["player"]
        if (
            not wager
            or type(player) is not str
            or not IDENTIFIER.fullmatch(player)
            or player in DOT_SEGMENTS
        ):
            return None
    war_card = None
    if "war_card" in raw:
        war_card = spelled(raw["war_card"])
        if war_card is None or not (war or (tie and table.stadium)):
            return None
    elif war:
        return None
    return Spot(number, card, war_card, (Bet(wager, war, player),) if wager else (), True, war)


def _spot(raw: Any, field: str, dealer: Card, table: TableConfig) -> Spot:
    data = expect_object(raw, field)
    stadium_form = "bets" in data
    if stadium_form and not table.stadium:
        raise ValidationError(f"{field}.bets", "only stadium tables carry several bets on a spot")
    optional = {"war_card"} | ({"bets"} if stadium_form else INLINE_BET_FIELDS)
    if stadium_form:
        for key in INLINE_BET_FIELDS & data.keys():
            raise ValidationError(f"{field}.{key}", "a spot with bets carries no inline bet fields")
    expect_keys(data, field, required={"spot", "card"}, optional=optional)
    number = expect_int(data["spot"], f"{field}.spot", 1, table.spots)
    card = _card(data["card"], f"{field}.card")
    tie = card.rank == dealer.rank

    if stadium_form:
        bets = _stadium_bets(data["bets"], f"{field}.bets", tie, table)
        war = any(b.war for b in bets)
    else:
        bets, war = _inline_bet(data, field, tie, table)
    war_card = _war_card(data, field, war, tie and table.stadium)
    return Spot(number, card, war_card, bets, inline=not stadium_form, war=war)


def _inline_bet(
    data: dict[str, Any], field: str, tie: bool, table: TableConfig
) -> tuple[tuple[Bet, ...], bool]:
    """A live-table spot's one bet (none without a wager), and whether it went to war."""
    war = expect_bool(data.get("war", False), f"{field}.war")
    if war and not tie:
        raise ValidationError(f"{field}.war", "war is only possible on a tie", "war_without_tie")
    wager = _wager(data.get("wager", 0), f"{field}.wager", table)
    player = _player(data["player"], f"{field}.player") if "player" in data else None
    if player is not None and not wager:
        raise ValidationError(f"{field}.player", "names a player but there is no wager")
    return ((Bet(wager, war, player),) if wager else ()), war


def _war_card(data: dict[str, Any], field: str, war: bool, stadium_tie: bool) -> Card | None:
    """A spot's war card: given exactly when it went to war, or (a tied Stadium hand whose
    bets all surrendered) when it shows the community card."""
    if "war_card" in data:
        if not war and not stadium_tie:
            raise ValidationError(f"{field}.war_card", "is given but the spot did not go to war")
        return _card(data["war_card"], f"{field}.war_card")
    if war:
        raise ValidationError(f"{field}.war_card", "is required at war", "missing")
    return None


def _stadium_bets(raw: Any, field: str, tie: bool, table: TableConfig) -> tuple[Bet, ...]:
    if not isinstance(raw, list):
        raise ValidationError(field, "must be a list")
    if len(raw) > MAX_BETS_PER_SPOT:
        raise ValidationError(field, f"at most {MAX_BETS_PER_SPOT} bets on one spot")
    bets = []
    for i, item in enumerate(raw):
        f = f"{field}[{i}]"
        data = expect_object(item, f)
        expect_keys(data, f, required={"wager"}, optional={"player", "war"})
        wager = _wager(data["wager"], f"{f}.wager", table)
        if not wager:
            raise ValidationError(f"{f}.wager", "a listed bet needs a wager", "out_of_range")
        war = expect_bool(data.get("war", False), f"{f}.war")
        if war and not tie:
            raise ValidationError(f"{f}.war", "war is only possible on a tie", "war_without_tie")
        player = _player(data["player"], f"{f}.player") if "player" in data else None
        bets.append(Bet(wager, war, player))
    return tuple(bets)


def _wager(raw: Any, field: str, table: TableConfig) -> int:
    wager = expect_int(raw, field)
    if wager != 0 and not table.min_wager <= wager <= table.max_wager:
        raise ValidationError(
            field,
            f"must be 0 or within the table's limits {table.min_wager}..{table.max_wager} cents",
            "out_of_range",
        )
    return wager


def _player(raw: Any, field: str) -> str:
    return parse_identifier(raw, field)


def _card(raw: Any, field: str) -> Card:
    try:
        return Card.parse(raw)
    except CardError as exc:
        raise ValidationError(field, str(exc), "unknown_card") from None
