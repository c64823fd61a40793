"""The adapter against the real app: journal first, in-order delivery, retries, grace period,
rejections, held tables, a full journal and a killed adapter — nothing lost, nothing twice."""

from __future__ import annotations

import io
import json
import logging
import random
import re
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis as redis_lib
from flask import Flask
from rich.console import Console

from jackpot.domain.config import TableConfig
from jackpot.domain.validate import parse_timestamp
from table_adapter.game.engine import Table
from table_adapter.game.players import Players
from table_adapter.game.records import Round
from table_adapter.game.report import dealt_at, round_report
from table_adapter.game.strategies import MIX
from table_adapter.link import adapter as adapter_module
from table_adapter.link.adapter import Adapter
from table_adapter.link.backoff import Backoff
from table_adapter.link.client import ControllerClient, Verdict
from table_adapter.link.journal import Counts, Entry, Journal, JournalError, State
from table_adapter.link.sender import wall_ms
from table_adapter.link.status import LinkSettings, LinkState
from table_adapter.screens.board import Heading, Snapshot, status_line
from table_adapter.screens.live import render
from tests.support.api import Api
from tests.support.meters import assert_pools_match, configure
from tests.support.model import MeterModel
from tests.support.redis_server import RedisServer

SETTINGS = LinkSettings(
    grace_seconds=1.0,
    heartbeat_seconds=2.0,
    hold_seconds=30.0,
    answer_wait_seconds=1.0,
    backoff=Backoff(base=0.1, cap=0.8),
)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Killed(BaseException):
    """The adapter process dies (nothing after this point runs)."""


class Wire(httpx.BaseTransport):
    """The app behind a switch: down refuses connections; `before` may replace an answer."""

    def __init__(self, app: Flask) -> None:
        self.app = httpx.WSGITransport(app=app)
        self.down = False
        self.requests: list[httpx.Request] = []
        self.before: Callable[[httpx.Request], httpx.Response | None] = lambda r: None
        self.after: Callable[[httpx.Request, httpx.Response], None] = lambda r, s: None

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        if self.down:
            raise httpx.ConnectError("connection refused", request=request)
        override = self.before(request)
        if override is not None:
            return override
        response = self.app.handle_request(request)
        self.after(request, response)
        return response

    def reports(self) -> list[httpx.Request]:
        return [r for r in self.requests if r.url.path == "/v1/rounds"]


@pytest.fixture
def table_config(api: Api) -> TableConfig:
    return configure(api, MeterModel())


@pytest.fixture
def wire(app: Flask, table_config: TableConfig) -> Wire:
    return Wire(app)


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    with Journal(tmp_path / "adapter.sqlite") as j:
        yield j


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def link(wire: Wire, keys: Any) -> Iterator[ControllerClient]:
    with ControllerClient("http://controller", keys.table, transport=wire) as c:
        yield c


def make_adapter(
    journal: Journal,
    link: ControllerClient,
    clock: Clock,
    seed: int = 1,
    settings: LinkSettings = SETTINGS,
) -> Adapter:
    table = Table("T1", "wisconsin", seed=seed, id_prefix=f"run{seed}")
    return Adapter("T1", journal, link, settings, table=table, clock=clock, rng=random.Random(seed))


def deal(adapter: Adapter, players: Players) -> Round:
    played = adapter.play_round(players.bets(adapter.side_bets_open()))
    assert isinstance(played, Round)
    return played


def players(seed: int = 1) -> Players:
    from table_adapter.game.profiles import WISCONSIN

    return Players("T1", WISCONSIN, 7, MIX, random.Random(seed), side_share=1.0)


def drain(adapter: Adapter, clock: Clock, limit: int = 1000) -> None:
    """Step the sender (no thread) until nothing is pending, moving the clock as it asks."""
    for _ in range(limit):
        if adapter.status().pending == 0:
            return
        clock.now += adapter.step()
    raise AssertionError(f"not drained: {adapter.status()}")


def assert_controller_matches(
    api: Api, journal: Journal, table: TableConfig, in_order: bool = True
) -> None:
    """The controller saw every acknowledged report once, in order (unless an operator
    requeued one: `in_order=False`); the meters equal the model."""
    reports = [e for e in journal.entries(State.ACKED) if e.void_of is None]
    bodies = {(e.table, e.round): json.loads(e.body) for e in reports}
    settled = [(e["table"], e["round"]) for e in api.journal(pool=None) if e["type"] == "round"]
    assert len(settled) == len(set(settled)), "a round was settled twice"
    assert set(settled) == set(bodies), "the controller and the journal disagree"
    mine = [(e.table, e.round) for e in reports]
    if in_order:
        assert [k for k in settled if k[0] == "T1"] == [k for k in mine if k[0] == "T1"]
    model = MeterModel()
    configure_model(model)
    for key in settled:
        model.apply(bodies[key], table)
    assert_pools_match(api.client.application.extensions["jackpot"], model)


def configure_model(model: MeterModel) -> None:
    from jackpot.domain.config import PoolConfig
    from tests.support.meters import POOLS

    for pool, body in POOLS.items():
        model.add_pool(pool, PoolConfig.from_json(body))


def test_rounds_are_journaled_before_sending_and_delivered_in_order(
    api: Api,
    wire: Wire,
    journal: Journal,
    link: ControllerClient,
    clock: Clock,
    table_config: TableConfig,
) -> None:
    wire.down = True
    adapter = make_adapter(journal, link, clock)
    p = players()
    dealt = [deal(adapter, p) for _ in range(5)]
    assert [e.round for e in journal.pending("T1")] == [r.round_id for r in dealt]
    assert wire.requests == [], "nothing is sent by the dealer itself"
    wire.down = False
    drain(adapter, clock)
    acked = journal.entries(State.ACKED)
    assert [e.round for e in acked] == [r.round_id for r in dealt]
    assert all(json.loads(e.answer or "")["round"] == e.round for e in acked)
    assert [json.loads(r.content)["round"] for r in wire.reports()] == [r.round_id for r in dealt]
    assert adapter.status().acked == 5
    assert_controller_matches(api, journal, table_config)


def test_an_outage_closes_side_bets_after_the_grace_period_and_the_backlog_reopens_them(
    api: Api,
    wire: Wire,
    journal: Journal,
    link: ControllerClient,
    clock: Clock,
    table_config: TableConfig,
    caplog: pytest.LogCaptureFixture,
) -> None:
    adapter = make_adapter(journal, link, clock)
    p = players()
    deal(adapter, p)
    drain(adapter, clock)
    wire.down = True
    with_wagers = deal(adapter, p)
    assert any(r.bet.side for r in with_wagers.results)
    clock.now += adapter.step()  # the first failure starts the grace period
    assert adapter.state is LinkState.DOWN
    clock.now += 0.5
    assert adapter.side_bets_open(), "still within the grace period"
    clock.now += 0.6
    assert not adapter.side_bets_open()
    assert "side bet CLOSED" in caplog.text
    closed = [deal(adapter, p) for _ in range(4)]
    # the dealer's players may offer side wagers: the table takes none
    assert all(not r.bet.side for rnd in closed for r in rnd.results)
    assert all(
        "wager" not in s
        for e in journal.pending("T1")
        for s in json.loads(e.body)["spots"]
        if e.round != with_wagers.round_id
    )
    for _ in range(5):
        clock.now += adapter.step()
    wire.down = False
    assert not adapter.side_bets_open(), "closed until the backlog is delivered"
    drain(adapter, clock)
    assert adapter.side_bets_open()
    assert adapter.status().state is LinkState.UP
    assert "reopened" in caplog.text
    status = adapter.status()
    assert status.acked == 6 and status.retries >= 5 and status.pending == 0
    assert_controller_matches(api, journal, table_config)


def test_retries_resend_the_same_text_with_capped_backoff_and_honour_retry_after(
    api: Api,
    wire: Wire,
    journal: Journal,
    link: ControllerClient,
    clock: Clock,
    table_config: TableConfig,
) -> None:
    failures = iter(
        [httpx.Response(503, headers={"Retry-After": "0.5"}, json={"error": {}})]
        + [httpx.Response(503, json={"error": {}})] * 6
    )
    wire.before = lambda request: next(failures, None)
    adapter = make_adapter(journal, link, clock)
    deal(adapter, players())
    delays = []
    for _ in range(7):
        delays.append(adapter.step())
        clock.now += delays[-1]
    assert adapter.step() == 0.0  # the eighth attempt is acknowledged
    assert delays[0] >= 0.5, "Retry-After is honoured"
    assert all(0 < d <= SETTINGS.backoff.cap for d in delays)
    assert delays[-1] >= SETTINGS.backoff.cap / 2, "the backoff grew to its cap"
    sent = {r.content for r in wire.reports()}
    assert len(wire.reports()) == 8 and len(sent) == 1, "the same bytes every time"
    (entry,) = journal.entries(State.ACKED)
    assert entry.attempts == 8 and entry.last_error == "HTTP 503"
    assert_controller_matches(api, journal, table_config)


def test_an_unparseable_answer_is_not_an_acknowledgement(
    api: Api,
    wire: Wire,
    journal: Journal,
    link: ControllerClient,
    clock: Clock,
    table_config: TableConfig,
) -> None:
    garbage = iter([httpx.Response(200, text="<html>upstream</html>")])
    wire.before = lambda request: next(garbage, None)
    adapter = make_adapter(journal, link, clock)
    deal(adapter, players())
    assert adapter.step() > 0
    assert journal.counts().pending == 1
    drain(adapter, clock)
    (entry,) = journal.entries(State.ACKED)
    assert "unparseable" in (entry.last_error or "")
    assert_controller_matches(api, journal, table_config)


def test_a_rejected_report_is_loud_counted_never_resent_and_does_not_block_the_table(
    api: Api,
    wire: Wire,
    journal: Journal,
    link: ControllerClient,
    clock: Clock,
    table_config: TableConfig,
    caplog: pytest.LogCaptureFixture,
) -> None:
    bad = {
        "table": "T1",
        "round": "bad-1",
        "dealer": {"card": "Qs"},
        "spots": [{"spot": 1, "wager": 500, "card": "Qs", "war": True}],
    }  # no war card
    journal.append("T1", "bad-1", json.dumps(bad), 0)  # e.g. left by an older adapter version
    adapter = make_adapter(journal, link, clock)
    good = deal(adapter, players())
    with caplog.at_level(logging.ERROR, logger="table_adapter"):
        drain(adapter, clock)
    assert "bad-1 REJECTED" in caplog.text and "spots[0]" in caplog.text
    rejected = journal.entries(State.REJECTED)
    assert [e.round for e in rejected] == ["bad-1"] and rejected[0].status == 400
    assert [e.round for e in journal.entries(State.ACKED)] == [good.round_id]
    for _ in range(3):
        clock.now += adapter.step()
    assert sum(json.loads(r.content)["round"] == "bad-1" for r in wire.reports()) == 1
    status = adapter.status()
    assert (status.rejected, status.acked, status.state) == (1, 1, LinkState.UP)
    assert status.side_bets_open
    assert_controller_matches(api, journal, table_config)


def test_a_round_conflict_is_rejected_once_and_the_first_report_stands(
    api: Api,
    wire: Wire,
    journal: Journal,
    link: ControllerClient,
    clock: Clock,
    table_config: TableConfig,
    caplog: pytest.LogCaptureFixture,
) -> None:
    first = {
        "table": "T1",
        "round": "dup-1",
        "dealer": {"card": "Qs"},
        "spots": [{"spot": 1, "wager": 500, "card": "4d"}],
    }
    assert api.report(first).status_code == 200  # e.g. another adapter with the same ids
    value = api.meters("main")["value_units"]
    journal.append("T1", "dup-1", json.dumps({**first, "dealer": {"card": "Kh"}}), 0)
    adapter = make_adapter(journal, link, clock)
    drain(adapter, clock)
    (entry,) = journal.entries(State.REJECTED)
    assert entry.status == 409
    assert json.loads(entry.answer or "")["error"]["code"] == "round_conflict"
    assert "dup-1 REJECTED" in caplog.text and "round_conflict" in caplog.text
    for _ in range(3):
        clock.now += adapter.step()
    assert len(wire.reports()) == 1 and adapter.status().rejected == 1
    assert api.meters("main")["value_units"] == value, "the conflict changed nothing"


def test_a_disabled_table_is_held_with_its_reports_pending_until_it_is_enabled(
    api: Api,
    wire: Wire,
    journal: Journal,
    link: ControllerClient,
    clock: Clock,
    table_config: TableConfig,
    caplog: pytest.LogCaptureFixture,
) -> None:
    adapter = make_adapter(journal, link, clock)
    p = players()
    api.put_table("T1", pools=["main", "side"], enabled=False)
    first = deal(adapter, p)
    wait = adapter.step()
    assert wait == SETTINGS.hold_seconds
    assert adapter.state is LinkState.HELD and not adapter.side_bets_open()
    assert "refuses the table" in caplog.text and "table_disabled" in caplog.text
    later = deal(adapter, p)
    assert all(not r.bet.side for r in later.results)
    clock.now += 10
    assert adapter.step() == pytest.approx(20)  # no request before the hold interval
    assert len(wire.reports()) == 1
    assert not adapter.wait_idle(5), "a held table does not make its dealer wait"
    api.put_table("T1", pools=["main", "side"], enabled=True)
    clock.now += 20
    drain(adapter, clock)
    assert [e.round for e in journal.entries(State.ACKED)] == [first.round_id, later.round_id]
    assert adapter.side_bets_open() and adapter.status().state is LinkState.UP
    assert_controller_matches(api, journal, table_config)


class FullDisk:
    """A journal connection whose writes fail as SQLite does on a full disk."""

    def __init__(self, db: Any, only: tuple[str, ...] = ("INSERT", "UPDATE")) -> None:
        self.db = db
        self.only = only

    def execute(self, sql: str, *args: Any) -> Any:
        if sql.lstrip().upper().startswith(self.only):
            raise sqlite3.OperationalError("database or disk is full")
        return self.db.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)


def test_a_full_journal_stops_the_table_before_it_deals_another_round(
    wire: Wire,
    journal: Journal,
    link: ControllerClient,
    clock: Clock,
    caplog: pytest.LogCaptureFixture,
) -> None:
    adapter = make_adapter(journal, link, clock)
    p = players()
    deal(adapter, p)
    drain(adapter, clock)
    assert adapter.table is not None and adapter.table.rounds == 1
    journal._db = FullDisk(journal._db)
    with pytest.raises(JournalError, match="could not be journaled.*void.*disk is full"):
        adapter.play_round(p.bets())
    assert adapter.table.rounds == 2  # dealt, not journaled: void, never reported
    with pytest.raises(JournalError, match="deals no round"):
        adapter.play_round(p.bets())
    assert adapter.table.rounds == 2, "the table refused to deal"
    assert adapter.state is LinkState.JOURNAL_FAILED
    assert "JOURNAL FAILED" in caplog.text
    assert len(wire.reports()) == 1, "only the journaled round was ever sent"
    journal._db = journal._db.db


def test_an_acknowledgement_the_journal_cannot_record_is_resent_and_answered_once(
    api: Api,
    wire: Wire,
    journal: Journal,
    link: ControllerClient,
    clock: Clock,
    table_config: TableConfig,
) -> None:
    adapter = make_adapter(journal, link, clock)
    played = deal(adapter, players())
    journal._db = FullDisk(journal._db, only=("UPDATE",))
    assert adapter.step() == SETTINGS.hold_seconds
    assert adapter.state is LinkState.JOURNAL_FAILED
    journal._db = journal._db.db
    assert journal.counts().pending == 1  # the controller has it; the journal does not know
    restarted = make_adapter(journal, link, clock, seed=2)
    drain(restarted, clock)
    (entry,) = journal.entries(State.ACKED)
    assert entry.round == played.round_id
    assert json.loads(entry.answer or "")["replayed"] is True
    assert restarted.status().replayed == 1
    assert_controller_matches(api, journal, table_config)


def test_a_killed_adapter_replays_its_journal_on_restart_exactly_once(
    api: Api,
    wire: Wire,
    tmp_path: Path,
    keys: Any,
    clock: Clock,
    table_config: TableConfig,
) -> None:
    path = tmp_path / "killed.sqlite"
    first_client = ControllerClient("http://controller", keys.table, transport=wire)
    first = make_adapter(Journal(path), first_client, clock, seed=3)
    p = players(3)
    for _ in range(3):
        deal(first, p)
    drain(first, clock)
    delivered = deal(first, p)
    in_flight = deal(first, p)  # journaled; the controller settles it; the ack is never kept

    def die(request: httpx.Request, response: httpx.Response) -> None:
        raise Killed

    assert first.step() == 0.0  # `delivered` is acknowledged
    wire.after = die
    with pytest.raises(Killed):
        first.step()  # the controller settles `in_flight`, the adapter dies before recording
    wire.after = lambda request, response: None
    first.journal.close()
    first_client.close()

    with Journal(path) as journal:
        assert [e.round for e in journal.pending("T1")] == [in_flight.round_id]
        assert delivered.round_id in {e.round for e in journal.entries(State.ACKED)}
        with ControllerClient("http://controller", keys.table, transport=wire) as client:
            restarted = make_adapter(journal, client, clock, seed=4)
            drain(restarted, clock)
            assert restarted.status().replayed == 1
            # the restarted table deals on, after its backlog
            deal(restarted, players(4))
            drain(restarted, clock)
        assert journal.counts().pending == 0
        assert len(journal.entries(State.ACKED)) == 6
        assert_controller_matches(api, journal, table_config)


def test_heartbeats_keep_an_idle_table_online_and_detect_an_outage(
    api: Api,
    wire: Wire,
    journal: Journal,
    link: ControllerClient,
    clock: Clock,
) -> None:
    adapter = make_adapter(journal, link, clock)
    assert adapter.step() == SETTINGS.heartbeat_seconds  # nothing to send: a heartbeat
    table = api.client.get("/v1/tables/T1", headers=api.keys.header("operator")).get_json()
    assert table["online"] is True
    clock.now += 1
    assert adapter.step() == pytest.approx(1)  # the next one is not due yet
    wire.down = True
    clock.now += 1
    for _ in range(10):
        clock.now += adapter.step()
    assert adapter.state is LinkState.DOWN
    assert not adapter.side_bets_open(), "an idle table closes too when the controller is gone"
    wire.down = False
    clock.now += adapter.step()
    assert adapter.status().state is LinkState.UP and adapter.side_bets_open()
    beats = [r for r in wire.requests if r.url.path.endswith("/heartbeat")]
    assert len(beats) >= 3 and not wire.reports()


def test_the_sender_thread_delivers_while_the_dealer_waits_for_answers(
    api: Api,
    wire: Wire,
    journal: Journal,
    link: ControllerClient,
    table_config: TableConfig,
) -> None:
    table = Table("T1", "massachusetts", seed=9, id_prefix="threaded")
    adapter = Adapter("T1", journal, link, SETTINGS, table=table).start()
    try:
        p = Players("T1", table.profile, 7, MIX, random.Random(9))
        for _ in range(40):
            assert isinstance(adapter.play_round(p.bets(adapter.side_bets_open())), Round)
            assert adapter.wait_idle(5, only_while_up=True)
    finally:
        adapter.stop()
    assert journal.counts().acked == 40
    assert_controller_matches(api, journal, table_config)


DAY_MS = 24 * 3600 * 1000
DEALT_AT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")


def dealt_at_of(entry: Entry) -> str:
    return str(json.loads(entry.body)["dealt_at"])


def test_a_report_carries_dealt_at_stamped_once_and_every_resend_repeats_it(
    api: Api,
    wire: Wire,
    journal: Journal,
    link: ControllerClient,
    clock: Clock,
    table_config: TableConfig,
) -> None:
    failures = iter([httpx.Response(503, json={"error": {}})] * 2)
    wire.before = lambda request: next(failures, None)
    adapter = make_adapter(journal, link, clock)
    before = wall_ms()
    played = deal(adapter, players())
    (entry,) = journal.pending("T1")
    assert DEALT_AT.fullmatch(dealt_at_of(entry))
    assert dealt_at_of(entry) == dealt_at(entry.created_ms), "stamped when it was journaled"
    assert before <= parse_timestamp(dealt_at_of(entry), "dealt_at") <= wall_ms()
    assert {k: v for k, v in json.loads(entry.body).items() if k != "dealt_at"} == (
        round_report(played)
    )
    drain(adapter, clock)
    sent = [r.content for r in wire.reports()]
    assert len(sent) == 3 and set(sent) == {entry.body.encode()}, "the same bytes every time"
    (acked,) = journal.entries(State.ACKED)
    assert acked.attempts == 3
    # after a crash the journaled text is resent: the controller answers it as a replay ...
    again = link.report(acked.body, "T1", acked.round)
    assert again.verdict is Verdict.ACKED and again.answer is not None and again.answer.replayed
    # ... while the same round stamped again would be another body: a conflict
    restamped = {**json.loads(acked.body), "dealt_at": dealt_at(acked.created_ms + 1)}
    conflict = link.report(json.dumps(restamped), "T1", acked.round)
    assert (conflict.verdict, conflict.status) == (Verdict.REJECTED, 409)
    assert conflict.error is not None and conflict.error.code == "round_conflict"
    assert_controller_matches(api, journal, table_config)


def test_a_report_journaled_without_dealt_at_by_an_older_adapter_is_sent_unchanged(
    api: Api,
    wire: Wire,
    journal: Journal,
    link: ControllerClient,
    clock: Clock,
    table_config: TableConfig,
) -> None:
    old = {
        "table": "T1",
        "round": "v1-1",
        "dealer": {"card": "Qs"},
        "spots": [{"spot": 1, "wager": 500, "card": "4d"}],
    }
    text = json.dumps(old)  # spaces after separators: not what this version would write
    journal.append("T1", "v1-1", text, 0)
    adapter = make_adapter(journal, link, clock)
    deal(adapter, players())
    drain(adapter, clock)
    assert wire.reports()[0].content == text.encode()
    assert [e.round for e in journal.entries(State.ACKED)][0] == "v1-1"
    assert "dealt_at" in json.loads(journal.entries(State.ACKED)[1].body)
    assert_controller_matches(api, journal, table_config)


def test_a_round_dealt_before_the_retention_window_is_quarantined_not_resent_and_shown(
    api: Api,
    wire: Wire,
    journal: Journal,
    link: ControllerClient,
    clock: Clock,
    table_config: TableConfig,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    adapter = make_adapter(journal, link, clock)
    p = players()
    # the table dealt this round eight days ago (the controller keeps seven) and its report
    # never reached the controller: e.g. a journal restored from a table long switched off
    eight_days_ago = wall_ms() - 8 * DAY_MS
    monkeypatch.setattr(adapter_module, "wall_ms", lambda: eight_days_ago)
    expired = deal(adapter, p)
    monkeypatch.undo()
    fresh = deal(adapter, p)
    value = api.meters("main")["value_units"]
    with caplog.at_level(logging.ERROR, logger="table_adapter"):
        drain(adapter, clock)
    (entry,) = journal.entries(State.QUARANTINED)
    assert entry.round == expired.round_id and entry.status == 422
    error = json.loads(entry.answer or "")["error"]
    assert (error["code"], error["field"]) == ("round_expired", "dealt_at")
    assert f"{expired.round_id} QUARANTINED" in caplog.text
    assert "dealt before the controller's retention window; needs an operator" in caplog.text
    assert [e.round for e in journal.entries(State.ACKED)] == [fresh.round_id]
    for _ in range(3):
        clock.now += adapter.step()
    assert sum(json.loads(r.content)["round"] == expired.round_id for r in wire.reports()) == 1
    assert journal.counts() == Counts(acked=1, quarantined=1)
    status = adapter.status()
    assert (status.quarantined, status.rejected, status.acked, status.pending) == (1, 0, 1, 0)
    assert status.state is LinkState.UP and status.side_bets_open, "an old round: not the table"
    assert "retention window" in (status.last_error or "")
    # the operator sees it on the status line and in the live view
    shot = Snapshot(
        heading=Heading(),
        pools=(),
        missing=(),
        links=(status,),
        rounds=2,
        total=None,
        elapsed=1.0,
        side_bets=0,
        handle=0,
        paid=0,
        wins=(),
        now=time.time(),
    )
    assert status_line(shot).endswith("1 QUARANTINED (not settled: needs an operator)")
    console = Console(width=100, record=True, file=io.StringIO())
    console.print(render(shot))
    view = console.export_text()
    assert re.search(r"T1 +online .*1 QUARANTINED \(not settled: needs an operator\)", view)
    # the controller settled the fresh round only
    assert api.meters("main")["value_units"] > value
    assert_controller_matches(api, journal, table_config)


def test_a_table_clock_ahead_of_the_controller_quarantines_and_closes_side_bets_until_fixed(
    api: Api,
    wire: Wire,
    journal: Journal,
    link: ControllerClient,
    clock: Clock,
    table_config: TableConfig,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    adapter = make_adapter(journal, link, clock)
    p = players()
    an_hour_ahead = wall_ms() + 3600 * 1000
    monkeypatch.setattr(adapter_module, "wall_ms", lambda: an_hour_ahead)
    ahead = deal(adapter, p)
    assert any(r.bet.side for r in ahead.results)
    clock.now += adapter.step()
    (entry,) = journal.entries(State.QUARANTINED)
    assert entry.status == 400 and json.loads(entry.answer or "")["error"]["code"] == "in_future"
    assert "ahead of the controller's clock" in caplog.text and "QUARANTINED" in caplog.text
    assert not adapter.side_bets_open(), "no wagers the controller cannot settle"
    assert "clock is ahead" in caplog.text
    monkeypatch.undo()  # the table's clock is fixed
    fixed = deal(adapter, p)
    assert all(not r.bet.side for r in fixed.results), "closed until a report is taken"
    drain(adapter, clock)
    assert [e.round for e in journal.entries(State.ACKED)] == [fixed.round_id]
    assert adapter.side_bets_open()
    assert adapter.status().quarantined == 1
    assert len(wire.reports()) == 2, "the quarantined report was not resent"
    # an operator may requeue it: the same bytes go again (accepted once the clocks agree)
    assert adapter.requeue(entry.seq).state is State.PENDING
    assert adapter.status().pending == 1
    drain(adapter, clock)
    assert wire.reports()[-1].content == entry.body.encode()
    assert journal.counts().quarantined == 1, "still ahead: quarantined again, not looped"
    assert adapter.status().quarantined == 1 and len(wire.reports()) == 3
    assert_controller_matches(api, journal, table_config)


def test_side_wagers_for_a_suspended_link_are_quarantined_then_settle_once_requeued(
    api: Api,
    wire: Wire,
    journal: Journal,
    link: ControllerClient,
    clock: Clock,
    table_config: TableConfig,
    caplog: pytest.LogCaptureFixture,
) -> None:
    adapter = make_adapter(journal, link, clock)
    p = players()
    operator = api.keys.header("operator")
    r = api.client.post("/v1/pools/main/suspend", json={"reason": "drill"}, headers=operator)
    assert r.status_code == 200, r.get_json()
    closed = deal(adapter, p)
    assert any(r.bet.side for r in closed.results)
    value = api.meters("main")["value_units"]
    caplog.set_level(logging.WARNING, logger="table_adapter")
    drain(adapter, clock)
    (entry,) = journal.entries(State.QUARANTINED)
    assert entry.round == closed.round_id and entry.status == 409
    assert json.loads(entry.answer or "")["error"]["code"] == "progressive_closed"
    assert "progressive was closed" in caplog.text and "QUARANTINED" in caplog.text
    assert api.meters("main")["value_units"] == value, "nothing settled"
    assert not adapter.side_bets_open(), "closed: no more wagers the controller refuses"
    without = deal(adapter, p)
    assert all(not r.bet.side for r in without.results)
    drain(adapter, clock)
    # the table keeps asking (heartbeats) while the progressive is closed
    for _ in range(3):
        clock.now += adapter.step()
    assert not adapter.side_bets_open()
    r = api.client.post("/v1/pools/main/resume", headers=operator)
    assert r.status_code == 200, r.get_json()
    clock.now += adapter.step()  # the next heartbeat says the side bet is open again
    assert adapter.side_bets_open()
    assert "opened the progressive again" in caplog.text
    assert adapter.requeue(entry.seq).state is State.PENDING
    drain(adapter, clock)
    assert {e.round for e in journal.entries(State.ACKED)} == {without.round_id, closed.round_id}
    assert journal.counts() == Counts(acked=2)
    assert_controller_matches(api, journal, table_config, in_order=False)  # one requeued


def test_a_void_is_journaled_and_delivered_after_its_round_through_an_outage_and_a_restart(
    api: Api,
    wire: Wire,
    journal: Journal,
    link: ControllerClient,
    clock: Clock,
    table_config: TableConfig,
    tmp_path: Path,
) -> None:
    wire.down = True
    adapter = make_adapter(journal, link, clock)
    p = players()
    first, second = deal(adapter, p), deal(adapter, p)
    spot = round_report(first)["spots"][0]["spot"]
    whole = adapter.void_round(second.round_id, "a second face-up card")
    part = adapter.void_round(first.round_id, "no card dealt to the spot", [spot])
    assert adapter.void_round(second.round_id, "asked again") == whole, "journaled once"
    assert adapter.status().pending == 4
    # the adapter dies with all four pending; another opens the same journal
    journal.close()
    with Journal(journal.path) as reopened:
        wire.down = False
        again = make_adapter(reopened, link, clock)
        drain(again, clock)
        acked = reopened.entries(State.ACKED)
    assert [e.round for e in acked] == [
        first.round_id, second.round_id, whole.round, part.round,
    ]  # fmt: skip
    paths = [r.url.path for r in wire.requests if r.method == "POST"]
    assert paths.index(f"/v1/rounds/T1/{second.round_id}/void") > paths.index("/v1/rounds")
    held = {json.loads(e.answer or "")["result"] for e in acked if e.void_of}
    assert held == {"awaiting_approval"}, "a table's void waits for a person"
    requested = [e for e in api.journal(pool=None) if e["type"] == "void_requested"]
    assert sorted(e["round"] for e in requested) == sorted([first.round_id, second.round_id])
    assert [str(e["spots"]) for e in requested if e["round"] == first.round_id] == [str(spot)]


def rewind(client: Any, snapshot: dict[bytes, tuple[bytes, int]]) -> None:
    """The store as it was at `snapshot` (DUMP of every key): what a failover to a replica
    that missed the latest writes leaves."""
    for name in client.keys("*"):
        if name not in snapshot:
            client.delete(name)
    for name, (dumped, ttl) in snapshot.items():
        client.restore(name, max(ttl, 0), dumped, replace=True)


def test_the_tables_counts_agree_until_the_store_loses_acknowledged_rounds(
    api: Api,
    wire: Wire,
    journal: Journal,
    link: ControllerClient,
    clock: Clock,
    table_config: TableConfig,
    redis_server: RedisServer,
    caplog: pytest.LogCaptureFixture,
) -> None:
    services = api.client.application.extensions["jackpot"]
    raw = redis_lib.Redis.from_url(redis_server.url)
    adapter = make_adapter(journal, link, clock)
    p = players()
    for _ in range(4):
        deal(adapter, p)
    drain(adapter, clock)
    clock.now += adapter.step()  # nothing in flight: the table reports its counts
    [sent] = [r for r in wire.requests if r.url.path == "/v1/tables/T1/counts"]
    [day] = json.loads(sent.content)["days"]
    assert day["rounds"] == 4 and day["handle"] > 0
    [check] = services.table_counts.compare()
    assert check["differences"] == {} and check["controller_counts"] == check["table_counts"]

    snapshot = {k: (raw.dump(k), raw.pttl(k)) for k in raw.keys("*")}
    lost = [deal(adapter, p) for _ in range(3)]
    drain(adapter, clock)
    rewind(raw, snapshot)  # three acknowledged rounds gone, from the journal too
    clock.now += SETTINGS.counts_seconds
    with caplog.at_level(logging.ERROR, logger="table_adapter"):
        clock.now += adapter.step()
        [check] = services.table_counts.compare()
        assert check["differences"]["rounds"] == {"table": 7, "controller": 4}
        handle = sum(b.bet.side for r in lost for b in r.results)
        assert (
            check["differences"]["handle"]["table"] - check["differences"]["handle"]["controller"]
            == handle
        )
        clock.now += SETTINGS.counts_seconds
        clock.now += adapter.step()  # the next report is answered with the comparison
    assert (
        "does not hold what it acknowledged: " in caplog.text
        and "rounds 7 here, 4 at" in caplog.text
    )
    metrics = api.client.get("/metrics").get_data(as_text=True)
    assert 'jackpot_table_counts_differ{table="T1"} 1.0' in metrics
    assert 'jackpot_table_count_difference{figure="rounds",table="T1"} 3.0' in metrics
    shown = api.client.get("/v1/tables/T1", headers=api.keys.header("operator")).get_json()
    assert shown["counts_check"]["differences"]["rounds"]["table"] == 7
