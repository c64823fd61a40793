"""Linked tables (RULES §4): any layouts, one deck count and paytable, and a linked group's
game changed in one atomic, journaled step."""

from __future__ import annotations

from typing import Any

import pytest
import redis as redis_lib

from jackpot.domain.paytable import SEED_PAYTABLE
from tests.support.api import Api, round_body
from tests.support.checks import assert_error, snapshot

TIE = {"spot": 1, "wager": 500, "card": "Qd"}  # against the dealer's Qs: a tie (5 to 1)


def livelier() -> dict[str, Any]:
    """The seed paytable with the tie paying 6 to 1 instead of 5."""
    paytable = SEED_PAYTABLE.to_json()
    paytable["tie"] = {"odds": 6}
    return paytable


def group(api: Api) -> Api:
    """Pool `main` fed by three tables of the three layouts, and an unlinked pool `other`."""
    api.put_pool("main")
    api.put_pool("other")
    api.put_table("T1", profile="standard")
    api.put_table("T2", profile="south_dakota")
    api.put_table("T3", profile="stadium")
    api.put_table("T9", pools=["other"])
    return api


def change(api: Api, pool: str = "main", **body: Any) -> Any:
    return api.client.put(f"/v1/pools/{pool}/game", json=body, headers=api.keys.header("operator"))


def test_tables_of_every_layout_may_share_a_pool(api: Api) -> None:
    group(api)
    game = api.client.get("/v1/pools/main/game", headers=api.keys.header("auditor")).get_json()
    assert game["tables"] == ["T1", "T2", "T3"]
    assert game["decks"] == 6
    assert game["paytable"] == SEED_PAYTABLE.to_json()


@pytest.mark.main_group  # reads the main group's house journal
def test_a_group_s_game_changes_in_one_step_journaled_once_with_who_and_why(api: Api) -> None:
    group(api)
    assert api.report(round_body("before", spots=[TIE])).get_json()["spots"][0]["pay"] == 2500
    meters = api.meters("main")
    house = api.journal(pool=None)

    r = change(api, paytable=livelier(), decks=8, reason="new tie pay, approved 2026-11")
    assert r.status_code == 200, r.get_json()
    done = r.get_json()
    assert done["status"] == "changed"
    assert done["tables"] == ["T1", "T2", "T3"]
    assert (done["decks"], done["paytable"]) == (8, livelier())

    for table in ("T1", "T2", "T3"):
        config = api.client.get(f"/v1/tables/{table}", headers=api.keys.header("operator"))
        assert (config.get_json()["decks"], config.get_json()["paytable"]) == (8, livelier())
    other = api.client.get("/v1/tables/T9", headers=api.keys.header("operator")).get_json()
    assert (other["decks"], other["paytable"]) == (6, SEED_PAYTABLE.to_json())

    entries = api.journal(pool=None)[len(house) :]
    assert [e["type"] for e in entries] == ["game_changed"]
    entry = entries[0]
    assert entry["reason"] == "new tie pay, approved 2026-11"
    assert entry["who"].startswith("operator:")
    assert entry["pool"] == "main"
    assert entry["tables"] == '["T1","T2","T3"]'
    assert api.meters("main") == meters  # a parameter change never moves money

    # a worker's cached copy of the table is refused by the script: the new pay applies
    assert api.report(round_body("after", spots=[TIE])).get_json()["spots"][0]["pay"] == 3000


def test_the_same_game_again_changes_nothing(api: Api, redis: redis_lib.Redis) -> None:
    group(api)
    assert change(api, paytable=livelier(), reason="first").status_code == 200
    before = snapshot(redis)
    again = change(api, paytable=livelier(), reason="again")
    assert again.status_code == 200
    assert again.get_json()["status"] == "unchanged"
    assert snapshot(redis) == before


def test_a_group_reaches_every_table_linked_through_another_pool(api: Api) -> None:
    # T4 feeds main and side; T5 feeds only side: T5 plays main's game through T4
    paytable = SEED_PAYTABLE.to_json()
    paytable["suited_four_of_a_kind"]["pool"] = "side"
    api.put_pool("main")
    api.put_pool("side")
    api.put_table("T4", pools=["main", "side"], paytable=paytable)
    api.put_table("T5", pools=["side"], paytable=paytable)
    r = change(api, decks=7, reason="seven-deck shoes")
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["tables"] == ["T4", "T5"]
    assert r.get_json()["pools"] == ["main", "side"]


def test_changing_one_linked_table_alone_is_409_naming_what_differs_and_from_whom(
    api: Api, redis: redis_lib.Redis
) -> None:
    group(api)
    before = snapshot(redis)
    r = api.client.put(
        "/v1/tables/T2", json={"paytable": livelier()}, headers=api.keys.header("operator")
    )
    error = assert_error(r, 409, "paytable")
    assert error["code"] == "linked_tables_differ"
    assert "'T1'" in error["message"] and "'main'" in error["message"]
    assert snapshot(redis) == before


def test_a_bad_game_change_is_refused_and_changes_nothing(api: Api, redis: redis_lib.Redis) -> None:
    group(api)
    api.put_pool("empty")
    cases: list[tuple[str, dict[str, Any], int, str | None]] = [
        ("main", {"paytable": livelier()}, 400, "reason"),
        ("main", {"paytable": livelier(), "reason": " "}, 400, "reason"),
        ("main", {"reason": "nothing"}, 400, "paytable"),
        ("main", {"decks": 5, "reason": "five"}, 400, "decks"),
        ("main", {"decks": 6, "reason": "x", "spots": 5}, 400, "spots"),
        (
            "main",
            {"paytable": {**livelier(), "tie": {"odds": -1}}, "reason": "x"},
            400,
            "paytable.tie.odds",
        ),
        ("nope", {"decks": 8, "reason": "x"}, 404, "pool"),
        ("empty", {"decks": 8, "reason": "x"}, 409, "pool"),
    ]
    unfed = SEED_PAYTABLE.to_json()
    unfed["suited_four_of_a_kind"]["pool"] = "other"  # main's tables do not feed `other`
    cases.append(("main", {"paytable": unfed, "reason": "x"}, 400, "paytable"))
    before = snapshot(redis)
    for pool, body, status, field in cases:
        assert_error(change(api, pool, **body), status, field)
    assert snapshot(redis) == before
