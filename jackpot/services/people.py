"""The register of people: who may act on money, by the id the casino uses for them.

Registering, renaming, deactivating and reactivating are the controller's administrator's
steps, on the controller's own machine (`jackpot people`, as keys are made: D110, D232), each
journaled in the house journal. Operators and auditors read the register (`GET /v1/people`) to
pick a payer and a witness. A name is printable text (jackpot.domain.names) and never
confusable with an active person's unless the step says, with a reason, that this is a
different person; the script that writes the register checks it again.
"""

from __future__ import annotations

import json
from dataclasses import replace

from jackpot.conflicts import PersonError
from jackpot.domain.auth import ApiKey
from jackpot.domain.fields import MAX_REASON
from jackpot.domain.names import check_display_name, skeletons
from jackpot.domain.people import Person, parse_person_id
from jackpot.errors import NotFoundError, ValidationError
from jackpot.services.credentials import Credentials
from jackpot.store.people import PeopleStore, person_from_json

MAX_POSITION = 60
ADMINISTRATOR = "cli"  # who the journal names for the register's steps on this machine


class People:
    def __init__(self, store: PeopleStore, credentials: Credentials) -> None:
        self._store = store
        self._credentials = credentials

    def get(self, person_id: str) -> Person | None:
        return self._store.get(person_id)

    def everyone(self, active_only: bool = False) -> list[Person]:
        return [p for p in self._store.everyone() if p.active or not active_only]

    def many(self, ids: list[str]) -> dict[str, Person]:
        return self._store.many(ids)

    def search(self, text: str, active_only: bool = True, limit: int = 20) -> list[Person]:
        """People whose id or name holds `text` (case folded), ids that start with it first."""
        wanted = text.strip().casefold()
        found = []
        for person in self.everyone(active_only):
            ident, name = person.id.casefold(), person.name.casefold()
            if ident.startswith(wanted):
                found.append((0, person))
            elif wanted in name or wanted in ident:
                found.append((1, person))
        found.sort(key=lambda pair: (pair[0], pair[1].name.casefold(), pair[1].id))
        return [p for _, p in found[:limit]]

    def keys_held(self) -> list[tuple[ApiKey, bool]]:
        """Every key with whether it is revoked, labelled with the person who holds it as
        shown (name and number): what the activity and the payout history name a key by. A
        device's key (a table's, a sign's) is held by nobody: its label, free text, is never
        shown as a person (a table key labelled "Lee Park (E2207)" is not Lee Park)."""
        keys = self._credentials.list()
        people = self.many(sorted({k.person for k, _ in keys if k.person}))
        return [
            (replace(k, label=people[k.person].shown if k.person in people else ""), revoked)
            for k, revoked in keys
        ]

    def active(self, raw: object, field: str) -> Person:
        """The active person a request names by id in `field` (400, 404 or 409 naming it)."""
        person_id = parse_person_id(raw, field)
        person = self._store.get(person_id)
        if person is None:
            raise NotFoundError("person", person_id, field)
        if not person.active:
            raise PersonError(
                "person_inactive", f"{person.shown} is not active in the register", field
            )
        return person

    def register(
        self,
        raw_id: str,
        name: str,
        position: str = "",
        reason: str = "",
        different: bool = False,
        who: str = ADMINISTRATOR,
    ) -> Person:
        person_id = parse_person_id(raw_id, "id")
        name = check_display_name(name, "name")
        position = _position(position)
        _reason_for(different, reason)
        answer = self._store.event(
            "register", person_id, who, reason, name, _skeletons(name), position, _flag(different)
        )
        if answer[0] == "exists":
            had = person_from_json(str(answer[1]))
            if (had.name, had.position) == (name, position):
                return had  # registered again as it is: nothing changes
        return self._answered(answer, person_id, "id")

    def change(
        self,
        raw_id: str,
        name: str | None = None,
        position: str | None = None,
        reason: str = "",
        different: bool = False,
        who: str = ADMINISTRATOR,
    ) -> Person:
        person_id = parse_person_id(raw_id, "id")
        current = self._store.get(person_id)
        if current is None:
            raise NotFoundError("person", person_id, "id")
        new_name = current.name if name is None else check_display_name(name, "name")
        new_position = current.position if position is None else _position(position)
        _reason_for(different, reason)
        answer = self._store.event(
            "change",
            person_id,
            who,
            reason,
            new_name,
            _skeletons(new_name),
            new_position,
            _flag(different),
        )
        return self._answered(answer, person_id, "name")

    def deactivate(self, raw_id: str, reason: str, who: str = ADMINISTRATOR) -> Person:
        """Deactivate a person: every key issued to them is revoked in the same step, and
        no worker answers one again (keys are looked up on every request: D232)."""
        person_id = parse_person_id(raw_id, "id")
        if not reason.strip():
            raise ValidationError("reason", "say why the person is deactivated", "missing")
        answer = self._store.deactivate(person_id, who, reason)
        person = self._answered(answer, person_id, "id")
        self._credentials.mirror(list(person.keys))
        return person

    def reactivate(
        self, raw_id: str, reason: str, different: bool = False, who: str = ADMINISTRATOR
    ) -> Person:
        """Active again; the keys revoked when they were deactivated stay revoked."""
        person_id = parse_person_id(raw_id, "id")
        if not reason.strip():
            raise ValidationError("reason", "say why the person is active again", "missing")
        answer = self._store.event(
            "reactivate", person_id, who, reason, "", "", "", _flag(different)
        )
        return self._answered(answer, person_id, "id")

    def _answered(self, answer: list[object], person_id: str, field: str) -> Person:
        verdict = str(answer[0])
        if verdict in ("done", "unchanged"):
            return person_from_json(str(answer[1]))
        if verdict == "exists":
            had = person_from_json(str(answer[1]))
            raise PersonError("person_exists", f"{had.shown} is in the register already", "id")
        if verdict == "missing":
            raise NotFoundError("person", person_id, "id")
        if verdict == "confusable":
            other = f"{answer[2]} ({answer[1]})"
            raise PersonError(
                "person_confusable",
                f"the name reads as {other}'s, an active person: if this is another person, "
                "say so (--different-person) with a reason",
                "name",
            )
        if verdict == "stale":
            raise PersonError("person_changed", "the person's keys kept changing; try again", field)
        raise RuntimeError(f"person_event answered {answer!r}")


def _skeletons(name: str) -> str:
    """The name's TR39 skeletons as the register's script compares them (JSON)."""
    return json.dumps(sorted(skeletons(name)))


def _flag(yes: bool) -> str:
    return "1" if yes else ""


def _position(position: str) -> str:
    if not position:
        return ""
    if len(position) > MAX_POSITION:
        raise ValidationError("position", f"is longer than {MAX_POSITION} characters", "too_long")
    return check_display_name(position, "position")


def _reason_for(different: bool, reason: str) -> None:
    if different and not reason.strip():
        raise ValidationError(
            "reason", "a name confusable with another person's needs a reason", "missing"
        )
    if len(reason) > MAX_REASON:
        raise ValidationError("reason", f"is longer than {MAX_REASON} characters", "too_long")
