"""The controller refuses a game whose side bet would return 100% or more over the long run:
a table's paytable, a pool's rates or reset (now or staged), a linked group's new game; the
400 names the field and gives the figure, and nothing changes."""

from __future__ import annotations

import copy
import json

import pytest
from redis import Redis

from jackpot.domain.paytable import SEED_PAYTABLE
from jackpot.store.confighashes import canonical
from jackpot.store.keys import Keys
from tests.support.api import Api
from tests.support.checks import assert_error

OPERATOR = "operator"


def generous() -> dict:
    paytable = copy.deepcopy(SEED_PAYTABLE.to_json())
    paytable["tie"] = {"odds": 12}
    return paytable


def test_a_paytable_returning_more_than_it_takes_is_refused(api: Api) -> None:
    api.put_pool()
    api.put_table()
    r = api.client.put("/v1/tables/T1", json={"paytable": generous()},
                       headers=api.keys.header(OPERATOR))  # fmt: skip
    error = assert_error(r, 400, "paytable")
    assert (
        error["code"] == "return_too_high"
        and "% of its wager over the long run" in (error["message"])
    )
    shown = api.client.get("/v1/tables/T1", headers=api.keys.header(OPERATOR)).get_json()
    assert shown["paytable"]["tie"] == {"odds": 5}, "unchanged"
    game = api.client.put("/v1/pools/main/game", json={"paytable": generous(), "reason": "x"},
                          headers=api.keys.header(OPERATOR))  # fmt: skip
    assert assert_error(game, 400, "paytable")["code"] == "return_too_high"


def test_a_pools_terms_that_would_make_its_tables_return_too_much_are_refused(api: Api) -> None:
    api.put_pool()
    api.put_table()
    header = api.keys.header(OPERATOR)
    assert api.client.post("/v1/pools/main/suspend", json={"reason": "change"},
                           headers=header).status_code == 200  # fmt: skip
    # 40% of every wager onto the meter on top of 74% in fixed pays
    r = api.client.put("/v1/pools/main", json={"rate_bp": 4_000}, headers=header)
    error = assert_error(r, 400, "rate_bp")
    assert error["code"] == "return_too_high" and "pool main" in error["message"]
    assert api.meters()["rate_bp"] == 100
    later = {"rate_bp": 4_000, "reason": "later"}
    staged = api.client.post("/v1/pools/main/staged", json=later, headers=header)
    assert assert_error(staged, 400, "rate_bp")["code"] == "return_too_high"
    assert api.meters()["staged"] is None
    # a pool no table feeds is only a pool: its tables are checked when they link to it
    api.put_pool("spare", rate_bp=4_000)


def richer() -> dict:
    """The seed paytable with a double tie at 31 to 1: under 100% with the seed's rates, over
    it with a rate of 2,554 bp onto the meter."""
    paytable = copy.deepcopy(SEED_PAYTABLE.to_json())
    paytable["double_tie"] = {"odds": 31}
    return paytable


def test_a_game_change_is_checked_against_the_staged_terms_too(api: Api) -> None:
    api.put_pool(rate_bp=200)
    api.put_table()
    header = api.keys.header(OPERATOR)
    # the highest rate the seed game accepts, staged for the next suspension
    staged = api.client.post("/v1/pools/main/staged", json={"rate_bp": 2_554, "reason": "x"},
                             headers=header)  # fmt: skip
    assert staged.status_code == 200, staged.get_json()
    game = api.client.put("/v1/pools/main/game", json={"paytable": richer(), "reason": "y"},
                          headers=header)  # fmt: skip
    error = assert_error(game, 400, "paytable")
    assert error["code"] == "return_too_high"
    assert "with the staged change of pool main in force" in error["message"]
    assert "100.48%" in error["message"]
    shown = api.client.get("/v1/tables/T1", headers=header).get_json()
    assert shown["paytable"]["double_tie"] == {"odds": 30}, "unchanged"
    # without the staged change the richer game is fine
    cancel = api.client.post("/v1/pools/main/staged/cancel", json={"reason": "z"}, headers=header)
    assert cancel.status_code == 200
    game = api.client.put("/v1/pools/main/game", json={"paytable": richer(), "reason": "y"},
                          headers=header)  # fmt: skip
    assert game.status_code == 200, game.get_json()
    # and now the rate that would take it past 100% cannot be staged
    staged = api.client.post("/v1/pools/main/staged", json={"rate_bp": 2_554, "reason": "x"},
                             headers=header)  # fmt: skip
    assert assert_error(staged, 400, "rate_bp")["code"] == "return_too_high"


@pytest.mark.main_group  # it writes the main group's table key itself
def test_a_table_is_taken_out_of_play_whatever_its_return(api: Api, redis: Redis) -> None:
    api.put_pool(rate_bp=200)
    api.put_table()
    header = api.keys.header(OPERATOR)
    # a table whose terms return too much, as a store from before the check could hold it
    key = Keys("jackpot").table("T1")
    config = json.loads(redis.hget(key, "config") or "{}")
    config["paytable"] = generous()
    redis.hset(key, "config", canonical(config))
    off = api.client.put("/v1/tables/T1", json={"enabled": False, "reason": "pull it"},
                         headers=header)  # fmt: skip
    assert off.status_code == 200, off.get_json()
    assert off.get_json()["enabled"] is False
    # putting it back into play puts its terms in force: checked (D229)
    on = api.client.put("/v1/tables/T1", json={"enabled": True}, headers=header)
    assert assert_error(on, 400, "paytable")["code"] == "return_too_high"


def test_a_level_smaller_bets_feed_but_cannot_win_is_priced_for_the_bets_that_can(
    api: Api,
) -> None:
    """The lab's $25-only game at a $1-$25 table: 81.43% priced as if every bet were $25,
    144.43% for the $25 bettors when smaller bets bring 90% of the handle (the default)."""
    api.put_pool(rate_bp=400)
    api.put_pool("mhb", reset=10_000, rate_bp=200, reserve_rate_bp=0, cap=50_000,
                 level="must_hit_by", qualifying_wager=2_500)  # fmt: skip
    paytable = copy.deepcopy(SEED_PAYTABLE.to_json())
    paytable["suited_four_of_a_kind"].update(qualifying_wager=2_500, below_qualifying="nothing")
    body = {"pools": ["main", "mhb"], "paytable": paytable, "min_wager": 100, "max_wager": 2_500}
    header = api.keys.header(OPERATOR)
    r = api.client.put("/v1/tables/T1", json=body, headers=header)
    error = assert_error(r, 400, "paytable")
    assert error["code"] == "return_too_high" and "144.42%" in error["message"]
    assert "bets below its qualifying wager bring 90.00% of the handle" in error["message"]
    # a table taking $25 bets only: nothing fed by smaller bets, 81.43%
    r = api.client.put("/v1/tables/T1", json={**body, "min_wager": 2_500}, headers=header)
    assert r.status_code == 201, r.get_json()
    # a table linked to it taking $1 bets brings the smaller bets back
    r = api.client.put("/v1/tables/T2", json=body, headers=header)
    assert assert_error(r, 400, "paytable")["code"] == "return_too_high"
