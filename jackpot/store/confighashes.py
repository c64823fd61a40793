"""Pools and tables as their hashes hold them: the stored text of a configuration and of a
pool's display name, and the records read back from a hash."""

from __future__ import annotations

import json

from jackpot.domain.config import Layout, PoolConfig, StagedChange, TableConfig, TableRecord
from jackpot.domain.meter import ArmedTrigger, LinkState, PoolState
from jackpot.domain.names import skeletons
from jackpot.domain.paytable import Paytable


def canonical(value: object) -> str:
    """The stored JSON of a configuration: one text per value, so equal configs compare equal."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def name_keys(name: str) -> str:
    """What a pool's display name shares with every name that reads the same (D290): its
    skeletons (jackpot.domain.names: case, compatibility forms and look-alike letters aside)
    with its runs of spaces made one, a line each; '' for no name."""
    if not name:
        return ""
    return "\n".join(sorted(skeletons(" ".join(name.split()))))


def pool_state(pool: str, raw: dict[str, str]) -> PoolState:
    config = PoolConfig.from_stored(raw)
    armed = raw.get("commitment")
    return PoolState(
        pool=pool,
        config=config,
        value_units=int(raw["value"]),
        reserve_units=int(raw["reserve"]),
        reset_initial_units=int(raw["reset_initial_units"]),
        wagered=int(raw["in_cents"]),
        bets=int(raw["bets"]),
        contributions_units=int(raw["contrib_units"]),
        overflow_units=int(raw["overflow_units"]),
        hits=int(raw["hits"]),
        won=int(raw["won_cents"]),
        seed_units=int(raw["seed_units"]),
        seed_in_units=int(raw.get("seed_in_units", "0")),
        seed_returned_units=int(raw.get("seed_returned_units", "0")),
        adjustments_units=int(raw["adjust_units"]),
        voids_units=int(raw.get("void_units", "0")),
        journal_seq=int(raw["seq"]),
        link=LinkState(raw.get("state", LinkState.RUNNING)),
        staged=StagedChange.from_stored(json.loads(raw["staged"])) if raw.get("staged") else None,
        # why the change waiting was refused when it was to take effect (D229), if it was
        staged_refused=raw.get("refused_reason")
        if raw.get("staged") and raw.get("refused") == raw["staged"]
        else None,
        public=raw.get("public", "1") == "1",
        name=raw.get("name", ""),
        # the trigger's commitment and draw only: the trigger and its salt are never read out
        trigger=None
        if armed is None
        else ArmedTrigger(armed, int(raw.get("draw", "0")), int(raw.get("armed_at", "0"))),
    )


def table_record(table: str, raw: dict[str, str]) -> TableRecord:
    data = json.loads(raw["config"])
    config = TableConfig(
        pools=tuple(data["pools"]),
        decks=data["decks"],
        spots=data["spots"],
        min_wager=data["min_wager"],
        max_wager=data["max_wager"],
        layout=Layout(data["profile"]),
        envy_min_wager=data["envy_min_wager"],
        paytable=Paytable.from_json(data["paytable"]),
        enabled=data["enabled"],
        asset=data.get("asset") or "",
        location=data.get("location") or "",
    )
    last_seen = raw.get("last_seen")
    return TableRecord(
        table,
        config,
        raw["version"],
        int(last_seen) if last_seen else None,
        int(raw.get("rounds", 0)),
    )
