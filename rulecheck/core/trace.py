"""Traces: a whole game as its setup and list of actions, saved as JSON and replayed.

Models: a trace records the game's setup (name, behaviour version, players, every
option value), each action in canonical notation with a digest of the state after it,
and the final state's canonical JSON. Because dice and shuffles are chance actions, the
action list alone determines the game; the digests and final state let a replay check
that every step came out the same.

File format (`rulecheck-trace`, version 1)::

    {"format": "rulecheck-trace", "format_version": 1,
     "game": "globetrotter", "game_version": 1, "players": 2, "options": {...},
     "steps": [{"action": "move T14 T15", "digest": "3f2a..."}, ...],
     "final_state": {...}}

The digest is the first 16 hex digits of the SHA-256 of the state's canonical JSON. A
game played with a data set (cards, layouts) also records it, as
`"data": {"source": "<file>", "digest": "<16 hex digits>"}`; a replay under data with
another digest is refused. A trace saved as the witness of an issue also says what it shows,
as `"shows": {"kind": ..., "subject": ..., "message": ..., "clauses": [...], "shrunk_from": N}`
(the issue shows at its last step; `shrunk_from` is the length of the game it was shrunk
from, or null). A trace that starts from a position other than the game's initial
state (a scenario's, say) records that state as `"start": {...}`, its canonical JSON, and is
replayed from it.

A trace file is untrusted input, read within the limits of rulecheck.core.untrusted; its
fields are bounded too (players from 1 to MAX_PLAYERS, names and option values of at most
MAX_NAME characters, action text of at most MAX_ACTION_TEXT), and every error names the
file, the step and the field.

Leaves out: the legal-action sets and chance probabilities at each step; those are in
conformance suites, which build on traces.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import attrs

from rulecheck.core.codec import canonical_json
from rulecheck.core.errors import IllegalAction, NotationError, RulecheckError, TraceError
from rulecheck.core.files import write_whole
from rulecheck.core.game import Game
from rulecheck.core.notation import MAX_ACTION_TEXT, Action
from rulecheck.core.untrusted import clip, parse_json, read_text, shown

FORMAT = "rulecheck-trace"
FORMAT_VERSION = 1
MAX_PLAYERS = 64
"""The most players a trace may name."""
MAX_NAME = 100
"""The most characters of a game's name, an option's name or an option's value in a trace."""
MAX_SOURCE = 4_096
"""The most characters of the file a trace's data set was read from."""
DIGEST = re.compile(r"[0-9a-f]{16}")
"""A state or data digest as a trace records it: 16 lower-case hex digits."""


def digest(encoded_state: str) -> str:
    return hashlib.sha256(encoded_state.encode("ascii")).hexdigest()[:16]


@attrs.frozen
class Shows:
    """What a witness trace shows at its last step: an issue's kind, subject, message and clauses,
    and how many steps the game it was shrunk from had (None: it was not shrunk)."""

    kind: str
    subject: str
    message: str
    clauses: tuple[str, ...]
    shrunk_from: int | None = None

    def to_data(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "subject": self.subject,
            "message": self.message,
            "clauses": list(self.clauses),
            "shrunk_from": self.shrunk_from,
        }


@attrs.frozen
class Trace:
    game: str
    game_version: int
    players: int
    options: tuple[tuple[str, str], ...]
    actions: tuple[str, ...]
    digests: tuple[str, ...]
    final_state: str
    """Canonical JSON of the state after the last action."""
    data: tuple[str, str] | None = None
    """The data set's source and digest, for a game played with one."""
    start: str | None = None
    """Canonical JSON of the state the actions start from, when it is not the initial state."""
    shows: Shows | None = None
    """What the trace was saved to show, for a witness."""

    def first_state(self, game: Game[Any, Any]) -> Any:
        """The state the trace's actions start from in `game`: its recorded start, or the initial state."""
        if self.start is None:
            return game.initial_state()
        try:
            return game.decode_state(self.start)
        except RulecheckError as exc:
            raise TraceError(f"the trace's start state is not a state of {game.name}: {exc}") from None

    def to_data(self) -> dict[str, Any]:
        found = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "game": self.game,
            "game_version": self.game_version,
            "players": self.players,
            "options": dict(self.options),
            "steps": [{"action": a, "digest": d} for a, d in zip(self.actions, self.digests)],
            "final_state": json.loads(self.final_state),
        }
        if self.data is not None:
            found["data"] = {"source": self.data[0], "digest": self.data[1]}
        if self.start is not None:
            found["start"] = json.loads(self.start)
        if self.shows is not None:
            found["shows"] = self.shows.to_data()
        return found

    def save(self, path: Path) -> None:
        """Write the trace; the file appears whole or not at all."""
        write_whole(path, json.dumps(self.to_data(), indent=1, sort_keys=True) + "\n")


def record(game: Game[Any, Any], actions: Iterable[Action | str], start: Any = None) -> Trace:
    """Play `actions` from the initial state (or from the state `start`) and record them;
    IllegalAction if one is not legal."""
    state = game.initial_state() if start is None else start
    texts, digests = [], []
    for item in actions:
        action = game.parse_action(item) if isinstance(item, str) else item
        state = game.apply(state, action)
        texts.append(game.action_text(action))
        digests.append(digest(game.encode_state(state)))
    return Trace(
        game=game.name,
        game_version=game.version,
        players=game.players,
        options=tuple(sorted(game.options.text.items())),
        actions=tuple(texts),
        digests=tuple(digests),
        final_state=game.encode_state(state),
        data=None if game.loaded_data is None else (game.loaded_data.source, game.loaded_data.digest),
        start=None if start is None else game.encode_state(start),
    )


def _field(data: dict[str, Any], key: str, kind: type, source: str) -> Any:
    if key not in data:
        raise TraceError(f"{source}: missing key {key!r}")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise TraceError(f"{source}: {key!r} must be {kind.__name__}")
    return value


def _text(data: dict[str, Any], key: str, limit: int, source: str) -> str:
    """The string field `key`, of at most `limit` characters."""
    value: str = _field(data, key, str, source)
    if len(value) > limit:
        raise TraceError(f"{source}: {key!r} is {shown(value)}; at most {limit:,} characters")
    return value


def _digest(data: dict[str, Any], source: str) -> str:
    value: str = _field(data, "digest", str, source)
    if not DIGEST.fullmatch(value):
        raise TraceError(f"{source}: 'digest' must be 16 hex digits (0-9, a-f), not {shown(value)}")
    return value


def _options(data: dict[str, Any], source: str) -> tuple[tuple[str, str], ...]:
    options = _field(data, "options", dict, source)
    for name, value in options.items():
        if not isinstance(value, str):
            raise TraceError(f"{source}: option {shown(name)}: option values must be strings")
        if len(name) > MAX_NAME or len(value) > MAX_NAME:
            raise TraceError(f"{source}: option {shown(name)}: names and values are at most {MAX_NAME} characters")
    return tuple(sorted(options.items()))


def _players(data: dict[str, Any], source: str) -> int:
    value: int = _field(data, "players", int, source)
    if not 1 <= value <= MAX_PLAYERS:
        raise TraceError(f"{source}: 'players' must be from 1 to {MAX_PLAYERS}, not {value}")
    return value


def _steps(data: dict[str, Any], source: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The action texts and digests of the trace's steps."""
    actions, digests = [], []
    for index, step in enumerate(_field(data, "steps", list, source), start=1):
        where = f"{source}: step {index}"
        if not isinstance(step, dict):
            raise TraceError(f"{where}: must be an object")
        actions.append(_text(step, "action", MAX_ACTION_TEXT, where))
        digests.append(_digest(step, where))
    return tuple(actions), tuple(digests)


def _data_set(data: dict[str, Any], source: str) -> tuple[str, str] | None:
    if "data" not in data:
        return None
    data_set = _field(data, "data", dict, source)
    return _text(data_set, "source", MAX_SOURCE, f"{source}: data"), _digest(data_set, f"{source}: data")


def _shows(data: dict[str, Any], source: str) -> Shows | None:
    if "shows" not in data:
        return None
    shows = _field(data, "shows", dict, source)
    where = f"{source}: shows"
    clauses = _field(shows, "clauses", list, where)
    if not all(isinstance(c, str) and len(c) <= MAX_NAME for c in clauses):
        raise TraceError(f"{where}: 'clauses' must be clause ids of at most {MAX_NAME} characters")
    shrunk_from = shows.get("shrunk_from")
    if shrunk_from is not None and (isinstance(shrunk_from, bool) or not isinstance(shrunk_from, int)):
        raise TraceError(f"{where}: 'shrunk_from' must be a whole number or null")
    return Shows(
        _text(shows, "kind", MAX_NAME, where),
        _text(shows, "subject", MAX_ACTION_TEXT, where),
        _text(shows, "message", MAX_SOURCE, where),
        tuple(clauses),
        shrunk_from,
    )


def parse_trace(text: str, source: str = "<trace>") -> Trace:
    """A trace from its JSON text; `source` names the file in error messages."""
    data = parse_json(text, source, TraceError)
    if not isinstance(data, dict):
        raise TraceError(f"{source}: a trace is a JSON object")
    if data.get("format") != FORMAT or data.get("format_version") != FORMAT_VERSION:
        raise TraceError(f"{source}: not a {FORMAT} file of version {FORMAT_VERSION}")
    actions, digests = _steps(data, source)
    return Trace(
        game=_text(data, "game", MAX_NAME, source),
        game_version=_field(data, "game_version", int, source),
        players=_players(data, source),
        options=_options(data, source),
        actions=actions,
        digests=digests,
        final_state=canonical_json(_field(data, "final_state", dict, source)),
        data=_data_set(data, source),
        start=canonical_json(_field(data, "start", dict, source)) if "start" in data else None,
        shows=_shows(data, source),
    )


def load_trace(path: Path) -> Trace:
    """The trace in the file `path`, read as untrusted input; TraceError naming the file otherwise."""
    return parse_trace(read_text(path, TraceError), str(path))


SHOWN_DIFFERENCES = 3
"""The most differences between a trace's setup and a game's that a message names."""


def _setup_difference(game: Game[Any, Any], trace: Trace) -> str | None:
    """Which fields of the setup (game, game_version, players, each option) the trace and the
    game disagree on, as one line (`the trace is for game_version 3; the game has game_version 4`),
    or None when they agree."""
    recorded = {"game": trace.game, "game_version": trace.game_version, "players": trace.players}
    actual = {"game": game.name, "game_version": game.version, "players": game.players}
    recorded |= {f"option {clip(name, MAX_NAME)}": value for name, value in trace.options}
    actual |= {f"option {clip(name, MAX_NAME)}": value for name, value in game.options.text.items()}
    differing = [key for key in recorded | actual if recorded.get(key) != actual.get(key)]
    if not differing:
        return None
    named = differing[:SHOWN_DIFFERENCES]
    more = f" (and {len(differing) - len(named)} more)" if len(differing) > len(named) else ""
    return f"the trace is for {_settings(recorded, named)}; the game has {_settings(actual, named)}{more}"


def _settings(setup: dict[str, Any], keys: list[str]) -> str:
    """`keys` of `setup` with their values: `game_version 3, option target '10'`."""
    return ", ".join(f"{key} {_setting(setup.get(key))}" for key in keys)


def _setting(value: str | int | None) -> str:
    return "unset" if value is None else shown(value) if isinstance(value, str) else str(value)


def replay_steps(game: Game[Any, Any], trace: Trace) -> Iterator[tuple[Any, Action, Any]]:
    """Replay `trace` on `game` step by step, yielding (state, action, next state) and checking
    the setup, every step's digest and, at the end, the final state. TraceError names the
    first step that differs or is illegal."""
    differs = _setup_difference(game, trace)
    if differs:
        raise TraceError(differs)
    loaded = game.loaded_data
    if trace.data is not None and (loaded is None or loaded.digest != trace.data[1]):
        now = "no data" if loaded is None else f"data {loaded.source} (digest {loaded.digest})"
        recorded = f"data {shown(trace.data[0])} (digest {trace.data[1]})"
        raise TraceError(f"trace was recorded with {recorded}, the game has {now}: give --data FILE")
    if trace.data is None and loaded is not None:
        raise TraceError(f"trace records no data set, the game has data {loaded.source}")
    state = trace.first_state(game)
    for index, (text, expected) in enumerate(zip(trace.actions, trace.digests), start=1):
        try:
            action = game.parse_action(text)
            after = game.apply(state, action)
        except (IllegalAction, NotationError) as exc:
            raise TraceError(f"step {index}: {exc}") from exc
        except RulecheckError as exc:
            raise TraceError(f"step {index} ({shown(text)}): {exc}") from exc
        actual = digest(game.encode_state(after))
        if actual != expected:
            raise TraceError(
                f"step {index} ({shown(text)}): state digest {actual} differs from the recorded {expected}"
            )
        yield state, action, after
        state = after
    if game.encode_state(state) != trace.final_state:
        raise TraceError("the final state differs from the recorded one")


def replay(game: Game[Any, Any], trace: Trace) -> Any:
    """Replay `trace` on `game` with every check of `replay_steps`; returns the final state."""
    state = trace.first_state(game)
    for _, _, state in replay_steps(game, trace):
        pass
    return state
