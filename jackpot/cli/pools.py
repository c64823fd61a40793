"""`jackpot pools list|show|set|stage|unstage|suspend|resume|retire|transfer`: pools over
the HTTP API."""

from __future__ import annotations

import argparse
import hashlib
import sys
from typing import Any
from zoneinfo import ZoneInfo

from jackpot.cli.argtypes import non_negative
from jackpot.cli.formatting import exact, fields, money, rate, table, when
from jackpot.cli.remote import (
    Controller,
    Refused,
    UsageError,
    add_command,
    emit_json,
    reply,
    segment,
    time_zone,
)
from jackpot.domain.config import Policy

MAX_ID = 128  # an identifier's length (docs/API.md)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("pools", help="list, show and configure pools (over the HTTP API)")
    pools = p.add_subparsers(dest="pools_command", required=True, metavar="COMMAND")
    add_command(pools, "list", list_pools, "every pool's public meter (no key needed)")
    show = add_command(
        pools,
        "show",
        show_pool,
        "one pool: its meters with an operator or auditor key, else its public read",
    )
    show.add_argument("pool", metavar="POOL")
    _add_parameter_changes(pools)
    _add_suspension(pools)
    _add_retirement(pools)


def _add_parameter_changes(pools: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """set, stage and unstage: a pool's parameters and name."""
    put = add_command(
        pools,
        "set",
        set_pool,
        "create or update a pool (operator)",
        "Create a pool (--reset, --rate-bp and --reserve-rate-bp required; its meter starts "
        "at the reset) or update one: fields left out keep their values, and no balance "
        "ever changes. A pool's parameters change only while it is suspended (else "
        "pool_running): suspend it first, or `stage` the change.",
    )
    stage = add_command(
        pools,
        "stage",
        stage_pool,
        "stage a parameter change for the next suspension or a set time (operator)",
        "Stage a change of a running pool's parameters: it takes effect when the pool is "
        "next suspended, or with --at at that time (the worker applies it within seconds), "
        "never in the middle of play. Fields left out keep the pool's values; a new staged "
        "change replaces the one waiting.",
    )
    for command in (put, stage):
        _add_parameters(command)
    named = put.add_mutually_exclusive_group()
    named.add_argument(
        "--name",
        metavar="TEXT",
        help="what signs, the meter page and the console call the pool (1 to 40 characters; "
        "not a game parameter: it changes while the pool runs)",
    )
    named.add_argument("--no-name", action="store_true", help="remove it: the id is shown")
    stage.add_argument(
        "--at",
        metavar="TIME",
        help="when it takes effect, RFC 3339 with its offset (2026-11-26T06:00:00-05:00); "
        "default: at the next suspension",
    )
    stage.add_argument("--reason", required=True, help="why (journaled)")
    unstage = add_command(
        pools, "unstage", unstage_pool, "drop the staged parameter change (operator)"
    )
    unstage.add_argument("pool", metavar="POOL")
    unstage.add_argument("--reason", required=True, help="why (journaled)")


def _add_parameters(command: argparse.ArgumentParser) -> None:
    """The pool and the parameters `set` and `stage` change."""
    command.add_argument("pool", metavar="POOL")
    command.add_argument("--reset", type=non_negative, metavar="CENTS", help="the reset value")
    command.add_argument("--rate-bp", type=non_negative, metavar="N", help="rate to the meter")
    command.add_argument(
        "--reserve-rate-bp", type=non_negative, metavar="N", help="rate to the reserve"
    )
    cap = command.add_mutually_exclusive_group()
    cap.add_argument("--cap", type=non_negative, metavar="CENTS", help="the meter's cap")
    cap.add_argument("--no-cap", action="store_true", help="remove the cap")
    command.add_argument("--policy", choices=[p.value for p in Policy], help="how hits share")


def _add_suspension(pools: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    suspend = add_command(
        pools,
        "suspend",
        suspend_pool,
        "close the side bet on every table linked to the pool (operator)",
    )
    suspend.add_argument("pool", metavar="POOL")
    suspend.add_argument("--reason", required=True, help="why (journaled)")
    resume = add_command(pools, "resume", resume_pool, "open the side bet again (operator)")
    resume.add_argument("pool", metavar="POOL")
    resume.add_argument("--reason", help="why (journaled)")


def _add_retirement(pools: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """retire, and transfer: the same call under the name people look for."""
    retire = add_command(
        pools,
        "retire",
        retire_pool,
        "retire a pool for good, moving its whole balance to another pool (operator)",
        "Retire POOL for good and move its whole balance, meter and reserve, to OTHER in one "
        "journaled step (what would lift OTHER above its cap goes to OTHER's reserve). No "
        "table may feed POOL: move them first (`jackpot tables set T --pools ...`).",
    )
    transfer = add_command(
        pools,
        "transfer",
        retire_pool,
        "move a pool's whole balance to another pool: the same as retire",
        "The same call as `retire`: a pool's balance moves to another pool only when the "
        "pool is retired, so this retires POOL for good and moves its whole balance, meter "
        "and reserve, to OTHER. (To move part of a balance, an operator makes an audited "
        "adjustment: POST /v1/pools/{pool}/adjustments.)",
    )
    for moving in (retire, transfer):
        moving.add_argument("pool", metavar="POOL")
        moving.add_argument("--to", required=True, metavar="OTHER", help="the receiving pool")
        moving.add_argument("--reason", required=True, help="why (journaled in both pools)")
        moving.add_argument(
            "--id",
            help="the transfer's id, applied once (default: derived from POOL and OTHER, so "
            "running the same command, with the same reason, again replays it rather than "
            "moving anything twice; another reason under the same id is refused)",
        )


def list_pools(api: Controller, args: argparse.Namespace) -> int:
    answer = api.get("/v1/pools")
    if args.json:
        emit_json(answer)
        return 0
    pools = answer["pools"]
    if not pools:
        print("no pools")
        return 0
    rows = [
        [
            p["pool"],
            p.get("name") or "-",
            p["state"],
            money(p["value"]),
            money(p["reset"]),
            cap(p["cap"]),
            rate(p["rate_bp"]),
            p["policy"],
            str(p["hits"]),
        ]
        for p in pools
    ]
    # the public read: no reserve, nor its rate (`jackpot pools show` with an operator's key)
    headers = ["POOL", "NAME", "STATE", "METER", "RESET", "CAP", "RATE", "POLICY", "HITS"]
    print(table(headers, rows, right={3, 4, 5, 6, 8}))
    return 0


def show_pool(api: Controller, args: argparse.Namespace) -> int:
    answer = _meters_or_public(api, args.pool)
    return reply(args, answer, lambda a: pool_detail(a, time_zone()))


def _meters_or_public(api: Controller, pool: str) -> Any:
    """The regulator's meters where the key may read them, else the public read."""
    if api.has_key:
        try:
            return api.get(f"/v1/pools/{segment(pool)}/meters")
        except Refused as exc:
            if exc.status != 403:
                raise
            print("(this key may not read the meters: the public read)", file=sys.stderr)
    return api.get(f"/v1/pools/{segment(pool)}")


def _parameters(args: argparse.Namespace, required: bool = True) -> dict[str, Any]:
    body: dict[str, Any] = {
        name: getattr(args, name)
        for name in ("reset", "rate_bp", "reserve_rate_bp", "cap", "policy")
        if getattr(args, name) is not None
    }
    if args.no_cap:
        body["cap"] = None
    if not body and required:
        raise UsageError(
            "nothing to set: give --reset, --rate-bp, --reserve-rate-bp, --cap, "
            "--no-cap or --policy"
        )
    return body


def stage_pool(api: Controller, args: argparse.Namespace) -> int:
    body = {**_parameters(args), "reason": args.reason}
    if args.at is not None:
        body["effective_at"] = args.at
    answer = api.post(f"/v1/pools/{segment(args.pool)}/staged", body)
    return reply(args, answer, lambda a: _headed(a, "change staged"))


def unstage_pool(api: Controller, args: argparse.Namespace) -> int:
    answer = api.post(f"/v1/pools/{segment(args.pool)}/staged/cancel", {"reason": args.reason})
    done = "staged change dropped" if answer["changed"] else "no change was staged"
    return reply(args, answer, lambda a: f"pool {a['pool']}: {done}")


def set_pool(api: Controller, args: argparse.Namespace) -> int:
    shown: dict[str, Any] = {}  # not a parameter: alone, it is enough to set
    if args.name is not None or args.no_name:
        shown["name"] = None if args.no_name else args.name
    body = {**_parameters(args, required=not shown), **shown}
    answer = api.put(f"/v1/pools/{segment(args.pool)}", body)
    return reply(args, answer, lambda a: _headed(a, a["status"]))


def _headed(answer: Any, what: str, colon: str = ":") -> str:
    """`pool P: what`, then the pool as `show` prints it."""
    return f"pool {answer['pool']}{colon} {what}\n{pool_detail(answer, time_zone())}"


def suspend_pool(api: Controller, args: argparse.Namespace) -> int:
    answer = api.post(f"/v1/pools/{segment(args.pool)}/suspend", {"reason": args.reason})
    return _link_answer(answer, args)


def resume_pool(api: Controller, args: argparse.Namespace) -> int:
    body = {"reason": args.reason} if args.reason is not None else None
    answer = api.post(f"/v1/pools/{segment(args.pool)}/resume", body)
    return _link_answer(answer, args)


def _link_answer(answer: Any, args: argparse.Namespace) -> int:
    already = "" if answer.get("changed", True) else "already "
    return reply(args, answer, lambda a: _headed(a, f"is {already}{a['state']}", ""))


def retire_pool(api: Controller, args: argparse.Namespace) -> int:
    transfer = args.id or transfer_id(args.pool, args.to)
    body = {"id": transfer, "to": args.to, "reason": args.reason}
    answer = api.post(f"/v1/pools/{segment(args.pool)}/retire", body)
    if args.json:
        emit_json(answer)
        return 0
    again = " (already done: replayed, nothing moved again)" if answer.get("replayed") else ""
    print(f"pool {answer['pool']} {answer['state']}{again}")
    lines = [("transfer", str(answer["id"])), ("to", str(answer["to"]))]
    if "moved_units" in answer:  # a replay does not say again what moved
        lines += [
            ("moved", exact(answer["moved_units"])),
            ("  from the meter", exact(answer["moved_value_units"])),
            ("  from the reserve", exact(answer["moved_reserve_units"])),
        ]
    lines += [
        (f"{answer['to']} meter now", money(answer["to_value"])),
        ("reason", str(answer["reason"])),
    ]
    print(fields(lines))
    return 0


def transfer_id(pool: str, to: str) -> str:
    """A transfer id that names the move, within an identifier's 128 characters."""
    plain = f"retire-{pool}-to-{to}"
    if len(plain) <= MAX_ID:
        return plain
    return "retire-" + hashlib.sha256(f"{pool}\n{to}".encode()).hexdigest()


def cap(cents: int | None) -> str:
    return "none" if cents is None else money(cents)


def pool_detail(p: dict[str, Any], zone: ZoneInfo) -> str:
    """A pool as `show` prints it; the regulator's meters only where the API gave them."""
    meter = money(p["value"])
    if "value_units" in p:
        meter += f"  (exact {exact(p['value_units'])})"
    lines = [
        ("pool", str(p["pool"])),
        ("name", str(p.get("name") or "-  (signs show the id)")),
        ("state", str(p["state"])),
        ("meter", meter),
        ("reset", money(p["reset"])),
        ("cap", cap(p["cap"])),
        ("rate", f"{rate(p['rate_bp'])} ({p['rate_bp']} bp)"),
        ("policy", str(p["policy"])),
        ("hits", str(p["hits"])),
    ]
    if "reserve" in p:  # the regulator's meters: an operator's or auditor's read
        lines += _regulator_meters(p)
    if p.get("staged"):
        lines += _staged_change(p, zone)
    out = fields(lines)
    hits = p.get("last_hits") or []
    if hits:
        out += "\n\nlast hits\n" + _last_hits(hits, zone)
    return out


def _regulator_meters(p: dict[str, Any]) -> list[tuple[str, str]]:
    return [
        ("reserve rate", f"{rate(p['reserve_rate_bp'])} ({p['reserve_rate_bp']} bp)"),
        ("reserve", f"{money(p['reserve'])}  (exact {exact(p['reserve_units'])})"),
        ("wagered", money(p["wagered"])),
        ("side bets", str(p["bets"])),
        ("contributions", exact(p["contributions_units"])),
        ("overflow", exact(p["overflow_units"])),
        ("won", money(p["won"])),
        ("seed funding", exact(p["seed_funding_units"])),
        ("adjustments", exact(p["adjustments_units"])),
        ("voided rounds", exact(p.get("voids_units", 0))),
        ("initial reset", exact(p["reset_initial_units"])),
        ("journal seq", str(p["journal_seq"])),
        ("invariant holds", "yes" if p["invariant_holds"] else "NO"),
    ]


def _staged_change(p: dict[str, Any], zone: ZoneInfo) -> list[tuple[str, str]]:
    """The staged change's terms, when it takes effect, who staged it, and why it was
    refused if it was."""
    staged = p["staged"]
    at = staged["effective_at"]
    lines = [
        (
            "staged change",
            f"reset {money(staged['reset'])}, cap {cap(staged['cap'])}, rate "
            f"{rate(staged['rate_bp'])}, reserve rate {rate(staged['reserve_rate_bp'])}, "
            f"{staged['policy']}",
        ),
        ("  takes effect", "at the next suspension" if at is None else when(at, zone)),
        ("  staged by", f"{staged['who']}: {staged['reason']}"),
    ]
    if p.get("staged_refused"):  # refused as it was to take effect (D229)
        lines.append(("  REFUSED", str(p["staged_refused"])))
    return lines


def _last_hits(hits: list[dict[str, Any]], zone: ZoneInfo) -> str:
    rows = [
        [
            when(h.get("created"), zone),
            str(h.get("id", "-")),
            str(h.get("table", "-")),
            str(h.get("spot", "-")),
            str(h.get("outcome", "-")),
            money(h["amount"]),
            str(h.get("status", "-")),
        ]
        for h in hits
    ]
    headers = ["TIME", "PAYOUT", "TABLE", "SPOT", "OUTCOME", "AMOUNT", "STATUS"]
    return table(headers, rows, right={3, 5})
