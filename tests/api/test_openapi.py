"""The served /openapi.json is the app: the same routes and methods, the roles the app
enforces, and a valid OpenAPI 3.1 document."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from jackpot.api.openapi import document
from tests.support.api import Api, Keys
from tests.support.roles import MATRIX, ROLES, Endpoint, World, build_world, credential
from tests.support.stores import SharedApp

HTTP_METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")
# Flask's path variable -> the document's parameter, where they are spelled differently
RENAMED = {"round_id": "round"}


def openapi_path(rule: str) -> str:
    """`/v1/rounds/<table>/<round_id>` -> `/v1/rounds/{table}/{round}`."""
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", lambda m: "{" + RENAMED.get(m[1], m[1]) + "}", rule)


def app_operations(app: Flask) -> set[tuple[str, str]]:
    return {
        (openapi_path(rule.rule), method.lower())
        for rule in app.url_map.iter_rules()
        if rule.endpoint != "static"
        for method in rule.methods or ()
        if method not in ("HEAD", "OPTIONS")
    }


def documented_operations(doc: dict[str, Any]) -> set[tuple[str, str]]:
    return {
        (path, method)
        for path, item in doc["paths"].items()
        for method in item
        if method in HTTP_METHODS
    }


@pytest.fixture
def served(client: FlaskClient) -> dict[str, Any]:
    response = client.get("/openapi.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    doc: dict[str, Any] = response.get_json()
    return doc


def test_the_served_document_is_the_one_the_code_builds(served: dict[str, Any]) -> None:
    assert served == document()


def test_every_route_of_the_app_is_documented_with_its_methods(
    app: Flask, served: dict[str, Any]
) -> None:
    assert app_operations(app) - documented_operations(served) == set()


def test_every_documented_operation_exists_in_the_app(app: Flask, served: dict[str, Any]) -> None:
    assert documented_operations(served) - app_operations(app) == set()


def test_every_path_parameter_is_declared_and_every_declared_one_is_in_the_path(
    served: dict[str, Any],
) -> None:
    for path, item in served["paths"].items():
        in_path = set(re.findall(r"{([^{}]+)}", path))
        for method, op in item.items():
            if method not in HTTP_METHODS:
                continue
            params = item.get("parameters", []) + op.get("parameters", [])
            declared = {p["name"] for p in params if p["in"] == "path"}
            assert declared == in_path, (path, method)
            assert all(p["required"] is True for p in params if p["in"] == "path"), (path, method)


def test_every_operation_names_its_roles_and_its_security(served: dict[str, Any]) -> None:
    for path, item in served["paths"].items():
        for method, op in item.items():
            roles = op.get("x-roles")
            assert isinstance(roles, list) and set(roles) <= set(ROLES), (path, method, roles)
            assert op["security"] == ([{"bearer": []}] if roles else []), (path, method)
            assert op["responses"], (path, method)
    assert served["components"]["securitySchemes"]["bearer"] == {"type": "http", "scheme": "bearer"}


def test_every_error_response_is_the_error_body(served: dict[str, Any]) -> None:
    for path, item in served["paths"].items():
        for method, op in item.items():
            for status, response in op["responses"].items():
                if status.startswith(("4", "5")):
                    schema = response["content"]["application/json"]["schema"]
                    assert schema == {"$ref": "#/components/schemas/Error"}, (path, method, status)


@pytest.fixture
def world(api: Api, shared: SharedApp) -> World:
    """tests/api/test_roles.py's world: built once per store layout, restored for each test
    (~30 ms, where building it took ~200 ms)."""
    return shared.world("roles", lambda: build_world(api))


def enforced_roles(api: Api, keys: Keys, world: World, endpoint: Endpoint) -> list[str]:
    """The roles the app lets through, found by calling: [] when no credential is needed."""
    if endpoint.send(api.client, world, credential(keys, "none")).status_code not in (401, 403):
        return []
    allowed = []
    for role in ROLES:
        status = endpoint.send(api.client, world, keys.header(role)).status_code
        assert status != 401, (endpoint.name, role)
        if status != 403:
            allowed.append(role)
    return allowed


@pytest.mark.parametrize("endpoint", MATRIX, ids=lambda e: e.name)
def test_each_operations_x_roles_are_the_roles_the_app_enforces(
    api: Api, keys: Keys, served: dict[str, Any], world: World, endpoint: Endpoint
) -> None:
    op = served["paths"][openapi_path(endpoint.rule)][endpoint.method.lower()]
    assert sorted(op["x-roles"]) == sorted(enforced_roles(api, keys, world, endpoint))


def test_the_document_is_valid_openapi_3_1(served: dict[str, Any]) -> None:
    validator = pytest.importorskip("openapi_spec_validator")
    validator.OpenAPIV31SpecValidator(served).validate()


def test_the_document_has_the_shape_of_openapi_3_1_by_hand(served: dict[str, Any]) -> None:
    # what the validator checks first, kept for environments without it
    assert served["openapi"].startswith("3.1.")
    assert served["info"]["title"] and served["info"]["version"]
    schemas = served["components"]["schemas"]
    refs = re.findall(r'"\$ref": "#/components/schemas/([^"]+)"', repr(served).replace("'", '"'))
    assert refs and all(name in schemas for name in refs)
    for path, item in served["paths"].items():
        assert path.startswith("/"), path
        for method, op in item.items():
            assert method in HTTP_METHODS, (path, method)
            for status in op["responses"]:
                assert re.fullmatch(r"[1-5](\d\d|XX)|default", status), (path, method, status)
            for param in op.get("parameters", []):
                assert param["in"] in ("path", "query", "header", "cookie") and "schema" in param
            if "requestBody" in op:
                assert op["requestBody"]["content"]["application/json"]["schema"]


# -- generated requests (schemathesis, where installed) -----------------------------------------

try:
    import schemathesis
    from hypothesis import HealthCheck, settings
except ImportError:  # pragma: no cover - an optional dev dependency
    schemathesis = None  # type: ignore[assignment]

if schemathesis is not None:
    # read once: document() builds a new copy each call (~7 ms), and a generated request
    # only looks up its operation's roles in it
    DOCUMENT = document()

    @pytest.fixture
    def api_schema(app: Flask, linked: Api) -> Any:
        return schemathesis.openapi.from_wsgi("/openapi.json", app)

    # "/" and "/console" serve static files whose handles the generic client would leave open
    generated = schemathesis.pytest.from_fixture("api_schema").exclude(path=["/", "/console"])

    @pytest.mark.slow  # ~10 s a store layout: the whole suite runs it, `./dev test fast` not
    @generated.parametrize()
    @settings(
        max_examples=12,
        deadline=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    def test_no_generated_request_gets_a_server_error(case: Any, keys: Keys) -> None:
        op = DOCUMENT["paths"][case.operation.path][case.operation.method.lower()]
        headers = keys.header(op["x-roles"][0]) if op["x-roles"] else {}
        response = case.call(headers=headers)
        assert response.status_code < 500, (
            case.method,
            case.formatted_path,
            response.status_code,
            response.text[:300],
        )

else:  # pragma: no cover

    def test_no_generated_request_gets_a_server_error() -> None:
        pytest.skip("schemathesis is not installed")
