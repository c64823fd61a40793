"""The `jackpot payouts` commands and their options."""

from __future__ import annotations

import argparse

from jackpot.cli.argtypes import positive
from jackpot.cli.payouts.reads import list_payouts, payout_history, payout_record, show_payout
from jackpot.cli.payouts.steps import (
    approve_payout,
    approve_void_payout,
    confirm_payout,
    dispute_payout,
    refuse_void_payout,
    void_payout,
)
from jackpot.cli.remote import Action, add_command
from jackpot.domain.requests import PAYOUT_STATUSES as STATUSES


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("payouts", help="jackpots awaiting verification (over the HTTP API)")
    payouts = p.add_subparsers(dest="payouts_command", required=True, metavar="COMMAND")
    _add_reads(payouts)
    for step in _add_steps(payouts):
        step.add_argument(
            "--expect",
            choices=STATUSES,
            metavar="STATUS",
            help="the status you last saw; if it changed meanwhile, nothing is done "
            "(409 payout_changed)",
        )


def _add_reads(payouts: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The commands that read payouts: list, show, history, record."""
    listing = add_command(
        payouts, "list", list_payouts, "payouts, newest first (operator or auditor)"
    )
    listing.add_argument("--status", choices=STATUSES, help="only payouts in this status")
    listing.add_argument("--limit", type=positive, metavar="N", help="at most N (default 100)")
    show = add_command(payouts, "show", show_payout, "one payout (operator or auditor)")
    show.add_argument("payout", metavar="ID")
    _add_history(payouts)
    record = add_command(
        payouts, "record", payout_record, "a payout's every step (operator or auditor)"
    )
    record.add_argument("payout", metavar="ID")


def _add_history(payouts: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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


def _add_steps(
    payouts: argparse._SubParsersAction[argparse.ArgumentParser],
) -> list[argparse.ArgumentParser]:
    """The verification steps, each on one payout: confirm, approve, dispute, void,
    approve-void, refuse-void."""
    confirm = _add_confirm(payouts)
    approve = _payout_step(
        payouts,
        "approve",
        approve_payout,
        "approve a confirmed jackpot: the second person (operator)",
    )
    approve.add_argument("--reason", metavar="TEXT", help="a note")
    dispute = _payout_step(payouts, "dispute", dispute_payout, "hold a jackpot back (operator)")
    _why(dispute)
    void = _payout_step(
        payouts,
        "void",
        void_payout,
        "void a jackpot: nothing is owed any more (operator)",
        "Void a jackpot: nothing is owed any more. From the approval threshold on, this "
        "asks for the void: the jackpot keeps its status until another person runs "
        "`approve-void`. Asking again changes nothing.",
    )
    _why(void)
    approve_void = _payout_step(
        payouts,
        "approve-void",
        approve_void_payout,
        "approve the void asked of a jackpot: the second person (operator)",
    )
    # --note as `jackpot voids approve` names it; --reason kept as its alias
    approve_void.add_argument(
        "--note", "--reason", dest="note", metavar="TEXT", help="the approver's note (journaled)"
    )
    refuse_void = _payout_step(
        payouts,
        "refuse-void",
        refuse_void_payout,
        "refuse the void asked of a jackpot, or withdraw your own: nothing else changes (operator)",
    )
    _why(refuse_void)
    return [confirm, approve, dispute, void, approve_void, refuse_void]


def _add_confirm(
    payouts: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    confirm = _payout_step(
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
    return confirm


def _payout_step(
    payouts: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    action: Action,
    help: str,
    description: str | None = None,
) -> argparse.ArgumentParser:
    """A step's command, taking the payout's id."""
    step = add_command(payouts, name, action, help, description)
    step.add_argument("payout", metavar="ID")
    return step


def _why(step: argparse.ArgumentParser) -> None:
    step.add_argument("--reason", required=True, metavar="TEXT", help="why (journaled)")
