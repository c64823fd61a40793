"""The bodies of the requests that are not configuration: adjustments, reconciliations,
payout notes, and the round report's shape."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jackpot.domain.cards import RANK_CHARS, SUIT_CHARS, Card, CardError
from jackpot.domain.config import MAX_SPOTS, MAX_WAGER
from jackpot.domain.fields import (
    MAX_REASON,
    Boolean,
    Choice,
    Either,
    Field,
    Identifier,
    Integer,
    ListOf,
    PersonId,
    Presence,
    Record,
    Rule,
    Text,
    Timestamp,
)
from jackpot.domain.meter import UNITS_PER_CENT
from jackpot.domain.paytable import PAYTABLE
from jackpot.domain.report import MAX_BETS_PER_SPOT, MAX_SHOE_CARDS
from jackpot.errors import ValidationError

MAX_ADJUSTMENT_CENTS = 10**13
MAX_TIMESTAMP_MS = 2**53

# -- adjustments ---------------------------------------------------------------------------

ADJUSTMENT_MOVES_MONEY = Rule("amount", "an adjustment moves a non-zero amount")

#: The body of POST /v1/pools/{pool}/adjustments.
ADJUSTMENT_REQUEST = Record(
    {
        "id": Field(Identifier(), Presence.REQUIRED, "applied once: a retry repeats it"),
        "amount": Field(
            Integer(-MAX_ADJUSTMENT_CENTS, MAX_ADJUSTMENT_CENTS),
            Presence.REQUIRED,
            "signed cents",
        ),
        "units": Field(
            Integer(-(UNITS_PER_CENT - 1), UNITS_PER_CENT - 1),
            description="signed 1/10,000 cents added to amount (default 0)",
        ),
        "target": Field(
            Choice(("visible", "reserve")), description="the balance moved (default visible)"
        ),
        "reason": Field(Text(MAX_REASON), Presence.REQUIRED, "why, for the journal"),
    },
    "An audited manual movement of a pool's money.",
    rules=(ADJUSTMENT_MOVES_MONEY,),
    notes=(
        "The same id with another body, or on another pool, is 409 `adjustment_refused` "
        "naming `id`; making a balance negative or lifting the meter above its cap is 409 "
        "`adjustment_refused` naming `amount`.",
    ),
)


@dataclass(frozen=True, slots=True)
class Adjustment:
    id: str
    amount: int  # cents
    units: int  # 1/10,000 cents on top of amount
    target: str
    reason: str

    @classmethod
    def from_json(cls, raw: Any) -> Adjustment:
        """Validate an adjustment body."""
        data = ADJUSTMENT_REQUEST.check(raw)
        amount, units = data["amount"], data.get("units", 0)
        if amount == 0 and units == 0:
            raise ADJUSTMENT_MOVES_MONEY.error()
        return cls(data["id"], amount, units, data.get("target", "visible"), data["reason"])


# -- reconciliation ------------------------------------------------------------------------

TO_AFTER_FROM = Rule("to", "must be after from", "out_of_range")
TIMESTAMP = Integer(0, MAX_TIMESTAMP_MS)

#: The body of POST /v1/reports/reconcile.
RECONCILE_REQUEST = Record(
    {
        "pool": Field(Identifier(), Presence.REQUIRED),
        "from": Field(TIMESTAMP, description="ms since the epoch, inclusive (default 0)"),
        "to": Field(TIMESTAMP, description="ms since the epoch, exclusive (default now)"),
    },
    "A pool's reconciliation over [from, to), queued for the worker.",
    rules=(TO_AFTER_FROM,),
    notes=("An unknown pool is 404 `unknown_pool`.",),
)


@dataclass(frozen=True, slots=True)
class ReconcileRequest:
    pool: str
    from_ts: int
    to_ts: int

    @classmethod
    def from_json(cls, raw: Any, now_ms: int) -> ReconcileRequest:
        """Validate a reconciliation request; `to` defaults to just after `now_ms`."""
        data = RECONCILE_REQUEST.check(raw)
        from_ts, to_ts = data.get("from", 0), data.get("to", now_ms + 1)
        if to_ts <= from_ts:
            raise TO_AFTER_FROM.error()
        return cls(data["pool"], from_ts, to_ts)


# -- a linked group's game ------------------------------------------------------------------

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


# -- payouts -------------------------------------------------------------------------------

#: The optional body of POST /v1/payouts/{payout}/confirm.
MAX_SLIP = 64
PAYOUT_STATUSES = ("pending", "awaiting_approval", "paid", "disputed", "void")
WITNESS_IS_NOT_THE_PAYER = Rule(
    "witness", "must be another person than the one who paid", "same_person"
)
WITNESS_IS_NOT_THE_CONFIRMER = Rule(
    "witness", "must be another person than the operator confirming", "same_person"
)
EXPECT = Field(
    Choice(PAYOUT_STATUSES),
    description=(
        "the status the caller last saw; if the payout changed meanwhile the step is 409 "
        "`payout_changed` and nothing changes (a stale console page never overwrites)"
    ),
)
CONFIRM_REQUEST = Record(
    {
        "paid_by": Field(
            PersonId(),
            description=(
                "the id (employee or badge number) of the registered, active person who paid "
                "the jackpot by hand (default: the person the key is issued to)"
            ),
        ),
        "witness": Field(
            PersonId(),
            Presence.REQUIRED,
            "the id of the registered, active person who witnessed the hand pay: another "
            "person than the payer and the one confirming",
        ),
        "slip": Field(Text(MAX_SLIP), Presence.REQUIRED, "the hand-pay slip or reference number"),
        "reason": Field(Text(MAX_REASON), description="a note for the journal"),
        "expect": EXPECT,
    },
    "The hand pay's record: who witnessed it and its slip, always; who paid it.",
    rules=(WITNESS_IS_NOT_THE_PAYER, WITNESS_IS_NOT_THE_CONFIRMER),
    notes=(
        "An id that is not in the register is 404 `unknown_person`, one of a person not "
        "active 409 `person_inactive`, each naming its field. People are compared by id, "
        "never by name (docs/DECISIONS.md D232).",
        "From the approval threshold (JACKPOT_HANDPAY_APPROVAL_CENTS) up, a confirmed "
        "jackpot is `awaiting_approval` until another operator approves it.",
    ),
)


@dataclass(frozen=True, slots=True)
class Confirmation:
    """A checked confirm body: the hand pay as the operator recorded it."""

    paid_by: str  # a person's id; empty: not given (the key's person stands in)
    witness: str  # a person's id
    slip: str
    note: str
    expect: str = ""

    @classmethod
    def from_json(cls, raw: Any) -> Confirmation:
        data = CONFIRM_REQUEST.check(raw)
        return cls(
            str(data.get("paid_by", "")),
            str(data["witness"]),
            str(data.get("slip", "")),
            str(data.get("reason", "")),
            str(data.get("expect", "")),
        )

    def check_people(self, paid_by: str, confirmer: str) -> None:
        """The witness is another person than the one who paid and the one confirming, by
        their ids (the payout script checks it again where the payout changes)."""
        if self.witness == paid_by:
            raise WITNESS_IS_NOT_THE_PAYER.error()
        if self.witness == confirmer:
            raise WITNESS_IS_NOT_THE_CONFIRMER.error()


#: The optional body of POST /v1/payouts/{payout}/approve.
APPROVE_REQUEST = Record(
    {"reason": Field(Text(MAX_REASON), description="a note for the journal"), "expect": EXPECT},
    "A second operator approves a confirmed hand pay; the body may be left out.",
    notes=(
        "The key that confirmed, the person who paid and the person who confirmed may not "
        "approve: 409 `second_person_required`.",
    ),
)
#: The body of POST /v1/payouts/{payout}/dispute.
DISPUTE_REQUEST = Record(
    {
        "reason": Field(Text(MAX_REASON), Presence.REQUIRED, "why the jackpot is disputed"),
        "expect": EXPECT,
    },
    "A dispute names its reason.",
)
#: The body of POST /v1/payouts/{payout}/void.
VOID_REQUEST = Record(
    {
        "reason": Field(Text(MAX_REASON), Presence.REQUIRED, "why the jackpot is voided"),
        "expect": EXPECT,
    },
    "Cancels a confirmed, awaiting or disputed jackpot for good: nothing is owed any more.",
    notes=(
        "A pending jackpot is disputed first. A void moves no money: what should return "
        "to a meter is an adjustment of its own.",
        "From `JACKPOT_HANDPAY_APPROVAL_CENTS` up the void is only asked for (202; the "
        "payout keeps its status and shows `void_request`) until another person approves "
        "it (`POST /v1/payouts/{payout}/void/approve`).",
    ),
)
#: The optional body of POST /v1/payouts/{payout}/void/approve.
VOID_APPROVE_REQUEST = Record(
    {"reason": Field(Text(MAX_REASON), description="a note for the journal"), "expect": EXPECT},
    "A second person applies the void asked of a jackpot; the body may be left out.",
    notes=(
        "The key that asked for the void, or another key of the same person, may not "
        "approve it: 409 `second_person_required`. No void awaiting approval (never asked, "
        "or withdrawn by a later confirmation, approval or dispute) is 409 "
        "`no_void_awaiting`; one applied already answers `changed: false`.",
    ),
)
#: The body of POST /v1/payouts/{payout}/void/refuse.
VOID_REFUSE_REQUEST = Record(
    {"reason": Field(Text(MAX_REASON), Presence.REQUIRED, "why the void is refused")},
    "Another person refuses the void asked of a jackpot, or the one who asked withdraws it: "
    "the request is dropped and nothing else changes (journaled `payout_void_refused`).",
    notes=(
        "No void awaiting approval (never asked, approved, refused or withdrawn already) is "
        "409 `no_void_awaiting`.",
    ),
)


# -- round voids ---------------------------------------------------------------------------

#: The body of POST /v1/rounds/{table}/{round}/void.
ROUND_VOID_REQUEST = Record(
    {
        "reason": Field(Text(MAX_REASON), Presence.REQUIRED, "why the round is voided"),
        "spots": Field(
            ListOf(Integer(1, MAX_SPOTS), "spot numbers", min_items=1, unique=True, one="a spot"),
            description="void only the bets of these spots (a card not dealt to a wager); "
            "left out: the round whole (a malfunction voids all pays and plays)",
        ),
    },
    "Voids a settled round, or the bets of some of its spots: its pays, its handle, its "
    "meter contributions and its jackpots are taken back as new journal entries.",
    notes=(
        "A void whose pays (fixed, envy and jackpot) reach the hand-pay approval threshold is "
        "held (202 `awaiting_approval`) until another person approves it. Voiding what is "
        "void already answers `unchanged`. A spot without a bet in the round is 400 naming "
        "it; a jackpot of the void already paid or confirmed paid is 409 `jackpot_paid` "
        "naming the payout (an adjustment corrects a paid one); another void of the round "
        "awaiting approval is 409 `void_awaiting_approval`.",
    ),
)
#: The optional body of POST /v1/rounds/{table}/{round}/void/approve.
ROUND_VOID_APPROVE_REQUEST = Record(
    {"reason": Field(Text(MAX_REASON), description="a note for the journal")},
    "A second person approves the void held for approval; the body may be left out.",
    notes=(
        "The key that asked for the void, or another key of the same person, may not approve "
        "it: 409 `second_person_required`. No void awaiting approval is 409 "
        "`no_void_awaiting`; one applied already answers `unchanged`.",
    ),
)

ROUND_VOID_REFUSE_REQUEST = Record(
    {"reason": Field(Text(MAX_REASON), Presence.REQUIRED, "why the void is refused")},
    "A person refuses the void awaiting approval, or the one who asked withdraws it: it is "
    "dropped and nothing moves (journaled `void_refused`).",
    notes=("No void awaiting approval is 409 `no_void_awaiting`.",),
)

# -- link control --------------------------------------------------------------------------

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


# -- round reports -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardText:
    """A card as tables spell it: `As`, `as`, `AS`, `10h`, `Td`."""

    def check(self, raw: Any, field: str) -> Card:
        try:
            return Card.parse(raw)
        except CardError as exc:
            raise ValidationError(field, str(exc), "unknown_card") from None

    def schema(self) -> dict[str, Any]:
        ranks = RANK_CHARS + RANK_CHARS.lower()
        suits = SUIT_CHARS + SUIT_CHARS.upper()
        return {"type": "string", "pattern": f"^(?:[{ranks}]|10)[{suits}]$"}


SHOE = "may show no more copies of a card than the table's shoe holds"
WAR_ON_TIE = Rule("war", "is true only on a tie", "war_without_tie")
WAGER_LIMITS = Rule("wager", "is 0 or within the table's min_wager..max_wager", "out_of_range")
CARD_RULES = (
    Rule("card", SHOE, "impossible_cards"),
    Rule("war_card", SHOE, "impossible_cards"),
    Rule("war_card", "is required when the hand goes to war", "missing"),
)
SPOT_RULES = (
    *CARD_RULES,
    Rule("war_card", "is given only at war, and equals the community war card if there is one"),
    Rule("spot", "is at most the table's spots", "out_of_range"),
    Rule("spot", "is reported once"),
)
BET = Record(
    {
        "wager": Field(Integer(1, MAX_WAGER), Presence.REQUIRED, "cents"),
        "player": Field(Identifier()),
        "war": Field(Boolean(), description="this player's war decision on a tie"),
    },
    rules=(WAGER_LIMITS, WAR_ON_TIE),
)
_SPOT_FIELDS = {
    "spot": Field(Integer(1, MAX_SPOTS), Presence.REQUIRED),
    "card": Field(CardText(), Presence.REQUIRED),
    "war_card": Field(CardText()),
}
LIVE_SPOT = Record(
    {
        **_SPOT_FIELDS,
        "wager": Field(Integer(0, MAX_WAGER), description="the progressive wager, cents; 0: none"),
        "player": Field(Identifier(), description="only with a wager"),
        "war": Field(Boolean()),
    },
    "A hand at a live table, its bet inline.",
    rules=(*SPOT_RULES, WAGER_LIMITS, WAR_ON_TIE, Rule("player", "is named only with a wager")),
)
STADIUM_SPOT = Record(
    {
        **_SPOT_FIELDS,
        "bets": Field(
            ListOf(BET, "bets", max_items=MAX_BETS_PER_SPOT),
            Presence.REQUIRED,
            "one per player on the hand",
        ),
    },
    "A hand at a stadium table: every player's bet on it.",
    rules=(*SPOT_RULES, Rule("bets", "are carried only at stadium tables")),
)
#: The shape of POST /v1/rounds; report.parse_report checks it against the table.
ROUND_REPORT = Record(
    {
        "table": Field(Identifier(), Presence.REQUIRED),
        "round": Field(Identifier(), Presence.REQUIRED, "unique per table; a retry repeats it"),
        "dealer": Field(
            Record(
                {
                    "card": Field(CardText(), Presence.REQUIRED),
                    "war_card": Field(CardText()),
                },
                rules=(*CARD_RULES, Rule("war_card", "is given only when some spot goes to war")),
            ),
            Presence.REQUIRED,
        ),
        "community_war": Field(
            Boolean(), description="stadium tables: every spot at war shares one war card"
        ),
        "dealt_at": Field(
            Timestamp(),
            description="when the round was dealt, by the table's clock; a resend repeats it. "
            "Optional, but a report without it is checked against the archive before it is "
            "settled (docs/DECISIONS.md D71, the retention window)",
        ),
        "spots": Field(
            ListOf(Either(LIVE_SPOT, STADIUM_SPOT, "bets"), "spots", 1, MAX_SPOTS),
            Presence.REQUIRED,
        ),
        "shoe": Field(
            Identifier(),
            description="the shoe the round was dealt from, as the table names it (a new name "
            "for each shuffle); the shoe's rounds together may show no card more often than "
            "it holds",
        ),
        "position": Field(
            Integer(0, MAX_SHOE_CARDS),
            description="with `shoe`: how many cards were out of it (burns included) before "
            "the round's first card",
        ),
    },
    "A finished round, checked against its table's configuration.",
    rules=(
        Rule("spots", "lists at most the table's spots"),
        Rule("community_war", "is true only at a stadium table (where it may be left out)"),
        Rule(
            "spots",
            "together with the earlier rounds reported from the same `shoe`, may show no "
            "card more often than the shoe holds",
            "impossible_cards",
        ),
        Rule("position", "is given only with `shoe`", "missing"),
        Rule(
            "position",
            "leaves room in the table's shoe for every card the round shows",
            "out_of_range",
        ),
        Rule(
            "dealt_at",
            "is at most the allowed clock skew (JACKPOT_CLOCK_SKEW_SECONDS) ahead of the "
            "controller's clock",
            "in_future",
        ),
    ),
    notes=(
        "A key for another table is 403; an unknown table is 404 `unknown_table`; a disabled "
        "table is 409 `table_disabled`; the same (table, round) with another body is 409 "
        "`round_conflict`.",
        "A round dealt longer ago than the retention window (JACKPOT_RETENTION_SECONDS) that "
        "the controller never settled is 422 `round_expired`: it is not settled, and the table "
        "adapter quarantines it for an operator. A resend of a settled round of any age is "
        "answered with its first result.",
    ),
)
