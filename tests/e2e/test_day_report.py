"""A closed gaming day's report in a real headless Chromium against the real service: the
accountant opens it from the console, reads the totals, each pool's meter and each table's
handle and hold drawn, the hit register, the voids and corrections, and prints it (the
browser's print to PDF). Screenshots and the PDF are kept in build/test-artefacts/day-report/
(look at them when the page changes)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.support.browser import artefacts, needs_chromium
from tests.support.service import (
    Service,
    archived,
    archiving_service,
    auth,
    close_day,
    key,
)

ARTEFACTS = artefacts("day-report")
TABLET = {"width": 1180, "height": 820}
DESKTOP = {"width": 1920, "height": 1080}

pytestmark = needs_chromium


@pytest.fixture
def floor(
    tmp_path: Path,
    redis_server: Any,
    redis: Any,
    postgres_url: str,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[Service]:
    """The service and its worker (archiving every second) over a PostgreSQL archive; fixed
    and envy pays from $1,000.00 held as hand pays."""
    monkeypatch.setenv("JACKPOT_HANDPAY_CENTS", "100000")
    with archiving_service(tmp_path, redis_server.url, postgres_url) as svc:
        yield svc


def a_day(service: Service, redis_url: str) -> dict[str, Any]:
    """Two pools and two tables, thirty rounds, two jackpots (one paid, one voided on
    review), each with its round's two hand pays (a fixed pay and an envy: T1's fixed one
    paid, T2's voided, both envies still owed), a round voided, a meter adjusted and T1's own
    counts sent (its handle $123.45, not the controller's), then the day closed: its
    statement."""
    base = service.base
    operator = key(service, "operator", label="Dana Reyes")
    table = key(service, "table", "T1", "T2")
    s = requests.Session()

    def call(method: str, path: str, body: dict[str, Any], who: str = operator) -> Any:
        r = s.request(method, f"{base}{path}", json=body, headers=auth(who))
        assert r.ok, r.text
        return r.json()

    call("PUT", "/v1/pools/main", {"reset": 1_000_000, "rate_bp": 400, "reserve_rate_bp": 100})
    call("PUT", "/v1/pools/side", {"reset": 250_000, "rate_bp": 200, "reserve_rate_bp": 0})
    # a must-hit-by level beside side at T2: $1, must hit by $11, 10% of each wager (a $21
    # round adds $2.10): won a few times in its ten rounds
    call("PUT", "/v1/pools/hourly", {"reset": 100, "rate_bp": 1_000, "reserve_rate_bp": 0,
                                     "cap": 1_100, "level": "must_hit_by"})  # fmt: skip
    call("PUT", "/v1/tables/T1", {"pools": ["main"]})
    call("PUT", "/v1/tables/T2", {"pools": ["side", "hourly"]})
    cards = ["4d", "9c", "Kd", "2h", "7s", "Jc", "5h", "Qs"]
    answers = []
    for i in range(30):
        spots = [{"spot": n, "wager": 500 + 100 * n, "card": cards[(i + n) % 8]} for n in (1, 2, 3)]
        body = {"table": "T1" if i % 3 else "T2", "round": f"r{i}",
                "dealer": {"card": cards[(i * 3) % 8]}, "spots": spots}  # fmt: skip
        answers.append(call("POST", "/v1/rounds", body, table))
    hits, held = [], []
    for t, card in (("T1", "As"), ("T2", "Qd")):
        body = {"table": t, "round": f"hit-{t}", "dealer": {"card": card, "war_card": card},
                "spots": [{"spot": 2, "wager": 500, "card": card, "war": True,
                           "war_card": card},
                          {"spot": 3, "wager": 500, "card": "4d"}]}  # fmt: skip
        answer = call("POST", "/v1/rounds", body, table)
        hits.append(next(j["id"] for j in answer["jackpots"] if j["pool"] != "hourly"))
        held.append({h["kind"]: h["id"] for h in answer["hand_pays"]})
    call("POST", f"/v1/payouts/{hits[0]}/confirm",
         {"witness": "LEE-CHAN", "slip": "HP-0042"})  # fmt: skip
    call("POST", f"/v1/payouts/{held[0]['fixed']}/confirm",
         {"witness": "LEE-CHAN", "slip": "HP-0043"})  # fmt: skip
    call("POST", f"/v1/payouts/{held[1]['fixed']}/dispute", {"reason": "paytable misread"})
    voided_pay = call("POST", f"/v1/payouts/{held[1]['fixed']}/void", {"reason": "not won"})
    if voided_pay["status"] != "void":
        approver = key(service, "operator", label="Sam Okafor")
        call("POST", f"/v1/payouts/{held[1]['fixed']}/void/approve", {}, approver)
    told = {"day": answers[0]["gaming_day"], "rounds": 1, "side_bets": 1, "handle": 12_345,
            "fixed": 0, "envy": 0, "jackpot": 0, "voids": 0,
            "through": answers[1]["settled_at"]}  # fmt: skip
    call("POST", "/v1/tables/T1/counts", {"days": [told]}, table)
    call("POST", "/v1/rounds/T1/r4/void", {"reason": "second face-up card"})
    # the other jackpot found not owed on review: disputed, then voided by two people when
    # its amount needs them (D226)
    call("POST", f"/v1/payouts/{hits[1]}/dispute", {"reason": "camera review 88"})
    voided = call("POST", f"/v1/payouts/{hits[1]}/void", {"reason": "misdeal, review 88"})
    if voided["status"] != "void":
        approver = key(service, "operator", label="Sam Okafor")
        call("POST", f"/v1/payouts/{hits[1]}/void/approve", {}, approver)
    call("POST", "/v1/pools/main/adjustments",
         {"id": "adj-1", "amount": 2500, "reason": "meter board repaired"})  # fmt: skip
    archived(service, operator, hits[0])
    return close_day(service, redis_url, answers[0]["gaming_day"])


def exact_units(text: str) -> int:
    """A printed amount ($1,234.56, −$0.05, $1,234.561234 with sub-cent digits) in units."""
    m = re.fullmatch(r"(−?)\$([\d,]+)\.(\d\d)(\d{4})?", text.strip())
    assert m, text
    sign, whole, cents, sub = m.groups()
    value = (int(whole.replace(",", "")) * 100 + int(cents)) * 10_000 + int(sub or 0)
    return -value if sign else value


def printed_rows(page: Any, table: str) -> dict[str, list[int]]:
    """Each row of a printed money table: its first cell, and every money cell in units."""
    rows = page.eval_on_selector_all(
        f"{table} tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.innerText))"
    )
    return {cells[0]: [exact_units(c) for c in cells[1:] if "$" in c] for cells in rows if cells}


def footed(page: Any, table: str, terms: list[str], result: str) -> dict[str, dict[str, int]]:
    """A table whose rows add up: each row's terms ("-name": subtracted) make its result, and
    the total row is the sum of the rows, column by column. Each row's figures by name."""
    names = [t.lstrip("-") for t in terms] + [result]
    rows = {k: dict(zip(names, v, strict=True)) for k, v in printed_rows(page, table).items()}
    for pool, row in rows.items():
        made = sum(-row[t[1:]] if t.startswith("-") else row[t] for t in terms)
        assert made == row[result], (pool, row)
    for name in names:
        assert (
            sum(r[name] for p, r in rows.items() if p != "All pools") == rows["All pools"][name]
        ), name
    return rows


def counted(text: str) -> tuple[int, int]:
    """A printed "count · $amount" as (count, cents)."""
    number, amount = text.split(" · ")
    return int(number), exact_units(amount) // 10_000


def counted_rows(page: Any, table: str) -> dict[str, list[tuple[int, int]]]:
    """Each row of a table of "count · $amount" cells, by its first cell."""
    rows = page.eval_on_selector_all(
        f"{table} tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.innerText))"
    )
    return {cells[0]: [counted(c) for c in cells[1:]] for cells in rows if cells}


def fits(page: Any, selector: str) -> bool:
    return bool(
        page.evaluate(
            """(s) => { const t = document.querySelector(s);
                        return t.scrollWidth <= t.parentElement.clientWidth + 1; }""",
            selector,
        )
    )


def test_the_accountant_reads_and_prints_a_closed_day(
    floor: Service, redis_server: Any, browser: Any
) -> None:
    statement = a_day(floor, redis_server.url)
    day = statement["day"]
    auditor = key(floor, "auditor", label="Internal audit")
    page = browser.new_context(
        viewport=TABLET, device_scale_factor=1, accept_downloads=True
    ).new_page()
    page.goto(f"{floor.base}/console")
    page.fill("#key", auditor)
    page.click("#login-form button[type=submit]")
    page.wait_for_selector("#app:not([hidden])")
    page.click("#day-report")  # the auditor's way in, with the key of this tab
    page.wait_for_selector(f"body[data-day='{day}']")
    text = page.inner_text("#report")
    assert f"Gaming day {day}" in text and "Every pool balanced" in text, text
    assert "journals checkpoint not yet covered" in text  # no key here (D257)
    # the pools' figures as the statement has them, each row and total footing from its own
    # printed figures (a pool's first day: its creation seed included), to the sub-cent
    feet = footed(page, "#pools", ["opening", "created", "contributions", "-jackpots", "seed",
                                    "adjustments", "voids"], "closing")  # fmt: skip
    assert set(feet) == {p["pool"] for p in statement["pools"]} | {"All pools"}
    for pool in statement["pools"]:
        assert (
            feet[pool["pool"]]["created"]
            == pool["initial_seed_cents"] * 10_000 + pool["initial_seed_subcent_units"]
        )
        assert feet[pool["pool"]]["created"] > 0, "each pool was made this day"
        cents = pool["liability_cents"]
        row = page.inner_text(f"#pools-close tr[data-pool='{pool['pool']}']")
        assert f"${cents // 100:,}.{cents % 100:02d}" in row, (row, cents)
    at_close = printed_rows(page, "#pools-close")
    for pool, (meter, reserve, balance, unpaid, liability) in at_close.items():
        assert meter + reserve == balance and balance + unpaid == liability, pool
        assert balance == feet[pool]["closing"], pool
    assert [sum(v[i] for p, v in at_close.items() if p != "All pools") for i in range(5)] == (
        at_close["All pools"]
    )
    # each pool's meter drawn, each table's handle and hold
    for pool in ("main", "side", "hourly"):
        assert page.get_attribute(f"[data-meter='{pool}'] path.line", "d").count("L") >= 2
    assert page.locator("#handle-chart rect.handle").count() == 2
    tables = {t["table"]: t for t in statement["tables"]}
    hold = f"{tables['T1']['hold_percent']}%".replace("-", "\u2212")  # a minus, as printed
    assert hold in page.inner_text("#tables tr[data-table='T1']")
    # the hit register, and the voids and corrections with who and why
    assert page.locator("#hits tr[data-payout]").count() == len(statement["hits"])
    paid = next(h for h in statement["hits"] if h["slip"])
    shown = page.inner_text(f"#hits tr[data-payout='{paid['payout']}']")
    assert "Lee Chan" in shown and "HP-0042" in shown, shown
    # the must-hit-by level's hits: counted by level, each with the trigger it revealed
    hourly = [h for h in statement["hits"] if h["pool"] == "hourly"]
    assert hourly and all(h["level"] == "must_hit_by" for h in hourly)
    assert f"hourly (must-hit-by) {len(hourly)}" in page.inner_text("#hits-by-level")
    first = page.inner_text(f"#hits tr[data-payout='{hourly[0]['payout']}']")
    cents = hourly[0]["trigger"]
    assert f"trigger ${cents // 100:,}.{cents % 100:02d} reached" in first, first
    assert hourly[0]["commitment"][:16] in first
    # the voids apart, each with who asked, who approved and why (D278)
    voids = page.inner_text("#voids")
    assert "second face-up card" in voids and "misdeal, review 88" in voids, voids
    assert "Dana Reyes" in voids
    assert page.locator("#voids tr[data-kind]").count() == len(statement["voids"]) == 3
    # a round's pays taken back and a payout's own void (no money moves) in columns apart,
    # each total the sum of its column (an examiner found them added together)
    cells = page.eval_on_selector_all(
        "#voids tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.innerText))"
    )
    *lines, total = cells
    taken = sum(exact_units(r[4]) for r in lines if r[4])
    assert (
        exact_units(total[4])
        == taken
        == sum(
            (v["fixed_pays_cents"] + v["envy_pays_cents"] + v["jackpot_pays_cents"]) * 10_000
            for v in statement["voids"]
        )
    )
    payout = sum(v["payout_amount_cents"] for v in statement["voids"])
    assert counted(total[6]) == (2, payout), total  # the jackpot and T2's fixed pay
    corrections = page.inner_text("#corrections")
    assert "meter board repaired" in corrections and "Dana Reyes" in corrections
    # what the pools owe rolls over the day: owed at open + won − paid − voided = at close,
    # counts and amounts, each row and the total from its printed figures
    owed = counted_rows(page, "#pools-owed")
    for pool, (at_open, won, paid_, voided_, at_close) in owed.items():
        for i in (0, 1):
            assert at_open[i] + won[i] - paid_[i] - voided_[i] == at_close[i], pool
    assert [
        [sum(v[k][i] for p, v in owed.items() if p != "All pools") for i in (0, 1)]
        for k in range(5)
    ] == [list(t) for t in owed["All pools"]]
    assert owed["All pools"][3][0] == 1, "the jackpot voided on review (r4 won none)"
    # the tiles roll the same: owed at open + won − paid − voided = owed at close, and agree
    # with the table's totals (an examiner found the tiles counting a paid-then-voided jackpot
    # as voided and not paid)
    tiles = {
        name: counted(page.inner_text(f"[data-tile='{name}'] .value"))
        for name in ("owed_at_open", "won", "paid", "voided", "owed")
    }
    for i in (0, 1):
        assert (
            tiles["owed_at_open"][i] + tiles["won"][i] - tiles["paid"][i] - tiles["voided"][i]
            == tiles["owed"][i]
        ), tiles
    assert list(tiles.values()) == owed["All pools"]
    # the hand pays owed beside them, rolled the same way (layout 6, D300): held 4 (two fixed
    # pays of $5,000, two envies of $1,000), T1's fixed paid, T2's voided, both envies owed
    hand = counted_rows(page, "#hand-pays-owed")
    for pool, (at_open, held_, paid_, voided_, at_close) in hand.items():
        for i in (0, 1):
            assert at_open[i] + held_[i] - paid_[i] - voided_[i] == at_close[i], pool
    assert hand["All pools"] == [(0, 0), (4, 1_200_000), (1, 500_000), (1, 500_000), (2, 200_000)]
    assert [
        [sum(v[k][i] for p, v in hand.items() if p != "All pools") for i in (0, 1)]
        for k in range(5)
    ] == [list(t) for t in hand["All pools"]]
    hand_tiles = [
        counted(page.inner_text(f"[data-tile='{name}'] .value"))
        for name in ("hand_owed_at_open", "hand_held", "hand_paid", "hand_voided", "hand_owed")
    ]
    assert hand_tiles == hand["All pools"]
    assert page.locator("[data-tile='hand_pays']").count() == 0, "no tile counting the voided"
    # the tables' own counts: money in dollars, each figure named by whose it is
    counts = page.inner_text("#counts")
    assert "Rounds, table's count" in counts and "Rounds, controller's" in counts, counts
    row = page.inner_text("#counts tr[data-table='T1']")
    assert "Handle: table's $123.45, controller's $" in row, row
    money_diffs = re.findall(
        r"(?:Handle|Fixed|Envy|Jackpot): table's (\S+), controller's (\S+?)(?:;|$)", row
    )
    assert money_diffs and all(
        re.fullmatch(r"\$[\d,]+\.\d\d", v) for pair in money_diffs for v in pair
    ), row
    # each table's row foots: handle − pays − voided handle + voided pays = win
    for name, row in printed_rows(page, "#tables").items():
        handle, fixed, envy, jackpot, voided_handle, voided_pays, win = row
        assert handle - fixed - envy - jackpot - voided_handle + voided_pays == win, name
    page.screenshot(path=str(ARTEFACTS / "01-tablet.png"), full_page=True)
    page.locator("section:has(#hits)").screenshot(path=str(ARTEFACTS / "04-hit-register.png"))
    page.locator("section:has(#counts)").screenshot(path=str(ARTEFACTS / "05-counts.png"))
    page.locator(".title").screenshot(path=str(ARTEFACTS / "06-tiles.png"))
    for selector in ("#pools", "#pools-owed", "#hand-pays-owed", "#tables", "#hits", "#voids",
                     "#corrections", "#counts"):  # fmt: skip
        assert fits(page, selector), selector

    # the day's files, from the page, with the key of this tab: what the API serves
    for name in ("pools", "tables", "hits", "voids", "table_counts"):
        with page.expect_download() as got:
            page.click(f"#files button[data-file='{name}']")
        saved = got.value
        assert saved.suggested_filename.endswith(f"{name}.csv"), saved.suggested_filename
        served = requests.get(
            f"{floor.base}/v1/accounting/days/{day}/{name}.csv", headers=auth(auditor)
        )
        assert Path(saved.path()).read_bytes() == served.content
    assert "Saved " in page.inner_text("#files-said")

    # on paper: every page names the report, the day and its number; sign-off lines at the end
    boxes = page.evaluate(
        "() => document.adoptedStyleSheets.map((s) => [...s.cssRules].map((r) => r.cssText)"
        ".join(' ')).join(' ')"
    )
    assert f'"Gaming day {day} — Casino War progressive"' in boxes and "counter(pages)" in boxes
    assert "Approved by (audit)" in page.inner_text("#sign-off")
    page.emulate_media(media="print")
    assert not page.is_visible("header") and not page.is_visible("#files")
    assert page.evaluate(
        "() => getComputedStyle(document.querySelector('.chart h3')).breakAfter"
    ) in ("avoid-page", "avoid")
    page.screenshot(path=str(ARTEFACTS / "02-print.png"), full_page=True)
    pdf = page.pdf(format="A4", landscape=True, print_background=True)
    assert pdf.startswith(b"%PDF") and len(pdf) > 10_000
    (ARTEFACTS / f"gaming-day-{day}.pdf").write_bytes(pdf)

    wide = browser.new_context(viewport=DESKTOP, device_scale_factor=1).new_page()
    wide.goto(f"{floor.base}/console")
    wide.fill("#key", auditor)
    wide.click("#login-form button[type=submit]")
    wide.wait_for_selector("#app:not([hidden])")
    wide.goto(f"{floor.base}/reports/day?day={day}")
    wide.wait_for_selector(f"body[data-day='{day}']")
    wide.screenshot(path=str(ARTEFACTS / "03-desktop.png"), full_page=True)


def test_the_report_is_for_accounting(floor: Service, browser: Any) -> None:
    operator = key(floor, "operator", label="Dana Reyes")
    page = browser.new_context(viewport=TABLET).new_page()
    page.goto(f"{floor.base}/reports/day")
    page.wait_for_selector("#login:not([hidden])")
    page.fill("#key", operator)
    page.click("#login-form button[type=submit]")
    page.wait_for_selector("#report .error")
    assert "sign in with an auditor key" in page.inner_text("#report")
