"""Who sees which pools on /metrics (docs/API.md, docs/DECISIONS.md D242).

The open scrape shows the public pools only. A pool made with `public: false` is off every
sign and out of the public read, and so out of every sample here that names it, in a `pool`
label (its meter, wagers, hits, jackpots and hand pays waiting, the tables that feed it) or
a `journal` label (its journal's archive lag). A scrape with an operator's or auditor's key
(the house's Prometheus holds one) sees every pool. The open scrape fails closed: a pool it
cannot tell is public (the store did not answer, or the pool was made after the pools were
read) is left out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping

from prometheus_client.core import Metric
from prometheus_client.registry import Collector

from jackpot.domain.journals import journal_pool
from jackpot.domain.meter import PoolState


def shown_openly(pools: Iterable[PoolState]) -> frozenset[str]:
    """The pools the open scrape shows: the public ones."""
    return frozenset(p.pool for p in pools if p.public)


def pools_named(labels: Mapping[str, str]) -> set[str]:
    """The pools a sample's labels name."""
    named = {labels["pool"]} if "pool" in labels else set()
    pool = journal_pool(labels.get("journal", ""))
    return named if pool is None else {*named, pool}


class PoolsShown(Collector):
    """What `collect` yields, without the samples that name a pool not in `shown` (a sample
    naming no pool passes)."""

    def __init__(self, collect: Callable[[], Iterable[Metric]], shown: frozenset[str]) -> None:
        self._collect = collect
        self._shown = shown

    def collect(self) -> Iterator[Metric]:
        for family in self._collect():
            kept = Metric(family.name, family.documentation, family.type, family.unit)
            kept.samples = [s for s in family.samples if pools_named(s.labels) <= self._shown]
            yield kept
