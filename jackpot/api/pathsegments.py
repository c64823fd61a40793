"""A request's path, before it is routed: each segment is a name (docs/DECISIONS.md D245).

The WSGI server decodes the path before the app sees it (gunicorn's PATH_INFO, as Werkzeug's),
so `PUT /v1/pools/%2F/game` arrives as `/v1/pools///game`; Werkzeug's router merges the
slashes and answers 308 to `/v1/pools/game`, another resource, where a client sends its PUT
again. And `/v1/pools/main%2Fmeters` arrives as main's meters. So every request whose path
has a segment that holds a slash once decoded (`%2F`), or is empty (`//`, a trailing `/`),
`.` or `..` is refused with a 400 naming the segment, whatever route it would have reached:
no id may hold a slash or be empty, `.` or `..` (docs/API.md, "Identifiers").

Checked on the request target as the client wrote it (gunicorn's RAW_URI, Werkzeug's
REQUEST_URI) where the server gives it, else on the decoded path, which still shows empty and
dot segments.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote, urlsplit

from flask import Flask, request

from jackpot.errors import ValidationError

_DOTS = (".", "..")


def path_fault(environ: Mapping[str, Any]) -> ValidationError | None:
    """What is wrong with the request's path (a 400 naming its segment), or None."""
    written = _written_path(environ)
    if _plainly_names(written):
        return None  # nearly every request
    for number, segment in enumerate(written.split("/")[1:], start=1):
        what = _segment_fault(segment)
        if what is not None:
            return ValidationError("path", f"path segment {number} {what}", "invalid_path")
    return None


def _plainly_names(written: str) -> bool:
    """A path of plain names, seen at a glance: nothing encoded, no empty or dot segment."""
    return written == "/" or not (
        "%" in written or "//" in written or "/." in written or written.endswith("/")
    )


def _written_path(environ: Mapping[str, Any]) -> str:
    """The path as the client wrote it where the server gives it, else as decoded."""
    raw = environ.get("RAW_URI") or environ.get("REQUEST_URI")
    if not raw:
        return str(environ.get("PATH_INFO") or "/")
    written: str = raw.split("?", 1)[0]
    if not written.startswith("/"):  # the absolute form: http://host/path
        written = urlsplit(written).path or "/"
    return written


def _segment_fault(segment: str) -> str | None:
    """Why a path's segment is not a name, or None."""
    name = unquote(segment) if "%" in segment else segment
    if "/" in name:
        return f"{segment!r} holds a slash once decoded: no name in a path may"
    if name == "":
        return "is empty (a doubled or trailing slash)"
    if name in _DOTS:
        decoded = "" if name == segment else f" ({name!r} once decoded)"
        return f"{segment!r}{decoded} is not a name"
    return None


def register(app: Flask) -> None:
    """Refuse such a path before `app` routes it (the round reports' hot path, which answers
    before Flask, hands such a request on to it)."""

    @app.before_request
    def refuse_a_path_that_is_not_names() -> None:
        fault = path_fault(request.environ)
        if fault is not None:
            raise fault
