"""Progressive signs: their definitions, and what a sign shows of its pools."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jackpot.conflicts import PoolStateError
from jackpot.domain.meter import LinkState, PoolState
from jackpot.domain.signs import Sign
from jackpot.errors import NotFoundError
from jackpot.store.signs import SignStore


class Signs:
    def __init__(self, store: SignStore, pool: Callable[[str], PoolState]) -> None:
        self._store = store
        self._pool = pool  # a pool's state, read in its link group

    def get(self, sign: str) -> Sign:
        return self._store.get(sign)

    def all(self) -> list[Sign]:
        return self._store.all()

    def put(self, sign: str, body: Any, who: str) -> tuple[str, Sign]:
        """Create or change a sign ('created', 'updated', 'unchanged'); every level names a
        public pool that runs or is suspended (a retired one has left the floor)."""
        definition = Sign.from_json(sign, body)
        for i, pool in enumerate(definition.pools):
            field = f"levels[{i}].pool"
            try:
                state = self._pool(pool)
            except NotFoundError:
                raise NotFoundError("pool", pool, field) from None
            if state.link is LinkState.RETIRED:
                raise PoolStateError(pool, "retired", "a sign shows pools in play", field)
            if not state.public:
                raise PoolStateError(pool, "not public", "a sign shows public pools only", field)
        return self._store.put(definition, who), definition

    def delete(self, sign: str, who: str) -> None:
        self._store.delete(sign, who)
