"""Recording a suite trace: a list of actions played on our engine, with everything seen on the way.

Models: playing actions from the initial state (or a given one) and writing down, at each
step, the player to move, the state's canonical JSON, the legal actions with their ids or
the chance outcomes with ids and exact probabilities (each list sorted by text), and the
action with its id; at the end, the last state and, at a finished game, the returns. The
clauses the engine touches while it lists and applies the actions are counted, so export
knows what a trace exercises: building the initial state, listing and applying each step's
actions, and scoring a finished game.

Leaves out: which actions to play (export.py chooses them) and writing the file (format.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from rulecheck.core.clauses import coverage
from rulecheck.core.game import CHANCE, Game
from rulecheck.core.notation import Action
from rulecheck.suite.format import End, Step, SuiteTrace


def record_trace(
    game: Game[Any, Any],
    actions: Iterable[Action | str],
    *,
    trace_id: str,
    covers: Iterable[str] = (),
    start: Any = None,
) -> tuple[SuiteTrace, dict[str, int]]:
    """The suite trace of `actions` played from the initial state (or `start`), and the clauses
    the engine touched; IllegalAction if an action is not legal."""
    steps = []
    with coverage() as touched:  # building the initial state applies the setup's clauses
        state = game.initial_state() if start is None else start
        for item in actions:
            action = game.parse_action(item) if isinstance(item, str) else item
            steps.append(_step(game, state, action))
            state = game.apply(state, action)
        game.legal_actions(state)
        returns = tuple(map(Fraction, game.returns(state))) if game.is_terminal(state) else None
    trace = SuiteTrace(
        id=trace_id,
        covers=tuple(covers),
        game=game.name,
        game_version=game.version,
        players=game.players,
        options=tuple(sorted(game.options.text.items())),
        data=None if game.loaded_data is None else (game.loaded_data.source, game.loaded_data.digest),
        start=None if start is None else game.encode_state(start),
        steps=tuple(steps),
        end=End(game.to_move(state), game.encode_state(state), returns),
    )
    return trace, touched


def _step(game: Game[Any, Any], state: Any, action: Action) -> Step:
    mover = game.to_move(state)
    encoded = game.encode_state(state)
    if mover == CHANCE:
        outcomes = sorted((game.action_text(o), game.action_id(o), p) for o, p in game.chance_outcomes(state))
        return Step(mover, encoded, (), tuple(outcomes), game.action_text(action), game.action_id(action))
    legal = tuple((game.action_text(a), game.action_id(a)) for a in game.legal_actions(state))
    return Step(mover, encoded, legal, (), game.action_text(action), game.action_id(action))
