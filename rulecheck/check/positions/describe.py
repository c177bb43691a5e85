"""Positions, steps and differences in a game's own words: those of its written positions.

Models: a state as the position a rule designer writes in a scenario file (the game's
position format: phase, turn, each player's pieces, with the names docs/<game>.md gives
them), shown in a few lines, one per part (a player, the turn, the board's counters), each
part's leaves by dotted path (`rovers.T14=3`); a step's effect as the leaves of the written
position it changes (`players.1.lost: false -> true`); two states that should be equal as the
leaves where they part; a clause cited with its rulebook lines and sentence; and how a
finished game ended (its winners and returns).

Leaves out: pictures (a game's drawing), and states of a game that has no position format
(their canonical JSON is shown instead, cut to a readable length).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from rulecheck.check.positions.ask import flatten, resolve_chance
from rulecheck.check.positions.scenario import ABSENT
from rulecheck.core.clauses import Clause
from rulecheck.core.game import CHANCE, TERMINAL, Game
from rulecheck.core.untrusted import clip
from rulecheck.registry import declaration

LINE: Final = 160
"""The most characters of one line of a position or of a step's effect."""


def mover_text(mover: int) -> str:
    """Who moves, in words: `player 1`, `chance`, or nobody once the game is over."""
    if mover == CHANCE:
        return "chance"
    if mover == TERMINAL:
        return "nobody (the game is over)"
    return f"player {mover}"


def written(game: Game[Any, Any], state: Any) -> dict[str, Any]:
    """The leaves of the state's written position by dotted path (its canonical JSON's, for a
    game without a position format)."""
    position = declaration(game.name).position
    document = position.write(game, state) if position is not None else json.loads(game.encode_state(state))
    return flatten(document)


def value_text(value: Any) -> str:
    """A leaf as a designer reads it: `T39 T62` for a list, `none` for an empty one, `empty` for
    an empty name (an empty Shop spot, say), `-` for a part that is gone."""
    if value == ABSENT:
        return "-"
    if value == "":
        return "empty"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return " ".join(value_text(v) for v in value) if value else "none"
    if isinstance(value, dict):
        return json.dumps(value, sort_keys=True)
    return str(value)


def _part(path: str) -> tuple[str, str]:
    """A leaf's part of the position and its path within the part: `players.0` and `rovers.T14`
    for `players.0.rovers.T14`; a top-level leaf is a part of its own."""
    head, _, rest = path.partition(".")
    number, _, inner = rest.partition(".")
    if number.isdigit():
        return f"{head}.{number}", inner
    return head, rest


def position_lines(game: Game[Any, Any], state: Any) -> list[str]:
    """The position, one line per part: `players.0: roll=2 lost=false rovers.T55=3`."""
    parts: dict[str, list[str]] = {}
    for path, value in written(game, state).items():
        part, inner = _part(path)
        parts.setdefault(part, []).append(f"{inner}={value_text(value)}" if inner else value_text(value))
    return [clip(f"{part}: {' '.join(items)}", LINE) for part, items in parts.items()]


def changes_text(before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    """The leaves that differ between two written positions, `path: old -> new`, in path order."""
    paths = sorted(p for p in before.keys() | after.keys() if before.get(p, ABSENT) != after.get(p, ABSENT))
    items = [f"{p}: {value_text(before.get(p, ABSENT))} -> {value_text(after.get(p, ABSENT))}" for p in paths]
    return clip("; ".join(items), LINE) if items else "nothing written changes"


def step_effect(game: Game[Any, Any], before: Any, after: Any) -> str:
    """What a step changed in the written position."""
    return changes_text(written(game, before), written(game, after))


def odds_text(game: Game[Any, Any], before: Any, after: Any) -> str:
    """Where the chance node `after` (reached from `before`) leads, as far as the next decision:
    each position's exact probability and what it changes from `before`, likeliest first."""
    reference = written(game, before)
    reached = sorted(resolve_chance(game, after, "the chance node"), key=lambda pair: -pair[0])
    items = [f"{p} ({float(p):.4f}): {changes_text(reference, written(game, s))}" for p, s in reached]
    return clip(" | ".join(items), 3 * LINE)


def clause_line(clause: Clause) -> str:
    """A clause with its rulebook lines and sentence: `GT-E1 (L212): A player who ...`."""
    where = f"L{','.join(map(str, clause.lines))}" if clause.lines else "implicit"
    return clip(f"{clause.id} ({where}): {clause.text}", LINE)


def ending(game: Game[Any, Any], state: Any) -> str:
    """How the game stands at `state`: who won and the returns, or that it is not over."""
    if not game.is_terminal(state):
        return "the game is not over"
    winners = sorted(game.winners(state))
    won = f"player{'s' if len(winners) > 1 else ''} {', '.join(map(str, winners))} won" if winners else "nobody won"
    return f"the game is over: {won}; returns {', '.join(map(str, game.returns(state)))}"
