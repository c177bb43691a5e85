"""Positions written by hand: how a game reads a position from a few readable lines, and writes one.

Models: a game's position format, the part of a scenario file (rulecheck/check/scenario.py)
under `[position]`. `read(game, document, fail)` builds the state the document describes,
filling every part it leaves out with the defaults the game's docs list, and calls
`fail(path, message, rule)` (which raises ScenarioError naming the file, the line and the
rule) for a position the rules make impossible or the document does not describe: `path`
leads to the entry and field (`("rovers", 1, "space")`), `rule` is the id of the clause or
the name of the property it breaks. `write(game, state)` is the document of a state with
every part written out, holding only what TOML holds (tables, arrays, strings, integers,
booleans; nothing for an absent value), so that reading it back gives the same state.

Leaves out: the scenario file around the position (players, options, data set, expected
answers) and the checks every read position gets whatever the game (its properties).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, NoReturn, TypeVar

import attrs

from rulecheck.core.game import Game

S = TypeVar("S")

Path = Sequence[str | int]
Fail = Callable[[Path, str, str], NoReturn]
"""`fail(path, message, rule)`: refuse the position; `rule` is a clause id or a property name."""


@attrs.frozen
class PositionFormat(Generic[S]):
    """A game's readable position: `read` builds a state from a document, `write` the reverse."""

    read: Callable[[Game[Any, Any], Mapping[str, Any], Fail], S]
    write: Callable[[Game[Any, Any], S], dict[str, Any]]
    defaults: str
    """Where the defaults of a part left out are documented (`docs/globetrotter.md#scenarios`)."""
