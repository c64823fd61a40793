"""Request bodies declared once: the checks the validators run and the JSON Schema published.

Every declaration both checks a JSON value, raising the ValidationError the API answers
with, and describes itself as JSON Schema (jackpot/api/openapi/ publishes it), so the
document and the validators read their bounds from the same place. What JSON Schema cannot
say simply (one field against another) is a `Rule`: raised by the validator, listed in the
schema's description and under `x-rules`. tests/unit/test_request_schemas.py generates
bodies from the published schemas and holds the validators to them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from jackpot.domain.gamingday import parse_day
from jackpot.domain.people import PERSON_ID_PATTERN, parse_person_id
from jackpot.domain.validate import (
    DOT_SEGMENTS,
    GROUP_NAME,
    IDENTIFIER,
    TIMESTAMP_PATTERN,
    YEAR_1970_TO_9998,
    expect_bool,
    expect_int,
    expect_object,
    expect_str,
    parse_group,
    parse_identifier,
    parse_timestamp,
)
from jackpot.errors import ValidationError


class Spec(Protocol):
    def check(self, raw: Any, field: str) -> Any:
        """The value, checked; raise ValidationError naming `field` otherwise."""
        ...

    def schema(self) -> dict[str, Any]:
        """The JSON Schema of the values `check` accepts."""
        ...


@dataclass(frozen=True, slots=True)
class Integer:
    """A JSON integer within [low, high]; 5.0, true and "5" are refused."""

    low: int | None = None
    high: int | None = None

    def check(self, raw: Any, field: str) -> int:
        return expect_int(raw, field, self.low, self.high)

    def schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "integer"}
        if self.low is not None:
            out["minimum"] = self.low
        if self.high is not None:
            out["maximum"] = self.high
        return out


@dataclass(frozen=True, slots=True)
class Boolean:
    def check(self, raw: Any, field: str) -> bool:
        return expect_bool(raw, field)

    def schema(self) -> dict[str, Any]:
        return {"type": "boolean"}


MAX_REASON = 500  # a reason or note, as a journal keeps it


@dataclass(frozen=True, slots=True)
class Text:
    """Free text with at least one non-blank character."""

    max_len: int

    def check(self, raw: Any, field: str) -> str:
        return expect_str(raw, field, self.max_len)

    def schema(self) -> dict[str, Any]:
        # Python's \S, like str.strip(), knows Unicode whitespace
        return {"type": "string", "minLength": 1, "maxLength": self.max_len, "pattern": r"\S"}


RFC3339 = f"^{TIMESTAMP_PATTERN}$"


@dataclass(frozen=True, slots=True)
class Timestamp:
    """An RFC 3339 time with its offset, such as 2026-11-24T10:34:17.123Z; checked as epoch ms."""

    def check(self, raw: Any, field: str) -> int:
        return parse_timestamp(raw, field)

    def schema(self) -> dict[str, Any]:
        return {"type": "string", "format": "date-time", "pattern": RFC3339}


@dataclass(frozen=True, slots=True)
class Day:
    """A gaming day named as YYYY-MM-DD (1970 to 9998); checked as its ISO text."""

    def check(self, raw: Any, field: str) -> str:
        if not isinstance(raw, str):
            raise ValidationError(field, "must be a gaming day such as 2026-11-23")
        return parse_day(raw, field).isoformat()

    def schema(self) -> dict[str, Any]:
        return {
            "type": "string",
            "format": "date",
            # a month 01-12 and a day 01-31 (`format: date` holds each month's length)
            "pattern": f"^{YEAR_1970_TO_9998}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$",
        }


@dataclass(frozen=True, slots=True)
class Identifier:
    """1-128 characters of A-Z a-z 0-9 . _ : -, other than `.` and `..` (API.md)."""

    def check(self, raw: Any, field: str) -> str:
        return parse_identifier(raw, field)

    def schema(self) -> dict[str, Any]:
        return {
            "type": "string",
            "pattern": f"^{IDENTIFIER.pattern}$",
            "not": {"enum": sorted(DOT_SEGMENTS)},
        }


@dataclass(frozen=True, slots=True)
class PersonId:
    """A person's id in the register (jackpot.domain.people): an employee or badge number."""

    def check(self, raw: Any, field: str) -> str:
        return parse_person_id(raw, field)

    def schema(self) -> dict[str, Any]:
        return {"type": "string", "pattern": PERSON_ID_PATTERN}


@dataclass(frozen=True, slots=True)
class GroupName:
    """A link group's name: 1-32 characters of a-z 0-9 _ -, the first a letter or digit."""

    def check(self, raw: Any, field: str) -> str:
        return parse_group(raw, field)

    def schema(self) -> dict[str, Any]:
        return {"type": "string", "pattern": f"^{GROUP_NAME.pattern}$"}


@dataclass(frozen=True, slots=True)
class Choice:
    """One of a few strings, spelled exactly."""

    values: tuple[str, ...]

    def check(self, raw: Any, field: str) -> str:
        if not isinstance(raw, str) or raw not in self.values:
            quoted = [repr(v) for v in self.values]
            listed = ", ".join(quoted[:-1]) + " or " + quoted[-1] if len(quoted) > 1 else quoted[0]
            raise ValidationError(field, f"must be {listed}")
        return raw

    def schema(self) -> dict[str, Any]:
        return {"type": "string", "enum": list(self.values)}


@dataclass(frozen=True, slots=True)
class Nullable:
    """`inner`, or null."""

    inner: Spec

    def check(self, raw: Any, field: str) -> Any:
        return None if raw is None else self.inner.check(raw, field)

    def schema(self) -> dict[str, Any]:
        return {"anyOf": [self.inner.schema(), {"type": "null"}]}


@dataclass(frozen=True, slots=True)
class ListOf:
    """A JSON array of `item`s: `what` names them in messages (`pool ids`); with `unique`,
    `one` names a single one (`a pool`)."""

    item: Spec
    what: str
    min_items: int = 0
    max_items: int | None = None
    unique: bool = False
    one: str = "an item"

    def check(self, raw: Any, field: str) -> list[Any]:
        self._check_length(raw, field)
        items = [self.item.check(value, f"{field}[{i}]") for i, value in enumerate(raw)]
        if self.unique and len(set(map(repr, items))) != len(items):
            raise ValidationError(field, f"lists {self.one} twice")
        return items

    def _check_length(self, raw: Any, field: str) -> None:
        """A list of `min_items` to `max_items` items."""
        if not isinstance(raw, list) or len(raw) < self.min_items:
            kind = "a non-empty list" if self.min_items else "a list"
            raise ValidationError(field, f"must be {kind} of {self.what}")
        if self.max_items is not None and len(raw) > self.max_items:
            raise ValidationError(field, f"must list at most {self.max_items} {self.what}")

    def schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "array", "items": self.item.schema()}
        if self.min_items:
            out["minItems"] = self.min_items
        if self.max_items is not None:
            out["maxItems"] = self.max_items
        if self.unique:
            out["uniqueItems"] = True
        return out


class Presence(StrEnum):
    REQUIRED = "required"
    ON_CREATE = "on_create"  # PUT creates or updates: required only when it creates
    OPTIONAL = "optional"


@dataclass(frozen=True, slots=True)
class Field:
    """One member of a JSON object: its spec, whether it must be given, what it means."""

    spec: Spec
    presence: Presence = Presence.OPTIONAL
    description: str = ""

    def schema(self) -> dict[str, Any]:
        out = self.spec.schema()
        if self.description:
            # a record's own description carries its rules: keep it after the field's
            own = out.get("description")
            out["description"] = f"{self.description}. {own}" if own else self.description
        return out


@dataclass(frozen=True, slots=True)
class Rule:
    """A check across fields that JSON Schema does not express: a 400 naming `field`."""

    field: str
    text: str
    code: str = "invalid"

    def error(self, at: str | None = None, message: str | None = None) -> ValidationError:
        """The refusal, naming `field` under the object at path `at`."""
        return ValidationError(_join(at, self.field), message or self.text, self.code)

    def schema(self) -> dict[str, str]:
        return {"field": self.field, "code": self.code, "rule": self.text}


@dataclass(frozen=True, slots=True)
class Record:
    """A JSON object with exactly the named fields (unknown ones are refused)."""

    fields: Mapping[str, Field]
    description: str = ""
    rules: tuple[Rule, ...] = ()
    notes: tuple[str, ...] = ()  # what else may refuse it: the store's state, the table
    exactly_one: str | None = None  # the message when other than one field is given
    missing: str = "is required"
    unknown: str = "is not a known field"
    unknown_first: bool = False  # a misspelt name is reported as unknown, not as a missing one
    _names: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_names", frozenset(self.fields))

    def required(self, creating: bool = True) -> list[str]:
        wanted = {Presence.REQUIRED, Presence.ON_CREATE} if creating else {Presence.REQUIRED}
        return [name for name, f in self.fields.items() if f.presence in wanted]

    def check(self, raw: Any, field: str | None = None, creating: bool = True) -> dict[str, Any]:
        """The fields given, each checked (in declaration order); rules are the caller's."""
        data = expect_object(raw, field)
        if self.unknown_first:
            self._refuse_unknown(data, field)
        for name in self.required(creating):
            if name not in data:
                raise ValidationError(_join(field, name), self.missing, "missing")
        self._refuse_unknown(data, field)
        if self.exactly_one is not None and len(data) != 1:
            raise ValidationError(field, self.exactly_one)
        return {
            name: f.spec.check(data[name], _join(field, name))
            for name, f in self.fields.items()
            if name in data
        }

    def _refuse_unknown(self, data: dict[str, Any], field: str | None) -> None:
        for key in data:
            if key not in self._names:
                raise ValidationError(
                    _join(field, key), self.unknown.format(key=key), "unknown_field"
                )

    def schema(self) -> dict[str, Any]:
        """The schema of an update as much as of a create: fields required only on create
        are listed under `x-required-on-create` and in the description, not in `required`."""
        on_create = [n for n in self.required() if n not in self.required(creating=False)]
        description = self._description(on_create)
        out: dict[str, Any] = {"description": description} if description else {}
        out |= {
            "type": "object",
            "additionalProperties": False,
            "properties": {name: f.schema() for name, f in self.fields.items()},
        }
        return out | self._constraints(on_create)

    def _constraints(self, on_create: list[str]) -> dict[str, Any]:
        """The schema's keywords for which fields must be given, and the rules across them."""
        out: dict[str, Any] = {}
        always = self.required(creating=False)
        if always:
            out["required"] = always
        if on_create:
            out["x-required-on-create"] = on_create
        if self.exactly_one is not None:
            out["minProperties"] = out["maxProperties"] = 1
        if self.rules:
            out["x-rules"] = [rule.schema() for rule in self.rules]
        return out

    def _description(self, on_create: list[str]) -> str:
        parts = [self.description] if self.description else []
        if on_create:
            parts.append(
                f"Creating requires {_listed(on_create)} (400 `missing` naming the first one "
                "left out); on an update every field left out keeps its value."
            )
        if self.exactly_one is not None:
            parts.append(f"Exactly one of {_listed(list(self.fields), 'or')}.")
        if self.rules:
            parts.append(
                "Checked across fields (400 naming the field): "
                + "; ".join(f"`{r.field}`: {r.text}" for r in self.rules)
                + "."
            )
        parts.extend(self.notes)
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class Either:
    """One of two shapes of object: `second` when the object has the key `marker`."""

    first: Record
    second: Record
    marker: str

    def check(self, raw: Any, field: str) -> dict[str, Any]:
        data = expect_object(raw, field)
        return (self.second if self.marker in data else self.first).check(data, field)

    def schema(self) -> dict[str, Any]:
        return {"oneOf": [self.first.schema(), self.second.schema()]}


def _join(at: str | None, name: str) -> str:
    return f"{at}.{name}" if at else name


def _listed(names: list[str], last: str = "and") -> str:
    quoted = [f"`{n}`" for n in names]
    return ", ".join(quoted[:-1]) + f" {last} " + quoted[-1] if len(quoted) > 1 else quoted[0]
