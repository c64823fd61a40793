"""Rounds: one settle_round script call per report, idempotent under (table, round)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from redis import Redis

from jackpot import jsonio
from jackpot.conflicts import (
    MeterLimitError,
    ProgressiveClosedError,
    RoundConflictError,
    RoundRecordError,
)
from jackpot.domain.cards import FULL_DECK
from jackpot.domain.payoutids import payout_prefix
from jackpot.domain.records import record_problem, result_digest
from jackpot.domain.triggers import draw_trigger
from jackpot.errors import ControllerInoperableError, JackpotError, ShoeOverdrawnError
from jackpot.store.forgotten import probes
from jackpot.store.keys import Keys
from jackpot.store.scripts import Scripts

log = logging.getLogger("jackpot.rounds")

# where the script keeps a card's count in a shoe's 52 digits (the table's hash)
CARD_INDEX = {str(card): i for i, card in enumerate(FULL_DECK)}

MARK_REPLAY = """if redis.call('EXISTS', KEYS[1]) == 1 then
  return redis.call('HINCRBY', KEYS[1], 'replays', 1)
end
return 0"""


class SettleStatus(StrEnum):
    APPLIED = "ok"
    REPLAYED = "replay"
    STALE = "stale"  # the table's configuration changed since the plan was made
    REVOKED = "revoked"
    # the table's filter of rounds whose records left Redis names it: ask the archive
    FORGOTTEN = "forgotten"


@dataclass(frozen=True, slots=True)
class MeterPlan:
    """What Python decided; the script applies it against the live meters."""

    table: str
    round: str
    digest: str
    table_version: str
    key_digest: str
    who: str
    pools: tuple[str, ...]
    wagered: int
    bets: int
    fixed: int
    envy: int
    hits: tuple[dict[str, Any], ...]  # {pool (1-based index), bet, bp, spot, player, outcome}
    envies: tuple[dict[str, Any], ...]
    static: dict[str, Any]  # the result's Python-computed part
    static_json: bytes  # ... as stored verbatim and returned on a replay
    held: tuple[dict[str, Any], ...] = ()  # {bet, kind, amount, spot, player, outcome}
    # the shoe audit: the shoe the round names, the cards it shows (card, copies) in report
    # order, and how many copies of each the shoe holds
    shoe: str | None = None
    cards: tuple[tuple[str, int], ...] = ()
    decks: int = 0
    # the round was looked for in Redis and the archive and is in neither: the script need
    # not test its table's filter of forgotten rounds (store/forgotten.py)
    looked_up: bool = False

    def stakes(self) -> list[list[Any]]:
        """Each bet's [wager, spot, player, outcome] in settlement order: what a must-hit-by
        or mystery level is won by, bet by bet (sent only to a table feeding one)."""
        spots = self.static["spots"]
        return [[b["wager"], b["spot"], b.get("player"), b["outcome"]] for b in spots]

    @property
    def result(self) -> str:
        """The digest of the stored result's static part, as its house entry commits it: a
        round record that does not hash to it was forged or edited (jackpot verify)."""
        return result_digest(self.static_json)


@dataclass(frozen=True, slots=True)
class StoredRound:
    status: SettleStatus
    static: dict[str, Any]
    dynamic: dict[str, Any]


class RoundStore:
    def __init__(self, client: Redis, keys: Keys, scripts: Scripts) -> None:
        self._r = client
        self._k = keys
        self._s = scripts
        # the must-hit-by and mystery levels met, with the range their triggers are drawn
        # from: a round feeding one carries its bets' stakes and a trigger drawn for each
        self._triggered: dict[str, tuple[int, int]] = {}
        self._round_keys: dict[tuple[str, tuple[str, ...]], list[str]] = {}

    def draws(self, plan: MeterPlan) -> dict[str, dict[str, int | str]]:
        """A trigger drawn for each must-hit-by or mystery level the round feeds, over its
        whole range, armed by the script only if the round wins the level (a few µs each)."""
        if plan.wagered == 0:
            return {}
        spans = ((pool, self._triggered.get(pool)) for pool in plan.pools)
        return {pool: draw_trigger(pool, span).offer() for pool, span in spans if span}

    def _keys(self, table: str, pools: tuple[str, ...]) -> list[str]:
        """The settle script's keys after the round's own, as they are for every round of
        `table` feeding `pools` (the fourth, the reporting key's, a placeholder)."""
        found = self._round_keys.get((table, pools))
        if found is None:
            k = self._k
            found = [k.table(table), k.journal, k.counters, "", k.payouts, k.payouts_pending]
            for pool in pools:
                found += [k.pool(pool), k.pool_journal(pool), k.pool_hits(pool)]
            found += [k.forgotten(table), k.controller]
            if len(self._round_keys) >= 4096:  # tables come and go: never a worker's memory
                self._round_keys.clear()
            self._round_keys[(table, pools)] = found
        return found

    def script_call(self, plan: MeterPlan, operable: bool = True) -> tuple[list[str], list[Any]]:
        """The settle script's keys and arguments for a plan (settle sends them; a benchmark
        writing history fast pipelines them)."""
        k = self._k
        keys = [k.round(plan.table, plan.round), *self._keys(plan.table, plan.pools)]
        keys[4] = k.api_key(plan.key_digest)
        body = {
            "table": plan.table,
            "round": plan.round,
            "who": plan.who,
            "pools": list(plan.pools),
            "wagered": plan.wagered,
            "bets": plan.bets,
            "fixed": str(plan.fixed),  # sums may pass 2**53: Lua keeps them as text
            "envy": str(plan.envy),
            "hits": list(plan.hits),
            "envies": list(plan.envies),
            "held": list(plan.held),
            "result": plan.result,
        }
        if not plan.looked_up:
            # as text: the script reads them only for a table with forgotten rounds
            body["probes"] = ",".join(map(str, probes(plan.table, plan.round)))
        draws = self.draws(plan)
        if draws:
            body["draws"] = draws
            body["stakes"] = plan.stakes()
        if plan.shoe is not None:
            cards = "".join(chr(48 + CARD_INDEX[c]) + chr(48 + n) for c, n in plan.cards)
            body["shoe"] = {"name": plan.shoe, "cards": cards, "decks": plan.decks}
        return keys, [
            plan.digest,
            plan.table_version,
            jsonio.dumps(body),
            plan.static_json,
            "1" if operable else "0",
            payout_prefix(k.group),
        ]

    def settle(self, plan: MeterPlan, operable: bool = True) -> StoredRound:
        """Apply the plan in one script call; raises RoundConflictError on another body."""
        for _ in range(len(plan.pools) + 1):
            keys, args = self.script_call(plan, operable)
            result = self._s.settle_round(keys=keys, args=args)
            status = result[0]
            if status != "draws":
                break
            # a must-hit-by or mystery level this process had not met, or whose range
            # changed: nothing was written; once more with its draws
            self._triggered[str(result[1])] = (int(result[2]), int(result[3]))
        if status == "ok":
            return StoredRound(SettleStatus.APPLIED, plan.static, parse_dynamic(result[2]))
        if status == "replay":
            entry = result[4] if len(result) > 4 else []
            _vouched(plan.table, plan.round, plan.digest, result[1], result[2], result[3], entry)
            return StoredRound(
                SettleStatus.REPLAYED, jsonio.loads(result[1]), parse_dynamic(result[2])
            )
        if status in ("stale", "revoked", "forgotten"):
            return StoredRound(SettleStatus(status), {}, {})
        refusal = _REFUSALS.get(status)
        if refusal is None:  # missing_pool: configuration the service validated has gone wrong
            raise JackpotError(f"round refused by the meter: {result}")
        raise refusal(plan, result)

    def confirm(self, table: str, round_id: str) -> None:
        """With a replica wait, return only once the replicas have the stored round: mark the
        replay on its record (a write, later in the replication stream than the round's own)
        and WAIT behind it on the same connection. ReplicationTimeoutError otherwise."""
        wait = self._s.wait
        if wait is None:
            return
        key = self._k.round(table, round_id)
        # only on a record still there: one the archiver has just taken is in the archive
        wait.pipelined(self._r, lambda pipe: pipe.eval(MARK_REPLAY, 1, key))

    def stored(self, table: str, round_id: str) -> tuple[str, StoredRound] | None:
        """(digest, result) of a reported round, or None."""
        key = self._k.round(table, round_id)
        raw = self._r.hmget(key, "digest", "static", "dynamic", "ts", "seq")
        if raw[0] is None:
            return None
        digest, static, dynamic, ts, seq = raw
        if seq is not None:
            found = self._r.xrange(self._k.journal, f"{seq}-0", f"{seq}-0")
            flat = [text for pair in found[0][1].items() for text in pair] if found else []
            _vouched(table, round_id, digest, static, dynamic, ts, flat)
        return digest, StoredRound(
            SettleStatus.REPLAYED, jsonio.loads(static), parse_dynamic(dynamic)
        )


def _vouched(
    table: str, round_id: str, digest: str, static: str, dynamic: str, ts: str, entry: list[str]
) -> None:
    """RoundRecordError unless the house entry that settled the round (its fields as Redis
    sends them; none for a record from before records named their entry, or one copied
    from another group with its table) commits this record: never served otherwise."""
    if not entry:
        return
    fields: Mapping[str, str] = dict(zip(entry[::2], entry[1::2], strict=True))
    problem = (
        "the entry it names settled another round"
        if (fields.get("table"), fields.get("round")) != (table, round_id)
        else record_problem(fields, static, dynamic, int(ts or 0), digest)
    )
    if problem is not None:
        log.error("round %s/%s: %s", table, round_id, problem)
        raise RoundRecordError(table, round_id)


def parse_dynamic(raw: str) -> dict[str, Any]:
    data = jsonio.loads(raw)
    # cjson encodes an empty Lua table as an object
    jackpots = data.get("jackpots") or []
    pools = data.get("pools") or {}
    out = {"jackpots": jackpots if isinstance(jackpots, list) else [], "pools": pools}
    if data.get("fed"):  # what each pool took in (a void gives it back)
        out["fed"] = data["fed"]
    if data.get("floors"):  # each pool's floor for a void's top-up (its reset then), units
        out["floors"] = data["floors"]
    if data.get("at"):  # when it was settled: its journal entries' stamp
        out["at"] = int(data["at"])
    if data.get("hand_pays"):  # fixed and envy pays held for verification
        out["hand_pays"] = data["hand_pays"]
    return out


# The settle script's refusals: each status, the error it raises (never the range of a
# mystery level in a message: it is hidden).
def _tampered(plan: MeterPlan, result: list[Any]) -> JackpotError:
    if len(result) > 2:  # a trigger not the one committed
        return ControllerInoperableError(
            [
                f"pool {result[1]}: its armed trigger is not the one its commitment and "
                "journal name: it was changed outside the controller; nothing was paid"
            ]
        )
    return ControllerInoperableError(
        [
            f"pool {result[1]}: its meter and reserve are not what its reset, "
            "contributions, pays, seed and adjustments give: they were changed outside "
            "the controller"
        ]
    )


_REFUSALS: dict[str, Callable[[MeterPlan, list[Any]], JackpotError]] = {
    "conflict": lambda plan, result: RoundConflictError(plan.table, plan.round),
    "impossible_cards": lambda plan, result: ShoeOverdrawnError(
        str(FULL_DECK[int(result[1])]), int(result[2]), plan.decks
    ),
    "overflow": lambda plan, result: MeterLimitError(str(result[1])),
    "closed": lambda plan, result: ProgressiveClosedError(str(result[1]), str(result[2])),
    "inoperable": lambda plan, result: ControllerInoperableError(
        ["a self-check found the store or the meters not as they must be (/readyz)"]
    ),
    "tampered": _tampered,
    "draws": lambda plan, result: JackpotError(
        "the round's trigger levels kept changing; nothing was applied"
    ),
}
