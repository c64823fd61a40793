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
import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Protocol

Write = Callable[[Any], Any]


class Kind(Protocol):
    def schema(self) -> dict[str, Any]:
        """The JSON Schema of the values written."""
        ...

    def writer(self) -> Write | None:
        """What writes a value as JSON (None: the value is its JSON, written as it is)."""
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

    def writer(self) -> Write | None:
        return None


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

    def writer(self) -> Write | None:
        return None  # a StrEnum's member is a str: JSON writes its value


@dataclass(frozen=True, slots=True)
class OrNull:
    """A value of `kind`, or null."""

    kind: Kind

    def schema(self) -> dict[str, Any]:
        inner = self.kind.schema()
        if set(inner) <= {"type", "description"} and isinstance(inner.get("type"), str):
            return {**inner, "type": [inner["type"], "null"]}
        return {"oneOf": [inner, {"type": "null"}]}

    def writer(self) -> Write | None:
        inner = self.kind.writer()
        if inner is None:
            return None  # null is written as it is too
        return lambda value: None if value is None else inner(value)


@dataclass(frozen=True, slots=True)
class Nested:
    """Another answer, published as a reference to its own schema."""

    answer: type[Answer]

    def schema(self) -> dict[str, Any]:
        return {"$ref": f"#/components/schemas/{self.answer.NAME}"}

    def writer(self) -> Write | None:
        return _writer(self.answer)


@dataclass(frozen=True, slots=True)
class Each:
    """A JSON array of values of `kind`."""

    kind: Kind

    def schema(self) -> dict[str, Any]:
        return {"type": "array", "items": self.kind.schema()}

    def writer(self) -> Write | None:
        inner = self.kind.writer()
        if inner is None:
            return list
        return lambda value: [inner(v) for v in value]


@dataclass(frozen=True, slots=True)
class ByName:
    """A JSON object of values of `kind`, by name (each payout status's totals)."""

    kind: Kind

    def schema(self) -> dict[str, Any]:
        return {"type": "object", "additionalProperties": self.kind.schema()}

    def writer(self) -> Write | None:
        inner = self.kind.writer()
        if inner is None:
            return dict
        return lambda value: {name: inner(v) for name, v in value.items()}


@dataclass(frozen=True, slots=True)
class Given:
    """A JSON value whose schema is declared elsewhere (a checkpoint's, in
    jackpot.domain.checkpoints), written as it is."""

    given: dict[str, Any]

    def schema(self) -> dict[str, Any]:
        return self.given

    def writer(self) -> Write | None:
        return None


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


NONE_IF_OMITTED: Any = object()  # answer_field's default: None for an omitted field, else none


def answer_field(
    kind: Kind,
    doc: str = "",
    *,
    name: str = "",
    omitted: bool = False,
    default: Any = NONE_IF_OMITTED,
) -> Any:
    """A field of an answer: in every answer unless it is `omitted` while None. An omitted
    field defaults to None unless `default` says otherwise: `dataclasses.MISSING` keeps it
    a field every record is given, in order (the round's answers, which the hot path makes
    by the thousand, are given their fields in order: a call by name costs twice as much)."""
    if default is NONE_IF_OMITTED:
        default = None if omitted else dataclasses.MISSING
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
    return _writer(type(record))(record)  # type: ignore[no-any-return]


@functools.cache
def _writer(answer: type[Answer]) -> Write:
    """The function that writes the answer's records, made once from its declarations: one
    dict literal of every field in order, then each omitted field taken out while None; a
    value that is its own JSON is written as it is, with no call. It costs what the dict
    literal a hand-written answer built cost (the round's answer is on the hot path)."""
    names: dict[str, Any] = {}
    literal: list[str] = []
    left_out: list[str] = []  # the omitted fields: taken out again while None
    for i, (attribute, name, declared, required) in enumerate(_declared(answer)):
        write = declared.kind.writer()
        value = f"r.{attribute}"
        if write is not None:
            names[f"w{i}"] = write
            value = (
                f"w{i}({value})" if required else f"(None if {value} is None else w{i}({value}))"
            )
        literal.append(f"{name!r}: {value}")
        if not required:
            left_out.append(f"    if out[{name!r}] is None: del out[{name!r}]")
    source = ["def write(r):", f"    out = {{{', '.join(literal)}}}", *left_out, "    return out"]
    exec("\n".join(source), names)  # the source is made of the declarations alone
    return names["write"]  # type: ignore[no-any-return]


def answer_schema(answer: type[Answer]) -> dict[str, Any]:
    """The JSON Schema of the answer's JSON, as `to_json` writes it."""
    declared = list(_declared(answer))
    schema: dict[str, Any] = {"type": "object", "description": answer.DOC}
    schema["required"] = [name for _, name, _, required in declared if required]
    schema["properties"] = {name: d.schema() for _, name, d, _ in declared}
    schema["additionalProperties"] = False  # to_json writes the declared fields only
    return schema
