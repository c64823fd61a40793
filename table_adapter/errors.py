"""Errors of the table side, as one tree.

TableAdapterError
├── BetError(field)          a bet the profile or the table does not accept
├── VoidRoundError           a second face-up card: all hands void, reshuffle
├── ShoeExhaustedError       the shoe ran out mid-round (a marker set too deep)
└── JournalError             the local journal cannot be written: no round is dealt (link/journal/)
    └── JournalConflictError a round id journaled twice with different bodies

AnswerFormatError (answers.py, a ValueError) is not a table error: it marks a controller
answer the adapter cannot parse, which is retried, never taken as an acknowledgement.
"""

from __future__ import annotations


class TableAdapterError(Exception):
    """Root of every error the table adapter raises on purpose."""


class BetError(TableAdapterError, ValueError):
    """A bet the table refuses; `field` names the wager or option at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


class VoidRoundError(TableAdapterError):
    """More than one card found face up in one shoe (Wisconsin §37(j)(1), 205 CMR §10(b))."""


class ShoeExhaustedError(TableAdapterError):
    """No card left to draw: the reshuffle marker left too few cards for a round."""
