"""A played game, and seeded random play.

Models: a playthrough (the initial state, the actions taken and every state after them), and
one game played from a seed: a policy per seat chooses at a player's step (policies.py), each
chance outcome comes by its probability at a chance node, to the end of the game or a step cap.
Nothing but the seed and the policies decides the game, so the same seed plays the same game
again; a random game is every seat uniform over the legal actions.

Leaves out: play that Hypothesis draws and shrinks (strategies.py) and what the policies are.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import attrs

from rulecheck.check.play.policies import UNIFORM, Policy
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


def play(
    game: Game[Any, Any],
    policies: Sequence[Policy],
    seed: int,
    max_steps: int = DEFAULT_MAX_STEPS,
    start: Any = None,
) -> Playthrough:
    """One game from a seeded generator, from the initial state (or from the state `start`): seat
    i plays by `policies[i]` (one policy plays every seat when only one is given), chance by its
    probabilities; it stops at the end of the game or after `max_steps` actions."""
    if len(policies) not in (1, game.players):
        raise ValueError(f"{game.name}: {len(policies)} policies for {game.players} players")
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
            action = policies[mover if len(policies) > 1 else 0].choose(game, state, rng)
        state = game.apply(state, action)
        actions.append(action)
        states.append(state)
    return Playthrough(game, tuple(actions), tuple(states))


def random_game(game: Game[Any, Any], seed: int, max_steps: int = DEFAULT_MAX_STEPS, start: Any = None) -> Playthrough:
    """`play` with every seat uniform over the legal actions."""
    return play(game, (UNIFORM,), seed, max_steps, start)
