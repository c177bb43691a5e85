"""Scenario files: one position of one game in a few TOML lines, with the answer a case expects.

Models: the scenario format of docs/scenarios.md (`rulecheck-scenario`, version 1): the game,
its player count, options and data set, the position in the game's own position format
(rulecheck/model/position.py), and an optional expected answer (legal actions, an illegal
action and its clause, or an action's exact outcomes), also under other option values. A file
is untrusted input (rulecheck/core/untrusted.py); every key is checked, and an impossible
position is refused naming the file, the line, the field and the rule it breaks: the game's
reader names a clause, and a state it builds must hold every state property the rulebook
promises under the options (properties/<game>.py). Writing a state back as a scenario file
(`scenario new`) is here too, through tomli-w; and where the scenarios shipped with rulecheck
are: a relative path under `scenarios/` with nothing there names the shipped file or folder of
that name (package data of rulecheck.scenarios), so the rulebooks' edge cases are reachable
by name from any folder, without the checkout.

Leaves out: what is asked of a position (ask.py) and the positions themselves (each game's
position.py).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any, Final, NoReturn

import attrs
import tomli_w

from rulecheck.check.watch.property_checks import promised
from rulecheck.core.errors import DataError, RulecheckError, ScenarioError
from rulecheck.core.game import Game
from rulecheck.core.untrusted import parse_toml, read_text, shown
from rulecheck.model.position import dotted
from rulecheck.model.properties import StateProperty
from rulecheck.registry import declaration, game_class, make_game

FORMAT: Final = "rulecheck-scenario"
FORMAT_VERSION: Final = 1
KEYS: Final = frozenset(
    {"format", "format_version", "game", "players", "title", "question", "data", "options", "position", "expect"}
)
ANSWERS: Final = frozenset({"legal", "action", "illegal", "outcomes"})
ABSENT: Final = "(absent)"
"""How an outcome's `changed` writes a part of the position that is gone."""
SHIPPED: Final = "scenarios"
"""The folder a relative path starts with to name a scenario shipped with rulecheck."""


@attrs.frozen
class Answer:
    """An answer a case expects: the legal actions, or what an action does (refused by a clause,
    or leading to outcomes, each a probability and the parts of the position it changes)."""

    legal: tuple[str, ...] | None = None
    action: str | None = None
    illegal: str | None = None
    outcomes: tuple[tuple[Fraction, tuple[tuple[str, Any], ...]], ...] | None = None


@attrs.frozen
class Reading:
    """An expected answer under the scenario's options with `options` over them."""

    options: tuple[tuple[str, str], ...]
    answer: Answer


@attrs.frozen
class Scenario:
    source: str
    """The file, as named."""
    game: Game[Any, Any]
    state: Any
    title: str
    question: str
    expected: tuple[Reading, ...]
    """The `[expect]` answer (under no further options) and each `[[expect.when]]` one."""
    data: str | None
    """The data file the game plays with (None: its default)."""

    def under(self, options: Mapping[str, str]) -> Scenario:
        """The same scenario read again with `options` over its own (the position's defaults and
        checks may depend on them)."""
        return _build(self.source, self._document, dict(self.game.options.text) | dict(options), self._text)

    _document: Mapping[str, Any] = attrs.field(repr=False, eq=False)
    _text: str = attrs.field(repr=False, eq=False)


def shipped_folder() -> Path:
    """The folder of the scenarios shipped with rulecheck (one sub-folder per game)."""
    return Path(str(resources.files("rulecheck.scenarios")))


def scenario_path(path: Path) -> Path:
    """`path` when anything is there; else, for a relative path under SHIPPED (`scenarios/mechanica`,
    `scenarios/mechanica/01-two-bots-one-hole.toml`), the shipped folder or file of that name
    where there is one; else `path`, which reading then reports as not found."""
    if path.exists() or path.is_absolute() or path.parts[:1] != (SHIPPED,):
        return path
    shipped = shipped_folder().joinpath(*path.parts[1:])
    return shipped if shipped.exists() else path


def load_scenario(path: Path, options: Mapping[str, str] | None = None) -> Scenario:
    """The scenario in `path` (or the shipped one it names: scenario_path), with `options` (from
    `--set`) over the file's; ScenarioError naming the file, line and field of what is wrong."""
    if path.suffix != ".toml":
        raise ScenarioError(f"{path}: a scenario file is .toml, not {path.suffix or 'without a suffix'}")
    path = scenario_path(path)
    return parse_scenario(read_text(path, ScenarioError), str(path), options)


def names_a_format(path: Path) -> bool:
    """Whether the TOML file `path` (or the shipped one it names) has a top-level `format` key, as
    every scenario file does (a data set beside scenarios has none); true for a file that cannot
    be read as TOML, which reading it as a scenario then refuses with the reason."""
    path = scenario_path(path)
    try:
        return "format" in parse_toml(read_text(path, ScenarioError), str(path), ScenarioError)
    except ScenarioError:
        return True


def parse_scenario(text: str, source: str, options: Mapping[str, str] | None = None) -> Scenario:
    """The scenario the TOML `text` holds; `source` names it in messages and data files are found beside it."""
    document = parse_toml(text, source, ScenarioError)
    _check_keys(document, KEYS, (), source, text)
    _require(document, "format", str, source, text)
    if (document["format"], document.get("format_version")) != (FORMAT, FORMAT_VERSION):
        _fail(source, text, ("format",), f"not a {FORMAT} file of version {FORMAT_VERSION}")
    chosen = _strings(document.get("options", {}), ("options",), source, text)
    return _build(source, document, chosen | dict(options or {}), text)


def _build(source: str, document: Mapping[str, Any], options: Mapping[str, str], text: str) -> Scenario:
    name = _require(document, "game", str, source, text)
    players = document.get("players")
    if players is not None and (not isinstance(players, int) or isinstance(players, bool)):
        _fail(source, text, ("players",), "must be a whole number")
    data = document.get("data")
    if data is not None and not isinstance(data, str):
        _fail(source, text, ("data",), "must be a file name")
    data_file = None if data is None else str(Path(source).parent / data)
    try:
        game_class(name).option_space.resolve(options)
    except RulecheckError as exc:
        _fail(source, text, ("options",) if "option" in str(exc) else ("game",), str(exc))
    try:
        game = make_game(name, players, options, data=data_file)
    except RulecheckError as exc:
        _fail(source, text, _blamed(name, players, data_file, exc), str(exc))
    position = document.get("position")
    if not isinstance(position, Mapping):
        _fail(source, text, ("position",), "a scenario needs a [position] table")
    expected = _expected(document.get("expect"), source, text)
    state = read_position(game, position, source, text)
    title = document.get("title", "")
    question = document.get("question", "")
    return Scenario(source, game, state, str(title), str(question), expected, data_file, document, text)


def _blamed(name: str, players: int | None, data_file: str | None, exc: RulecheckError) -> tuple[str]:
    """The field a game that cannot be built is blamed on: `players` for a count the game is not
    for, else `data` when a data file is named (one the game takes none of, or one that cannot be
    read or played), else `players`."""
    cls = game_class(name)
    if players is not None and not cls.min_players <= players <= cls.max_players:
        return ("players",)
    if data_file is not None and (cls.data_format is None or isinstance(exc, DataError)):
        return ("data",)
    return ("players",)


def read_position(game: Game[Any, Any], position: Mapping[str, Any], source: str, text: str) -> Any:
    """The state `position` describes, read by the game's position format and checked against every
    state property promised under the game's options."""
    format_ = declaration(game.name).position_format()

    def fail(path: Sequence[str | int], message: str, rule: str) -> NoReturn:
        _fail(source, text, ("position", *path), f"{message} [{rule}]")

    state = format_.read(game, position, fail)
    for prop in promised(game, declaration(game.name).properties):
        if isinstance(prop, StateProperty):
            broken = prop.check(game, state)
            if broken is not None:
                _fail(source, text, ("position",), f"breaks {prop.name}: {broken} [{', '.join(prop.clauses)}]")
    return state


def _expected(expect: Any, source: str, text: str) -> tuple[Reading, ...]:
    if expect is None:
        return ()
    if not isinstance(expect, Mapping):
        _fail(source, text, ("expect",), "must be a table")
    _check_keys(expect, ANSWERS | {"when"}, ("expect",), source, text)
    readings = []
    if set(expect) & ANSWERS:
        readings.append(Reading((), _answer(expect, ("expect",), source, text)))
    when = expect.get("when", [])
    if not isinstance(when, list):
        _fail(source, text, ("expect", "when"), "must be an array of tables ([[expect.when]])")
    for index, entry in enumerate(when):
        where = ("expect", "when", index)
        if not isinstance(entry, Mapping):
            _fail(source, text, where, "must be a table")
        _check_keys(entry, ANSWERS | {"options"}, where, source, text)
        chosen = _strings(entry.get("options", {}), (*where, "options"), source, text)
        readings.append(Reading(tuple(sorted(chosen.items())), _answer(entry, where, source, text)))
    return tuple(readings)


def _answer(table: Mapping[str, Any], where: tuple[str | int, ...], source: str, text: str) -> Answer:
    given = set(table) & ANSWERS
    if given == {"legal"}:
        legal = table["legal"]
        if not isinstance(legal, list) or not all(isinstance(a, str) for a in legal):
            _fail(source, text, (*where, "legal"), "must be an array of action texts")
        return Answer(legal=tuple(legal))
    if given not in ({"action", "illegal"}, {"action", "outcomes"}):
        _fail(source, text, where, "expects `legal`, or `action` with `illegal` or with [[outcomes]]")
    action = _require(table, "action", str, source, text, where)
    if "illegal" in given:
        return Answer(action=action, illegal=_require(table, "illegal", str, source, text, where))
    outcomes = table["outcomes"]
    if not isinstance(outcomes, list) or not outcomes:
        _fail(source, text, (*where, "outcomes"), "must be a non-empty array of tables")
    return Answer(
        action=action,
        outcomes=tuple(_outcome(o, (*where, "outcomes", i), source, text) for i, o in enumerate(outcomes)),
    )


def _outcome(
    table: Any, where: tuple[str | int, ...], source: str, text: str
) -> tuple[Fraction, tuple[tuple[str, Any], ...]]:
    if not isinstance(table, Mapping):
        _fail(source, text, where, "must be a table")
    _check_keys(table, {"probability", "changed"}, where, source, text)
    probability = _require(table, "probability", str, source, text, where)
    if not re.fullmatch(r"[0-9]{1,12}(/[1-9][0-9]{0,11})?", probability):
        _fail(source, text, (*where, "probability"), f'{shown(probability)} is not a fraction such as "1/6"')
    changed = table.get("changed", {})
    if not isinstance(changed, Mapping):
        _fail(source, text, (*where, "changed"), "must be a table of dotted paths and values")
    return Fraction(probability), tuple(sorted(changed.items()))


def _strings(table: Any, where: tuple[str | int, ...], source: str, text: str) -> dict[str, str]:
    if not isinstance(table, Mapping) or not all(isinstance(v, str) for v in table.values()):
        _fail(source, text, where, "must be a table of option names and values, each a string")
    return dict(table)


def _require(
    table: Mapping[str, Any], key: str, kind: type, source: str, text: str, where: tuple[str | int, ...] = ()
) -> Any:
    if key not in table:
        _fail(source, text, where, f"missing key {key!r}")
    if not isinstance(table[key], kind):
        _fail(source, text, (*where, key), f"must be a {kind.__name__}")
    return table[key]


def _check_keys(
    table: Mapping[str, Any], allowed: frozenset[str] | set[str], where: tuple[str | int, ...], source: str, text: str
) -> None:
    for key in table:
        if key not in allowed:
            _fail(source, text, (*where, key), f"unknown key; the keys here are {', '.join(sorted(allowed))}")


def _fail(source: str, text: str, path: Sequence[str | int], message: str) -> NoReturn:
    line = line_of(text, path)
    where = f"{source}:{line}" if line else source
    raise ScenarioError(f"{where}: {dotted(path) or '(the file)'}: {message}")


_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?")
_KEY = re.compile(r"^\s*([A-Za-z0-9_.\"-]+)\s*=")


def line_of(text: str, path: Sequence[str | int]) -> int | None:
    """The line (from 1) of the TOML text that writes the part of the document at `path`, as
    near as a reading without a parser can tell: the line of the deepest table header or key on
    the path, counting `[[array]]` headers for an index; None when not even the first matches."""
    lines = text.splitlines()
    found: int | None = None
    start = 0
    prefix: list[str] = []
    for step in path:
        if isinstance(step, int):
            headers = [index for index in range(start, len(lines)) if _header(lines[index]) == prefix]
            if step >= len(headers):
                return found
            start = headers[step]
            found = start + 1
            continue
        prefix.append(step)
        for index in range(start, len(lines)):
            header, key = _header(lines[index]), _KEY.match(lines[index])
            if header == prefix or (header is None and key is not None and key.group(1).strip('"') == step):
                start, found = index, index + 1
                break
        else:
            return found
    return found


def _header(line: str) -> list[str] | None:
    match = _HEADER.match(line)
    return [part.strip().strip('"') for part in match.group(1).split(".")] if match else None


def scenario_text(
    game: Game[Any, Any],
    state: Any,
    title: str,
    question: str,
    data: str | None = None,
    expect: Mapping[str, Any] | None = None,
) -> str:
    """A scenario file for `state` of `game`: its setup, its position written out in full, and
    the answer `expect` if given (an `[expect]` table of docs/scenarios.md)."""
    document: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": game.name,
        "players": game.players,
        "title": title,
        "question": question,
    }
    if data is not None:
        document["data"] = data
    defaults = game.option_space.defaults().text
    changed = {name: value for name, value in game.options.text.items() if defaults[name] != value}
    if changed:
        document["options"] = changed
    document["position"] = declaration(game.name).position_format().write(game, state)
    if expect is not None:
        document["expect"] = dict(expect)
    return tomli_w.dumps(document)
