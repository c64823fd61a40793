"""A payout's record, as its journal entries tell it, and what a search of payouts matches.

Every step of a payout is an entry of its pool's journal, all naming it (`payout`): the
`hit` (a jackpot) or `hand_pay` (a fixed or envy pay held for verification) that makes it,
then `payout_confirmed` (confirmed, awaiting a second operator's approval), `payout_paid`
(confirmed and paid, or, carrying `approver`, approved), `payout_disputed`,
`payout_void_requested` (from the approval threshold up, a void asked for and awaiting a
second person), `payout_void_withdrawn` (that request withdrawn by a later step),
`payout_void_refused` (that request refused by another person, or withdrawn by its asker) and
`payout_voided` (carrying `requested_by` when a second person approved it). Folding them in
order gives the record the controller keeps live in Redis (payout_status.lua writes the same
fields), so the archive can answer for payouts long after Redis let them go, and `jackpot
verify` can hold the archive's index to the chain.

A search names people as people (jackpot.domain.people): a payout is found under the payer
and the witness as typed, and under the key of everyone who confirmed, approved, disputed or
voided it; a search for a person looks for that person's name and for every key they hold.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any, TypeVar

from jackpot.domain.gamingday import GamingDays, parse_day
from jackpot.domain.payout import Payout, PayoutStatus
from jackpot.domain.payoutids import parse_payout_id, payout_number
from jackpot.domain.people import parse_person_id, person_of, shown_parts
from jackpot.domain.validate import parse_identifier, parse_timestamp
from jackpot.errors import ValidationError

# the journal entries that make or move a payout, each naming it in `payout`
MADE = ("hit", "hand_pay")
STEPS = (
    "payout_confirmed",
    "payout_paid",
    "payout_disputed",
    "payout_void_requested",
    "payout_void_withdrawn",
    "payout_void_refused",
    "payout_voided",
)
ENTRY_TYPES = MADE + STEPS

STATUSES = tuple(s.value for s in PayoutStatus)


def fold(record: dict[str, Any] | None, pool: str, fields: dict[str, str]) -> dict[str, Any]:
    """The payout after one of its entries (`fields` by name), from its record before it
    (None for the entry that makes it); the record is never changed in place."""
    kind = fields.get("type", "")
    if kind in MADE:
        return _made(pool, fields)
    if record is None:
        raise ValueError(f"{kind} of payout {fields.get('payout')} before the payout was made")
    step = _STEPS.get(kind)
    if step is None:
        raise ValueError(f"{kind} is not a step of a payout")
    out = dict(record)
    ts = int(fields.get("ts") or 0)
    step(out, fields, fields.get("who", ""), ts)
    if fields.get("note", ""):
        out["note"] = fields["note"]
    return out


def _made(pool: str, fields: dict[str, str]) -> dict[str, Any]:
    """The payout as its `hit` or `hand_pay` entry makes it: pending."""
    made: dict[str, Any] = {
        "id": fields["payout"],
        "pool": pool,
        "table": fields.get("table", ""),
        "round": fields.get("round", ""),
        "spot": int(fields.get("spot") or 0),
        "player": fields.get("player") or None,
        "outcome": fields.get("outcome", ""),
        "amount": int(fields.get("amount") or 0),
        "status": "pending",
        "created": int(fields.get("ts") or 0),
    }
    if fields.get("type") == "hand_pay":
        made["kind"] = fields.get("kind", "")
    if fields.get("trigger_cents"):  # won by reaching a hidden trigger: its reveal
        made["level"] = fields.get("level", "")
        made["trigger"] = int(fields["trigger_cents"])
        made["salt"] = fields.get("salt", "")
        made["commitment"] = fields.get("commitment", "")
    return made


# Each step, applied to a copy of the record: (record, the entry's fields, who, ts).
# `person_id` is the register's id of the one acting (D232), where it was kept.


def _confirmed(out: dict[str, Any], fields: dict[str, str], who: str, ts: int) -> None:
    """Confirmed (awaiting a second operator's approval), or confirmed and paid."""
    out.update(confirmed_by=who, confirmed_at=ts, paid_by=fields.get("paid_by", ""))
    out["witness"] = fields.get("witness") or None
    out["slip"] = fields.get("slip") or None
    if fields.get("paid_by_id"):  # confirmed with the register: the people's ids
        out.update(paid_by_id=fields["paid_by_id"], witness_id=fields.get("witness_id"))
        out["confirmer_id"] = fields.get("person_id")
    if fields.get("type") == "payout_paid":
        out.update(status="paid", paid_at=ts)
    else:
        out["status"] = "awaiting_approval"


def _paid(out: dict[str, Any], fields: dict[str, str], who: str, ts: int) -> None:
    """Paid: carrying `approver`, a confirmed payout approved; else confirmed and paid."""
    if "approver" not in fields:
        _confirmed(out, fields, who, ts)
        return
    out.update(approved_by=who, approved_at=ts, approver=fields["approver"], paid_at=ts)
    out["status"] = "paid"
    if fields.get("person_id"):
        out["approver_id"] = fields["person_id"]


def _disputed(out: dict[str, Any], fields: dict[str, str], who: str, ts: int) -> None:
    out.update(status="disputed", disputed_by=who, disputed_at=ts)


def _void_requested(out: dict[str, Any], fields: dict[str, str], who: str, ts: int) -> None:
    """A void asked for: the status stays, a second person decides."""
    out["void_request"] = {
        "requested_by": who,
        "person": fields.get("person", ""),
        "compared": fields.get("person_id") or person_of(fields.get("person", "")),
        "reason": fields.get("reason", ""),
        "at": ts,
        "from": fields.get("from", ""),
    }


def _void_dropped(out: dict[str, Any], fields: dict[str, str], who: str, ts: int) -> None:
    """The void request withdrawn by a later step, or refused by another person."""
    out.pop("void_request", None)


def _voided(out: dict[str, Any], fields: dict[str, str], who: str, ts: int) -> None:
    out.pop("void_request", None)
    out.update(status="void", voided_by=who, voided_at=ts, voided_from=fields.get("from"))
    if fields.get("requested_by"):  # asked by one person, approved by another
        out.update(
            void_requested_by=fields["requested_by"],
            void_requester=fields.get("requester", ""),
            void_requested_at=int(fields.get("requested_at") or 0),
            void_approver=fields.get("approver", ""),
        )
        if fields.get("person_id"):
            out["void_approver_id"] = fields["person_id"]


_STEPS: dict[str, Callable[[dict[str, Any], dict[str, str], str, int], None]] = {
    "payout_confirmed": _confirmed,
    "payout_paid": _paid,
    "payout_disputed": _disputed,
    "payout_void_requested": _void_requested,
    "payout_void_withdrawn": _void_dropped,
    "payout_void_refused": _void_dropped,
    "payout_voided": _voided,
}
assert set(_STEPS) == set(STEPS)


def changed_at(payout: Payout) -> int:
    """When the payout last changed: its newest step's stamp (its making's, if none)."""
    p = payout
    stamps = (p.created, p.confirmed_at, p.approved_at, p.paid_at, p.disputed_at, p.voided_at)
    return max(int(s) for s in stamps if s is not None)


# a person's id as a search term: a space, which no name as compared (person_of) holds
ID_TERM = "id "


def people(payout: Payout) -> frozenset[str]:
    """What the payout is found under: its payer and witness by id and by name, and the keys
    of everyone who took one of its steps."""
    p = payout
    terms = set()
    for person, kept_id in ((p.paid_by, p.paid_by_id), (p.witness, p.witness_id)):
        name, ident = shown_parts(person or "")
        ident = kept_id or ident
        terms.add(person_of(name))
        if ident:
            terms.add(ID_TERM + ident)
    keys = (p.confirmed_by, p.approved_by, p.disputed_by, p.voided_by, p.void_requested_by)
    terms |= {key or "" for key in keys}
    return frozenset(terms - {""})


def wanted_people(name: str, holders: dict[str, str]) -> frozenset[str]:
    """What a search for `name` (a person's name, or their id) looks for: the person, and
    every key (`holders`: each key's `who` to its holder as shown) that person holds; a
    key's `who` finds that key's steps."""
    person = person_of(name)
    try:
        ident = parse_person_id(name.strip())
    except ValidationError:
        ident = ""  # not an id: a name only
    keys = set()
    for who, holder in holders.items():
        held_name, held_id = shown_parts(holder)
        if holder and (person_of(held_name) == person or (held_id and held_id == ident)):
            keys.add(who)
    return frozenset({person, ID_TERM + ident if ident else "", *keys} - {""})


def order(payout: Payout) -> tuple[int, int, str]:
    """Newest first when reversed: by the making's stamp, then number, then id (two link
    groups' payouts of one millisecond)."""
    return int(payout.created), payout_number(payout.id), payout.id


@dataclass(frozen=True, slots=True)
class PayoutQuery:
    """A search of payouts: every criterion given must hold (none given: every payout)."""

    payout: str | None = None
    table: str | None = None
    pool: str | None = None
    people: frozenset[str] | None = None  # found under any of these (wanted_people)
    statuses: frozenset[str] = field(default_factory=frozenset)  # empty: any
    created: tuple[int | None, int | None] = (None, None)  # [from, to) epoch ms: when won
    changed: tuple[int | None, int | None] = (None, None)  # [from, to): the last step
    before: tuple[int, int, str] | None = None  # a page's end: only payouts older (order())

    def matches(self, payout: Payout) -> bool:
        """Whether a payout answers the search (as the archive's query does)."""
        return (
            self._names_match(payout) and self._people_match(payout) and self._times_match(payout)
        )

    def _names_match(self, payout: Payout) -> bool:
        """The payout, table, pool and status asked for (each not given: any)."""
        named = ((self.payout, payout.id), (self.table, payout.table), (self.pool, payout.pool))
        if any(wanted is not None and found != wanted for wanted, found in named):
            return False
        return not self.statuses or payout.status in self.statuses

    def _people_match(self, payout: Payout) -> bool:
        return self.people is None or bool(self.people & people(payout))

    def _times_match(self, payout: Payout) -> bool:
        """Older than the page's end, won and last moved within the spans asked for."""
        if self.before is not None and not order(payout) < self.before:
            return False
        return _within(int(payout.created), self.created) and _within(
            changed_at(payout), self.changed
        )


def _within(at: int, span: tuple[int | None, int | None]) -> bool:
    low, high = span
    return (low is None or at >= low) and (high is None or at < high)


# GET /v1/payouts/history's criteria (docs/API.md); `limit` is the page's size
HISTORY_PARAMETERS = (
    "payout",
    "table",
    "pool",
    "person",
    "status",
    "from",
    "to",
    "changed_from",
    "changed_to",
    "before",
    "limit",
)
CURSOR = re.compile(r"([0-9]{1,15})\.([0-9]{1,15})\.(.+)")
T = TypeVar("T")


def history_query(
    given: Mapping[str, str], days: GamingDays, holders: Callable[[], dict[str, str]]
) -> PayoutQuery:
    """A search from the request's criteria (each given one, stripped and not empty): the
    gaming days `from`..`to` (inclusive) the payouts were won in, the instants
    `changed_from`..`changed_to` (excluded) their last step falls in (a shift), statuses
    separated by commas; `holders` is called only for a search by person."""
    statuses = _wanted_statuses(given)
    first, last = _won_days(given)
    changed = _changed_span(given)
    person = _wanted_person(given)
    return PayoutQuery(
        payout=_parsed(given, "payout", parse_payout_id),
        table=_parsed(given, "table", lambda raw: parse_identifier(raw, "table")),
        pool=_parsed(given, "pool", lambda raw: parse_identifier(raw, "pool")),
        people=None if person is None else wanted_people(person, holders()),
        statuses=statuses,
        created=(_day_start(days, first), _day_start(days, last, after=True)),
        changed=changed,
        before=_parsed(given, "before", parse_cursor),
    )


def _parsed(given: Mapping[str, str], name: str, parse: Callable[[str], T]) -> T | None:
    return parse(given[name]) if name in given else None


def _wanted_statuses(given: Mapping[str, str]) -> frozenset[str]:
    listed = [s.strip() for s in given["status"].split(",")] if "status" in given else []
    if "" in listed:  # `status=paid,` is not `status=paid`, and `status=,` not any status
        raise ValidationError(
            "status", "lists an empty status: separate statuses by commas", "empty"
        )
    for status in listed:
        if status not in STATUSES:
            raise ValidationError("status", f"{status!r} is not one of {', '.join(STATUSES)}")
    return frozenset(listed)


def _won_days(given: Mapping[str, str]) -> tuple[date | None, date | None]:
    first = _parsed(given, "from", lambda raw: parse_day(raw, "from"))
    last = _parsed(given, "to", lambda raw: parse_day(raw, "to"))
    if first and last and last < first:
        raise ValidationError("to", "must not be before from", "out_of_range")
    return first, last


def _changed_span(given: Mapping[str, str]) -> tuple[int | None, int | None]:
    changed = (_instant(given, "changed_from"), _instant(given, "changed_to"))
    if None not in changed and changed[1] <= changed[0]:  # type: ignore[operator]
        raise ValidationError("changed_to", "must be after changed_from", "out_of_range")
    return changed


def _wanted_person(given: Mapping[str, str]) -> str | None:
    person = given.get("person")
    if person is not None and not person_of(person):
        raise ValidationError("person", "must name a person", "not_a_person")
    return person


def _day_start(days: GamingDays, day: date | None, after: bool = False) -> int | None:
    if day is None:
        return None
    start, end = days.bounds(day)
    return end if after else start


def _instant(given: Mapping[str, str], name: str) -> int | None:
    """A time as every field takes one (RFC 3339 with its offset, 1970 to 9998), as epoch ms."""
    raw = given.get(name)
    return None if raw is None else parse_timestamp(raw, name)


def cursor_text(at: tuple[int, int, str]) -> str:
    """A page's end as `before` takes it back."""
    return f"{at[0]}.{at[1]}.{at[2]}"


def parse_cursor(raw: str) -> tuple[int, int, str]:
    """A page's end as `next` gave it: its time, number and payout id, the id as the
    controller writes it (a cursor edited to another spelling would shift the page)."""
    found = CURSOR.fullmatch(raw)
    if found is None or not _written_id(found[3]):
        raise ValidationError("before", "must be a page's end as `next` gave it")
    return int(found[1]), int(found[2]), found[3]


def _written_id(text: str) -> bool:
    """Whether `text` is a payout id as the controller writes it (P000123, east:P000123)."""
    try:
        return parse_payout_id(text) == text
    except ValidationError:
        return False
