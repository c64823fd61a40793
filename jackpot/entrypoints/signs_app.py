"""The sign process's application: the sign pages and their event streams, over the store.

It reads the store only (meters, pools, tables, hits, sign definitions) and writes nothing:
a sign process can be added, restarted or lost without touching the money.
"""

from __future__ import annotations

import logging
from pathlib import Path

from flask import Flask

from jackpot.api import errors, pathsegments, securityheaders, signpage
from jackpot.api.signfeed import Fanout
from jackpot.api.signlimits import Places, networks
from jackpot.bootstrap import bootstrap
from jackpot.settings import Settings

# the pages' files, in the api package beside this one
STATIC = str(Path(__file__).resolve().parent.parent / "api" / "static")

log = logging.getLogger("jackpot.signs")


def create_signs_app(settings: Settings | None = None, redis_url: str | None = None) -> Flask:
    settings = settings or Settings.from_env()
    url = redis_url or settings.store
    if url is None:
        raise RuntimeError("no store: set JACKPOT_REDIS_URL, or start through `jackpot signs`")
    services = bootstrap(settings, url)  # read only: every link group's pools and hits
    # the sign process authenticates its own files too: signs run by tampered software show
    # the progressive closed (the patrons cannot trust what they show)
    for problem in services.health.software.problems:
        log.error("signs: software not authentic, every sign shows closed: %s", problem)
    board = services.board
    app = Flask(__name__, static_folder=STATIC, static_url_path="/static")
    app.config["JACKPOT_SETTINGS"] = settings
    places = Places(settings.signs_max_connections, settings.signs_max_per_client)
    feed = Fanout(board, settings.signs_feed_ms / 1000, places)
    app.extensions["signs"] = feed
    app.extensions["signs_proxies"] = networks(settings.signs_trusted_proxies)
    app.register_blueprint(signpage.bp)
    errors.register(app)
    securityheaders.register(app)
    pathsegments.register(app)
    feed.start()
    return app
