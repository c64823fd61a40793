"""`jackpot pools|tables|payouts|journal` as an operator runs them: the real command in a
subprocess, over HTTP to a real `jackpot serve`, its effects read back from the API."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import requests

from jackpot.store.embedded import free_port
from tests.support.service import Service, auth, jackpot, key, start_service

HIT = {  # a suited war of aces: the seed paytable's meter pay on T1's first pool
    "table": "T1",
    "round": "r-hit",
    "dealer": {"card": "As", "war_card": "As"},
    "spots": [{"spot": 3, "wager": 500, "card": "As", "war": True, "war_card": "As"}],
}


def cli(
    service: Service, *args: str, secret: str | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    """`jackpot ARGS` aimed at the service with JACKPOT_URL, the key (if any) in JACKPOT_KEY."""
    environ = {k: v for k, v in service.env.items() if not k.startswith("JACKPOT_KEY")}
    environ.update({"JACKPOT_URL": service.base, **env})
    if secret is not None:
        environ["JACKPOT_KEY"] = secret
    return jackpot(*args, cwd=service.cwd, env=environ)


def ok(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def refused(done: subprocess.CompletedProcess[str], code: str, field: str | None = None) -> str:
    """The one error line of a 4xx: exit 1, `jackpot <command>: <code>: <message>`."""
    assert done.returncode == 1, done.stdout + done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert re.match(rf"jackpot [a-z ]+: {code}: \S", line), line
    if field is not None:
        assert line.endswith(f"(field: {field})"), line
    return line


def api(service: Service, path: str, secret: str) -> Any:
    r = requests.get(f"{service.base}{path}", headers=auth(secret), timeout=10)
    assert r.status_code == 200, r.text
    return r.json()


def floor(service: Service) -> tuple[str, str, str]:
    """Pool `main` and table T1 set up over the API: (operator, auditor, table) keys."""
    operator, auditor = key(service, "operator"), key(service, "auditor")
    table = key(service, "table", "T1")
    s = requests.Session()
    pool = {"reset": 100_000, "rate_bp": 100, "reserve_rate_bp": 20}
    assert s.put(f"{service.base}/v1/pools/main", headers=auth(operator), json=pool).ok
    assert s.put(
        f"{service.base}/v1/tables/T1", headers=auth(operator), json={"pools": ["main"]}
    ).ok
    return operator, auditor, table


def report(service: Service, table: str, body: dict[str, Any] = HIT) -> dict[str, Any]:
    r = requests.post(f"{service.base}/v1/rounds", headers=auth(table), json=body, timeout=10)
    assert r.status_code == 200, r.text
    return dict(r.json())


def hit(service: Service, table: str, round_id: str = "r-hit") -> str:
    """A jackpot awaiting verification on `main`: its payout id."""
    return str(report(service, table, {**HIT, "round": round_id})["jackpots"][0]["id"])


def test_pools_set_creates_and_updates_a_pool_that_list_and_show_read_back(
    service: Service,
) -> None:
    operator, auditor = key(service, "operator"), key(service, "auditor")
    assert ok(cli(service, "pools", "list")) == "no pools\n"

    created = ok(
        cli(
            service,
            "pools",
            "set",
            "main",
            "--reset",
            "123456",
            "--rate-bp",
            "400",
            "--reserve-rate-bp",
            "100",
            "--cap",
            "5000000",
            secret=operator,
        )
    )
    assert created.startswith("pool main: created\n")
    assert re.search(r"^meter +\$1,234\.56 ", created, re.M)
    pool = requests.get(f"{service.base}/v1/pools/main/meters", headers=auth(operator)).json()
    assert (pool["value"], pool["rate_bp"], pool["reserve_rate_bp"], pool["cap"]) == (
        123_456,
        400,
        100,
        5_000_000,
    )

    # a running pool's parameters change only while it is suspended, or staged
    line = refused(
        cli(service, "pools", "set", "main", "--no-cap", secret=operator), "pool_running"
    )
    assert "stage the change" in line
    staged = ok(
        cli(
            service, "pools", "stage", "main", "--rate-bp", "450", "--at",
            "2031-01-01T06:00:00-05:00", "--reason", "approved change 12", secret=operator,
        )
    )  # fmt: skip
    assert staged.startswith("pool main: change staged\n")
    assert re.search(r"^  takes effect +2031-01-01 ", staged, re.M), staged
    assert "approved change 12" in staged
    assert requests.get(f"{service.base}/v1/pools/main").json()["rate_bp"] == 400
    dropped = ok(cli(service, "pools", "unstage", "main", "--reason", "withdrawn", secret=operator))
    assert dropped.strip() == "pool main: staged change dropped"
    ok(cli(service, "pools", "suspend", "main", "--reason", "parameter change", secret=operator))
    updated = ok(
        cli(service, "pools", "set", "main", "--no-cap", "--policy", "split", secret=operator)
    )
    assert updated.startswith("pool main: updated\n")
    ok(cli(service, "pools", "resume", "main", secret=operator))
    pool = requests.get(f"{service.base}/v1/pools/main").json()
    assert (pool["cap"], pool["policy"], pool["value"], pool["rate_bp"]) == (
        None,
        "split",
        123_456,
        400,
    ), "an update keeps what it leaves out and changes no balance"
    nothing = cli(service, "pools", "set", "main", secret=operator)
    assert nothing.returncode == 2 and "nothing to set" in nothing.stderr

    # the public list: aligned columns, money in dollars, rates in percent
    listing = ok(cli(service, "pools", "list")).splitlines()
    assert listing[0].split() == [
        "POOL",
        "NAME",
        "STATE",
        "METER",
        "RESET",
        "CAP",
        "RATE",
        "POLICY",
        "HITS",
    ]
    assert listing[1].split() == [
        "main",
        "-",
        "running",
        "$1,234.56",
        "$1,234.56",
        "none",
        "4.00%",
        "split",
        "0",
    ]
    as_json = json.loads(ok(cli(service, "pools", "list", "--json")))
    assert as_json == requests.get(f"{service.base}/v1/pools").json()
    # a display name: not a parameter, so set while the pool runs; listed and shown with it
    named = ok(cli(service, "pools", "set", "main", "--name", " Casino War Progressive ",
                   secret=operator))  # fmt: skip
    assert re.search(r"^name +Casino War Progressive$", named, re.M), named
    assert "Casino War Progressive" in ok(cli(service, "pools", "list")).splitlines()[1]
    assert requests.get(f"{service.base}/v1/pools/main").json()["name"] == "Casino War Progressive"
    ok(cli(service, "pools", "set", "main", "--no-name", secret=operator))
    assert requests.get(f"{service.base}/v1/pools/main").json()["name"] is None

    # the meters for an auditor (the reserve among them); the public read without a key
    meters = ok(cli(service, "pools", "show", "main", secret=auditor))
    assert re.search(r"^reserve +\$0\.00 ", meters, re.M)
    assert re.search(r"^invariant holds +yes$", meters, re.M)
    public = ok(cli(service, "pools", "show", "main"))
    assert re.search(r"^state +running$", public, re.M)
    assert not re.search(r"^reserve +\$", public, re.M) and "invariant" not in public
    shown = json.loads(ok(cli(service, "pools", "show", "main", "--json", secret=auditor)))
    assert shown["reserve_units"] == 0 and shown["value"] == 123_456
    public_json = json.loads(ok(cli(service, "pools", "show", "main", "--json")))
    assert "reserve" not in public_json and public_json["value"] == 123_456
    # nor the reserve's rate: with the wagers /metrics counts, it would give the reserve away
    assert "reserve_rate_bp" not in public_json and "reserve rate" not in public
    assert re.search(r"^reserve rate +1\.00% \(100 bp\)$", meters, re.M)

    # a key that may not read the meters falls back to the public read
    table = key(service, "table", "T1")
    fallback = cli(service, "pools", "show", "main", "--json", secret=table)
    assert fallback.returncode == 0, fallback.stderr
    assert "reserve" not in json.loads(fallback.stdout)
    refused(cli(service, "pools", "show", "nowhere"), "unknown_pool", "pool")
    refused(
        cli(service, "pools", "set", "main", "--reset", "1", secret="jpk_wrong"), "unauthenticated"
    )
    refused(cli(service, "pools", "set", "other", "--reset", "100", secret=operator), "missing")


def test_suspend_and_resume_change_the_pools_state(service: Service) -> None:
    operator, _, table = floor(service)

    def state() -> str:
        return str(requests.get(f"{service.base}/v1/pools/main").json()["state"])

    out = ok(
        cli(service, "pools", "suspend", "main", "--reason", "meter sign repair", secret=operator)
    )
    assert out.startswith("pool main is suspended\n") and state() == "suspended"
    r = requests.post(f"{service.base}/v1/rounds", headers=auth(table), json=HIT, timeout=10)
    assert r.status_code == 409 and r.json()["error"]["code"] == "progressive_closed"
    again = ok(cli(service, "pools", "suspend", "main", "--reason", "x", secret=operator))
    assert again.startswith("pool main is already suspended\n")
    missing = cli(service, "pools", "suspend", "main", secret=operator)
    assert missing.returncode == 2 and "--reason" in missing.stderr

    out = ok(cli(service, "pools", "resume", "main", "--reason", "fixed", secret=operator))
    assert out.startswith("pool main is running\n") and state() == "running"
    (resumed,) = [
        e
        for e in api(service, "/v1/journal?pool=main", key(service, "auditor"))["entries"]
        if e["type"] == "resumed"
    ]
    assert resumed["reason"] == "fixed"


def test_transfer_retires_a_pool_moving_its_balance_once(service: Service) -> None:
    operator, auditor, _ = floor(service)
    body = {"reset": 50_000, "rate_bp": 100, "reserve_rate_bp": 0}
    assert requests.put(f"{service.base}/v1/pools/old", headers=auth(operator), json=body).ok
    assert "retired" in ok(cli(service, "pools", "transfer", "--help"))

    out = ok(
        cli(
            service,
            "pools",
            "transfer",
            "old",
            "--to",
            "main",
            "--reason",
            "merge",
            secret=operator,
        )
    )
    assert out.startswith("pool old retired\n")
    assert re.search(r"^moved +\$500\.000000$", out, re.M)
    assert re.search(r"^main meter now +\$1,500\.00$", out, re.M)
    assert requests.get(f"{service.base}/v1/pools/old").status_code == 404
    assert requests.get(f"{service.base}/v1/pools/main").json()["value"] == 150_000
    # the same command again replays the transfer: nothing moves twice
    again = ok(
        cli(service, "pools", "retire", "old", "--to", "main", "--reason", "merge", secret=operator)
    )
    assert "replayed" in again.splitlines()[0]
    assert requests.get(f"{service.base}/v1/pools/main").json()["value"] == 150_000
    # a retired pool's meters stay readable to an auditor
    assert re.search(
        r"^state +retired$", ok(cli(service, "pools", "show", "old", secret=auditor)), re.M
    )


def test_tables_set_enable_and_disable_as_the_api_reads_them(service: Service) -> None:
    operator, auditor, _ = floor(service)
    assert requests.put(
        f"{service.base}/v1/pools/side",
        headers=auth(operator),
        json={"reset": 10_000, "rate_bp": 50, "reserve_rate_bp": 0},
    ).ok

    out = ok(
        cli(
            service,
            "tables",
            "set",
            "T2",
            "--pools",
            "main",
            "--decks",
            "6",
            "--spots",
            "5",
            "--min-wager",
            "500",
            "--max-wager",
            "10000",
            "--envy-min-wager",
            "500",
            secret=operator,
        )
    )
    assert out.startswith("table T2: created\n")
    assert re.search(r"^wagers +\$5\.00 to \$100\.00$", out, re.M)
    t2 = api(service, "/v1/tables/T2", auditor)
    assert (t2["pools"], t2["spots"], t2["min_wager"], t2["max_wager"], t2["envy_min_wager"]) == (
        ["main"],
        5,
        500,
        10_000,
        500,
    )

    ok(cli(service, "tables", "set", "T2", "--pools", "main,side", secret=operator))
    t2 = api(service, "/v1/tables/T2", auditor)
    assert t2["pools"] == ["main", "side"] and t2["spots"] == 5, "the rest is kept"

    out = ok(cli(service, "tables", "disable", "T2", secret=operator))
    assert re.search(r"^enabled +no$", out, re.M)
    assert api(service, "/v1/tables/T2", auditor)["enabled"] is False
    ok(cli(service, "tables", "enable", "T2", secret=operator))
    assert api(service, "/v1/tables/T2", auditor)["enabled"] is True

    listing = ok(cli(service, "tables", "list", secret=auditor)).splitlines()
    assert listing[0].split()[:4] == ["TABLE", "POOLS", "ENABLED", "ONLINE"]
    assert [row.split()[:3] for row in listing[1:]] == [
        ["T1", "main", "yes"],
        ["T2", "main,side", "yes"],
    ]
    shown = json.loads(ok(cli(service, "tables", "show", "T2", "--json", secret=auditor)))
    assert shown["pools"] == ["main", "side"]
    assert "paytable" in ok(cli(service, "tables", "show", "T2", secret=auditor))

    refused(
        cli(service, "tables", "set", "T2", "--decks", "9", secret=operator),
        "out_of_range",
        "decks",
    )
    assert "no key was given" in refused(cli(service, "tables", "list"), "unauthenticated")
    bad = cli(service, "tables", "set", "T2", "--profile", "roulette", secret=operator)
    assert bad.returncode == 2, "argparse knows the profiles"


def test_a_jackpot_is_listed_and_confirmed_with_its_payer_witness_and_slip(
    service: Service,
) -> None:
    operator, auditor, table = floor(service)
    payout = hit(service, table)

    rows = ok(cli(service, "payouts", "list", secret=auditor)).splitlines()
    assert rows[0].split() == ["ID", "POOL", "TABLE", "SPOT", "OUTCOME", "AMOUNT", "STATUS", "AGE"]
    cells = rows[1].split()
    assert cells[:7] == [payout, "main", "T1", "3", "suited_four_of_a_kind", "$1,000.05", "pending"]
    assert re.fullmatch(r"\d+s", cells[7])
    listed = json.loads(
        ok(cli(service, "payouts", "list", "--status", "pending", "--json", secret=auditor))
    )
    assert [p["id"] for p in listed["payouts"]] == [payout]

    # the witness is never the payer: refused, naming the field, and nothing is paid
    line = refused(
        cli(
            service,
            "payouts",
            "confirm",
            payout,
            "--paid-by",
            "Dana Reyes",
            "--witness",
            "dana REYES ",
            "--slip",
            "HP-1",
            secret=operator,
        ),
        "same_person",
        "witness",
    )
    assert "another person than the one who paid" in line
    assert api(service, f"/v1/payouts/{payout}", auditor)["status"] == "pending"

    out = ok(
        cli(
            service,
            "payouts",
            "confirm",
            payout,
            "--paid-by",
            "Dana Reyes",
            "--witness",
            "Sam Okafor",
            "--slip",
            "HP-2231",
            "--reason",
            "ok",
            secret=operator,
        )
    )
    assert out.startswith(f"payout {payout} is paid: $1,000.05\n")
    assert re.search(r"^witness +Sam Okafor \(SAM-OKAFOR\)$", out, re.M)
    paid = api(service, f"/v1/payouts/{payout}", auditor)
    assert (paid["status"], paid["paid_by"], paid["witness"], paid["slip"], paid["note"]) == (
        "paid",
        "Dana Reyes (DANA-REYES)",
        "Sam Okafor (SAM-OKAFOR)",
        "HP-2231",
        "ok",
    )
    (entry,) = [
        e
        for e in api(service, "/v1/journal?pool=main", auditor)["entries"]
        if e["type"] == "payout_paid"
    ]
    assert (entry["paid_by_id"], entry["witness_id"], entry["slip"]) == (
        "DANA-REYES",
        "SAM-OKAFOR",
        "HP-2231",
    )
    # a name that is nobody's is refused before anything is sent, naming who it might be
    nobody = cli(service, "payouts", "confirm", payout, "--witness", "Sam Okafr", "--slip", "X",
                 secret=operator)  # fmt: skip
    assert nobody.returncode == 2 and "no active person" in nobody.stderr, nobody.stderr
    again = ok(
        cli(
            service, "payouts", "confirm", payout, "--witness", "SAM-OKAFOR", "--slip", "HP-2231",
            secret=operator,
        )
    )  # fmt: skip
    assert again.startswith(f"payout {payout} is already (nothing changed) paid")
    assert re.search(
        r"^slip +HP-2231$", ok(cli(service, "payouts", "show", payout, secret=auditor)), re.M
    )
    refused(cli(service, "payouts", "show", "P999999", secret=auditor), "unknown_payout")


def test_a_dispute_holds_a_jackpot_back_and_a_void_ends_it(service: Service) -> None:
    operator, auditor, table = floor(service)
    payout = hit(service, table)
    refused(
        cli(service, "payouts", "void", payout, "--reason", "x", secret=operator), "payout_state"
    )
    missing = cli(service, "payouts", "dispute", payout, secret=operator)
    assert missing.returncode == 2 and "--reason" in missing.stderr

    out = ok(
        cli(
            service,
            "payouts",
            "dispute",
            payout,
            "--reason",
            "card check",
            "--expect",
            "pending",
            secret=operator,
        )
    )
    assert out.startswith(f"payout {payout} is disputed: $1,000.05\n")
    assert api(service, f"/v1/payouts/{payout}", auditor)["status"] == "disputed"
    disputed = ok(cli(service, "payouts", "list", "--status", "disputed", secret=auditor))
    assert payout in disputed

    # a stale view: the caller saw it pending, it is disputed now; nothing happens
    refused(
        cli(
            service,
            "payouts",
            "void",
            payout,
            "--reason",
            "dup",
            "--expect",
            "pending",
            secret=operator,
        ),
        "payout_changed",
        "expect",
    )
    assert api(service, f"/v1/payouts/{payout}", auditor)["status"] == "disputed"
    ok(
        cli(
            service,
            "payouts",
            "void",
            payout,
            "--reason",
            "misdeal",
            "--expect",
            "disputed",
            secret=operator,
        )
    )
    voided = api(service, f"/v1/payouts/{payout}", auditor)
    assert voided["status"] == "void" and voided["note"] == "misdeal"

    # found again in the history, and its every step in its record
    found = ok(cli(service, "payouts", "history", "--status", "void,paid", secret=auditor))
    assert re.search(rf"{payout} +T1 +main +\$1,000.05 +void", found), found
    assert found.rstrip().endswith("found: void 1 ($1,000.05)"), found
    record = ok(cli(service, "payouts", "record", payout, secret=auditor))
    steps = re.findall(r"^\S+ \S+ UTC +(won|disputed|voided) ", record, re.M)
    assert steps == ["won", "disputed", "voided"], record
    assert "from disputed; note misdeal" in record and "not archived yet" in record, record
    refused(
        cli(service, "payouts", "history", "--status", "lost", secret=auditor), "invalid", "status"
    )


@pytest.fixture
def approving(tmp_path: Path, redis_server: object, redis: object) -> Iterator[Service]:
    """`jackpot serve` where a hand pay from $500.00 needs a second operator's approval."""
    svc = start_service(
        tmp_path,
        {"JACKPOT_REDIS_URL": redis_server.url, "JACKPOT_HANDPAY_APPROVAL_CENTS": "50000"},  # type: ignore[attr-defined]
    )
    yield svc
    svc.halt()


def test_a_large_hand_pay_waits_for_a_second_operators_approval(approving: Service) -> None:
    operator, auditor, table = floor(approving)
    second = key(approving, "operator", label="Lee Chan")
    payout = hit(approving, table)

    out = ok(
        cli(
            approving,
            "payouts",
            "confirm",
            payout,
            "--paid-by",
            "Dana Reyes",
            "--witness",
            "Sam Okafor",
            "--slip",
            "HP-3",
            secret=operator,
        )
    )
    assert out.startswith(f"payout {payout} is awaiting_approval: $1,000.05\n")
    listed = ok(cli(approving, "payouts", "list", "--status", "awaiting_approval", secret=auditor))
    assert payout in listed
    refused(cli(approving, "payouts", "approve", payout, secret=operator), "second_person_required")
    out = ok(
        cli(
            approving,
            "payouts",
            "approve",
            payout,
            "--reason",
            "checked",
            "--expect",
            "awaiting_approval",
            secret=second,
        )
    )
    assert out.startswith(f"payout {payout} is paid: $1,000.05\n")
    assert api(approving, f"/v1/payouts/{payout}", auditor)["status"] == "paid"


def test_a_jackpots_void_waiting_is_listed_approved_refused_and_withdrawn_from_the_cli(
    approving: Service,
) -> None:
    """Issue 40 items 6, 7, 10, 11: `voids list` shows a jackpot's void waiting;
    `approve-void --note` (and its old `--reason`), `refuse-void --reason`; a pending jackpot's
    void says to dispute it first."""
    operator, auditor, table = floor(approving)
    second = key(approving, "operator", label="Lee Chan")
    pending = hit(approving, table, "r-pending")
    said = refused(cli(approving, "payouts", "void", pending, "--reason", "x", secret=operator),
                   "payout_state")  # fmt: skip
    assert "is pending; it cannot be voided: dispute it first" in said, said
    ok(cli(approving, "payouts", "dispute", pending, "--reason", "camera 4", secret=operator))
    asked = ok(cli(approving, "payouts", "void", pending, "--reason", "slip HP-3 duplicate",
                   secret=operator))  # fmt: skip
    assert "refuse-void" in asked, asked
    rows = ok(cli(approving, "voids", "list", secret=auditor)).splitlines()
    assert rows[1].startswith(f"jackpot {pending} (T1/r-pending spot 3)"), rows
    assert "the jackpot (disputed)" in rows[1] and "slip HP-3 duplicate" in rows[1]
    assert rows[-1].startswith("1 awaiting approval (0 round, 1 jackpot"), rows
    listed = json.loads(ok(cli(approving, "voids", "list", "--json", secret=auditor)))
    assert listed["count"] == 1 and listed["payouts"][0]["payout"] == pending

    usage = cli(approving, "payouts", "refuse-void", pending, secret=second)
    assert usage.returncode == 2 and "--reason" in usage.stderr  # a refusal says why
    done = ok(cli(approving, "payouts", "refuse-void", pending, "--reason", "one slip only",
                  secret=second))  # fmt: skip
    assert done.startswith(f"payout {pending} is disputed: $1,000.05\n"), done
    again = cli(approving, "payouts", "refuse-void", pending, "--reason", "x", secret=second)
    assert again.returncode == 1 and ": no_void_awaiting: " in again.stderr, again.stderr
    record = ok(cli(approving, "payouts", "record", pending, secret=auditor))
    assert "void_refused" in record and "refused" in record and "one slip only" in record

    # asked again and approved by the second person, the note as `jackpot voids approve` has it
    ok(cli(approving, "payouts", "void", pending, "--reason", "slip HP-3 duplicate",
           secret=operator))  # fmt: skip
    done = ok(cli(approving, "payouts", "approve-void", pending, "--note", "two slips",
                  secret=second))  # fmt: skip
    assert done.startswith(f"payout {pending} is void: $1,000.05\n"), done
    voided = [s for s in api(approving, f"/v1/payouts/{pending}/record", auditor)["steps"]
              if s["step"] == "voided"]  # fmt: skip
    assert voided[0]["approval_note"] == "two slips"
    # the old spelling still works
    other = hit(approving, table, "r-other")
    ok(cli(approving, "payouts", "dispute", other, "--reason", "camera 5", secret=operator))
    ok(cli(approving, "payouts", "void", other, "--reason", "misdeal", secret=operator))
    ok(cli(approving, "payouts", "approve-void", other, "--reason", "seen", secret=second))
    assert api(approving, f"/v1/payouts/{other}", auditor)["status"] == "void"


def test_journal_export_writes_json_lines_page_by_page_and_csv(
    service: Service, tmp_path: Path
) -> None:
    operator, auditor, table = floor(service)
    hit(service, table)
    ok(cli(service, "pools", "suspend", "main", "--reason", '=HYPERLINK("x")', secret=operator))
    expected = api(service, "/v1/journal?pool=main&limit=5000", auditor)["entries"]
    assert len(expected) >= 5

    done = cli(service, "journal", "export", "--pool", "main", "--page-size", "2", secret=auditor)
    assert [json.loads(line) for line in ok(done).splitlines()] == expected
    assert f"{len(expected)} entries" in done.stderr

    # into a file, after a seq, within [from, to) given with a `+` offset
    now = datetime.now(UTC)
    start = (now - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%S+00:00")
    end = (now + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%S+00:00")
    out = tmp_path / "main.jsonl"
    ok(
        cli(
            service,
            "journal",
            "export",
            "--pool",
            "main",
            "--after",
            "2",
            "--from",
            start,
            "--to",
            end,
            "-o",
            str(out),
            secret=auditor,
        )
    )
    lines = out.read_text().splitlines()
    assert [json.loads(line) for line in lines] == [e for e in expected if e["seq"] > 2]
    assert not (tmp_path / "main.jsonl.part").exists()
    early = (now - timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M:%S+00:00")
    done = cli(service, "journal", "export", "--pool", "main", "--to", early, secret=auditor)
    assert ok(done) == "" and "0 entries" in done.stderr

    # the controller's CSV, as it streams it
    csv_file = tmp_path / "main.csv"
    ok(
        cli(
            service,
            "journal",
            "export",
            "--pool",
            "main",
            "--csv",
            "-o",
            str(csv_file),
            secret=auditor,
        )
    )
    rows = list(csv.DictReader(io.StringIO(csv_file.read_text())))
    assert [int(r["seq"]) for r in rows] == [e["seq"] for e in expected]
    assert rows[-1]["reason"] == '\'=HYPERLINK("x")', "a formula stays text"

    # the house journal needs no pool; the auditor's role is the controller's to check
    assert ok(cli(service, "journal", "export", secret=auditor)).strip()
    refused(cli(service, "journal", "export", "--pool", "main", secret=operator), "forbidden")
    refused(
        cli(service, "journal", "export", "--from", "yesterday", secret=auditor),
        "invalid_time",
        "from",
    )


def test_the_url_defaults_to_the_bind_and_the_key_may_come_from_a_file(
    service: Service, tmp_path: Path
) -> None:
    auditor = key(service, "auditor")
    key_file = tmp_path / "auditor.key"
    key_file.write_text(auditor + "\n")
    environ = {
        k: v for k, v in service.env.items() if not k.startswith(("JACKPOT_KEY", "JACKPOT_URL"))
    }
    # no JACKPOT_URL: the controller is http:// + JACKPOT_BIND, as `jackpot serve` binds
    done = jackpot("payouts", "list", "--key-file", str(key_file), cwd=service.cwd, env=environ)
    assert ok(done) == "no payouts\n"
    done = jackpot(
        "payouts", "list", cwd=service.cwd, env={**environ, "JACKPOT_KEY_FILE": str(key_file)}
    )
    assert ok(done) == "no payouts\n"
    unreadable = jackpot(
        "payouts", "list", "--key-file", str(tmp_path / "none"), cwd=service.cwd, env=environ
    )
    assert unreadable.returncode == 2 and "cannot read the key file" in unreadable.stderr


def test_no_controller_at_the_url_exits_3_naming_it(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("JACKPOT_")}
    done = jackpot("pools", "list", "--url", url, cwd=tmp_path, env=env)
    assert done.returncode == 3, done.stdout + done.stderr
    assert done.stdout == ""
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"jackpot pools list: cannot reach the controller at {url}")
    assert "refused" in line.lower() and "Traceback" not in done.stderr
    done = jackpot(
        "payouts",
        "confirm",
        "P000001",
        "--witness",
        "Sam Okafor",
        "--slip",
        "HP-1",
        "--key",
        "jpk_x",
        cwd=tmp_path,
        env={**env, "JACKPOT_URL": url},
    )
    assert done.returncode == 3 and url in done.stderr


def test_a_supervisor_sees_the_voids_waiting_and_approves_or_asks_one_from_the_cli(
    service: Service,
) -> None:
    operator, auditor, table = floor(service)
    plain = {
        "table": "T1",
        "dealer": {"card": "9s"},
        "spots": [
            {"spot": 1, "wager": 500, "card": "Ks"},
            {"spot": 2, "wager": 300, "card": "2d"},
        ],
    }
    for round_id in ("r1", "r2"):
        report(service, table, {**plain, "round": round_id})
    assert ok(cli(service, "voids", "list", secret=auditor)) == "no void awaits approval\n"
    # the table asks for a spot's void: it waits for a person, whom every supervisor sees
    asked = requests.post(
        f"{service.base}/v1/rounds/T1/r1/void",
        headers=auth(table),
        json={"reason": "card not dealt to spot 2", "spots": [2]},
        timeout=10,
    )
    assert asked.status_code == 202, asked.text
    rows = ok(cli(service, "voids", "list", secret=auditor)).splitlines()
    assert rows[0].split()[:4] == ["ROUND", "VOID", "OF", "PAYS"]
    assert rows[1].startswith("T1/r1  spot 2 ") and "card not dealt to spot 2" in rows[1]
    assert rows[-1] == "1 awaiting approval"
    listed = json.loads(ok(cli(service, "voids", "list", "--json", secret=auditor)))
    assert listed["count"] == 1 and listed["voids"][0]["spots"] == [2]
    shown = ok(cli(service, "voids", "show", "T1", "r1", secret=auditor))
    assert "AWAITING APPROVAL: spot 2, pays $0.00, asked by" in shown

    refused(cli(service, "voids", "approve", "T1", "r1", secret=auditor), "forbidden")
    done = ok(cli(service, "voids", "approve", "T1", "r1", "--note", "seen", secret=operator))
    assert done.startswith("round T1/r1: voided\n")
    assert "voided spot 2 at " in done and "card not dealt to spot 2" in done
    assert ok(cli(service, "voids", "list", secret=auditor)) == "no void awaits approval\n"
    # another asked, and refused: nothing moves, the round stands
    requests.post(
        f"{service.base}/v1/rounds/T1/r2/void",
        headers=auth(table),
        json={"reason": "card not dealt to spot 1", "spots": [1]},
        timeout=10,
    ).raise_for_status()
    said = ok(cli(service, "voids", "refuse", "T1", "r2", "--reason", "dealt: see camera 4",
                  secret=operator))  # fmt: skip
    assert said.startswith("round T1/r2: the void waiting is refused: nothing moved\n")
    assert ok(cli(service, "voids", "list", secret=auditor)) == "no void awaits approval\n"
    refused(cli(service, "voids", "refuse", "T1", "r2", "--reason", "x", secret=operator),
            "no_void_awaiting")  # fmt: skip

    # a supervisor's own void below the threshold applies at once; a bad spot is refused
    bad = cli(service, "voids", "ask", "T1", "r2", "--reason", "x", "--spots", "5", secret=operator)
    refused(bad, "unknown_spot", "spots[0]")
    usage = cli(
        service, "voids", "ask", "T1", "r2", "--reason", "x", "--spots", "a", secret=operator
    )
    assert usage.returncode == 2 and "spot numbers" in usage.stderr
    whole = ok(
        cli(service, "voids", "ask", "T1", "r2", "--reason", "misdeal, review 88", secret=operator)
    )
    assert whole.startswith("round T1/r2: voided\n") and "voided the whole round" in whole
    again = ok(cli(service, "voids", "ask", "T1", "r2", "--reason", "again", secret=operator))
    assert again.startswith("round T1/r2: unchanged: already so")
