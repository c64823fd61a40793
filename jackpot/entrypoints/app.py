"""The application factory: the Flask app over the use cases jackpot.bootstrap builds."""

from __future__ import annotations

import logging
import time
from pathlib import Path

from flask import Flask, Response, g, request

from jackpot import logs
from jackpot.api import (
    accounting,
    checkpoints,
    console,
    errors,
    health,
    hotpath,
    journal,
    pathsegments,
    payouts,
    people,
    pools,
    reconciliations,
    rounds,
    securityheaders,
    signs,
    tables,
)
from jackpot.api.body import MAX_BODY_BYTES
from jackpot.bootstrap import Services, bootstrap
from jackpot.errors import StoreUnavailableError
from jackpot.metrics import mark_started, observe_request
from jackpot.services.faults import STORE_DOWN
from jackpot.settings import Settings

# the pages' files, in the api package beside this one
STATIC = str(Path(__file__).resolve().parent.parent / "api" / "static")


def create_app(
    settings: Settings | None = None,
    redis_url: str | None = None,
    services: Services | None = None,
) -> Flask:
    """The Flask app over `services`, else over `redis_url` (default: the settings'
    JACKPOT_REDIS_URL)."""
    settings = settings or Settings.from_env()
    services = services or _services(settings, redis_url)
    app = Flask(__name__, static_folder=STATIC, static_url_path="/static")
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.config["JACKPOT_SETTINGS"] = settings
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    app.extensions["jackpot"] = services
    for blueprint in _BLUEPRINTS:
        app.register_blueprint(blueprint)
    errors.register(app)
    securityheaders.register(app)
    app.before_request(_start_timer)
    pathsegments.register(app)  # after the timer: a refused path is timed and logged too
    app.after_request(_observe)
    app.teardown_request(_end_request)
    hotpath.mount(app, services)
    try:
        services.health.run()  # before the first request: the software, the store, the meters
    except (*STORE_DOWN, StoreUnavailableError) as exc:  # again at the first request
        logging.getLogger("jackpot.selfcheck").warning("self-check deferred: %s", exc)
    mark_started(services.health.software.digest, services.health.software.crc32)
    return app


_BLUEPRINTS = (
    health.bp,
    pools.bp,
    tables.bp,
    rounds.bp,
    rounds.voids_bp,
    journal.bp,
    payouts.bp,
    people.bp,
    reconciliations.bp,
    accounting.bp,
    console.bp,
    signs.bp,
    checkpoints.bp,
)


def _services(settings: Settings, redis_url: str | None) -> Services:
    url = redis_url or settings.store
    if url is None:
        raise RuntimeError(
            "no store: set JACKPOT_REDIS_URL, or start through `jackpot serve`, which runs "
            "the embedded store"
        )
    return bootstrap(settings, url)


def _start_timer() -> None:
    g.started = time.perf_counter()
    g.request_id = logs.begin_request(request.headers.get("X-Request-Id"))


def _observe(response: Response) -> Response:
    endpoint = request.url_rule.rule if request.url_rule else "unmatched"
    seconds = time.perf_counter() - g.get("started", time.perf_counter())
    observe_request(request.method, endpoint, response.status_code, seconds)
    if "request_id" in g:
        response.headers["X-Request-Id"] = g.request_id
    logs.access_line(request.method, request.path, response.status_code, seconds)
    return response


def _end_request(_exc: BaseException | None) -> None:
    logs.end_request()
