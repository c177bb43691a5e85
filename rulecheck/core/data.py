"""Data sets: what a rulebook leaves out (card lists, improvement effects, board layouts), as files.

Models: a game's data format (a JSON Schema file, the game's own checks of what a schema
cannot say, such as unique names and references between entries, and the typed value the
game builds from a document) and the loading of one data file in that format: TOML or JSON
by its suffix, validated against the schema, then checked and built by the game. Every
error names the file, the entry and the field (`cards.toml: cards[3] "Minoru": cost: -1 is
less than the minimum of 0`), and nothing is built from a document that failed any check.
A loaded data set keeps where it came from and a digest of its content, which a game's setup
and its traces carry, so a replay under other data is refused rather than misread. A data
file is untrusted input, read within the limits of rulecheck.core.untrusted; messages quote
its names and values cut to a readable length.

Leaves out: what any field means (each game's rules), and which files exist (each game
names its default data set and the command's `--data FILE` names another).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, Generic, TypeVar

import attrs
import jsonschema

from rulecheck.core.codec import canonical_json
from rulecheck.core.errors import DataError
from rulecheck.core.untrusted import MAX_SHOWN, clip, load_document, shown

T = TypeVar("T")

DEFAULT_SOURCE = "default"
"""The source a game's default data set is recorded under."""


def entry_name(document: Mapping[str, Any], path: Sequence[str | int]) -> str:
    """`path` into `document` as text: `cards[3] "Minoru".cost`, naming entries that have a name."""
    text = ""
    node: Any = document
    for step in path:
        if isinstance(step, int):
            text += f"[{step}]"
            node = node[step] if isinstance(node, list) and step < len(node) else None
            if isinstance(node, Mapping) and isinstance(node.get("name"), str):
                text += f" {_quoted(node['name'])}"
        else:
            text += f".{clip(step, MAX_SHOWN)}" if text else clip(step, MAX_SHOWN)
            node = node.get(step) if isinstance(node, Mapping) else None
    return text or "(the document)"


def _quoted(name: str) -> str:
    """An entry's name in double quotes, or, if it is long or has characters that are not printable, shown."""
    return f'"{name}"' if len(name) <= MAX_SHOWN and name.isprintable() and '"' not in name else shown(name)


@attrs.frozen
class DataFormat(Generic[T]):
    """A game's data format: its JSON Schema, its default data set and how the game builds its value.

    `build(document, fail)` returns the game's typed data; it calls `fail(path, message)` (which
    raises DataError) for anything the schema cannot check, `path` leading to the entry and field."""

    name: str
    schema: Path
    default: Path
    build: Callable[[Mapping[str, Any], Callable[[Sequence[str | int], str], Any]], T]

    def load(self, path: Path | str | None = None) -> LoadedData[T]:
        """The data set in `path` (the default one when None), checked and built; DataError otherwise."""
        chosen = Path(path) if path is not None else self.default
        try:
            stat = chosen.stat()
        except OSError as exc:
            raise DataError(f"{chosen}: cannot read {self.name} data: {exc.strerror}") from None
        loaded = _load(self, chosen.resolve(), stat.st_mtime_ns, stat.st_size)
        return attrs.evolve(loaded, source=DEFAULT_SOURCE if path is None else str(path))


@attrs.frozen
class LoadedData(Generic[T]):
    """A checked data set: the game's value built from it, where it came from and its digest."""

    value: T
    source: str
    """The file it was read from, as it was named, or DEFAULT_SOURCE for the game's default data
    set (so that a setup or trace of the default data reads the same on every machine)."""
    digest: str
    """The first 16 hex digits of the SHA-256 of the document's canonical JSON."""

    def to_data(self) -> dict[str, str]:
        return {"source": self.source, "digest": self.digest}


@lru_cache(maxsize=4)
def _schema_validator(schema_path: Path) -> Any:
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


@lru_cache(maxsize=16)
def _load(data_format: DataFormat[Any], path: Path, _mtime: int, _size: int) -> LoadedData[Any]:
    """Load once per file version (the modification time and size are part of the cache key)."""
    document = load_document(path, DataError, kind="data file")
    errors = sorted(
        _schema_validator(data_format.schema).iter_errors(document), key=lambda e: [str(p) for p in e.absolute_path]
    )
    if errors:
        first = errors[0]
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise DataError(f"{path}: {entry_name(document, list(first.absolute_path))}: {clip(first.message)}{more}")

    def fail(where: Sequence[str | int], message: str) -> Any:
        raise DataError(f"{path}: {entry_name(document, where)}: {clip(message)}")

    value = data_format.build(document, fail)
    digest = hashlib.sha256(canonical_json(document).encode("ascii")).hexdigest()[:16]
    return LoadedData(value, str(path), digest)
