"""The controller checks itself (New York 5321.18(b)(2)-(3), Florida 75-14.033(4)).

At start-up, before a process answers ready, and again every `period` seconds while it runs:

* **software**: the files it runs from against the manifest sealed when the package was
  built (jackpot/integrity.py), again every period: a file changed or planted while it runs
  makes every process inoperable, not only one started after (D270);
* **durability**: the store keeps every acknowledged write through a crash: an append-only
  file fsynced on every write, or (JACKPOT_REDIS_WAIT_REPLICAS) each write confirmed by a
  replica; and it may not evict keys;
* **pools**: every pool's invariant, visible + reserve = reset + contributions - pays + seed
  + adjustments, in exact units;
* **journals**: the newest entries of every journal linked by their hashes, its recorded end,
  and each meter equal to the balance its journal last recorded.

Any failure makes the controller **inoperable**: rounds get 503 `controller_inoperable`,
heartbeats close the tables' side bet, `/readyz` says why, signs show closed. The store's
state is recorded in `{ns}/controller` and each change is journaled (controller_inoperable,
controller_operable). Nothing clears it but a check that passes: restarting with the cause
still there finds it again.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from jackpot.archive.verify import Verifier
from jackpot.domain.healthanswers import (
    Operability,
    ProblemFound,
    Readiness,
    Ready,
    SoftwareFound,
    StoreState,
)
from jackpot.errors import ArchiveUnavailableError, StoreUnavailableError
from jackpot.integrity import SoftwareCheck
from jackpot.store.config import ConfigStore
from jackpot.store.connect import STORE_DOWN
from jackpot.store.health import Durability, HealthStore

log = logging.getLogger("jackpot.selfcheck")

# the store did not answer: unavailable, not inoperable (the caller answers 503 and retries)
STORE_ERRORS = (*STORE_DOWN, StoreUnavailableError)

RECHECK_INOPERABLE = 1.0  # seconds: an inoperable process looks again this often, on demand


@dataclass(frozen=True, slots=True)
class Problem:
    check: str  # one of CHECKS
    code: str
    message: str

    def to_json(self) -> dict[str, str]:
        return {"check": self.check, "code": self.code, "message": self.message}


@dataclass(frozen=True, slots=True)
class Health:
    software: SoftwareCheck
    problems: tuple[Problem, ...] = ()
    checked: float = field(default_factory=time.time)  # when, seconds since the epoch

    @property
    def operable(self) -> bool:
        return not self.problems

    def answer(self) -> Ready:
        """What /readyz answers of it (the store answered)."""
        operable = self.operable
        return Ready(
            status=Readiness.READY if operable else Readiness.INOPERABLE,
            store=StoreState.UP,
            state=Operability.OPERABLE if operable else Operability.INOPERABLE,
            problems=[ProblemFound(p.check, p.code, p.message) for p in self.problems],
            checked=round(self.checked, 3),
            software=SoftwareFound(
                self.software.digest, self.software.crc32, self.software.authentic
            ),
        )


def durability_problems(found: Durability, wait_replicas: int) -> list[Problem]:
    """What in the store's settings could lose an acknowledged write."""
    checks = (_not_durable, _evicting, _short_of_replicas, _a_replica)
    return [problem for check in checks if (problem := check(found, wait_replicas)) is not None]


def _not_durable(found: Durability, wait_replicas: int) -> Problem | None:
    # with a replica confirming each write the AOF need not be fsynced on every write
    fsynced = found.appendfsync == "always" or wait_replicas > 0
    if found.appendonly == "yes" and fsynced:
        return None
    return Problem(
        "durability",
        "store_not_durable",
        f"the store runs with appendonly={found.appendonly} "
        f"appendfsync={found.appendfsync}: a crash could lose acknowledged rounds. Set "
        "appendonly yes and appendfsync always, or have each write confirmed by a "
        "replica (JACKPOT_REDIS_WAIT_REPLICAS)",
    )


def _evicting(found: Durability, wait_replicas: int) -> Problem | None:
    if found.maxmemory == 0 or found.maxmemory_policy == "noeviction":
        return None
    limit = "unknown" if found.maxmemory is None else str(found.maxmemory)
    return Problem(
        "durability",
        "store_evicts",
        f"the store may evict keys (maxmemory {limit}, "
        f"maxmemory-policy {found.maxmemory_policy}): set maxmemory-policy noeviction",
    )


def _short_of_replicas(found: Durability, wait_replicas: int) -> Problem | None:
    if not (wait_replicas and found.role == "master" and found.replicas < wait_replicas):
        return None
    return Problem(
        "durability",
        "store_replicas",
        f"the master has {found.replicas} replica(s) connected and each write must "
        f"be confirmed by {wait_replicas} (JACKPOT_REDIS_WAIT_REPLICAS): no round can "
        "be acknowledged until a replica links",
    )


def _a_replica(found: Durability, wait_replicas: int) -> Problem | None:
    if found.role in ("master", "unknown"):
        return None
    return Problem(
        "durability",
        "store_is_replica",
        f"the store is a {found.role}: the controller writes only to a master",
    )


class SelfCheck:
    def __init__(
        self,
        software: Callable[[], SoftwareCheck],
        store: HealthStore,
        config: ConfigStore,
        verifier: Verifier,
        wait_replicas: int,
        period: float,
        host: str,
        who: str,
    ) -> None:
        self._host = host
        self._software_check = software
        self._store = store
        self._config = config
        self._verifier = verifier
        self._wait_replicas = wait_replicas
        self._period = period
        self._who = who
        self._latest: Health | None = None
        self._lock = threading.Lock()  # one check at a time in a process
        self._start = threading.Lock()  # guards _running
        self._running = False  # a background check is under way
        self._checked_at = 0.0  # time.monotonic() of the latest check

    @property
    def wait_replicas(self) -> int:
        """Replicas that must confirm each write (JACKPOT_REDIS_WAIT_REPLICAS)."""
        return self._wait_replicas

    def durability(self) -> Durability:
        """The store's persistence settings and replicas, as the check reads them."""
        return self._store.durability()

    @property
    def software(self) -> SoftwareCheck:
        """The software's latest check (made again each self-check period, D270)."""
        return self._software_check()

    def run(self) -> Health:
        """Check everything now, record the store's state, and return what was found.

        A store that does not answer raises (the caller answers 503 store_unavailable): an
        unreachable store is unavailable, not inoperable. A check that fails for any other
        reason (a field the controller cannot read) is itself a problem: inoperable.
        Callers that arrive while a check runs wait for it and get its result."""
        if not self._lock.acquire(blocking=False):
            with self._lock:  # one is under way: its result is as fresh as ours would be
                if self._latest is not None:
                    return self._latest
            return self.run()
        try:
            return self._check()
        finally:
            self._lock.release()

    def _check(self) -> Health:
        software = self._software_check()
        problems = [Problem("software", "software_unverified", p) for p in software.problems]
        began = self._store.clock()
        found = self._store.durability()
        store_problems = durability_problems(found, self._wait_replicas)
        for check in (self._pools, self._journals):
            store_problems += self._run_check(check)
        health = Health(software, tuple(problems + store_problems))
        # the software's state is recorded once a process, while it fails, and when it no
        # longer does
        tell_software = (
            bool(problems) or self._latest is None or not self._latest.software.authentic
        )
        self._latest, self._checked_at = health, time.monotonic()  # acted on, recorded or not
        if found.role != "slave":
            self._record("store", store_problems, began)
            if tell_software:
                self._record(f"software@{self._host}", problems, began)
        return health

    @staticmethod
    def _run_check(check: Callable[[], list[Problem]]) -> list[Problem]:
        """The problems `check` finds; one that cannot run (the store's not answering aside)
        has failed, a problem itself."""
        try:
            return check()
        except STORE_ERRORS:
            raise
        except Exception as exc:  # a check that cannot run has failed
            log.exception("self-check: %s could not be checked", check.__name__[1:])
            return [Problem(check.__name__[1:], "check_failed", f"could not be checked: {exc!r}")]

    def _record(self, scope: str, problems: list[Problem], began: int) -> None:
        """Record (and journal a change of) the state; a store that cannot take it now gets
        it at the next check, which finds the recorded state still different."""
        state = "inoperable" if problems else "operable"
        try:
            changed = self._store.record(
                scope, state, [p.to_json() for p in problems], self._who, began
            )
        except StoreUnavailableError as exc:
            log.warning("self-check: the %s state was not recorded: %s", scope, exc.message)
            return
        if changed:
            level = logging.ERROR if problems else logging.WARNING
            log.log(level, "controller %s (%s): %s", state.upper(), scope, _summary(problems))

    def latest(self) -> Health:
        """The newest result. A check runs first when there is none, and again once it is
        older than the period: in the background while operable (no request waits for it),
        while inoperable, at once by the request that finds it a second old (a fixed cause is
        found by the first request after it)."""
        health = self._latest
        if health is None:
            return self.run()
        age = time.monotonic() - self._checked_at
        if not health.operable and age >= min(self._period, RECHECK_INOPERABLE):
            return self.run()  # it refuses everything anyway: check before answering
        if age >= self._period:
            with self._start:
                if self._running:
                    return health
                self._running = True
            threading.Thread(target=self._background, name="selfcheck", daemon=True).start()
        return health

    def settles(self) -> bool:
        """Whether rounds settle now, as the round script decides it: this process's newest
        check passed, and no process has recorded the store inoperable since (a process
        that has not looked again yet would otherwise tell a table its side bet is open
        while the script refuses every round)."""
        if not self.latest().operable:
            return False
        recorded = self._store.recorded("store")
        return recorded is None or recorded.state != "inoperable"

    def _background(self) -> None:
        try:
            self.run()
        except Exception:  # the store is down: the next request tries again
            log.warning("self-check could not run", exc_info=True)
        finally:
            self._running = False

    def _pools(self) -> list[Problem]:
        problems = []
        for pool in self._config.pools():
            if not pool.invariant_holds():
                total = pool.value_units + pool.reserve_units
                problems.append(
                    Problem(
                        "pools",
                        "pool_invariant",
                        f"pool {pool.pool}: meter and reserve hold {total} units but its "
                        "reset, contributions, pays, seed, adjustments and voids give "
                        f"{pool.accounted_units}: the meters were changed outside the controller",
                    )
                )
        problems += [
            Problem("pools", "trigger_tampered", f"{text}: changed outside the controller")
            for text in self._config.trigger_problems()
        ]
        return problems

    def _journals(self) -> list[Problem]:
        try:
            done = self._verifier.tail()
        except ArchiveUnavailableError as exc:
            log.warning("self-check: the archive did not answer (%s); checked Redis only", exc)
            return []
        return [Problem("journals", "journal_tampered", str(f)) for f in done.findings]


def _summary(problems: list[Problem]) -> str:
    return "; ".join(p.message for p in problems) or "every check passed"
