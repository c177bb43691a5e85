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
another digest is refused.

Leaves out: the legal-action sets and chance probabilities at each step; those are in
conformance suites, which build on traces.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import attrs

from rulecheck.core.codec import canonical_json
from rulecheck.core.errors import IllegalAction, NotationError, RulecheckError, TraceError
from rulecheck.core.files import write_whole
from rulecheck.core.game import Game
from rulecheck.core.notation import Action

FORMAT = "rulecheck-trace"
FORMAT_VERSION = 1


def digest(encoded_state: str) -> str:
    return hashlib.sha256(encoded_state.encode("ascii")).hexdigest()[:16]


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
        return found

    def save(self, path: Path) -> None:
        """Write the trace; the file appears whole or not at all."""
        write_whole(path, json.dumps(self.to_data(), indent=1, sort_keys=True) + "\n")


def record(game: Game[Any, Any], actions: Iterable[Action | str]) -> Trace:
    """Play `actions` from the initial state and record them; IllegalAction if one is not legal."""
    state = game.initial_state()
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
        options=tuple(sorted(game.options.items())),
        actions=tuple(texts),
        digests=tuple(digests),
        final_state=game.encode_state(state),
        data=None if game.loaded_data is None else (game.loaded_data.source, game.loaded_data.digest),
    )


def _field(data: dict[str, Any], key: str, kind: type, source: str) -> Any:
    if key not in data:
        raise TraceError(f"{source}: missing key {key!r}")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise TraceError(f"{source}: {key!r} must be {kind.__name__}")
    return value


def parse_trace(text: str, source: str = "<trace>") -> Trace:
    """A trace from its JSON text; `source` names the file in error messages."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TraceError(f"{source}: not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise TraceError(f"{source}: a trace is a JSON object")
    if data.get("format") != FORMAT or data.get("format_version") != FORMAT_VERSION:
        raise TraceError(f"{source}: not a {FORMAT} file of version {FORMAT_VERSION}")
    options = _field(data, "options", dict, source)
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in options.items()):
        raise TraceError(f"{source}: option names and values must be strings")
    actions, digests = [], []
    for index, step in enumerate(_field(data, "steps", list, source), start=1):
        where = f"{source}: step {index}"
        if not isinstance(step, dict):
            raise TraceError(f"{where}: must be an object")
        actions.append(_field(step, "action", str, where))
        digests.append(_field(step, "digest", str, where))
    recorded = None
    if "data" in data:
        data_set = _field(data, "data", dict, source)
        recorded = (
            _field(data_set, "source", str, f"{source}: data"),
            _field(data_set, "digest", str, f"{source}: data"),
        )
    return Trace(
        game=_field(data, "game", str, source),
        game_version=_field(data, "game_version", int, source),
        players=_field(data, "players", int, source),
        options=tuple(sorted(options.items())),
        actions=tuple(actions),
        digests=tuple(digests),
        final_state=canonical_json(_field(data, "final_state", dict, source)),
        data=recorded,
    )


def load_trace(path: Path) -> Trace:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise TraceError(f"{path}: cannot read: {exc.strerror}") from None
    return parse_trace(text, str(path))


def replay_steps(game: Game[Any, Any], trace: Trace) -> Iterator[tuple[Any, Action, Any]]:
    """Replay `trace` on `game` step by step, yielding (state, action, next state) and checking
    the setup, every step's digest and, at the end, the final state. TraceError names the
    first step that differs or is illegal."""
    expected_setup = (trace.game, trace.game_version, trace.players, dict(trace.options))
    actual_setup = (game.name, game.version, game.players, dict(game.options))
    if expected_setup != actual_setup:
        raise TraceError(f"trace is for {expected_setup}, the game is {actual_setup}")
    loaded = game.loaded_data
    if trace.data is not None and (loaded is None or loaded.digest != trace.data[1]):
        now = "no data" if loaded is None else f"data {loaded.source} (digest {loaded.digest})"
        recorded = f"data {trace.data[0]} (digest {trace.data[1]})"
        raise TraceError(f"trace was recorded with {recorded}, the game has {now}: give --data FILE")
    if trace.data is None and loaded is not None:
        raise TraceError(f"trace records no data set, the game has data {loaded.source}")
    state = game.initial_state()
    for index, (text, expected) in enumerate(zip(trace.actions, trace.digests), start=1):
        try:
            action = game.parse_action(text)
            after = game.apply(state, action)
        except (IllegalAction, NotationError) as exc:
            raise TraceError(f"step {index}: {exc}") from exc
        except RulecheckError as exc:
            raise TraceError(f"step {index} ({text!r}): {exc}") from exc
        actual = digest(game.encode_state(after))
        if actual != expected:
            raise TraceError(f"step {index} ({text!r}): state digest {actual} differs from the recorded {expected}")
        yield state, action, after
        state = after
    if game.encode_state(state) != trace.final_state:
        raise TraceError("the final state differs from the recorded one")


def replay(game: Game[Any, Any], trace: Trace) -> Any:
    """Replay `trace` on `game` with every check of `replay_steps`; returns the final state."""
    state = game.initial_state()
    for _, _, state in replay_steps(game, trace):
        pass
    return state
