"""The meter page in a real headless Chromium: it shows the meter, follows it, and shows a
jackpot as pending until it is confirmed."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import requests

from tests.support.browser import artefacts, needs_chromium
from tests.support.checks import HAND_PAY
from tests.support.service import Service, auth, key, link_main

pytestmark = needs_chromium


def render(browser: Any, url: str, screenshot: Path | None = None) -> str:
    """The page's DOM once it shows the meters as they are now, from headless Chromium."""
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    page.goto(url)
    page.wait_for_selector("#status:has-text('updated')")  # its first read, drawn
    if screenshot is not None:
        page.screenshot(path=str(screenshot))
    dom = str(page.content())
    page.context.close()
    return dom


def shown_value(dom: str, pool: str) -> str:
    card = re.search(rf'data-pool="{pool}".*?</section>', dom, flags=re.S)
    assert card, f"no card for {pool} in the page"
    value = re.search(r'class="value"[^>]*>([^<]+)<', card.group(0))
    assert value
    return value.group(1)


def test_the_meter_page_follows_the_meter_and_shows_a_pending_jackpot(
    service: Service, browser: Any, tmp_path: Path
) -> None:
    operator, table = key(service, "operator"), key(service, "table", "T1")
    base = service.base
    link_main(service, operator, reset=123_456, rate_bp=100, reserve_rate_bp=0)

    assert shown_value(render(browser, f"{base}/"), "main") == "$1,234.56"

    body = {
        "table": "T1",
        "round": "r1",
        "dealer": {"card": "4c"},
        "spots": [{"spot": 1, "wager": 2500, "card": "9d"}],
    }
    requests.post(f"{base}/v1/rounds", json=body, headers=auth(table)).raise_for_status()
    assert shown_value(render(browser, f"{base}/"), "main") == "$1,234.81"

    hit = {
        "table": "T1",
        "round": "r2",
        "dealer": {"card": "Jh", "war_card": "Jh"},
        "spots": [{"spot": 3, "wager": 500, "card": "Jh", "war": True, "war_card": "Jh"}],
    }
    jackpot = requests.post(f"{base}/v1/rounds", json=hit, headers=auth(table)).json()
    amount = jackpot["jackpots"][0]["amount"]
    dom = render(browser, f"{base}/", screenshot=tmp_path / "meter.png")
    assert shown_value(dom, "main") == "$1,234.56"  # reset at once for the linked tables
    assert re.search(r'class="hit pending"[^>]*>\$1,234\.86 · table T1 spot 3 · pending', dom)
    assert amount == 123_486
    assert (tmp_path / "meter.png").stat().st_size > 0

    payout = jackpot["jackpots"][0]["id"]
    requests.post(
        f"{base}/v1/payouts/{payout}/confirm", json=HAND_PAY, headers=auth(operator)
    ).raise_for_status()
    assert 'class="hit paid"' in render(browser, f"{base}/")

    # an operator suspends the link: the sign says the progressive is closed, then not
    requests.post(
        f"{base}/v1/pools/main/suspend", headers=auth(operator), json={"reason": "drill"}
    ).raise_for_status()
    dom = render(browser, f"{base}/", screenshot=tmp_path / "closed.png")
    card = re.search(r'data-pool="main".*?</section>', dom, flags=re.S)
    assert card and 'class="pool closed"' in dom and "PROGRESSIVE CLOSED" in card.group(0)
    requests.post(f"{base}/v1/pools/main/resume", headers=auth(operator)).raise_for_status()
    card = re.search(r'data-pool="main".*?</section>', render(browser, f"{base}/"), flags=re.S)
    assert card and "PROGRESSIVE CLOSED" not in card.group(0) and "closed" not in card.group(0)


def test_the_meter_page_names_each_pool_and_says_how_a_trigger_level_is_won(
    service: Service, browser: Any
) -> None:
    operator = key(service, "operator")
    base = service.base
    link_main(service, operator)
    requests.put(f"{base}/v1/pools/main", headers=auth(operator),
                 json={"name": "Casino War Progressive"}).raise_for_status()  # fmt: skip
    requests.put(f"{base}/v1/pools/hourly", headers=auth(operator), json={
        "reset": 10_000, "rate_bp": 200, "reserve_rate_bp": 0, "cap": 100_000,
        "level": "must_hit_by", "qualifying_wager": 500}).raise_for_status()  # fmt: skip
    shot = artefacts("display") / "named-and-must-hit-by.png"
    dom = render(browser, f"{base}/", screenshot=shot)
    main = re.search(r'data-pool="main".*?</section>', dom, flags=re.S)
    hourly = re.search(r'data-pool="hourly".*?</section>', dom, flags=re.S)
    assert main and '<div class="name">Casino War Progressive</div>' in main.group(0)
    assert hourly and '<div class="name">hourly</div>' in hourly.group(0), "no name: the id"
    assert (
        "Must hit by $1,000.00 · won by the qualifying wager whose contribution reaches the "
        "hidden trigger; smallest qualifying wager $5.00"
    ) in hourly.group(0)
    assert 'class="how"' not in main.group(0), "a hand level: won by the paytable"
