"""Every Redis key the controller uses. All share one {hash tag}, so one script can touch
any of them and the same code runs on Redis Cluster (one controller = one slot).

Identifiers may contain `:` but never `/`, so `/` separates the parts unambiguously.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Keys:
    namespace: str = "jackpot"

    @property
    def tag(self) -> str:
        return "{" + self.namespace + "}"

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
    def payouts(self) -> str:
        return f"{self.tag}/payouts"

    @property
    def payouts_pending(self) -> str:
        return f"{self.tag}/payouts/pending"

    @property
    def adjustments(self) -> str:
        return f"{self.tag}/adjustments"

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
