"""Every error the controller raises, as one tree (pure: imports nothing of the framework).

JackpotError
├── ValidationError(field, message, code)               400  bad input, names the field
│   └── ShoeOverdrawnError(card, before, decks, field)       more of a card than its shoe holds
├── AuthError
│   ├── UnauthenticatedError                            401  missing or unknown API key
│   └── ForbiddenError                                  403  right key, wrong role or table
├── NotFoundError(kind, ident, field)                   404  no such pool, table, round, ...
├── ConflictError                                       409  clashes with stored state (its kinds:
│                                                            jackpot/conflicts.py)
├── RoundExpiredError(table, round_id)                  422  dealt before the retention window
├── StoreUnavailableError                               503  the store did not answer
│   ├── ClusterUnavailableError                              the cluster cannot serve the slot
│   └── ReplicationTimeoutError                              no replica confirmed the write
└── ControllerInoperableError(problems)                 503  the self-check failed
"""

from __future__ import annotations


class JackpotError(Exception):
    """Root of every error the controller raises on purpose."""

    status = 500
    code = "internal"
    field: str | None = None
    retry_after = 1  # seconds, on a 503: when the client should try again

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


class ShoeOverdrawnError(ValidationError):
    """A report whose cards, with those its shoe's earlier reports showed, are more copies
    of a card than the shoe holds (settle_round.lua's shoe audit); the service sets `field`,
    the report's field that shows it."""

    def __init__(self, card: str, before: int, decks: int, field: str | None = None) -> None:
        super().__init__(
            field,
            f"{card}: the shoe's earlier rounds showed it {before} times; a {decks}-deck shoe "
            f"holds {decks}",
            "impossible_cards",
        )
        self.card = card
        self.before = before
        self.decks = decks


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


class RoundExpiredError(JackpotError):
    """A report of a round dealt before the retention window that the controller never
    settled: too late to settle without an operator (the table adapter quarantines it)."""

    status = 422
    code = "round_expired"

    def __init__(self, table: str, round_id: str, retention_seconds: int) -> None:
        super().__init__(
            f"round {round_id!r} of table {table!r} was dealt more than {retention_seconds} s "
            "ago and was never settled: it is refused, not settled late; an operator must "
            "look at it"
        )
        self.field = "dealt_at"


class StoreUnavailableError(JackpotError):
    status = 503
    code = "store_unavailable"


class ClusterUnavailableError(StoreUnavailableError):
    """The Redis Cluster cannot serve the slot of the keys asked for now: CLUSTERDOWN (a
    master lost and not yet replaced), the slot moving, or its master not answering while
    the cluster fails over. Nothing was run; the table resends."""

    code = "cluster_unavailable"


class ReplicationTimeoutError(StoreUnavailableError):
    """The round was written but no replica confirmed it within the wait: the controller does
    not acknowledge what a failover could lose. The table resends; the resend is answered as
    the replay of what was written, once a replica has it (or settles it, if it was lost)."""

    code = "replication_timeout"


class ControllerInoperableError(JackpotError):
    """The self-check found the software, the store or the meters not as they must be: the
    controller settles nothing until the cause is fixed (New York 5321.18(b)(2))."""

    status = 503
    code = "controller_inoperable"
    retry_after = 10

    def __init__(self, problems: list[str]) -> None:
        super().__init__(
            "the controller is inoperable and settles nothing until the cause is fixed: "
            + "; ".join(problems)
            + ". Resend later: the report is kept by the table and settled once it operates."
        )
        self.problems = problems


class ArchiveUnavailableError(Exception):
    """The archive database did not answer or refused a write; nothing was committed (the
    API answers 503 archive_unavailable; declared here, with the other errors, so that the
    layers above the services need not import the archive to name it)."""
