"""What a floor deals: how many tables, how many rounds each, under which rules, into which
pool; and what the controller needs to know of each table (its PUT /v1/tables body)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from jackpot.domain.paytable import Paytable
from table_adapter.game.engine import MAX_SPOTS
from table_adapter.game.profiles import Profile, get_profile
from table_adapter.game.shoe import Shuffler
from table_adapter.game.strategies import get_strategy

FLOOR_POOL = {"reset": 100_000, "rate_bp": 500, "reserve_rate_bp": 100}
MIN_WAGER, MAX_WAGER = 100, 2_500
STRATEGIES = ("war", "surrender", "mix")


@dataclass(frozen=True, slots=True)
class FloorPlan:
    """What to deal: how many tables, how many rounds each, under which rules."""

    tables: int = 4
    rounds: int | None = 100  # per table; None: until stopped
    profile: str = "wisconsin"
    decks: int = 6
    strategy: str = "war"
    seed: int | None = None
    rate: float = 0.0  # rounds per second per table; 0: as fast as the answers come
    pool: str | None = None  # default: one pool per game, e.g. `standard-6d`
    table_prefix: str | None = None  # default: e.g. `wisconsin-6d-`
    side_share: float = 0.8  # how often a player takes the progressive side bet
    paytable: Paytable | None = None  # None: the controller's default (the seed paytable)
    shuffler: str = "none"  # none | batch | continuous (table_adapter.game.shoe.Shuffler)
    face_up_rate: float = 0.0  # how often a card is found face up in the shoe
    irregularities: float = 0.0  # the share of rounds with a mishap (floor.mishaps)
    dealer_change_every: int = 0  # a new dealer (and a burn) every N rounds; 0: never
    keep_standoff: bool = False  # Stadium: pushed antes stay on the felt for the next game
    slow_players: float = 0.0  # Stadium: this share of bets answer a tie late or never

    def __post_init__(self) -> None:
        get_profile(self.profile)  # KeyError naming the known ones
        get_strategy(self.strategy)
        self._check_floor()
        self._check_rates()
        self._check_stadium_options()

    def _check_floor(self) -> None:
        """The tables, their rounds, decks and shuffler."""
        if self.tables < 1:
            raise ValueError("a floor has at least one table")
        if self.rounds is not None and self.rounds < 0:
            raise ValueError("rounds must not be negative")
        if self.decks not in get_profile(self.profile).decks:
            raise ValueError(f"{self.profile} deals from {get_profile(self.profile).decks} decks")
        if self.shuffler not in {s.value for s in Shuffler}:
            raise ValueError(f"shuffler is one of {', '.join(s.value for s in Shuffler)}")

    def _check_rates(self) -> None:
        """How often cards turn face up, dealers err or change, players answer late."""
        if not 0.0 <= self.face_up_rate < 1.0:
            raise ValueError("face_up_rate is a probability below 1")
        if not 0.0 <= self.irregularities <= 1.0:
            raise ValueError("irregularities is a share of rounds between 0 and 1")
        if self.dealer_change_every < 0:
            raise ValueError("dealer_change_every must not be negative")
        if not 0.0 <= self.slow_players <= 1.0:
            raise ValueError("slow_players is a share between 0 and 1")

    def _check_stadium_options(self) -> None:
        """The options only the Stadium rules give a meaning."""
        if self.slow_players and get_profile(self.profile).decision_timer_ms is None:
            raise ValueError("slow_players needs a decision timer (the Stadium rules)")
        if self.keep_standoff and not get_profile(self.profile).stadium:
            raise ValueError("keep_standoff is a Stadium rule (rule 8(a))")

    def table_profile(self) -> Profile:
        """The rules each table deals by: the profile, its stand-offs kept if asked."""
        profile = get_profile(self.profile)
        return replace(profile, keep_standoff=True) if self.keep_standoff else profile

    @property
    def layout(self) -> str:
        """The controller's name for the war-deal layout (`standard`, `stadium`, ...)."""
        return get_profile(self.profile).layout.value

    @property
    def pool_id(self) -> str:
        """The pool every table of the floor feeds (linked tables play one game)."""
        return self.pool or f"{self.layout}-{self.decks}d"

    @property
    def table_ids(self) -> list[str]:
        """The floor's table ids."""
        prefix = self.table_prefix or f"{self.profile}-{self.decks}d-"
        return [f"{prefix}{i}" for i in range(1, self.tables + 1)]

    def table_config(self) -> dict[str, Any]:
        """The PUT /v1/tables body the controller needs for each table."""
        config: dict[str, Any] = {
            "pools": [self.pool_id],
            "decks": self.decks,
            "spots": get_profile(self.profile).hands or MAX_SPOTS,
            "min_wager": MIN_WAGER,
            "max_wager": MAX_WAGER,
            "profile": self.layout,
        }
        if self.paytable is not None:
            config["paytable"] = self.paytable.to_json()
        return config
