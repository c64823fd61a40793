"""API keys, stored by their SHA-256 only."""

from __future__ import annotations

import json

from redis import Redis

from jackpot.domain.auth import ApiKey, Role, digest, key_id_of
from jackpot.store.keys import Keys


class KeyStore:
    def __init__(self, client: Redis, keys: Keys) -> None:
        self._r = client
        self._k = keys

    def create(
        self, secret: str, role: Role, tables: frozenset[str], now: int, label: str
    ) -> ApiKey:
        key_digest = digest(secret)
        record = ApiKey(key_id_of(key_digest), role, tables, now, label)
        pipe = self._r.pipeline(transaction=True)
        pipe.hset(
            self._k.api_key(key_digest),
            mapping={
                "id": record.key_id,
                "role": role.value,
                "tables": json.dumps(sorted(tables)),
                "created": now,
                "label": label,
            },
        )
        pipe.hset(self._k.api_key_ids, record.key_id, key_digest)
        pipe.execute()
        return record

    def lookup(self, key_digest: str) -> ApiKey | None:
        raw = self._r.hgetall(self._k.api_key(key_digest))
        if not raw or "revoked" in raw:
            return None
        return _record(raw)

    def revoke(self, key_id: str, now: int) -> bool:
        key_digest = self._r.hget(self._k.api_key_ids, key_id)
        if key_digest is None:
            return False
        self._r.hset(self._k.api_key(key_digest), "revoked", now)
        return True

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
