"""The bodies of a link's control (suspend, resume, retire, a staged change's cancel, a
table's move) and of a linked group's game."""

from __future__ import annotations

from jackpot.domain.fields import (
    MAX_REASON,
    Field,
    Identifier,
    Integer,
    ListOf,
    Presence,
    Record,
    Rule,
    Text,
)
from jackpot.domain.paytable import PAYTABLE

GAME_SETS_SOMETHING = Rule("paytable", "a game change sets decks, a paytable or both", "missing")
GAME_POOLS_FED = Rule("paytable", "may pay a percentage only of pools every linked table feeds")

#: The body of PUT /v1/pools/{pool}/game.
GAME_CHANGE_REQUEST = Record(
    {
        "decks": Field(Integer(6, 8), description="the group's new deck count"),
        "paytable": Field(PAYTABLE, description="the group's new paytable"),
        "reason": Field(Text(MAX_REASON), Presence.REQUIRED, "why, for the journal"),
    },
    "A linked group's new game: every table feeding the pool, and every table linked to "
    "those through another pool, gets it in one step.",
    rules=(GAME_SETS_SOMETHING, GAME_POOLS_FED),
    notes=(
        "An unknown pool is 404 `unknown_pool`; a pool no table feeds is 409 "
        "`no_linked_tables`; a paytable paying from a pool a linked table does not feed is "
        "400 naming `paytable`.",
    ),
)


#: The body of POST /v1/pools/{pool}/suspend.
SUSPEND_REQUEST = Record(
    {
        "reason": Field(
            Text(MAX_REASON), Presence.REQUIRED, "why the link is closed, for the journal"
        )
    },
    "Closes the side bet on every table linked to the pool until it is resumed.",
    notes=(
        "While suspended, a round carrying side wagers for the pool is 409 "
        "`progressive_closed` (nothing is settled); rounds without side wagers settle as "
        "usual. Suspending a suspended pool changes nothing.",
    ),
)
#: The body of POST /v1/pools/{pool}/resume.
RESUME_REQUEST = Record(
    {"reason": Field(Text(MAX_REASON), description="a note for the journal")},
    "Opens the side bet again; the body may be left out.",
)

#: The body of POST /v1/pools/{pool}/staged/cancel.
CANCEL_STAGED_REQUEST = Record(
    {"reason": Field(Text(MAX_REASON), Presence.REQUIRED, "why, for the journal")},
    "Drops the pool's staged parameter change.",
)

#: The body of POST /v1/pools/{pool}/retire.
RETIRE_REQUEST = Record(
    {
        "id": Field(Identifier(), Presence.REQUIRED, "applied once: a retry repeats it"),
        "to": Field(Identifier(), Presence.REQUIRED, "the pool that receives the balance"),
        "reason": Field(Text(MAX_REASON), Presence.REQUIRED, "why, for both journals"),
    },
    "Retires the pool and moves its whole balance, meter and reserve, to another pool.",
    notes=(
        "`to` naming the pool itself is 400; an unknown `to` is 404 `unknown_pool` naming "
        "`to`; a pool that tables still feed is 409 `pool_in_use`; a retired pool on "
        "either side is 409 `pool_state`; the same id with another body is 409 "
        "`adjustment_refused` naming `id`.",
    ),
)


#: The body of POST /v1/tables/{table}/move.
MOVE_REQUEST = Record(
    {
        "pools": Field(
            ListOf(Identifier(), "pool ids", min_items=1, unique=True, one="a pool"),
            Presence.REQUIRED,
            "the pools the table feeds in its new link group (all of that one group)",
        ),
        "reason": Field(Text(MAX_REASON), Presence.REQUIRED, "why, for both house journals"),
    },
    "Moves a disabled table to the link group of the pools named, with its recent rounds.",
    notes=(
        "An enabled table is 409 `table_enabled` (disable it first: no round may settle "
        "while it moves); pools of two groups are 400 naming `pools[i]`; pools of the "
        "table's own group are 409 `link_group`. A move cut short is finished by the next "
        "request naming the same pools (another move of that table meanwhile is 409).",
    ),
)
