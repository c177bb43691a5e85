"""The clause catalogue of a game, loaded from `specs/<game>.toml`, and clause coverage.

Models: each atomic rule clause as an id (`GT-A9`), our wording of it, and where it
stands in the rulebook (file and line numbers). Engine code names the clause it
enforces by calling `touch(id)`; while a `coverage()` block is open in the same context
(thread or task) those calls are counted there, otherwise they cost one context-variable
read.

Leaves out: checking that the engine enforces every clause; that is what coverage
measures and what the findings report lists as dead rules.

Spec file format::

    game = "globetrotter"
    rulebook = "globetrotter.txt"

    [[clause]]
    id = "GT-A2"
    lines = [27]
    text = "A Rover may not enter a space holding any Rover or Building."
"""

from __future__ import annotations

import re
import tomllib
from contextvars import ContextVar
from importlib import resources
from pathlib import Path
from typing import Any

import attrs

from rulecheck.core.errors import SpecError

CLAUSE_ID = re.compile(r"^[A-Z]+(-[A-Za-z0-9]+)+$")


@attrs.frozen
class Clause:
    id: str
    text: str
    lines: tuple[int, ...]
    """Rulebook line numbers (as `cat -n` shows them); empty for an implicit clause."""


@attrs.frozen
class Catalogue:
    """Every clause of one game's rulebook, in spec-file order."""

    game: str
    rulebook: str
    clauses: tuple[Clause, ...]

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.clauses)

    def get(self, clause_id: str) -> Clause:
        for clause in self.clauses:
            if clause.id == clause_id:
                return clause
        raise SpecError(f"{self.game}: no clause {clause_id!r} in the catalogue")


def require(table: dict[str, Any], key: str, kind: type, where: str) -> Any:
    """`table[key]`, which must be a `kind`; SpecError naming `where` otherwise."""
    if key not in table:
        raise SpecError(f"{where}: missing key {key!r}")
    value = table[key]
    if not isinstance(value, kind):
        raise SpecError(f"{where}: {key!r} must be {kind.__name__}, got {type(value).__name__}")
    return value


def parse_catalogue(text: str, source: str) -> Catalogue:
    """A catalogue from spec-file text; `source` names the file in error messages."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(f"{source}: not valid TOML: {exc}") from None
    game = require(data, "game", str, source)
    rulebook = require(data, "rulebook", str, source)
    clauses: list[Clause] = []
    seen: set[str] = set()
    for index, table in enumerate(require(data, "clause", list, source)):
        where = f"{source}: clause #{index + 1}"
        if not isinstance(table, dict):
            raise SpecError(f"{where}: must be a table")
        clause_id = require(table, "id", str, where)
        where = f"{source}: clause {clause_id}"
        if not CLAUSE_ID.match(clause_id):
            raise SpecError(f"{where}: id must look like GT-A9")
        if clause_id in seen:
            raise SpecError(f"{where}: id repeats")
        seen.add(clause_id)
        lines = require(table, "lines", list, where)
        if not all(isinstance(n, int) and n > 0 for n in lines):
            raise SpecError(f"{where}: lines must be positive line numbers")
        unknown = set(table) - {"id", "text", "lines"}
        if unknown:
            raise SpecError(f"{where}: unknown keys {sorted(unknown)}")
        clauses.append(Clause(clause_id, require(table, "text", str, where).strip(), tuple(lines)))
    return Catalogue(game, rulebook, tuple(clauses))


def load_catalogue(game: str, spec_dir: Path | None = None) -> Catalogue:
    """The catalogue of `game` from `spec_dir` or, by default, the specs shipped with rulecheck."""
    name = f"{game}.toml"
    if spec_dir is not None:
        path = spec_dir / name
        if not path.is_file():
            raise SpecError(f"no spec file {path}")
        return parse_catalogue(path.read_text(encoding="utf-8"), str(path))
    resource = resources.files("rulecheck.specs").joinpath(name)
    if not resource.is_file():
        raise SpecError(f"no spec file specs/{name}")
    return parse_catalogue(resource.read_text(encoding="utf-8"), f"specs/{name}")


_counts: ContextVar[dict[str, int] | None] = ContextVar("rulecheck_clause_counts", default=None)
"""The counts of the innermost open `coverage()` block in this context (thread, task), if any: a
plain dict, whose item reads and writes cost a third of a Counter's (search touches clauses on
every step of every state)."""


def touch(clause_id: str, *more: str) -> None:
    """Engine code calls this where it enforces a clause; counted only inside `coverage()`. A rule
    that reads several clauses at once names them all in one call: play touches clauses on every
    step, and one call costs a fraction of several."""
    counts = _counts.get()
    if counts is not None:
        counts[clause_id] = counts.get(clause_id, 0) + 1
        for other in more:
            counts[other] = counts.get(other, 0) + 1


class Coverage:
    """An open `coverage()` block: entering it yields the dict that counts the block's touches; leaving
    it hands them to the block around it, unless isolated. A class rather than a generator-based
    context manager: a search opens an isolated block for many of the states it expands, and this
    costs a third of one."""

    __slots__ = ("_isolated", "_outer", "_inner", "_token")

    def __init__(self, isolated: bool) -> None:
        self._isolated = isolated

    def __enter__(self) -> dict[str, int]:
        self._outer = _counts.get()
        inner: dict[str, int] = {}
        self._inner = inner
        self._token = _counts.set(inner)
        return inner

    def __exit__(self, *exc: object) -> None:
        _counts.reset(self._token)
        outer, inner = self._outer, self._inner
        if outer is not None and not self._isolated and inner:
            for clause_id, count in inner.items():
                outer[clause_id] = outer.get(clause_id, 0) + count


def coverage(*, isolated: bool = False) -> Coverage:
    """Count every `touch` in this block, by clause id. Blocks nest; the outer one sees all,
    unless the inner one is `isolated` (a look ahead at steps not taken, say). The count
    belongs to the current context, so runs on other threads (a threaded Dask worker, say)
    keep counts of their own."""
    return Coverage(isolated)
