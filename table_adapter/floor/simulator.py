"""The floor simulator: N tables dealing M rounds each through their adapters to one controller.

Each table deals in its own thread; while the controller answers, a table waits for the
answer to its round before dealing the next (as a live table pays the side bet first).
Every report goes through the adapter's journal, so a run that is stopped, killed or cut
off from the controller resumes with its backlog the next time it starts.
"""

from __future__ import annotations

import random
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from table_adapter.floor.mishaps import MALFUNCTION_VOID, Mishaps, Plan
from table_adapter.floor.plan import FloorPlan
from table_adapter.floor.tally import FloorResult, Tally
from table_adapter.game.bets import Bet
from table_adapter.game.engine import Table
from table_adapter.game.irregularities import Irregular, Irregularity
from table_adapter.game.players import Players
from table_adapter.game.records import Round, VoidRound
from table_adapter.game.shoe import Shuffler
from table_adapter.game.strategies import get_strategy
from table_adapter.link.adapter import Adapter
from table_adapter.link.answers import RoundAnswer
from table_adapter.link.client import ControllerClient
from table_adapter.link.journal import Entry, Journal, JournalError, State
from table_adapter.link.meters import MeterWatch, PoolReading
from table_adapter.link.status import LinkSettings, LinkStatus

MALFUNCTION_FOUND = Irregularity(Irregular.MALFUNCTION)


@dataclass(frozen=True, slots=True)
class FloorOptions:
    """How the floor talks to its controller."""

    link: LinkSettings = field(default_factory=LinkSettings)
    timeout: float = 5.0
    drain_seconds: float = 60.0
    on_answer: Callable[[Entry, RoundAnswer], None] | None = None
    meter_seconds: float = 0.5  # how often the floor reads its pools' meters


class Floor:
    """A running floor: adapters for this run's tables and for any backlog left before."""

    def __init__(
        self,
        plan: FloorPlan,
        controller: str,
        key: str,
        journal_path: Path,
        options: FloorOptions | None = None,
        *,
        client: ControllerClient | None = None,
    ) -> None:
        self.plan = plan
        self.options = options or FloorOptions()
        self.controller = controller
        self.run_id = _run_id(plan.seed)
        self.tally = Tally(self.run_id)
        self.stop_event = threading.Event()
        self.journal = Journal(journal_path)
        self.client = client or ControllerClient(controller, key, timeout=self.options.timeout)
        self.watch = MeterWatch(self.client, [plan.pool_id], self.options.meter_seconds)
        self.adapters: dict[str, Adapter] = {}
        try:
            self._add_adapters()
        except BaseException:
            self.client.close()
            self.journal.close()
            raise
        self._started = 0.0
        self._threads: list[threading.Thread] = []

    def _add_adapters(self) -> None:
        plan = self.plan
        profile = plan.table_profile()
        for i, name in enumerate(plan.table_ids):
            seed = None if plan.seed is None else plan.seed * 1_000_003 + i
            table = Table(
                name,
                profile,
                decks=plan.decks,
                seed=seed,
                id_prefix=self.run_id,
                shuffler=Shuffler(plan.shuffler),
                face_up_rate=plan.face_up_rate,
            )
            self.adapters[name] = self._adapter(name, table)
        for name in self.journal.tables_with_pending():
            if name not in self.adapters:
                self.adapters[name] = self._adapter(name, None)

    def _adapter(self, name: str, table: Table | None) -> Adapter:
        seed = None if self.plan.seed is None else f"war-floor/{self.plan.seed}/{name}/jitter"
        return Adapter(
            name,
            self.journal,
            self.client,
            self.options.link,
            table=table,
            on_settled=self._settled,
            rng=random.Random(seed),
        )

    def _settled(self, entry: Entry, answer: RoundAnswer | None) -> None:
        self.tally.settled(entry, answer)
        if answer is not None:
            for pool, _ in answer.pools:
                self.watch.add(pool)
        if answer is not None and entry.state is State.ACKED and self.options.on_answer:
            self.options.on_answer(entry, answer)

    def start(self) -> None:
        """Start delivery and one dealing thread per table of this run."""
        self._started = time.monotonic()
        self.watch.start()
        for adapter in self.adapters.values():
            adapter.start()
        dealers = [a for a in self.adapters.values() if a.table is not None]
        self._threads = [
            threading.Thread(target=self._deal, args=(a, i), name=f"deal-{a.name}", daemon=True)
            for i, a in enumerate(dealers)
        ]
        for t in self._threads:
            t.start()

    @property
    def dealing(self) -> bool:
        """Some table is still dealing."""
        return any(t.is_alive() for t in self._threads)

    def _deal(self, adapter: Adapter, index: int) -> None:
        assert adapter.table is not None
        plan, table = self.plan, adapter.table
        players, mishaps = self._players(table, index), self._mishaps(table, index)
        dealt = 0
        next_at = time.monotonic()
        while (plan.rounds is None or dealt < plan.rounds) and not self.stop_event.is_set():
            side_open = adapter.side_bets_open()
            bets = players.bets(side_open)
            going = mishaps.next(bets)
            played = self._play(adapter, bets, going)
            if played is None:  # the journal failed: this table stops dealing
                return
            if isinstance(played, VoidRound):
                self.tally.void(played)
                continue
            dealt += 1
            self._count(played, side_open, going)
            self._between_rounds(adapter, table, dealt)
            next_at = self._pace(next_at)

    def _players(self, table: Table, index: int) -> Players:
        """The players at the table dealt `index`-th, seeded from the plan's seed."""
        plan = self.plan
        seed = None if plan.seed is None else f"war-floor/{plan.seed}/{index}/players"
        return Players(
            table.name,
            table.profile,
            table.spots,
            get_strategy(plan.strategy),
            random.Random(seed),
            plan.side_share,
            plan.slow_players,
        )

    def _mishaps(self, table: Table, index: int) -> Mishaps:
        """What goes wrong at the table dealt `index`-th, seeded from the plan's seed."""
        plan = self.plan
        seed = None if plan.seed is None else f"war-floor/{plan.seed}/{index}/mishaps"
        return Mishaps(table.profile, table.shoe.shuffler, plan.irregularities, random.Random(seed))

    def _play(self, adapter: Adapter, bets: list[Bet], going: Plan) -> Round | VoidRound | None:
        """Deal and journal one round with its mishap; None when the journal failed (the
        tally keeps why, and the table stops dealing)."""
        try:
            played = adapter.play_round(bets, None if going.after_report else going.mishap)
            if going.after_report and isinstance(played, Round):
                # found once the result was reported: void it whole at the controller
                adapter.void_round(
                    played.round_id, MALFUNCTION_VOID, irregularity=MALFUNCTION_FOUND
                )
        except JournalError as exc:
            self.tally.journal_failed(str(exc))
            return None
        return played

    def _count(self, played: Round, side_open: bool, going: Plan) -> None:
        """Tally a dealt round, and its void at the controller if a malfunction was found."""
        self.tally.dealt(played, side_open)
        if going.after_report:
            self.tally.void_reported(played, MALFUNCTION_FOUND)

    def _between_rounds(self, adapter: Adapter, table: Table, dealt: int) -> None:
        """A new dealer when one is due; while the link is up, wait for the answer to the
        round (a live table pays the side bet first)."""
        every = self.plan.dealer_change_every
        if every and dealt % every == 0:
            table.new_dealer()  # the next round begins with the new dealer's burn
        if adapter.up:
            adapter.wait_idle(self.options.link.answer_wait_seconds, only_while_up=True)

    def _pace(self, next_at: float) -> float:
        """Wait until the next round is due at the plan's rate (none: at once); when it is."""
        if self.plan.rate > 0:
            next_at = max(next_at + 1 / self.plan.rate, time.monotonic() - 1)
            self.stop_event.wait(max(0.0, next_at - time.monotonic()))
        return next_at

    def drain(self, seconds: float) -> None:
        """Give the adapters up to `seconds` to deliver what is journaled."""
        deadline = time.monotonic() + seconds
        for adapter in self.adapters.values():
            adapter.wait_idle(max(0.0, deadline - time.monotonic()))

    def finish(self, interrupted: bool = False) -> FloorResult:
        """Stop dealing and delivery, read the final meters, close everything; the result."""
        elapsed = time.monotonic() - self._started
        self.stop_event.set()
        for t in self._threads:
            t.join()
        for adapter in self.adapters.values():
            adapter.stop()
        links = tuple(a.status() for a in self.adapters.values())
        self.watch.stop()
        self.watch.read()  # after the last answer: the final meters
        pools = {pool: r.value for pool, r in self.watch.latest().items()}
        self.client.close()
        self.journal.close()
        return FloorResult(
            self.plan,
            self.tally,
            links,
            pools,
            elapsed,
            self.controller,
            self.journal.path,
            interrupted,
        )

    def run(self, tick: Callable[[Floor], None] | None = None, every: float = 0.1) -> FloorResult:
        """Deal the plan, drain, finish; Ctrl-C stops dealing and drains briefly."""
        interrupted = False
        try:
            self.start()
            while self.dealing:
                time.sleep(every)
                if tick is not None:
                    tick(self)
            self.drain(self.options.drain_seconds)
        except KeyboardInterrupt:
            interrupted = True
            self.stop_event.set()
            self.drain(min(5.0, self.options.drain_seconds))
        return self.finish(interrupted)

    def statuses(self) -> list[LinkStatus]:
        """Every link's status now."""
        return [a.status() for a in self.adapters.values()]

    @property
    def elapsed(self) -> float:
        """Seconds since the floor started (0 before)."""
        return time.monotonic() - self._started if self._started else 0.0

    def meters(self) -> dict[str, PoolReading]:
        """The newest reading of each pool the floor feeds, as a meter sign sees it."""
        return self.watch.latest()


def journal_path(data_dir: Path) -> Path:
    """Where the floor keeps its adapters' journal under a data directory."""
    return data_dir / "adapter" / "journal.sqlite"


def backlog_tables(path: Path) -> list[str]:
    """Tables with reports still pending in the journal at `path` (none if it does not exist)."""
    if not path.exists():
        return []
    with Journal(path) as journal:
        return journal.tables_with_pending()


def _run_id(seed: int | None) -> str:
    """A round-id prefix unique to this run, so reruns never reuse a round id."""
    stamp = time.strftime("%Y%m%d%H%M%S", time.gmtime())
    head = f"s{seed}-" if seed is not None else ""
    return f"{head}{stamp}{secrets.token_hex(3)}"
