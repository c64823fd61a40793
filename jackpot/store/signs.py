"""Sign definitions as stored: one hash, each change one put_sign script call (journaled)."""

from __future__ import annotations

import json

from redis import Redis

from jackpot.domain.signs import Sign
from jackpot.errors import NotFoundError
from jackpot.store.keys import Keys
from jackpot.store.scripts import Scripts


class SignStore:
    def __init__(self, client: Redis, keys: Keys, scripts: Scripts) -> None:
        self._r = client
        self._k = keys
        self._s = scripts

    def get(self, sign: str) -> Sign:
        raw = self._r.hget(self._k.signs, sign)
        if raw is None:
            raise NotFoundError("sign", sign)
        return Sign.from_stored(sign, json.loads(raw))

    def all(self) -> list[Sign]:
        stored = self._r.hgetall(self._k.signs)
        return [Sign.from_stored(s, json.loads(raw)) for s, raw in sorted(stored.items())]

    def put(self, sign: Sign, who: str) -> str:
        """'created', 'updated' or 'unchanged'."""
        body = json.dumps(sign.to_json(), sort_keys=True, separators=(",", ":"))
        return self._write(sign.sign, body, who)

    def delete(self, sign: str, who: str) -> None:
        if self._write(sign, "", who) == "missing":
            raise NotFoundError("sign", sign)

    def _write(self, sign: str, body: str, who: str) -> str:
        k = self._k
        result = self._s.put_sign(
            keys=[k.signs, k.counters, k.journal, k.activity], args=[sign, body, who]
        )
        return str(result[0])
