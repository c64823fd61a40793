"""`jackpot payouts list|history|record|show`: reading payouts."""

from __future__ import annotations

import argparse
import time
from typing import Any
from zoneinfo import ZoneInfo

from jackpot.cli.formatting import age, cell, money, table, when
from jackpot.cli.payouts.detail import payout_detail, pool_of, won_by
from jackpot.cli.remote import Controller, emit_json, reply, segment, time_zone


def list_payouts(api: Controller, args: argparse.Namespace) -> int:
    params: dict[str, str | int] = {}
    if args.status is not None:
        params["status"] = args.status
    if args.limit is not None:
        params["limit"] = args.limit
    answer = api.get("/v1/payouts", params)
    if args.json:
        emit_json(answer)
        return 0
    payouts = answer["payouts"]
    if not payouts:
        print("no payouts" + (f" {args.status}" if args.status else ""))
        return 0
    now = time.time_ns() // 1_000_000
    rows = [
        [
            str(p["id"]),
            pool_of(p),
            str(p["table"]),
            str(p["spot"]),
            won_by(p),
            money(p["amount"]),
            str(p["status"]),
            age(p.get("created"), now),
        ]
        for p in payouts
    ]
    headers = ["ID", "POOL", "TABLE", "SPOT", "OUTCOME", "AMOUNT", "STATUS", "AGE"]
    print(table(headers, rows, right={3, 5, 7}))
    return 0


def payout_history(api: Controller, args: argparse.Namespace) -> int:
    given = {
        "payout": args.payout,
        "table": args.table,
        "pool": args.pool,
        "person": args.person,
        "status": args.status,
        "from": args.from_day,
        "to": args.to_day,
        "changed_from": args.changed_from,
        "changed_to": args.changed_to,
        "limit": args.limit,
        "before": args.before,
    }
    answer = api.get("/v1/payouts/history", {k: v for k, v in given.items() if v is not None})
    return reply(args, answer, lambda a: _found(a, time_zone()))


def _found(answer: dict[str, Any], zone: ZoneInfo) -> str:
    totals = answer["totals"]
    if not totals:
        return "no payouts found"
    rows = [
        [
            when(p["created"], zone),
            str(p["id"]),
            str(p["table"]),
            pool_of(p),
            money(p["amount"]),
            str(p["status"]),
            cell(p.get("paid_by")),
            cell(p.get("witness")),
            cell(p.get("slip")),
        ]
        for p in answer["payouts"]
    ]
    headers = ["WON", "ID", "TABLE", "POOL", "AMOUNT", "STATUS", "PAID BY", "WITNESS", "SLIP"]
    found = "; ".join(
        f"{status} {t['payouts']} ({money(t['amount'])})" for status, t in totals.items()
    )
    more = f"\nmore: --before {answer['next']}" if answer["next"] else ""
    return f"{table(headers, rows, right={4})}\nfound: {found}{more}"


def payout_record(api: Controller, args: argparse.Namespace) -> int:
    answer = api.get(f"/v1/payouts/{segment(args.payout)}/record")
    return reply(args, answer, lambda a: _record(a, time_zone()))


def _record(answer: dict[str, Any], zone: ZoneInfo) -> str:
    rows = []
    for s in answer["steps"]:
        said = _recorded(s)
        rows.append(
            [
                when(s["at"], zone),
                str(s["step"]),
                cell(s.get("person") or s["who"]),
                said,
                f"{answer['journal']} #{s['seq']}",
                cell(s.get("hash") or "not archived yet"),
            ]
        )
    head = payout_detail(answer["payout"], zone)
    steps = table(["WHEN", "STEP", "BY", "RECORDED", "JOURNAL", "HASH"], rows)
    return f"{head}\n\n{steps}"


RECORDED = ("paid_by", "witness", "slip", "approver", "from", "requester", "reason", "note")


def _recorded(step: dict[str, Any]) -> str:
    """What a step recorded, in words: its amount, a refusal's kind, then its fields."""
    said = [f"{k.replace('_', ' ')} {step[k]}" for k in RECORDED if step.get(k)]
    if "amount" in step:
        said.insert(0, money(step["amount"]))
    if step["step"] == "void_refused":  # another person's refusal, or the asker's withdrawal
        said.insert(0, "withdrawn by the one who asked" if step.get("withdrawn") else "refused")
    return "; ".join(said)


def show_payout(api: Controller, args: argparse.Namespace) -> int:
    answer = api.get(f"/v1/payouts/{segment(args.payout)}")
    return reply(args, answer, lambda a: payout_detail(a, time_zone()))
