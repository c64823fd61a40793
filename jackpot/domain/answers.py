"""What the API answers, declared once: each answer's JSON and its JSON Schema.

An answer is a frozen dataclass whose fields are declared with `answer_field`: the field's
kind of value (a `Kind`: its JSON Schema and how it is written), what it means, and whether
it is left out of the JSON while it is None. `to_json` writes a record and
`answer_schema` describes one, both from the same declarations, so the published document
(jackpot/api/openapi/) cannot say one thing while the API answers another. The request side
is jackpot.domain.fields, in the same style.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Protocol


class Kind(Protocol):
    def schema(self) -> dict[str, Any]:
        """The JSON Schema of the values written."""
        ...

    def json(self, value: Any) -> Any:
        """The value as JSON."""
        ...


@dataclass(frozen=True, slots=True)
class Plain:
    """A JSON string, integer or boolean, written as it is."""

    type: str  # "string", "integer" or "boolean"
    unit: str = ""  # what the number counts, for the schema's description

    def schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        if self.unit:
            out["description"] = self.unit
        return out

    def json(self, value: Any) -> Any:
        return value


TEXT = Plain("string")
INTEGER = Plain("integer")
BOOLEAN = Plain("boolean")
CENTS = Plain("integer", "whole cents")
MS = Plain("integer", "ms since the epoch")


@dataclass(frozen=True, slots=True)
class OneOf:
    """One of an enumeration's values."""

    enum: type[StrEnum]

    def schema(self) -> dict[str, Any]:
        return {"enum": [member.value for member in self.enum]}

    def json(self, value: Any) -> Any:
        return str(value)


@dataclass(frozen=True, slots=True)
class OrNull:
    """A value of `kind`, or null."""

    kind: Kind

    def schema(self) -> dict[str, Any]:
        inner = self.kind.schema()
        if set(inner) <= {"type", "description"} and isinstance(inner.get("type"), str):
            return {**inner, "type": [inner["type"], "null"]}
        return {"oneOf": [inner, {"type": "null"}]}

    def json(self, value: Any) -> Any:
        return None if value is None else self.kind.json(value)


@dataclass(frozen=True, slots=True)
class Nested:
    """Another answer, published as a reference to its own schema."""

    answer: type[Answer]

    def schema(self) -> dict[str, Any]:
        return {"$ref": f"#/components/schemas/{self.answer.NAME}"}

    def json(self, value: Any) -> Any:
        return to_json(value)


@dataclass(frozen=True, slots=True)
class Each:
    """A JSON array of values of `kind`."""

    kind: Kind

    def schema(self) -> dict[str, Any]:
        return {"type": "array", "items": self.kind.schema()}

    def json(self, value: Any) -> Any:
        return [self.kind.json(v) for v in value]


@dataclass(frozen=True, slots=True)
class ByName:
    """A JSON object of values of `kind`, by name (each payout status's totals)."""

    kind: Kind

    def schema(self) -> dict[str, Any]:
        return {"type": "object", "additionalProperties": self.kind.schema()}

    def json(self, value: Any) -> Any:
        return {name: self.kind.json(v) for name, v in value.items()}


@dataclass(frozen=True, slots=True)
class Given:
    """A JSON value whose schema is declared elsewhere (a checkpoint's, in
    jackpot.domain.checkpoints), written as it is."""

    given: dict[str, Any]

    def schema(self) -> dict[str, Any]:
        return self.given

    def json(self, value: Any) -> Any:
        return value


@dataclass(frozen=True, slots=True)
class Declared:
    """A field's declaration: its kind, what it means, its JSON name, whether it is left out
    of the JSON while None (else None is written as null)."""

    kind: Kind
    doc: str = ""
    name: str = ""  # the JSON name, when the field's own cannot be it (`from`)
    omitted: bool = False

    def schema(self) -> dict[str, Any]:
        out = self.kind.schema()
        if self.doc:
            shown = out.get("description")
            out = {**out, "description": f"{self.doc} ({shown})" if shown else self.doc}
        return out


def answer_field(
    kind: Kind,
    doc: str = "",
    *,
    name: str = "",
    omitted: bool = False,
    default: Any = dataclasses.MISSING,
) -> Any:
    """A field of an answer: in every answer unless it is `omitted` while None (such a
    field defaults to None)."""
    if omitted and default is dataclasses.MISSING:
        default = None
    meta = {"answer": Declared(kind, doc, name, omitted)}
    return dataclasses.field(default=default, metadata=meta)


@dataclass(frozen=True, slots=True)
class Derived:
    """A property of an answer written after its fields (what they imply, never held apart:
    a person's `shown`, from their name and number)."""

    name: str
    kind: Kind
    doc: str = ""


class Answer(Protocol):
    """A frozen dataclass whose fields are declared with `answer_field`."""

    NAME: ClassVar[str]  # its schema's name in the document's components
    DOC: ClassVar[str]  # what it is, for the schema's description
    __dataclass_fields__: ClassVar[dict[str, Any]]


def _declared(answer: type[Answer] | Answer) -> Iterable[tuple[str, str, Declared, bool]]:
    """(attribute, JSON name, declaration, required) of each field, then of each derived
    property (`DERIVED`), in order."""
    for f in dataclasses.fields(answer):
        declared = f.metadata["answer"]
        yield f.name, declared.name or f.name, declared, not declared.omitted
    for derived in getattr(answer, "DERIVED", ()):
        yield derived.name, derived.name, Declared(derived.kind, derived.doc), True


def to_json(record: Answer) -> dict[str, Any]:
    """The record as the API answers it."""
    out: dict[str, Any] = {}
    for attribute, name, declared, _ in _declared(record):
        value = getattr(record, attribute)
        if value is None and declared.omitted:
            continue
        out[name] = declared.kind.json(value)
    return out


def answer_schema(answer: type[Answer]) -> dict[str, Any]:
    """The JSON Schema of the answer's JSON, as `to_json` writes it."""
    declared = list(_declared(answer))
    schema: dict[str, Any] = {"type": "object", "description": answer.DOC}
    schema["required"] = [name for _, name, _, required in declared if required]
    schema["properties"] = {name: d.schema() for _, name, d, _ in declared}
    schema["additionalProperties"] = False  # to_json writes the declared fields only
    return schema
