"""Voids land where the money went (issue 37, docs/DECISIONS.md D230): a round voided after
its table moved to other pools, after the pool it fed was retired into another, or after the
pool's terms changed, is reversed in the pools that hold its money now, as if never played:
a retired pool is never seed-funded, and a reset changed since the round is not funded by a
void. Every pool's books balance to the unit throughout, whole or partial voids alike."""

from __future__ import annotations

from typing import Any

import pytest

from jackpot.domain.reconcile import reconcile
from tests.support.api import Api, round_body

# a suited war of aces at spot 1 wins the table's pool; spot 2 loses against the dealer's ace
ACES = {"spot": 1, "wager": 500, "card": "As", "war": True, "war_card": "As"}
LOSER = {"spot": 2, "wager": 2_500, "card": "4c"}


def void(api: Api, round_id: str, body: Any, table: str, role: str = "operator") -> Any:
    return api.client.post(
        f"/v1/rounds/{table}/{round_id}/void", json=body, headers=api.keys.header(role)
    )


def books(api: Api, pool: str) -> tuple[int, int]:
    m = api.meters(pool)
    assert m["invariant_holds"], m
    assert reconcile(pool, api.journal(pool), 0, 2**62).balanced, pool
    return int(m["value_units"]), int(m["reserve_units"])


def hit_round(api: Api, table: str, round_id: str = "r-hit") -> str:
    """A jackpot won at `table` by spot 1, spot 2 losing: its payout id."""
    r = api.report(
        round_body(round_id, table=table, dealer="As", dealer_war="As", spots=[ACES, LOSER])
    )
    assert r.status_code == 200, r.get_json()
    (jackpot,) = r.get_json()["jackpots"]
    return str(jackpot["id"])


def void_all(api: Api, round_id: str, table: str, partial: bool) -> None:
    """Void the round whole, or first the winning spot alone and then the rest."""
    if partial:
        first = void(api, round_id, {"reason": "spot 1 misdealt", "spots": [1]}, table)
        assert first.status_code == 200, first.get_json()
        assert first.get_json()["status"] == "partly_void"
    done = void(api, round_id, {"reason": "shuffler malfunction"}, table)
    assert done.status_code == 200, done.get_json()
    assert done.get_json()["status"] == "void"


def floor(api: Api) -> None:
    """Pool `main` fed by T1 and pool `old` fed by T2, each with a reserve to spare."""
    api.put_pool()
    api.put_pool("old", reset=50_000, rate_bp=300, reserve_rate_bp=150)
    api.put_table()
    api.put_table("T2", pools=["old"])
    wagers = [{"spot": s, "wager": 2_500, "card": "4d"} for s in range(1, 7)]
    for i in range(3):
        assert api.report(round_body(f"m{i}", spots=wagers)).status_code == 200
        assert api.report(round_body(f"o{i}", table="T2", spots=wagers)).status_code == 200


def void_entries(api: Api, pool: str) -> list[dict[str, Any]]:
    return [e for e in api.journal(pool) if e["type"] == "void"]


@pytest.mark.parametrize("partial", [False, True], ids=["whole", "partial"])
def test_a_void_after_the_pool_was_retired_lands_in_the_pool_that_took_its_balance(
    api: Api, partial: bool
) -> None:
    floor(api)
    old_before = books(api, "old")
    payout = hit_round(api, "T2")
    api.put_table("T2", pools=["main"])  # the table moves ...
    main_before = books(api, "main")
    retired = api.client.post(
        "/v1/pools/old/retire",
        json={"id": "retire-old", "to": "main", "reason": "bank re-themed"},
        headers=api.keys.header("operator"),
    )  # ... and its old pool is retired into main
    assert retired.status_code == 200, retired.get_json()
    seed_before = api.meters("old")["seed_funding_units"]

    void_all(api, "r-hit", "T2", partial)

    old = api.meters("old")
    assert (old["state"], old["value_units"], old["reserve_units"]) == ("retired", 0, 0)
    assert old["seed_funding_units"] == seed_before and not void_entries(api, "old")
    assert books(api, "old") == (0, 0), "a retired pool is never refilled from house seed"
    # main holds what it would hold had the round never been played: old's balance before it
    expected = (main_before[0] + old_before[0], main_before[1] + old_before[1])
    assert books(api, "main") == expected
    entries = void_entries(api, "main")
    assert len(entries) == (2 if partial else 1)
    assert {e["fed_pool"] for e in entries} == {"old"} and all(
        int(e["topup_seed_units"]) == 0 for e in entries
    )
    got = api.client.get(f"/v1/payouts/{payout}", headers=api.keys.header("auditor")).get_json()
    assert got["status"] == "void"
    # a retry changes nothing
    again = void(api, "r-hit", {"reason": "again"}, "T2")
    assert again.status_code == 200 and again.get_json()["result"] == "unchanged"
    assert books(api, "main") == expected and books(api, "old") == (0, 0)


@pytest.mark.parametrize("partial", [False, True], ids=["whole", "partial"])
def test_a_void_after_the_table_moved_lands_in_the_pool_the_round_fed(
    api: Api, partial: bool
) -> None:
    floor(api)
    old_before = books(api, "old")
    hit_round(api, "T2")
    api.put_table("T2", pools=["main"])
    main_before = books(api, "main")
    void_all(api, "r-hit", "T2", partial)
    assert books(api, "old") == old_before, "the pool the round fed, as if never played"
    assert books(api, "main") == main_before, "the table's new pool is not touched"
    assert not void_entries(api, "main")


@pytest.mark.parametrize("partial", [False, True], ids=["whole", "partial"])
def test_a_void_after_a_reset_change_does_not_fund_the_new_reset(api: Api, partial: bool) -> None:
    api.put_pool()
    api.put_table()
    wagers = [{"spot": s, "wager": 2_500, "card": "4d"} for s in range(1, 7)]
    assert api.report(round_body("r0", spots=wagers)).status_code == 200
    before = books(api, "main")
    assert before[0] < 103_889 * 10_000
    seed = api.meters()["seed_funding_units"]
    hit_round(api, "T1")
    api.put_pool(reset=103_889)  # raised after the round: a reset change moves no money
    void_all(api, "r-hit", "T1", partial)
    assert books(api, "main") == before, "as if never played: the meter below its new reset"
    # the hit's seed given back, none drawn for the new reset: the house's seed as before it
    # (seed funding is net of the seed voids give back, D251)
    assert api.meters()["seed_funding_units"] == seed
    assert all(int(e["topup_seed_units"]) == 0 for e in void_entries(api, "main"))


def retire_old(api: Api) -> None:
    r = api.client.post(
        "/v1/pools/old/retire",
        json={"id": "retire-old", "to": "main", "reason": "bank re-themed"},
        headers=api.keys.header("operator"),
    )
    assert r.status_code == 200, r.get_json()


def test_a_round_that_fed_both_pools_lands_once_in_the_one_left(api: Api) -> None:
    """The round fed `old` and `main`; `old` was retired into `main`: both reversals land in
    `main`, one after the other, and its books come out as if the round was never played."""
    floor(api)
    api.put_table("T2", pools=["main", "old"])  # main first: T1's game and paytable
    old_before, main_before = books(api, "old"), books(api, "main")
    hit_round(api, "T2")
    api.put_table("T2", pools=["main"])
    retire_old(api)
    void_all(api, "r-hit", "T2", partial=False)
    expected = (main_before[0] + old_before[0], main_before[1] + old_before[1])
    assert books(api, "main") == expected and books(api, "old") == (0, 0)
    assert sorted(e["fed_pool"] for e in void_entries(api, "main")) == ["main", "old"]


def test_a_void_held_for_approval_lands_where_the_money_is_when_approved(
    api: Api,
) -> None:
    floor(api)
    old_before = books(api, "old")
    hit_round(api, "T2")
    api.put_table("T2", pools=["main"])
    asked = void(api, "r-hit", {"reason": "no card dealt"}, "T2", role="table")
    assert asked.status_code == 202, asked.get_json()
    main_before = books(api, "main")
    retire_old(api)  # retired while the void waits for its second person
    done = api.client.post("/v1/rounds/T2/r-hit/void/approve", headers=api.keys.header("operator"))
    assert done.status_code == 200, done.get_json()
    expected = (main_before[0] + old_before[0], main_before[1] + old_before[1])
    assert books(api, "main") == expected and books(api, "old") == (0, 0)
