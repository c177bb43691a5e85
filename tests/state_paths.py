"""The field paths of a game's canonical state JSON: those its state class can produce, those an encoded
state holds, and those a game's page documents in its field table.

A path is the dotted chain of object keys from the top (`turn.counted`); an array whose length varies
(a Python `tuple[X, ...]`) adds `[]` for its elements, and an array of fixed length (`tuple[X, Y]`, a
pair) adds `[0]`, `[1]`, ... for its items, since they mean different things. The JSON types are those
of the codec (rulecheck/core/codec.py): `object`, `array`, `string`, `int`, `bool`, `null`.

The field table is the Markdown table under the page's heading `## The state JSON, field by field`
whose first column holds the path in backticks; its `type` column names the JSON types joined by
` or `. Its `range` column, when it is one backticked `LOW..HIGH` (each bound a whole number or
`players` with an optional `+N` or `-N`; `LOW..` has no upper bound), bounds an int's value or an
array's length; when it is a list of backticked values (`roll`, `""`, `null`, `3`), it lists the
values a string, an int or a null may take; any other text is a description, not checked. Its `order`
column, for an array, says how its elements are ordered: `sorted` (ascending
by the element's own value) or `sorted by` a list of backticked keys of each element (object fields,
or `[0]`-style items of a pair; a remark in brackets is not a key), in that order of significance,
`null` before every string, are the claims `order_broken` checks. A row whose meaning starts with
`Rare:` is a path random play seldom reaches; it names the scenario file (by its path from the
project's root, in the game's folder of scenarios) whose position, or the state after its expected
action, holds it.

Leaves out: what the fields mean (the pages say that in the rules' words).
"""

from __future__ import annotations

import enum
import re
import types
from collections.abc import Iterator
from functools import cache
from typing import Any, Union, get_args, get_origin

import attrs

from rulecheck.core.codec import field_types

FIELDS_HEADING = "## The state JSON, field by field"
JSON_TYPES = ("object", "array", "string", "int", "bool", "null")


def _json_type(kind: Any) -> str:
    if kind is type(None):
        return "null"
    if kind is bool:
        return "bool"
    if kind is int:
        return "int"
    if kind is str or (isinstance(kind, type) and issubclass(kind, enum.Enum)):
        return "string"
    if get_origin(kind) in (tuple, frozenset):
        return "array"
    if isinstance(kind, type) and attrs.has(kind):
        return "object"
    raise TypeError(f"no JSON type for {kind!r}")


def _options(kind: Any) -> tuple[Any, ...]:
    """The types a value of `kind` may have: the members of a union, else `kind` itself."""
    return get_args(kind) if get_origin(kind) in (Union, types.UnionType) else (kind,)


@cache
def _parts(kind: Any) -> dict[str, Any]:
    """Each part of a value of the (non-union) type `kind`, by path suffix, worked out once per type."""
    return dict(_children(kind))


def _children(kind: Any) -> Iterator[tuple[str, Any]]:
    """(path suffix, type) of each part of a value of the (non-union) type `kind`."""
    origin = get_origin(kind)
    if origin in (tuple, frozenset):
        args = get_args(kind)
        if origin is frozenset or (len(args) == 2 and args[1] is Ellipsis):
            yield "[]", args[0]
        else:
            for index, arg in enumerate(args):
                yield f"[{index}]", arg
    elif isinstance(kind, type) and attrs.has(kind):
        for name, field in field_types(kind).items():
            yield f".{name}", field


def _join(path: str, suffix: str) -> str:
    return suffix[1:] if not path and suffix.startswith(".") else path + suffix


def declared_paths(kind: type) -> dict[str, frozenset[str]]:
    """Every path a state of type `kind` can hold, with the JSON types its value may have there."""
    found: dict[str, set[str]] = {}

    def visit(path: str, kind: Any) -> None:
        for option in _options(kind):
            found.setdefault(path, set()).add(_json_type(option))
            for suffix, child in _children(option):
                visit(_join(path, suffix), child)

    for suffix, child in _children(kind):
        visit(_join("", suffix), child)
    return {path: frozenset(kinds) for path, kinds in found.items()}


_LOADED: dict[type, str] = {type(None): "null", bool: "bool", int: "int", str: "string", list: "array", dict: "object"}
"""The JSON type of each kind of value `json.loads` makes."""


def seen_paths(kind: type, data: Any, found: dict[str, set[str]]) -> None:
    """Add to `found` every path the JSON-ready `data` of a state of type `kind` holds, with the JSON
    type of each value there; a value that fits no declared type is recorded by its own type."""

    def visit(path: str, kind: Any, data: Any) -> None:
        seen = _LOADED[type(data)]
        found.setdefault(path, set()).add(seen)
        if seen not in ("array", "object"):
            return
        fitting = [option for option in _options(kind) if _json_type(option) == seen]
        if not fitting:
            return
        parts = _parts(fitting[0])
        if seen == "object":
            for key, value in data.items():
                visit(_join(path, f".{key}"), parts.get(f".{key}"), value)
        elif "[]" in parts:
            for value in data:
                visit(f"{path}[]", parts["[]"], value)
        else:
            for index, value in enumerate(data):
                visit(f"{path}[{index}]", parts.get(f"[{index}]"), value)

    parts = _parts(kind)
    for key, value in data.items():
        visit(key, parts.get(f".{key}"), value)


@attrs.frozen
class Row:
    """One row of a page's field table."""

    path: str
    types: frozenset[str]
    range: str
    meaning: str
    order: str

    @property
    def rare(self) -> bool:
        return self.meaning.startswith("Rare:")

    def scenario(self) -> str | None:
        """The scenario file a rare row names (its path from the project's root, in a folder named
        scenarios), if any."""
        found = re.search(r"`((?:[^`/]+/)*scenarios/[^`]+\.toml)`", self.meaning)
        return found.group(1) if found else None

    def sort_keys(self) -> tuple[str, ...] | None:
        """The keys a `sorted by` order names, () for plain `sorted`, None when the order claims no sorting."""
        if self.order.startswith("sorted by"):
            return tuple(re.findall(r"`([^`]+)`", re.sub(r"\([^)]*\)", "", self.order)))
        return () if self.order.startswith("sorted") else None


def section(page: str, heading: str) -> str:
    """The text under `heading` (a whole line of the page) up to the next heading of its level."""
    level = heading.split(" ", 1)[0] + " "
    lines = page.splitlines()
    if heading not in lines:
        raise AssertionError(f"the page has no heading {heading!r}")
    start = lines.index(heading) + 1
    end = next((i for i in range(start, len(lines)) if lines[i].startswith(level)), len(lines))
    return "\n".join(lines[start:end])


def field_table(page: str) -> list[Row]:
    """The rows of the page's field table, in page order."""
    rows = []
    for line in section(page, FIELDS_HEADING).splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")] if line.startswith("| `") else []
        if not cells:
            continue
        if len(cells) != 5:
            raise AssertionError(f"a field row needs 5 cells (path, type, range, meaning, order): {line}")
        path, kinds, bounds, meaning, order = cells
        names = frozenset(kind.strip() for kind in kinds.split(" or "))
        if not names <= set(JSON_TYPES):
            raise AssertionError(f"{path}: unknown JSON types {sorted(names - set(JSON_TYPES))}")
        if SPAN.fullmatch(bounds):
            if not names <= {"int", "array", "null"}:
                raise AssertionError(f"{path}: a span bounds an int or an array's length, not a {sorted(names)}")
        elif LISTED.fullmatch(bounds) and names & {"array", "object", "bool"}:
            raise AssertionError(f"{path}: listed values fit a string, an int or a null, not a {sorted(names)}")
        rows.append(Row(path.strip("`"), names, bounds, meaning, order))
    return rows


def _key(element: Any, keys: tuple[str, ...]) -> tuple[Any, ...]:
    """An element's sort key under `keys`: its named fields or items, null before any other value."""
    picked = [element] if not keys else [element[int(k[1:-1])] if k.startswith("[") else element[k] for k in keys]
    return tuple((0, "") if value is None else (1, value) for value in picked)


def values_at(data: Any, path: str) -> Iterator[Any]:
    """Every value at `path` in the JSON-ready `data` (one per element of each `[]` above it); a `null`
    on the way holds nothing further."""
    steps = re.findall(r"\[\]|\[\d+\]|[^.\[\]]+", path)

    def walk(node: Any, rest: list[str]) -> Iterator[Any]:
        if not rest:
            yield node
            return
        step, more = rest[0], rest[1:]
        if step == "[]":
            for item in node:
                yield from walk(item, more)
        elif step.startswith("["):
            yield from walk(node[int(step[1:-1])], more)
        else:
            if step not in node:
                raise AssertionError(f"no key {step!r} on the way to {path}")
            if node[step] is not None or not more:
                yield from walk(node[step], more)

    yield from walk(data, steps)


def order_broken(data: Any, row: Row) -> list[Any] | None:
    """The first array at the row's path that breaks the order the row claims, or None."""
    keys = row.sort_keys()
    if keys is None:
        return None
    for array in values_at(data, row.path):
        if isinstance(array, list) and [_key(e, keys) for e in array] != sorted(_key(e, keys) for e in array):
            return array
    return None


BOUND = r"(-?\d+|players(?:[+-]\d+)?)"
SPAN = re.compile(rf"`{BOUND}\.\.{BOUND}?`")
LISTED = re.compile(r"`[^`]*`(?:, `[^`]*`)*")


def _bound(text: str, players: int) -> int:
    return players + int(text[len("players") :] or 0) if text.startswith("players") else int(text)


def _literal(value: Any) -> str:
    """A value as a range lists it: a string as itself (`""` when empty), an int or null as JSON."""
    if isinstance(value, str):
        return value or '""'
    return "null" if value is None else str(value)


def range_broken(data: Any, row: Row, players: int) -> Any:
    """The first value at the row's path outside the range the row claims (for an array, its length),
    or None; a row whose range is a description claims nothing."""
    span, listed = SPAN.fullmatch(row.range), LISTED.fullmatch(row.range)
    for value in values_at(data, row.path) if span or listed else ():
        if span:
            size = len(value) if isinstance(value, list) else value
            if not isinstance(size, int) or isinstance(size, bool):
                continue
            low, high = span.groups()
            if size < _bound(low, players) or (high is not None and size > _bound(high, players)):
                return value
        elif _literal(value) not in re.findall(r"`([^`]*)`", row.range):
            return value
    return None
