"""The controller as war-floor meets it when none is given: started here (jackpot.cli.local),
with the settings, keys and sign process the floor and its demo need.

This is the one module of the table side that reaches the controller's code beyond
jackpot.domain (the import contract in pyproject.toml names it): the command line's types and
signal handling, the embedded controller and its sign process, a free port, the settings and
the controller's errors. Everything else of table_adapter meets the controller over HTTP.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from jackpot.cli.argtypes import non_negative, positive
from jackpot.cli.local import local_controller, sign_process
from jackpot.cli.main import exit_on_sigterm
from jackpot.cli.remote import CONSOLE_KEY_FILE
from jackpot.domain.auth import digest, key_id_of
from jackpot.errors import JackpotError as ControllerError
from jackpot.settings import Settings
from jackpot.store.embedded import free_port

__all__ = [
    "CONSOLE_KEY_FILE",
    "ControllerError",
    "Settings",
    "exit_on_sigterm",
    "local_controller",
    "non_negative",
    "operator_key",
    "positive",
    "settings",
    "sign_process",
]


def settings(data_dir: Path, on_free_port: bool = False) -> Settings:
    """The controller's settings from the environment, its data under `data_dir`; on a free
    port of this host when asked (war-floor's own controller), else on JACKPOT_BIND (the
    demo, where the README sends people)."""
    found = replace(Settings.from_env(), data_dir=data_dir)
    return replace(found, bind=f"127.0.0.1:{free_port()}") if on_free_port else found


def register_person(store: str, person: str, name: str) -> None:
    """Register a person on `store` (`jackpot people add`; as they are already: nothing)."""
    env = {**os.environ, "JACKPOT_REDIS_URL": store}
    subprocess.run(
        [sys.executable, "-m", "jackpot.cli.main", "people", "add", person, "--name", name],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )


@contextmanager
def operator_key(store: str, person: str, name: str) -> Iterator[str]:
    """A new operator key on `store` issued to the person `person` (registered as `name` if
    need be: `jackpot people add`, `jackpot keys create`), revoked when the demo ends."""
    env = {**os.environ, "JACKPOT_REDIS_URL": store}
    cli = [sys.executable, "-m", "jackpot.cli.main"]
    jackpot = [*cli, "keys"]
    register_person(store, person, name)
    done = subprocess.run(
        [*jackpot, "create", "--role", "operator", "--person", person],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    secret = done.stdout.strip().splitlines()[-1]  # API.md: alone on the last line
    try:
        yield secret
    finally:
        # an operator key must not outlive the demo that holds it
        subprocess.run(
            [*jackpot, "revoke", key_id_of(digest(secret))],
            env=env,
            capture_output=True,
            timeout=60,
            check=False,
        )
