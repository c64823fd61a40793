"""One frozen Settings, read from JACKPOT_* variables; every variable's name is here."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Settings:
    redis_url: str | None = None  # None: the embedded default store under data_dir
    data_dir: Path = Path("var")
    bind: str = "127.0.0.1:8000"
    namespace: str = "jackpot"  # the {hash tag} of every key
    workers: int = 2
    threads: int = 8
    offline_after_seconds: int = 30
    key_cache_seconds: float = 5.0
    redis_timeout_seconds: float = 2.0
    metrics_dir: Path | None = None  # prometheus multiprocess dir; default under data_dir
    queue: str = "jackpot"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        data_dir = Path(env.get("JACKPOT_DATA_DIR", "var"))
        metrics = env.get("JACKPOT_METRICS_DIR") or env.get("PROMETHEUS_MULTIPROC_DIR")
        return cls(
            redis_url=env.get("JACKPOT_REDIS_URL") or None,
            data_dir=data_dir,
            bind=env.get("JACKPOT_BIND", "127.0.0.1:8000"),
            namespace=env.get("JACKPOT_NAMESPACE", "jackpot"),
            workers=int(env.get("JACKPOT_WORKERS", "2")),
            threads=int(env.get("JACKPOT_THREADS", "8")),
            offline_after_seconds=int(env.get("JACKPOT_OFFLINE_AFTER_SECONDS", "30")),
            key_cache_seconds=float(env.get("JACKPOT_KEY_CACHE_SECONDS", "5")),
            redis_timeout_seconds=float(env.get("JACKPOT_REDIS_TIMEOUT_SECONDS", "2")),
            metrics_dir=Path(metrics) if metrics else None,
            queue=env.get("JACKPOT_QUEUE", "jackpot"),
        )

    def to_env(self) -> dict[str, str]:
        """The variables that reproduce these settings in a child process."""
        env = {
            "JACKPOT_DATA_DIR": str(self.data_dir),
            "JACKPOT_BIND": self.bind,
            "JACKPOT_NAMESPACE": self.namespace,
            "JACKPOT_WORKERS": str(self.workers),
            "JACKPOT_THREADS": str(self.threads),
            "JACKPOT_OFFLINE_AFTER_SECONDS": str(self.offline_after_seconds),
            "JACKPOT_KEY_CACHE_SECONDS": str(self.key_cache_seconds),
            "JACKPOT_REDIS_TIMEOUT_SECONDS": str(self.redis_timeout_seconds),
            "JACKPOT_QUEUE": self.queue,
        }
        if self.redis_url:
            env["JACKPOT_REDIS_URL"] = self.redis_url
        if self.metrics_dir:
            env["JACKPOT_METRICS_DIR"] = str(self.metrics_dir)
        return env
