"""The tests' own PostgreSQL starts, serves fresh databases, and survives a kill."""

from __future__ import annotations

import psycopg

from tests.support.postgres_server import PostgresServer


def plain(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://")


def test_a_fresh_database_is_usable_and_survives_a_kill(
    postgres_server: PostgresServer, postgres_url: str
) -> None:
    with psycopg.connect(plain(postgres_url), autocommit=True) as c:
        c.execute("CREATE TABLE t (n int)")
        c.execute("INSERT INTO t VALUES (1), (2)")
    postgres_server.kill()
    postgres_server.start()
    with psycopg.connect(plain(postgres_url)) as c:
        assert c.execute("SELECT sum(n) FROM t").fetchone() == (3,)
