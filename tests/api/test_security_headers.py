"""Every answer says what a browser may do with it (docs/DECISIONS.md D244): JSON, errors, the
round reports' hot path, static files and the pages each carry a Content-Security-Policy,
X-Frame-Options and X-Content-Type-Options, the pages a policy that runs their own files only;
and no page has an inline script or style for that policy to refuse. (That every page works
under its policy is shown in Chromium: tests/support/browser.py watches every browser test.)"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from jackpot.api import securityheaders, signpage
from jackpot.api.securityheaders import NOTHING, PAGE
from tests.support.api import Api, round_body

pytestmark = pytest.mark.one_store  # the headers are set whatever the store holds

STATIC = Path(securityheaders.__file__).resolve().parent / "static"
PAGES = sorted(STATIC.rglob("*.html"))


def secured(response: Any, policy: str) -> None:
    assert response.headers.get("Content-Security-Policy") == policy, response.headers
    assert response.headers.get("X-Frame-Options") == "DENY"
    assert response.headers.get("X-Content-Type-Options") == "nosniff"


def test_every_kind_of_answer_carries_the_headers_allowing_nothing(api: Api) -> None:
    api.put_pool()
    api.put_table()
    operator = api.keys.header("operator")
    answers = {  # what: (the answer, its status)
        "a round (the hot path)": (api.report(round_body("r1")), 200),
        "a round refused (the hot path)": (api.client.post("/v1/rounds", data=b"{"), 401),
        "a change": (
            api.client.post("/v1/pools/main/suspend", json={"reason": "t"}, headers=operator),
            200,
        ),
        "a public read": (api.client.get("/v1/pools"), 200),
        "a read with a key": (api.client.get("/v1/meters", headers=operator), 200),
        "a domain error": (api.client.get("/v1/pools/nowhere"), 404),
        "no such path": (api.client.get("/nowhere"), 404),
        "no key": (api.client.get("/v1/meters"), 401),
        "the metrics": (api.client.get("/metrics"), 200),
        "the schema": (api.client.get("/openapi.json"), 200),
        "a page's script": (api.client.get("/static/console.js"), 200),
    }
    for what, (response, status) in answers.items():
        assert response.status_code == status, (what, response.get_data(as_text=True))
        secured(response, NOTHING)
        response.close()  # a file's answer holds the file open until closed


@pytest.mark.parametrize("path", ["/", "/console", "/reports/day"])
def test_each_page_may_run_its_own_files_and_call_the_api_only(api: Api, path: str) -> None:
    response = api.client.get(path)
    assert response.status_code == 200 and response.mimetype == "text/html"
    secured(response, PAGE)
    response.close()
    assert "script-src 'self'" in PAGE and "unsafe" not in PAGE


def test_every_policy_is_given_to_an_endpoint_that_exists(app: Flask) -> None:
    signs = Flask(__name__)  # the sign process's pages (jackpot.entrypoints.signs_app)
    signs.register_blueprint(signpage.bp)
    endpoints = set(app.view_functions) | set(signs.view_functions)
    assert set(securityheaders.POLICIES) <= endpoints


class Inline(HTMLParser):
    """What a page has inline, and the files it loads from /static."""

    def __init__(self) -> None:
        super().__init__()
        self.inline: list[str] = []
        self.loads: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        self.inline += [f"<{tag} {k}>" for k in named if k == "style" or k.startswith("on")]
        if tag == "style":
            self.inline.append("<style>")
        src = named.get("src") if tag == "script" else None
        href = named.get("href") if tag == "link" else None
        if tag == "script" and not src:
            self._in_script = True
        self.loads += [url for url in (src, href) if url and url.startswith("/static/")]

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.inline.append("<script> with a body")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(STATIC)))
def test_no_page_has_an_inline_script_or_style_and_each_file_it_loads_is_served(
    api: Api, page: Path
) -> None:
    found = Inline()
    found.feed(page.read_text())
    assert found.inline == [], "the policy refuses these: move them to a file in static/"
    assert found.loads, "a page with no script or style of its own"
    for url in found.loads:
        served = api.client.get(url)
        assert served.status_code == 200, url
        # nosniff: a browser runs a script, or applies a style, only under its own type
        expected = "text/css" if url.endswith(".css") else "javascript"
        assert expected in served.mimetype, (url, served.mimetype)
        served.close()
