"""Every error the controller raises, as one tree (pure: imports nothing of the framework).

JackpotError
├── ValidationError(field, message, code)   400  bad input, names the field
├── AuthError
│   ├── UnauthenticatedError                401  missing or unknown API key
│   └── ForbiddenError                      403  right key, wrong role or table
├── NotFoundError(kind, id)                 404
├── ConflictError                           409  the request clashes with stored state
│   ├── RoundConflictError(table, round)         another report under the same round id
│   ├── TableDisabledError(table)                a disabled table reports a round
│   ├── LinkedTableError(table, pool)            linked tables must play the same game
│   ├── CapBelowValueError(value)                a cap under the current meter
│   ├── PayoutStateError(payout, status)         e.g. disputing a paid jackpot
│   └── AdjustmentError(adjustment, reason)      replayed id with another body, or no funds
└── StoreUnavailableError                   503  Redis does not answer; nothing was applied
"""

from __future__ import annotations


class JackpotError(Exception):
    """Root of every error the controller raises on purpose."""

    status = 500
    code = "internal"
    field: str | None = None

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ValidationError(JackpotError):
    """Bad input: names the field at fault (a path such as `spots[2].card`)."""

    status = 400

    def __init__(self, field: str | None, message: str, code: str = "invalid") -> None:
        super().__init__(message)
        self.field = field
        self.code = code


class AuthError(JackpotError):
    pass


class UnauthenticatedError(AuthError):
    status = 401
    code = "unauthenticated"


class ForbiddenError(AuthError):
    status = 403
    code = "forbidden"


class NotFoundError(JackpotError):
    status = 404

    def __init__(self, kind: str, ident: str, field: str | None = None) -> None:
        super().__init__(f"unknown {kind} {ident!r}")
        self.code = f"unknown_{kind}"
        self.kind = kind
        self.ident = ident
        self.field = field if field is not None else kind


class ConflictError(JackpotError):
    status = 409
    code = "conflict"


class RoundConflictError(ConflictError):
    code = "round_conflict"

    def __init__(self, table: str, round_id: str) -> None:
        super().__init__(
            f"round {round_id!r} of table {table!r} was already reported with another body"
        )
        self.field = "round"


class TableDisabledError(ConflictError):
    code = "table_disabled"

    def __init__(self, table: str) -> None:
        super().__init__(f"table {table!r} is disabled: its rounds are refused")
        self.field = "table"


class LinkedTableError(ConflictError):
    code = "linked_tables_differ"

    def __init__(self, table: str, other: str, pool: str) -> None:
        super().__init__(
            f"table {table!r} would not play the same game as {other!r} on pool {pool!r}: "
            "linked tables need the same deck count, paytable and layout family"
        )
        self.field = "pools"


class CapBelowValueError(ConflictError):
    code = "cap_below_value"

    def __init__(self, value: int) -> None:
        super().__init__(f"the cap can only be set at or above the current value ({value} cents)")
        self.field = "cap"


class PayoutStateError(ConflictError):
    code = "payout_state"

    def __init__(self, payout: str, status: str) -> None:
        super().__init__(f"payout {payout!r} is {status}")


class AdjustmentError(ConflictError):
    code = "adjustment_refused"

    def __init__(self, adjustment: str, reason: str, field: str | None = None) -> None:
        super().__init__(f"adjustment {adjustment!r}: {reason}")
        self.field = field


class MeterLimitError(ConflictError):
    code = "meter_limit"

    def __init__(self, pool: str) -> None:
        super().__init__(
            f"pool {pool!r} would pass $1,000,000,000, the bound of exact arithmetic: set a cap"
        )
        self.field = "table"


class StoreUnavailableError(JackpotError):
    status = 503
    code = "store_unavailable"
