"""The payouts' history: a search sees every payout as it is now, whether the archive or Redis
holds it; the archive's index says what the archived chain says; a payout's full record
lists every step with who, when, payer, witness and slip."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import select

from jackpot.archive.payoutindex import person_key
from jackpot.archive.rows import entry_row
from jackpot.archive.schema import journal_entries, payout_people, payouts
from jackpot.archive.store import Archive
from jackpot.domain.payout import Payout
from jackpot.domain.payoutrecord import PayoutQuery, fold
from tests.support.api import round_body
from tests.support.archive_world import ARCHIVES, World, world_on


@pytest.fixture(params=ARCHIVES)
def w(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[World]:
    with world_on(request, tmp_path) as world:
        world.api.put_table("T2")
        yield world


def win(w: World, round_id: str, table: str = "T1") -> str:
    """A jackpot (a suited war of aces): its payout id."""
    r = w.api.report(
        round_body(
            round_id,
            table=table,
            dealer="As",
            dealer_war="As",
            spots=[{"spot": 1, "wager": 500, "card": "As", "war": True, "war_card": "As"}],
        )
    )
    assert r.status_code == 200, r.get_json()
    return str(r.get_json()["jackpots"][0]["id"])


def step(w: World, payout: str, name: str, body: dict[str, Any], role: str = "operator") -> None:
    r = w.api.client.post(
        f"/v1/payouts/{payout}/{name}", json=body, headers=w.api.keys.header(role)
    )
    assert r.status_code == 200, r.get_json()


def history(w: World, **criteria: Any) -> dict[str, Any]:
    r = w.api.client.get(
        "/v1/payouts/history", query_string=criteria, headers=w.api.keys.header("auditor")
    )
    assert r.status_code == 200, r.get_json()
    return dict(r.get_json())


def record(w: World, payout: str) -> dict[str, Any]:
    r = w.api.client.get(f"/v1/payouts/{payout}/record", headers=w.api.keys.header("auditor"))
    assert r.status_code == 200, r.get_json()
    return dict(r.get_json())


def shift(w: World) -> dict[str, str]:
    """Four jackpots at two tables, each left at another step: their ids by what became of
    them."""
    ids = {
        "pending": win(w, "a1"),
        "paid": win(w, "a2"),
        "disputed": win(w, "a3", "T2"),
        "void": win(w, "a4", "T2"),
    }
    confirm = {"paid_by": "DANA-REYES", "witness": "LEE-CHAN", "slip": "HP-1"}
    step(w, ids["paid"], "confirm", confirm)
    step(w, ids["disputed"], "dispute", {"reason": "camera check"})
    step(w, ids["void"], "dispute", {"reason": "misdeal on camera"})
    step(w, ids["void"], "void", {"reason": "misdeal confirmed"})
    return ids


def searches(w: World) -> dict[str, Any]:
    """Every search the test asks, with its answer."""
    asks: dict[str, dict[str, Any]] = {
        "all": {},
        "T2": {"table": "T2"},
        "paid": {"status": "paid"},
        "owed": {"status": "pending,disputed,awaiting_approval"},
        "dana": {"person": " DANA reyes"},
        "today": {"from": today(w), "to": today(w)},
        "main": {"pool": "main", "limit": 2},
    }
    return {name: history(w, **ask) for name, ask in asks.items()}


def today(w: World) -> str:
    return w.services.days().of_time(w.clock()).isoformat()


def test_a_search_answers_alike_before_and_after_the_archive_takes_the_payouts(w: World) -> None:
    ids = shift(w)
    live = searches(w)
    assert [p["id"] for p in live["all"]["payouts"]] == sorted(ids.values(), reverse=True)
    assert {p["id"] for p in live["T2"]["payouts"]} == {ids["disputed"], ids["void"]}
    assert [p["id"] for p in live["paid"]["payouts"]] == [ids["paid"]]
    assert [p["id"] for p in live["dana"]["payouts"]] == [ids["paid"]]
    assert len(live["today"]["payouts"]) == 4
    assert live["main"]["next"] is not None and len(live["main"]["payouts"]) == 2
    totals = live["all"]["totals"]
    assert {s: t["payouts"] for s, t in totals.items()} == {
        "pending": 1,
        "paid": 1,
        "disputed": 1,
        "void": 1,
    }
    amounts = {p["status"]: 0 for p in live["all"]["payouts"]}
    for p in live["all"]["payouts"]:
        amounts[p["status"]] += p["amount"]
    assert {s: t["amount"] for s, t in totals.items()} == amounts

    w.services.archiver.run()  # taken by the archive, still in Redis
    assert searches(w) == live
    w.clock.pass_window()
    w.services.archiver.run()  # and gone from the settled index
    keys = w.services.groups.main.keys
    assert w.redis.zcard(keys.payouts_settled) == 0
    assert searches(w) == live


def test_a_step_after_archiving_is_seen_at_once_and_then_from_the_archive(w: World) -> None:
    ids = shift(w)
    w.services.archiver.run()
    w.clock.pass_window()
    w.services.archiver.run()
    step(w, ids["paid"], "void", {"reason": "paid to the wrong patron"})
    voided = history(w, status="void")
    assert {p["id"] for p in voided["payouts"]} == {ids["paid"], ids["void"]}
    assert voided["totals"]["void"]["payouts"] == 2
    assert history(w, status="paid")["payouts"] == []
    assert "paid" not in history(w)["totals"]
    w.clock.pass_window()
    w.services.archiver.run()
    assert history(w, status="void") == voided


def test_pages_follow_each_other_without_a_gap_or_a_repeat(w: World) -> None:
    made = [win(w, f"p{i}", "T1" if i % 2 else "T2") for i in range(7)]
    w.services.archiver.run()
    made += [win(w, f"q{i}") for i in range(3)]  # live: not archived yet
    seen: list[str] = []
    page = history(w, limit=3)
    while True:
        seen += [p["id"] for p in page["payouts"]]
        if page["next"] is None:
            break
        page = history(w, limit=3, before=page["next"])
    assert seen == sorted(made, reverse=True)


def test_a_person_is_found_as_a_person_and_by_the_keys_they_hold(w: World) -> None:
    ids = shift(w)
    w.services.archiver.run()
    # the witness typed another way; the operator by the name their key was made with
    assert {p["id"] for p in history(w, person="lee\u200bCHAN")["payouts"]} == {ids["paid"]}
    by_operator = {p["id"] for p in history(w, person="Operator of the tests")["payouts"]}
    assert by_operator == {ids["paid"], ids["disputed"], ids["void"]}
    assert history(w, person="Nobody Here")["payouts"] == []


def test_the_longest_name_is_archived_and_found_by_name_and_by_id(w: World) -> None:
    """A name as long as the register takes (80 characters, each of them growing under the
    comparison of names): the index keeps each person by a digest, so the archive takes it
    and a search finds it, by the name and by the number."""
    payout = win(w, "long")
    payer = w.services.people.register("E8080", "Ǆ" * 40 + " " + "ǆ" * 39)
    step(w, payout, "confirm", {"paid_by": "E8080", "witness": "LEE-CHAN", "slip": "HP-9"})
    run = w.services.archiver.run()
    assert not run.problems and run.archived["pool/main"] > 0
    for wanted in (payer.name, "e8080"):
        found = history(w, person=wanted)
        assert [p["id"] for p in found["payouts"]] == [payout], wanted
    assert w.services.verifier.run().intact


def test_the_last_step_finds_a_shift(w: World) -> None:
    ids = shift(w)
    later = w.clock() + 3_600_000
    changed = history(w, changed_from=iso(w.clock() - 60_000), changed_to=iso(later))
    assert {p["id"] for p in changed["payouts"]} == set(ids.values())
    assert history(w, changed_from=iso(later))["payouts"] == []


def iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="milliseconds")


def test_a_record_lists_every_step_the_same_before_and_after_archiving(w: World) -> None:
    payout = win(w, "big")
    step(w, payout, "dispute", {"reason": "camera check"})
    confirm = {"paid_by": "DANA-REYES", "witness": "LEE-CHAN", "slip": "HP-77"}
    step(w, payout, "confirm", confirm)
    live = record(w, payout)
    assert [s["step"] for s in live["steps"]] == ["won", "disputed", "paid"]
    paid = live["steps"][-1]
    assert (paid["paid_by"], paid["witness"], paid["slip"]) == (
        "Dana Reyes (DANA-REYES)",
        "Lee Chan (LEE-CHAN)",
        "HP-77",
    )
    assert paid["person"] == "operator of the tests (OPERATOR-OF-THE-TESTS)"
    assert live["payout"]["status"] == "paid"
    w.services.archiver.run()
    archived = record(w, payout)
    assert all(s["hash"] for s in archived["steps"])
    for step_ in archived["steps"]:
        step_["hash"] = None
    assert archived == live


def test_bad_criteria_are_refused_naming_the_field(w: World) -> None:
    for criteria, field in (
        ({"status": "paid,lost"}, "status"),
        ({"from": "2026-13-01"}, "from"),
        ({"from": "2026-11-02", "to": "2026-11-01"}, "to"),
        ({"changed_from": "2026-11-02T10:00"}, "changed_from"),
        ({"person": "\u200b "}, "person"),
        ({"before": "yesterday"}, "before"),
        ({"limit": "0"}, "limit"),
        ({"table": "a/b"}, "table"),
        ({"colour": "red"}, "colour"),
        # given empty is not left out; no payout is numbered 0 or below (D246)
        ({"status": ""}, "status"),
        ({"before": ""}, "before"),
        ({"person": " "}, "person"),
        ({"payout": "0"}, "payout"),
        ({"payout": "-1"}, "payout"),
        ({"status": "paid,"}, "status"),
    ):
        r = w.api.client.get(
            "/v1/payouts/history", query_string=criteria, headers=w.api.keys.header("auditor")
        )
        assert r.status_code == 400, (criteria, r.get_json())
        assert r.get_json()["error"]["field"] == field, criteria
    r = w.api.client.get("/v1/payouts/history", headers=w.api.keys.header("display"))
    assert r.status_code == 403


def test_the_index_is_built_for_an_archive_from_before_it(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    archive = Archive(url)
    config = Config()
    config.set_main_option("script_location", "jackpot.archive:migrations")
    with archive.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
    made = {"type": "hit", "ts": "1000", "who": "table:t", "payout": "P000001", "table": "T1",
            "round": "r1", "spot": "2", "player": "", "outcome": "war", "meter_bp": "10000",
            "amount": "123456"}  # fmt: skip
    paid = {"type": "payout_paid", "ts": "2000", "who": "operator:k", "payout": "P000001",
            "table": "T1", "round": "r1", "spot": "2", "amount": "123456", "note": "",
            "paid_by": "DANA", "witness": "LEE", "slip": "S1"}  # fmt: skip
    rows = [entry_row("pool/main", 1, "", "h1", made), entry_row("pool/main", 2, "h1", "h2", paid)]
    with archive.engine.begin() as connection:
        connection.execute(
            journal_entries.insert(),
            [dict(zip([c.name for c in journal_entries.c], r, strict=True)) for r in rows],
        )
    archive.ensure()  # to the newest revision: the index, built
    want = Payout.of(fold(fold(None, "main", made), "main", paid))
    assert archive.search_payouts(PayoutQuery(), 10) == [want]
    with archive.engine.connect() as connection:
        people = set(connection.execute(select(payout_people.c.person)).scalars())
        steps = connection.execute(select(payouts.c.steps)).scalar()
    assert people == {person_key(p) for p in ("dana", "lee", "operator:k")}
    assert steps == "[1,2]"


def test_verify_holds_the_index_to_the_chain(w: World) -> None:
    ids = shift(w)
    w.services.archiver.run()
    assert w.services.verifier.run().intact
    engine = w.services.archive.engine
    forged = {"id": "P999999", "journal": "pool/main", "pool": "main", "table_id": "T1",
              "number": 999999, "status": "paid", "amount": 1, "created": 1, "changed": 1,
              "steps": "[1]", "record": "{}"}  # fmt: skip
    with engine.begin() as connection:
        # the paid jackpot shown as void, the pending one forgotten, a payout nobody won,
        # and the disputed one found under someone who never touched it
        connection.execute(
            payouts.update().where(payouts.c.id == ids["paid"]).values(status="void")
        )
        connection.execute(payouts.delete().where(payouts.c.id == ids["pending"]))
        connection.execute(payouts.insert(), [forged])
        connection.execute(payout_people.insert(), [{"person": "dana", "payout": ids["disputed"]}])
    problems = [f.problem for f in w.services.verifier.run().findings]
    assert "the payouts' index holds P999999, which no entry made" in problems
    assert f"payout {ids['pending']} is missing from the payouts' index" in problems
    assert (
        f"the payouts' index finds {ids['disputed']} under other people than its entries name"
        in problems
    )
    assert len(problems) == 4, problems


def test_verify_since_holds_the_period_s_payouts_to_the_index(w: World) -> None:
    """A walk from mid-journal checks the index rows of the payouts with an entry in it,
    those begun before it too; a row at a seq outside the chain is found by either walk."""
    ids = shift(w)
    w.services.archiver.run()
    verifier = w.services.groups.main.verifier
    archived = [e for e, _ in w.services.archive.entries("pool/main")]
    paid = [e for e in archived if e.get("payout") == ids["paid"]]
    assert len(paid) >= 2, paid
    since = int(str(paid[-1].get("ts")))  # the confirmation: the hit is before the period
    assert w.services.archive.first_seq_at("pool/main", since) > paid[0].seq
    assert verifier.run(since).intact
    tip, _ = w.services.archive.tip("pool/main")
    engine = w.services.archive.engine
    with engine.begin() as connection:
        # the paid jackpot, begun before the period, shown as void; a payout nobody won
        # placed before the chain's first entry, another past its newest
        connection.execute(
            payouts.update().where(payouts.c.id == ids["paid"]).values(status="void")
        )
        for n, seq in ((999998, 0), (999999, tip + 1)):
            forged = {"id": f"P{n}", "journal": "pool/main", "pool": "main", "table_id": "T1",
                      "number": n, "status": "paid", "amount": 1, "created": 1, "changed": 1,
                      "steps": f"[{seq}]", "record": "{}"}  # fmt: skip
            connection.execute(payouts.insert(), [forged])
    expected = {
        f"the payouts' index says {ids['paid']} is not what its entries say",
        f"the payouts' index places P999998 at seq 0, outside the archived chain (seq 1 to {tip})",
        f"the payouts' index places P999999 at seq {tip + 1}, outside the archived chain "
        f"(seq 1 to {tip})",
    }
    for done in (verifier.run(since), verifier.run()):
        problems = [f.problem for f in done.findings]
        assert set(problems) == expected, problems
