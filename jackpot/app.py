"""The application factory: the one composition root."""

from __future__ import annotations

import time

import redis
from flask import Flask, Response, g, request

from jackpot.api import errors, health, hotpath, journal, payouts, pools, reports, rounds, tables
from jackpot.api.body import MAX_BODY_BYTES
from jackpot.metrics import observe_request
from jackpot.services import Controller
from jackpot.settings import Settings
from jackpot.store.keys import Keys


def redis_client(url: str, settings: Settings, decode: bool = True) -> redis.Redis:
    """A client whose retried commands are safe: every money write is an idempotent script."""
    return redis.Redis.from_url(
        url,
        decode_responses=decode,
        socket_timeout=settings.redis_timeout_seconds,
        socket_connect_timeout=settings.redis_timeout_seconds,
        health_check_interval=30,
    )


def create_controller(settings: Settings, url: str) -> Controller:
    return Controller(
        client=redis_client(url, settings),
        rq_client=redis_client(url, settings, decode=False),
        queue_name=settings.queue,
        keys=Keys(settings.namespace),
        offline_after_seconds=settings.offline_after_seconds,
        key_cache_seconds=settings.key_cache_seconds,
    )


def create_app(settings: Settings | None = None, redis_url: str | None = None) -> Flask:
    """The Flask app over `redis_url` (default: the settings' JACKPOT_REDIS_URL)."""
    settings = settings or Settings.from_env()
    url = redis_url or settings.redis_url
    if url is None:
        raise RuntimeError(
            "no store: set JACKPOT_REDIS_URL, or start through `jackpot serve`, which runs the "
            "embedded store"
        )
    app = Flask(__name__, static_folder="api/static", static_url_path="/static")
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.config["JACKPOT_SETTINGS"] = settings
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    controller = create_controller(settings, url)
    app.extensions["jackpot"] = controller
    for blueprint in (
        health.bp,
        pools.bp,
        tables.bp,
        rounds.bp,
        journal.bp,
        payouts.bp,
        reports.bp,
    ):
        app.register_blueprint(blueprint)
    errors.register(app)

    @app.before_request
    def start_timer() -> None:
        g.started = time.perf_counter()

    @app.after_request
    def observe(response: Response) -> Response:
        endpoint = request.url_rule.rule if request.url_rule else "unmatched"
        started = g.get("started", time.perf_counter())
        observe_request(
            request.method, endpoint, response.status_code, time.perf_counter() - started
        )
        return response

    hotpath.mount(app, controller)
    return app
