"""The floor simulator in-process over the WSGI app: its summary is the controller's truth."""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from flask import Flask

from jackpot.domain.config import PoolConfig, TableConfig
from jackpot.domain.outcomes import Outcome
from table_adapter.cli import main
from table_adapter.cli.summary import readable
from table_adapter.floor.mishaps import Mishaps
from table_adapter.floor.plan import FLOOR_POOL, FloorPlan
from table_adapter.floor.simulator import Floor, FloorOptions
from table_adapter.floor.tally import FloorResult
from table_adapter.game.bets import check_bets
from table_adapter.game.players import Players
from table_adapter.game.profiles import MASSACHUSETTS, SOUTH_DAKOTA, STADIUM, WISCONSIN, get_profile
from table_adapter.game.report import dealt_at
from table_adapter.game.shoe import Shuffler
from table_adapter.game.strategies import WAR, Slow
from table_adapter.link.answers import BetAnswer, JackpotAnswer, RoundAnswer
from table_adapter.link.backoff import Backoff
from table_adapter.link.client import ControllerClient
from table_adapter.link.journal import Counts, Entry, Journal, State
from table_adapter.link.status import LinkSettings
from table_adapter.screens.board import snapshot, status_line
from table_adapter.screens.display import describe, dollars
from table_adapter.screens.wins import WinFeed
from tests.support.api import Api
from tests.support.floorbooks import assert_house_equals_tally
from tests.support.model import MeterModel

FAST = FloorOptions(
    link=LinkSettings(
        grace_seconds=0.5,
        heartbeat_seconds=1.0,
        hold_seconds=0.5,
        answer_wait_seconds=2.0,
        backoff=Backoff(0.01, 0.1),
    ),
    timeout=2.0,
    drain_seconds=10.0,
)


def run_floor(
    app: Flask,
    api: Api,
    plan: FloorPlan,
    path: Path,
    provision: bool = True,
    options: FloorOptions = FAST,
) -> FloorResult:
    if provision:
        api.put_pool(plan.pool_id, **FLOOR_POOL)
        for table in plan.table_ids:
            api.put_table(table, **plan.table_config())
    client = ControllerClient(
        "http://controller", api.keys.table, transport=httpx.WSGITransport(app=app)
    )
    return Floor(plan, "http://controller", api.keys.table, path, options, client=client).run()


def model_of(api: Api, plan: FloorPlan, path: Path) -> MeterModel:
    """Every acknowledged report applied in the controller's order."""
    with Journal(path) as journal:
        bodies = {(e.table, e.round): json.loads(e.body) for e in journal.entries(State.ACKED)}
    settled = [(e["table"], e["round"]) for e in api.journal(pool=None) if e["type"] == "round"]
    assert len(settled) == len(set(settled)) and set(settled) == set(bodies)
    model = MeterModel()
    model.add_pool(plan.pool_id, PoolConfig.from_json(FLOOR_POOL))
    config = TableConfig.from_json(plan.table_config())
    for key in settled:
        model.apply(bodies[key], config)
    return model


@pytest.mark.parametrize(
    ("profile", "strategy"),
    [("wisconsin", "mix"), ("stadium", "war"), ("south_dakota", "surrender")],
)
def test_a_floor_run_is_summarised_exactly_as_the_controller_settled_it(
    app: Flask, api: Api, tmp_path: Path, profile: str, strategy: str
) -> None:
    plan = FloorPlan(
        tables=2,
        rounds=40,
        profile=profile,
        strategy=strategy,
        seed=11,
        pool="main",
        table_prefix="T",
    )
    path = tmp_path / "journal.sqlite"
    result = run_floor(app, api, plan, path)
    s = result.summary()
    assert result.ok and s["rounds"] == 80 and s["acked"] == 80
    assert s["pending"] == s["rejected"] == s["journal_errors"] == 0
    assert set(s["outcomes"]) == {o.value for o in Outcome}
    assert sum(s["outcomes"].values()) == s["side_bets"] > 0

    with Journal(path) as journal:
        entries = journal.entries()
    assert all(e.state is State.ACKED for e in entries) and len(entries) == 80
    wagers = [_wagers(json.loads(e.body)) for e in entries]
    assert s["handle"] == sum(sum(w) for w in wagers)
    assert s["side_bets"] == sum(len(w) for w in wagers)
    answers = [json.loads(e.answer or "") for e in entries]
    bets = [b for a in answers for b in a["spots"]]
    assert s["paid"]["fixed"] == sum(b["pay"] for b in bets)
    assert s["paid"]["jackpot"] == sum(b["jackpot"] for b in bets)
    assert s["paid"]["envy"] == sum(b["envy"] for b in bets)

    meters = api.meters("main")
    expected = model_of(api, plan, path).pools["main"]
    assert s["pools"] == {"main": {"value": meters["value"]}}
    assert (meters["value_units"], meters["reserve_units"], meters["wagered"], meters["hits"]) == (
        expected.value_units,
        expected.reserve_units,
        expected.wagered,
        expected.hits,
    )
    assert meters["wagered"] == s["handle"]
    assert "REJECTED" in readable(s)[-1] and "80 acknowledged" in readable(s)[-1]


@pytest.mark.parametrize(
    ("profile", "shuffler", "keep_standoff"),
    [
        ("wisconsin", "continuous", False),
        ("massachusetts", "batch", False),
        ("stadium", "none", True),
    ],
)
def test_every_option_reaches_the_tables_and_the_run_still_counts_exactly(
    app: Flask, api: Api, tmp_path: Path, profile: str, shuffler: str, keep_standoff: bool
) -> None:
    plan = FloorPlan(
        tables=2,
        rounds=60,
        profile=profile,
        strategy="mix",
        seed=5,
        pool="main",
        table_prefix="T",
        shuffler=shuffler,
        face_up_rate=0.1,
        dealer_change_every=10,
        keep_standoff=keep_standoff,
    )
    result = run_floor(app, api, plan, tmp_path / "journal.sqlite")
    s = result.summary()
    assert result.ok and s["rounds"] == s["acked"] == 120 and s["pending"] == 0
    # face-up cards were found and discarded; some rounds met a second and were void
    assert s["cards"]["discarded"] > 0 and s["void_rounds"] == sum(s["voids"].values()) > 0
    assert set(s["voids"]) == {"face_up_cards"}
    # a new dealer every 10 rounds at each table: at least that many burns beyond the shoes'
    assert s["cards"]["burned"] >= 2 * (60 // 10)
    assert api.meters("main")["wagered"] == s["handle"]
    base = s["base_game"]
    assert base["initial_wagered"] > 0 and base["hold_percent"] != ""
    assert "void (face_up_cards)" in " ".join(readable(s))


def test_rerunning_with_the_same_seed_deals_the_same_cards_under_new_round_ids(
    app: Flask, api: Api, tmp_path: Path
) -> None:
    plan = FloorPlan(tables=1, rounds=10, seed=3, pool="main", table_prefix="T")
    path = tmp_path / "journal.sqlite"
    first = run_floor(app, api, plan, path)
    second = run_floor(app, api, plan, path, provision=False)
    assert first.summary()["outcomes"] == second.summary()["outcomes"]
    assert second.summary()["acked"] == 10 and second.summary()["replayed"] == 0
    with Journal(path) as journal:
        bodies = [json.loads(e.body) for e in journal.entries()]
    assert len({b["round"] for b in bodies}) == 20
    strip = [{k: v for k, v in b.items() if k not in ("round", "dealt_at", "shoe")} for b in bodies]
    assert strip[:10] == strip[10:]


def test_a_backlog_from_an_earlier_run_is_delivered_first(
    app: Flask, api: Api, tmp_path: Path
) -> None:
    plan = FloorPlan(tables=1, rounds=5, seed=4, pool="main", table_prefix="T")
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:  # an earlier run was killed with reports unsent
        for table, n, card in (("T1", 0, "2c"), ("T2", 0, "3d"), ("T1", 1, "4h")):
            body = {
                "table": table,
                "round": f"old-{n}",
                "dealer": {"card": "Kh"},
                "spots": [{"spot": 1, "wager": 500, "card": card}],
            }
            journal.append(table, f"old-{n}", json.dumps(body), n)
    api.put_pool("main", **FLOOR_POOL)
    api.put_table("T2", **plan.table_config())  # a table this run does not deal at
    s = run_floor(app, api, plan, path).summary()
    assert (s["recovered"], s["acked"], s["pending"]) == (3, 8, 0)
    settled = [(e["table"], e["round"]) for e in api.journal(pool=None) if e["type"] == "round"]
    t1 = [r for t, r in settled if t == "T1"]
    assert t1[:2] == ["old-0", "old-1"] and len(t1) == 7
    assert ("T2", "old-0") in settled


def test_an_unprovisioned_table_leaves_its_reports_pending_and_the_run_fails(
    app: Flask, api: Api, tmp_path: Path
) -> None:
    plan = FloorPlan(tables=1, rounds=3, seed=5, pool="main", table_prefix="T")
    api.put_pool("main", **FLOOR_POOL)  # but no table T1
    result = run_floor(app, api, plan, tmp_path / "j.sqlite", provision=False)
    s = result.summary()
    assert not result.ok and s["pending"] == 3 and s["acked"] == 0
    assert s["closed_rounds"] >= 2  # held at once: later rounds take no side wager
    assert result.links[0].state.value == "held"


def test_a_rejected_report_fails_the_run(app: Flask, api: Api, tmp_path: Path) -> None:
    plan = FloorPlan(tables=1, rounds=3, seed=6, pool="main", table_prefix="T")
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        bad = {
            "table": "T1",
            "round": "bad",
            "dealer": {"card": "Qs"},
            "spots": [{"spot": 9, "card": "2c"}],
        }
        journal.append("T1", "bad", json.dumps(bad), 0)
    result = run_floor(app, api, plan, path)
    s = result.summary()
    assert (s["rejected"], s["acked"], s["pending"], s["ok"]) == (1, 3, 0, False)


def test_players_wager_within_the_floor_limits_and_not_while_the_side_bet_is_closed() -> None:
    live = Players("T1", WISCONSIN, 7, WAR, random.Random(1))
    stadium = Players("S1", STADIUM, 7, WAR, random.Random(1))
    for _ in range(200):
        for players in (live, stadium):
            bets = players.bets()
            assert all(b.side == 0 or 100 <= b.side <= 2_500 for b in bets)
            assert len({(b.spot, b.player) for b in bets}) == len(bets)
            assert all(b.side == 0 for b in players.bets(side_bets_open=False))
    assert all(b.player is not None for b in stadium.bets())


def test_the_player_mix_places_every_wager_its_rules_offer_and_no_other() -> None:
    profiles = (WISCONSIN, MASSACHUSETTS, SOUTH_DAKOTA, STADIUM)
    for profile in profiles:
        players = Players("T1", profile, 7, WAR, random.Random(2), slow_share=0.3)
        bets = [b for _ in range(400) for b in players.bets()]
        for b in bets:  # the profile's own check is the judge
            check_bets(profile, 7, [b])
        war_ties = sum(b.war_tie > 0 for b in bets)
        dealer = sum(b.dealer_ante > 0 for b in bets)
        strategies = Counter(type(b.strategy).__name__ for b in bets)
        assert (war_ties > 0) == profile.war_tie_wager, profile.name
        assert (dealer > 0) == profile.dealer_bet, profile.name
        if profile.decision_timer_ms is None:  # a live dealer waits for every answer
            assert set(strategies) == {"Always"}, profile.name
        else:
            assert {"Silent", "Slow"} <= set(strategies), profile.name
            late = [b.strategy for b in bets if isinstance(b.strategy, Slow)]
            assert all(s.after_ms > profile.decision_timer_ms for s in late)


def test_silent_and_slow_players_are_surrendered_by_the_decision_timer(
    app: Flask, api: Api, tmp_path: Path
) -> None:
    plan = FloorPlan(
        tables=1,
        rounds=150,
        profile="stadium",
        seed=8,
        pool="main",
        table_prefix="T",
        slow_players=0.5,
    )
    result = run_floor(app, api, plan, tmp_path / "journal.sqlite")
    s = result.summary()
    assert (s["rejected"], s["quarantined_rounds"], s["pending"]) == (0, [], 0), [
        (x.state, x.last_error) for x in result.links
    ]
    assert result.ok and s["acked"] == 150 and s["base_game"]["timer_surrenders"] > 0
    with pytest.raises(ValueError, match="decision timer"):
        FloorPlan(profile="wisconsin", slow_players=0.5)


def test_the_answer_is_shown_as_who_won_what_envy_included() -> None:
    answer = RoundAnswer(
        table="T1",
        round="r9",
        replayed=False,
        bets=(
            BetAnswer(1, "p-1", "suited_four_of_a_kind", 500, 500_000, 123_456, 0),
            BetAnswer(2, "p-2", "none", 500, 0, 0, 100_000),
            BetAnswer(3, None, "none", 100, 0, 0, 0),
        ),
        jackpots=(JackpotAnswer("jp-1", "main", 1, "p-1", 123_456, "pending"),),
        pools=(("main", 100_000),),
    )
    lines = describe(answer)
    assert lines == [
        "T1 r9: spot 1 (p-1) wins $6,234.56 on $5.00: suited_four_of_a_kind pays $5,000.00, "
        "meter $1,234.56",
        "T1 r9: spot 2 (p-2) wins $1,000.00 on $5.00: envy $1,000.00",
        "T1 r9: JACKPOT $1,234.56 from main to spot 1 (p-1), payout jp-1 pending (hand pay)",
    ]
    assert (dollars(5), dollars(-123_456), dollars(0)) == ("$0.05", "-$1,234.56", "$0.00")


@pytest.mark.parametrize(
    "argv",
    [
        ["--tables", "0"],
        ["--profile", "vegas"],
        ["--controller", "http://x"],
        ["--profile", "stadium", "--decks", "8"],
        ["--strategy", "always"],
        ["--shuffler", "robot"],
        ["--face-up-rate", "1"],
        ["--irregularities", "1.5"],
        ["--dealer-change-every", "-1"],
        ["--keep-standoff"],  # a Stadium rule, at a Wisconsin table
    ],
)
def test_bad_arguments_exit_2(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WAR_FLOOR_KEY", raising=False)
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2


def _wagers(body: dict[str, Any]) -> list[int]:
    out = []
    for spot in body["spots"]:
        if spot.get("wager"):
            out.append(spot["wager"])
        out += [b["wager"] for b in spot.get("bets", [])]
    return out


def test_the_progress_line_shows_rounds_meter_backlog_and_side_bets(
    app: Flask, api: Api, tmp_path: Path
) -> None:
    plan = FloorPlan(tables=2, rounds=5, seed=1, pool="main", table_prefix="T")
    api.put_pool("main", **FLOOR_POOL)
    for table in plan.table_ids:
        api.put_table(table, **plan.table_config())
    client = ControllerClient(
        "http://controller", api.keys.table, transport=httpx.WSGITransport(app=app)
    )
    floor = Floor(plan, "http://controller", "", tmp_path / "j.sqlite", FAST, client=client)
    drawn: list[str] = []
    floor.run(lambda f: drawn.append(status_line(snapshot(f, WinFeed()))), every=0.01)
    text = status_line(replace(snapshot(floor, WinFeed()), elapsed=2.0))
    value = api.pool("main")["value"]
    assert text == f"10/10 rounds 5/s  main {dollars(value)}  backlog 0  side bets open  2 online"
    assert all(len(line) <= 80 for line in drawn)


def test_the_meter_shown_is_the_controllers_newest_not_the_last_answer_to_arrive(
    app: Flask, api: Api, tmp_path: Path
) -> None:
    # Answers to different tables come back on different threads in no order: an answer
    # settled early may arrive last. The meter shown must still be the controller's newest.
    plan = FloorPlan(tables=2, rounds=5, seed=1, pool="main", table_prefix="T")
    path = tmp_path / "j.sqlite"
    run_floor(app, api, plan, path)
    client = ControllerClient(
        "http://controller", api.keys.table, transport=httpx.WSGITransport(app=app)
    )
    first: list[tuple[Entry, RoundAnswer]] = []
    options = replace(FAST, on_answer=lambda e, a: first.append((e, a)))
    floor = Floor(replace(plan, rounds=3), "http://controller", "", path, options, client=client)
    floor.run()
    entry, early = first[0]  # the first answer of the run: an older meter than the last
    assert dict(early.pools)["main"] < api.pool("main")["value"]
    floor.tally.settled(entry, early)  # ... arriving last
    line = status_line(snapshot(floor, WinFeed()))
    assert f"main {dollars(api.pool('main')['value'])}" in line


def test_a_quarantined_report_fails_the_run_and_the_summary_names_it_for_an_operator(
    app: Flask, api: Api, tmp_path: Path
) -> None:
    plan = FloorPlan(tables=1, rounds=3, seed=6, pool="main", table_prefix="T")
    path = tmp_path / "j.sqlite"
    eight_days_ago = time.time_ns() // 1_000_000 - 8 * 24 * 3600 * 1000
    with Journal(path) as journal:
        old = {
            "table": "T1",
            "round": "old",
            "dealer": {"card": "Qs"},
            "spots": [{"spot": 1, "card": "2c"}],
            "dealt_at": dealt_at(eight_days_ago),
        }
        journal.append("T1", "old", json.dumps(old), eight_days_ago)
    result = run_floor(app, api, plan, path)
    s = result.summary()
    assert (s["quarantined"], s["rejected"], s["acked"], s["pending"], s["ok"]) == (
        1,
        0,
        3,
        0,
        False,
    )
    (q,) = s["quarantined_rounds"]
    reason = "dealt before the controller's retention window; needs an operator"
    assert q == {"table": "T1", "round": "old", "seq": 1, "status": 422, "reason": reason}
    lines = readable(s)
    delivery = next(i for i, line in enumerate(lines) if line.startswith("delivery:"))
    assert "0 REJECTED, 1 QUARANTINED, 0 pending" in lines[delivery]
    assert lines[delivery + 1] == f"quarantined: T1 round old (journal seq 1): {reason}"
    with Journal(path) as journal:
        assert journal.counts() == Counts(acked=3, quarantined=1)


@pytest.mark.parametrize(
    ("profile", "shuffler"),
    [("massachusetts", "continuous"), ("stadium", "batch"), ("wisconsin", "batch")],
)
def test_irregularities_and_voids_keep_the_tally_and_the_controllers_books_equal(
    app: Flask, api: Api, tmp_path: Path, profile: str, shuffler: str
) -> None:
    plan = FloorPlan(
        tables=2,
        rounds=40,
        profile=profile,
        strategy="mix",
        seed=8,
        pool="main",
        table_prefix="T",
        shuffler=shuffler,
        face_up_rate=0.02,
        irregularities=0.4,
    )
    path = tmp_path / "journal.sqlite"
    result = run_floor(app, api, plan, path)
    s = result.summary()
    assert result.ok and s["rounds"] == 80 and s["pending"] == 0
    # every mishap the rules name for the table came up, and nothing they do not name
    rules = get_profile(profile)
    staged = Mishaps(rules, Shuffler(shuffler), 0.4, random.Random()).kinds
    assert set(s["irregularities"]) - {"face_up_card", "face_up_cards"} == set(staged)
    assert set(s["irregularities"]) <= set(rules.irregularities)
    with Journal(path) as journal:
        noted = journal.irregularities()
        entries = journal.entries()
    assert Counter(n.kind for n in noted) == Counter(s["irregularities"])
    assert all(n.body["consequence"] for n in noted)

    # the voids the tables asked for wait for a person at the controller, who approves them
    asked = [e for e in entries if e.void_of is not None]
    voided = s["voided_at_controller"]
    in_deal = s["void_rounds"] - s["voids"].get("face_up_cards", 0)
    assert len(asked) == voided["rounds"] == s["voids"].get("malfunction", 0) - in_deal
    for e in asked:
        assert json.loads(e.answer or "")["result"] == "awaiting_approval"
        done = api.client.post(
            f"/v1/rounds/{e.table}/{e.void_of}/void/approve",
            headers=api.keys.header("operator"),
        )
        assert done.status_code == 200, done.get_json()
    if profile == "stadium":
        assert voided["rounds"] > 0 and voided["handle"] > 0

    group = api.meters()["group"]
    house = api.client.get(
        f"/v1/journal?group={group}&limit=5000", headers=api.keys.header("auditor")
    ).get_json()["entries"]
    # every round the tables dealt and reported, every void they asked for, to the cent
    assert_house_equals_tally(house, s)
    assert "irregularities:" in " ".join(readable(s))
