"""The register of people (jackpot.domain.people), with the main link group's keys: each
change is one person_event.lua call, journaled in the house journal in the same step."""

from __future__ import annotations

import json
from typing import Any

from redis import Redis

from jackpot.domain.people import Person
from jackpot.store.keys import Keys
from jackpot.store.scripts import Scripts

MAX_STALE_RETRIES = 5


class PeopleStore:
    def __init__(self, client: Redis, keys: Keys, scripts: Scripts) -> None:
        self._r = client
        self._k = keys
        self._s = scripts

    def get(self, person_id: str) -> Person | None:
        raw = self._r.hget(self._k.people, person_id)
        return None if raw is None else _person(json.loads(raw))

    def many(self, ids: list[str]) -> dict[str, Person]:
        """The people of `ids` that are in the register, by id."""
        if not ids:
            return {}
        found = self._r.hmget(self._k.people, ids)
        return {i: _person(json.loads(raw)) for i, raw in zip(ids, found, strict=True) if raw}

    def everyone(self) -> list[Person]:
        """Everyone in the register, by id."""
        raw = self._r.hgetall(self._k.people)
        return sorted((_person(json.loads(v)) for v in raw.values()), key=lambda p: p.id)

    def event(self, step: str, person_id: str, who: str, reason: str, *args: str) -> list[Any]:
        """One person_event.lua step: its answer as the script gives it."""
        k = self._k
        return list(
            self._s.person_event(
                keys=[k.people, k.counters, k.journal, k.activity],
                args=[step, person_id, who, reason, *args],
            )
        )

    def deactivate(self, person_id: str, who: str, reason: str) -> list[Any]:
        """Deactivate a person and revoke every key issued to them, in one step."""
        k = self._k
        for _ in range(MAX_STALE_RETRIES):
            person = self.get(person_id)
            held = list(person.keys) if person is not None else []
            digests = self._r.hmget(k.api_key_ids, held) if held else []
            keys = [k.people, k.counters, k.journal]
            keys += [k.api_key(str(d)) for d in digests]
            answer = list(
                self._s.person_event(
                    keys=[*keys, k.activity],
                    args=["deactivate", person_id, who, reason, json.dumps(held)],
                )
            )
            if answer[0] != "stale":
                return answer
        return ["stale"]


def _person(data: dict[str, Any]) -> Person:
    held = data.get("keys")
    return Person(
        id=data["id"],
        name=data["name"],
        position=data.get("position", ""),
        active=bool(data.get("active")),
        created=int(data.get("created", 0)),
        changed=int(data.get("changed", 0)),
        keys=tuple(held) if isinstance(held, list) else (),
    )


def person_from_json(raw: str) -> Person:
    """A person as person_event.lua answers it."""
    return _person(json.loads(raw))
