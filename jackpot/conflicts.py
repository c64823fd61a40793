"""Every conflict the controller answers 409 with: a request that clashes with what is
stored (a payout in another status, a round voided, a gaming day not over, ...), each a
kind of jackpot.errors.ConflictError, whose tree this continues (pure: imports nothing of
the framework).

ConflictError (jackpot.errors): 409, a clash with what is stored
├── RoundConflictError(table, round_id)                  the round id has another body
├── TableDisabledError(table)                            a disabled table reports a round
├── ProgressiveClosedError(pool, state)                  side wagers for a closed link
├── PoolStateError(pool, state, wanted, field)           e.g. resuming a retired pool
├── PoolRunningError(pool)                               a running pool's parameters
├── PoolInUseError(pool, tables)                         retiring a pool tables feed
├── PoolNameTakenError(name, other, its_name)            a name another live pool has
├── LinkedTableError(table, other, pool, difference)     linked tables play one game
├── LinkGroupError(kind, ident, group, wanted, field)    another link group's pool/table
├── TableMoveError(table, code, reason)                  a move the table is not ready for
├── UnlinkedPoolError(pool)                              no table feeds the pool
├── CapBelowValueError(value)                            a cap under the current meter
├── StagedRefusedError(pool, reason)                     a staged change refused as it applies
├── TriggerRangeError(value, field)                      a draw the meter would narrow
├── TriggerInForceError(high)                            a ceiling below the armed draw
├── PayoutStateError(payout, status, step)               e.g. disputing a paid jackpot
├── PayoutChangedError(payout, status, expected)         a stale console's step
├── SecondPersonError(payout, step)                      approving one's own pay or void
├── NoVoidAwaitingError(payout, status)                  approving a void none asked for
├── RoundVoidError(table, round_id, code, reason)        a void the round cannot take
├── RoundVoidHeldError(payout, table, round_id, ...)     paying what a held void covers
├── RoundRecordError(table, round_id)                    a record its entry does not vouch for
├── PersonError(code, message, field)                    the register cannot take a change
├── AdjustmentError(adjustment, reason, field)           replayed id, or no funds
├── MeterLimitError(pool)                                past the bound of exact sums
├── DayNotOverError(day)                                 a gaming day still under way
├── DayNotClosedError(day)                               over, its close still to come
├── SectionNotRecordedError(day, section, layout)        a file its day's layout lacks
├── DayNotJournaledError(day)                            closed, its digest not journaled yet
├── DayBoundsError(day, bounds, neighbour, its_bounds)   would overlap a closed day, or gap
├── GamingDayClosedError(closed)                         the gaming day changed after a close
├── TableCountsAckError(table, day, code, reason, field) no such difference to acknowledge
└── BrokenChainError(problems)                           a journal's hash chain is broken
"""

from __future__ import annotations

from jackpot.errors import ConflictError


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


class ProgressiveClosedError(ConflictError):
    """A round carries side wagers for a pool whose link is not running: nothing is settled.

    The table adapter quarantines such a report for an operator: the table took side bets
    the link was not accepting (the heartbeat had said so), and what happens to them (void
    and return them, or resend once the link runs again) is the floor's decision."""

    code = "progressive_closed"

    def __init__(self, pool: str, state: str) -> None:
        super().__init__(
            f"the progressive of pool {pool!r} is {state}: its side bet is closed and rounds "
            "carrying side wagers for it are refused"
        )
        self.field = "spots"
        self.pool = pool
        self.state = state


class PoolStateError(ConflictError):
    code = "pool_state"

    def __init__(self, pool: str, state: str, wanted: str, field: str = "pool") -> None:
        super().__init__(f"pool {pool!r} is {state}: {wanted}")
        self.field = field


class PoolRunningError(ConflictError):
    """A parameter change while the link is in operation (NY 5321.18(b)(4))."""

    code = "pool_running"

    def __init__(self, pool: str) -> None:
        super().__init__(
            f"pool {pool!r} is running: its parameters change only while it is suspended. "
            f"Suspend it first, or stage the change (POST /v1/pools/{pool}/staged) to take "
            "effect at its next suspension or at a set time"
        )


class PoolInUseError(ConflictError):
    code = "pool_in_use"

    def __init__(self, pool: str, tables: list[str]) -> None:
        super().__init__(
            f"pool {pool!r} is fed by table(s) {', '.join(tables)}: give them other pools "
            "(PUT /v1/tables/{table}) before retiring it"
        )
        self.field = "pool"


class PoolNameTakenError(ConflictError):
    """A pool's display name another pool of its link group, not retired, has (put_pool.lua,
    D290): a sign or a report would show two meters by one name."""

    code = "pool_name_taken"
    field = "name"

    def __init__(self, name: str, other: str, its_name: str) -> None:
        super().__init__(
            f"{name!r} reads the same as {its_name!r}, the name of pool {other!r} of this link "
            "group (names are compared with case, spacing and look-alike letters aside): "
            "choose another name, or rename that pool first"
        )


class LinkedTableError(ConflictError):
    code = "linked_tables_differ"

    def __init__(self, table: str, other: str, pool: str, difference: str) -> None:
        what = {"decks": "deck count", "paytable": "paytable"}.get(difference, difference)
        super().__init__(
            f"table {table!r} would play another {what} than table {other!r}, linked to it "
            f"on pool {pool!r}: linked tables need the same deck count and paytable; change "
            f"a linked group's game in one step with PUT /v1/pools/{{pool}}/game"
        )
        self.field = difference
        self.table = table
        self.other = other
        self.pool = pool
        self.difference = difference


class LinkGroupError(ConflictError):
    """A pool or table asked for in one link group is already in another (a pool's group is
    fixed when it is created; a table changes group only by a move)."""

    code = "link_group"

    def __init__(
        self, kind: str, ident: str, group: str, wanted: str, hint: str, field: str = "group"
    ) -> None:
        super().__init__(f"{kind} {ident!r} is in link group {group!r}, not {wanted!r}: {hint}")
        self.field = field
        self.group = group


class TableCountsAckError(ConflictError):
    """A table's counts of a day that match (`counts_match`), or were compared again since
    the person read them (`counts_changed`): nothing acknowledged."""

    def __init__(self, table: str, day: str, code: str, reason: str, field: str) -> None:
        super().__init__(f"table {table!r}, gaming day {day}: {reason}")
        self.code = code
        self.field = field


class TableMoveError(ConflictError):
    """A table that cannot move now: enabled (`table_enabled`), or another move of it is
    under way (`move_under_way`)."""

    def __init__(self, table: str, code: str, reason: str) -> None:
        super().__init__(f"table {table!r} cannot move: {reason}")
        self.code = code
        self.table = table


class UnlinkedPoolError(ConflictError):
    code = "no_linked_tables"

    def __init__(self, pool: str) -> None:
        super().__init__(f"no table feeds pool {pool!r}: it has no game to change")
        self.field = "pool"


class CapBelowValueError(ConflictError):
    code = "cap_below_value"

    def __init__(self, value: int) -> None:
        super().__init__(f"the cap can only be set at or above the current value ({value} cents)")
        self.field = "cap"


class StagedRefusedError(ConflictError):
    """A staged change refused as it was to take effect: a table feeding the pool would
    return too much (or too little) with it (docs/DECISIONS.md D229). It stays staged."""

    code = "staged_refused"

    def __init__(self, pool: str, reason: str) -> None:
        super().__init__(f"pool {pool!r}: the staged change was {reason}")
        self.field = "staged"


class TriggerRangeError(ConflictError):
    code = "trigger_range_too_narrow"

    def __init__(self, value: int, field: str) -> None:
        super().__init__(
            f"the meter ({value} cents) has already reached the lowest trigger of the range "
            "a trigger would be drawn from now, and a draw is never narrowed to the meter: "
            "set the range above the meter, or lower the meter to its reset first (D228)"
        )
        self.field = field


class TriggerInForceError(ConflictError):
    code = "trigger_range_in_force"

    def __init__(self, high: int) -> None:
        super().__init__(
            f"the level's armed trigger was drawn from a range up to {high} cents and stays "
            "armed until won: a ceiling below that would put it out of the meter's reach; "
            "lower it after the next hit (D228)"
        )
        self.field = "cap"


class PayoutStateError(ConflictError):
    code = "payout_state"

    def __init__(self, payout: str, status: str, step: str = "") -> None:
        doing = f"; it cannot be {step}" if step else ""
        if status == "pending" and step == "voided":  # what to do instead (API.md, D52)
            doing += (
                ": dispute it first, with its reason (jackpot payouts dispute ID --reason ...), "
                "then void the disputed jackpot"
            )
        super().__init__(f"payout {payout!r} is {status}{doing}")


class PayoutChangedError(ConflictError):
    """The caller acted on a payout it last saw in another status (a stale console page)."""

    code = "payout_changed"

    def __init__(self, payout: str, status: str, expected: str) -> None:
        super().__init__(
            f"payout {payout!r} is {status} now, not {expected}: it changed meanwhile; "
            "read it again before acting"
        )
        self.field = "expect"


class SecondPersonError(ConflictError):
    """Two-person control: the approval of a hand pay comes from someone else."""

    code = "second_person_required"

    def __init__(self, payout: str, step: str = "approve") -> None:
        did = "asked for its void" if step == "approve_void" else "confirmed or paid it"
        super().__init__(
            f"payout {payout!r}: this key or person {did}: another operator approves it"
        )


class NoVoidAwaitingError(ConflictError):
    """An approval of a payout's void when none awaits one (never asked, or withdrawn)."""

    code = "no_void_awaiting"

    def __init__(self, payout: str, status: str) -> None:
        super().__init__(
            f"payout {payout!r} is {status} and no void of it awaits approval (none was asked, "
            "or a later step withdrew it): nothing is voided"
        )


class RoundVoidError(ConflictError):
    """A void a round cannot take now: a jackpot of it was paid (`jackpot_paid`), another
    void awaits approval (`void_awaiting_approval`), none does (`no_void_awaiting`), the one
    approving asked for it (`second_person_required`), ..."""

    def __init__(
        self, table: str, round_id: str, code: str, reason: str, field: str | None = None
    ) -> None:
        super().__init__(f"round {table}/{round_id}: {reason}")
        self.code = code
        self.field = field


class RoundVoidHeldError(ConflictError):
    """A payout confirmed or approved while a void of its round that covers it awaits a second
    person's approval (payout_status.lua, D289): the void is decided first."""

    code = "void_awaiting_approval"
    field = "payout"

    def __init__(
        self, payout: str, table: str, round_id: str, covers: str, asked: str, reason: str
    ) -> None:
        super().__init__(
            f"payout {payout!r}: a void of round {table}/{round_id} ({covers}, asked by "
            f"{asked}: {reason or 'no reason given'}) covers it and awaits a second person's "
            "approval: approve the void, which cancels this payout, or refuse it, then pay"
        )


class RoundRecordError(ConflictError):
    """A round record that the journal entry which settled it does not vouch for (forged,
    or edited, in the archive or in Redis): never served, never counted."""

    code = "round_record_mismatch"

    def __init__(self, table: str, round_id: str) -> None:
        super().__init__(
            f"round {table}/{round_id}: its record is not what the journal entry that settled "
            "it commits (forged or edited): it is not served; jackpot verify names it"
        )
        self.field = "round"


class PersonError(ConflictError):
    """A change the register of people cannot take: an id registered already
    (`person_exists`), a name confusable with an active person's (`person_confusable`), a
    person who is not active (`person_inactive`), a key given to someone already
    (`key_assigned`)."""

    def __init__(self, code: str, message: str, field: str) -> None:
        super().__init__(message)
        self.code = code
        self.field = field


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


class DayNotOverError(ConflictError):
    code = "day_not_over"

    def __init__(self, day: str, end: str, closable: str | None = None) -> None:
        after = "" if closable is None or closable == end else f"; it can be closed from {closable}"
        super().__init__(
            f"gaming day {day} is not over: it ends at {end}{after} (a round dealt just "
            "before its end may still land until then)"
            if after
            else f"gaming day {day} is not over: it ends at {end}"
        )
        self.field = "day"


class DayBoundsError(ConflictError):
    code = "day_bounds"

    def __init__(self, day: str, bounds: str, neighbour: str, its_bounds: str) -> None:
        super().__init__(
            f"gaming day {day} would run {bounds} by the controller's gaming day, but the "
            f"closed day {neighbour} ran {its_bounds}: the two would overlap or leave a gap "
            "(the gaming day was changed after that day was closed)"
        )
        self.field = "day"


class GamingDayClosedError(ConflictError):
    code = "gaming_day_closed"

    def __init__(self, closed: str) -> None:
        super().__init__(
            f"the controller's gaming day cannot change: gaming day {closed} is closed, and "
            "the days after a closed day must follow on from it"
        )


class DayNotClosedError(ConflictError):
    code = "day_not_closed"

    def __init__(self, day: str) -> None:
        super().__init__(
            f"gaming day {day} is over but not closed yet: the worker closes each day within "
            "minutes of its end (or: jackpot accounting close --date " + day + ")"
        )
        self.field = "day"


class SectionNotRecordedError(ConflictError):
    """A closed day's file of a section its statement layout did not record (D278)."""

    code = "section_not_recorded"

    def __init__(self, day: str, section: str, layout: int) -> None:
        super().__init__(
            f"gaming day {day} was closed in statement layout {layout}, which has no {section} "
            "section: a closed day is never recomputed (its voids are in its report's "
            f"corrections: GET /v1/accounting/days/{day}/timeline)"
        )
        self.field = "section"


class DayNotJournaledError(ConflictError):
    code = "day_not_journaled"

    def __init__(self, day: str) -> None:
        super().__init__(
            f"gaming day {day} is closed but its record is not bound to the journal yet (closed "
            "before records were, or a crash came between): the worker checks its figures "
            "against the archive and binds it within a minute; until then it is not served"
        )
        self.field = "day"


class BrokenChainError(ConflictError):
    code = "broken_chain"

    def __init__(self, problems: str) -> None:
        super().__init__(
            f"a journal's hash chain is broken, so nothing is closed: {problems} "
            "(jackpot verify names every place)"
        )
