"""The floor's last notable wins, from the controller's answers, for the views to show."""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass

from table_adapter.link.answers import BetAnswer, RoundAnswer

# A plain tie (5 to 1) comes every 19 bets or so: it is counted, not listed.
QUIET_OUTCOMES = frozenset({"tie"})


@dataclass(frozen=True, slots=True)
class Win:
    """One winning bet worth showing, with its table and when the floor received it."""

    seq: int  # the order the floor received it in
    at: float  # wall-clock seconds
    table: str
    bet: BetAnswer


def notable(bet: BetAnswer) -> bool:
    """A win worth a line: anything but a plain tie, and every meter or envy pay."""
    return bet.won > 0 and (bet.outcome not in QUIET_OUTCOMES or bet.jackpot > 0 or bet.envy > 0)


class WinFeed:
    """The last `keep` notable wins, newest first; thread-safe (answers come on many threads)."""

    def __init__(self, keep: int = 50) -> None:
        self._wins: deque[Win] = deque(maxlen=keep)
        self._seq = 0
        self._lock = threading.Lock()

    def answered(self, answer: RoundAnswer, at: float | None = None) -> None:
        """Record the notable wins of an answer."""
        when = time.time() if at is None else at
        with self._lock:
            for bet in answer.bets:
                if notable(bet):
                    self._seq += 1
                    self._wins.appendleft(Win(self._seq, when, answer.table, bet))

    def last(self, n: int | None = None) -> list[Win]:
        """The newest `n` wins (all kept if None), newest first."""
        with self._lock:
            wins = list(self._wins)
        return wins if n is None else wins[:n]

    def since(self, seq: int) -> list[Win]:
        """The kept wins received after `seq`, oldest first."""
        return [w for w in reversed(self.last()) if w.seq > seq]
