"""`jackpot people`: the register of people who may act on money (D232).

Run on the controller's machine, on the store directly, as `jackpot keys` is: the register is
the administrator's, not the floor's (D110). Each step is journaled in the house journal.
"""

from __future__ import annotations

import argparse
import csv
import sys
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from jackpot.bootstrap import Services
from jackpot.cli.runtime import services
from jackpot.domain.auth import PEOPLES_ROLES, ApiKey
from jackpot.domain.names import check_display_name, confusable
from jackpot.domain.people import Person, parse_person_id
from jackpot.errors import JackpotError
from jackpot.services.people import People
from jackpot.settings import Settings


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "people",
        help="the register of people who act on money: add, change, deactivate, list, migrate",
        description="The register of people (supervisors, cashiers, security officers who "
        "witness, auditors), by the employee or badge number the casino uses. Keys are issued "
        "to them (jackpot keys create --person ID); every two-person rule compares these ids.",
    )
    people = p.add_subparsers(dest="people_command", required=True)
    _add_steps(people)
    listing = people.add_parser("list", help="the register, by id")
    listing.add_argument("--all", action="store_true", help="inactive people too")
    listing.add_argument("--search", metavar="TEXT", help="ids and names holding TEXT")
    listing.set_defaults(func=list_people)
    _add_migrate(people)


def _add_steps(people: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The register's steps on one person: add, change, deactivate, reactivate."""
    add = people.add_parser("add", help="register a person")
    add.add_argument("id", help="the employee or badge number")
    add.add_argument("--name", required=True, help="the name shown beside the number")
    add.add_argument("--position", default="", help="what they do: shown only")
    _different(add)
    add.set_defaults(func=add_person)

    change = people.add_parser("change", help="change a person's name or position")
    change.add_argument("id")
    change.add_argument("--name")
    change.add_argument("--position")
    _different(change)
    change.set_defaults(func=change_person)

    off = people.add_parser(
        "deactivate", help="deactivate a person: every key issued to them is revoked at once"
    )
    off.add_argument("id")
    off.add_argument("--reason", required=True)
    off.set_defaults(func=deactivate_person)

    on = people.add_parser(
        "reactivate", help="a person active again (their revoked keys stay revoked)"
    )
    on.add_argument("id")
    _different(on, reason_required=True)
    on.set_defaults(func=reactivate_person)


def _add_migrate(people: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    migrate = people.add_parser(
        "migrate",
        help="register people from a CSV and give each operator's and auditor's key made "
        "before the register to its person; refuses everything if one key cannot be mapped",
    )
    migrate.add_argument(
        "--from",
        dest="source",
        metavar="CSV",
        help="a CSV with the columns id,name[,position]: the people to register",
    )
    migrate.add_argument(
        "--assign",
        action="append",
        default=[],
        metavar="KEY=ID",
        help="give key KEY to person ID where its label does not say (repeatable)",
    )
    migrate.add_argument(
        "--dry-run", action="store_true", help="say what it would do and change nothing"
    )
    migrate.set_defaults(func=migrate_keys)


def _different(p: argparse.ArgumentParser, reason_required: bool = False) -> None:
    p.add_argument(
        "--different-person",
        action="store_true",
        help="the name is confusable with an active person's, and this is someone else "
        "(needs --reason)",
    )
    p.add_argument("--reason", default="", required=reason_required, help="for the journal")


def _fail(command: str, exc: JackpotError) -> int:
    field = f" ({exc.field})" if exc.field else ""
    print(f"jackpot people {command}: {exc.message}{field}", file=sys.stderr)
    return 2


def _step(command: str, act: Callable[[People], Person], said: Callable[[Person], str]) -> int:
    """One step of the register on the store: what it did, or why not (exit 2)."""
    with services(Settings.from_env()) as svc:
        try:
            person = act(svc.people)
        except JackpotError as exc:
            return _fail(command, exc)
    print(said(person))
    return 0


def add_person(args: argparse.Namespace) -> int:
    return _step(
        "add",
        lambda people: people.register(
            args.id, args.name, args.position, args.reason, args.different_person
        ),
        lambda person: f"registered {person.shown}",
    )


def change_person(args: argparse.Namespace) -> int:
    return _step(
        "change",
        lambda people: people.change(
            args.id, args.name, args.position, args.reason, args.different_person
        ),
        lambda person: f"now {person.shown}" + (f", {person.position}" if person.position else ""),
    )


def deactivate_person(args: argparse.Namespace) -> int:
    return _step(
        "deactivate",
        lambda people: people.deactivate(args.id, args.reason),
        lambda person: (
            f"deactivated {person.shown}"
            + (f"; keys revoked: {', '.join(person.keys)}" if person.keys else "; no keys")
        ),
    )


def reactivate_person(args: argparse.Namespace) -> int:
    return _step(
        "reactivate",
        lambda people: people.reactivate(args.id, args.reason, args.different_person),
        lambda person: (
            f"{person.shown} is active again; issue new keys with jackpot keys create --person"
        ),
    )


def list_people(args: argparse.Namespace) -> int:
    with services(Settings.from_env()) as svc:
        found = (
            svc.people.search(args.search, not args.all, limit=1000)
            if args.search
            else svc.people.everyone(not args.all)
        )
    for p in found:
        state = "active" if p.active else "inactive"
        keys = ",".join(p.keys) or "-"
        print(f"{p.id:<12} {state:<8} {p.name}  [{p.position or '-'}]  keys: {keys}")
    return 0


def _as_typed(name: str) -> str:
    """A name as its words read, whatever the case and spacing ("lee  PARK" is "Lee Park")."""
    return " ".join(unicodedata.normalize("NFC", name).split()).casefold()


@dataclass(frozen=True)
class _Row:
    id: str
    name: str
    position: str


def _read_rows(path: str) -> tuple[list[_Row], list[str]]:
    rows, problems = [], []
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames is None or not {"id", "name"} <= set(reader.fieldnames):
            return [], [f"{path}: the first line names the columns id,name[,position]"]
        for n, row in enumerate(reader, start=2):
            try:
                ident = parse_person_id(row.get("id") or "", "id")
            except JackpotError as exc:
                problems.append(f"{path} line {n}: {exc.message}")
                continue
            rows.append(_Row(ident, row.get("name") or "", row.get("position") or ""))
    return rows, problems


def migrate_keys(args: argparse.Namespace) -> int:
    """Register the CSV's people, then give every operator's and auditor's key issued to
    nobody to the one person its label names (or --assign says). Everything is checked
    first; one key that maps to nobody, or to more than one person, and nothing changes."""
    rows, problems = _read_rows(args.source) if args.source else ([], [])
    assigned = _assignments(args.assign, problems)
    with services(Settings.from_env()) as svc:
        known = {p.id: p for p in svc.people.everyone()}
        new = _unregistered(rows, known, problems)
        _check_new_names(new, known, problems)
        plan = _key_plan(svc.credentials.list(), _candidates(known, new), assigned, problems)
        if problems:
            return _refuse(problems)
        _say_plan(new, plan)
        if args.dry_run:
            print("(dry run: nothing changed)")
            return 0
        try:
            _carry_out(svc, new, plan, f"jackpot people migrate --from {args.source}")
        except JackpotError as exc:
            return _fail("migrate", exc)
    print(f"registered {len(new)} people; gave {len(plan)} keys to their people")
    return 0


def _refuse(problems: list[str]) -> int:
    print("jackpot people migrate: nothing changed:", file=sys.stderr)
    for problem in problems:
        print(f"  {problem}", file=sys.stderr)
    return 2


def _say_plan(new: list[_Row], plan: list[tuple[str, str, str]]) -> None:
    for row in new:
        print(f"register {row.id}: {row.name}")
    for key_id, label, person in plan:
        print(f"key {key_id} ({label!r}) -> {person}")


def _assignments(pairs: list[str], problems: list[str]) -> dict[str, str]:
    """--assign's KEY=ID pairs: each key id and the person it goes to."""
    assigned: dict[str, str] = {}
    for pair in pairs:
        key_id, _, person = pair.partition("=")
        if not key_id or not person:
            problems.append(f"--assign {pair!r}: write KEY=ID")
            continue
        try:
            assigned[key_id] = parse_person_id(person, "assign")
        except JackpotError as exc:
            problems.append(f"--assign {pair!r}: {exc.message}")
    return assigned


def _unregistered(rows: list[_Row], known: dict[str, Person], problems: list[str]) -> list[_Row]:
    """The file's people not yet in the register; one registered under another name is a
    problem, not a change."""
    new: list[_Row] = []
    for row in rows:
        had = known.get(row.id)
        if had is None:
            new.append(row)
        elif had.name != row.name:
            problems.append(f"{row.id} is registered as {had.name!r}, the file says {row.name!r}")
    return new


def _check_new_names(new: list[_Row], known: dict[str, Person], problems: list[str]) -> None:
    """The new names: printable, and confusable with nobody active (checked again as each
    is registered; checked here so that nothing is half done)."""
    seen = [(p.name, p.id) for p in known.values() if p.active]
    for row in new:
        try:
            check_display_name(row.name, "name")
        except JackpotError as exc:
            problems.append(f"{row.id}: {exc.message}")
            continue
        other = next((i for name, i in seen if confusable(name, row.name)), None)
        if other is not None:
            problems.append(
                f"{row.id}: the name {row.name!r} is confusable with {other}'s: register "
                "one of them with jackpot people add --different-person --reason"
            )
        seen.append((row.name, row.id))


def _candidates(known: dict[str, Person], new: list[_Row]) -> list[tuple[str, str]]:
    """Who a label may name: every active person, registered or about to be (id, name)."""
    return [(p.id, p.name) for p in known.values() if p.active] + [(r.id, r.name) for r in new]


def _key_plan(
    keys: list[tuple[ApiKey, bool]],
    candidates: list[tuple[str, str]],
    assigned: dict[str, str],
    problems: list[str],
) -> list[tuple[str, str, str]]:
    """Each active operator's and auditor's key issued to nobody, with its label and the
    person it goes to: the one --assign names, else the one its label names."""
    plan: list[tuple[str, str, str]] = []  # key id, label, person id
    assigned = dict(assigned)  # each one used is taken out: what is left names no such key
    for key, revoked in keys:
        if revoked or key.role not in PEOPLES_ROLES or key.person:
            continue
        if key.key_id in assigned:
            person: str | None = _assigned_person(
                key, assigned.pop(key.key_id), candidates, problems
            )
        else:
            person = _named_by_label(key, candidates, problems)
        if person is not None:
            plan.append((key.key_id, key.label, person))
    for key_id in assigned:
        problems.append(
            f"--assign {key_id}=...: no active operator's or auditor's key "
            "issued to nobody has that id"
        )
    return plan


def _assigned_person(
    key: ApiKey, target: str, candidates: list[tuple[str, str]], problems: list[str]
) -> str:
    if target not in {i for i, _ in candidates}:
        problems.append(
            f"--assign {key.key_id}={target}: {target} is not an active person of "
            "the register or the file"
        )
    return target


def _named_by_label(
    key: ApiKey, candidates: list[tuple[str, str]], problems: list[str]
) -> str | None:
    """The one person the key's label names, else None and the problem said."""
    # the label is the person's name as typed then: the same words, in any case and
    # spacing, name them; a name only confusable with it may be someone else
    wanted = _as_typed(key.label)
    named = sorted({i for i, name in candidates if wanted and _as_typed(name) == wanted})
    if len(named) == 1:
        return named[0]
    alike = sorted({i for i, name in candidates if wanted and confusable(name, key.label)})
    problems.append(_unnamed(key, named, alike))
    return None


def _unnamed(key: ApiKey, named: list[str], alike: list[str]) -> str:
    """Why the key's label names no one person: several, a look-alike, or nobody."""
    if named:
        return (
            f"key {key.key_id} (label {key.label!r}) could be any of "
            f"{', '.join(named)}: --assign {key.key_id}=ID"
        )
    if alike:
        return (
            f"key {key.key_id} (label {key.label!r}) looks like {', '.join(alike)}'s "
            f"name but is not it: if it is theirs, --assign {key.key_id}=ID"
        )
    return (
        f"key {key.key_id} ({key.role.value}, label {key.label!r}) names no person: "
        f"add them to the file, or --assign {key.key_id}=ID"
    )


def _carry_out(svc: Services, new: list[_Row], plan: list[tuple[str, str, str]], why: str) -> None:
    """Register the new people, then give each key to its person."""
    for row in new:
        svc.people.register(row.id, row.name, row.position, why)
    for key_id, _, person in plan:
        svc.credentials.assign(key_id, person)
