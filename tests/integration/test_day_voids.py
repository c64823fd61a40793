"""Voids apart in the gaming day (issue 40, D278): a day's statement and files count the
jackpots voided apart from those won, paid and still owed (owed at open + won − paid − voided
= owed at close), and list every void of the day with who asked, who approved and why; a
jackpot voided with its round is counted once, in its round's row."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from jackpot.cli import accounting as accounting_cli
from jackpot.cli.main import main
from jackpot.domain.auth import Role
from jackpot.domain.dayclose import HAND_PAY_STEMS
from jackpot.domain.dayfiles import FILES, TOTAL, dollars
from jackpot.store.keys import Keys as StoreKeys
from tests.support.accounting_day import ZONE, get, play, tell_counts, today
from tests.support.api import round_body
from tests.support.archive_world import ARCHIVES, World, dealt, world_on
from tests.support.checks import HAND_PAY
from tests.support.people import issue

APPROVAL = 50_000  # from $500 a jackpot's void needs a second person


@pytest.fixture(params=ARCHIVES)
def world(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[World]:
    with world_on(
        request,
        tmp_path,
        gaming_day_start="06:00",
        time_zone=ZONE,
        handpay_approval_cents=APPROVAL,
    ) as w:
        yield w


OPERATOR = "operator of the tests (OPERATOR-OF-THE-TESTS)"
DANA = "Dana Reyes (DANA-REYES)"


def post(w: World, path: str, key: str, **body: Any) -> Any:
    r = w.api.client.post(path, json=body, headers={"Authorization": f"Bearer {key}"})
    assert r.status_code in (200, 202), r.get_json()  # 202: held for a second person
    return r.get_json()


def sheet(w: World, path: str) -> list[dict[str, str]]:
    r = get(w, path)
    assert r.status_code == 200, r.get_data(as_text=True)
    return list(csv.DictReader(io.StringIO(r.get_data(as_text=True))))


def test_a_jackpot_voided_by_two_people_is_counted_apart_with_who_and_why(world: World) -> None:
    """The examiner's day: a jackpot voided on review ("misdeal … review 88") by one person
    and approved by another, and a round voided by one: the pool counts the jackpot won and
    voided, not paid nor owed; the register and the voids file say who asked, who approved
    and why; every file foots."""
    w = world
    operator = w.api.keys.operator
    dana = issue(w.services, Role.OPERATOR, (), "Dana Reyes")
    answers = play(w)
    [jackpot] = [jp for a in answers for jp in a["jackpots"]]
    assert jackpot["amount"] >= APPROVAL
    reason = "misdeal found on camera review 88"
    post(w, f"/v1/payouts/{jackpot['id']}/dispute", operator, reason="review 88")
    asked = post(w, f"/v1/payouts/{jackpot['id']}/void", operator, reason=reason)
    assert asked["status"] == "disputed", "from the threshold a void is only asked for"
    post(w, f"/v1/payouts/{jackpot['id']}/void/approve", dana, reason="seen the tape")
    d2 = next(a for a in answers if a["round"] == "d2")
    post(w, "/v1/rounds/T1/d2/void", operator, reason="card not dealt to the wager")
    day = today(w)
    w.clock.pass_days(2)
    statement = w.services.accounting.close(day)
    assert statement["layout_version"] >= 5 and statement["balanced"] is True

    [pool] = statement["pools"]
    assert (pool["jackpots_count"], pool["jackpots_cents"]) == (1, jackpot["amount"])
    assert (pool["voided_jackpots_count"], pool["voided_jackpots_cents"]) == (
        1,
        jackpot["amount"],
    )
    assert (pool["paid_jackpots_count"], pool["unpaid_jackpots_count"]) == (0, 0)
    assert pool["returned_jackpots_count"] == 0, "a payout's own void moves no money (D52)"
    # what is owed rolls forward: owed at open + won − paid − voided = owed at close
    assert (
        pool["owed_at_open_cents"]
        + pool["jackpots_cents"]
        - pool["paid_jackpots_cents"]
        - pool["voided_jackpots_cents"]
        == pool["unpaid_jackpots_cents"]
    )

    [hit] = statement["hits"]
    assert hit["status_at_close"] == "void"
    assert (hit["void_asked_by"], hit["voided_by"], hit["void_reason"]) == (OPERATOR, DANA, reason)

    payout_row, round_row = sorted(statement["voids"], key=lambda v: v["kind"])
    assert payout_row == {
        **payout_row,
        "kind": "payout",
        "pool": "main",
        "payout": jackpot["id"],
        "voided_from": "disputed",
        "payout_amount_cents": jackpot["amount"],
        "asked_by": OPERATOR,
        "approved_by": DANA,
        "reason": reason,
        "approval_note": "seen the tape",
    }
    handle = sum(s["wager"] for s in d2["spots"])
    assert round_row == {
        **round_row,
        "kind": "round",
        "table": "T1",
        "round": "d2",
        "spots": "1",
        "whole": True,
        "bets": len(d2["spots"]),
        "handle_cents": handle,
        "jackpots": 0,
        "asked_by": OPERATOR,
        "approved_by": "",
        "reason": "card not dealt to the wager",
    }

    rows = sheet(w, f"/v1/accounting/days/{day}/voids.csv")
    assert list(rows[0]) == FILES["voids"].header
    data = [r for r in rows if r["table"] != TOTAL]
    [total] = [r for r in rows if r["table"] == TOTAL]
    assert [(r["kind"], r["asked_by"], r["approved_by"], r["reason"]) for r in data] == [
        (v["kind"], v["asked_by"], v["approved_by"], v["reason"]) for v in statement["voids"]
    ]
    assert total["payout_amount"] == dollars(jackpot["amount"])
    assert total["handle"] == dollars(handle) and int(total["bets"]) == len(d2["spots"])
    [pools_line, _] = sheet(w, f"/v1/accounting/days/{day}/pools.csv")
    assert pools_line["voided_jackpots_count"] == "1"
    assert pools_line["voided_jackpots"] == dollars(jackpot["amount"])
    [hits_line, _] = sheet(w, f"/v1/accounting/days/{day}/hits.csv")
    assert (hits_line["void_asked_by"], hits_line["void_reason"]) == (OPERATOR, reason)


def test_a_round_void_counts_its_jackpot_once_and_names_who_asked(world: World) -> None:
    """A round whose jackpot reaches the threshold, voided on one person's ask and another's
    approval: one row, its jackpot counted in it (not again as a payout's void); the jackpot
    goes back to the meter (returned) and is no longer owed (voided); the register names who
    asked for the round's void, not the approver."""
    w = world
    operator = w.api.keys.operator
    dana = issue(w.services, Role.OPERATOR, (), "Dana Reyes")
    answers = play(w)
    [jackpot] = [jp for a in answers for jp in a["jackpots"]]
    asked = post(w, "/v1/rounds/T1/d3/void", operator, reason="second face-up card")
    assert asked["result"] == "awaiting_approval", asked
    post(w, "/v1/rounds/T1/d3/void/approve", dana, reason="pit boss saw it")
    day = today(w)
    w.clock.pass_days(2)
    statement = w.services.accounting.close(day)
    assert statement["balanced"] is True
    [row] = statement["voids"]
    assert (row["kind"], row["round"], row["jackpots"], row["jackpot_pays_cents"]) == (
        "round",
        "d3",
        1,
        jackpot["amount"],
    )
    assert (row["asked_by"], row["approved_by"], row["approval_note"]) == (
        OPERATOR,
        DANA,
        "pit boss saw it",
    )
    [pool] = statement["pools"]
    assert pool["returned_jackpots_cents"] == pool["voided_jackpots_cents"] == jackpot["amount"]
    [hit] = statement["hits"]
    assert (hit["void_asked_by"], hit["voided_by"]) == (OPERATOR, DANA)
    assert hit["void_reason"] == "round voided: second face-up card"


@pytest.fixture(params=ARCHIVES)
def hand_world(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[World]:
    """Fixed and envy pays from $1,000.00 held as hand pays."""
    with world_on(
        request, tmp_path, gaming_day_start="06:00", time_zone=ZONE, handpay_cents=100_000
    ) as w:
        yield w


def held_pays(w: World, round_id: str) -> dict[str, str]:
    """A round holding two hand pays: spot 1's suited four of a kind ($5: 1000 to 1, a
    $5,000 fixed pay) and spot 2's envy ($1,000); their payout ids by kind."""
    spots = [{"spot": 1, "wager": 500, "card": "As", "war": True, "war_card": "As"},
             {"spot": 2, "wager": 500, "card": "4d"}]  # fmt: skip
    body = round_body(round_id, dealer="As", dealer_war="As", spots=spots)
    body["dealt_at"] = dealt(w.clock)
    answer = w.api.report(body)
    assert answer.status_code == 200, answer.get_json()
    return {h["kind"]: h["id"] for h in answer.get_json()["hand_pays"]}


def rolled(pool: dict[str, Any]) -> list[tuple[int, int]]:
    """A pool's hand pays owed at open, held, paid, voided and owed at close (count, cents)."""
    return [(pool[f"{s}_count"], pool[f"{s}_cents"]) for s in HAND_PAY_STEMS]


def test_hand_pays_owed_roll_from_one_day_to_the_next(
    hand_world: World, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Layout 6 (D300): a hand pay held on day 1 and paid on day 2 is owed at day 1's close
    and day 2's open; one voided on its own and two voided with their round are voided while
    owed; one paid and then voided was paid; owed at open + held − paid − voided = owed at
    close, in the statement, pools.csv and against the archive again."""
    w = hand_world
    operator = w.api.keys.operator
    first = held_pays(w, "h1")
    post(w, f"/v1/payouts/{first['envy']}/dispute", operator, reason="envy spot had no bet")
    post(w, f"/v1/payouts/{first['envy']}/void", operator, reason="envy spot had no bet")
    day1 = today(w)
    w.clock.pass_days(1)
    w.redis.hset(StoreKeys().counters, "clock", str(w.clock()))  # the store's clock: day 2
    post(w, f"/v1/payouts/{first['fixed']}/confirm", operator, **HAND_PAY)
    held_pays(w, "h2")
    post(w, "/v1/rounds/T1/h2/void", operator, reason="dealt from the wrong shoe")
    third = held_pays(w, "h3")
    post(w, f"/v1/payouts/{third['fixed']}/confirm", operator, **HAND_PAY)
    post(w, f"/v1/payouts/{third['fixed']}/void", operator, reason="slip written twice")
    w.clock.pass_days(2)
    one = w.services.accounting.close(day1)
    two = w.services.accounting.close(day1 + timedelta(days=1))
    assert one["layout_version"] == two["layout_version"] == 6
    assert one["balanced"] is two["balanced"] is True
    [p1], [p2] = one["pools"], two["pools"]
    assert rolled(p1) == [(0, 0), (2, 600_000), (0, 0), (1, 100_000), (1, 500_000)]
    assert one["hand_pays_unpaid_at_close"] == {"main": {first["fixed"]: 500_000}}
    # day 2: owed at open, h2's two voided with their round, h3's fixed paid then voided
    assert rolled(p2) == [(1, 500_000), (4, 1_200_000), (2, 1_000_000), (2, 600_000),
                          (1, 100_000)]  # fmt: skip
    assert two["hand_pays_unpaid_at_close"] == {"main": {third["envy"]: 100_000}}
    for p in (p1, p2):
        (o, oc), (h, hc), (pd, pc), (v, vc), (c, cc) = rolled(p)
        assert (o + h - pd - v, oc + hc - pc - vc) == (c, cc)
    assert p2["unpaid_jackpots_count"] == 2, "the pool's jackpots owed are its own, apart"
    # the day's file, and the days computed again from the archive
    [line, total] = sheet(w, f"/v1/accounting/days/{day1 + timedelta(days=1)}/pools.csv")
    assert (line["hand_pays_owed_at_open_count"], line["hand_pays_owed_at_open"]) == (
        "1",
        "5000.00",
    )
    assert (line["unpaid_hand_pays"], total["unpaid_hand_pays_cents"]) == ("1000.00", "100000")
    for day in (day1, day1 + timedelta(days=1)):
        recorded = w.services.archive.day(day.isoformat())
        assert recorded is not None
        assert w.services.accounting.recompute(recorded) == []
    # and `jackpot accounting show` prints the roll
    with_cli(w, monkeypatch)
    capsys.readouterr()
    assert main(["accounting", "show", "--date", str(day1 + timedelta(days=1))]) == 0
    out = capsys.readouterr().out
    assert (
        "hand pays owed: 1 $5,000.00 at open + 4 $12,000.00 held - 2 $10,000.00 paid - "
        "2 $6,000.00 voided = 1 $1,000.00 at close"
    ) in out, out


def with_cli(w: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """`jackpot accounting` over the world's services, whose clock the test moves."""

    @contextmanager
    def built(settings: Any) -> Iterator[Any]:
        yield w.services

    monkeypatch.setattr(accounting_cli, "services", built)


def test_accounting_show_says_why_it_exits_non_zero_when_every_pool_balances(
    world: World, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every pool balances and T1's own handle is $1.00 off the controller's (D301): the
    output says the pools balanced and the tables' counts differ, and its last line why it
    exits 4 (1 is kept for a pool that does not balance), with --json too (on stderr); a day
    whose counts match exits 0."""
    w = world
    tell_counts(w, play(w), handle_off=100)
    day = today(w)
    w.clock.pass_days(2)
    statement = w.services.accounting.close(day)
    assert statement["balanced"] is True and statement["table_counts_balanced"] is False
    with_cli(w, monkeypatch)
    capsys.readouterr()
    assert main(["accounting", "show", "--date", str(day)]) == 4
    lines = capsys.readouterr().out.splitlines()
    assert "pools balanced: yes; tables' own counts: differ (T1)" in lines[1], lines
    assert lines[-1] == (
        "exit 4: every pool balances, but the tables' own counts differ from the controller's: T1"
    )
    assert main(["accounting", "show", "--date", str(day), "--json"]) == 4
    err = capsys.readouterr().err
    assert "jackpot accounting: exit 4: every pool balances" in err, err
    assert accounting_cli.verdict({**statement, "balanced": False})[0] == 1
    assert accounting_cli.verdict({**statement, "table_counts_balanced": True}) == (0, "")
