"""An operator's money step is held to a second record the same step writes (issue 39, the
examiner's item 2; docs/DECISIONS.md D271): an `adjustment` appended to a pool journal with
redis-cli, hashed right, with the pool's reserve, adjust_units, seq and head set to match,
is in neither the adjustments record the API's step writes nor the house journal, and both
verify modes find it; adjustments and a retirement made through the API verify intact."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from jackpot.domain.chain import entry_hash
from tests.support.archive_world import ARCHIVES, World
from tests.support.open_day import MODES, open_day, verify
from tests.support.rechain import Entry, forge


@pytest.fixture(params=ARCHIVES)
def world(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[World]:
    yield from open_day(request, tmp_path)


def operator_who(w: World) -> str:
    """A real operator key, as a step's `who` names it."""
    created = [e for e in w.api.journal(None) if e["type"] == "key_created"]
    return next(f"operator:{e['key']}" for e in created if e["role"] == "operator")


def adjusted(
    w: World, pool: str, target: str, units: int, step: str, who: str | None = None
) -> None:
    """The examiner's forgery: an adjustment entry appended to `pool`'s journal, its balances
    moved by `units` on `target`, chain, end and counters made to match."""
    who = who or operator_who(w)

    def add(journal: list[Entry]) -> list[Entry]:
        last = next(e for e in reversed(journal) if "value_units" in e)
        value, reserve = int(last["value_units"]), int(last.get("reserve_units") or 0)
        if target == "visible":
            value += units
        else:
            reserve += units
        entry = {
            "type": "adjustment",
            "ts": str(max(int(e.get("ts") or 0) for e in journal) + 1),
            "who": who,
            "adjustment": step,
            "target": target,
            "amount_units": str(units),
            "reason": "count correction",
            "value_units": str(value),
            "reserve_units": str(reserve),
        }
        return [*journal, entry]

    forge(w, pool, add)


@pytest.fixture
def side(world: World) -> Iterator[World]:
    """A second pool, made and adjusted once through the API: the house journal binds the
    operators' steps from then on."""
    world.api.put_pool("side", reset=50_000, rate_bp=300, reserve_rate_bp=150)
    r = world.api.client.post(
        "/v1/pools/side/adjustments",
        json={"id": "real-1", "amount": 25, "target": "reserve", "reason": "float"},
        headers=world.api.keys.header("operator"),
    )
    assert r.status_code in (200, 201), r.get_json()
    yield world


FORGERIES: list[tuple[str, Callable[[World], None]]] = [
    ("-100,000 units from main's reserve", lambda w: adjusted(w, "main", "reserve", -100_000,
                                                              "adj-x1")),
    ("a zero-money adjustment to side", lambda w: adjusted(w, "side", "visible", 0, "adj-x2")),
]  # fmt: skip


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("name", "tamper"), FORGERIES, ids=[n for n, _ in FORGERIES])
def test_an_adjustment_forged_with_redis_cli_is_found(
    side: World, mode: str, name: str, tamper: Callable[[World], None]
) -> None:
    assert verify(side, mode) == []
    tamper(side)
    assert side.api.meters()["invariant_holds"] is True, "the meters do not see it"
    found = verify(side, mode)
    assert any("not in the adjustments record" in f for f in found), found
    assert any("the house journal holds no entry of this step" in f for f in found), found


@pytest.mark.parametrize("mode", MODES)
def test_a_forged_adjustment_put_in_the_adjustments_record_too_is_found(
    side: World, mode: str
) -> None:
    """The forger writes the idempotency record as well: the house journal still holds no
    entry of the step (the house chain, checkpointed, binds it)."""
    adjusted(side, "main", "reserve", -100_000, "adj-x3")
    side.redis.hset(side.services.groups.main.keys.adjustments, "adj-x3", "0" * 64)
    found = verify(side, mode)
    assert not any("not in the adjustments record" in f for f in found), found
    assert any("adjustment adj-x3: the house journal holds no entry" in f for f in found), found


@pytest.mark.parametrize("mode", MODES)
def test_a_forged_adjustment_before_any_real_one_is_found(
    world: World,
    mode: str,
) -> None:
    """The examiner's second pass: on a controller where no operator had adjusted anything,
    the rule began at the first binding it met, so a forged step (its record written too)
    passed both modes, and every checkpoint after signed it. Every step is bound now."""
    assert verify(world, mode) == []
    adjusted(world, "main", "reserve", -3_000_000, "adj-first")
    world.redis.hset(world.services.groups.main.keys.adjustments, "adj-first", "0" * 64)
    found = verify(world, mode)
    assert any("adjustment adj-first: the house journal holds no entry" in f for f in found), found


def test_adjustments_and_a_retirement_through_the_api_are_bound(
    side: World, tmp_path: Path
) -> None:
    """Each pool adjustment and transfer entry has the house entry its step wrote, naming
    its pool, seq and hash."""
    w, operator = side, side.api.keys.header("operator")
    r = w.api.client.post(
        "/v1/pools/side/retire",
        json={"id": "retire-side", "to": "main", "reason": "re-themed"},
        headers=operator,
    )
    assert r.status_code == 200, r.get_json()
    house = {e["type"] for e in w.api.journal(None)}
    assert {"pool_adjustment", "pool_transfer"} <= house, house
    assert verify(w, "whole") == [] and verify(w, "since today") == []


def bound_in_the_house(w: World, pool: str, step: str, who: str) -> None:
    """The forger binds his pool entry in the house journal too (Redis's tail rehashed on,
    the house's end moved) and writes the adjustments record."""
    keys = w.services.groups.main.keys
    seq, head = w.redis.hmget(keys.pool(pool), "seq", "head")
    house_seq, house_head = w.redis.hmget(keys.counters, "house_seq", "house_head")
    fields = [("type", "pool_adjustment"), ("ts", str(w.clock())), ("who", who), ("pool", pool),
              ("adjustment", step), ("target", "reserve"), ("amount_units", "-100000"),
              ("pool_seq", str(seq)), ("pool_entry", str(head))]  # fmt: skip
    at = int(house_seq) + 1
    w.redis.xadd(keys.journal, {"prev": house_head, **dict(fields)}, id=f"{at}-0")
    end = {"house_seq": str(at), "house_head": entry_hash(house_head, at, fields)}
    w.redis.hset(keys.counters, mapping=end)
    w.redis.hset(keys.adjustments, step, "0" * 64)


@pytest.mark.parametrize("mode", MODES)
def test_a_forged_adjustment_bound_in_the_house_by_an_auditor_key_is_found(
    side: World, mode: str
) -> None:
    """Record and house entry forged too: the `who` is a real key, but an auditor's."""
    created = [e for e in side.api.journal(None) if e["type"] == "key_created"]
    auditor = next(f"auditor:{e['key']}" for e in created if e["role"] == "auditor")
    adjusted(side, "main", "reserve", -100_000, "adj-x4", who=auditor)
    bound_in_the_house(side, "main", "adj-x4", auditor)
    found = verify(side, mode)
    assert [f for f in found if "adj-x4" in f] == [
        f"pool/main seq {side.redis.hget(side.services.groups.main.keys.pool('main'), 'seq')}: "
        f"adjustment adj-x4: made by {auditor!r}, not an operator's key in force then"
    ], found
