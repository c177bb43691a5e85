"""The conformance-suite file: traces with everything an engine must reproduce at each step.

Models: a suite is a JSON-lines file, one trace a line, each line whole in itself, so that a
bad line spoils one trace and a reader goes on with the next. A trace records the setup a
game is built from (game, behaviour version, players, every option, the data set's source
and digest, and the position it starts from when that is not the initial state), why it is
in the suite (`covers`: the clauses, option values and findings it exercises), and at each
step the player to move, the state's canonical JSON, the sorted legal actions with their
integer ids or, at a chance node, the outcomes with ids and exact probabilities, and the
action taken with its id; at the end, the last state, who moves there and, for a finished
game, each player's exact return. Exact numbers are text: `"1/6"`, `"-1"`. The JSON Schema
`suite.schema.json` beside this module states the line's shape; docs/suites.md explains it.
Beyond the schema a reader holds each line to itself (sorted lists, the action among them,
chance summing to 1, a start that is the first state recorded, returns exactly when the game
is over, one a player) and the file to one trace an id: each fault is a bad line naming it.

Leaves out: how traces are chosen (export.py), comparing an engine with them (replay.py), and
whether a start is a state the game's rules allow (replay.py holds it to the game).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from fractions import Fraction
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Final

import attrs
import jsonschema_rs

from rulecheck.core.codec import canonical_json
from rulecheck.core.errors import RulecheckError
from rulecheck.core.exact import exact_text
from rulecheck.core.files import write_whole
from rulecheck.core.game import TERMINAL
from rulecheck.core.untrusted import clip, parse_json_line, raw_lines, shown

FORMAT: Final = "rulecheck-suite"
FORMAT_VERSION: Final = 1
SUITE_SUFFIX: Final = ".suite.jsonl"
"""How a suite file's name ends (the pytest plugin collects the files named so)."""
EXACT: Final = re.compile(r"-?(0|[1-9][0-9]*)(/[1-9][0-9]*)?")
"""An exact number as a suite writes it: an integer or a fraction in lowest terms."""


class SuiteError(RulecheckError, ValueError):
    """A suite file, or one line of it, that is not a trace of this format."""


@lru_cache(maxsize=4096)  # a suite repeats the same few probabilities thousands of times
def exact_value(text: str) -> Fraction:
    """The number an exact text stands for; ValueError unless it is written as `exact_text` writes it."""
    if not EXACT.fullmatch(text) or exact_text(Fraction(text)) != text:
        raise ValueError(f"{text!r} is not an exact number in lowest terms (such as '1/6' or '-1')")
    return Fraction(text)


@attrs.frozen
class Step:
    """One step of a trace: the position before the action, what may be done there, and what was."""

    to_move: int
    state: str
    """Canonical JSON of the state before the action."""
    legal: tuple[tuple[str, int], ...]
    """At a player's node, each legal action's text and id, sorted by text; empty at a chance node."""
    chance: tuple[tuple[str, int, Fraction], ...]
    """At a chance node, each outcome's text, id and exact probability, sorted by text; else empty."""
    action: str
    action_id: int


@attrs.frozen
class End:
    """Where a trace stops: its last state, who moves there, and the returns if the game is over."""

    to_move: int
    state: str
    returns: tuple[Fraction, ...] | None
    """Each player's exact return at a finished game; None where the trace stops before the end."""


@attrs.frozen
class SuiteTrace:
    id: str
    covers: tuple[str, ...]
    """Why the trace is in the suite: `clause GT-A2`, `option shooting=W2`, `finding GT-F09`, ..."""
    game: str
    game_version: int
    players: int
    options: tuple[tuple[str, str], ...]
    data: tuple[str, str] | None
    """The data set's source and digest, for a game played with one."""
    start: str | None
    """Canonical JSON of the state the trace starts from, when it is not the initial state."""
    steps: tuple[Step, ...]
    end: End

    @property
    def setup(self) -> dict[str, Any]:
        """What builds the game: name, version, players, options and data (None without)."""
        return {
            "game": self.game,
            "game_version": self.game_version,
            "players": self.players,
            "options": dict(self.options),
            "data": None if self.data is None else {"source": self.data[0], "digest": self.data[1]},
        }

    def to_data(self) -> dict[str, Any]:
        found: dict[str, Any] = {"format": FORMAT, "format_version": FORMAT_VERSION, "id": self.id}
        found |= {"covers": list(self.covers), **self.setup}
        if found["data"] is None:
            del found["data"]
        if self.start is not None:
            found["start"] = json.loads(self.start)
        found["steps"] = [_step_data(step) for step in self.steps]
        found["end"] = {
            "to_move": self.end.to_move,
            "state": json.loads(self.end.state),
            "returns": None if self.end.returns is None else [exact_text(r) for r in self.end.returns],
        }
        return found

    def line(self) -> str:
        """The trace as one line of a suite file (ASCII, keys sorted)."""
        return canonical_json(self.to_data())


def _step_data(step: Step) -> dict[str, Any]:
    found: dict[str, Any] = {"to_move": step.to_move, "state": json.loads(step.state)}
    if step.chance:
        found["chance"] = [[text, number, exact_text(p)] for text, number, p in step.chance]
    else:
        found["legal"] = [[text, number] for text, number in step.legal]
    found |= {"action": step.action, "action_id": step.action_id}
    return found


def save_suite(path: Path, traces: list[SuiteTrace]) -> None:
    """Write the suite; the file appears whole or not at all."""
    write_whole(path, "".join(trace.line() + "\n" for trace in traces))


@cache
def schema() -> dict[str, Any]:
    """The JSON Schema of one line of a suite file."""
    loaded: dict[str, Any] = json.loads(resources.files(__package__).joinpath("suite.schema.json").read_text("utf-8"))
    return loaded


@cache
def _validator() -> Any:
    """The schema's validator: jsonschema-rs, which checks a long trace far faster than jsonschema
    (whose validator the data sets' small files keep)."""
    return jsonschema_rs.validator_for(schema())


@attrs.frozen
class BadLine:
    """A line of a suite file that holds no trace, and why."""

    line: int
    trace: str | None
    """The trace's id when the line names one."""
    reason: str

    def message(self, source: str) -> str:
        named = f" (trace {self.trace})" if self.trace else ""
        return f"{source}:{self.line}{named}: {self.reason}"


def read_suite(path: Path) -> Iterator[tuple[int, SuiteTrace | BadLine]]:
    """Each line's number and its trace, or what is wrong with it; a bad line does not stop the
    reading, and a trace whose id an earlier trace has is a bad line naming that one's line.
    SuiteError when the file itself cannot be read (missing, too long, a folder)."""
    seen: dict[str, int] = {}
    for number, raw in raw_lines(path, SuiteError):
        try:
            data = parse_json_line(raw, str(path), number, SuiteError)
        except SuiteError as exc:
            yield number, BadLine(number, None, str(exc).removeprefix(f"{path}:{number}: "))
            continue
        item = parse_trace_data(data, number)
        if isinstance(item, SuiteTrace):
            if item.id in seen:
                reason = f"id: {shown(item.id)} is also the id of line {seen[item.id]}"
                item = BadLine(number, clip(item.id, 100), reason)
            else:
                seen[item.id] = number
        yield number, item


def parse_trace_data(data: Any, number: int = 1) -> SuiteTrace | BadLine:
    """The trace one line of a suite holds, or why it holds none."""
    named = data.get("id") if isinstance(data, dict) and isinstance(data.get("id"), str) else None
    trace = clip(named, 100) if named is not None else None
    if isinstance(data, dict) and (data.get("format"), data.get("format_version")) != (FORMAT, FORMAT_VERSION):
        found = f"{clip(str(data.get('format')), 40)} version {clip(str(data.get('format_version')), 20)}"
        return BadLine(number, trace, f"not a {FORMAT} line of version {FORMAT_VERSION} (it says {found})")
    errors = sorted(_validator().iter_errors(data), key=lambda e: [str(p) for p in e.instance_path])
    if errors:
        first = errors[0]
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in first.instance_path) or "the line"
        return BadLine(number, trace, f"{where.lstrip('.')}: {clip(first.message)}")
    try:
        return _trace(data)
    except ValueError as exc:
        return BadLine(number, trace, clip(str(exc)))


def _consistent(
    index: int,
    step: dict[str, Any],
    offered: tuple[tuple[str, int], ...],
    chance: tuple[tuple[str, int, Fraction], ...],
) -> None:
    """A step's lists sorted, each action once, the action among them with its id, and chance summing to 1."""
    texts = [t for t, _ in offered]
    if texts != sorted(set(texts)):
        raise ValueError(f"step {index}: the actions are not sorted by text, each once")
    if (step["action"], step["action_id"]) not in offered:
        named = "outcomes" if chance else "legal actions"
        raise ValueError(f"step {index}: {step['action']!r} with id {step['action_id']} is not among its {named}")
    if chance and sum(p for _, _, p in chance) != 1:
        raise ValueError(f"step {index}: the chance probabilities sum to {exact_text(sum(p for _, _, p in chance))}")


def _whole(data: dict[str, Any], steps: list[Step], returns: tuple[Fraction, ...] | None) -> None:
    """The trace's ends agree with themselves: a start is the first state recorded, and a game
    that is over has one return a player (and one that is not, none)."""
    if "start" in data:
        first = steps[0].state if steps else canonical_json(data["end"]["state"])
        if canonical_json(data["start"]) != first:
            raise ValueError(f"start: differs from the state recorded {'at step 1' if steps else 'at the end'}")
    over = data["end"]["to_move"] == TERMINAL
    if over and returns is None:
        raise ValueError(f"end: the game is over (to_move {TERMINAL}) but the returns are null")
    if returns is not None and not over:
        raise ValueError(f"end: returns are given but the game is not over (to_move {data['end']['to_move']})")
    if returns is not None and len(returns) != data["players"]:
        raise ValueError(f"end: {len(returns)} returns for {data['players']} players")


def _trace(data: dict[str, Any]) -> SuiteTrace:
    steps = []
    for index, step in enumerate(data["steps"], start=1):
        try:
            chance = tuple((t, n, exact_value(p)) for t, n, p in step.get("chance", ()))
        except ValueError as exc:
            raise ValueError(f"step {index}: chance: {exc}") from None
        legal = tuple((t, n) for t, n in step.get("legal", ()))
        _consistent(index, step, legal or tuple((t, n) for t, n, _ in chance), chance)
        steps.append(
            Step(step["to_move"], canonical_json(step["state"]), legal, chance, step["action"], step["action_id"])
        )
    end = data["end"]
    try:
        returns = None if end["returns"] is None else tuple(exact_value(r) for r in end["returns"])
    except ValueError as exc:
        raise ValueError(f"end: returns: {exc}") from None
    _whole(data, steps, returns)
    data_set = data.get("data")
    return SuiteTrace(
        id=data["id"],
        covers=tuple(data["covers"]),
        game=data["game"],
        game_version=data["game_version"],
        players=data["players"],
        options=tuple(sorted(data["options"].items())),
        data=None if data_set is None else (data_set["source"], data_set["digest"]),
        start=canonical_json(data["start"]) if "start" in data else None,
        steps=tuple(steps),
        end=End(end["to_move"], canonical_json(end["state"]), returns),
    )
