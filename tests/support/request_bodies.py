"""Bodies generated from the published request schemas, and the verdict they must get.

A body is drawn from the served document by schemathesis, in its positive or its negative
mode, and then often broken in one more place (a value of the wrong type or just out of
range, a field dropped, an unknown field added). The schema itself then says whether the
result is valid (jsonschema), and the validator must agree:

* a schema-invalid body is refused (400);
* a schema-valid body is accepted, unless a rule the schema documents refuses it: an entry of
  `x-rules` (field and code) of the object holding the field named, or on a create a field
  of `x-required-on-create` left out (`missing`).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from datetime import UTC, datetime
from functools import cache, partial
from typing import Any

import jsonschema
import schemathesis
from hypothesis import strategies as st
from schemathesis import GenerationMode

from jackpot.api.openapi import document

UNKNOWN_KEY = "zz_not_a_field"
_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")
_DOCUMENT = document()
_GENERATED = schemathesis.openapi.from_dict(_DOCUMENT)
_JSON = (dict, list, str, int, float, bool, type(None))


def request_bodies() -> dict[tuple[str, str], str]:
    """Every operation that reads a JSON body: (path, METHOD) -> its schema's name."""
    return {
        (path, method.upper()): op["requestBody"]["content"]["application/json"]["schema"][
            "$ref"
        ].rsplit("/", 1)[1]
        for path, item in _DOCUMENT["paths"].items()
        for method, op in item.items()
        if "requestBody" in op
    }


def request_schema(name: str) -> dict[str, Any]:
    schema: dict[str, Any] = _DOCUMENT["components"]["schemas"][name]
    return schema


# -- the schema's verdict ----------------------------------------------------------------------


def _strict_integer(checker: Any, instance: Any) -> bool:
    # the API reads 5.0 as a float, not as the integer JSON Schema would call it (info.description)
    return isinstance(instance, int) and not isinstance(instance, bool)


def _ecma_pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Any:
    # JSON Schema patterns are ECMA-262: `$` ends the string, with no trailing newline allowed
    if isinstance(instance, str) and not re.search(pattern.replace("$", r"\Z"), instance):
        yield jsonschema.ValidationError(f"{instance!r} does not match {pattern!r}")


_Judge = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    validators={"pattern": _ecma_pattern},
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _strict_integer),
)


def schema_valid(schema: dict[str, Any], body: Any) -> bool:
    return bool(_Judge(schema).is_valid(body))


# -- generated bodies --------------------------------------------------------------------------


def _branch(schema: dict[str, Any], value: Any) -> dict[str, Any]:
    """The schema `value` sits in, through anyOf/oneOf: the option it is valid against, else
    the first of its JSON type."""
    for key in ("anyOf", "oneOf"):
        if key in schema:
            options = schema[key]
            fits = [o for o in options if schema_valid(o, value)] or [
                o for o in options if _Judge(o).is_type(value, o.get("type", "object"))
            ]
            return _branch(fits[0], value) if fits else {}
    return schema


def _sites(schema: dict[str, Any], value: Any, path: tuple[Any, ...] = ()) -> list[Any]:
    """(path, schema) of every value in `value`, the body itself included."""
    here = _branch(schema, value)
    out: list[Any] = [(path, here)]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _sites(here.get("properties", {}).get(key, {}), item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += _sites(here.get("items", {}), item, (*path, i))
    return out


def _edge_values(schema: dict[str, Any], value: Any) -> list[Any]:
    """Values at and just past the edges of `schema`, and of the wrong JSON type."""
    out: list[Any] = [None, True, "7", 7, 1.5, 7.0, [], {}]
    for option in schema.get("anyOf", []) + schema.get("oneOf", []):
        out += _edge_values(option, value)
    kind = schema.get("type")
    if kind == "integer":
        for bound, step in (("minimum", -1), ("maximum", 1)):
            if bound in schema:
                out += [schema[bound] + step, schema[bound], float(schema[bound])]
    elif "enum" in schema:
        out += [*schema["enum"], schema["enum"][0].upper(), "nope"]
    elif kind == "string":
        longest = schema.get("maxLength", 128)
        out += ["", " \t", "\u00a0", "has space!", "T1\n", "x" * longest, "x" * (longest + 1)]
        if isinstance(value, str):
            out += [value.upper(), value + "\n"]
    elif kind == "boolean":
        out += [False, 1, "true"]
    elif kind == "array":
        out += [[None]]
        if isinstance(value, list):
            out += [value[:1] * 2, value * 2]
    elif kind == "object":
        out += [{UNKNOWN_KEY: 1}]
    return out


def _at(body: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        body = body[step]
    return body


def _with(body: Any, path: tuple[Any, ...], change: Callable[[Any], Any]) -> Any:
    """A copy of `body` with the value at `path` replaced by change(value)."""
    if not path:
        return change(copy.deepcopy(body))
    out = copy.deepcopy(body)
    parent = _at(out, path[:-1])
    parent[path[-1]] = change(parent[path[-1]])
    return out


def mutations(schema: dict[str, Any], body: Any) -> list[Any]:
    """Every change of `body` in one place: each value to each edge value, each member of an
    object dropped, an unknown one added, each optional one absent given each edge value."""
    return [make() for make in _mutations(schema, body)]


def _mutations(schema: dict[str, Any], body: Any) -> list[Callable[[], Any]]:
    """mutations(), each made only when called: a generated body needs one of its hundreds,
    and making them all (each a deep copy of the body) was most of drawing a body."""
    out: list[Callable[[], Any]] = []
    for path, where in _sites(schema, body):
        node = _at(body, path)
        out += [partial(_with, body, path, lambda _, v=v: v) for v in _edge_values(where, node)]
        if not isinstance(node, dict):
            continue
        out += [partial(_with, body, path, lambda d, k=key: _without(d, k)) for key in node]
        out.append(partial(_with, body, path, lambda d: {**d, UNKNOWN_KEY: 1}))
        for key, member in where.get("properties", {}).items():
            if key not in node:
                out += [
                    partial(_with, body, path, lambda d, k=key, v=v: {**d, k: v})
                    for v in _edge_values(member, None)
                ]
    return out


def _without(data: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != key}


def _integers_as_integers(value: Any) -> Any:
    """4.0 as 4: JSON Schema calls both integers, the API only the second (info.description),
    and the schema's positive examples are meant to be valid ones."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: _integers_as_integers(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_integers_as_integers(item) for item in value]
    return value


def _json_body(case: Any) -> bool:
    # negative mode also sends bytes that are not JSON: the parser's business, not the schema's
    return isinstance(case.body, _JSON)


@cache
def _cases(operation: tuple[str, str], mode: GenerationMode) -> st.SearchStrategy[Any]:
    """schemathesis's cases of `operation` with a JSON body, built once: a new strategy each
    draw made Hypothesis validate it and work out its properties again, every example."""
    path, method = operation
    return _GENERATED[path][method].as_strategy(generation_mode=mode).filter(_json_body)


@st.composite
def bodies(
    draw: st.DrawFn,
    operation: tuple[str, str],
    prepare: Callable[[Any], Any] | None = None,
) -> Any:
    """A JSON body for `operation` (path, METHOD) as schemathesis generates it, `prepare`d (an
    existing table named, say), then often broken in one more place."""
    mode = draw(st.sampled_from([GenerationMode.POSITIVE] * 2 + [GenerationMode.NEGATIVE]))
    case = draw(_cases(operation, mode))
    body = case.body
    if mode is GenerationMode.POSITIVE:
        body = _integers_as_integers(body)
    schema = request_schema(request_bodies()[operation])
    if prepare is not None:
        body = prepare(body)
    if draw(st.booleans()):
        return body
    return draw(st.sampled_from(_mutations(schema, body)))()


# -- the verdict -------------------------------------------------------------------------------


def documented_refusal(
    schema: dict[str, Any], body: Any, field: str | None, code: str, creating: bool
) -> bool:
    """Whether the schema documents refusing the schema-valid `body` naming `field` (`code`)."""
    if field is None:
        return False
    steps: list[Any] = [name or int(index) for name, index in _STEP.findall(field)]
    here = _branch(schema, body)
    node = body
    for step in steps[:-1]:
        if not isinstance(node, (dict, list)):
            return False
        child = (
            here.get("properties", {}).get(step, {})
            if isinstance(step, str)
            else here.get("items", {})
        )
        node = node[step]
        here = _branch(child, node)
    last = steps[-1]
    if not isinstance(last, str):
        return False
    if any(rule["field"] == last and rule["code"] == code for rule in here.get("x-rules", ())):
        return True
    return creating and code == "missing" and last in here.get("x-required-on-create", ())


def check_verdict(
    schema: dict[str, Any],
    body: Any,
    refusal: tuple[str | None, str] | None,
    creating: bool = True,
) -> None:
    """Fail unless the validator's answer (`refusal`: None when accepted) is the schema's."""
    valid = schema_valid(schema, body)
    if refusal is None:
        assert valid, f"accepted, but the schema refuses it: {body!r}"
        return
    field, code = refusal
    if valid:
        assert documented_refusal(schema, body, field, code, creating), (
            f"refused naming {field!r} ({code}), which the schema does not document: {body!r}"
        )


def plausible_report(body: Any, stadium: bool) -> Any:
    """A generated report with the war taken out, dealt now, and each spot once (and, at a live
    table, no stadium spots): still schema-valid, and now often a round the table accepts."""
    if not isinstance(body, dict):
        return body
    body = copy.deepcopy(body)
    body.pop("community_war", None)
    if "dealt_at" in body:
        # a generated time is rarely inside the retention window: deal it now
        body["dealt_at"] = datetime.now(UTC).isoformat(timespec="milliseconds")
    if isinstance(body.get("dealer"), dict):
        body["dealer"].pop("war_card", None)
    if "position" in body:
        # a position is in the shoe named, with room for the round's cards
        if "shoe" in body:
            body["position"] = 0
        else:
            del body["position"]
    spots, seen = [], set()
    for spot in body.get("spots") or []:
        if not isinstance(spot, dict) or spot.get("spot") in seen:
            continue
        if "bets" in spot and not stadium:
            continue
        seen.add(spot.get("spot"))
        if not spot.get("wager"):
            spot.pop("player", None)  # a live spot names a player only with a wager
        spot.pop("war", None)
        spot.pop("war_card", None)
        for bet in spot.get("bets") or []:
            if isinstance(bet, dict):
                bet.pop("war", None)
        spots.append(spot)
    if spots:
        body["spots"] = spots
    return body
