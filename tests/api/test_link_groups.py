"""Link groups: pools and the tables feeding them, each group's keys under a hash tag of its
own. On the cluster the groups' keys live on masters of their own (none on the main group's),
so these are rounds, payouts, journals and moves across shards; on one server the same API.

The world: pool `main` (main group) fed by T9; pool `east` in group A fed by T1; pool `west`
in group B fed by T2. The table key reports for T1 and T2, the other table key for T9.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
import redis as redis_lib

from jackpot.bootstrap import Services
from jackpot.domain.auth import Role, digest
from jackpot.services.moves import TableMoves
from jackpot.store.apikeys import _copy as copy
from jackpot.store.keys import Keys
from tests.support.api import Api, round_body
from tests.support.checks import refused
from tests.support.stores import Store

pytestmark = pytest.mark.main_group  # about link groups: it makes its own

RESET = 100_000  # cents: the pools' reset (Api.put_pool)


def ace_war(round_id: str, table: str) -> dict[str, Any]:
    """A suited war of aces: the meter's top hit, a jackpot payout."""
    return round_body(
        round_id,
        table,
        dealer="As",
        dealer_war="As",
        spots=[{"spot": 1, "wager": 500, "card": "As", "war": True, "war_card": "As"}],
    )


@pytest.fixture
def groups(store: Store) -> tuple[str, str]:
    a, b = store.groups_apart(2)
    return a, b


@pytest.fixture
def floor(api: Api, groups: tuple[str, str]) -> Api:
    a, b = groups
    api.put_pool()
    api.put_pool("east", group=a)
    api.put_pool("west", group=b)
    api.put_table("T9", pools=["main"])
    api.put_table("T1", pools=["east"])
    api.put_table("T2", pools=["west"])
    return api


def journal(api: Api, query: str) -> list[dict[str, Any]]:
    r = api.client.get(f"/v1/journal?{query}&limit=5000", headers=api.keys.header("auditor"))
    assert r.status_code == 200, r.get_json()
    return list(r.get_json()["entries"])


def move(api: Api, table: str, body: Any) -> Any:
    return api.client.post(
        f"/v1/tables/{table}/move", json=body, headers=api.keys.header("operator")
    )


def put_table(api: Api, table: str, body: Any) -> Any:
    return api.client.put(f"/v1/tables/{table}", json=body, headers=api.keys.header("operator"))


def test_each_group_settles_its_rounds_in_its_own_keys_and_on_its_own_shard(
    floor: Api, store: Store, groups: tuple[str, str]
) -> None:
    api, (a, b) = floor, groups
    for table, round_id in (("T1", "r1"), ("T2", "r1"), ("T1", "r2")):
        r = api.report(round_body(round_id, table))
        assert r.status_code == 200, r.get_json()
    r = api.report(round_body("r1", "T9"), role="other_table")
    assert r.status_code == 200, r.get_json()
    # each pool moved by its own tables' wagers only: 1% of $5 per round
    assert [api.pool(p)["value"] for p in ("main", "east", "west")] == [
        RESET + 5,
        RESET + 10,
        RESET + 5,
    ]
    assert [api.meters(p)["group"] for p in ("main", "east", "west")] == ["main", a, b]
    tables = api.client.get("/v1/tables", headers=api.keys.header("operator")).get_json()
    assert {t["table"]: t["group"] for t in tables["tables"]} == {"T1": a, "T2": b, "T9": "main"}
    # the keys are under each group's tag: on a cluster, on three different masters
    homes = {store.node_of(Keys("jackpot", g).pool(p)) for g, p in ((a, "east"), (b, "west"))}
    homes.add(store.node_of(Keys("jackpot").pool("main")))
    assert len(homes) == (3 if store.cluster is not None else 1)
    # a resend is a replay in its group: nothing moves twice
    again = api.report(round_body("r2", "T1"))
    assert again.status_code == 200 and again.get_json()["replayed"] is True
    assert api.pool("east")["value"] == RESET + 10
    # each group's house journal has its own tables' rounds
    rounds = lambda query: [  # noqa: E731
        (e["table"], e["round"]) for e in journal(api, query) if e["type"] == "round"
    ]
    assert rounds(f"group={a}") == [("T1", "r1"), ("T1", "r2")]
    assert rounds(f"group={b}") == [("T2", "r1")]
    assert rounds("") == [("T9", "r1")]
    assert [e["type"] for e in journal(api, "pool=east")].count("contribution") == 2


def test_payout_ids_name_their_group_and_every_group_is_listed(
    floor: Api, groups: tuple[str, str]
) -> None:
    api, (a, b) = floor, groups
    east = api.report(ace_war("hit-1", "T1")).get_json()["jackpots"][0]["id"]
    west = api.report(ace_war("hit-1", "T2")).get_json()["jackpots"][0]["id"]
    home = api.report(ace_war("hit-1", "T9"), role="other_table").get_json()["jackpots"][0]["id"]
    assert (east, west, home) == (f"{a}:P000001", f"{b}:P000001", "P000001")
    listed = api.client.get("/v1/payouts", headers=api.keys.header("auditor")).get_json()
    assert [p["id"] for p in listed["payouts"]] == [home, west, east]  # newest first
    got = api.client.get(f"/v1/payouts/{east}", headers=api.keys.header("auditor")).get_json()
    assert (got["pool"], got["table"], got["status"]) == ("east", "T1", "pending")
    paid = api.client.post(
        f"/v1/payouts/{east}/confirm",
        json={"witness": "SAM", "slip": "HP-1"},
        headers=api.keys.header("operator"),
    )
    assert paid.status_code == 200 and paid.get_json()["status"] == "paid", paid.get_json()
    assert [e["type"] for e in journal(api, "pool=east")][-1] == "payout_paid"
    unknown = api.client.get("/v1/payouts/zz:P000001", headers=api.keys.header("auditor"))
    assert unknown.status_code == 404


def test_a_table_feeds_the_pools_of_one_group_only(
    floor: Api, redis: redis_lib.Redis, groups: tuple[str, str]
) -> None:
    api, (a, _) = floor, groups
    error = refused(
        redis, lambda: put_table(api, "T3", {"pools": ["east", "west"]}), 400, "pools[1]"
    )
    assert error["code"] == "link_group" and a in error["message"]
    # a table changes group by a move only
    error = refused(redis, lambda: put_table(api, "T1", {"pools": ["west"]}), 409, "pools")
    assert error["code"] == "link_group" and "/move" in error["message"]


def test_a_pool_stays_in_the_group_it_was_made_in(
    floor: Api, redis: redis_lib.Redis, groups: tuple[str, str]
) -> None:
    api, (a, b) = floor, groups
    header = api.keys.header("operator")
    send = lambda: api.client.put(  # noqa: E731
        "/v1/pools/east", json={"group": b, "public": False}, headers=header
    )
    error = refused(redis, send, 409, "group")
    assert error["code"] == "link_group"
    same = api.client.put("/v1/pools/east", json={"public": False}, headers=header)
    assert same.status_code == 200 and same.get_json()["group"] == a, same.get_json()
    bad = lambda: api.client.put(  # noqa: E731
        "/v1/pools/new",
        json={"reset": 1, "rate_bp": 1, "reserve_rate_bp": 0, "group": "A B"},
        headers=header,
    )
    refused(redis, bad, 400, "group")


def test_a_revoked_key_settles_nothing_in_any_group_and_a_new_key_settles_in_every_group(
    floor: Api, services: Services
) -> None:
    api = floor
    assert api.report(round_body("r1", "T1")).status_code == 200
    secret, key = services.credentials.create(Role.TABLE, frozenset({"T1", "T2"}))
    header = {"Authorization": f"Bearer {secret}"}
    for table in ("T1", "T2"):
        r = api.client.post("/v1/rounds", json=round_body("by-new", table), headers=header)
        assert r.status_code == 200, r.get_json()
    assert services.credentials.revoke(key.key_id)
    for table in ("T1", "T2"):
        r = api.client.post("/v1/rounds", json=round_body("after", table), headers=header)
        assert r.status_code == 401, r.get_json()
    assert api.pool("east")["value"] == RESET + 10


def test_a_table_moves_between_groups_with_its_rounds_and_is_journaled_in_both(
    floor: Api,
    store: Store,
    groups: tuple[str, str],
    redis: redis_lib.Redis,
    services: Services,
) -> None:
    api, (a, b) = floor, groups
    for round_id in ("r1", "r2", "r3"):
        assert api.report(round_body(round_id, "T1")).status_code == 200
    body = {"pools": ["west"], "reason": "east link closed for the night"}
    # an enabled table does not move: a round could settle while it does
    error = refused(redis, lambda: move(api, "T1", body), 409, None)
    assert error["code"] == "table_enabled"
    assert put_table(api, "T1", {"enabled": False}).status_code == 200
    r = move(api, "T1", body)
    assert r.status_code == 200, r.get_json()
    moved = r.get_json()
    assert (moved["from"], moved["to"], moved["status"], moved["rounds_copied"]) == (
        a,
        b,
        "moved",
        3,
    )
    assert moved["config"]["pools"] == ["west"] and moved["config"]["enabled"] is False
    # the old group's house journal says it began and left; the new one's that it arrived
    kinds = lambda query: [  # noqa: E731
        e for e in journal(api, query) if e["type"].startswith("table_")
    ]
    left = kinds(f"group={a}")
    assert [e["type"] for e in left][-2:] == ["table_move_started", "table_left"]
    arrived = kinds(f"group={b}")[-1]
    assert arrived["type"] == "table_arrived" and arrived["move"] == moved["move"]
    assert (arrived["from"], arrived["to"], arrived["reason"]) == (a, b, body["reason"])
    # a resend of a round settled before the move is the replay it is, while the table is
    # disabled and once it is enabled again: nothing paid twice
    again = api.report(round_body("r2", "T1"))
    assert again.status_code == 200 and again.get_json()["replayed"] is True, again.get_json()
    fresh = api.report(round_body("r9", "T1"))
    assert fresh.status_code == 409 and fresh.get_json()["error"]["code"] == "table_disabled"
    assert put_table(api, "T1", {"enabled": True}).status_code == 200
    again = api.report(round_body("r2", "T1"))
    assert again.status_code == 200 and again.get_json()["replayed"] is True, again.get_json()
    assert api.pool("west")["value"] == RESET and api.pool("east")["value"] == RESET + 15
    # new rounds feed the new group's pool
    assert api.report(round_body("r4", "T1")).status_code == 200
    assert api.pool("west")["value"] == RESET + 5 and api.pool("east")["value"] == RESET + 15
    got = api.client.get("/v1/rounds/T1/r1", headers=api.keys.header("auditor"))
    assert got.status_code == 200
    # the same request again: it is there already
    assert put_table(api, "T1", {"enabled": False}).status_code == 200
    same = move(api, "T1", body)
    assert same.status_code == 200 and same.get_json()["status"] == "unchanged"
    # the table is gone from the old group's keys
    assert not services.groups.of(a).client.exists(Keys("jackpot", a).table("T1"))
    assert store.node_of(Keys("jackpot", b).table("T1")) == store.node_of(
        Keys("jackpot", b).pool("west")
    )


def test_a_moved_table_settles_none_of_its_old_rounds_again_in_its_new_group(
    floor: Api, groups: tuple[str, str], services: Services
) -> None:
    """Issue 37: the rounds a table settled before a move stay settled once in its new
    group, whatever `dealt_at` a resend carries, after the copies of their records there
    have expired (D225: the move carries the table's filter of forgotten rounds)."""
    api, b = floor, groups[1]
    now = datetime.now(UTC).isoformat(timespec="milliseconds")
    dated = [round_body(r, "T1", dealt_at=now) for r in ("d1", "d2")]
    for body in dated:
        assert api.report(body).status_code == 200
    assert put_table(api, "T1", {"enabled": False}).status_code == 200
    assert move(api, "T1", {"pools": ["west"], "reason": "east closed"}).status_code == 200
    assert put_table(api, "T1", {"enabled": True}).status_code == 200
    target = services.groups.of(b)
    for r in ("d1", "d2"):  # as if their copies' retention had ended
        target.client.delete(target.keys.round("T1", r))
    west = api.pool("west")["value"]
    later = datetime.now(UTC).isoformat(timespec="milliseconds")
    for body in dated:
        again = api.report({**body, "dealt_at": later})
        assert again.status_code == 409, again.get_json()
        assert again.get_json()["error"]["code"] == "round_conflict"
    assert api.pool("west")["value"] == west, "nothing settled twice in the new group"


def test_a_move_cut_short_is_finished_by_the_same_request_and_blocks_any_other(
    floor: Api, services: Services, groups: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    api, (a, b) = floor, groups
    assert api.report(round_body("r1", "T1")).status_code == 200
    assert put_table(api, "T1", {"enabled": False}).status_code == 200
    registry = services.groups.registry
    real = registry.set_table

    def dies(table: str, group: str) -> None:
        raise ConnectionError("the controller died in the middle of the move")

    monkeypatch.setattr(registry, "set_table", dies)
    body = {"pools": ["west"], "reason": "rebalancing"}
    assert move(api, "T1", body).status_code == 500
    monkeypatch.setattr(registry, "set_table", real)
    # while it is under way the table's configuration cannot change, nor another move start
    changed = put_table(api, "T1", {"spots": 5})
    assert changed.status_code == 409 and changed.get_json()["error"]["code"] == "move_under_way"
    other = move(api, "T1", {"pools": ["main"], "reason": "elsewhere"})
    assert other.status_code == 409 and other.get_json()["error"]["code"] == "move_under_way"
    done = move(api, "T1", body)
    assert done.status_code == 200, done.get_json()
    assert (done.get_json()["from"], done.get_json()["to"]) == (a, b)
    assert [e["type"] for e in journal(api, f"group={a}")].count("table_left") == 1
    assert [e["type"] for e in journal(api, f"group={b}")].count("table_arrived") == 1
    assert put_table(api, "T1", {"enabled": True}).status_code == 200
    again = api.report(round_body("r1", "T1"))
    assert again.get_json()["replayed"] is True
    assert api.pool("east")["value"] == RESET + 5 and api.pool("west")["value"] == RESET


def test_a_group_whose_meters_were_changed_behind_its_back_is_inoperable_alone(
    floor: Api, services: Services, store: Store, groups: tuple[str, str]
) -> None:
    api, (_, b) = floor, groups
    assert api.report(round_body("r1", "T2")).status_code == 200
    with store.client() as main:
        client = services.groups.of(b).client
        client.hincrby(Keys("jackpot", b).pool("west"), "value", 10_000)
        assert main.exists(Keys("jackpot").pool("main"))
    health = services.health.run()
    assert not health.operable
    assert any(f"link group {b}" in p.message for p in health.problems), health.problems
    ready = api.client.get("/readyz")
    assert ready.status_code == 503 and f"link group {b}" in ready.get_data(as_text=True)
    refused_round = api.report(round_body("r2", "T2"))
    assert refused_round.status_code == 503, refused_round.get_json()
    assert refused_round.get_json()["error"]["code"] == "controller_inoperable"
    # the other groups settle on
    assert api.report(round_body("r2", "T1")).status_code == 200


def test_reconciliation_and_archiving_cover_every_group(
    floor: Api, services: Services, groups: tuple[str, str]
) -> None:
    api, (a, b) = floor, groups
    for round_id in ("r1", "r2"):
        assert api.report(round_body(round_id, "T1")).status_code == 200
    assert api.report(ace_war("hit", "T2")).status_code == 200
    found = services.audit.reconcile("west", 0, 2**53)
    assert found.balanced and found.rounds == 1 and found.hits == 1
    run = services.archiver.run(trim=False)
    assert not run.problems
    assert run.archived[f"house@{a}"] == len(journal(api, f"group={a}"))
    assert run.archived[f"house@{b}"] == len(journal(api, f"group={b}"))
    assert run.archived["pool/east"] == len(journal(api, "pool=east"))
    assert services.verifier.run().intact
    assert sum(services.archiver.run(trim=False).archived.values()) == 0  # nothing twice


def test_a_move_refused_where_it_goes_is_called_off_and_the_table_may_change_again(
    floor: Api, services: Services, groups: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    api, (a, b) = floor, groups
    header = api.keys.header("operator")
    api.put_pool("spare", group=b)
    assert put_table(api, "T1", {"enabled": False}).status_code == 200
    archive_first = TableMoves._archive_first

    def and_meanwhile(source: Any, table: str) -> None:
        archive_first(source, table)
        # another operator retires the pool the table is moving to, once it is sealed
        retired = api.client.post(
            "/v1/pools/spare/retire",
            json={"id": "r-spare", "to": "west", "reason": "bank closed"},
            headers=header,
        )
        assert retired.status_code == 200, retired.get_json()

    monkeypatch.setattr(TableMoves, "_archive_first", staticmethod(and_meanwhile))
    r = move(api, "T1", {"pools": ["spare"], "reason": "rebalancing"})
    assert r.status_code == 409 and r.get_json()["error"]["code"] == "pool_state", r.get_json()
    monkeypatch.undo()
    kinds = [e["type"] for e in journal(api, f"group={a}") if e["type"].startswith("table_")]
    assert kinds[-2:] == ["table_move_started", "table_move_called_off"]
    assert services.groups.registry.move_of("T1") is None
    # nothing arrived; the table may change again, and move elsewhere
    assert put_table(api, "T1", {"spots": 5}).status_code == 200
    done = move(api, "T1", {"pools": ["west"], "reason": "rebalancing"})
    assert done.status_code == 200 and done.get_json()["to"] == b, done.get_json()


def test_a_copy_of_a_key_read_before_its_revocation_cannot_take_it_back(
    floor: Api, services: Services, groups: tuple[str, str]
) -> None:
    api, (a, _) = floor, groups
    secret, key = services.credentials.create(Role.TABLE, frozenset({"T1"}))
    main, there = services.groups.main, services.groups.of(a)
    stored = Keys("jackpot").api_key(digest(secret))
    header = {"Authorization": f"Bearer {secret}"}
    # the worker knows the key: the round script's copy in the group is what refuses it
    r = api.client.post("/v1/rounds", json=round_body("early", "T1"), headers=header)
    assert r.status_code == 200, r.get_json()
    before = main.client.hgetall(stored)  # a pool's creation in group a reads the key ...
    assert services.credentials.revoke(key.key_id)
    copy(before, there.client, Keys("jackpot", a).api_key(digest(secret)))  # ... writes late
    r = api.client.post("/v1/rounds", json=round_body("late", "T1"), headers=header)
    assert r.status_code == 401, r.get_json()
