"""The use cases the in-process benches drive on a built `Services`, on this tree and on the
trees from before issue 41's router (item 3) that bench/compare.py measures with these same
bench scripts (every tree since 41b8605): pools and tables are put through `placement`
(before: `pools`, `tables`), a round is reported through `groups.report_round` (before:
`rounds.report`)."""

from __future__ import annotations

import io
import sys
from typing import Any


def put_pool(svc: Any, pool: str, body: Any, who: str) -> Any:
    placement = getattr(svc, "placement", None)
    if placement is None:
        return svc.pools.put(pool, body, who)
    return placement.put_pool(pool, body, who)


def put_table(svc: Any, table: str, body: Any, who: str) -> Any:
    placement = getattr(svc, "placement", None)
    if placement is None:
        return svc.tables.put(table, body, who)
    return placement.put_table(table, body, who)


def report_round(svc: Any, body: Any, key: Any, secret: str) -> dict[str, Any]:
    report = getattr(getattr(svc, "groups", None), "report_round", None)
    if report is None:
        return svc.rounds.report(body, key, secret)  # type: ignore[no-any-return]
    return report(body, key, secret)  # type: ignore[no-any-return]


def pool_state(svc: Any, pool: str) -> Any:
    return svc.groups.on_pool(pool, lambda g: g.pools).get(pool)


def http_app(settings: Any, url: str, svc: Any) -> Any:
    """The service's WSGI app over `svc`, as gunicorn serves it (its factory moved from
    jackpot.app to jackpot.entrypoints.app)."""
    try:
        from jackpot.entrypoints.app import create_app
    except ImportError:
        from jackpot.app import create_app  # type: ignore[no-redef]
    return create_app(settings, url, svc)


def post_round(app: Any, raw: bytes, secret: str) -> str:
    """`POST /v1/rounds` through the app's WSGI callable, as gunicorn calls it; its status."""
    environ = {
        "REQUEST_METHOD": "POST", "PATH_INFO": "/v1/rounds", "RAW_URI": "/v1/rounds",
        "SCRIPT_NAME": "", "QUERY_STRING": "", "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000", "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "127.0.0.1",
        "CONTENT_TYPE": "application/json", "CONTENT_LENGTH": str(len(raw)),
        "HTTP_AUTHORIZATION": f"Bearer {secret}", "wsgi.input": io.BytesIO(raw),
        "wsgi.input_terminated": True, "wsgi.url_scheme": "http", "wsgi.errors": sys.stderr,
        "wsgi.multithread": False, "wsgi.multiprocess": True, "wsgi.run_once": False,
        "wsgi.version": (1, 0),
    }  # fmt: skip
    status: list[str] = []
    body = app(environ, lambda s, headers, exc_info=None: status.append(s))
    b"".join(body)
    return status[0]
