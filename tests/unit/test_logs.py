"""One log format for every process, and the round named on round-path lines."""

from __future__ import annotations

import io
import logging
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from jackpot import logs
from jackpot.settings import Settings

ISO = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d"


@pytest.fixture
def lines() -> Iterator[io.StringIO]:
    """A private logger written through the Formatter and RoundFilter."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logs.Formatter())
    handler.addFilter(logs.RoundFilter())
    logger = logging.getLogger("jackpot.test_logs")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    yield out
    logger.removeHandler(handler)


def test_a_line_has_an_iso_time_the_level_the_pid_and_the_logger(lines: io.StringIO):
    logging.getLogger("jackpot.test_logs").info("hello %s", "there")
    assert re.fullmatch(
        rf"{ISO} INFO pid={os.getpid()} jackpot\.test_logs: hello there\n", lines.getvalue()
    )


def test_lines_inside_a_round_name_its_table_and_round_and_no_later_ones(lines: io.StringIO):
    log = logging.getLogger("jackpot.test_logs")
    with logs.round_scope():
        logs.tag_round("T1", "r-7")
        log.warning("store unavailable")
    log.warning("after")
    first, second = lines.getvalue().splitlines()
    assert first.endswith(
        f"WARNING pid={os.getpid()} jackpot.test_logs: store unavailable table=T1 round=r-7"
    )
    assert second.endswith("jackpot.test_logs: after")


def test_ids_that_could_forge_a_line_are_not_shown(lines: io.StringIO):
    with logs.round_scope():
        logs.tag_round("T1\n2026-01-01 INFO forged", 7)
        logging.getLogger("jackpot.test_logs").error("oops")
    assert lines.getvalue().endswith("oops table=? round=?\n")


def configured(settings: Settings, code: str) -> subprocess.CompletedProcess[str]:
    """Run `code` in a fresh interpreter after logs.configure(settings)."""
    script = (
        "import logging\n"
        "from pathlib import Path\n"
        "from jackpot import logs\n"
        "from jackpot.settings import Settings\n"
        f"logs.configure(Settings.from_env({settings.to_env()!r}))\n{code}"
    )
    return subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )


def test_configure_keeps_the_apps_info_lines_and_quiets_libraries_and_rq_s_routine():
    script = (
        "logging.getLogger('jackpot.api').info('app info')\n"
        "logging.getLogger('rq.worker').info('default: Job OK (1234)')\n"
        "logging.getLogger('rq.worker').warning('worker warning')\n"
        "logging.getLogger('rq.worker').error('job failed')\n"
        "logging.getLogger('httpx').info('library info')\n"
        "logging.getLogger('httpx').warning('library warning')\n"
        "logging.getLogger('jackpot.api').debug('app debug')\n"
    )
    done = configured(Settings(), script)
    assert done.stdout == ""
    err = done.stderr.splitlines()
    # RQ's INFO lines are routine chatter (issue 27, part 4): DEBUG, so not shown at INFO
    assert [line.split(": ", 1)[1] for line in err] == [
        "app info",
        "worker warning",
        "job failed",
        "library warning",
    ]
    assert all(
        re.match(rf"{ISO} (INFO|WARNING|ERROR) pid=\d+ (jackpot\.api|rq\.worker|httpx): ", x)
        for x in err
    )
    # at DEBUG they are shown, as what they are
    loud = configured(Settings(log_level="debug"), script).stderr.splitlines()
    assert [x for x in loud if "Job OK" in x] and all(
        " DEBUG pid=" in x for x in loud if "Job OK" in x
    )


def test_the_log_level_applies_to_the_app_and_gunicorn():
    done = configured(
        Settings(log_level="warning"),
        "logging.getLogger('jackpot.api').info('app info')\n"
        "logging.getLogger('gunicorn.error').info('gunicorn info')\n"
        "logging.getLogger('gunicorn.error').warning('gunicorn warning')\n",
    )
    assert [line.split(": ", 1)[1] for line in done.stderr.splitlines()] == ["gunicorn warning"]


def test_the_access_log_is_off_unless_asked_for(tmp_path: Path):
    access = "logging.getLogger('gunicorn.access').info('GET /healthz 200')\n"
    assert configured(Settings(), access).stdout == ""
    assert "GET /healthz 200" in configured(Settings(access_log="-"), access).stdout
    path = tmp_path / "access.log"
    configured(Settings(access_log=str(path)), access)
    assert re.fullmatch(
        rf"{ISO} INFO pid=\d+ gunicorn\.access: GET /healthz 200\n", path.read_text()
    )
