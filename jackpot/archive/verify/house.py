"""What the house journal says of the pools' journals: its rounds and voids, the pool entries
operators' steps wrote, and the API keys' lives (D271)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from jackpot.domain.books import HouseRound
from jackpot.domain.poolsteps import KeyLife, bindings


@dataclass(slots=True)
class HouseIndex:
    """The house journal's round and void entries met on a walk, by (table, round), and what
    it says of operators' money steps and of API keys (D271)."""

    rounds: dict[tuple[str, str, str], HouseRound] = field(default_factory=dict)  # and stamp
    voids: set[tuple[str, str, str]] = field(default_factory=set)
    # the pool entries operators' steps wrote, by (pool, seq): (entry hash, step id) (D271)
    bound: dict[tuple[str, int], tuple[str, str]] = field(default_factory=dict)
    keys: dict[str, KeyLife] = field(default_factory=dict)  # by `who`: "role:key id"
    revoked: dict[str, int] = field(default_factory=dict)  # key id -> when

    def feed(self, seq: int, e: dict[str, str]) -> None:
        for pool, pool_seq, entry, step in bindings(e):
            self.bound[(pool, pool_seq)] = (entry, step)
        indexed = _BY_TYPE.get(e.get("type", ""))
        if indexed is not None:
            indexed(self, seq, e)

    def key(self, who: str) -> KeyLife | None:
        """The key `who` names as its events tell it, None if none created it."""
        life = self.keys.get(who)
        revoked = self.revoked.get(who.split(":", 1)[-1])
        return (
            life if life is None or revoked is None else KeyLife(life.role, life.created, revoked)
        )

    def _key_created(self, seq: int, e: dict[str, str]) -> None:
        role = _text(e, "role")
        self.keys[f"{role}:{_text(e, 'key')}"] = KeyLife(role, _units(e, "ts"))

    def _key_revoked(self, seq: int, e: dict[str, str]) -> None:
        self.revoked.setdefault(_text(e, "key"), _units(e, "ts"))

    def _round(self, seq: int, e: dict[str, str]) -> None:
        self.rounds[_round_key(e)] = HouseRound(
            seq,
            _units(e, "wagered"),
            _units(e, "bets"),
            _text(e, "dynamic"),
            _units(e, "ts"),
            _text(e, "result"),
        )

    def _void(self, seq: int, e: dict[str, str]) -> None:
        self.voids.add(_round_key(e))


# what the index keeps of each type of house entry
_BY_TYPE: dict[str, Callable[[HouseIndex, int, dict[str, str]], None]] = {
    "key_created": HouseIndex._key_created,
    "key_revoked": HouseIndex._key_revoked,
    "round": HouseIndex._round,
    "void": HouseIndex._void,
}


def _round_key(e: dict[str, str]) -> tuple[str, str, str]:
    """(table, round id, stamp) of a round or void entry."""
    return _text(e, "table"), _text(e, "round"), _text(e, "ts")


def _text(e: dict[str, str], name: str) -> str:
    return e.get(name) or ""


def _units(e: dict[str, str], name: str) -> int:
    return int(e.get(name) or 0)
