"""`jackpot demo`: the service plus a live floor of simulated tables, so a person sees the meter.

It starts the controller as `jackpot serve` does (jackpot/cli/local.py), provisions a pool
`main` and tables DEMO-1.. (idempotently), and runs the floor simulator against it: each
table deals real Casino War through its adapter (durable journal, retries, side bets closed
while the controller is away) and prints the controller's answers.
"""

from __future__ import annotations

import argparse
import random
from typing import TYPE_CHECKING, Any

from jackpot.cli.local import local_controller
from jackpot.domain.cards import FULL_DECK, Card
from jackpot.settings import Settings

if TYPE_CHECKING:
    from table_adapter.answers import RoundAnswer
    from table_adapter.journal import Entry

# The table side (and its HTTP client) is imported when the demo runs, not when `jackpot`
# starts: `jackpot serve` and `jackpot worker` do not depend on it.

__all__ = ["deal", "register", "run"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("demo", help="serve, and feed a simulated floor so the meter moves")
    p.add_argument("--tables", type=int, default=3)
    p.add_argument("--rounds-per-second", type=float, default=4.0, help="across all tables")
    p.add_argument("--rounds", type=int, default=0, help="per table, then stop (0: never)")
    p.add_argument("--profile", default="wisconsin")
    p.add_argument("--strategy", choices=("war", "surrender", "mix"), default="mix")
    p.add_argument("--seed", type=int, default=None)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Serve and run the demo floor until Ctrl-C (or `--rounds`)."""
    from table_adapter.display import dollars
    from table_adapter.simulator import (
        FLOOR_POOL,
        Floor,
        FloorOptions,
        FloorPlan,
        backlog_tables,
        journal_path,
    )

    settings = Settings.from_env()
    rate = max(args.rounds_per_second, 0.0) / max(args.tables, 1)
    plan = FloorPlan(
        tables=args.tables,
        rounds=args.rounds or None,
        profile=args.profile,
        strategy=args.strategy,
        seed=args.seed,
        rate=rate,
        pool="main",
        table_prefix="DEMO-",
    )
    journal = journal_path(settings.data_dir)
    tables = {t: plan.table_config() for t in plan.table_ids}
    try:
        with local_controller(
            settings,
            {plan.pool_id: FLOOR_POOL},
            tables,
            key_tables=backlog_tables(journal),
            who="jackpot demo",
        ) as local:
            print(f"\nThe meter is live at {local.base}/  (Ctrl-C stops)\n", flush=True)
            options = FloorOptions(on_answer=show)
            result = Floor(plan, local.base, local.table_key, journal, options).run()
    except KeyboardInterrupt:  # before the floor started: nothing was dealt
        return 0
    s = result.summary()
    print(
        f"\n{s['rounds']} rounds, {s['side_bets']} side bets, handle {dollars(s['handle'])}; "
        f"{s['pending']} reports wait in {journal} for the next start",
        flush=True,
    )
    return 0


def show(entry: Entry, answer: RoundAnswer) -> None:
    """Print the controller's answer to a round: the meters, then who won what."""
    from table_adapter.display import describe, meters

    print(f"{entry.table:<8} {answer.round}  {meters(answer)}", flush=True)
    for line in describe(answer):
        print(f"    {line}", flush=True)


def deal(rng: random.Random, table: str, round_id: str) -> dict[str, Any]:
    """A random round report at a 7-spot table: every player bets $5 and goes to war on a tie.

    Kept for the HTTP benchmark (bench/loadgen.py), which needs reports without a shoe.
    """
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
