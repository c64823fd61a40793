"""API keys: created and revoked by the CLI, checked on every request."""

from __future__ import annotations

import time

from jackpot.domain.auth import PEOPLES_ROLES, ApiKey, Role, digest, new_secret
from jackpot.domain.people import person_of
from jackpot.errors import LabelCollisionError, UnauthenticatedError, ValidationError
from jackpot.store.apikeys import KeyStore

MAX_CACHED_KEYS = 10_000


class Credentials:
    def __init__(self, store: KeyStore, cache_seconds: float) -> None:
        self._store = store
        self._cache_seconds = cache_seconds
        self._cache: dict[str, tuple[float, ApiKey]] = {}

    def create(self, role: Role, tables: frozenset[str], label: str = "") -> tuple[str, ApiKey]:
        """A new key of `role`: the secret (shown once) and its record."""
        if role is Role.TABLE and not tables:
            raise ValidationError("table", "a table key names at least one table")
        if role is not Role.TABLE and tables:
            raise ValidationError("table", "only table keys are limited to tables")
        if role in PEOPLES_ROLES:
            self._check_person(label)
        secret = new_secret()
        return secret, self._store.create(secret, role, tables, label)

    def _check_person(self, label: str) -> None:
        """An operator's or auditor's key names the person who holds it. A label that reads
        as another key's person (equal once normalised: jackpot.domain.people) but is written
        otherwise ("Dana " for "Dana", "Dana\u200b", "Ｄａｎａ") is refused: a second key of
        the same person carries the same label, exactly, and nobody else may pass for them."""
        person = person_of(label)
        if not person:
            raise ValidationError(
                "label", "an operator's or auditor's key names the person who holds it", "missing"
            )
        for key, revoked in self._store.list():
            if revoked or key.role not in PEOPLES_ROLES:
                continue
            if person_of(key.label) == person and key.label != label:
                raise LabelCollisionError(label, key.key_id, key.label)

    def list(self) -> list[tuple[ApiKey, bool]]:
        """Every key, oldest first, with whether it is revoked."""
        return self._store.list()

    def revoke(self, key_id: str) -> bool:
        return self._store.revoke(key_id)

    def authenticate(self, secret: str | None, rechecked_by_store: bool = False) -> ApiKey:
        """The key behind a bearer secret, cached for the cache time; with
        `rechecked_by_store` (round reports: the script refuses a revoked key) a cached key
        is used without a refresh."""
        if not secret:
            raise UnauthenticatedError("an API key is required: Authorization: Bearer <key>")
        key_digest = digest(secret)
        cached = self._cache.get(key_digest)
        now = time.monotonic()
        fresh = cached is not None and (
            rechecked_by_store or now - cached[0] <= self._cache_seconds
        )
        if cached is None or not fresh:
            key = self._store.lookup(key_digest)
            if key is None:
                # misses are never cached: unknown tokens must not grow a worker's memory
                self._cache.pop(key_digest, None)
                raise UnauthenticatedError("unknown or revoked API key")
            if len(self._cache) >= MAX_CACHED_KEYS:
                self._cache.clear()
            cached = (now, key)
            self._cache[key_digest] = cached
        return cached[1]

    def forget(self, key_digest: str) -> None:
        """Drop a key the store refused as revoked from this worker's cache."""
        self._cache.pop(key_digest, None)

    def forget_all(self) -> None:
        """Drop every cached key: the next use of each looks it up again."""
        self._cache.clear()

    @property
    def cached(self) -> int:
        """How many keys this worker remembers."""
        return len(self._cache)
