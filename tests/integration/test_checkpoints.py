"""Signed checkpoints of the journals' heads on a real redis-server and archive: made by the
worker when the journals moved, verifiable with the exported key by an auditor's own code,
served publicly, and holding the history to what they signed (issue 39, D253-D259)."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import redis as redis_lib
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.serialization import load_pem_public_key

from jackpot.cli.main import main
from jackpot.domain import checkpoints as rule
from jackpot.domain.checkpoints import Head
from jackpot.services.checkpointfiles import generate_key, read_key
from tests.support.api import hit
from tests.support.archive_world import ARCHIVES, World, deal, world_of, world_on
from tests.support.redis_server import RedisServer
from tests.support.tamper import rechain, refold_payout, superuser


def _keyed(w: World, data_dir: Path) -> None:
    generate_key(data_dir / "checkpoint_key.pem")


@pytest.fixture
def world(redis: redis_lib.Redis, redis_server: RedisServer, tmp_path: Path) -> Iterator[World]:
    with world_of(redis, redis_server.url, tmp_path / "var") as w:
        _keyed(w, tmp_path / "var")
        yield w


@pytest.fixture(params=ARCHIVES)
def on_either(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[World]:
    with world_on(request, tmp_path) as w:
        _keyed(w, tmp_path / "var")
        yield w


@pytest.fixture
def cli(
    redis_server: RedisServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """`jackpot` commands over the world's store and data dir."""
    monkeypatch.setenv("JACKPOT_REDIS_URL", redis_server.url)
    monkeypatch.setenv("JACKPOT_DATA_DIR", str(tmp_path / "var"))
    yield


def history_archived(w: World, jackpot: bool = True) -> None:
    """Rounds archived and trimmed, archived and still in Redis, and not archived yet; a
    jackpot among the oldest."""
    if jackpot:
        hit(w.api, "r-hit")
    deal(w, 6, "old")
    w.services.archiver.run()
    w.clock.pass_window()
    w.services.archiver.run()
    deal(w, 4, "mid")
    w.services.archiver.run()
    deal(w, 2, "new")


def hit_seq(w: World) -> int:
    entries = w.api.journal("main")
    return next(e["seq"] for e in entries if e["type"] == "hit")


def test_keygen_writes_an_owner_only_key_and_public_key_exports_it(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("JACKPOT_CHECKPOINT_KEY", str(tmp_path / "keys" / "ckpt.pem"))
    assert main(["checkpoints", "public-key"]) == 1
    assert "jackpot checkpoints keygen" in capsys.readouterr().err
    assert main(["checkpoints", "keygen"]) == 0
    made = capsys.readouterr().out
    path = tmp_path / "keys" / "ckpt.pem"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    key = read_key(path).public_key()
    assert rule.fingerprint(key) in made
    # never over an existing key
    before = path.read_bytes()
    assert main(["checkpoints", "keygen"]) == 1
    assert path.read_bytes() == before
    capsys.readouterr()
    assert main(["checkpoints", "public-key"]) == 0
    out = capsys.readouterr().out
    assert "PRIVATE" not in out and out.startswith("-----BEGIN PUBLIC KEY-----")
    assert f"fingerprint {rule.fingerprint(key)}" in out


def test_the_worker_signs_when_the_journals_moved_and_not_when_idle(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    from jackpot.jobs import checkpoints as job

    w = world
    deal(w, 3)
    first = w.services.checkpoints.make("interval")
    assert first is not None and first["id"] == 1 and first["prev"] == ""
    assert w.services.checkpoints.make("interval") is None  # idle: nothing moved
    deal(w, 1, "more")
    second = w.services.checkpoints.make("interval")
    assert second is not None and second["id"] == 2 and second["prev"] == first["hash"]
    counters = w.services.groups.main.keys.counters
    assert second["heads"]["house"] == [
        int(w.redis.hget(counters, "house_seq")),
        w.redis.hget(counters, "house_head"),
    ]
    assert second["seal"] == w.services.health.software.digest
    # the job the worker's schedule runs: its own services, from the environment
    monkeypatch.setattr(job, "services", lambda: w.services)
    assert job.make_checkpoint() is None
    deal(w, 1, "again")
    made = job.make_checkpoint()
    assert made is not None and made["id"] == 3 and made["short"] == made["hash"][:12]


def test_the_worker_schedules_the_checkpoint_job_at_its_interval(
    redis_server: RedisServer,
) -> None:
    from jackpot.cli.worker import scheduler
    from jackpot.settings import Settings

    connection = redis_lib.Redis.from_url(redis_server.url)
    try:
        cron = scheduler(connection, Settings(checkpoint_interval_seconds=17))
        jobs = {j.name: j for j in cron.get_jobs()}
    finally:
        connection.close()
    assert jobs["checkpoint"].interval == 17


def test_without_a_key_the_worker_signs_nothing_and_says_so(
    world: World,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from jackpot.jobs import checkpoints as job

    (tmp_path / "var" / "checkpoint_key.pem").unlink()
    deal(world, 1)
    monkeypatch.setattr(job, "services", lambda: world.services)
    assert job.make_checkpoint() is None
    assert "nothing signed: no checkpoint key" in caplog.text
    assert world.services.checkpoints.latest() is None


def test_a_checkpoint_verifies_with_the_exported_key_by_the_auditors_own_code(
    world: World, cli: None, capsys: pytest.CaptureFixture[str]
) -> None:
    deal(world, 2)
    made = world.services.checkpoints.make("interval")
    assert made is not None
    assert main(["checkpoints", "public-key"]) == 0
    pem = capsys.readouterr().out.split("fingerprint")[0].encode()
    # as docs/OPERATIONS.md shows an auditor: the served JSON, less hash and signature,
    # compact with sorted keys
    served = world.api.client.get("/v1/checkpoints/latest").get_json()
    body = {k: v for k, v in served.items() if k not in ("hash", "signature")}
    signed = json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
    key = load_pem_public_key(pem)
    key.verify(base64.b64decode(served["signature"]), signed)  # type: ignore[union-attr]
    with pytest.raises(InvalidSignature):
        key.verify(  # type: ignore[union-attr]
            base64.b64decode(served["signature"]), signed.replace(b'"house":[', b'"house":[1')
        )


def test_the_checkpoints_are_public_and_bad_parameters_name_the_field(world: World) -> None:
    client = world.api.client
    assert client.get("/v1/checkpoints/latest").status_code == 404
    deal(world, 1)
    first = world.services.checkpoints.make("interval")
    deal(world, 1, "b")
    second = world.services.checkpoints.make("interval")
    assert first and second
    latest = client.get("/v1/checkpoints/latest")  # no key needed
    assert latest.status_code == 200 and latest.get_json() == second
    page = client.get("/v1/checkpoints?after=1&limit=5").get_json()
    assert page == {"checkpoints": [second]}
    assert client.get("/v1/checkpoints").get_json()["checkpoints"] == [first, second]
    for query, field in (
        ("after=x", "after"),
        ("limit=0", "limit"),
        ("limit=1001", "limit"),
        ("after=", "after"),
        ("since=1", "since"),
    ):
        answer = client.get(f"/v1/checkpoints?{query}")
        assert answer.status_code == 400, query
        assert answer.get_json()["error"]["field"] == field, query
    assert client.get("/v1/checkpoints/latest?x=1").status_code == 400


def verify(*args: str) -> int:
    return main(["verify", *args])


def test_a_consistent_rewrite_fails_verify_against_a_checkpoint_kept_before(
    on_either: World,
    cli: None,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    w = on_either
    monkeypatch.setenv("JACKPOT_ARCHIVE_URL", w.services.archive.url)
    kept = tmp_path / "kept"
    kept.mkdir()

    def pull(name: str) -> dict[str, Any]:
        """An auditor's scheduled pull of the public endpoint, into a directory."""
        assert w.services.checkpoints.make("interval") is not None
        served = w.api.client.get("/v1/checkpoints/latest").get_data(True)
        (kept / name).write_text(served)
        return dict(json.loads(served))

    deal(w, 2, "early")
    before = pull("1.json")
    payout = hit(w.api, "r-hit")
    history_archived(w, jackpot=False)
    covering = pull("2.json")
    deal(w, 2, "later")
    after = pull("3.json")
    seq = hit_seq(w)
    assert before["heads"]["pool/main"][0] < seq <= covering["heads"]["pool/main"][0]
    k = w.services.groups.main.keys
    # a field of the hit that moves no money and no other record holds (the books, D260-D261,
    # see every amount): only the signed heads can show it was rewritten
    rechain(
        w.services.archive.engine,
        w.redis,
        k.pool_journal("main"),
        (k.pool("main"), "head"),
        "pool/main",
        seq,
        lambda f: f.update(meter_bp=str(int(f["meter_bp"]) // 2)),
    )
    refold_payout(w.services.archive.engine, payout)
    # the forger removes the archive's own checkpoints too, which it cannot sign again
    with superuser(w.services.archive.engine) as db:
        db.exec_driver_sql("DELETE FROM checkpoints")
    capsys.readouterr()
    assert verify() == 0  # the plain verify: every link and stored hash agrees
    assert "intact" in capsys.readouterr().out
    assert verify("--checkpoints", str(kept)) == 1
    out = capsys.readouterr().out
    assert "checkpoints kept elsewhere: 3 verified with the controller's key" in out
    signed = covering["heads"]["pool/main"][0]
    assert (
        f"TAMPERED: pool/main seq {signed}: differs from what checkpoint #2 signed "
        f"(hash {covering['heads']['pool/main'][1][:16]}…" in out
    ), out
    # the checkpoint signed before the rewritten entry still matches: it bounds the stretch
    assert (
        f"the last signed head that still matches is seq {before['heads']['pool/main'][0]} "
        "(checkpoint #1)" in out
    )
    assert "1 later signed head(s) differ too" in out
    assert after["heads"]["house"] == covering["heads"]["house"] or "house seq" not in out
    # JSON lines and one array are read alike, and the public key given is said
    (tmp_path / "k.pem").write_bytes(
        rule.public_pem(read_key(tmp_path / "var" / "checkpoint_key.pem").public_key())
    )
    lines = tmp_path / "kept.jsonl"
    lines.write_text(json.dumps(before) + "\n" + json.dumps(covering) + "\n")
    assert verify("--checkpoints", str(lines), "--public-key", str(tmp_path / "k.pem")) == 1
    out = capsys.readouterr().out
    assert f"verified with the key given ({tmp_path / 'k.pem'})" in out
    assert f"TAMPERED: pool/main seq {signed}: differs" in out


def test_the_archives_own_checkpoints_catch_a_rewrite_that_left_them(
    world: World, capsys: pytest.CaptureFixture[str]
) -> None:
    w = world
    history_archived(w)
    made = w.services.checkpoints.make("interval")
    assert made is not None
    assert w.services.verifier.run().intact
    seq = hit_seq(w)
    k = w.services.groups.main.keys
    rechain(
        w.services.archive.engine,
        w.redis,
        k.pool_journal("main"),
        (k.pool("main"), "head"),
        "pool/main",
        seq,
        lambda f: f.update(amount=str(int(f["amount"]) + 1)),
    )
    found = [str(f) for f in w.services.verifier.run().findings]
    assert any(
        f.startswith(
            f"pool/main seq {made['heads']['pool/main'][0]}: differs from what checkpoint #1 signed"
        )
        for f in found
    ), found


@pytest.mark.parametrize(
    ("column", "value"),
    [("hash", "'" + "0" * 64 + "'"), ("ts", "ts + 1"), ("day", "'2026-01-01'"), ("id", "7")],
)
def test_an_archived_checkpoints_column_edited_away_from_its_body_is_a_finding(
    world: World, column: str, value: str
) -> None:
    w = world
    deal(w, 1)
    assert w.services.checkpoints.make("interval") is not None
    assert w.services.verifier.run().intact
    with superuser(w.services.archive.engine) as db:
        db.exec_driver_sql(f"UPDATE checkpoints SET {column} = {value}")
    found = [str(f) for f in w.services.verifier.run().findings]
    assert (
        f"checkpoints: checkpoint #1: the archive's {column} column(s) differ from its signed "
        "body: the row was edited"
    ) in found, found


def _check(w: World, given: list[Any]) -> list[str]:
    return [str(f) for f in w.services.checkpoints.check(given, None, "test").findings]


def test_a_tampered_checkpoint_signature_is_a_finding(world: World) -> None:
    deal(world, 2)
    made = world.services.checkpoints.make("interval")
    assert made is not None
    assert _check(world, [made]) == []
    forged = json.loads(json.dumps(made))
    forged["heads"]["house"][0] -= 1
    assert any("signature does not verify" in f for f in _check(world, [forged]))


def test_a_checkpoint_signed_by_another_key_is_a_finding(world: World) -> None:
    deal(world, 1)
    heads = world.services.checkpoints.heads()
    other = rule.new_key()
    made = rule.make(other, 1, 0, heads, "", "", "interval")
    found = _check(world, [made])
    assert any(
        f"signed by another key (fingerprint {rule.fingerprint(other.public_key())}" in f
        for f in found
    ), found


def test_a_checkpoint_of_an_unknown_journal_or_past_the_end_is_a_finding(
    world: World, tmp_path: Path
) -> None:
    deal(world, 2)
    key = read_key(tmp_path / "var" / "checkpoint_key.pem")
    heads = world.services.checkpoints.heads()
    ghost = rule.make(key, 1, 0, [*heads, Head("pool/ghost", 3, "ab" * 20)], "", "", "interval")
    assert any(
        f.startswith("pool/ghost seq 3: checkpoint #1 signs a journal the controller does not")
        for f in _check(world, [ghost])
    )
    house = next(h for h in heads if h.journal == "house")
    beyond = rule.make(key, 2, 0, [Head("house", house.seq + 5, "ab" * 20)], "", "", "interval")
    found = _check(world, [beyond])
    assert any(
        f.startswith(
            f"house seq {house.seq + 5}: checkpoint #2 signed this seq, but the journal "
            f"now ends at seq {house.seq}"
        )
        for f in found
    ), found


@pytest.mark.parametrize(
    "head",
    [[-1, "ab" * 20], [0, "ab" * 20], [3, ""], [3, "AB" * 20], [3, "ab" * 32], [True, "ab" * 20]],
)
def test_a_signed_head_not_shaped_as_a_journals_head_is_a_finding(
    world: World, tmp_path: Path, head: list[Any]
) -> None:
    deal(world, 2)
    key = read_key(tmp_path / "var" / "checkpoint_key.pem")
    made = rule.make(key, 1, 0, world.services.checkpoints.heads(), "", "", "interval")
    made["heads"]["house"] = head
    del made["hash"], made["signature"]  # signed again, by the controller's own key
    signed = rule.canonical(made)
    made["hash"] = hashlib.sha256(signed).hexdigest()
    made["signature"] = base64.b64encode(key.sign(signed)).decode()
    found = _check(world, [made])
    assert found == [
        f"checkpoints: checkpoint #1 signs a malformed head of house: {head!r} (a head is "
        "[seq >= 1, 40 hex] or, for a journal without entries, [0, ''])"
    ], found


def _pulled(w: World, kept: Path, count: int) -> list[str]:
    """`count` checkpoints made and served, one JSON line each."""
    lines = []
    for n in range(count):
        deal(w, 1, f"k{n}")
        assert w.services.checkpoints.make("interval") is not None
        lines.append(w.api.client.get("/v1/checkpoints/latest").get_data(True).strip())
    return lines


def test_a_jsonl_file_cut_in_its_last_line_is_a_finding_and_the_rest_are_checked(
    world: World, cli: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = _pulled(world, tmp_path, 3)
    kept = tmp_path / "ckpt.jsonl"
    kept.write_text("\n".join(lines[:2]) + "\n" + lines[2][:40])  # an interrupted `>>`
    capsys.readouterr()
    assert verify("--checkpoints", str(kept)) == 1
    out = capsys.readouterr().out
    assert "checkpoints kept elsewhere: 2 verified" in out, out
    assert f"TAMPERED: checkpoints: {kept} line 3: not a JSON checkpoint (" in out, out
    assert out.count("TAMPERED") == 1, out


def test_a_file_not_named_as_checkpoints_in_the_directory_is_skipped_and_said(
    world: World, cli: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / "1.json").write_text(_pulled(world, tmp_path, 1)[0])
    (kept / "README").write_text("Checkpoints pulled hourly by cron.\n")
    capsys.readouterr()
    assert verify("--checkpoints", str(kept)) == 0
    out = capsys.readouterr().out
    assert "checkpoints kept elsewhere: 1 verified" in out, out
    assert f"{kept / 'README'}: skipped: not a checkpoint (only *.json and *.jsonl" in out, out
    assert out.rstrip().endswith("intact"), out


def test_a_json_file_in_the_directory_that_is_not_json_is_a_finding(
    world: World, cli: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / "1.json").write_text(_pulled(world, tmp_path, 1)[0])
    (kept / "2.json").write_text("<html>502 Bad Gateway</html>\n")  # a failed pull
    capsys.readouterr()
    assert verify("--checkpoints", str(kept)) == 1
    out = capsys.readouterr().out
    assert "checkpoints kept elsewhere: 1 verified" in out, out
    assert f"TAMPERED: checkpoints: {kept / '2.json'} line 1: not a JSON checkpoint" in out


def test_an_empty_checkpoints_directory_fails_naming_it(
    world: World, cli: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deal(world, 1)
    empty = tmp_path / "wrong"
    empty.mkdir()
    capsys.readouterr()
    assert verify("--checkpoints", str(empty)) == 1
    out = capsys.readouterr().out
    assert f"TAMPERED: checkpoints: no checkpoint found in {empty}: nothing was checked" in out
    assert "intact" not in out


def test_the_sign_the_payout_and_the_day_report_carry_their_checkpoint(world: World) -> None:
    w = world
    client, keys = w.api.client, w.api.keys
    payout = hit(w.api, "r-hit")
    slip = client.get(f"/v1/payouts/{payout}", headers=keys.header("operator")).get_json()
    assert slip["checkpoint"] is None  # not yet covered
    made = w.services.checkpoints.make("interval")
    assert made is not None
    short = {"id": 1, "short": made["hash"][:12], "hash": made["hash"], "ts": made["ts"]}
    slip = client.get(f"/v1/payouts/{payout}", headers=keys.header("operator")).get_json()
    assert slip["checkpoint"] == short and slip["id"] == payout
    record = client.get(f"/v1/payouts/{payout}/record", headers=keys.header("auditor"))
    assert record.get_json()["checkpoint"] == short
    # the signs' small print: the latest checkpoint
    put = client.put(
        "/v1/signs/lobby",
        json={"levels": [{"pool": "main", "name": "Major"}]},
        headers=keys.header("operator"),
    )
    assert put.status_code == 201, put.get_json()
    board = w.services.board
    assert board.states(board.definitions())["lobby"]["checkpoint"] == short
    # the day report: the checkpoint signed at its close (checkpoint #1 came before the
    # day's last entry, the sign's definition, so it does not cover the day)
    day = w.services.days().of_time(w.clock()).isoformat()
    w.clock.pass_days(2)
    w.services.accounting.close(w.services.days().of_time(int(made["ts"])))
    closing = w.services.checkpoints.get(2)
    assert closing is not None and closing["day"] == day and closing["reason"] == "day_close"
    answer = client.get(f"/v1/accounting/days/{day}", headers=keys.header("auditor"))
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["checkpoint"]["id"] == closing["id"]


def test_a_run_while_another_holds_the_lock_signs_nothing(world: World) -> None:
    from jackpot.store.checkpoints import HeadStore

    deal(world, 1)
    main = world.services.groups.main
    store = HeadStore(main.client, main.keys)
    assert store.take_lock("another-worker", 60_000)
    assert world.services.checkpoints.make("interval") is None
    store.release_lock("another-worker")
    assert world.services.checkpoints.make("interval") is not None


def test_the_close_days_job_signs_a_checkpoint_at_each_close(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    from jackpot.jobs import archive as jobs
    from jackpot.jobs import checkpoints as job

    w = world
    deal(w, 2)
    w.clock.pass_days(2)
    monkeypatch.setattr(jobs, "services", lambda: w.services)
    monkeypatch.setattr(job, "services", lambda: w.services)
    closed = jobs.close_days()
    assert closed
    signed = w.services.checkpoints.after(0, 100)
    assert [(c["reason"], c["day"]) for c in signed] == [("day_close", d) for d in closed]


@pytest.fixture
def accounting_cli(world: World, monkeypatch: pytest.MonkeyPatch) -> Iterator[World]:
    """`jackpot accounting` over the world's services, whose clock the test moves."""
    from jackpot.cli import accounting

    @contextmanager
    def built(settings: Any) -> Iterator[Any]:
        yield world.services

    monkeypatch.setattr(accounting, "services", built)
    yield world


def _over(w: World) -> str:
    """A gaming day with rounds, over and not closed."""
    deal(w, 2)
    w.clock.pass_days(2)
    first = w.services.accounting.first_day()
    assert first is not None
    return first.isoformat()


def test_a_day_closed_with_jackpot_accounting_close_signs_its_close(
    accounting_cli: World, capsys: pytest.CaptureFixture[str]
) -> None:
    w = accounting_cli
    day = _over(w)
    capsys.readouterr()
    assert main(["accounting", "close", "--date", day]) == 0
    out = capsys.readouterr().out
    signed = [c for c in w.services.checkpoints.after(0, 100) if c["reason"] == "day_close"]
    assert [c["day"] for c in signed] == [day]
    assert f"checkpoint #{signed[0]['id']} {signed[0]['hash'][:12]} covers it" in out, out
    assert "NOT signed" not in out
    # closing it again answers the recorded report and signs nothing more
    assert main(["accounting", "close", "--date", day]) == 0
    again = w.services.checkpoints.after(0, 100)
    assert [c["id"] for c in again if c["reason"] == "day_close"] == [signed[0]["id"]]


def test_a_day_closed_without_the_key_says_its_close_is_not_signed_and_signs_it_later(
    accounting_cli: World, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    w = accounting_cli
    day = _over(w)
    key = tmp_path / "var" / "checkpoint_key.pem"
    pem = key.read_bytes()
    key.unlink()
    capsys.readouterr()
    assert main(["accounting", "close", "--date", day]) == 0
    out = capsys.readouterr().out
    assert f"its close is NOT signed by a checkpoint: no checkpoint key at {key}" in out, out
    assert w.services.checkpoints.after(0, 100) == []
    key.write_bytes(pem)  # the key restored: closing the day again signs its close
    assert main(["accounting", "close", "--date", day]) == 0
    signed = w.services.checkpoints.after(0, 100)
    assert [(c["reason"], c["day"]) for c in signed] == [("day_close", day)]


def test_jackpot_accounting_show_carries_the_days_checkpoint(
    accounting_cli: World, capsys: pytest.CaptureFixture[str]
) -> None:
    w = accounting_cli
    day = _over(w)
    w.services.accounting.close(date.fromisoformat(day))
    made = w.services.checkpoints.at_close(day)
    assert made is not None
    capsys.readouterr()
    assert main(["accounting", "show", "--date", day, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["checkpoint"] == made
    answered = w.api.client.get(
        f"/v1/accounting/days/{day}", headers=w.api.keys.header("auditor")
    ).get_json()
    assert shown == answered  # as the API answers it
    assert main(["accounting", "show", "--date", day]) == 0
    assert f"checkpoint #{made['id']} {made['short']} covers it" in capsys.readouterr().out


def test_verify_on_a_host_without_the_key_says_the_stored_checkpoints_went_unchecked(
    world: World, cli: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deal(world, 1)
    assert world.services.checkpoints.make("interval") is not None
    (tmp_path / "var" / "checkpoint_key.pem").unlink()
    assert verify() == 0  # not a finding of history
    out = capsys.readouterr().out
    assert "the archive's checkpoints were not checked: no checkpoint key at" in out
    assert "intact" in out


def test_the_checkpoints_commands_make_list_and_show_them(
    world: World, cli: None, capsys: pytest.CaptureFixture[str]
) -> None:
    deal(world, 1)
    assert main(["checkpoints", "make"]) == 0
    made = json.loads(capsys.readouterr().out)
    assert made["id"] == 1 and made["reason"] == "request"
    assert main(["checkpoints", "list"]) == 0
    listed = capsys.readouterr().out
    assert listed.startswith(f"#1 {made['hash'][:12]} ") and "house " in listed
    assert main(["checkpoints", "show", "1"]) == 0
    assert json.loads(capsys.readouterr().out) == made
    assert main(["checkpoints", "show", "2"]) == 1
    assert "no such checkpoint" in capsys.readouterr().err


def test_the_metrics_show_the_latest_checkpoint(world: World) -> None:
    def scraped() -> str:
        return str(world.api.client.get("/metrics").get_data(True))

    assert "jackpot_checkpoint_last_number 0.0" in scraped()
    deal(world, 1)
    made = world.services.checkpoints.make("interval")
    assert made is not None
    world.services.checkpoints._short_read = -(10**15)  # past the signs' 5 s reuse
    text = scraped()
    assert "jackpot_checkpoint_last_number 1.0" in text
    [line] = [x for x in text.splitlines() if x.startswith("jackpot_checkpoint_last_timestamp")]
    assert float(line.split()[1]) == made["ts"] / 1000
