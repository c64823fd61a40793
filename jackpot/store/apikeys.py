"""API keys, stored by their SHA-256 only; each creation and revocation is journaled."""

from __future__ import annotations

import json
from collections.abc import Callable

from redis import Redis
from redis.client import Pipeline

from jackpot.domain.auth import ApiKey, Role, digest, key_id_of
from jackpot.store.keys import Keys
from jackpot.store.scripts import Scripts

# who the house journal names for keys made and revoked on the controller's own machine
LOCAL_OPERATOR = "cli"


# where a key's copy goes: each link group outside the main one (its client and keys)
Mirrors = Callable[[], list[tuple[Redis, Keys]]]


class KeyStore:
    """The keys live with the main link group's keys. The round script checks the reporting
    key in the round's own slot, so every other link group holds a copy of each key (role,
    tables, revoked), written after each creation and revocation before it is answered: once
    a revocation is acknowledged, no group settles a round with that key."""

    def __init__(
        self, client: Redis, keys: Keys, scripts: Scripts, mirrors: Mirrors | None = None
    ) -> None:
        self._r = client
        self._k = keys
        self._s = scripts
        self._mirrors = mirrors

    def create(
        self,
        secret: str,
        role: Role,
        tables: frozenset[str],
        label: str,
        person: str = "",
        who: str = LOCAL_OPERATOR,
    ) -> ApiKey | str:
        """The new key, or the script's refusal (`no_person`, `inactive`): a key is issued
        only to a person active in the register, checked where it is made."""
        key_digest = digest(secret)
        key_id = key_id_of(key_digest)
        result = self._s.key_event(
            keys=self._event_keys(key_digest),
            args=["create", key_id, who, role.value, json.dumps(sorted(tables)), label, person],
        )
        if result[0] != "created":
            return str(result[0])
        self._mirror(key_digest)
        return ApiKey(key_id, role, tables, int(result[1]), label, person)

    def assign(self, key_id: str, person: str, who: str = LOCAL_OPERATOR) -> list[str]:
        """Give an existing key, issued to nobody, to a person (key_event.lua's answer)."""
        key_digest = self._r.hget(self._k.api_key_ids, key_id)
        if key_digest is None:
            return ["missing"]
        result = self._s.key_event(
            keys=self._event_keys(key_digest), args=["assign", key_id, who, person]
        )
        self._mirror(key_digest)
        return [str(x) for x in result]

    def lookup(self, key_digest: str) -> ApiKey | None:
        raw = self._r.hgetall(self._k.api_key(key_digest))
        if not raw or "revoked" in raw:
            return None
        return _record(raw)

    def revoke(self, key_id: str, who: str = LOCAL_OPERATOR) -> bool:
        """False for an unknown key; revoking a revoked key again changes nothing."""
        key_digest = self._r.hget(self._k.api_key_ids, key_id)
        if key_digest is None:
            return False
        result = self._s.key_event(keys=self._event_keys(key_digest), args=["revoke", key_id, who])
        self._mirror(key_digest)  # again for a key revoked before: a copy a crash left behind
        return bool(result[0] != "missing")

    def copy_all(self, client: Redis, keys: Keys) -> int:
        """Copy every key to a link group (one just made, or one whose copies are doubted)."""
        digests = list(self._r.hvals(self._k.api_key_ids))
        with self._r.pipeline(transaction=False) as pipe:
            for key_digest in digests:
                pipe.hgetall(self._k.api_key(key_digest))
            records = pipe.execute()
        with client.pipeline(transaction=False) as pipe:
            for key_digest, raw in zip(digests, records, strict=True):
                _copy(raw, pipe, keys.api_key(key_digest))
            pipe.execute()
        return len(digests)

    def mirror_ids(self, key_ids: list[str]) -> None:
        """Copy keys changed elsewhere (a person's, revoked as they were deactivated) to
        every other link group."""
        for key_digest in self._r.hmget(self._k.api_key_ids, key_ids) if key_ids else []:
            if key_digest is not None:
                self._mirror(key_digest)

    def _mirror(self, key_digest: str) -> None:
        targets = self._mirrors() if self._mirrors is not None else []
        if targets:
            raw = self._r.hgetall(self._k.api_key(key_digest))
            for client, keys in targets:
                _copy(raw, client, keys.api_key(key_digest))

    def _event_keys(self, key_digest: str) -> list[str]:
        k = self._k
        return [k.api_key(key_digest), k.api_key_ids, k.counters, k.journal, k.people, k.activity]

    def list(self) -> list[tuple[ApiKey, bool]]:
        """Every key with whether it is revoked."""
        out = []
        for key_digest in self._r.hvals(self._k.api_key_ids):
            raw = self._r.hgetall(self._k.api_key(key_digest))
            if raw:
                out.append((_record(raw), "revoked" in raw))
        return sorted(out, key=lambda pair: pair[0].created)


def _copy(raw: dict[str, str], client: Redis | Pipeline, key: str) -> None:
    """Write a key's copy over the one there: fields are added or set, never removed, so a
    copy read before a revocation and written after it cannot take the revocation back (a
    key's other fields never change once it is made)."""
    if raw:
        client.hset(key, mapping=raw)


def _record(raw: dict[str, str]) -> ApiKey:
    return ApiKey(
        key_id=raw["id"],
        role=Role(raw["role"]),
        tables=frozenset(json.loads(raw["tables"])),
        created=int(raw["created"]),
        label=raw.get("label", ""),
        person=raw.get("person", ""),
    )
