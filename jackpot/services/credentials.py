"""API keys: created and revoked by the CLI, checked on every request."""

from __future__ import annotations

import time

from jackpot.conflicts import PersonError
from jackpot.domain.auth import PEOPLES_ROLES, ApiKey, Role, digest, new_secret
from jackpot.domain.people import parse_person_id
from jackpot.errors import NotFoundError, UnauthenticatedError, ValidationError
from jackpot.store.apikeys import KeyStore

MAX_CACHED_KEYS = 10_000


class Credentials:
    def __init__(self, store: KeyStore, cache_seconds: float) -> None:
        self._store = store
        self._cache_seconds = cache_seconds
        self._cache: dict[str, tuple[float, ApiKey]] = {}

    def create(
        self, role: Role, tables: frozenset[str], label: str = "", person: str = ""
    ) -> tuple[str, ApiKey]:
        """A new key of `role`: the secret (shown once) and its record. An operator's or
        auditor's key is issued to `person`, an active person of the register (D232); a
        device's key (table, display) to nobody."""
        if role is Role.TABLE and not tables:
            raise ValidationError("table", "a table key names at least one table")
        if role is not Role.TABLE and tables:
            raise ValidationError("table", "only table keys are limited to tables")
        if role in PEOPLES_ROLES:
            person = parse_person_id(person, "person")
        elif person:
            raise ValidationError(
                "person", f"a {role.value} key belongs to a device, not a person", "invalid"
            )
        secret = new_secret()
        made = self._store.create(secret, role, tables, label, person)
        if isinstance(made, str):
            if made == "no_person":
                raise NotFoundError("person", person, "person")
            raise PersonError(
                "person_inactive", f"person {person} is not active: no key is issued", "person"
            )
        return secret, made

    def assign(self, key_id: str, person: str) -> None:
        """Give an existing operator's or auditor's key, issued to nobody, to a person."""
        answer = self._store.assign(key_id, person)
        verdict = answer[0]
        if verdict in ("assigned", "unchanged"):
            self.forget_all()
            return
        if verdict == "missing":
            raise NotFoundError("key", key_id, "key")
        if verdict == "no_person":
            raise NotFoundError("person", person, "person")
        if verdict == "inactive":
            raise PersonError("person_inactive", f"person {person} is not active", "person")
        raise PersonError("key_assigned", f"key {key_id} is issued to {answer[1]} already", "key")

    def mirror(self, key_ids: list[str]) -> None:
        """Keys changed by another step (a person's, revoked as they were deactivated):
        copied to every link group, and forgotten by this worker."""
        self._store.mirror_ids(key_ids)
        self.forget_all()

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

    def recheck(self, secret: str) -> None:
        """401 if the key behind `secret` is revoked now (looked up, whatever is cached): a
        round report's answer that its script did not give (a replay found outside it, a
        400, a conflict) goes only to a key that is still valid."""
        key_digest = digest(secret)
        if self._store.lookup(key_digest) is None:
            self._cache.pop(key_digest, None)
            raise UnauthenticatedError("unknown or revoked API key")

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
