"""The Lua scripts, loaded from lua/*.lua and registered once per client."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

from redis import Redis
from redis.commands.core import Script


def _read(name: str) -> str:
    return resources.files("jackpot.store").joinpath("lua", f"{name}.lua").read_text()


# scripts that stamp time get the shared controller clock put before them
CLOCKED = frozenset({"put_pool", "put_table", "payout_status", "adjust_pool"})


def _source(name: str) -> str:
    return (_read("clock") + "\n" if name in CLOCKED else "") + _read(name)


@dataclass(frozen=True, slots=True)
class Scripts:
    settle_round: Script
    put_pool: Script
    put_table: Script
    payout_status: Script
    adjust_pool: Script

    @classmethod
    def register(cls, client: Redis) -> Scripts:
        return cls(**{name: client.register_script(_source(name)) for name in cls.__slots__})
