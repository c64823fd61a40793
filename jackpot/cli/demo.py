"""`jackpot demo`: the service plus a few simulated tables, so a person sees the meter move.

It provisions a pool `main` and tables DEMO-1.. (idempotently), starts the service under
gunicorn as `jackpot serve` does, and reports randomly dealt rounds to it over HTTP.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import time
import urllib.error
import urllib.request
from typing import Any

from jackpot.app import create_controller
from jackpot.cli.runtime import store_url
from jackpot.cli.serve import gunicorn_command, gunicorn_env
from jackpot.domain.auth import Role
from jackpot.domain.cards import FULL_DECK, Card
from jackpot.errors import NotFoundError
from jackpot.settings import Settings

DEMO_POOL = {"reset": 100_000, "rate_bp": 500, "reserve_rate_bp": 100}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("demo", help="serve, and feed simulated rounds so the meter moves")
    p.add_argument("--tables", type=int, default=3)
    p.add_argument("--rounds-per-second", type=float, default=4.0)
    p.add_argument("--rounds", type=int, default=0, help="stop after this many (0: never)")
    p.add_argument("--seed", type=int, default=None)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    tables = [f"DEMO-{i + 1}" for i in range(args.tables)]
    with store_url(settings) as url:
        controller = create_controller(settings, url)
        secret = provision(controller, tables)
        server = subprocess.Popen(gunicorn_command(), env=gunicorn_env(settings, url))
        base = f"http://{settings.bind}"
        try:
            wait_http(f"{base}/readyz")
            print(f"\nThe meter is live at {base}/  (Ctrl-C stops)\n", flush=True)
            feed(base, secret, tables, args)
        except KeyboardInterrupt:
            pass
        finally:
            server.terminate()
            server.wait(timeout=30)
    return 0


def provision(controller: Any, tables: list[str]) -> str:
    try:
        controller.pool("main")
    except NotFoundError:
        controller.put_pool("main", DEMO_POOL, "demo")
    for table in tables:
        controller.put_table(table, {"pools": ["main"], "decks": 6, "spots": 7}, "demo")
    secret, _ = controller.create_key(Role.TABLE, frozenset(tables), "jackpot demo")
    return str(secret)


def wait_http(url: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except (urllib.error.URLError, ConnectionError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def deal(rng: random.Random, table: str, round_id: str) -> dict[str, Any]:
    """A random round at a 7-spot table: every player bets $5 and goes to war on a tie."""
    shoe = [c for c in FULL_DECK for _ in range(6)]
    cards = iter(rng.sample(shoe, 20))
    spots: list[dict[str, Any]] = [
        {"spot": s, "player": f"{table}-p{s}", "wager": 500, "card": str(next(cards))}
        for s in range(1, 8)
    ]
    dealer = next(cards)
    body: dict[str, Any] = {
        "table": table,
        "round": round_id,
        "dealer": {"card": str(dealer)},
        "spots": spots,
    }
    war = [s for s in spots if Card.parse(s["card"]).rank == dealer.rank]
    if war:
        for _ in range(3):
            next(cards)  # burns
        for s in war:
            s["war"], s["war_card"] = True, str(next(cards))
        body["dealer"]["war_card"] = str(next(cards))
    return body


def feed(base: str, secret: str, tables: list[str], args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    run_id = time.strftime("%Y%m%d%H%M%S")
    sent = 0
    interval = 1.0 / args.rounds_per_second
    while not args.rounds or sent < args.rounds:
        table = tables[sent % len(tables)]
        body = deal(rng, table, f"demo-{run_id}-{sent:06d}")
        result = post(f"{base}/v1/rounds", body, secret)
        sent += 1
        wins = [s for s in result["spots"] if s["outcome"] != "none"]
        line = f"round {sent:>6}  {table}  meter {dollars(result['pools']['main']['value'])}"
        if wins:
            line += "  " + ", ".join(f"spot {w['spot']} {w['outcome']}" for w in wins)
        print(line, flush=True)
        time.sleep(interval)


def post(url: str, body: dict[str, Any], secret: str) -> dict[str, Any]:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {secret}"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return dict(json.loads(response.read()))


def dollars(cents: int) -> str:
    return f"${cents // 100:,}.{cents % 100:02d}"
