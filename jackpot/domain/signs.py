"""Progressive signs, defined centrally: which pools a sign shows, in what order and under
what names, its title and branding, orientation, currency and locale.

A sign screen opens `/signs/{sign}` and is never touched again: changing the definition here
changes the screen. Amounts stay integer cents; the currency and locale only say how the
screen writes them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from jackpot.domain.config import LevelType, TableRecord
from jackpot.domain.fields import (
    Choice,
    Field,
    Identifier,
    ListOf,
    Nullable,
    Presence,
    Record,
    Rule,
    Text,
)
from jackpot.domain.meter import LinkState, PoolState
from jackpot.domain.outcomes import WINNING_OUTCOMES, Outcome
from jackpot.domain.paytable import PROPORTIONAL, PayLine, Paytable

MAX_LEVELS = 8  # levels one screen can show legibly
MAX_TITLE = 60
MAX_BRANDING = 120
MAX_LEVEL_NAME = 40
ORIENTATIONS = ("landscape", "portrait")
# currencies written with two decimals: the meter is in cents (no zero- or three-decimal ones)
CURRENCIES = ("USD", "CAD", "EUR", "GBP", "AUD", "NZD", "MXN", "CHF", "SGD", "HKD", "ZAR", "MOP")
# the locales the sign writes numbers and times in (the browser's Intl has them all)
LOCALES = (
    "en-US", "en-CA", "en-GB", "en-AU", "en-NZ", "en-SG", "en-ZA", "fr-CA", "fr-FR", "es-US",
    "es-MX", "es-ES", "de-DE", "de-CH", "it-IT", "pt-BR", "pt-PT", "nl-NL", "zh-HK", "zh-MO",
)  # fmt: skip

LEVEL_ONCE = Rule("pool", "is already a level of this sign")
LEVEL = Record(
    {
        "pool": Field(Identifier(), Presence.REQUIRED, "a public pool"),
        "name": Field(
            Text(MAX_LEVEL_NAME),
            description="what this sign calls it, above the pool's own name (default: the "
            "pool's name, else its id)",
        ),
    },
    "One level of the sign: a pool and its display name.",
    rules=(LEVEL_ONCE,),
)

#: The body of PUT /v1/signs/{sign}.
SIGN_REQUEST = Record(
    {
        "levels": Field(
            ListOf(LEVEL, "levels", min_items=1, max_items=MAX_LEVELS),
            Presence.REQUIRED,
            "the pools it shows, in order, each with its display name",
        ),
        "title": Field(Text(MAX_TITLE), description="the sign's heading (default: the sign's id)"),
        "branding": Field(Nullable(Text(MAX_BRANDING)), description="a line under the title"),
        "orientation": Field(Choice(ORIENTATIONS), description="default landscape"),
        "currency": Field(Choice(CURRENCIES), description="ISO 4217, default USD"),
        "locale": Field(Choice(LOCALES), description="how numbers and times are written"),
    },
    "A progressive sign: its pools in order, their names, title and branding, orientation, "
    "currency and locale.",
    notes=(
        "A pool that does not exist, or is retired or not public, is 404 `unknown_pool` "
        "or 409 `pool_state` naming `levels[i].pool`; a pool listed twice is 400.",
    ),
)


def closed_reason(
    pool: PoolState,
    feeding: Iterable[TableRecord],
    operable: bool,
    now: int,
    offline_after_ms: int,
) -> str:
    """Why a sign shows a level's progressive closed to patrons, '' when it is open: the one
    rule (docs/RULES.md §4, "Linked tables"). In order:

    * `controller inoperable`: the controller settles nothing for this pool (its self-check
      failed, or its software is not the approved build);
    * `suspended`: the pool's link is suspended by an operator;
    * `no table online`: no enabled table feeding the pool was heard from (a round or a
      heartbeat) within `offline_after_ms` of `now`.

    What the sign's page decides by itself (the sign process silent, the store down) is the
    browser's: the block at the top of jackpot/api/static/signs/sign.js."""
    if not operable:
        return "controller inoperable"
    if pool.link is LinkState.SUSPENDED:
        return "suspended"
    live = any(
        t.config.enabled and t.last_seen is not None and now - t.last_seen <= offline_after_ms
        for t in feeding
    )
    return "" if live else "no table online"


@dataclass(frozen=True, slots=True)
class Level:
    """One level of a sign: its pool, and the sign's own label for it (None: the pool's
    display name is shown, else its id; D280)."""

    pool: str
    label: str | None = None

    def shown_name(self, pool_name: str) -> str:
        """What the sign calls the level: its own label, the pool's name, or the pool's id."""
        return self.label or pool_name or self.pool


@dataclass(frozen=True, slots=True)
class Sign:
    sign: str
    levels: tuple[Level, ...]
    title: str
    branding: str = ""
    orientation: str = "landscape"
    currency: str = "USD"
    locale: str = "en-US"

    @classmethod
    def from_json(cls, sign: str, raw: Any) -> Sign:
        data = SIGN_REQUEST.check(raw)
        levels = tuple(Level(lv["pool"], lv.get("name")) for lv in data["levels"])
        pools = [lv.pool for lv in levels]
        for i, pool in enumerate(pools):
            if pool in pools[:i]:
                raise LEVEL_ONCE.error(at=f"levels[{i}]")
        return cls(
            sign,
            levels,
            data.get("title", sign),
            data.get("branding") or "",
            data.get("orientation", "landscape"),
            data.get("currency", "USD"),
            data.get("locale", "en-US"),
        )

    @classmethod
    def from_stored(cls, sign: str, data: dict[str, Any]) -> Sign:
        return cls(
            sign,
            tuple(Level(lv["pool"], _label(lv)) for lv in data["levels"]),
            data["title"],
            data["branding"],
            data["orientation"],
            data["currency"],
            data["locale"],
        )

    @property
    def pools(self) -> tuple[str, ...]:
        return tuple(lv.pool for lv in self.levels)

    def to_json(self) -> dict[str, Any]:
        return {
            "sign": self.sign,
            "levels": [{"pool": lv.pool, "name": lv.label} for lv in self.levels],
            "title": self.title,
            "branding": self.branding,
            "orientation": self.orientation,
            "currency": self.currency,
            "locale": self.locale,
        }


def _label(stored: Mapping[str, Any]) -> str | None:
    """A stored level's own label. Signs stored before pools had names (D280) hold the pool's
    id where none was given: that is no label of the sign's own."""
    name = stored.get("name")
    return None if not name or name == stored["pool"] else str(name)


#: each winning outcome as a patron reads it
OUTCOME_WORDS = {
    Outcome.SUITED_FOUR_OF_A_KIND: "Suited 4 of a Kind",
    Outcome.SUITED_DOUBLE_TIE: "Suited Double Tie",
    Outcome.FOUR_OF_A_KIND: "4 of a Kind",
    Outcome.DOUBLE_TIE: "Double Tie",
    Outcome.SUITED_TIE: "Suited Tie",
    Outcome.TIE: "Tie",
}


#: what a sign calls a jackpot won by reaching a level's hidden trigger (its bet's outcome
#: did not win it)
LEVEL_WORDS = {LevelType.MUST_HIT_BY: "Must-Hit-By Jackpot", LevelType.MYSTERY: "Mystery Jackpot"}


def hit_words(hit: Mapping[str, Any]) -> str:
    """A last hit (a payout record) as a sign names it: the hand that won it, or the kind of
    level a trigger won."""
    level = hit.get("level")
    if level:
        return LEVEL_WORDS.get(LevelType(str(level)), str(level))
    outcome = str(hit["outcome"])
    return OUTCOME_WORDS.get(Outcome(outcome), outcome)


def _whole(n: int) -> str:
    return f"{n:,}"


def _percent(bp: int) -> str:
    """Basis points as a percentage, exact: 10000 -> '100%', 1250 -> '12.5%'."""
    whole, rest = divmod(bp, 100)
    return f"{whole}%" if rest == 0 else f"{whole}.{rest:02d}".rstrip("0") + "%"


def _dollars(cents: int) -> str:
    whole, rest = divmod(cents, 100)
    return f"${whole:,}" if rest == 0 else f"${whole:,}.{rest:02d}"


def paytable_words(
    paytable: Paytable, first_pool: str, names: Mapping[str, str], smallest_bet: int = 0
) -> list[dict[str, str]]:
    """The paytable as a patron reads it, best outcome first: each winning outcome with its
    pays in words ("Suited 4 of a Kind" -> "100% of the Grand Jackpot + 1,000 to 1") and
    its envy bonus ("every other player wins $100") and, for a meter pay, the bet it is for
    ("Jackpot pays are for a $5 bet; a smaller bet wins its part"). `names` are the sign's
    level names; a pool the sign does not show is named by its id. `smallest_bet` is the
    smallest progressive wager a table playing it takes (cents): where no smaller bet than a
    line's can be made, the note says only the bet it is for ("... for a $5 bet or more")."""
    out = []
    resolved = paytable.resolved(first_pool)
    for outcome in WINNING_OUTCOMES:
        line = resolved.line(outcome)
        if line is None:
            continue
        pays = _pays_words(line, first_pool, names)
        if not pays:
            continue
        out.append(
            {
                "outcome": OUTCOME_WORDS[outcome],
                "pays": " + ".join(pays),
                "envy": _envy_words(line),
                "qualifying": _qualifying_words(line, smallest_bet) if line.meter_bp else "",
            }
        )
    return out


def _pays_words(line: PayLine, first_pool: str, names: Mapping[str, str]) -> list[str]:
    """A line's pays in words: its share of a jackpot, its odds."""
    pays = []
    if line.meter_bp:
        pool = line.pool or first_pool
        pays.append(f"{_percent(line.meter_bp)} of the {names.get(pool, f'{pool} jackpot')}")
    if line.odds:
        pays.append(f"{_whole(line.odds)} to 1")
    return pays


def _qualifying_words(line: PayLine, smallest_bet: int) -> str:
    """The bet a line's jackpot pay is for, and what a smaller bet wins."""
    bet = _dollars(line.qualifying_wager)
    if smallest_bet >= line.qualifying_wager:  # no table takes a smaller bet
        return f"Jackpot pays are for a {bet} bet or more"
    if line.below_qualifying == PROPORTIONAL:
        return f"Jackpot pays are for a {bet} bet; a smaller bet wins its part"
    return f"Jackpot pays are for a {bet} bet or more; a smaller bet wins none"


def _envy_words(line: PayLine) -> str:
    if line.envy is None:
        return ""
    if line.envy.amount:
        return f"every other player wins {_dollars(line.envy.amount)}"
    return f"every other player wins {_whole(line.envy.multiple)} × their bet"
