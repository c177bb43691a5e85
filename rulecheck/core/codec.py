"""Canonical JSON for immutable game states, read back by their type annotations.

Models: a state is a tree of frozen attrs classes, tuples, frozensets, strings, ints,
bools, None and string-valued enums. Its canonical text is compact JSON with sorted
keys and ASCII only; attrs classes become objects keyed by field name, tuples become
arrays, and frozensets become arrays sorted by each element's canonical text, so equal
states have byte-equal encodings in any language. Decoding walks the declared field
types and rejects anything that does not fit, naming the path to the bad value.

Leaves out: floats (no game state needs one; exact values are ints or Fractions kept
out of states) and dicts (states use tuples of pairs so that they stay hashable).
"""

from __future__ import annotations

import enum
import json
import types
from collections.abc import Callable
from functools import cache
from typing import Any, Union, get_args, get_origin

import attrs

from rulecheck.core.errors import EncodingError


def to_data(value: Any) -> Any:
    """The JSON-ready form of a state or any value inside one."""
    encoder = _ENCODERS.get(type(value))
    if encoder is None:
        encoder = _ENCODERS[type(value)] = _encoder(type(value))
    return encoder(value)


_ENCODERS: dict[type, Callable[[Any], Any]] = {}
"""The encoder of each type met so far (_encoder's), so that a state's values are dispatched by a
dictionary lookup of their type rather than a chain of checks."""


def _encoder(kind: type) -> Callable[[Any], Any]:
    """How `to_data` encodes a value whose type is `kind`."""
    if attrs.has(kind):
        names = tuple(f.name for f in attrs.fields(kind))
        return lambda value: {name: to_data(getattr(value, name)) for name in names}
    if issubclass(kind, enum.Enum):
        return lambda value: value.value
    if issubclass(kind, tuple):
        return lambda value: [to_data(v) for v in value]
    if issubclass(kind, frozenset):
        return lambda value: sorted((to_data(v) for v in value), key=canonical_json)
    if kind is type(None) or issubclass(kind, (bool, int, str)):
        return lambda value: value

    def refuse(value: Any) -> Any:
        raise EncodingError(f"cannot encode a {kind.__name__} in a state")

    return refuse


def canonical_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def encode(state: Any) -> str:
    """The canonical JSON text of a state."""
    return canonical_json(to_data(state))


@cache
def field_types(kind: type) -> dict[str, Any]:
    """Each field of the attrs class `kind`, in order, with its declared type."""
    return {f.name: f.type for f in attrs.fields(attrs.resolve_types(kind))}


def _fail(path: str, expected: str, data: Any) -> EncodingError:
    return EncodingError(f"at {path or 'top level'}: expected {expected}, got {canonical_json(data)[:80]}")


def from_data(kind: Any, data: Any, path: str = "") -> Any:
    """The value of type `kind` whose JSON-ready form is `data`."""
    origin = get_origin(kind)
    if origin in (Union, types.UnionType):
        for option in get_args(kind):
            try:
                return from_data(option, data, path)
            except EncodingError:
                continue
        raise _fail(path, str(kind), data)
    if kind is type(None):
        if data is not None:
            raise _fail(path, "null", data)
        return None
    if kind is bool or kind is str:
        if type(data) is not kind:
            raise _fail(path, kind.__name__, data)
        return data
    if kind is int:
        if type(data) is not int:
            raise _fail(path, "int", data)
        return data
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        try:
            return kind(data)
        except ValueError:
            raise _fail(path, f"one of {[m.value for m in kind]}", data) from None
    if origin in (tuple, frozenset):
        if not isinstance(data, list):
            raise _fail(path, "array", data)
        args = get_args(kind)
        if origin is frozenset:
            return frozenset(from_data(args[0], v, f"{path}[{i}]") for i, v in enumerate(data))
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_data(args[0], v, f"{path}[{i}]") for i, v in enumerate(data))
        if len(args) != len(data):
            raise _fail(path, f"array of {len(args)}", data)
        return tuple(from_data(a, v, f"{path}[{i}]") for i, (a, v) in enumerate(zip(args, data)))
    if isinstance(kind, type) and attrs.has(kind):
        if not isinstance(data, dict):
            raise _fail(path, f"object {kind.__name__}", data)
        fields = field_types(kind)
        if set(data) != set(fields):
            raise EncodingError(
                f"at {path or 'top level'}: {kind.__name__} has fields {sorted(fields)}, got {sorted(data)}"
            )
        return kind(**{name: from_data(field, data[name], f"{path}.{name}") for name, field in fields.items()})
    raise EncodingError(f"at {path or 'top level'}: cannot decode type {kind}")


def decode(kind: type, text: str) -> Any:
    """The state of type `kind` whose canonical JSON is `text`."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise EncodingError(f"not JSON: {exc}") from None
    return from_data(kind, data)
