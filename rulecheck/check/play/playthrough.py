"""A played game, and seeded random play.

Models: a playthrough (the initial state, the actions taken and every state after them), and
one random legal game from a seed: uniform over the legal actions at a player's step, each
chance outcome by its probability at a chance node, to the end of the game or a step cap.
Nothing but the seed decides the game, so the same seed plays the same game again.

Leaves out: play that Hypothesis draws and shrinks (strategies.py) and any strategy for the players.
"""

from __future__ import annotations

import random
from typing import Any

import attrs

from rulecheck.core.game import CHANCE, TERMINAL, Game
from rulecheck.core.notation import Action
from rulecheck.core.trace import Trace, record

DEFAULT_MAX_STEPS = 3000


@attrs.frozen
class Playthrough:
    """One played game: `states[0]` is the initial state, `states[i + 1]` follows `actions[i]`."""

    game: Game[Any, Any] = attrs.field(eq=False)
    actions: tuple[Action, ...]
    states: tuple[Any, ...]

    def trace(self) -> Trace:
        return record(self.game, self.actions)

    def __str__(self) -> str:
        return f"{self.game.name} ({len(self.actions)} steps): " + "; ".join(map(str, self.actions))


def random_game(game: Game[Any, Any], seed: int, max_steps: int = DEFAULT_MAX_STEPS, start: Any = None) -> Playthrough:
    """One game from a seeded generator, from the initial state (or from the state `start`):
    uniform over the legal actions, chance by its probabilities; it stops at the end of the game
    or after `max_steps` actions."""
    rng = random.Random(seed)
    state = game.initial_state() if start is None else start
    actions: list[Action] = []
    states = [state]
    while len(actions) < max_steps:
        mover = game.to_move(state)
        if mover == TERMINAL:
            break
        if mover == CHANCE:
            outcomes, weights = zip(*game.chance_outcomes(state))
            action = rng.choices(outcomes, weights=[float(w) for w in weights])[0]
        else:
            action = rng.choice(game.legal_actions(state))
        state = game.apply(state, action)
        actions.append(action)
        states.append(state)
    return Playthrough(game, tuple(actions), tuple(states))
