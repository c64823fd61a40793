"""The controller's HTTP API as the operator's commands call it, and what those commands share:
the common options, the key, the error line and the exit codes.

`jackpot pools|tables|payouts|journal` talk HTTP (httpx) to a running controller; they never
open the store. Every one of them takes the options of `common()` and exits with

  0  done
  1  the controller refused the request: any 4xx (bad input, an unknown id, a clash with
     its state, a missing, wrong or revoked key, a role that may not do it); stderr has
     `jackpot <command>: <code>: <message> (field: <field>)` from the API's error body
  2  bad usage: an unknown option or value, nothing to change, an unreadable key file, an
     output file that cannot be written, a malformed JACKPOT_* variable
  3  the controller could not be reached, did not answer within --timeout, or failed (5xx,
     or an answer that is not the API's JSON)
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import textwrap
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import quote
from zoneinfo import ZoneInfo

import httpx

from jackpot import __version__
from jackpot.settings import Settings

# The client's own variables: where the controller is and the key to it. They are not the
# controller's settings (jackpot/settings/), so they are read here.
URL_VARIABLE = "JACKPOT_URL"
KEY_VARIABLE = "JACKPOT_KEY"
KEY_FILE_VARIABLE = "JACKPOT_KEY_FILE"
# the operator key `war-floor demo` (./dev run) leaves in its data directory while it runs
CONSOLE_KEY_FILE = "console.key"

REFUSED, USAGE, UNREACHABLE = 1, 2, 3

EPILOG = f"""\
The controller is --url, else ${URL_VARIABLE}, else http:// + $JACKPOT_BIND, else
http://127.0.0.1:8000 (what `./dev run` serves). The key is --key, else the first line of
--key-file, else ${KEY_VARIABLE}, else the first line of ${KEY_FILE_VARIABLE} (else of the
demo's $JACKPOT_DATA_DIR/{CONSOLE_KEY_FILE}, which `./dev run` writes while it runs); public reads
need none. Money is in cents (100000 = $1,000.00), rates in basis points (400 = 4.00%);
times show in $JACKPOT_TIME_ZONE (default UTC).

exit status:
  0  done
  1  the controller refused it (4xx: bad input, unknown id, state clash, missing or
     wrong key, a role that may not do it); stderr names the error code and the field
  2  bad usage (options, an unreadable key file or output file, a malformed
     JACKPOT_* variable)
  3  the controller could not be reached, timed out or failed (5xx)
"""

Action = Callable[["Controller", argparse.Namespace], int]


class RemoteError(Exception):
    """A command that cannot finish; `exit_code` is what the process exits with."""

    exit_code = UNREACHABLE

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UsageError(RemoteError):
    exit_code = USAGE


class Unreachable(RemoteError):
    """No answer, or a failure of the controller's own (5xx, not its JSON)."""


class Refused(RemoteError):
    """A 4xx: the API's error body, its code, message and the field at fault."""

    exit_code = REFUSED

    def __init__(self, status: int, code: str, message: str, field: str | None) -> None:
        super().__init__(f"{code}: {message}" + (f" (field: {field})" if field else ""))
        self.status, self.code, self.field = status, code, field


def common() -> argparse.ArgumentParser:
    """The options of every remote command, as an argparse parent."""
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--url", help=f"the controller's base URL (default ${URL_VARIABLE}, see below)")
    p.add_argument(
        "--key",
        help=f"the API key (default ${KEY_VARIABLE}; a key on the command line shows in "
        "the process list: prefer the variable or --key-file)",
    )
    p.add_argument(
        "--key-file",
        type=Path,
        metavar="FILE",
        help=f"read the key from the first line of FILE (default ${KEY_FILE_VARIABLE}, else "
        f"the demo's $JACKPOT_DATA_DIR/{CONSOLE_KEY_FILE} while it runs)",
    )
    p.add_argument(
        "--json", action="store_true", help="print the API's JSON answer instead of a table"
    )
    p.add_argument(
        "--timeout",
        type=seconds,
        default=10.0,
        metavar="SECONDS",
        help="how long to wait for an answer (default 10)",
    )
    return p


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("must be a number of seconds") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError("must be more than 0 seconds")
    return value


COMMON = common()


def add_command(
    group: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    action: Action,
    help: str,
    description: str | None = None,
) -> argparse.ArgumentParser:
    """A remote subcommand: the common options, the exit codes in its help, `action` run."""
    p = group.add_parser(
        name,
        help=help,
        description=textwrap.fill(description or help, 88),
        parents=[COMMON],
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    prog = p.prog

    def run(args: argparse.Namespace) -> int:
        try:
            with Controller.from_args(args) as api:
                return action(api, args)
        except RemoteError as exc:
            print(f"{prog}: {exc.message}", file=sys.stderr)
            return exc.exit_code
        except BrokenPipeError:  # the reader left (`| head`): stop quietly, as SIGPIPE would
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 128 + 13

    p.set_defaults(func=run)
    return p


def base_url(given: str | None, env: Mapping[str, str]) -> str:
    """--url, else $JACKPOT_URL, else the controller's own JACKPOT_BIND on this machine."""
    url = given or env.get(URL_VARIABLE, "").strip()
    if not url:
        bind = Settings.from_env(env).bind
        if bind.startswith("unix:"):
            raise UsageError(f"JACKPOT_BIND={bind!r} is a unix socket: name the URL with --url")
        host, _, port = bind.rpartition(":")
        if host in ("0.0.0.0", "", "[::]"):  # listening everywhere: reach it on loopback
            host = "127.0.0.1"
        url = f"{host}:{port}"
    if "://" not in url:
        url = f"http://{url}"
    if not url.startswith(("http://", "https://")):
        raise UsageError(f"the controller's URL must be http:// or https://, not {url!r}")
    return url.rstrip("/")


def api_key(given: str | None, key_file: Path | None, env: Mapping[str, str]) -> str | None:
    """--key, else --key-file, else $JACKPOT_KEY, else $JACKPOT_KEY_FILE, else the demo's
    console key in the data directory ($JACKPOT_DATA_DIR/console.key, while `./dev run`
    runs); None: no key."""
    if given:
        return given.strip()
    if key_file is None:
        if env.get(KEY_VARIABLE, "").strip():
            return env[KEY_VARIABLE].strip()
        key_file = _key_file_of(env)
        if key_file is None:
            return None
    return _read_key(key_file)


def _key_file_of(env: Mapping[str, str]) -> Path | None:
    """$JACKPOT_KEY_FILE, else the demo's console key file if it is there."""
    named = env.get(KEY_FILE_VARIABLE, "").strip()
    if named:
        return Path(named)
    embedded = Settings.from_env(env).data_dir / CONSOLE_KEY_FILE
    return embedded if embedded.is_file() else None


def _read_key(key_file: Path) -> str:
    """The key on a key file's first line."""
    try:
        lines = key_file.read_text().splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read the key file {key_file}: {exc}") from None
    if not lines or not lines[0].strip():
        raise UsageError(f"the key file {key_file} has no key on its first line")
    return lines[0].strip()


def time_zone() -> ZoneInfo:
    """The casino's time zone, as the controller's JACKPOT_TIME_ZONE names it."""
    return ZoneInfo(Settings.from_env().time_zone)


def segment(text: str) -> str:
    """One path segment, escaped: an id with a `/` stays one segment (and is refused)."""
    return quote(text, safe="")


def emit_json(answer: Any) -> None:
    print(json.dumps(answer, indent=2, ensure_ascii=False))


def reply(args: argparse.Namespace, answer: Any, text: Callable[[Any], str]) -> int:
    """Print the API's answer: its JSON with --json, else `text(answer)` for people."""
    if args.json:
        emit_json(answer)
    else:
        print(text(answer))
    return 0


class Controller(AbstractContextManager["Controller"]):
    """One controller's API over one HTTP connection pool."""

    def __init__(self, url: str, key: str | None, timeout: float) -> None:
        headers = {"User-Agent": f"jackpot-cli/{__version__}", "Accept": "application/json"}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        self.url = url
        self.has_key = bool(key)
        self.timeout = timeout
        self._http = httpx.Client(base_url=url, headers=headers, timeout=timeout)

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> Controller:
        env = os.environ
        return cls(base_url(args.url, env), api_key(args.key, args.key_file, env), args.timeout)

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._http.close()

    def get(self, path: str, params: Mapping[str, str | int] | None = None) -> Any:
        return self._call("GET", path, params=params)

    def put(self, path: str, body: Mapping[str, Any]) -> Any:
        return self._call("PUT", path, body=body)

    def post(self, path: str, body: Mapping[str, Any] | None = None) -> Any:
        """POST `body` as JSON; None (or nothing given) sends no body at all."""
        return self._call("POST", path, body=body or None)

    @contextmanager
    def stream(self, path: str, params: Mapping[str, str | int]) -> Iterator[Iterator[bytes]]:
        """A GET whose answer is read as it arrives (a CSV export)."""
        try:
            with self._http.stream("GET", path, params=params) as response:
                if not response.is_success:
                    response.read()
                    self._answer(response)
                yield self._chunks(response)
        except httpx.TransportError as exc:
            raise self._unreachable(exc) from None

    def _chunks(self, response: httpx.Response) -> Iterator[bytes]:
        try:
            yield from response.iter_bytes()
        except httpx.TransportError as exc:
            raise self._unreachable(exc) from None

    def _call(
        self,
        method: str,
        path: str,
        params: Mapping[str, str | int] | None = None,
        body: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            response = self._http.request(method, path, params=params, json=body)
        except httpx.TransportError as exc:
            raise self._unreachable(exc) from None
        return self._answer(response)

    def _answer(self, response: httpx.Response) -> Any:
        """The API's JSON answer; a refusal of a call made without a key says so."""
        try:
            return _answer(response, self.url)
        except Refused as exc:
            if exc.status == 401 and not self.has_key:
                exc.message += f"; no key was given (--key, --key-file or ${KEY_VARIABLE})"
            raise

    def _unreachable(self, exc: httpx.TransportError) -> Unreachable:
        if isinstance(exc, httpx.TimeoutException):
            return Unreachable(
                f"no answer from the controller at {self.url} within {self.timeout:g} s"
            )
        reason = re.sub(r"^\[Errno -?\d+\] ", "", str(exc)) or type(exc).__name__
        if isinstance(exc, httpx.ConnectError):
            return Unreachable(
                f"cannot reach the controller at {self.url}: {reason} "
                f"(is it running? --url or ${URL_VARIABLE} names it)"
            )
        return Unreachable(f"lost the connection to the controller at {self.url}: {reason}")


def _answer(response: httpx.Response, url: str) -> Any:
    """The answer's JSON, or the RemoteError its status and error body make."""
    try:
        data = response.json()
    except ValueError:
        data = None
    if response.is_success:
        if data is None:
            raise Unreachable(f"{url} answered {response.status_code} without the API's JSON")
        return data
    raise _failure(response, data)


def _failure(response: httpx.Response, data: Any) -> RemoteError:
    """The RemoteError a failed answer's status and error body make: refused (4xx) or the
    controller failing."""
    error = data.get("error") if isinstance(data, dict) else None
    if isinstance(error, dict) and "code" in error:
        code, message, field = str(error["code"]), str(error.get("message", "")), error.get("field")
    else:
        code, message, field = f"http_{response.status_code}", response.reason_phrase, None
    if 400 <= response.status_code < 500:
        return Refused(response.status_code, code, message, field and str(field))
    return Unreachable(f"the controller failed ({response.status_code}): {code}: {message}")
