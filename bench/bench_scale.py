"""What the live floor costs, and that history costs nothing (the floor's scale issue): each
read a process makes again and again measured on a small and a big floor, with a short and a
long history behind it.

A *floor* is its live part: tables, pools (each table feeds one, table i pool i mod P; a sign
shows up to three pools, so a floor has ceil(P/3) signs) and a handful of pending payouts
(`--pending`, the same on every floor). A *history* is what only grows: settled rounds and
past (paid) payouts. Every floor (`--tables` with `--pools`, paired in order) is built with
every history (`--rounds` with `--past-payouts`, paired in order), each on its own
redis-server started like the embedded store (AOF, appendfsync always) and its own SQLite
archive under one temporary directory (removed at the end, servers stopped). All builds stay
up until the end, and each measure is taken on every build in turn, `--repeat` times (the
best kept), after one untimed call each: whatever else loads the machine weighs on every
build alike, so the ratios compare like with like:

* `GET /metrics`, `GET /v1/pools`, `GET /v1/tables`, `GET /v1/meters`, `GET /v1/activity`
  (the Flask app in process, `create_app(settings, services=...)`, its test client, an
  operator's key);
* the console's first load: `GET /console`, `GET /v1/session`, then the six reads its
  refresh() makes (`/v1/meters`, `/v1/tables`, `/v1/payouts?status=pending|awaiting_approval|
  disputed&limit=200`, `/v1/activity?limit=40`), one after the other;
* a sign's first state: what the sign process reads to send a screen its first `state`
  event (`SignBoard.definitions()` and `SignBoard.states()` of every sign, as
  `jackpot.api.signfeed` does about once a second);
* the self-check at start-up: a process's first `health.run()` (software, durability, every
  pool's invariant, the tail of every journal), on a freshly bootstrapped `Services`;
* `jackpot verify --since` the measured day, once that day is closed (`Verifier.run(day)`:
  its chains, round records, closed day and figures recomputed; the command's software
  check, the same on every build, is left out).

The processes run with `self_check_seconds` of an hour, so that no background self-check
runs while measuring; the payouts' open index is built before the past payouts are written
(a store in operation built it long ago: its one scan of the payouts hash is not measured).

How a history is built (the shortest one is all real; a longer one adds older days):

1. setup on today's gaming day: pools, tables, keys and signs through the services;
2. past payouts (`--past-payouts`) written straight into the store as the settle script and
   payout_status.lua leave a paid jackpot: a JSON per payout in the payouts hash (status
   `paid`) and each pool's newest 25 in its last-hits list, with the payout counter moved past
   them. They are not in the journals or the meters' counters (nothing reads them there).
   The short history's 2,500 fill every pool's list on the floor of 100 pools (payout k goes
   to pool k mod P), as a floor in operation has it: what a sign and /v1/pools show is capped
   at 25 hits a pool, so both histories show as many and the ratio compares history alone;
3. the history's rounds beyond the shortest history's: whole gaming days of `--day-rounds`
   rounds before the measured day, settled by the controller's own settle script
   (`settle_round.lua`, pipelined, on the store's clock moved through each day). Their
   deals are genuine reports settled by `jackpot.domain.settlement` (a few hundred templates
   reused under new table and round ids; deals that hit a meter are left out: past hits are
   step 2's). Only the request path (authentication, parsing) is skipped. The worker's steps
   follow as it runs them: each day archived, trimmed from Redis once past the retention
   window (`RETENTION_HOURS`), and closed (`accounting.close_due()`): the archive holds a
   genuine, chained, closed history that `jackpot verify` passes whole;
4. the measured day: the shortest history's rounds, every one through `rounds.report` (the
   round path a table's request takes), `--pending` of them suited four of a kind hitting a
   meter (left pending), spread over an hour of the day, archived.

So at the instant measured, every history leaves the same live floor and the same rounds in
Redis's retention window; a longer one adds the archive's older days, the payouts hash, and
the journals' and payouts' numbering. Then the day is closed and verified since its start.

Ratios printed: each history / the shortest on each floor (about 1 when a measure does not
read history) and each floor / the smallest on each history (the floor's cost). `--quick`
is a smoke run of every step at the smallest size (two floors of 10 and 20 tables, histories
of 200 and 1,200 rounds, older days of 500, each measure once): seconds, its ratios too noisy
to read. The default sizes have not been timed: from the rates of a run at 2,000 and 20,000
rounds (about 6,000 older rounds a second settled, then archived and closed), expect
tens of minutes and a few GB of temporary disk (every build's archive stays until the end).

    python bench/bench_scale.py [--tables 10,100,1000] [--pools 1,10,100]
        [--rounds 10000,1000000] [--past-payouts 2500,100000] [--repeat 5] [--quick] [--json]
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import redis
from doors import put_pool, put_table, report_round
from harness import redis_in
from reports import deal

from jackpot.archive.verify import Verification
from jackpot.bootstrap import Services, bootstrap
from jackpot.domain.auth import Role, digest
from jackpot.domain.people import person_of
from jackpot.domain.report import body_digest, parse_report
from jackpot.domain.settlement import settle
from jackpot.entrypoints.app import create_app
from jackpot.services.clock import now_ms
from jackpot.services.rounds import plan_round  # the round path's
from jackpot.settings import Settings
from jackpot.store.keys import Keys
from jackpot.store.rounds import RoundStore
from jackpot.store.scripts import Scripts, source

NAMESPACE = "scale"
MINUTE_MS = 60_000
HOUR_MS = 3_600_000
RETENTION_HOURS = 2  # Redis keeps this much of the journals (the measured hour included)
SKEW_SECONDS = 60
SAMPLE_AT_MS = 3 * HOUR_MS  # where in the measured day its rounds begin ...
SAMPLE_SPAN_MS = HOUR_MS  # ... and how long they go on
STEP = 500  # rounds stamped at one instant before the store's clock moves on
BATCH = 1_000  # settle-script calls per pipeline
TEMPLATES = 400  # deals reused for the older days' rounds
LEVELS = 3  # pools a sign shows
POOL = {"reset": 100_000, "rate_bp": 500, "reserve_rate_bp": 100}
TABLE = {"decks": 6, "spots": 7}
OPERATOR = "Bench Operator"
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

MEASURES = {
    "metrics": "GET /metrics",
    "pools": "GET /v1/pools",
    "tables": "GET /v1/tables",
    "meters": "GET /v1/meters",
    "activity": "GET /v1/activity",
    "console": "console first load (8 requests)",
    "sign": "sign first state (every sign)",
    "selfcheck": "self-check at start-up",
    "verify": "verify --since the day",
}


NOTES = (
    "every endpoint the issue names exists (docs/API.md): /v1/meters is every pool's meters; "
    "the console's first load is its page, /v1/session and the six reads of its refresh()",
    "a longer history adds: older closed days in the archive, more past payouts in the payouts "
    "hash (every history fills each pool's last hits, which /v1/pools and the signs show: at "
    "most 25 a pool, whatever the history), and the journals' numbering; "
    "Redis's retention window holds the measured day's rounds alone, whatever the history",
    "not covered: tables' own daily counts (none are reported), hits and payout steps in the "
    "older days' journals (past payouts are written to the store only), link groups other "
    "than main",
)


# --- arguments ---------------------------------------------------------------------------------


def _ints(text: str) -> list[int]:
    try:
        out = [int(part.replace("_", "")) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of integers: {text!r}") from None
    if not out or min(out) < 0:
        raise argparse.ArgumentTypeError(f"not a list of integers >= 0: {text!r}")
    return out


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--tables", type=_ints, default=[10, 100, 1000], help="floors' tables")
    p.add_argument("--pools", type=_ints, default=[1, 10, 100], help="floors' pools (paired)")
    p.add_argument(
        "--rounds",
        type=_ints,
        default=[10_000, 1_000_000],
        help="histories' settled rounds; the smallest is the measured day's, all real",
    )
    p.add_argument(
        "--past-payouts",
        type=_ints,
        default=[2_500, 100_000],
        help="histories' paid payouts (paired); 25 a pool fill its last hits",
    )
    p.add_argument("--day-rounds", type=int, default=50_000, help="rounds of each older day")
    p.add_argument("--pending", type=int, default=5, help="pending payouts of every floor")
    p.add_argument("--repeat", type=int, default=5, help="runs of each measure (best kept)")
    p.add_argument(
        "--quick",
        action="store_true",
        help="a smoke run: tables 10,20, pools 1,2, rounds 200,1200, past payouts 50,200, "
        "days of 500 rounds, each measure once",
    )
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    args = p.parse_args(argv)
    if args.quick:
        args.tables, args.pools = [10, 20], [1, 2]
        args.rounds, args.past_payouts = [200, 1_200], [50, 200]
        args.day_rounds, args.repeat = 500, 1
    args.floors = _paired(p, "--tables", args.tables, "--pools", args.pools)
    args.histories = _paired(p, "--rounds", args.rounds, "--past-payouts", args.past_payouts)
    for tables, pools in args.floors:
        if not 1 <= pools <= tables:
            p.error(f"a floor of {tables} tables and {pools} pools: every pool needs a table")
    args.sample = min(r for r, _ in args.histories)
    if args.sample < max(args.pending, 1) or args.day_rounds < 1 or args.repeat < 1:
        p.error(
            "the measured day needs rounds (at least --pending), --day-rounds and --repeat >= 1"
        )
    return args


def _paired(
    p: argparse.ArgumentParser, a: str, xs: list[int], b: str, ys: list[int]
) -> list[tuple[int, int]]:
    """xs and ys paired in order; a single value goes with every one of the other list."""
    if len(xs) == 1:
        xs = xs * len(ys)
    if len(ys) == 1:
        ys = ys * len(xs)
    if len(xs) != len(ys):
        p.error(f"{a} and {b} pair up in order: give as many of each (or one)")
    return list(zip(xs, ys, strict=True))


# --- the controller ----------------------------------------------------------------------------


class Offset:
    """The service's clock, moved forward through the days with the store's."""

    def __init__(self) -> None:
        self.ms = 0

    def __call__(self) -> int:
        return now_ms() + self.ms


@dataclass
class Floor:
    tables: list[str]
    pools: list[str]
    signs: list[str]
    records: dict[str, Any]  # table -> TableRecord, as the round path caches it
    table_secret: str
    table_key: Any
    operator: str  # an operator's secret
    operator_who: str  # ... and the name the journal gives its steps


def _iso(ms: int) -> str:
    return (EPOCH + timedelta(milliseconds=ms)).isoformat(timespec="milliseconds")


class Build:
    """One floor with one history, on its own store and archive."""

    def __init__(self, svc: Services, client: redis.Redis, clock: Offset) -> None:
        self.svc = svc
        self.r = client
        self.clock = clock
        self.keys = Keys(NAMESPACE)
        self.days = svc.days()

    def move_to(self, ms: int) -> None:
        """The service's clock and the store's (never earlier than it was)."""
        self.clock.ms = ms - now_ms()
        self.r.hset(self.keys.counters, "clock", ms)

    def setup(self, n_tables: int, n_pools: int) -> Floor:
        svc = self.svc
        pools = [f"pool-{j:03d}" for j in range(n_pools)]
        tables = [f"T{i:04d}" for i in range(n_tables)]
        for pool in pools:
            put_pool(svc, pool, POOL, "bench")
        records = {}
        for i, table in enumerate(tables):
            body = {**TABLE, "pools": [pools[i % n_pools]], "location": f"Pit {i // 20 + 1}"}
            _, records[table] = put_table(svc, table, body, "bench")
        signs = []
        for k in range(0, n_pools, LEVELS):
            sign = f"sign-{k // LEVELS + 1}"
            levels = [{"pool": p, "name": p.upper()} for p in pools[k : k + LEVELS]]
            svc.signs.put(sign, {"levels": levels, "title": f"Progressive {sign}"}, "bench")
            signs.append(sign)
        secret, key = svc.credentials.create(Role.TABLE, frozenset(tables))
        svc.people.register("E1042", OPERATOR)  # keys are issued to people of the register
        operator, op_key = svc.credentials.create(Role.OPERATOR, frozenset(), "", "E1042")
        return Floor(tables, pools, signs, records, secret, key, operator, op_key.who)

    def past_payouts(self, floor: Floor, n: int, first_ms: int, last_ms: int) -> None:
        """`n` paid jackpots, as settle_round.lua then payout_status.lua leave them: the
        payouts hash, each pool's newest 25 in its last hits, the payout counter past them."""
        # the open index is built once per store (its first unsettled read scans the hash):
        # a store in operation built it long ago
        self.svc.payouts.list("awaiting_approval", 1)
        if n == 0:
            return
        people = {"confirmer": person_of(OPERATOR), "paid_by": person_of(OPERATOR), "witness": ""}
        newest: dict[str, list[str]] = {p: [] for p in floor.pools}
        batch: dict[str, str] = {}
        for k in range(1, n + 1):
            table = floor.tables[k % len(floor.tables)]
            pool = floor.pools[(k % len(floor.tables)) % len(floor.pools)]
            created = first_ms + (last_ms - first_ms) * k // (n + 1)
            spot = 1 + k % 7
            payout_id = f"P{k:06d}"
            payout = {
                "id": payout_id,
                "pool": pool,
                "table": table,
                "round": f"past-{k}",
                "spot": spot,
                "player": f"{table}-p{spot}",
                "outcome": "suited_four_of_a_kind",
                "amount": 100_000 + (k * 7919) % 400_000,
                "status": "paid",
                "created": created,
                "confirmed_by": floor.operator_who,
                "confirmed_at": created + 10 * MINUTE_MS,
                "confirmer": OPERATOR,
                "paid_by": OPERATOR,
                "people": people,
                "paid_at": created + 10 * MINUTE_MS,
            }
            raw = json.dumps(payout, separators=(",", ":"))
            batch[payout_id] = raw
            newest[pool].append(raw)
            if len(newest[pool]) > 25:
                del newest[pool][0]
            if len(batch) == 5_000 or k == n:
                self.r.hset(self.keys.payouts, mapping=batch)
                batch = {}
        with self.r.pipeline(transaction=False) as pipe:
            for pool, raws in newest.items():
                if raws:
                    pipe.lpush(self.keys.pool_hits(pool), *raws)  # the newest at the head
                    pipe.ltrim(self.keys.pool_hits(pool), 0, 24)
            pipe.hset(self.keys.counters, "payout", n)
            pipe.execute()

    def templates(self, floor: Floor, rng: random.Random) -> list[tuple[dict[str, Any], Any]]:
        """Dealt reports settled by the game's rules: those that hit no meter."""
        config = floor.records[floor.tables[0]].config
        out: list[tuple[dict[str, Any], Any]] = []
        while len(out) < TEMPLATES:
            body = deal(rng, floor.tables[0], "template")
            settlement = settle(parse_report(body, config), config)
            if not settlement.hits:
                out.append((body, settlement))
        return out

    def older_day(
        self, floor: Floor, day: date, n: int, templates: list[tuple[dict[str, Any], Any]]
    ) -> None:
        """`n` rounds of `day` settled by the settle script, pipelined, on the store's clock
        moved through the day (the keys and arguments RoundStore.settle sends)."""
        script = self.r.register_script(source("settle_round"))
        k = self.keys
        rounds = RoundStore(self.r, k, Scripts.register(self.r))
        key_digest = digest(floor.table_secret)
        start, end = self.days.bounds(day)
        lo, hi = start + 10 * MINUTE_MS, end - 10 * MINUTE_MS
        pipe = self.r.pipeline(transaction=False)
        for i in range(n):
            if i % STEP == 0:
                pipe.hset(k.counters, "clock", lo + (hi - lo) * i // n)
            table = floor.tables[i % len(floor.tables)]
            round_id = f"{day.isoformat()}-{i}"
            body, settlement = templates[i % len(templates)]
            report_digest = body_digest({**body, "table": table, "round": round_id})
            plan = plan_round(
                floor.records[table], round_id, report_digest, floor.table_key, key_digest,
                settlement,
            )  # fmt: skip
            keys, args = rounds.script_call(plan)
            script(keys=keys, args=args, client=pipe)
            if i % BATCH == BATCH - 1 or i == n - 1:
                _all_settled(pipe.execute())
                pipe = self.r.pipeline(transaction=False)

    def enter_day(self, day: date) -> list[str]:
        """The worker at a day's start: archive (and trim past the window), close what is due."""
        self.move_to(self.days.bounds(day)[0] + 5 * MINUTE_MS)
        self.svc.archiver.run()
        return self.svc.accounting.close_due()

    def measured_day(self, floor: Floor, day: date, n: int, pending: int) -> None:
        """`n` rounds through the round path, `pending` of them hitting a meter."""
        rng = random.Random(n)
        lo = self.days.bounds(day)[0] + SAMPLE_AT_MS
        hits = {n * (j + 1) // (pending + 1): j for j in range(pending)}
        for i in range(n):
            if i % STEP == 0:
                self.move_to(lo + SAMPLE_SPAN_MS * i // n)
            round_id = f"live-{i}"
            if i in hits:
                body = _hit(floor.tables[hits[i] % len(floor.tables)], round_id)
            else:
                body = deal(rng, floor.tables[i % len(floor.tables)], round_id)
            body["dealt_at"] = _iso(self.clock())
            report_round(self.svc, body, floor.table_key, floor.table_secret)
        self.move_to(lo + SAMPLE_SPAN_MS + 10_000)
        self.svc.archiver.run()


def _all_settled(replies: list[Any]) -> None:
    for reply in replies:
        if isinstance(reply, list) and reply[0] != "ok":
            raise RuntimeError(f"the settle script refused an older day's round: {reply[:3]}")


def _hit(table: str, round_id: str) -> dict[str, Any]:
    """A round whose first spot wins the meter: suited four of a kind (four aces of hearts)."""
    others = ["2c", "3d", "4s", "5h", "6c", "7d"]
    spots = [{"spot": 1, "player": f"{table}-p1", "wager": 500, "card": "Ah"}]
    spots[0] |= {"war": True, "war_card": "Ah"}
    spots += [
        {"spot": s, "player": f"{table}-p{s}", "wager": 500, "card": others[s - 2]}
        for s in range(2, 8)
    ]
    return {
        "table": table,
        "round": round_id,
        "dealer": {"card": "Ah", "war_card": "Ah"},
        "spots": spots,
    }


# --- one floor with one history, built and kept up to be measured ------------------------------


class Built:
    """A floor with a history, built on its own redis-server and archive, kept running so that
    every build is measured in turn (whatever else loads the machine weighs on all alike)."""

    def __init__(
        self,
        args: argparse.Namespace,
        data: Path,
        floor: tuple[int, int],
        history: tuple[int, int],
        stack: ExitStack,
    ) -> None:
        self.args = args
        (self.n_tables, self.n_pools), (self.rounds, self.past) = floor, history
        self.clock = Offset()
        self.url = stack.enter_context(redis_in(data / "redis"))
        self.client = redis.Redis.from_url(self.url, decode_responses=True)
        stack.callback(self.client.close)
        self.settings = Settings(
            data_dir=data / "var",
            namespace=NAMESPACE,
            retention_seconds=RETENTION_HOURS * 3600,
            clock_skew_seconds=SKEW_SECONDS,
            self_check_seconds=3600.0,  # no background re-check while measuring
        )
        self.svc = bootstrap(self.settings, self.url, self.clock)
        stack.callback(self.svc.close)
        self.b = Build(self.svc, self.client, self.clock)
        self.closed: list[str] = []
        self.found: Verification | None = None
        self.timings: dict[str, list[float]] = {name: [] for name in MEASURES}
        began = time.perf_counter()
        self._build()
        self.build_seconds = time.perf_counter() - began
        self.http = create_app(self.settings, services=self.svc).test_client()
        self.operator = {"Authorization": f"Bearer {self.floor.operator}"}
        self.live: dict[str, Callable[[], float | None]] = {
            "metrics": lambda: self.get("/metrics"),
            "pools": lambda: self.get("/v1/pools"),
            "tables": lambda: self.get("/v1/tables", self.operator),
            "meters": lambda: self.get("/v1/meters", self.operator),
            "activity": lambda: self.get("/v1/activity", self.operator),
            "console": self.console,
            "sign": self.sign,
            "selfcheck": self.selfcheck,
        }

    @property
    def label(self) -> tuple[str, str]:
        return _floor(self.n_tables, self.n_pools), _history(self.rounds, self.past)

    def _build(self) -> None:
        args, b = self.args, self.b
        self.floor = b.setup(self.n_tables, self.n_pools)
        first = b.days.of_time(self.clock())
        older = self.rounds - args.sample
        self.per_day = [args.day_rounds] * (older // args.day_rounds)
        if older % args.day_rounds:
            self.per_day.append(older % args.day_rounds)
        self.day = first + timedelta(days=len(self.per_day) + 1)  # the measured day
        b.past_payouts(self.floor, self.past, b.days.bounds(first)[0], b.days.bounds(self.day)[0])
        templates = b.templates(self.floor, random.Random(7)) if self.per_day else []
        for k, n in enumerate(self.per_day):
            day = first + timedelta(days=k + 1)
            self.closed += b.enter_day(day)
            b.older_day(self.floor, day, n, templates)
        self.closed += b.enter_day(self.day)
        b.measured_day(self.floor, self.day, args.sample, args.pending)

    # -- the measures ---------------------------------------------------------------------------

    def get(self, path: str, headers: dict[str, str] | None = None) -> None:
        answer = self.http.get(path, headers=headers)
        body = answer.get_data()
        if answer.status_code != 200:
            raise RuntimeError(f"GET {path}: {answer.status_code} {body[:300]!r}")

    def console(self) -> None:
        """The console's first load: its page, then what signIn() and refresh() read."""
        self.get("/console")
        self.get("/v1/session", self.operator)
        for path in (
            "/v1/meters",
            "/v1/tables",
            "/v1/payouts?status=pending&limit=200",
            "/v1/payouts?status=awaiting_approval&limit=200",
            "/v1/payouts?status=disputed&limit=200",
            "/v1/activity?limit=40",
        ):
            self.get(path, self.operator)

    def sign(self) -> None:
        """What the sign process reads for a screen's first `state` (signfeed._read_states)."""
        board = self.svc.board
        states = board.states(board.definitions())
        if len(states) != len(self.floor.signs):
            raise RuntimeError(f"{len(states)} sign states for {len(self.floor.signs)} signs")

    def selfcheck(self) -> float:
        """A process starting: bootstrapped afresh, its first self-check timed."""
        fresh = bootstrap(self.settings, self.url, self.clock)
        try:
            started = time.perf_counter()
            health = fresh.health.run()
            seconds = time.perf_counter() - started
        finally:
            fresh.close()
        if not health.operable:
            raise RuntimeError(f"the self-check failed: {health.to_json()['problems']}")
        return seconds

    def verify(self) -> float:
        started = time.perf_counter()
        found = self.svc.verifier.run(self.day)
        seconds = time.perf_counter() - started
        self.found = found
        return seconds

    def time(self, name: str, measure: Callable[[], float | None]) -> None:
        # as timeit does: a collection of this process's heap (every build's, held together
        # here) must not land in one build's measure and not another's
        gc.collect()
        gc.disable()
        try:
            started = time.perf_counter()
            spent = measure()
            seconds = time.perf_counter() - started
        finally:
            gc.enable()
        self.timings[name].append(spent if spent is not None else seconds)

    def snapshot(self) -> None:
        """The live floor as measured (before its day is closed)."""
        k = self.b.keys
        self.pending = self.client.zcard(k.payouts_pending)
        self.payouts = self.client.hlen(k.payouts)
        self.memory = int(self.client.info("memory")["used_memory"])
        self.house_in_redis = self.client.xlen(k.journal)

    def close_day(self) -> None:
        """The measured day is over: the worker closes it (then it is verified)."""
        self.b.move_to(self.b.days.bounds(self.day)[1] + 5 * MINUTE_MS)
        self.closed += self.svc.accounting.close_due()

    def result(self) -> dict[str, Any]:
        with self.svc.archive.engine.connect() as c:
            entries, records, days = (
                c.exec_driver_sql(f"SELECT count(*) FROM {t}").scalar()
                for t in ("journal_entries", "rounds", "gaming_days")
            )
        found = self.found
        assert found is not None, "verified first"
        return {
            "tables": self.n_tables,
            "pools": self.n_pools,
            "signs": len(self.floor.signs),
            "rounds": self.rounds,
            "measured_day_rounds": self.args.sample,
            "older_days": len(self.per_day),
            "past_payouts": self.past,
            "pending_payouts": self.pending,
            "payouts_in_redis": self.payouts,
            "house_entries_in_redis": self.house_in_redis,
            "redis_used_memory": self.memory,
            "archive": {"journal_entries": entries, "rounds": records, "closed_days": days},
            "closed": self.closed,
            "day": self.day.isoformat(),
            "build_seconds": self.build_seconds,
            "verify": {
                "intact": found.intact,
                "rounds": found.rounds,
                "entries": sum(found.checked.values()),
                "closed_days": found.days,
                "findings": [str(f) for f in found.findings[:5]],
            },
            "seconds": {name: min(ts) for name, ts in self.timings.items()},
            "seconds_all": self.timings,
        }


# --- the whole run -----------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="bench-scale-"))
    try:
        with ExitStack() as stack:
            builds = []
            for tables, pools in args.floors:
                for rounds, past in args.histories:
                    _say(
                        args,
                        f"building {tables} tables, {pools} pools, {rounds:,} rounds, "
                        f"{past:,} past payouts ...",
                    )
                    data = root / f"t{tables}-p{pools}-r{rounds}-h{past}"
                    builds.append(Built(args, data, (tables, pools), (rounds, past), stack))
            _say(args, f"measuring the live floors, {args.repeat} times each ...")
            for b in builds:  # once untimed: a process's first call of each compiles,
                for measure in b.live.values():  # caches and registers what later calls find
                    measure()
                b.snapshot()
            for _ in range(args.repeat):
                for name in builds[0].live:
                    for b in builds:
                        b.time(name, b.live[name])
            _say(args, "closing the measured days, verifying them ...")
            for b in builds:
                b.close_day()
            for _ in range(args.repeat):
                for b in builds:
                    b.time("verify", b.verify)
            runs = [b.result() for b in builds]
    finally:
        shutil.rmtree(root, ignore_errors=True)
    result = {"repeat": args.repeat, "runs": runs, "ratios": ratios(args, runs)}
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        show(args, result)
    return 0 if all(r["verify"]["intact"] for r in runs) else 1


def _say(args: argparse.Namespace, text: str) -> None:
    if not args.json:
        print(text, file=sys.stderr, flush=True)


def _floor(t: int, p: int) -> str:
    return f"{t}t/{p}p"


def _history(r: int, h: int) -> str:
    return f"{_short(r)}r/{_short(h)}h"


def _short(n: int) -> str:
    for unit, size in (("M", 1_000_000), ("k", 1_000)):
        if n >= size and n % (size // 10) == 0:
            return f"{n / size:g}{unit}"
    return str(n)


def ratios(args: argparse.Namespace, runs: list[dict[str, Any]]) -> dict[str, Any]:
    """history longest / shortest on each floor; floor / smallest on each history."""
    by = {(r["tables"], r["pools"], r["rounds"], r["past_payouts"]): r["seconds"] for r in runs}
    (t0, p0), (r0, h0) = args.floors[0], args.histories[0]
    out: dict[str, Any] = {"history": {}, "floor": {}}
    for t, p in args.floors:
        for r, h in args.histories[1:]:
            name = f"{_history(r, h)} / {_history(r0, h0)} @ {_floor(t, p)}"
            out["history"][name] = {
                m: by[(t, p, r, h)][m] / by[(t, p, r0, h0)][m] for m in MEASURES
            }
    for r, h in args.histories:
        for t, p in args.floors[1:]:
            name = f"{_floor(t, p)} / {_floor(t0, p0)} @ {_history(r, h)}"
            out["floor"][name] = {m: by[(t, p, r, h)][m] / by[(t0, p0, r, h)][m] for m in MEASURES}
    return out


def show(args: argparse.Namespace, result: dict[str, Any]) -> None:
    runs = result["runs"]
    print(
        f"best of {result['repeat']}; floors: tables/pools (+ {args.pending} pending payouts, "
        f"a sign per {LEVELS} pools); histories: rounds r / past payouts h (the measured "
        f"day's {args.sample:,} rounds real, older days of {args.day_rounds:,} settled by "
        "the settle script)"
    )
    for r in runs:
        a, v = r["archive"], r["verify"]
        floor, history = _floor(r["tables"], r["pools"]), _history(r["rounds"], r["past_payouts"])
        print(
            f"  {floor:>10} {history:>10}: built in {r['build_seconds']:.0f} s; "
            f"{r['signs']} signs, "
            f"{r['pending_payouts']} pending, {r['payouts_in_redis']:,} payouts in Redis, "
            f"Redis {r['redis_used_memory'] / 2**20:.0f} MiB holding "
            f"{r['house_entries_in_redis']:,} house entries; archive "
            f"{a['journal_entries']:,} entries, {a['rounds']:,} rounds, {a['closed_days']} "
            f"closed days; verify --since {r['day']}: {v['rounds']:,} records, "
            f"{v['entries']:,} entries, {'intact' if v['intact'] else 'NOT INTACT'}"
        )
        for f in v["findings"]:
            print(f"      {f}")
    columns = [(_floor(r["tables"], r["pools"]), _history(r["rounds"], r["past_payouts"]))
               for r in runs]  # fmt: skip
    width = max(11, *(len(f) + 1 for f, _ in columns))
    print()
    print("milliseconds".ljust(34) + "".join(f.rjust(width) for f, _ in columns))
    print("".ljust(34) + "".join(h.rjust(width) for _, h in columns))
    for m, label in MEASURES.items():
        cells = "".join(f"{r['seconds'][m] * 1000:{width}.1f}" for r in runs)
        print(f"{label:34}{cells}")
    for kind, title in (("history", "history long / short (about 1: history costs nothing)"),
                        ("floor", "floor big / small (what the floor costs)")):  # fmt: skip
        table = result["ratios"][kind]
        if not table:
            continue
        names = list(table)
        print()
        print(title)
        w = max(12, *(len(n) + 2 for n in names))
        print("".ljust(34) + "".join(n.rjust(w) for n in names))
        for m, label in MEASURES.items():
            print(f"{label:34}" + "".join(f"{table[n][m]:{w}.2f}" for n in names))
    print()
    for note in NOTES:
        print(f"* {note}")


if __name__ == "__main__":
    sys.exit(main())
