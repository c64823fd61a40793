"""API keys, stored by their SHA-256 only; each creation and revocation is journaled."""

from __future__ import annotations

import json

from redis import Redis

from jackpot.domain.auth import ApiKey, Role, digest, key_id_of
from jackpot.store.keys import Keys
from jackpot.store.scripts import Scripts

# who the house journal names for keys made and revoked on the controller's own machine
LOCAL_OPERATOR = "cli"


class KeyStore:
    def __init__(self, client: Redis, keys: Keys, scripts: Scripts) -> None:
        self._r = client
        self._k = keys
        self._s = scripts

    def create(
        self, secret: str, role: Role, tables: frozenset[str], label: str, who: str = LOCAL_OPERATOR
    ) -> ApiKey:
        key_digest = digest(secret)
        key_id = key_id_of(key_digest)
        result = self._s.key_event(
            keys=self._event_keys(key_digest),
            args=["create", key_id, who, role.value, json.dumps(sorted(tables)), label],
        )
        return ApiKey(key_id, role, tables, int(result[1]), label)

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
        return bool(result[0] != "missing")

    def _event_keys(self, key_digest: str) -> list[str]:
        k = self._k
        return [k.api_key(key_digest), k.api_key_ids, k.counters, k.journal, k.activity]

    def list(self) -> list[tuple[ApiKey, bool]]:
        """Every key with whether it is revoked."""
        out = []
        for key_digest in self._r.hvals(self._k.api_key_ids):
            raw = self._r.hgetall(self._k.api_key(key_digest))
            if raw:
                out.append((_record(raw), "revoked" in raw))
        return sorted(out, key=lambda pair: pair[0].created)


def _record(raw: dict[str, str]) -> ApiKey:
    return ApiKey(
        key_id=raw["id"],
        role=Role(raw["role"]),
        tables=frozenset(json.loads(raw["tables"])),
        created=int(raw["created"]),
        label=raw.get("label", ""),
    )
