"""Our own engine behind the engine protocol: the reference every other implementation is held to.

Models: `ReferenceEngine.handle`, which answers each request of protocol.py from rulecheck's
games (any registered one), and `main`, which serves it on standard input and output, one
JSON object a line, so that the same engine runs as an external process
(`python -m rulecheck.suite.reference`) or in this one (`rulecheck.suite.reference:ReferenceEngine`).
A request the engine cannot meet (an unknown game or op, another game version, a data set
with another digest, an illegal action, a start position that is not a state of the game as
the game writes it or breaks a state property the rulebook promises under the options) is
answered with `error`; nothing is guessed. `suite verify` and `suite replay` hold each trace's
start to the same (`start_state`) before any engine sees it.

Leaves out: comparing answers with a suite (replay.py).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from rulecheck.check.watch.property_checks import promised
from rulecheck.core.codec import canonical_json
from rulecheck.core.data import DEFAULT_SOURCE
from rulecheck.core.errors import RulecheckError
from rulecheck.core.exact import exact_text
from rulecheck.core.game import CHANCE, Game
from rulecheck.core.untrusted import clip
from rulecheck.model.properties import StateProperty
from rulecheck.registry import declaration, make_game
from rulecheck.suite.protocol import PROTOCOL_VERSION


class ReferenceEngine:
    """Answers protocol requests with rulecheck's own engine, one game at a time."""

    def __init__(self) -> None:
        self._game: Game[Any, Any] | None = None
        self._state: Any = None

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        """The answer to one request: the op's fields, or `error`, with the request's `id`."""
        op = request.get("op")
        answer_of = {
            "new_game": self._new_game,
            "state": self._state_answer,
            "legal": self._legal,
            "chance": self._chance,
            "apply": self._apply,
            "returns": self._returns,
            "quit": lambda _: {"ok": True},
        }.get(op if isinstance(op, str) else "")
        try:
            if answer_of is None:
                raise RulecheckError(f"unknown op {clip(repr(op), 40)}")
            answer = answer_of(request)
        except RulecheckError as exc:
            answer = {"error": str(exc)}
        return {"id": request.get("id"), **answer}

    def _game_now(self) -> Game[Any, Any]:
        if self._game is None:
            raise RulecheckError("no game yet: send new_game first")
        return self._game

    def _new_game(self, request: dict[str, Any]) -> dict[str, Any]:
        game = setup_game(request)
        start = _field(request, "start", dict, optional=True)
        self._state = game.initial_state() if start is None else start_state(game, start)
        self._game = game
        return {"ok": True, "protocol": PROTOCOL_VERSION}

    def _state_answer(self, _: dict[str, Any]) -> dict[str, Any]:
        game = self._game_now()
        return {"to_move": game.to_move(self._state), "state": json.loads(game.encode_state(self._state))}

    def _legal(self, _: dict[str, Any]) -> dict[str, Any]:
        game = self._game_now()
        if game.to_move(self._state) == CHANCE:
            raise RulecheckError("a chance node: ask for chance outcomes")
        actions = game.legal_actions(self._state)
        return {"actions": [game.action_text(a) for a in actions], "ids": [game.action_id(a) for a in actions]}

    def _chance(self, _: dict[str, Any]) -> dict[str, Any]:
        game = self._game_now()
        if game.to_move(self._state) != CHANCE:
            raise RulecheckError("not a chance node")
        outcomes = game.chance_outcomes(self._state)
        return {
            "outcomes": [[game.action_text(o), exact_text(p)] for o, p in outcomes],
            "ids": [game.action_id(o) for o, _ in outcomes],
        }

    def _apply(self, request: dict[str, Any]) -> dict[str, Any]:
        game = self._game_now()
        text = _field(request, "action", str)
        self._state = game.apply(self._state, game.parse_action(text))
        return {"ok": True}

    def _returns(self, _: dict[str, Any]) -> dict[str, Any]:
        game = self._game_now()
        return {"returns": [exact_text(r) for r in game.returns(self._state)]}


def setup_game(setup: dict[str, Any]) -> Game[Any, Any]:
    """The game a `new_game` request (or a suite trace's setup) describes: its name, version,
    players, options and data set; RulecheckError when this engine cannot play it as described."""
    data = _field(setup, "data", dict, optional=True)
    source = None if data is None else _field(data, "source", str)
    digest = None if data is None else _field(data, "digest", str)
    options = _field(setup, "options", dict)
    if not all(isinstance(value, str) for value in options.values()):
        raise RulecheckError("new_game: option values are strings")
    name, players = _field(setup, "game", str), _field(setup, "players", int)
    game = make_game(name, players, options, data=None if source == DEFAULT_SOURCE else source)
    version = _field(setup, "game_version", int)
    if version != game.version:
        raise RulecheckError(f"this engine plays {game.name} version {game.version}, not version {version}")
    loaded = game.loaded_data
    if data is not None and (loaded is None or loaded.digest != digest):
        raise RulecheckError(f"the data set's digest is {None if loaded is None else loaded.digest}")
    return game


def start_state(game: Game[Any, Any], start: dict[str, Any]) -> Any:
    """The state `start` encodes, which must be one of `game`'s states written as the game writes
    it and hold every state property the rulebook promises under the game's options (as a
    scenario's position must); RulecheckError naming what it breaks otherwise."""
    written = canonical_json(start)
    try:
        state = game.decode_state(written)
        encoded = game.encode_state(state)
    except RulecheckError as exc:
        raise RulecheckError(f"not a state of {game.name}: {exc}") from None
    if encoded != written:  # a codec that normalises what it reads (none does yet) would show here
        raise RulecheckError(f"not a state of {game.name} as it writes one: it writes it back otherwise")
    for prop in promised(game, declaration(game.name).properties):
        if isinstance(prop, StateProperty):
            broken = prop.check(game, state)
            if broken is not None:
                raise RulecheckError(f"breaks {prop.name}: {clip(broken)} [{', '.join(prop.clauses)}]")
    return state


def _field(message: dict[str, Any], key: str, kind: type, *, optional: bool = False) -> Any:
    """`message[key]`, which must be a `kind` (or, when `optional`, null or absent); RulecheckError otherwise."""
    value = message.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        named = {int: "an integer", str: "a string", dict: "an object"}[kind]
        raise RulecheckError(f"{clip(repr(key), 40)} must be {named}, not {clip(json.dumps(value), 60)}")
    return value


def serve(handler: Any, lines: Any, out: Any) -> None:
    """Answer each JSON line of `lines` with `handler.handle`, one line each on `out`, until `quit`."""
    for line in lines:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except json.JSONDecodeError as exc:
            out.write(json.dumps({"id": None, "error": f"not JSON: {exc}"}) + "\n")
            out.flush()
            continue
        if not isinstance(request, dict):
            request = {"op": None}
        out.write(json.dumps(handler.handle(request), sort_keys=True) + "\n")
        out.flush()
        if request.get("op") == "quit":
            return


def main() -> None:
    serve(ReferenceEngine(), sys.stdin, sys.stdout)


if __name__ == "__main__":
    main()
