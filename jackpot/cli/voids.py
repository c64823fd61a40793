"""`jackpot voids list|show|ask|approve|refuse`: round voids over the HTTP API (docs/RULES.md §6).

A supervisor asks for a round's void (whole, or some spots' bets, with the reason); from the
approval threshold, or when a table asked, it waits for another person, whom `list` shows
every void waiting, `approve` lets apply it and `refuse` drop it."""

from __future__ import annotations

import argparse
import time
from typing import Any
from zoneinfo import ZoneInfo

from jackpot.cli.formatting import age, cell, fields, money, table, when
from jackpot.cli.remote import Controller, add_command, reply, segment, time_zone


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("voids", help="void settled rounds, with a second person from the threshold")
    voids = p.add_subparsers(dest="voids_command", required=True, metavar="COMMAND")
    add_command(
        voids,
        "list",
        list_awaiting,
        "the round and jackpot voids awaiting a second person's approval, oldest first "
        "(operator or auditor)",
    )
    show = add_command(voids, "show", show_round, "what is void of a round (operator or auditor)")
    _round(show)
    ask = add_command(
        voids,
        "ask",
        ask_void,
        "void a settled round, or some of its spots' bets (operator)",
        "Void a settled round whole, or only the bets of --spots (a card not dealt to a wager): "
        "its handle, pays, meter contributions and jackpots are taken back as new journal "
        "entries. From the hand-pay approval threshold the void waits for another person "
        "(jackpot voids approve); a jackpot of the round already paid is refused, naming it.",
    )
    _round(ask)
    ask.add_argument("--reason", required=True, help="why the round is void (journaled)")
    ask.add_argument(
        "--spots",
        type=spot_list,
        metavar="N,M",
        help="only these spots' bets, comma-separated (default: the whole round)",
    )
    approve = add_command(
        voids,
        "approve",
        approve_void,
        "approve the void a round awaits; another person than the one who asked (operator)",
    )
    _round(approve)
    approve.add_argument("--note", default="", help="the approver's note (journaled)")
    refuse = add_command(
        voids,
        "refuse",
        refuse_void,
        "refuse the void a round awaits, or withdraw your own: nothing moves (operator)",
    )
    _round(refuse)
    refuse.add_argument("--reason", required=True, help="why it is refused (journaled)")


def _round(p: argparse.ArgumentParser) -> None:
    p.add_argument("table", metavar="TABLE")
    p.add_argument("round", metavar="ROUND")


def spot_list(text: str) -> list[int]:
    try:
        spots = [int(s) for s in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            "give spot numbers separated by commas: 2 or 2,5"
        ) from None
    if not spots or min(spots) < 1:
        raise argparse.ArgumentTypeError("spots are numbered from 1")
    return spots


def list_awaiting(api: Controller, args: argparse.Namespace) -> int:
    answer = api.get("/v1/voids/awaiting")
    now_ms = time.time_ns() // 1_000_000
    return reply(args, answer, lambda a: awaiting_text(a["voids"], now_ms, a.get("payouts") or []))


def awaiting_text(
    voids: list[dict[str, Any]], now_ms: int, payouts: list[dict[str, Any]] | None = None
) -> str:
    """The voids waiting, for a supervisor: which round or jackpot, what, how much, who
    asked, why; a jackpot's void is approved with `jackpot payouts approve-void` (D286)."""
    payouts = payouts or []
    if not voids and not payouts:
        return "no void awaits approval"
    rows = [_round_void_row(v, now_ms) for v in voids]
    rows += [_jackpot_void_row(p, now_ms) for p in payouts]
    headers = ["ROUND", "VOID OF", "PAYS", "ASKED BY", "REASON", "APPROVED SO FAR", "WAITING"]
    return f"{table(headers, rows, right={2, 6})}\n{_awaiting_count(len(voids), len(payouts))}"


def _round_void_row(v: dict[str, Any], now_ms: int) -> list[str]:
    approvals = ", ".join(str(a.get("approver") or a["approved_by"]) for a in v["approvals"])
    return [
        f"{v['table']}/{v['round']}",
        covers(v),
        money(int(v["pays"])),
        cell(v.get("person") or v["requested_by"]),
        str(v["reason"]),
        approvals or "-",
        age(int(v["at"]), now_ms),
    ]


def _jackpot_void_row(p: dict[str, Any], now_ms: int) -> list[str]:
    return [
        f"jackpot {p['payout']} ({p['table']}/{p['round']} spot {p['spot']})",
        f"the jackpot ({str(p['status']).replace('_', ' ')})",
        money(int(p["amount"])),
        cell(p.get("person") or p["requested_by"]),
        str(p["reason"]),
        "-",
        age(int(p["at"]), now_ms),
    ]


def _awaiting_count(rounds: int, jackpots: int) -> str:
    count = f"{rounds + jackpots} awaiting approval"
    if jackpots:
        count += (
            f" ({rounds} round, {jackpots} jackpot: jackpot payouts approve-void or refuse-void ID)"
        )
    return count


def covers(v: dict[str, Any]) -> str:
    if v.get("whole"):
        return "the whole round"
    return "spot " + ", ".join(str(s) for s in v.get("spots") or [])


def show_round(api: Controller, args: argparse.Namespace) -> int:
    answer = api.get(f"/v1/rounds/{segment(args.table)}/{segment(args.round)}")
    return reply(args, answer, lambda a: round_voids(a, time_zone()))


def round_voids(stored: dict[str, Any], zone: ZoneInfo) -> str:
    """A round's voids as `show` prints them: each applied, and the one waiting."""
    state = stored.get("void") or {}
    lines = [
        fields(
            [
                ("round", f"{stored.get('table')}/{stored.get('round')}"),
                ("void", str(state.get("status") or "not_void")),
            ]
        )
    ]
    lines += [_applied_line(v, zone) for v in state.get("voids") or []]
    held = state.get("awaiting_approval")
    if held:
        lines.append(_awaiting_line(held, zone))
    return "\n".join(lines)


def _awaiting_line(held: dict[str, Any], zone: ZoneInfo) -> str:
    """The void waiting for a round's approval, as `show` prints it."""
    return (
        f"AWAITING APPROVAL: {covers(held)}, pays {money(int(held['pays']))}, asked by "
        f"{held.get('person') or held['requested_by']} at {when(int(held['at']), zone)}: "
        f"{held['reason']}"
    )


def _applied_line(v: dict[str, Any], zone: ZoneInfo) -> str:
    """A void applied to a round, as `show` prints it."""
    by = v.get("person") or v["requested_by"]
    approved = f", approved by {v['approver']}" if v.get("approver") else ""
    return (
        f"voided {covers(v)} at {when(int(v['at']), zone)}: pays {money(int(v['pays']))}, "
        f"asked by {by}{approved}: {v['reason']}"
    )


def ask_void(api: Controller, args: argparse.Namespace) -> int:
    body: dict[str, Any] = {"reason": args.reason}
    if args.spots:
        body["spots"] = args.spots
    answer = api.post(f"/v1/rounds/{segment(args.table)}/{segment(args.round)}/void", body)
    return reply(args, answer, lambda a: _done(a, time_zone()))


def approve_void(api: Controller, args: argparse.Namespace) -> int:
    body = {"reason": args.note} if args.note else None
    path = f"/v1/rounds/{segment(args.table)}/{segment(args.round)}/void/approve"
    return reply(args, api.post(path, body), lambda a: _done(a, time_zone()))


def refuse_void(api: Controller, args: argparse.Namespace) -> int:
    path = f"/v1/rounds/{segment(args.table)}/{segment(args.round)}/void/refuse"
    return reply(args, api.post(path, {"reason": args.reason}), lambda a: _done(a, time_zone()))


def _done(answer: dict[str, Any], zone: ZoneInfo) -> str:
    said = {
        "refused": "the void waiting is refused: nothing moved",
        "voided": "voided",
        "unchanged": "unchanged: already so",
        "awaiting_approval": "awaiting another person's approval (jackpot voids approve)",
    }.get(str(answer["result"]), str(answer["result"]))
    head = f"round {answer['table']}/{answer['round']}: {said}"
    return f"{head}\n{round_voids({**answer, 'void': answer}, zone)}"
