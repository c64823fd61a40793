"""What a browser may do with each answer: its Content-Security-Policy, X-Frame-Options and
X-Content-Type-Options (docs/DECISIONS.md D244).

Every answer of the controller and of the sign process carries the three, the round reports'
hot path's too. An answer is allowed nothing (`NOTHING`) unless it is one of the pages
below, which may run their own scripts and styles from this origin and call it (the API, a
sign's event stream) and nothing more: no inline script or style, no other origin, no frame
around them. nginx (deploy/nginx/templates/jackpot.conf.template) adds NOTHING's three to
what it answers itself and to any answer that came without them.
"""

from __future__ import annotations

from flask import Flask, Response, request


def _policy(*directives: str) -> str:
    return "; ".join(directives)


# no fetch of any kind, no <base>, no form sent anywhere, never inside a frame
_LOCKED = ("base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'")

# JSON, event streams, errors, scripts and styles: nothing to run, nothing to load
NOTHING = _policy("default-src 'none'", *_LOCKED)
# the console, the day report and the meter page: their /static scripts and styles, and the
# API they call with fetch
PAGE = _policy(
    "default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", *_LOCKED
)
# a sign: a page that also reads its event stream (connect-src) and installs its worker
SIGN_PAGE = _policy(PAGE, "worker-src 'self'")
# the signs' service worker: a worker's policy is its script's; it fetches the sign's page
# and assets to keep them for a boot during an outage
SIGN_WORKER = _policy("default-src 'none'", "connect-src 'self'", *_LOCKED)

# the endpoints that answer something other than NOTHING, by Flask endpoint name
POLICIES = {
    "health.display": PAGE,
    "console.page": PAGE,
    "console.day_report": PAGE,
    "signpage.page": SIGN_PAGE,
    "signpage.service_worker": SIGN_WORKER,
}


def headers(policy: str = NOTHING) -> tuple[tuple[str, str], ...]:
    """The three headers of an answer under `policy`."""
    return (
        ("Content-Security-Policy", policy),
        ("X-Frame-Options", "DENY"),
        ("X-Content-Type-Options", "nosniff"),
    )


# what the round reports' hot path adds to each answer, made once
API_HEADERS = headers()


def register(app: Flask) -> None:
    """Give every answer of `app` its headers (the API's and the sign process's apps)."""

    @app.after_request
    def secure(response: Response) -> Response:
        policy = POLICIES.get(request.endpoint or "", NOTHING)
        for name, value in headers(policy):
            response.headers[name] = value
        return response
