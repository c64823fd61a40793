"""The round report's shape (POST /v1/rounds): its cards, bets and spots; report.parse_report
checks it against the table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jackpot.domain.cards import RANK_CHARS, SUIT_CHARS, Card, CardError
from jackpot.domain.config import MAX_SPOTS, MAX_WAGER
from jackpot.domain.fields import (
    Boolean,
    Either,
    Field,
    Identifier,
    Integer,
    ListOf,
    Presence,
    Record,
    Rule,
    Timestamp,
)
from jackpot.domain.report import MAX_BETS_PER_SPOT, MAX_SHOE_CARDS
from jackpot.errors import ValidationError


@dataclass(frozen=True, slots=True)
class CardText:
    """A card as tables spell it: `As`, `as`, `AS`, `10h`, `Td`."""

    def check(self, raw: Any, field: str) -> Card:
        try:
            return Card.parse(raw)
        except CardError as exc:
            raise ValidationError(field, str(exc), "unknown_card") from None

    def schema(self) -> dict[str, Any]:
        ranks = RANK_CHARS + RANK_CHARS.lower()
        suits = SUIT_CHARS + SUIT_CHARS.upper()
        return {"type": "string", "pattern": f"^(?:[{ranks}]|10)[{suits}]$"}


SHOE = "may show no more copies of a card than the table's shoe holds"
WAR_ON_TIE = Rule("war", "is true only on a tie", "war_without_tie")
WAGER_LIMITS = Rule("wager", "is 0 or within the table's min_wager..max_wager", "out_of_range")
CARD_RULES = (
    Rule("card", SHOE, "impossible_cards"),
    Rule("war_card", SHOE, "impossible_cards"),
    Rule("war_card", "is required when the hand goes to war", "missing"),
)
SPOT_RULES = (
    *CARD_RULES,
    Rule("war_card", "is given only at war, and equals the community war card if there is one"),
    Rule("spot", "is at most the table's spots", "out_of_range"),
    Rule("spot", "is reported once"),
)
BET = Record(
    {
        "wager": Field(Integer(1, MAX_WAGER), Presence.REQUIRED, "cents"),
        "player": Field(Identifier()),
        "war": Field(Boolean(), description="this player's war decision on a tie"),
    },
    rules=(WAGER_LIMITS, WAR_ON_TIE),
)
_SPOT_FIELDS = {
    "spot": Field(Integer(1, MAX_SPOTS), Presence.REQUIRED),
    "card": Field(CardText(), Presence.REQUIRED),
    "war_card": Field(CardText()),
}
LIVE_SPOT = Record(
    {
        **_SPOT_FIELDS,
        "wager": Field(Integer(0, MAX_WAGER), description="the progressive wager, cents; 0: none"),
        "player": Field(Identifier(), description="only with a wager"),
        "war": Field(Boolean()),
    },
    "A hand at a live table, its bet inline.",
    rules=(*SPOT_RULES, WAGER_LIMITS, WAR_ON_TIE, Rule("player", "is named only with a wager")),
)
STADIUM_SPOT = Record(
    {
        **_SPOT_FIELDS,
        "bets": Field(
            ListOf(BET, "bets", max_items=MAX_BETS_PER_SPOT),
            Presence.REQUIRED,
            "one per player on the hand",
        ),
    },
    "A hand at a stadium table: every player's bet on it.",
    rules=(*SPOT_RULES, Rule("bets", "are carried only at stadium tables")),
)
#: The shape of POST /v1/rounds; report.parse_report checks it against the table.
ROUND_REPORT = Record(
    {
        "table": Field(Identifier(), Presence.REQUIRED),
        "round": Field(Identifier(), Presence.REQUIRED, "unique per table; a retry repeats it"),
        "dealer": Field(
            Record(
                {
                    "card": Field(CardText(), Presence.REQUIRED),
                    "war_card": Field(CardText()),
                },
                rules=(*CARD_RULES, Rule("war_card", "is given only when some spot goes to war")),
            ),
            Presence.REQUIRED,
        ),
        "community_war": Field(
            Boolean(), description="stadium tables: every spot at war shares one war card"
        ),
        "dealt_at": Field(
            Timestamp(),
            description="when the round was dealt, by the table's clock; a resend repeats it. "
            "Optional, but a report without it is checked against the archive before it is "
            "settled (docs/DECISIONS.md D71, the retention window)",
        ),
        "spots": Field(
            ListOf(Either(LIVE_SPOT, STADIUM_SPOT, "bets"), "spots", 1, MAX_SPOTS),
            Presence.REQUIRED,
        ),
        "shoe": Field(
            Identifier(),
            description="the shoe the round was dealt from, as the table names it (a new name "
            "for each shuffle); the shoe's rounds together may show no card more often than "
            "it holds",
        ),
        "position": Field(
            Integer(0, MAX_SHOE_CARDS),
            description="with `shoe`: how many cards were out of it (burns included) before "
            "the round's first card",
        ),
    },
    "A finished round, checked against its table's configuration.",
    rules=(
        Rule("spots", "lists at most the table's spots"),
        Rule("community_war", "is true only at a stadium table (where it may be left out)"),
        Rule(
            "spots",
            "together with the earlier rounds reported from the same `shoe`, may show no "
            "card more often than the shoe holds",
            "impossible_cards",
        ),
        Rule("position", "is given only with `shoe`", "missing"),
        Rule(
            "position",
            "leaves room in the table's shoe for every card the round shows",
            "out_of_range",
        ),
        Rule(
            "dealt_at",
            "is at most the allowed clock skew (JACKPOT_CLOCK_SKEW_SECONDS) ahead of the "
            "controller's clock",
            "in_future",
        ),
    ),
    notes=(
        "A key for another table is 403; an unknown table is 404 `unknown_table`; a disabled "
        "table is 409 `table_disabled`; the same (table, round) with another body is 409 "
        "`round_conflict`.",
        "A round dealt longer ago than the retention window (JACKPOT_RETENTION_SECONDS) that "
        "the controller never settled is 422 `round_expired`: it is not settled, and the table "
        "adapter quarantines it for an operator. A resend of a settled round of any age is "
        "answered with its first result.",
    ),
)
