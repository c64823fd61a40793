"""A progressive sign in a real headless Chromium, fed by the sign process (`jackpot signs`)
over its event stream, against the real service: it shows only its pools, in order, follows
the meter without reload, celebrates a hit with the table's asset number and location, never
shows a disputed hit, and shows the progressive closed when the sign process is gone, when a
pool is suspended, and when it boots during an outage.

Screenshots are kept in build/test-artefacts/signs/ at 1920x1080, 1080x1920 and 3840x2160."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import requests

from jackpot.archive.store import Archive
from tests.support.browser import Chromium, artefacts, chromium, needs_chromium
from tests.support.checks import HAND_PAY
from tests.support.redis_server import RedisServer
from tests.support.screen import Screen
from tests.support.service import Service, auth, key, start_service

ARTEFACTS = artefacts("signs")
SCREENS = {"1080p": (1920, 1080), "portrait": (1080, 1920), "4k": (3840, 2160)}
# the signs every test's floor defines: before it does, the sign process has forgotten them
FLOOR_SIGNS = ("lobby", "tower")
# how long a page's clock is moved on, not waited out: past a hit's celebration (9 s), past
# the silence or the lack of a state a screen shows closed after (6 s, 3 s), and past the
# wait before a refused stream is asked for again (5 to 10 s) (jackpot/api/static/signs)
TAKEOVER_MS = SILENT_MS = REFUSED_MS = 10_000

pytestmark = needs_chromium


@dataclass
class Stack:
    """What the module's tests share: a folder for the processes' logs and the controller's
    data dir (the archive its checkpoints go to, which the signs read), the sign process
    over the session's store, and a Chromium. Each test has a `jackpot serve` of its own
    over the store emptied (the API's processes keep what they read of it)."""

    folder: Path
    env: dict[str, str]  # the store and the data dir, for every process of the controller
    signs: Service
    browser: Chromium
    new_archive: bytes  # what each test's archive starts as


@pytest.fixture(scope="module")
def stack(redis_server: RedisServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    folder = tmp_path_factory.mktemp("signs")
    env = {"JACKPOT_REDIS_URL": redis_server.url, "JACKPOT_DATA_DIR": str(folder / "var")}
    signs = start_service(folder, env, command="signs")
    try:
        with chromium() as launched:
            image = new_archive(tmp_path_factory.mktemp("archive"))
            shared = Stack(folder, env, signs, launched, image)
            try:
                yield shared
            finally:
                signs = shared.signs  # (a test may have restarted it)
    finally:
        signs.stop()


@pytest.fixture
def browser(stack: Stack) -> Iterator[Chromium]:
    """The module's Chromium; the test's pages closed, and checked, at its end."""
    with stack.browser.watching() as watched:
        yield watched


def new_archive(folder: Path) -> bytes:
    """A new archive's database (its schema, no row), made as a controller makes it in
    `folder`, as bytes to start each test's archive from."""
    made = Archive(f"sqlite:///{folder / 'archive.sqlite3'}")
    made.ensure()
    made.close()
    with closing(sqlite3.connect(folder / "archive.sqlite3")) as source:
        with closing(sqlite3.connect(":memory:")) as copy:
            source.backup(copy)
            image = bytearray(copy.serialize())
    image[18:20] = b"\x01\x01"  # not WAL: an image read from memory (tests/support/stores.py)
    return bytes(image)


def renew_data(stack: Stack) -> None:
    """The controller's data dir as new: no checkpoint key, and the archive the processes
    read put back as new (append-only: no row can be deleted) through SQLite's backup, which
    their open connections see as a change of the database."""
    data = Path(stack.env["JACKPOT_DATA_DIR"])
    (data / "checkpoint_key.pem").unlink(missing_ok=True)
    if not (data / "archive.sqlite3").exists():
        return  # the first test's serve makes it
    with closing(sqlite3.connect(":memory:")) as copy:
        copy.deserialize(stack.new_archive)
        with closing(sqlite3.connect(data / "archive.sqlite3", timeout=30)) as target:
            copy.backup(target)


def told(signs: Service, sign: str, defined: bool) -> None:
    """Wait until the sign process tells `sign`'s screens that it is defined, or that it is
    not: it has read the store as it is now."""
    screen = Screen(signs, sign)
    try:
        screen.until(
            lambda kind, data: kind == "state" and (data["sign"] is not None) == defined, 10
        )
    finally:
        screen.close()


@pytest.fixture
def floor(stack: Stack, redis: object) -> Iterator[dict[str, Any]]:
    """Pools grand (shown first), main, and internal (never shown); tables T1 and T2 with
    their asset numbers and locations; the signs `lobby` (landscape) and `tower` (portrait,
    the same levels); the sign process. Over the store emptied (the `redis` fixture) and a
    new data dir, served by a `jackpot serve` of the test's own."""
    if stack.signs.process.poll() is not None:  # a test before stopped it, and failed
        stack.signs = start_service(stack.folder, stack.env, command="signs")
    renew_data(stack)
    with ThreadPoolExecutor(1) as meanwhile:
        # while the service starts: no screen is shown what a test before defined
        forgotten = meanwhile.submit(lambda: [told(stack.signs, s, False) for s in FLOOR_SIGNS])
        service = start_service(stack.folder, stack.env)
    world = {"signs": stack.signs}
    try:
        forgotten.result()
        world = {**define_floor(service, stack.signs), "env": stack.env}
        for sign in FLOOR_SIGNS:
            told(stack.signs, sign, defined=True)
        yield world
    finally:
        stack.signs = world["signs"]  # (a test may have restarted it)
        service.stop()


def define_floor(service: Service, signs: Service) -> dict[str, Any]:
    base = service.base
    operator = key(service, "operator", label="Dana Reyes")
    table = key(service, "table", "T1", "T2")

    def put(path: str, body: dict[str, Any]) -> None:
        requests.put(f"{base}{path}", headers=auth(operator), json=body).raise_for_status()

    put("/v1/pools/main", {"reset": 500_000, "rate_bp": 400, "reserve_rate_bp": 100})
    # the largest reset the controller allows: its meter must fit every screen
    put("/v1/pools/grand", {"reset": 10_000_000_000, "rate_bp": 100, "reserve_rate_bp": 0})
    put("/v1/pools/internal", {"reset": 100, "rate_bp": 100, "reserve_rate_bp": 0,
                               "public": False})  # fmt: skip
    for t, asset, where in (("T1", "WAR-0042", "Pit 3"), ("T2", "WAR-0043", "High Limit")):
        put(f"/v1/tables/{t}", {"pools": ["main", "grand"], "asset": asset, "location": where})
        requests.post(f"{base}/v1/tables/{t}/heartbeat", headers=auth(table)).raise_for_status()
    for sign, orientation in (("lobby", "landscape"), ("tower", "portrait")):
        put(f"/v1/signs/{sign}", {
            "levels": [{"pool": "grand", "name": "Grand Jackpot"},
                       {"pool": "main", "name": "Major"}],
            "title": "Casino War Progressive",
            "branding": "Only at the Riverside",
            "orientation": orientation,
        })  # fmt: skip
    return {"base": base, "signs": signs, "operator": operator, "table": table, "service": service}


def screen(browser: Any, size: str) -> Any:
    width, height = SCREENS[size]
    return browser.new_context(viewport={"width": width, "height": height}).new_page()


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(ARTEFACTS / f"{name}.png"))


def meter(page: Any, pool: str) -> str:
    return str(page.inner_text(f".level[data-pool={pool}] .meter"))


def wait_meter(page: Any, pool: str, text: str, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while meter(page, pool) != text:
        assert time.monotonic() < deadline, f"{pool} shows {meter(page, pool)}, not {text}: " + str(
            page.evaluate("() => JSON.stringify([shown, target, counting])")
        )
        time.sleep(0.05)


def after(page: Any, ms: int, selector: str, timeout: float = 10_000) -> None:
    """Wait for `selector` once `ms` have passed on the page's clock (installed before it
    loaded), moved on at once: the page's timers due by then fire."""
    page.clock.fast_forward(ms)
    page.wait_for_selector(selector, timeout=timeout)


def celebrated(page: Any) -> None:
    """Wait for a takeover's end. The jump past it is also a silence to the page, which shows
    the progressive closed until the sign process's next word: waited for too."""
    after(page, TAKEOVER_MS, "body:not(.takeover):not(.offline)", timeout=15_000)


def released(signs: Service, page: Any) -> None:
    """Wait until the sign process has given a closed stream's place back (it holds none), or
    the page, asking again meanwhile, has it already."""
    deadline = time.monotonic() + 20
    while requests.get(f"{signs.base}/healthz").json()["signs"]:
        if page.query_selector("body:not(.booting):not(.offline)"):
            return
        assert time.monotonic() < deadline, "a closed stream still holds its place"
        time.sleep(0.05)


def report(floor: dict[str, Any], body: dict[str, Any]) -> Any:
    r = requests.post(f"{floor['base']}/v1/rounds", json=body, headers=auth(floor["table"]))
    r.raise_for_status()
    return r.json()


def fits(page: Any) -> bool:
    """No meter spills out of its card."""
    return bool(
        page.evaluate(
            """() => [...document.querySelectorAll('.level .meter')].every(m => {
                 const card = m.parentElement.getBoundingClientRect();
                 const range = document.createRange(); range.selectNodeContents(m);
                 const text = range.getBoundingClientRect();
                 return m.scrollWidth <= m.clientWidth && text.left >= card.left
                   && text.right <= card.right && card.right <= window.innerWidth;
               })"""
        )
    )


def test_a_sign_shows_its_pools_follows_the_meter_and_celebrates_a_hit(
    floor: dict[str, Any], browser: Any
) -> None:
    url = f"{floor['signs'].base}/signs/lobby"
    pages = {size: screen(browser, size) for size in SCREENS}
    pages["1080p"].clock.install()
    for size, page in pages.items():
        page.goto(url.replace("lobby", "tower") if size == "portrait" else url)
        assert not page.evaluate("document.body.classList.contains('rotated')")
        page.wait_for_selector("body:not(.booting):not(.offline)")
        assert page.eval_on_selector_all(".level", "ls => ls.map(l => l.dataset.pool)") == [
            "grand",
            "main",
        ], "only its pools, in its order (the internal pool never)"
        assert page.inner_text(".level[data-pool=grand] .name").upper() == "GRAND JACKPOT"
        assert meter(page, "grand") == "$100,000,000.00"
        assert fits(page), size
        assert "Suited 4 of a Kind" in page.inner_text("#paytable")
        # the bet the jackpot is for (the seed paytable's $5), in the patron's words
        assert page.inner_text("#qualifying-note") == (
            "Jackpot pays are for a $5 bet; a smaller bet wins its part"
        )
        assert fits(page), size
        shot(page, f"01-open-{size}")
    page = pages["1080p"]

    # a round: the open page counts up to the new value without reload (how fast is
    # measured in bench/bench_signs.py, not here: a loaded machine is not a slow product)
    report(floor, {"table": "T1", "round": "r1", "dealer": {"card": "4c"},
                   "spots": [{"spot": 1, "wager": 2500, "card": "9d"}]})  # fmt: skip
    value = requests.get(f"{floor['base']}/v1/pools/main").json()["value"]
    assert value > 500_000
    wait_meter(page, "main", f"${value // 100:,}.{value % 100:02d}")

    # a hit: the takeover names the table's asset number and location, then the new base
    hit = report(floor, {"table": "T2", "round": "r2", "dealer": {"card": "Jh", "war_card": "Jh"},
                         "spots": [{"spot": 3, "wager": 500, "card": "Jh", "war": True,
                                    "war_card": "Jh"}]})  # fmt: skip
    payout = next(j for j in hit["jackpots"] if j["pool"] == "main")
    page.wait_for_selector("body.takeover", timeout=3000)
    text = page.inner_text("#takeover")
    assert "JACKPOT" in text and "WAR-0043" in text and "High Limit" in text
    shot(page, "02-takeover-1080p")
    celebrated(page)
    assert meter(page, "main") == "$5,000.00"
    winner = page.inner_text(f"#winners li[data-payout={payout['id']}]")
    assert "awaiting verification" in winner
    shot(page, "03-pending-winner-1080p")

    # confirmed: verified; a disputed hit never shows
    requests.post(
        f"{floor['base']}/v1/payouts/{payout['id']}/confirm",
        json=HAND_PAY,
        headers=auth(floor["operator"]),
    ).raise_for_status()
    page.wait_for_function(
        f"() => !document.querySelector('#winners li[data-payout={payout['id']}]')"
        ".textContent.includes('awaiting')",
        timeout=4000,
    )
    second = report(floor, {"table": "T1", "round": "r3",
                            "dealer": {"card": "Qs", "war_card": "Qs"},
                            "spots": [{"spot": 1, "wager": 500, "card": "Qs", "war": True,
                                       "war_card": "Qs"}]})  # fmt: skip
    disputed = next(j for j in second["jackpots"] if j["pool"] == "main")["id"]
    requests.post(
        f"{floor['base']}/v1/payouts/{disputed}/dispute",
        headers=auth(floor["operator"]),
        json={"reason": "surveillance review"},
    ).raise_for_status()
    time.sleep(2.5)
    assert page.locator(f"#winners li[data-payout={disputed}]").count() == 0


def test_a_sign_shows_the_progressive_closed_when_it_cannot_be_played(
    floor: dict[str, Any], browser: Any, tmp_path: Path
) -> None:
    url = f"{floor['signs'].base}/signs/lobby"
    page = screen(browser, "1080p")
    page.clock.install()  # (for the screens in its context too)
    page.goto(url)
    page.wait_for_selector("body:not(.booting):not(.offline)")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=10000)
    # a suspended pool: its level says so
    requests.post(
        f"{floor['base']}/v1/pools/main/suspend",
        headers=auth(floor["operator"]),
        json={"reason": "sign test"},
    ).raise_for_status()
    page.wait_for_selector(".level[data-pool=main].closed", timeout=4000)
    assert not page.locator(".level[data-pool=grand].closed").count()
    shot(page, "04-suspended-1080p")
    requests.post(
        f"{floor['base']}/v1/pools/main/resume", headers=auth(floor["operator"])
    ).raise_for_status()
    page.wait_for_selector(".level[data-pool=main]:not(.closed)", timeout=4000)

    # the sign process stops: closed within a few seconds, back when it returns
    signs: Service = floor["signs"]
    port = signs.base.rsplit(":", 1)[1]
    signs.stop()
    after(page, SILENT_MS, "body.offline")
    for size, (width, height) in SCREENS.items():
        other = page.context.new_page()  # the same screen, rebooted during the outage
        other.set_viewport_size({"width": width, "height": height})
        other.goto(url)  # its service worker's copy of the page, saying closed
        after(other, SILENT_MS, "body.offline")
        assert other.is_visible("#closed-banner")
        shot(other, f"05-boot-in-outage-{size}")
    restarted = start_service(tmp_path, floor["env"], command="signs", port=int(port))
    floor["signs"] = restarted
    page.wait_for_selector("body:not(.offline)", timeout=15000)


def test_a_must_hit_by_level_shows_its_ceiling_and_its_sealed_trigger_and_is_celebrated(
    floor: dict[str, Any], browser: Any
) -> None:
    base, operator = floor["base"], auth(floor["operator"])
    # $10 reset, must hit by $50.40, fed 10% of every wager: a few $25 rounds win it
    requests.put(f"{base}/v1/pools/mhb", headers=operator, json={
        "reset": 1_000, "rate_bp": 1_000, "reserve_rate_bp": 0, "cap": 5_040,
        "level": "must_hit_by"}).raise_for_status()  # fmt: skip
    requests.put(f"{base}/v1/tables/T1", headers=operator,
                 json={"pools": ["main", "grand", "mhb"]}).raise_for_status()  # fmt: skip
    requests.put(f"{base}/v1/signs/hitby", headers=operator, json={
        "levels": [{"pool": "main", "name": "Major"}, {"pool": "mhb", "name": "Hourly"}],
        "title": "Casino War Progressive"}).raise_for_status()  # fmt: skip
    published = requests.get(f"{base}/v1/pools/mhb").json()["trigger"]
    page = screen(browser, "1080p")
    page.clock.install()
    page.goto(f"{floor['signs'].base}/signs/hitby")
    page.wait_for_selector("body:not(.booting):not(.offline)")
    card = ".level[data-pool=mhb]"
    assert page.inner_text(f"{card} .hit-by").upper() == "MUST HIT BY $50.40"
    seal = page.inner_text(f"{card} .seal")
    assert published["commitment"][:16] in seal and "#1" in seal
    assert not page.locator(".level[data-pool=main] .hit-by").count(), "a hand level promises none"
    # beside the commitments, the journals' latest signed checkpoint (D257)
    assert "not yet covered" in page.inner_text("#checkpoint-note")
    service = floor["service"]
    for command in ("keygen", "make"):
        subprocess.run(
            [sys.executable, "-m", "jackpot.cli.main", "checkpoints", command],
            cwd=service.cwd, env=service.env, check=True, capture_output=True,
        )  # fmt: skip
    latest = requests.get(f"{base}/v1/checkpoints/latest").json()
    page.wait_for_function(
        "s => document.getElementById('checkpoint-note').textContent.includes(s)",
        arg=f"#{latest['id']} · {latest['hash'][:12]}",
        timeout=15_000,
    )
    assert fits(page)
    shot(page, "07-must-hit-by-1080p")
    won = None
    for n in range(1, 60):  # $25 losing bets: $2.50 each toward the trigger
        answer = report(floor, {"table": "T1", "round": f"mhb-{n}", "dealer": {"card": "Ks"},
                                "spots": [{"spot": 1, "wager": 2_500, "card": "3c"}]})  # fmt: skip
        won = next((j for j in answer["jackpots"] if j["pool"] == "mhb"), None)
        if won is not None:
            break
    assert won is not None and won["level"] == "must_hit_by"
    page.wait_for_selector("body.takeover", timeout=3000)
    text = page.inner_text("#takeover")
    assert "MUST-HIT-BY JACKPOT" in text.upper() and "WAR-0042" in text
    shot(page, "08-must-hit-by-takeover-1080p")
    celebrated(page)
    assert "#2" in page.inner_text(f"{card} .seal"), "the next draw, sealed"
    assert "Must-Hit-By Jackpot" in page.inner_text(f"#winners li[data-payout={won['id']}]")


def test_a_sign_never_defined_says_so_to_the_installer_and_shows_once_defined(
    floor: dict[str, Any], browser: Any
) -> None:
    # a screen pointed at a sign the controller does not know: not PROGRESSIVE CLOSED (which
    # reads as an outage) but what is wrong, for the person installing it
    page = screen(browser, "1080p")
    page.goto(f"{floor['signs'].base}/signs/bar-top")
    page.wait_for_selector("body.undefined", timeout=10000)
    assert page.is_visible("#undefined-note") and not page.is_visible("#closed-banner")
    note = page.inner_text("#undefined-note")
    assert "No sign named “bar-top” is defined on this controller." in note
    assert "PUT /v1/signs/bar-top" in note
    shot(page, "07-undefined-1080p")
    # defined: the same screen shows it, no reload
    requests.put(
        f"{floor['base']}/v1/signs/bar-top",
        headers=auth(floor["operator"]),
        json={"levels": [{"pool": "main", "name": "Major"}], "title": "Bar Top"},
    ).raise_for_status()
    page.wait_for_selector("body:not(.undefined):not(.offline)", timeout=10000)
    assert page.text_content("#title") == "Bar Top" and not page.is_visible("#undefined-note")
    # deleted while shown: players see the progressive closed, as in any outage
    requests.delete(
        f"{floor['base']}/v1/signs/bar-top", headers=auth(floor["operator"])
    ).raise_for_status()
    page.wait_for_selector("body.offline", timeout=10000)
    assert page.is_visible("#closed-banner") and not page.is_visible("#undefined-note")


def test_a_sign_turns_when_the_screen_stands_the_other_way(
    floor: dict[str, Any], browser: Any
) -> None:
    """A portrait sign on a player that outputs landscape (the panel is turned, the output is
    not), and the reverse: the whole sign turns a quarter and still fits."""
    for sign, size in (("tower", "1080p"), ("lobby", "portrait")):
        page = screen(browser, size)
        page.goto(f"{floor['signs'].base}/signs/{sign}")
        page.wait_for_selector("body:not(.booting):not(.offline)")
        assert page.evaluate("document.body.classList.contains('rotated')")
        width, height = SCREENS[size]
        box = page.evaluate(
            "(() => { const r = document.getElementById('screen').getBoundingClientRect();"
            " return [r.left, r.top, r.width, r.height]; })()"
        )
        assert [round(v) for v in box] == [0, 0, width, height], "the turned sign fills the screen"
        # in the sign's own frame it stands as defined: a portrait sign is one column
        frame = page.evaluate(
            "(() => { const f = document.getElementById('frame');"
            " return [f.clientWidth, f.clientHeight]; })()"
        )
        assert (frame[0] < frame[1]) == (sign == "tower")
        assert meter(page, "grand") == "$100,000,000.00"
        assert fits(page), sign
        shot(page, f"06-turned-{sign}-on-{size}")


def test_a_screen_refused_its_stream_asks_again_and_shows_the_sign(
    floor: dict[str, Any], browser: Any, tmp_path: Path
) -> None:
    """A browser gives a refused event stream up for good (429 past one address's share, 503
    when the sign process is full): the page asks again itself, and shows the sign once a
    place is free, without anyone touching the screen."""
    env = {"JACKPOT_REDIS_URL": floor["signs"].env["JACKPOT_REDIS_URL"]}
    signs = start_service(tmp_path, {**env, "JACKPOT_SIGNS_MAX_PER_CLIENT": "1"}, command="signs")
    holder = Screen(signs)  # the one place this address has
    try:
        assert holder.next()[0] == "state"
        page = screen(browser, "1080p")
        page.clock.install()
        refused = lambda r: r.url.endswith("/signs/lobby/stream") and r.status == 429  # noqa: E731
        with page.expect_response(refused):
            page.goto(f"{signs.base}/signs/lobby")
        after(page, SILENT_MS, "body.offline")  # no state: shown closed
        holder.close()
        released(signs, page)
        after(page, REFUSED_MS, "body:not(.booting):not(.offline)", timeout=30000)
        assert meter(page, "main") != ""
    finally:
        holder.close()
        signs.stop()


# Every element of the sign, in the page's own coordinates: outside the screen, clipped by a
# box that clips (overflow other than visible), or holding more than it shows.
UNFIT = """() => {
  const bad = [], vw = innerWidth, vh = innerHeight, slack = 0.5;
  const named = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "")
    + (e.className && typeof e.className === "string" ? "." + e.className.split(" ").join(".") : "")
    + (e.dataset.pool ? "[" + e.dataset.pool + "]" : "");
  for (const e of document.querySelectorAll("#frame, #frame *")) {
    const r = e.getBoundingClientRect();
    if (!r.width && !r.height) continue;  // not shown
    const text = named(e) + " «" + (e.textContent || "").slice(0, 40) + "»";
    if (r.left < -slack || r.top < -slack || r.right > vw + slack || r.bottom > vh + slack)
      bad.push(text + " leaves the screen");
    if (e.clientWidth && e.scrollWidth > e.clientWidth + 1)
      bad.push(text + " is wider than it shows");
    if (e.clientHeight && e.scrollHeight > e.clientHeight + 1)
      bad.push(text + " is taller than it shows");
    for (let a = e.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX === "visible" && s.overflowY === "visible") continue;
      const b = a.getBoundingClientRect();
      if (r.left < b.left - slack || r.right > b.right + slack || r.top < b.top - slack
          || r.bottom > b.bottom + slack) { bad.push(text + " is cut off by " + named(a)); break; }
    }
  }
  return bad;
}"""
# size -> (width, height, the sign shown): the portrait sign also on a landscape output
FIT_SCREENS = {"1080p": (1920, 1080, "wall"), "720p": (1280, 720, "wall"),
               "portrait": (1080, 1920, "wall-tower"), "800x480": (800, 480, "wall"),
               "800x480-turned": (800, 480, "wall-tower")}  # fmt: skip


def test_every_sign_size_shows_each_level_rule_and_whole_winners_and_nothing_cut(
    floor: dict[str, Any], browser: Any
) -> None:
    """A must-hit-by and a mystery level say how they are won; pools show their display
    names (a sign's own label wins); ten winners are listed, as many as fit whole; and at
    each common screen size no element leaves the screen or is cut off by its box."""
    base, operator = floor["base"], auth(floor["operator"])

    def put(path: str, body: dict[str, Any]) -> None:
        r = requests.put(f"{base}{path}", headers=operator, json=body)
        assert r.ok, (path, r.text)

    # $1 resets, 5% of every wager: a round of seven $25 bets wins each level once
    put("/v1/pools/mhb", {"reset": 100, "rate_bp": 500, "reserve_rate_bp": 0,
                          "cap": 800, "level": "must_hit_by", "qualifying_wager": 500,
                          "name": "Must-Hit-By Progressive"})  # fmt: skip
    put("/v1/pools/mys", {"reset": 100, "rate_bp": 500, "reserve_rate_bp": 0,
                          "level": "mystery", "trigger_low": 200, "trigger_high": 800,
                          "qualifying_wager": 500,
                          "name": "Mystery Casino War Progressive Bonus!"})  # fmt: skip
    put("/v1/pools/grand", {"name": "Grand Progressive"})
    # (its smallest bet qualifies: no smaller bets feeding the levels to price them for)
    put("/v1/tables/T1", {"pools": ["main", "mhb", "mys"], "min_wager": 500})
    for sign, orientation in (("wall", "landscape"), ("wall-tower", "portrait")):
        put(f"/v1/signs/{sign}", {
            "levels": [{"pool": "grand", "name": "Grand Jackpot"}, {"pool": "mhb"},
                       {"pool": "mys"}],
            "title": "Casino War Progressive", "branding": "Only at the Riverside",
            "orientation": orientation})  # fmt: skip
    for n in range(1, 7):
        report(floor, {"table": "T1", "round": f"fit-{n}", "dealer": {"card": "Ks"},
                       "spots": [{"spot": s, "wager": 2_500, "card": f"{s + 1}c"}
                                 for s in range(1, 8)]})  # fmt: skip
    assert requests.get(f"{base}/v1/pools/mhb").json()["hits"] >= 5
    for size, (width, height, sign) in FIT_SCREENS.items():
        page = browser.new_context(viewport={"width": width, "height": height}).new_page()
        page.goto(f"{floor['signs'].base}/signs/{sign}")
        page.wait_for_selector("body:not(.booting):not(.offline)")
        page.wait_for_selector("body:not(.takeover)", timeout=15000)
        page.wait_for_timeout(300)  # the meters' count-up settles
        names = page.eval_on_selector_all(".level .name", "ns => ns.map(n => n.textContent)")
        assert names == ["Grand Jackpot", "Must-Hit-By Progressive",
                         "Mystery Casino War Progressive Bonus!"], names  # fmt: skip
        mhb, mys = ".level[data-pool=mhb]", ".level[data-pool=mys]"
        assert page.inner_text(f"{mhb} .hit-by").upper() == "MUST HIT BY $8.00"
        assert page.text_content(f"{mhb} .how") == (
            "Won by the qualifying wager whose contribution reaches the hidden trigger, at or "
            "below $8.00; smallest qualifying wager $5.00"
        )
        assert page.inner_text(f"{mys} .hit-by").upper() == "MYSTERY JACKPOT"
        assert page.text_content(f"{mys} .how") == (
            "Won by the qualifying wager whose contribution reaches the hidden trigger; "
            "smallest qualifying wager $5.00"
        )
        listed = page.locator("#winners li").count()
        shown = page.locator("#winners li:visible").count()
        assert listed == 10 and 1 <= shown <= listed, (listed, shown)
        assert "Must-Hit-By Progressive" in page.inner_text("#winners")
        shot(page, f"09-fit-{size}")
        assert page.evaluate(UNFIT) == [], size
        page.context.close()
