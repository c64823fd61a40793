"""`war-floor reports`: an operator lists an adapter journal's reports and requeues the
quarantined or rejected ones, through the real command and a real journal file."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from table_adapter.cli import main
from table_adapter.link.journal import Journal, State

CLOSED = json.dumps(
    {
        "error": {
            "code": "progressive_closed",
            "message": "pool 'main' is suspended",
            "field": "spots",
        }
    }
)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    """A journal: r1 acked, r2 quarantined (progressive closed), r3 rejected, r4 pending."""
    file = tmp_path / "T1.journal"
    with Journal(file) as journal:
        for i in range(1, 5):
            journal.append("T1", f"r{i}", "{}", i)
        journal.settle(1, State.ACKED, 200, "{}", 10)
        journal.settle(2, State.QUARANTINED, 409, CLOSED, 11)
        bad = json.dumps({"error": {"code": "unknown_card", "message": "1x?", "field": "spots"}})
        journal.settle(3, State.REJECTED, 400, bad, 12)
    return file


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    from table_adapter.cli import reports as reports_cmd

    code = reports_cmd.main(list(argv), out)
    return code, out.getvalue()


def test_it_lists_the_reports_and_why_they_were_refused(path: Path) -> None:
    code, text = run(str(path))
    assert code == 0
    lines = text.splitlines()
    assert len(lines) == 4
    assert lines[0].split() == ["1", "T1", "r1", "acked", "(HTTP", "200)"]
    assert "r2 quarantined: the progressive was closed" in lines[1]
    assert "r3 rejected: HTTP 400 unknown_card: 1x?" in lines[2]
    assert lines[3].split() == ["4", "T1", "r4", "pending"]
    code, text = run(str(path), "--state", "quarantined", "--json")
    (row,) = [json.loads(line) for line in text.splitlines()]
    assert (row["seq"], row["round"], row["state"], row["status"]) == (2, "r2", "quarantined", 409)


def test_it_requeues_what_an_operator_names_and_refuses_the_rest(path: Path) -> None:
    code, text = run(str(path), "--requeue", "2", "3")
    assert code == 0 and "r2 requeued (was quarantined)" in text
    with Journal(path) as journal:
        assert [e.round for e in journal.pending("T1")] == ["r2", "r3", "r4"]
    assert run(str(path), "--requeue", "1")[0] == 1, "an acked report stays acked"
    assert run(str(path), "--requeue", "99")[0] == 1
    with Journal(path) as journal:
        assert journal.get(1).state is State.ACKED


def test_it_runs_as_war_floor_reports(path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", "from table_adapter.cli import main; raise SystemExit(main())",
         "reports", str(path), "--state", "rejected"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().split()[:4] == ["3", "T1", "r3", "rejected:"]
    with pytest.raises(SystemExit) as exited:
        main(["reports", str(path.parent / "missing.journal")])
    assert exited.value.code == 2


def test_an_operator_journals_a_void_for_the_next_adapter_to_send(path: Path) -> None:
    args = [str(path), "--void", "T1", "r1", "--reason", "no card dealt", "--spot", "3"]
    code, text = run(*args)
    assert code == 0
    assert run(*args)[0] == 0, "asked twice: journaled once"
    with Journal(path) as journal:
        [void] = [e for e in journal.pending("T1") if e.void_of == "r1"]
    assert json.loads(void.body) == {"reason": "no card dealt", "spots": [3]}
    assert text.strip() == f"seq {void.seq}: T1 r1/void/3 pending"
    assert run(str(path), "--void", "T1", "r9", "--reason", "x")[0] == 1
