"""`jackpot people` on a real redis-server, run as the administrator runs it on the
controller's machine: registering, deactivating (the person's keys revoked in the same step),
and the upgrade's one command that moves keys made before the register to their people or
refuses to move any (D234)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis as redis_lib

from jackpot.bootstrap import Services, bootstrap
from jackpot.cli.main import main
from jackpot.domain.auth import Role
from jackpot.settings import Settings
from tests.support.redis_server import RedisServer


@pytest.fixture
def store(
    redis_server: RedisServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Services]:
    with redis_lib.Redis.from_url(redis_server.url) as r:
        r.flushall()
    monkeypatch.setenv("JACKPOT_REDIS_URL", redis_server.url)
    monkeypatch.setenv("JACKPOT_DATA_DIR", str(tmp_path / "var"))
    built = bootstrap(Settings.from_env(), redis_server.url)
    yield built
    built.close()


def run(*argv: str) -> int:
    return main(list(argv))


def old_key(services: Services, role: Role, label: str) -> str:
    """A key as `keys create --label` made them before the register: issued to nobody."""
    made = services.credentials._store.create(f"jpk_{label}-{role.value}", role, frozenset(),
                                               label)  # fmt: skip
    assert not isinstance(made, str)
    return made.key_id


def test_the_administrator_registers_people_and_issues_them_keys(
    store: Services, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run("people", "add", "e1042", "--name", "Dana Reyes", "--position", "supervisor") == 0
    assert "registered Dana Reyes (E1042)" in capsys.readouterr().out
    assert run("people", "add", "E1042", "--name", "Dana Reyes", "--position", "supervisor") == 0
    assert run("people", "add", "E7000", "--name", "DANA REYES") == 2
    refused = capsys.readouterr().err
    assert "Dana Reyes (E1042)" in refused and "--different-person" in refused
    assert run("people", "add", "E7001", "--name", "Dana\u3164Reyes") == 2
    assert "U+3164" in capsys.readouterr().err
    assert run("keys", "create", "--role", "operator") == 2
    assert "--person" in capsys.readouterr().err
    assert run("keys", "create", "--role", "operator", "--person", "E9999") == 2
    assert run("keys", "create", "--role", "operator", "--person", "e1042") == 0
    out = capsys.readouterr().out
    assert "issued to E1042" in out and out.strip().splitlines()[-1].startswith("jpk_")
    assert run("people", "deactivate", "E1042", "--reason", "badge lost") == 0
    assert "keys revoked" in capsys.readouterr().out
    assert all(revoked for key, revoked in store.credentials.list() if key.person == "E1042")
    assert run("people", "list", "--all") == 0
    listing = capsys.readouterr().out
    assert "E1042" in listing and "inactive" in listing
    assert run("keys", "create", "--role", "auditor", "--person", "E1042") == 2


def test_migrate_moves_every_old_key_to_its_person_or_none(
    store: Services, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dana = old_key(store, Role.OPERATOR, "Dana Reyes")
    lee = old_key(store, Role.OPERATOR, "lee park")  # typed in another case back then
    audit = old_key(store, Role.AUDITOR, "Internal audit")
    old_key(store, Role.TABLE, "T1 adapter")  # a device's: nobody's, left alone
    staff = tmp_path / "staff.csv"
    staff.write_text("id,name,position\nE1042,Dana Reyes,supervisor\nE2207,Lee Park,supervisor\n")
    # one key names nobody in the file: nothing changes, and it says what to do
    assert run("people", "migrate", "--from", str(staff)) == 2
    err = capsys.readouterr().err
    assert "nothing changed" in err and audit in err and f"--assign {audit}=ID" in err
    assert store.people.everyone() == []
    assert not any(k.person for k, _ in store.credentials.list())
    # a name in the file confusable with another's: refused as a whole too
    bad = tmp_path / "bad.csv"
    bad.write_text("id,name\nE1042,Dana Reyes\nE1043,D\u0430na Reyes\nA0007,Priya Shah\n")
    assert run("people", "migrate", "--from", str(bad), "--assign", f"{audit}=A0007") == 2
    assert "E1043" in capsys.readouterr().err and store.people.everyone() == []
    # with the auditor's key assigned: a dry run says it, then it is done
    staff.write_text(staff.read_text() + "A0007,Priya Shah,accounting\n")
    args = ("people", "migrate", "--from", str(staff), "--assign", f"{audit}=a0007")
    assert run(*args, "--dry-run") == 0
    planned = capsys.readouterr().out
    assert f"key {dana} ('Dana Reyes') -> E1042" in planned and "dry run" in planned
    assert store.people.everyone() == []
    assert run(*args) == 0
    held = {k.key_id: k.person for k, _ in store.credentials.list()}
    assert (held[dana], held[lee], held[audit]) == ("E1042", "E2207", "A0007")
    journal = [e.fields for e in store.audit.journal(None, 0, 100)]
    assigned = [e for e in journal if e["type"] == "key_assigned"]
    assert {e["key"] for e in assigned} == {dana, lee, audit}
    # run again: nothing left to move, nothing changes
    assert run(*args[:4]) == 0
    assert "gave 0 keys" in capsys.readouterr().out


def test_migrate_refuses_a_look_alike_name_and_an_inactive_person_before_writing(
    store: Services, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The examiner's finds (issue 38): a key labelled "Kim Burns" was given to Kim Bums, a
    name only confusable with it; an --assign to an inactive person passed the dry run and
    stopped the real run half way, after registering people and assigning keys."""
    burns = old_key(store, Role.OPERATOR, "Kim Burns")
    noor = old_key(store, Role.OPERATOR, "noor haddad")
    store.people.register("E5000", "Noor Haddad")
    store.people.deactivate("E5000", "left")
    staff = tmp_path / "staff.csv"
    staff.write_text("id,name\nM0002,Kim Bums\nM0003,Dara Lee\n")
    for dry in (("--dry-run",), ()):
        assert run("people", "migrate", "--from", str(staff), "--assign", f"{noor}=E5000",
                   *dry) == 2  # fmt: skip
        err = capsys.readouterr().err
        assert f"key {burns} (label 'Kim Burns') looks like M0002's name but is not it" in err
        assert f"--assign {noor}=E5000: E5000 is not an active person" in err
    assert [p.id for p in store.people.everyone()] == ["E5000"]
    assert not any(k.person for k, _ in store.credentials.list())
