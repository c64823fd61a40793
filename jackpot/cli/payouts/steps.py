"""`jackpot payouts confirm|approve|dispute|void|approve-void|refuse-void`: a verification
step on one payout."""

from __future__ import annotations

import argparse
from typing import Any

from jackpot.cli.formatting import money
from jackpot.cli.payouts.detail import payout_detail
from jackpot.cli.remote import Controller, UsageError, reply, segment, time_zone


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
    raise _not_one_person(text, option, named, found)


def _not_one_person(
    text: str, option: str, named: list[dict[str, Any]], found: list[dict[str, Any]]
) -> UsageError:
    """The refusal of a person named by no one, or by several: the people it might mean."""
    if named:
        listed = ", ".join(p["shown"] for p in named)
        return UsageError(f"{option} {text!r} is the name of {len(named)} people ({listed}): "
                          "give the id")  # fmt: skip
    near = ", ".join(p["shown"] for p in found[:5])
    return UsageError(
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
