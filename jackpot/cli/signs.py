"""`jackpot signs`: the sign process (the pages at /signs/{sign} and their event streams)."""

from __future__ import annotations

import argparse
import logging
import os

from jackpot.cli import serve
from jackpot.cli.runtime import store_url
from jackpot.cli.serve import supervise
from jackpot.settings import Settings, redacted

log = logging.getLogger("jackpot.cli")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("signs", help="serve the progressive signs (pages and event streams)")
    p.add_argument("--bind", help="address:port (default JACKPOT_SIGNS_BIND or 127.0.0.1:8001)")
    p.set_defaults(func=run)


def gunicorn_command() -> list[str]:
    return serve.gunicorn_command("signs_gunicorn_conf.py", "jackpot.entrypoints.signs_wsgi:app")


def run(args: argparse.Namespace) -> int:
    if args.bind:
        os.environ["JACKPOT_SIGNS_BIND"] = args.bind
    settings = Settings.from_env()
    with store_url(settings) as url:
        log.info("store %s; signs on http://%s/signs/", redacted(url), settings.signs_bind)
        env = {**os.environ, **settings.to_env(), "JACKPOT_REDIS_URL": url}
        return supervise(gunicorn_command(), env)
