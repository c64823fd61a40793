"""`jackpot payouts list|history|show|record|confirm|approve|dispute|void|approve-void|
refuse-void`: hand pays over the HTTP API."""

from __future__ import annotations

import argparse
import time
from typing import Any
from zoneinfo import ZoneInfo

from jackpot.cli.argtypes import positive
from jackpot.cli.formatting import age, cell, fields, money, table, when
from jackpot.cli.remote import (
    Controller,
    UsageError,
    add_command,
    emit_json,
    reply,
    segment,
    time_zone,
)
from jackpot.domain.requests import PAYOUT_STATUSES as STATUSES

# how `show` orders a payout's fields; any other field the API adds follows them
ORDER = (
    "id", "status", "amount", "pool", "table", "round", "spot", "player", "outcome", "created",
    "paid_by", "witness", "slip", "confirmer", "confirmed_by", "confirmed_at", "approver",
    "approved_by", "approved_at", "paid_at", "disputer", "disputed_by", "disputed_at", "voider",
    "voided_by", "voided_at", "voided_from", "void_request", "void_requester",
    "void_requested_by", "void_requested_at", "void_approver", "note",
)  # fmt: skip


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("payouts", help="jackpots awaiting verification (over the HTTP API)")
    payouts = p.add_subparsers(dest="payouts_command", required=True, metavar="COMMAND")
    listing = add_command(
        payouts, "list", list_payouts, "payouts, newest first (operator or auditor)"
    )
    listing.add_argument("--status", choices=STATUSES, help="only payouts in this status")
    listing.add_argument("--limit", type=positive, metavar="N", help="at most N (default 100)")
    show = add_command(payouts, "show", show_payout, "one payout (operator or auditor)")
    show.add_argument("payout", metavar="ID")
    history = add_command(
        payouts,
        "history",
        payout_history,
        "search every payout ever made (operator or auditor)",
        "Search every payout ever made, newest first, with the totals of everything found "
        "by status: each criterion given must hold.",
    )
    history.add_argument("--payout", metavar="ID", help="a payout's id, or its number")
    history.add_argument("--table", metavar="ID")
    history.add_argument("--pool", metavar="ID")
    history.add_argument(
        "--person",
        metavar="NAME",
        help="who paid, witnessed, confirmed, approved, disputed or voided it (compared as people)",
    )
    history.add_argument(
        "--status", metavar="S[,S...]", help=f"statuses, by commas: {', '.join(STATUSES)}"
    )
    history.add_argument("--from", dest="from_day", metavar="DAY", help="won from this gaming day")
    history.add_argument("--to", dest="to_day", metavar="DAY", help="won up to this gaming day")
    history.add_argument(
        "--changed-from", metavar="INSTANT", help="last step at or after (RFC 3339 with its offset)"
    )
    history.add_argument("--changed-to", metavar="INSTANT", help="last step before it")
    history.add_argument("--limit", type=positive, metavar="N", help="at most N (default 100)")
    history.add_argument("--before", metavar="CURSOR", help="the page after `next`")
    record = add_command(
        payouts, "record", payout_record, "a payout's every step (operator or auditor)"
    )
    record.add_argument("payout", metavar="ID")

    confirm = add_command(
        payouts,
        "confirm",
        confirm_payout,
        "mark a jackpot paid by hand (operator)",
        "Mark a jackpot paid by hand, recording who paid it (default: the person the key "
        "is issued to), the witness (another person than the payer) and the slip. Payer and "
        "witness are people of the register, given by id (employee or badge number) or by a "
        "name that is exactly one active person's. From the approval threshold on, it then "
        "awaits a second person's `approve`. Confirming it again changes nothing.",
    )
    confirm.add_argument("payout", metavar="ID")
    confirm.add_argument(
        "--paid-by", metavar="PERSON", help="who paid it: an id, or one person's exact name"
    )
    confirm.add_argument(
        "--witness",
        metavar="PERSON",
        required=True,
        help="who witnessed it (not the payer): an id, or one person's exact name",
    )
    confirm.add_argument(
        "--slip", metavar="REF", required=True, help="the hand-pay slip or reference"
    )
    confirm.add_argument("--reason", metavar="TEXT", help="a note")
    approve = add_command(
        payouts,
        "approve",
        approve_payout,
        "approve a confirmed jackpot: the second person (operator)",
    )
    approve.add_argument("payout", metavar="ID")
    approve.add_argument("--reason", metavar="TEXT", help="a note")
    dispute = add_command(payouts, "dispute", dispute_payout, "hold a jackpot back (operator)")
    dispute.add_argument("payout", metavar="ID")
    dispute.add_argument("--reason", required=True, metavar="TEXT", help="why (journaled)")
    void = add_command(
        payouts,
        "void",
        void_payout,
        "void a jackpot: nothing is owed any more (operator)",
        "Void a jackpot: nothing is owed any more. From the approval threshold on, this "
        "asks for the void: the jackpot keeps its status until another person runs "
        "`approve-void`. Asking again changes nothing.",
    )
    void.add_argument("payout", metavar="ID")
    void.add_argument("--reason", required=True, metavar="TEXT", help="why (journaled)")
    approve_void = add_command(
        payouts,
        "approve-void",
        approve_void_payout,
        "approve the void asked of a jackpot: the second person (operator)",
    )
    approve_void.add_argument("payout", metavar="ID")
    # --note as `jackpot voids approve` names it; --reason kept as its alias
    approve_void.add_argument(
        "--note", "--reason", dest="note", metavar="TEXT", help="the approver's note (journaled)"
    )
    refuse_void = add_command(
        payouts,
        "refuse-void",
        refuse_void_payout,
        "refuse the void asked of a jackpot, or withdraw your own: nothing else changes (operator)",
    )
    refuse_void.add_argument("payout", metavar="ID")
    refuse_void.add_argument("--reason", required=True, metavar="TEXT", help="why (journaled)")
    for step in (confirm, approve, dispute, void, approve_void, refuse_void):
        step.add_argument(
            "--expect",
            choices=STATUSES,
            metavar="STATUS",
            help="the status you last saw; if it changed meanwhile, nothing is done "
            "(409 payout_changed)",
        )


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
        said = [f"{k.replace('_', ' ')} {s[k]}" for k in RECORDED if s.get(k)]
        if "amount" in s:
            said.insert(0, money(s["amount"]))
        if s["step"] == "void_refused":  # another person's refusal, or the asker's withdrawal
            said.insert(0, "withdrawn by the one who asked" if s.get("withdrawn") else "refused")
        rows.append(
            [
                when(s["at"], zone),
                str(s["step"]),
                cell(s.get("person") or s["who"]),
                "; ".join(said),
                f"{answer['journal']} #{s['seq']}",
                cell(s.get("hash") or "not archived yet"),
            ]
        )
    head = payout_detail(answer["payout"], zone)
    steps = table(["WHEN", "STEP", "BY", "RECORDED", "JOURNAL", "HASH"], rows)
    return f"{head}\n\n{steps}"


RECORDED = ("paid_by", "witness", "slip", "approver", "from", "requester", "reason", "note")


def show_payout(api: Controller, args: argparse.Namespace) -> int:
    answer = api.get(f"/v1/payouts/{segment(args.payout)}")
    return reply(args, answer, lambda a: payout_detail(a, time_zone()))


def person_id(api: Controller, text: str, option: str) -> str:
    """The register's id of the person `text` names: their id (any case), or a name that is
    exactly one active person's (case and runs of spaces aside); anything else is refused,
    naming the people it might mean."""
    found = api.get("/v1/people", {"q": text.strip() or text, "limit": 50})["people"]
    wanted = text.strip().upper()
    for person in found:
        if person["id"] == wanted:
            return str(person["id"])
    spoken = " ".join(text.split()).casefold()
    named = [p for p in found if p["name"].casefold() == spoken]
    if len(named) == 1:
        return str(named[0]["id"])
    if named:
        listed = ", ".join(p["shown"] for p in named)
        raise UsageError(f"{option} {text!r} is the name of {len(named)} people ({listed}): "
                         "give the id")  # fmt: skip
    near = ", ".join(p["shown"] for p in found[:5])
    raise UsageError(
        f"{option} {text!r} is no active person's id or name"
        + (f"; did you mean {near}?" if near else " (jackpot people list on the controller)")
    )


def confirm_payout(api: Controller, args: argparse.Namespace) -> int:
    return _step(
        api,
        args,
        "confirm",
        paid_by=person_id(api, args.paid_by, "--paid-by") if args.paid_by else None,
        witness=person_id(api, args.witness, "--witness"),
        slip=args.slip,
        reason=args.reason,
    )


def approve_payout(api: Controller, args: argparse.Namespace) -> int:
    return _step(api, args, "approve", reason=args.reason)


def dispute_payout(api: Controller, args: argparse.Namespace) -> int:
    return _step(api, args, "dispute", reason=args.reason)


def void_payout(api: Controller, args: argparse.Namespace) -> int:
    return _step(api, args, "void", reason=args.reason)


def approve_void_payout(api: Controller, args: argparse.Namespace) -> int:
    return _step(api, args, "void/approve", reason=args.note)


def refuse_void_payout(api: Controller, args: argparse.Namespace) -> int:
    return _step(api, args, "void/refuse", reason=args.reason)


def _step(api: Controller, args: argparse.Namespace, step: str, **given: str | None) -> int:
    """POST one verification step with only the fields the user gave."""
    body = {name: value for name, value in given.items() if value is not None}
    if args.expect is not None:
        body["expect"] = args.expect
    answer = api.post(f"/v1/payouts/{segment(args.payout)}/{step}", body)
    return reply(args, answer, _stepped)


def _stepped(answer: dict[str, Any]) -> str:
    payout = dict(answer)
    # false: the step had been taken already (a second click), and nothing changed
    again = "" if payout.pop("changed", True) else " already (nothing changed)"
    head = f"payout {payout['id']} is{again} {payout['status']}: {money(payout['amount'])}"
    asked = payout.get("void_request")
    if asked:  # the void is asked, not done: say so before anything else
        head += (
            f"\nvoid asked by {asked.get('person') or asked.get('requested_by')}: it awaits "
            "another person's `jackpot payouts approve-void` (or `refuse-void`)"
        )
    return f"{head}\n{payout_detail(payout, time_zone())}"


LEVELS = {"must_hit_by": "must-hit-by", "mystery": "mystery"}


def won_by(p: dict[str, Any]) -> str:
    """What a payout was won by, in a person's words: the hand's outcome for a meter's
    jackpot; a must-hit-by or mystery level's trigger (the hand's outcome is beside the
    point, often none); a fixed or envy pay held as a hand pay, as such."""
    level = LEVELS.get(str(p.get("level") or ""))
    if level is not None:
        trigger = p.get("trigger")
        return f"{level} trigger" + (f" {money(int(trigger))}" if trigger is not None else "")
    kind = str(p.get("kind") or "")
    outcome = cell(p.get("outcome"))
    return f"{kind} pay: {outcome}" if kind in ("fixed", "envy") else outcome


def pool_of(p: dict[str, Any]) -> str:
    """The pool a payout is paid from: none for a fixed or envy pay (the table's rack pays
    it; it is journaled in the table's first pool's journal, which it does not move)."""
    return "-" if p.get("kind") in ("fixed", "envy") else str(p["pool"])


def payout_detail(p: dict[str, Any], zone: ZoneInfo) -> str:
    """Every field of a payout, the known ones first, money and times formatted."""
    names = [n for n in ORDER if n in p] + sorted(n for n in p if n not in ORDER)
    return fields((name.replace("_", " "), _value(name, p[name], p, zone)) for name in names)


def _value(name: str, value: Any, p: dict[str, Any], zone: ZoneInfo) -> str:
    if name == "checkpoint":  # the signed checkpoint covering it (D257)
        if not isinstance(value, dict):
            return "not yet covered"
        return f"#{value['id']} {value['short']} at {when(int(value['ts']), zone)}"
    if name == "void_request" and isinstance(value, dict):
        return (
            f"asked by {value.get('person') or value.get('requested_by')} "
            f"({value.get('requested_by')}) at {when(int(value.get('at') or 0), zone)} from "
            f"{value.get('from')}: {value.get('reason')}; awaits another person's approval"
        )
    if name == "outcome":
        return won_by(p)
    if name == "pool":
        return (
            pool_of(p) if pool_of(p) != "-" else f"none: paid at the table (journaled in {value})"
        )
    if isinstance(value, int) and not isinstance(value, bool):
        if name in ("amount", "trigger"):
            return money(value)
        if name == "created" or name.endswith("_at"):
            return when(value, zone)
    return cell(value)
