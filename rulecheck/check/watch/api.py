"""The shared API checker: what every game must satisfy, checked on the states of real play.

Models, for each state: it is hashable and its canonical JSON round-trips; the mover is
a player, CHANCE or TERMINAL; legal actions are a tuple sorted by text without repeats;
each legal action's text parses back, its integer id maps back to it, and applying it is
deterministic; actions that were legal elsewhere but not here are rejected with
IllegalAction; chance outcomes have positive Fraction probabilities summing to exactly
1 and are the legal actions of a chance node; the player a step is blamed on is a
player or nobody; terminal states have no actions, and their returns are exact, one
per player, and agree with `winners` and `losers` under the declared outcome. For a
whole game: two of its states are equal exactly when their canonical JSON is (exploration
merges states by equality, so a field the encoding leaves out, or one it shows that
equality ignores, would merge or split them wrongly); recording it as a trace and
replaying that trace reproduces every state;
and for a game that declares imperfect information, a player's legal actions depend
only on what that player observes (two states the mover cannot tell apart offer the
same actions).

Leaves out: whether the rules are right (that is the properties' job) and deadlocks
(a non-terminal state without actions is a finding of the generic checks, not an API
fault).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from rulecheck.check.watch.generic import outcome_disagreement
from rulecheck.core.errors import IllegalAction
from rulecheck.core.game import CHANCE, TERMINAL, Game
from rulecheck.core.notation import Action
from rulecheck.core.trace import record, replay
from rulecheck.core.traits import IMPERFECT

REJECTION_SAMPLE = 16


class ApiViolation(AssertionError):
    """A game broke the shared protocol; the message names the check and the state."""


def _fail(game: Game[Any, Any], state: Any, problem: str) -> ApiViolation:
    return ApiViolation(f"{game.name}: {problem}\n  in state {game.encode_state(state)}")


def _check_encoding(game: Game[Any, Any], state: Any) -> None:
    hash(state)
    text = game.encode_state(state)
    back = game.decode_state(text)
    if back != state or game.encode_state(back) != text:
        raise _fail(game, state, "canonical JSON does not round-trip")


def _check_actions(game: Game[Any, Any], state: Any, legal: tuple[Action, ...]) -> None:
    if not isinstance(legal, tuple):
        raise _fail(game, state, f"legal_actions returned a {type(legal).__name__}, not a tuple")
    texts = [game.action_text(a) for a in legal]
    if any(a >= b for a, b in zip(texts, texts[1:])):
        raise _fail(game, state, f"legal actions are not sorted by text without repeats: {texts}")
    chance = game.to_move(state) == CHANCE
    for action, text in zip(legal, texts):
        if game.parse_action(text) != action:
            raise _fail(game, state, f"notation {text!r} does not parse back to the same action")
        if game.action_from_id(game.action_id(action), chance=chance) != action:
            raise _fail(game, state, f"the integer id of {text!r} does not map back to it")
        blamed = game.blame(state, action)
        if blamed is not None and not 0 <= blamed < game.players:
            raise _fail(game, state, f"{text!r} is blamed on {blamed}, not a player or nobody")
        first, second = game.apply(state, action), game.apply(state, action)
        if first != second or game.encode_state(first) != game.encode_state(second):
            raise _fail(game, state, f"applying {text!r} twice gave different states")


def _check_chance(game: Game[Any, Any], state: Any, legal: tuple[Action, ...]) -> None:
    outcomes = game.chance_outcomes(state)
    if game.to_move(state) != CHANCE:
        if outcomes:
            raise _fail(game, state, "chance outcomes at a state that is not a chance node")
        return
    if not outcomes:
        raise _fail(game, state, "a chance node without outcomes")
    if not all(isinstance(p, Fraction) and p > 0 for _, p in outcomes):
        raise _fail(game, state, "chance probabilities must be positive Fractions")
    total = sum((p for _, p in outcomes), Fraction(0))
    if total != 1:
        raise _fail(game, state, f"chance probabilities sum to {total}, not 1")
    if tuple(sorted((o for o, _ in outcomes), key=str)) != legal:
        raise _fail(game, state, "the legal actions of a chance node are not its outcomes")


def _check_rejections(game: Game[Any, Any], state: Any, legal: tuple[Action, ...], pool: Sequence[Action]) -> None:
    allowed = set(legal)
    others = [a for a in pool if a not in allowed]
    stride = max(1, len(others) // REJECTION_SAMPLE)
    for action in others[::stride]:
        try:
            game.apply(state, action)
        except IllegalAction:
            continue
        raise _fail(game, state, f"{str(action)!r} is not legal here but apply accepted it")


def _check_outcome(game: Game[Any, Any], state: Any) -> None:
    problem = outcome_disagreement(game, state)
    if problem is not None:
        raise _fail(game, state, problem)


def check_observations(game: Game[Any, Any], states: Iterable[Any]) -> None:
    """Under imperfect information: states that look the same to the player to move offer the
    same legal actions."""
    if game.traits.information != IMPERFECT:
        return
    seen: dict[tuple[int, Any], tuple[Any, tuple[Action, ...]]] = {}
    for state in states:
        mover = game.to_move(state)
        if mover < 0:
            continue
        legal = game.legal_actions(state)
        key = (mover, game.observation(state, mover))
        other, other_legal = seen.setdefault(key, (state, legal))
        if other_legal != legal:
            raise _fail(
                game,
                state,
                f"player {mover} cannot tell this state from {game.encode_state(other)} but their legal actions "
                f"differ: {[str(a) for a in legal]} against {[str(a) for a in other_legal]}",
            )


def check_equality(game: Game[Any, Any], states: Iterable[Any]) -> None:
    """States are equal, and hash alike, exactly when their canonical encodings are equal."""
    by_text: dict[str, Any] = {}
    by_state: dict[Any, str] = {}
    for state in states:
        text = game.encode_state(state)
        other = by_text.setdefault(text, state)
        if other != state or hash(other) != hash(state):
            raise _fail(
                game, state, f"a state with the same canonical JSON is not equal to it: {game.encode_state(other)}"
            )
        known = by_state.setdefault(state, text)
        if known != text:
            raise _fail(game, state, f"an equal state has other canonical JSON: {known}")


def check_state(game: Game[Any, Any], state: Any, pool: Sequence[Action] = ()) -> None:
    """Every per-state check; `pool` holds actions seen elsewhere, to test rejection."""
    _check_encoding(game, state)
    mover = game.to_move(state)
    if mover not in (CHANCE, TERMINAL) and not 0 <= mover < game.players:
        raise _fail(game, state, f"to_move is {mover}, not a player, CHANCE or TERMINAL")
    legal = game.legal_actions(state)
    if mover == TERMINAL:
        if legal or game.chance_outcomes(state):
            raise _fail(game, state, "a terminal state has actions")
        _check_outcome(game, state)
    _check_actions(game, state, legal)
    _check_chance(game, state, legal)
    _check_rejections(game, state, legal, pool)


def check_play(game: Game[Any, Any], actions: Iterable[Action]) -> None:
    """Play `actions` from the start, checking every state and the observations along the way,
    then check that the trace replays."""
    actions = tuple(actions)
    state = game.initial_state()
    seen: dict[Action, None] = {}
    check_state(game, state)
    states = [state]
    for action in actions:
        seen.update(dict.fromkeys(game.legal_actions(state)))
        state = game.apply(state, action)
        check_state(game, state, list(seen))
        states.append(state)
    check_equality(game, states)
    check_observations(game, states)
    trace = record(game, actions)
    if replay(game, trace) != state:
        raise _fail(game, state, "replaying the recorded trace ended in another state")
