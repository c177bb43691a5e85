"""Positions written by hand: how a game reads a position from a few readable lines, and writes one.

Models: a game's position format, the part of a scenario file (rulecheck/check/positions/scenario.py)
under `[position]`. `read(game, document, fail)` builds the state the document describes,
filling every part it leaves out with the defaults the game's docs list, and calls
`fail(path, message, rule)` (which raises ScenarioError naming the file, the line and the
rule) for a position the rules make impossible or the document does not describe: `path`
leads to the entry and field (`("rovers", 1, "space")`), `rule` is the id of the clause or
the name of the property it breaks. `write(game, state)` is the document of a state with
every part written out, holding only what TOML holds (tables, arrays, strings, integers,
booleans; nothing for an absent value), so that reading it back gives the same state. A
DocumentReader checks the shape of each value as a game's reader reads it.

Leaves out: the scenario file around the position (players, options, data set, expected
answers) and the checks every read position gets whatever the game (its properties).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, NoReturn, TypeVar

import attrs

from rulecheck.core.untrusted import MAX_SHOWN, clip, shown

S = TypeVar("S")

Path = Sequence[str | int]
Fail = Callable[[Path, str, str], NoReturn]
"""`fail(path, message, rule)`: refuse the position; `rule` is a clause id or a property name."""


@attrs.frozen
class PositionFormat(Generic[S]):
    """A game's readable position: `read` builds a state from a document, `write` the reverse."""

    read: Callable[[Any, Mapping[str, Any], Fail], S]
    write: Callable[[Any, S], dict[str, Any]]
    defaults: str
    """Where the defaults of a part left out are documented (`docs/globetrotter.md#scenarios`)."""


def dotted(path: Path) -> str:
    """`("position", "rovers", 1, "space")` as `position.rovers[1].space`, each name cut to a readable length."""
    text = ""
    for step in path:
        name = clip(str(step), MAX_SHOWN)
        text += f"[{step}]" if isinstance(step, int) else (f".{name}" if text else name)
    return text


def described(value: Any) -> str:
    """What a value of a document is, for a message: `the string 'x'`, `a list`, `the number 3`."""
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, str):
        return f"the string {shown(value)}"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Mapping):
        return "a table"
    return f"a {type(value).__name__}"


def like(value: str, known: Sequence[str]) -> str:
    """A hint naming the known names closest to `value` (up to three, the closest first), or every
    name when none is close and they are few."""
    close = difflib.get_close_matches(value, known, n=3)
    if close:
        return f" (did you mean {' or '.join(map(shown, close))}?)"
    return f"; the names are {', '.join(sorted(known))}" if len(known) <= 30 else ""


class DocumentReader:
    """The values of a position document, each checked for its shape as it is read: a value of
    the wrong shape is refused through `fail` naming `format_rule` (where the format is
    documented), a value out of range naming the rule the caller gives. Games subclass it with
    readers of their own names (squares, cards, spaces)."""

    def __init__(self, fail: Fail, format_rule: str, players: int) -> None:
        self.fail = fail
        self.format_rule = format_rule
        self.players = players

    def table(self, value: Any, path: Path, keys: Sequence[str] | None = None) -> Mapping[str, Any]:
        """A table whose keys are among `keys` (None: any keys)."""
        if not isinstance(value, Mapping):
            self.fail(path, f"a table is expected, not {described(value)}", self.format_rule)
        for key in value:
            if keys is not None and key not in keys:
                self.fail([*path, key], f"no such key; the keys are {', '.join(keys)}", self.format_rule)
        return value

    def mapping(self, table: Mapping[str, Any], key: str, path: Path) -> Mapping[str, Any] | None:
        """The table under `key`, or None when the key is left out."""
        if key not in table:
            return None
        value = table[key]
        if not isinstance(value, Mapping):
            self.fail([*path, key], f"a table is expected, not {described(value)}", self.format_rule)
        return value

    def integer(self, table: Mapping[str, Any], key: str, path: Path, default: int) -> int:
        value = table.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail([*path, key], f"a whole number is expected, not {described(value)}", self.format_rule)
        return value

    def count(self, table: Mapping[str, Any], key: str, path: Path, rule: str, default: int = 0) -> int:
        """A whole number, not negative (`rule` is what a negative one breaks)."""
        value = self.integer(table, key, path, default)
        if value < 0:
            self.fail([*path, key], f"{value} is negative", rule)
        return value

    def boolean(self, table: Mapping[str, Any], key: str, path: Path, default: bool = False) -> bool:
        value = table.get(key, default)
        if not isinstance(value, bool):
            self.fail([*path, key], f"true or false is expected, not {described(value)}", self.format_rule)
        return value

    def text(self, value: Any, path: Path) -> str:
        if not isinstance(value, str):
            self.fail(path, f"a string is expected, not {described(value)}", self.format_rule)
        return value

    def choice(self, value: Any, path: Path, choices: Sequence[str], what: str, rule: str) -> str:
        """One of `choices` (names of the data set or of the format); `what` names one in the message."""
        text = self.text(value, path)
        if text not in choices:
            self.fail(path, f"there is no {what} {shown(text)}{like(text, choices)}", rule)
        return text

    def seat(self, value: Any, path: Path, rule: str) -> int:
        """A player's index, 0 to one less than the players (`rule` is what another number breaks)."""
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(path, f"a player's index is expected, not {described(value)}", self.format_rule)
        if not 0 <= value < self.players:
            self.fail(path, f"there is no player {value}: the {self.players} players are 0 to {self.players - 1}", rule)
        return value

    def items(self, table: Mapping[str, Any], key: str, path: Path) -> list[Any]:
        """The list under `key` (empty when left out)."""
        value = table.get(key, [])
        if not isinstance(value, list):
            self.fail([*path, key], f"a list is expected, not {described(value)}", self.format_rule)
        return value
