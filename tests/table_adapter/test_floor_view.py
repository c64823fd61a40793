"""The floor's views: the live view fits an 80-column terminal, the plain one is plain lines,
and both show the controller's meters, the tables and the last wins, a jackpot pending and
then paid."""

from __future__ import annotations

import io
import json
import os
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import httpx
import pytest
from flask import Flask
from rich.cells import cell_len
from rich.console import Console

from table_adapter.floor.demo import DEMO_PAYTABLE, DEMO_POOL, LABEL
from table_adapter.floor.plan import FloorPlan
from table_adapter.floor.simulator import Floor, FloorOptions
from table_adapter.link.answers import RoundAnswer
from table_adapter.link.backoff import Backoff
from table_adapter.link.client import ControllerClient, Verdict
from table_adapter.link.status import LinkSettings, LinkState
from table_adapter.link.supervisor import WITNESS, WITNESS_NAME, Supervisor
from table_adapter.screens.board import Heading, Snapshot, snapshot, status_line
from table_adapter.screens.display import dollars
from table_adapter.screens.live import render
from table_adapter.screens.plain import PlainView
from table_adapter.screens.wins import WinFeed
from tests.support.api import Api

FAST = FloorOptions(
    link=LinkSettings(answer_wait_seconds=2.0, backoff=Backoff(0.01, 0.1)),
    timeout=2.0,
    drain_seconds=10.0,
)
HEADING = Heading("war-floor DEMO", "meter page http://127.0.0.1:8000/ · Ctrl-C stops", LABEL)
PLAN = FloorPlan(
    tables=2,
    rounds=20,
    seed=8,
    strategy="war",
    pool="main",
    table_prefix="T",
    side_share=1.0,
    paytable=DEMO_PAYTABLE,
)
# four of a kind, not suited: a meter hit under the DEMO paytable
JACKPOT_ROUND = {
    "table": "T1",
    "round": "jp-1",
    "dealer": {"card": "7d", "war_card": "7s"},
    "spots": [
        {"spot": 1, "player": "p-1", "wager": 500, "card": "7c", "war": True, "war_card": "7h"}
    ],
}


@pytest.fixture
def demo_tables(api: Api) -> Api:
    # the witness of the demo supervisor's hand pays, registered as war-floor demo does
    api.client.application.extensions["jackpot"].people.register(WITNESS, WITNESS_NAME)
    api.put_pool("main", **DEMO_POOL)
    for table in PLAN.table_ids:
        api.put_table(table, **PLAN.table_config())
    return api


@pytest.fixture
def table_client(app: Flask, demo_tables: Api) -> Iterator[ControllerClient]:
    client = ControllerClient(
        "http://controller", demo_tables.keys.table, transport=httpx.WSGITransport(app=app)
    )
    yield client
    client.close()


def hit_the_jackpot(client: ControllerClient, feed: WinFeed) -> RoundAnswer:
    delivery = client.report(json.dumps(JACKPOT_ROUND), "T1", "jp-1")
    assert delivery.verdict is Verdict.ACKED and delivery.answer is not None
    feed.answered(delivery.answer)
    return delivery.answer


def run_floor(app: Flask, api: Api, tmp_path: Path, feed: WinFeed) -> Floor:
    client = ControllerClient(
        "http://controller", api.keys.table, transport=httpx.WSGITransport(app=app)
    )
    options = replace(FAST, on_answer=lambda entry, answer: feed.answered(answer))
    floor = Floor(PLAN, "http://controller", "", tmp_path / "j.sqlite", options, client=client)
    floor.run()
    return floor


def lines_of(s: Snapshot, width: int = 80, height: int = 24) -> list[str]:
    console = Console(width=width, height=height, record=True, file=io.StringIO())
    console.print(render(s, height, width))
    return console.export_text().splitlines()


def test_the_live_view_fits_80_columns_and_shows_meters_tables_jackpots_and_last_wins(
    app: Flask, demo_tables: Api, table_client: ControllerClient, tmp_path: Path
) -> None:
    feed = WinFeed()
    answer = hit_the_jackpot(table_client, feed)
    floor = run_floor(app, demo_tables, tmp_path, feed)
    s = snapshot(floor, feed, HEADING)
    assert s.rounds == 40 and feed.last()

    lines = lines_of(s)
    assert len(lines) < 24 and max(cell_len(line) for line in lines) <= 80
    text = "\n".join(lines)
    assert lines[0].startswith(" war-floor DEMO ") and "http://127.0.0.1:8000/" in lines[0]
    assert f"main  {dollars(demo_tables.pool('main')['value'])}" in text
    assert LABEL in text
    for table in ("T1", "T2"):  # one whole line per table: nothing wrapped
        row = next(line for line in lines if line.startswith(f"  {table} "))
        assert row.split()[1:4] == ["online", "0", "open"]
    jackpot = answer.jackpots[0]
    hit = next(line for line in lines if "pending verification" in line)
    assert "T1 spot 1" in hit and "four of a kind" in hit and dollars(jackpot.amount) in hit
    assert "last wins" in text
    shown = [line for line in lines[lines.index(next(x for x in lines if "last wins" in x)) :]]
    newest = feed.last()[0]
    assert (
        f"{newest.table} spot {newest.bet.spot}" in shown[1] and dollars(newest.bet.won) in shown[1]
    )

    # the demo's own heading, longer than the terminal: its addresses are never cut, the
    # note breaks between its parts
    demo = Heading(
        "war-floor DEMO",
        "sign http://127.0.0.1:8001/signs/DEMO · console http://127.0.0.1:8000/console with the "
        "key in var/console.key · Ctrl-C stops",
        LABEL,
    )
    for width in (100, 80):
        lines = lines_of(replace(s, heading=demo), width)
        assert len(lines) < 24 and max(cell_len(line) for line in lines) <= width
        assert "…" not in "\n".join(lines[:3])
        assert "  console http://127.0.0.1:8000/console with the key in var/console.key" in (
            lines[1:3]
        ) or any("console http://127.0.0.1:8000/console" in line for line in lines[1:3])
    wide = lines_of(replace(s, heading=demo), 200)
    assert "console http://127.0.0.1:8000/console" in wide[0], "one line where it fits"


def test_a_big_floor_still_fits_a_small_terminal_with_the_rest_of_its_tables_on_one_line(
    app: Flask, demo_tables: Api, table_client: ControllerClient, tmp_path: Path
) -> None:
    feed = WinFeed()
    hit_the_jackpot(table_client, feed)
    s = snapshot(run_floor(app, demo_tables, tmp_path, feed), feed, HEADING)
    links = tuple(replace(s.links[0], table=f"wisconsin-6d-{i}") for i in range(1, 33))
    big = replace(s, links=links, total=640)
    for width, height in ((80, 24), (60, 16)):
        lines = lines_of(big, width, height)
        assert len(lines) < height and max(cell_len(line) for line in lines) <= width
        assert any(line.lstrip().startswith("+") and "more" in line for line in lines)
        assert "last wins" in "\n".join(lines)


def test_the_plain_view_prints_wins_and_the_jackpot_pending_then_paid_without_escape_codes(
    app: Flask, demo_tables: Api, table_client: ControllerClient, tmp_path: Path
) -> None:
    out = io.StringIO()
    feed = WinFeed()
    view = PlainView(out, feed, HEADING).start()
    floor = run_floor(app, demo_tables, tmp_path, feed)
    hit_the_jackpot(table_client, feed)
    base = snapshot(floor, feed, HEADING)

    def now() -> Snapshot:  # the floor has finished: read the pool as its watch would
        reading = table_client.pool("main")
        assert reading is not None
        return replace(base, pools=(reading,), wins=tuple(feed.last()))

    view.show(now())
    clock = iter([0.0, 8.0])
    supervisor = Supervisor(
        "http://controller",
        demo_tables.keys.operator,
        ["main"],
        delay=8.0,
        transport=httpx.WSGITransport(app=app),
        clock=lambda: next(clock),
    )
    supervisor.step()  # sees the payout pending
    view.show(now())
    supervisor.step()  # 8 s later: confirms it
    view.show(now())
    view.close()
    supervisor.stop()

    text = out.getvalue()
    assert "\x1b" not in text and "\r" not in text
    lines = text.splitlines()
    assert lines[0] == f"{HEADING.title}: {HEADING.note}" and lines[1] == LABEL
    pending = [i for i, line in enumerate(lines) if "pending verification" in line]
    paid = [
        i
        for i, line in enumerate(lines)
        if line.endswith(f"paid (payout {supervisor.confirmed[0]})")
    ]
    assert len(pending) == len(paid) == 1 and pending[0] < paid[0]
    assert "JACKPOT" in lines[paid[0]] and "T1 spot 1 four of a kind" in lines[paid[0]]
    assert any("T1 spot 1 four of a kind wins" in line and "(meter $" in line for line in lines)
    assert (
        demo_tables.client.get(
            f"/v1/payouts/{supervisor.confirmed[0]}", headers=demo_tables.keys.header("operator")
        ).get_json()["status"]
        == "paid"
    )


def test_the_supervisor_confirms_its_pools_payouts_only_once_they_have_waited(
    app: Flask, demo_tables: Api, table_client: ControllerClient
) -> None:
    demo_tables.put_pool("other", **{**DEMO_POOL, "name": "Other Progressive"})
    demo_tables.put_table("T2", **{**PLAN.table_config(), "pools": ["other"]})
    hit_the_jackpot(table_client, WinFeed())
    other = {**JACKPOT_ROUND, "table": "T2", "round": "jp-2"}
    assert table_client.report(json.dumps(other), "T2", "jp-2").verdict is Verdict.ACKED
    clock = iter([0.0, 7.9, 8.0])
    supervisor = Supervisor(
        "http://controller",
        demo_tables.keys.operator,
        ["main"],
        delay=8.0,
        transport=httpx.WSGITransport(app=app),
        clock=lambda: next(clock),
    )
    supervisor.step()
    supervisor.step()
    assert supervisor.confirmed == []
    supervisor.step()
    supervisor.stop()
    payouts = demo_tables.client.get(
        "/v1/payouts", headers=demo_tables.keys.header("operator")
    ).get_json()["payouts"]
    status = {p["pool"]: p["status"] for p in payouts}
    assert status == {"main": "paid", "other": "pending"}
    assert supervisor.confirmed == [p["id"] for p in payouts if p["pool"] == "main"]


def test_the_status_line_fits_80_columns(app: Flask, demo_tables: Api, tmp_path: Path) -> None:
    feed = WinFeed()
    s = replace(snapshot(run_floor(app, demo_tables, tmp_path, feed), feed, HEADING), elapsed=4.0)
    line = status_line(s)
    assert line.startswith("40/40 rounds 10/s  main $") and len(line) <= 80


def test_a_controller_away_shows_down_tables_closed_side_bets_and_the_meters_age(
    app: Flask, demo_tables: Api, tmp_path: Path
) -> None:
    feed = WinFeed()
    s = snapshot(run_floor(app, demo_tables, tmp_path, feed), feed, HEADING)
    down = replace(
        s.links[0],
        state=LinkState.DOWN,
        side_bets_open=False,
        pending=7,
        down_seconds=12.4,
        last_error="ConnectError: [Errno 111] Connection refused",
    )
    away = replace(s, links=(down, *s.links[1:]), meter_age=12.2)
    lines = lines_of(away)
    meter = next(line for line in lines if line.startswith("  main  $"))
    assert meter.endswith("read 12s ago")
    row = next(line for line in lines if line.startswith("  T1 "))
    assert row.split()[1:6] == ["DOWN", "12s", "7", "CLOSED", str(down.acked)]
    assert "Connection refused" in row and cell_len(row) <= 80
    assert "main $" in status_line(away) and "(12s old)" in status_line(away)
    assert "side bets closed at 1" in status_line(away) and "1 DOWN" in status_line(away)


def test_the_plain_view_says_the_rest_on_stderr_once_its_pipe_reader_is_gone(
    capfd: pytest.CaptureFixture[str],
) -> None:
    # `war-floor demo | tee log`, then Ctrl-C: tee ends too, and the summary must not be a
    # traceback (issue 40)
    read, write = os.pipe()
    os.close(read)
    with os.fdopen(write, "w") as pipe:
        view = PlainView(pipe, WinFeed(), HEADING)
        view.say("war-floor demo: 56 rounds, 282 side bets, handle $2,563.00, 0 jackpots")
        view.say("0 reports wait in var/adapter/journal.sqlite for the next start")
    assert capfd.readouterr().err.splitlines() == [
        "war-floor demo: 56 rounds, 282 side bets, handle $2,563.00, 0 jackpots",
        "0 reports wait in var/adapter/journal.sqlite for the next start",
    ]


def test_the_status_line_says_the_meters_are_old_before_any_pool_was_read() -> None:
    """A floor whose controller went away before its first meter read knows no pool: the
    line still says how old the meters are (it raised IndexError)."""
    shot = Snapshot(
        heading=Heading(),
        pools=(),
        missing=(),
        links=(),
        rounds=0,
        total=None,
        elapsed=30.0,
        side_bets=0,
        handle=0,
        paid=0,
        wins=(),
        now=0.0,
        meter_age=30.0,
    )
    assert "meters (30s old)" in status_line(shot)
    assert "main ? (30s old)" in status_line(replace(shot, missing=("main",)))
