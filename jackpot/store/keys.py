"""Every Redis key the controller uses. The keys of one link group share one {hash tag}, so
one script can touch any of them and, on a Redis Cluster, each link group lives in one slot:
the main group's tag is `{<namespace>}` (as before there were groups), another group's is
`{<namespace>:<group>}`, so independent link groups may live on different shards.

Identifiers may contain `:` but never `/`, so `/` separates the parts unambiguously.
"""

from __future__ import annotations

from dataclasses import dataclass

from jackpot.domain.linkgroups import MAIN_GROUP


@dataclass(frozen=True, slots=True)
class Keys:
    namespace: str = "jackpot"
    group: str = MAIN_GROUP

    @property
    def tag(self) -> str:
        if self.group == MAIN_GROUP:
            return "{" + self.namespace + "}"
        return "{" + self.namespace + ":" + self.group + "}"

    def of_group(self, group: str) -> Keys:
        return Keys(self.namespace, group)

    # the link groups' registry: kept with the main group's keys, whichever group asks ------

    @property
    def groups(self) -> str:
        """Hash: link group -> JSON {created, who}; the main group is not in it."""
        return self.of_group(MAIN_GROUP).tag + "/groups"

    @property
    def pool_groups(self) -> str:
        """Hash: pool -> its link group, for every pool made since there are link groups
        (one made before has no entry: it is in the main group)."""
        return f"{self.groups}/pools"

    @property
    def table_groups(self) -> str:
        """Hash: table -> its link group, as for pools."""
        return f"{self.groups}/tables"

    @property
    def moves(self) -> str:
        """Hash: table -> JSON of its move between link groups while one is under way."""
        return f"{self.groups}/moves"

    @property
    def gaming_day(self) -> str:
        """String: the controller's gaming day, JSON {start, zone}, kept with the main
        group's keys: what every process of the controller closes days by."""
        return self.of_group(MAIN_GROUP).tag + "/gaming_day"

    def pool(self, pool: str) -> str:
        return f"{self.tag}/pool/{pool}"

    def pool_journal(self, pool: str) -> str:
        return f"{self.tag}/pool/{pool}/journal"

    def pool_hits(self, pool: str) -> str:
        return f"{self.tag}/pool/{pool}/hits"

    @property
    def pools(self) -> str:
        return f"{self.tag}/pools"

    def table(self, table: str) -> str:
        return f"{self.tag}/table/{table}"

    @property
    def tables(self) -> str:
        return f"{self.tag}/tables"

    def round(self, table: str, round_id: str) -> str:
        return f"{self.tag}/round/{table}/{round_id}"

    def forgotten(self, table: str) -> str:
        """The table's rounds whose records have left Redis (store/forgotten.py)."""
        return f"{self.tag}/forgotten/{table}"

    @property
    def journal(self) -> str:
        """The house journal: rounds, envy pays, table configuration."""
        return f"{self.tag}/journal"

    @property
    def counters(self) -> str:
        return f"{self.tag}/counters"

    def api_key(self, digest: str) -> str:
        return f"{self.tag}/key/{digest}"

    @property
    def api_key_ids(self) -> str:
        return f"{self.tag}/keys"

    @property
    def people(self) -> str:
        """The register of people: person id -> JSON (store/people.py)."""
        return f"{self.tag}/people"

    @property
    def payouts(self) -> str:
        return f"{self.tag}/payouts"

    @property
    def payouts_pending(self) -> str:
        return f"{self.tag}/payouts/pending"

    @property
    def payouts_open(self) -> str:
        """Zset: payouts past their first verdict that still owe (awaiting approval,
        disputed): with the pending ones, everything unsettled, read without a scan."""
        return f"{self.tag}/payouts/open"

    @property
    def payouts_open_built(self) -> str:
        """Set once the open index holds the payouts of a store from before it existed."""
        return f"{self.tag}/payouts/open:built"

    @property
    def payouts_settled(self) -> str:
        """Zset: payouts paid or voided, by when: those the archive may not hold yet, kept
        until an archive run has taken their entries (the history's live edge)."""
        return f"{self.tag}/payouts/settled"

    @property
    def payouts_settled_built(self) -> str:
        """Set once the settled index holds the payouts of a store from before it existed."""
        return f"{self.tag}/payouts/settled:built"

    @property
    def adjustments(self) -> str:
        return f"{self.tag}/adjustments"

    @property
    def closed_days(self) -> str:
        """Hash: day -> the digest of its closed record, as journaled (day_closed)."""
        return self.of_group(MAIN_GROUP).tag + "/closed_days"

    @property
    def table_counts(self) -> str:
        """Hash: '<table>/<day>' -> a table's own counts of the day and their comparison."""
        return f"{self.tag}/table_counts"

    @property
    def table_checks(self) -> str:
        """Hash: '<table>/<day>' -> the controller's comparison of those counts."""
        return f"{self.tag}/table_checks"

    @property
    def table_acks(self) -> str:
        """Hash: '<table>/<day>' -> a person's acknowledgement of that comparison's
        difference (journaled: table_counts_acknowledged)."""
        return f"{self.tag}/table_acks"

    @property
    def voids(self) -> str:
        """Hash: '<table>/<round>' -> what is void of the round, and a void awaiting approval."""
        return f"{self.tag}/voids"

    @property
    def signs(self) -> str:
        """Hash: sign id -> its definition (JSON)."""
        return f"{self.tag}/signs"

    @property
    def activity(self) -> str:
        """Stream: a capped copy of the operators' journaled steps, for the console."""
        return f"{self.tag}/activity"

    @property
    def archive_lock(self) -> str:
        return f"{self.tag}/archive/lock"

    @property
    def archive_status(self) -> str:
        """hash: the archiver's last run, last success, and archived seq per journal"""
        return f"{self.tag}/archive/status"

    @property
    def controller(self) -> str:
        """Hash: the latest self-check's state (operable|inoperable), problems and since."""
        return f"{self.tag}/controller"

    @property
    def exports(self) -> str:
        return f"{self.tag}/exports"
