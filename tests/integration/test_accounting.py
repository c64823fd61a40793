"""Gaming-day accounting against a real redis-server and a SQLite or PostgreSQL archive: a
closed day's report matches what the controller answered round by round, balances to the
unit, is immutable and bound to the journal, is served as JSON and CSV, and a day not over,
not closed or unknown is a 4xx."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy

from jackpot.bootstrap import bootstrap
from jackpot.conflicts import BrokenChainError, DayBoundsError
from jackpot.domain.dayfiles import FILES, TOTAL, Kind, dollars, numbers
from jackpot.domain.meter import UNITS_PER_CENT
from jackpot.domain.triggers import commitment
from jackpot.services.dayclose import SECTIONS
from jackpot.settings import Settings
from jackpot.store.keys import Keys as StoreKeys
from tests.support.accounting_day import ZONE, get, play, today
from tests.support.api import round_body
from tests.support.archive_world import ARCHIVES, World, dealt, world_on
from tests.support.checks import HAND_PAY
from tests.support.redis_server import RedisServer
from tests.support.tamper import edit_round, set_round, superuser


@pytest.fixture(params=ARCHIVES)
def world(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[World]:
    with world_on(request, tmp_path, gaming_day_start="06:00", time_zone=ZONE) as w:
        yield w


def test_a_closed_day_is_what_the_tables_were_answered(world: World) -> None:
    w = world
    before = w.api.meters()
    answers = play(w)
    [jackpot] = [jp for a in answers for jp in a["jackpots"]]
    confirmed = w.api.client.post(
        f"/v1/payouts/{jackpot['id']}/confirm", json=HAND_PAY, headers=w.api.keys.header("operator")
    )
    assert confirmed.status_code == 200, confirmed.get_json()
    after = w.api.meters()
    day = today(w)

    refused = get(w, f"/v1/accounting/days/{day}")
    assert refused.status_code == 409
    assert refused.get_json()["error"]["code"] == "day_not_over"

    w.clock.pass_days(2)
    report = w.services.accounting.close(day)
    assert report["balanced"] is True
    assert report["time_zone"] == ZONE and report["start"].endswith(("-05:00", "-04:00"))

    [pool] = report["pools"]
    units = lambda name: pool[f"{name}_cents"] * UNITS_PER_CENT + pool[f"{name}_subcent_units"]  # noqa: E731
    assert units("closing_meter") == after["value_units"]
    assert units("closing_reserve") == after["reserve_units"]
    assert units("initial_seed") == before["value_units"] + before["reserve_units"]
    assert pool["jackpots_count"] == 1 and pool["jackpots_cents"] == jackpot["amount"]
    assert pool["unpaid_jackpots_count"] == 0
    assert units("liability") == after["value_units"] + after["reserve_units"]

    [table] = report["tables"]
    spots = [s for a in answers for s in a["spots"]]
    assert table["rounds"] == 4 and table["side_bets"] == len(spots)
    assert table["handle_cents"] == sum(s["wager"] for s in spots)
    assert table["fixed_pays_cents"] == sum(s["pay"] for s in spots)
    assert table["envy_pays_cents"] == sum(s["envy"] for s in spots)
    assert table["jackpot_pays_cents"] == jackpot["amount"]
    assert table["win_cents"] == table["handle_cents"] - sum(
        s["pay"] + s["envy"] + s["jackpot"] for s in spots
    )
    assert table["outcome_suited_four_of_a_kind"] == 1 and table["outcome_tie"] == 1

    [hit] = report["hits"]
    assert (hit["payout"], hit["table"], hit["round"], hit["amount_cents"]) == (
        jackpot["id"],
        "T1",
        "d3",
        jackpot["amount"],
    )
    assert hit["status_at_close"] == "paid" and hit["verified_by"]

    # served as recorded, and closing again changes nothing
    served = get(w, f"/v1/accounting/days/{day}")
    # (beside it, the checkpoint covering the day: none signed here, D257)
    assert served.status_code == 200
    assert served.get_json() == {**numbers(report), "checkpoint": None}
    assert served.get_json()["tables"][0]["hold_percent"] == float(table["hold_percent"])
    assert w.services.accounting.close(day) == report
    listed = get(w, "/v1/accounting/days").get_json()["days"]
    assert [d["day"] for d in listed] == [day.isoformat()]

    hits_csv = get(w, f"/v1/accounting/days/{day}/hits.csv").get_data(as_text=True)
    [row, _] = list(csv.DictReader(io.StringIO(hits_csv)))
    assert row["player"] == "'-cmd", "a formula is exported as text"
    tables_csv = get(w, f"/v1/accounting/days/{day}/tables.csv").get_data(as_text=True)
    [table_row, _] = list(csv.DictReader(io.StringIO(tables_csv)))
    assert table_row["handle_cents"] == str(table["handle_cents"])
    # the jackpot made the house lose the day: a negative hold, written as the number it is
    assert table["hold_percent"].startswith("-")
    assert table_row["hold_percent"] == table["hold_percent"]
    assert get(w, f"/v1/accounting/days/{day}/other.csv").status_code == 404


def test_an_unpaid_jackpot_is_a_liability_until_the_day_it_is_paid(world: World) -> None:
    w = world
    answers = play(w)
    [jackpot] = [jp for a in answers for jp in a["jackpots"]]
    first = today(w)
    w.clock.pass_days(2)
    report = w.services.accounting.close(first)
    [pool] = report["pools"]
    assert (pool["unpaid_jackpots_count"], pool["unpaid_jackpots_cents"]) == (
        1,
        jackpot["amount"],
    )
    assert report["hits"][0]["status_at_close"] == "pending"
    assert report["unpaid_at_close"]["main"] == {jackpot["id"]: jackpot["amount"]}
    # the next (empty) day carries it over
    report2 = w.services.accounting.close(first + timedelta(days=1))
    assert report2["pools"][0]["unpaid_jackpots_cents"] == jackpot["amount"]
    assert report2["pools"][0]["opening_meter_cents"] == pool["closing_meter_cents"]


def test_days_not_over_not_closed_or_unknown_are_clear_4xx(world: World) -> None:
    w = world
    play(w)
    day = today(w)
    for path, status, code in [
        (f"/v1/accounting/days/{day}", 409, "day_not_over"),
        (f"/v1/accounting/days/{day + timedelta(days=30)}", 409, "day_not_over"),
        ("/v1/accounting/days/2026-13-01", 400, "invalid"),
        ("/v1/accounting/days/yesterday", 400, "invalid"),
        (f"/v1/accounting/days/{day}?format=csv", 400, "unknown_parameter"),
    ]:
        r = get(w, path)
        assert r.status_code == status, (path, r.get_json())
        assert r.get_json()["error"]["code"] == code, path
    w.clock.pass_days(2)
    not_closed = get(w, f"/v1/accounting/days/{day}")
    assert not_closed.status_code == 409
    assert not_closed.get_json()["error"]["code"] == "day_not_closed"
    unknown = get(w, "/v1/accounting/days/2001-01-01")
    assert unknown.status_code == 404
    assert unknown.get_json()["error"]["code"] == "unknown_day"


def test_the_schedule_closes_every_day_that_is_over_once(world: World) -> None:
    w = world
    play(w)
    first = today(w)
    assert w.services.accounting.close_due() == []
    w.clock.pass_days(3)
    closed = w.services.accounting.close_due()
    assert closed == [(first + timedelta(days=i)).isoformat() for i in range(len(closed))]
    assert len(closed) in (2, 3)  # the day now falls in may or may not be over
    assert w.services.accounting.close_due() == []
    # the closed days' heads stay verifiable
    done = w.services.verifier.run()
    assert done.intact and done.days == len(closed)


def test_a_day_that_would_overlap_a_closed_one_is_refused_naming_both(
    world: World, redis_server: RedisServer, tmp_path: Path
) -> None:
    """The controller's gaming day edited behind its back (07:00 instead of 06:00, where no
    command would change it after a close): the next day would overlap the closed one, and
    its close is refused, naming both; by the closed days' definition it follows on."""
    w = world
    play(w)
    first = today(w)
    # three days on: the next day is over under either start, whatever the time of day
    w.clock.pass_days(3)
    w.services.accounting.close(first)
    w.redis.set(StoreKeys().gaming_day, json.dumps({"start": "07:00", "zone": ZONE}))
    told_nothing = Settings(
        data_dir=tmp_path / "var",
        key_cache_seconds=0.0,
        gaming_day_stated=frozenset(),
        archive_url=w.services.archive.engine.url.render_as_string(hide_password=False),
    )
    late = bootstrap(told_nothing, redis_server.url, w.clock)
    try:
        with pytest.raises(DayBoundsError) as refused:
            late.accounting.close(first + timedelta(days=1))
        message = refused.value.message
        assert f"gaming day {first + timedelta(days=1)} would run" in message
        assert f"the closed day {first} ran" in message
        assert "T07:00:00.000-" in message and "T06:00:00.000-" in message
        assert refused.value.status == 409 and refused.value.field == "day"
        closed = w.services.accounting.close(first + timedelta(days=1))
        assert closed["start"] == w.services.accounting.statement(first)["end"]
    finally:
        late.close()


def test_a_later_days_void_is_a_correction_of_that_day_and_both_balance(world: World) -> None:
    """A round of day 1 voided on day 2: day 1 stands as played (its jackpot still owed at
    its close), day 2 shows the void in columns of its own, nets it out of the win, gives the
    jackpot back to the meter, and both days balance to the unit."""
    w = world
    answers = play(w)
    [jackpot] = [jp for a in answers for jp in a["jackpots"]]
    d3 = answers[2]
    day1 = today(w)
    w.clock.pass_days(1)
    # the controller's clock (the store's, never earlier than one it gave) is in day 2 now
    w.redis.hset(StoreKeys().counters, "clock", str(w.clock()))
    voided = w.api.client.post(
        "/v1/rounds/T1/d3/void",
        json={"reason": "second face-up card"},
        headers=w.api.keys.header("operator"),
    )
    assert voided.status_code == 200, voided.get_json()
    w.clock.pass_days(2)
    first = w.services.accounting.close(day1)
    second = w.services.accounting.close(day1 + timedelta(days=1))
    assert first["balanced"] is True and second["balanced"] is True

    [table1] = first["tables"]
    assert table1["rounds"] == 4 and table1["voided_handle_cents"] == 0
    assert first["pools"][0]["unpaid_jackpots_count"] == 1
    [table2] = second["tables"]
    handle = sum(s["wager"] for s in d3["spots"])
    pays = sum(s["pay"] + s["envy"] for s in d3["spots"])
    assert (table2["rounds"], table2["handle_cents"]) == (0, 0)
    assert (table2["voided_rounds"], table2["voided_bets"]) == (1, len(d3["spots"]))
    assert table2["voided_handle_cents"] == handle
    assert table2["voided_fixed_pays_cents"] + table2["voided_envy_pays_cents"] == pays
    assert table2["voided_jackpot_pays_cents"] == jackpot["amount"]
    assert table2["win_cents"] == -(handle - pays - jackpot["amount"])
    [pool2] = second["pools"]
    # owed at day 2's open, back on the meter and no longer owed (D278)
    assert pool2["owed_at_open_cents"] == jackpot["amount"]
    assert pool2["returned_jackpots_count"] == pool2["voided_jackpots_count"] == 1
    assert pool2["returned_jackpots_cents"] == jackpot["amount"]
    assert pool2["voided_jackpots_cents"] == jackpot["amount"]
    assert pool2["unpaid_jackpots_count"] == 0
    [void] = second["voids"]
    assert (void["round"], void["jackpots"], void["reason"]) == ("d3", 1, "second face-up card")
    units = pool2["voided_contributions_cents"] * UNITS_PER_CENT
    assert units + pool2["voided_contributions_subcent_units"] == handle * 120
    csv_rows = get(w, f"/v1/accounting/days/{day1 + timedelta(days=1)}/tables.csv")
    [row, _] = list(csv.DictReader(io.StringIO(csv_rows.get_data(as_text=True))))
    assert row["voided_handle_cents"] == str(handle)


def tell_counts(w: World, answers: list[dict[str, Any]]) -> tuple[dict[str, Any], Any]:
    """T1 sends its own counts of what it was answered: (what it told, the answer)."""
    spots = [s for a in answers for s in a["spots"]]
    told = {
        "day": answers[0]["gaming_day"],
        "rounds": len(answers),
        "side_bets": len(spots),
        "handle": sum(s["wager"] for s in spots),
        "fixed": sum(s["pay"] for s in spots),
        "envy": sum(s["envy"] for s in spots),
        "jackpot": sum(s["jackpot"] for s in spots),
        "voids": 0,
        "through": max(a["settled_at"] for a in answers),
    }
    sent = w.api.client.post(
        "/v1/tables/T1/counts", json={"days": [told]}, headers=w.api.keys.header("table")
    )
    assert sent.status_code == 200, sent.get_json()
    return told, sent.get_json()


def test_the_day_shows_each_tables_own_counts_against_the_controllers(world: World) -> None:
    w = world
    told, answer = tell_counts(w, play(w))
    assert answer["days"][0]["matches"] is None, "not compared yet"
    day = today(w)
    w.clock.pass_days(2)
    report = w.services.accounting.close(day)
    [row] = report["table_counts"]
    assert row["table"] == "T1" and row["matches"] is True
    assert row["table_rounds"] == row["controller_rounds"] == 4
    assert row["table_handle"] == row["controller_handle"] == told["handle"]
    served = get(w, f"/v1/accounting/days/{day}/table_counts.csv").get_data(as_text=True)
    [csv_row] = list(csv.DictReader(io.StringIO(served)))
    assert (csv_row["table"], csv_row["matches"], csv_row["table_rounds"]) == ("T1", "true", "4")
    # as of the time both sides counted to: the table's last answered round (D278's layout)
    through = w.services.days().iso(told["through"])
    assert row["counted_through"] == csv_row["counted_through"] == through


def test_the_register_shows_who_verified_apart_from_who_disputed(world: World) -> None:
    w = world
    answers = play(w)
    [jackpot] = [jp for a in answers for jp in a["jackpots"]]
    disputed = w.api.client.post(
        f"/v1/payouts/{jackpot['id']}/dispute",
        json={"reason": "camera review"},
        headers=w.api.keys.header("operator"),
    )
    assert disputed.status_code == 200, disputed.get_json()
    day = today(w)
    w.clock.pass_days(2)
    [hit] = w.services.accounting.close(day)["hits"]
    assert hit["status_at_close"] == "disputed"
    assert (hit["verified_by"], hit["verified_at"]) == ("", ""), "a dispute verifies nothing"
    # a person, the key's holder, not the key (issue 27: people named as people)
    assert (
        hit["disputed_by"] == "operator of the tests (OPERATOR-OF-THE-TESTS)" and hit["disputed_at"]
    )
    assert (hit["voided_by"], hit["voided_at"]) == ("", "")


def test_the_register_names_who_verified_paid_witnessed_and_approved_with_the_slip(
    world: World,
) -> None:
    w = world
    answers = play(w)
    [jackpot] = [jp for a in answers for jp in a["jackpots"]]
    pay = {"paid_by": "ANA-RUIZ", "witness": "SAM-OKAFOR", "slip": "HP-1001"}
    confirmed = w.api.client.post(
        f"/v1/payouts/{jackpot['id']}/confirm", json=pay, headers=w.api.keys.header("operator")
    )
    assert confirmed.status_code == 200, confirmed.get_json()
    day = today(w)
    w.clock.pass_days(2)
    [hit] = w.services.accounting.close(day)["hits"]
    assert hit["status_at_close"] == "paid"
    assert (hit["verified_by"], hit["paid_by"], hit["witness"], hit["slip"]) == (
        "operator of the tests (OPERATOR-OF-THE-TESTS)",
        "Ana Ruiz (ANA-RUIZ)",
        "Sam Okafor (SAM-OKAFOR)",
        "HP-1001",
    )
    assert hit["verified_at"] and (hit["approved_by"], hit["approved_at"]) == ("", "")
    line = [r for r in csv.DictReader(io.StringIO(get(w, f"/v1/accounting/days/{day}/hits.csv")
            .get_data(as_text=True))) if r["pool"] != TOTAL]  # fmt: skip
    assert [(r["payout"], r["verified_by"], r["slip"]) for r in line] == [
        (jackpot["id"], "operator of the tests (OPERATOR-OF-THE-TESTS)", "HP-1001")
    ]


def test_closed_days_are_chained_and_a_rewritten_or_deleted_one_is_found(world: World) -> None:
    """Each close journals its record's digest (and the day before it's) in the house
    journal: a rewritten day is reported and not served, a deleted one is reported."""
    w = world
    play(w)
    first = today(w)
    w.clock.pass_days(3)
    w.services.accounting.close(first)
    w.services.accounting.close(first + timedelta(days=1))
    closed = [e for e in w.api.journal(pool=None) if e["type"] == "day_closed"]
    assert [e["day"] for e in closed] == [
        first.isoformat(),
        (first + timedelta(days=1)).isoformat(),
    ]
    assert closed[1]["prev_day"] == closed[0]["digest"]
    assert w.services.verifier.run().intact
    second = (first + timedelta(days=1)).isoformat()
    with superuser(w.services.archive.engine) as db:  # a superuser's rewrite
        select = sqlalchemy.text("SELECT report FROM gaming_days WHERE day = :d")
        report = json.loads(db.execute(select, {"d": second}).scalar_one())
        report["balanced"] = False
        db.execute(sqlalchemy.text("UPDATE gaming_days SET report = :r WHERE day = :d"),
                   {"r": json.dumps(report, sort_keys=True), "d": second})  # fmt: skip
    found = [str(f) for f in w.services.verifier.run().findings]
    assert any(f"closed day {second}" in f and "rewritten" in f for f in found), found
    served = get(w, f"/v1/accounting/days/{second}")
    assert served.status_code == 409 and served.get_json()["error"]["code"] == "broken_chain"
    with superuser(w.services.archive.engine) as db:
        db.execute(sqlalchemy.text("DELETE FROM gaming_days WHERE day = :d"),
                   {"d": first.isoformat()})  # fmt: skip
    found = [str(f) for f in w.services.verifier.run().findings]
    assert any(f"closed day {first}" in f and "deleted" in f for f in found), found


def test_a_day_closed_before_days_were_journaled_is_journaled_by_the_next_run(
    world: World,
) -> None:
    """After the upgrade, verify is not to cry wolf over the days closed before it: the
    worker's next close run journals them, oldest first."""
    w = world
    play(w)
    day = today(w)
    w.clock.pass_days(2)
    w.services.accounting.close(day)
    keys = w.services.groups.main.keys
    w.redis.delete(keys.closed_days)  # as a store from before the digests were journaled
    served = get(w, f"/v1/accounting/days/{day}")  # never served unbound
    assert served.status_code == 409
    assert served.get_json()["error"]["code"] == "day_not_journaled"
    w.services.accounting.close_due()
    assert w.redis.hget(keys.closed_days, day.isoformat())
    assert w.services.verifier.run().intact
    assert get(w, f"/v1/accounting/days/{day}").status_code == 200


def test_a_day_inserted_by_hand_is_never_bound_to_the_chain_nor_served(world: World) -> None:
    """A forger's record of a day not closed yet, made from a genuine one: the close finds
    its figures are not the archive's and binds nothing; verify names it; removed, the day
    closes from the archive."""
    w = world
    play(w)
    first = today(w)
    w.clock.pass_days(3)
    genuine = w.services.archive.day(w.services.accounting.close(first)["day"])
    assert genuine is not None
    second = first + timedelta(days=1)
    start, end = w.services.days().bounds(second)
    report = json.loads(genuine["report"])
    report.update(day=second.isoformat(), unpaid_at_close={})
    w.services.archive.add_day(
        {
            **genuine,
            "day": second.isoformat(),
            "start_ts": start,
            "end_ts": end,
            "report": json.dumps(report, sort_keys=True),
        }  # fmt: skip
    )
    served = get(w, f"/v1/accounting/days/{second}")
    assert served.get_json()["error"]["code"] == "day_not_journaled"
    with pytest.raises(BrokenChainError, match=f"closed day {second} was not closed from"):
        w.services.accounting.close_due()
    assert w.redis.hget(w.services.groups.main.keys.closed_days, second.isoformat()) is None
    found = [str(f) for f in w.services.verifier.run().findings]
    assert any(f"closed day {second} was never journaled" in f for f in found), found
    assert any(f"closed day {second}: its figures are not the archive's: tables T1" in f
               for f in found), found  # fmt: skip
    with superuser(w.services.archive.engine) as db:
        db.execute(sqlalchemy.text("DELETE FROM gaming_days WHERE day = :d"),
                   {"d": second.isoformat()})  # fmt: skip
    assert second.isoformat() in w.services.accounting.close_due()
    assert w.services.verifier.run().intact


def test_verify_recomputes_each_closed_days_figures_from_the_archive(world: World) -> None:
    """A record edited after its day closed: the round is reported, and so is the day whose
    recorded figures the archive no longer gives, by table and column."""
    w = world
    play(w)
    first = today(w)
    w.clock.pass_days(2)
    w.services.accounting.close(first)
    done = w.services.verifier.run()
    assert done.intact and (done.days, done.recomputed) == (1, 1), done.findings
    engine = w.services.archive.engine

    def paid_more(static: dict[str, Any]) -> dict[str, Any]:
        static["spots"][0]["pay"] += 100_000
        return static

    was = edit_round(engine, "d4", "static", paid_more)
    found = [str(f) for f in w.services.verifier.run().findings]
    assert any("round T1/d4: its result" in f for f in found), found
    assert any(
        f"closed day {first}: its figures are not the archive's: tables T1 fixed_pays_cents" in f
        for f in found
    ), found
    set_round(engine, "d4", "static", was)
    assert w.services.verifier.run().intact


def test_verify_since_a_day_checks_that_period_linked_to_the_history_before(
    world: World,
) -> None:
    """`jackpot verify --since DAY`: the journals from the day's first entry on (linked to
    the archived entry before it), that period's round records and closed days; a tamper
    before it is left to a whole verify."""
    w = world
    play(w)
    first = today(w)
    w.clock.pass_days(1)
    w.redis.hset(StoreKeys().counters, "clock", str(w.clock()))  # the store's clock: day 2
    for i in range(3):
        body = round_body(f"e{i}", spots=[{"spot": 1, "wager": 500, "card": "9d"}])
        assert w.api.report({**body, "dealt_at": dealt(w.clock)}).status_code == 200
    w.clock.pass_days(2)
    closed = w.services.accounting.close_due()
    assert closed[:2] == [first.isoformat(), (first + timedelta(days=1)).isoformat()]
    whole = w.services.verifier.run()
    since = w.services.verifier.run(first + timedelta(days=1))
    assert whole.intact and since.intact, (whole.findings, since.findings)
    assert (whole.rounds, since.rounds) == (7, 3)
    assert since.checked["house"] < whole.checked["house"]
    assert since.days == len(closed) - 1 and since.since == (first + timedelta(days=1)).isoformat()

    engine = w.services.archive.engine
    was = edit_round(engine, "d1", "static", lambda s: {**s, "round": "d1-edited"})
    assert w.services.verifier.run(first + timedelta(days=1)).intact
    assert not w.services.verifier.run().intact
    set_round(engine, "d1", "static", was)
    was = edit_round(engine, "e1", "static", lambda s: {**s, "round": "e1-edited"})
    found = [str(f) for f in w.services.verifier.run(first + timedelta(days=1)).findings]
    assert any("round T1/e1" in f for f in found), found


# -- the gaming day's files, read back as a spreadsheet would import them (issue 27, part 1)

IDENT = {
    "pools": "pool",
    "tables": "table",
    "hits": "pool",
    "table_counts": "table",
    "voids": "table",
}


def sheet(w: World, path: str) -> tuple[list[str], list[dict[str, str]]]:
    served = get(w, path)
    assert served.status_code == 200, served.get_data(as_text=True)
    assert served.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(served.get_data(as_text=True))))
    return rows[0], [dict(zip(rows[0], r, strict=True)) for r in rows[1:]]


def test_the_hit_register_alone_opens_a_hidden_trigger_s_commitment(world: World) -> None:
    w = world
    w.api.put_pool("mhb", reset=20, rate_bp=1_000, reserve_rate_bp=0, cap=70, level="must_hit_by")
    w.api.put_table(pools=["main", "mhb"])
    cards = ("2c", "3d", "4h")  # under the dealer's queen: losses
    for n in range(60):
        spots = [{"spot": i + 1, "wager": 500, "card": c} for i, c in enumerate(cards)]
        body = round_body(f"m{n}", spots=spots)
        body["dealt_at"] = dealt(w.clock)
        answer = w.api.report(body)
        assert answer.status_code == 200, answer.get_json()
        if any(j["pool"] == "mhb" for j in answer.get_json()["jackpots"]):
            break
    else:
        raise AssertionError("a 70-cent must-hit-by level fed 150 cents a round is won")
    day = today(w)
    w.clock.pass_days(2)
    w.services.accounting.close(day)
    header, rows = sheet(w, f"/v1/accounting/days/{day}/hits.csv")
    assert header == FILES["hits"].header and "salt" in header
    [row] = [r for r in rows if r["pool"] == "mhb"]
    assert len(row["salt"]) == 32
    assert commitment("mhb", int(row["trigger"]), row["salt"]) == row["commitment"]
    assert w.services.verifier.run().intact


def test_every_file_imports_as_it_is(world: World) -> None:
    w = world
    tell_counts(w, play(w))  # so the table_counts file has a row
    voided = w.api.client.post(  # and the voids file one
        "/v1/rounds/T1/d1/void", json={"reason": "misdeal"}, headers=w.api.keys.header("operator")
    )
    assert voided.status_code == 200, voided.get_json()
    day = today(w)
    w.clock.pass_days(2)
    report = w.services.accounting.close(day)
    assert set(FILES) == set(SECTIONS)
    for section, spec in FILES.items():
        header, rows = sheet(w, f"/v1/accounting/days/{day}/{section}.csv")
        assert header == spec.header and header[:2] == ["gaming_day", IDENT[section]]
        if section in ("hits", "voids"):
            assert header[2] == "time"
        assert all(r["gaming_day"] == day.isoformat() for r in rows)
        data = [r for r in rows if r[IDENT[section]] != TOTAL]
        totals = [r for r in rows if r[IDENT[section]] == TOTAL]
        assert len(data) == len(report[section]) > 0, section
        assert len(totals) == (1 if spec.totals else 0), section
        for line, row in zip(data, report[section], strict=True):
            for c in spec.figures:
                if c.money:  # dollars and cents, then the exact cents and units, as the JSON's
                    exact = c.units(row)
                    assert line[c.name] == dollars(exact // UNITS_PER_CENT), (section, c.name)
                    assert int(line[f"{c.name}_cents"]) == exact // UNITS_PER_CENT
                    if c.kind is Kind.UNITS:
                        assert int(line[f"{c.name}_subcent_units"]) == exact % UNITS_PER_CENT
                elif c.kind is Kind.COUNT:
                    assert int(line[c.name]) == int(row.get(c.key) or 0), (section, c.name)
        for total in totals:  # each figure the exact sum of the rows
            for c in spec.figures:
                if c.money:
                    cents = sum(int(r[f"{c.name}_cents"]) for r in data)
                    subcents = sum(
                        int(r[f"{c.name}_subcent_units"]) for r in data if c.kind is Kind.UNITS
                    )
                    exact = cents * UNITS_PER_CENT + subcents
                    assert total[c.name] == dollars(exact // UNITS_PER_CENT), (section, c.name)
                elif c.kind is Kind.COUNT:
                    assert int(total[c.name]) == sum(int(r[c.name]) for r in data)
    _, tables = sheet(w, f"/v1/accounting/days/{day}/tables.csv")
    assert tables[0]["hold_percent"] == report["tables"][0]["hold_percent"]


def test_an_empty_day_has_its_header_and_a_range_is_one_file(world: World) -> None:
    w = world
    play(w)
    first = today(w)
    w.clock.pass_days(1)
    quiet = today(w)  # nothing is played this day
    w.clock.pass_days(2)
    w.services.accounting.close_due()
    header, rows = sheet(w, f"/v1/accounting/days/{quiet}/hits.csv")
    assert header == FILES["hits"].header
    assert [r["pool"] for r in rows] == [TOTAL] and rows[0]["amount"] == "0.00"

    header, rows = sheet(w, f"/v1/accounting/tables.csv?from={first}&to={quiet}")
    assert header == FILES["tables"].header, "the header once"
    days = [r["gaming_day"] for r in rows]
    assert days == sorted(days) and set(days) == {first.isoformat(), quiet.isoformat()}
    one = sheet(w, f"/v1/accounting/days/{first}/tables.csv")[1]
    assert [r for r in rows if r["gaming_day"] == first.isoformat()] == one

    for query, field in (
        (f"from={quiet}&to={first}", "to"),
        (f"to={first}", "from"),
        (f"from={first}&to={first + timedelta(days=400)}", "to"),
        (f"from={first}&to={first}&day=1", "day"),
    ):
        refused = get(w, f"/v1/accounting/tables.csv?{query}")
        assert refused.status_code == 400, query
        assert refused.get_json()["error"]["field"] == field, query
    later = get(w, f"/v1/accounting/tables.csv?from={first}&to={today(w)}")
    assert later.status_code == 409, "a day of the range not over"
    assert get(w, f"/v1/accounting/other.csv?from={first}&to={first}").status_code == 404


def test_the_day_report_draws_each_meter_and_lists_every_correction(world: World) -> None:
    """The timeline of a closed day: each pool's meter from its opening to its closing value,
    dropping at the hit; the day's adjustment and void with who made them and why."""
    w = world
    answers = play(w)
    [jackpot] = [jp for a in answers for jp in a["jackpots"]]
    adjusted = w.api.client.post(
        "/v1/pools/main/adjustments",
        json={"id": "adj-1", "amount": 1234, "reason": "meter board repaired"},
        headers=w.api.keys.header("operator"),
    )
    assert adjusted.status_code in (200, 201), adjusted.get_json()
    voided = w.api.client.post(
        "/v1/rounds/T1/d4/void",
        json={"reason": "second face-up card"},
        headers=w.api.keys.header("operator"),
    )
    assert voided.status_code == 200, voided.get_json()
    day = today(w)
    r = get(w, f"/v1/accounting/days/{day}/timeline")
    assert r.status_code == 409 and r.get_json()["error"]["code"] == "day_not_over"
    w.clock.pass_days(2)
    statement = w.services.accounting.close(day)
    timeline = get(w, f"/v1/accounting/days/{day}/timeline").get_json()
    [pool] = statement["pools"]
    points = timeline["meters"]["main"]
    start, end = timeline["start_ms"], timeline["end_ms"]
    assert points[0] == [start, pool["opening_meter_cents"]]
    assert points[-1] == [end, pool["closing_meter_cents"]]
    assert [p[0] for p in points] == sorted(p[0] for p in points)
    assert all(start <= p[0] <= end for p in points)
    hit_at = next(int(e["ts"]) for e in journal(w) if e["type"] == "hit")
    # at the round's instant: before the hit, after it, then back to reset (its top-up)
    before, after, *_ = (p[1] for p in points if p[0] == hit_at)
    assert before - after == jackpot["amount"], "the meter drops by the jackpot at the hit"
    kinds = [(c["kind"], c["reason"], c["person"]) for c in timeline["corrections"]]
    assert kinds == [
        ("adjustment", "meter board repaired", "operator of the tests (OPERATOR-OF-THE-TESTS)"),
        ("void", "second face-up card", "operator of the tests (OPERATOR-OF-THE-TESTS)"),
    ]
    adjustment, void = timeline["corrections"]
    assert (adjustment["amount_cents"], adjustment["pool"]) == (1234, "main")
    assert (void["table"], void["round"], void["wagered_cents"]) == ("T1", "d4", 2500)
    missing = get(w, "/v1/accounting/days/1999-01-01/timeline")
    assert missing.status_code == 404


def journal(w: World) -> list[dict[str, Any]]:
    r = get(w, "/v1/journal?pool=main&limit=1000")
    return list(r.get_json()["entries"])
