"""Random legal play that Hypothesis can shrink.

Models: a game as a sequence of choices. Hypothesis first draws how many steps to play
(up to a cap), then at every step an index into the legal actions, or into the chance
outcomes at a chance node. Nothing else is random, so a failing game shrinks to fewer
steps and smaller indices: a short, minimal trace that replays exactly.

Leaves out: weighting chance outcomes by their probability (every outcome is a choice
to explore, the probabilities are checked elsewhere) and any strategy for the players.
"""

from __future__ import annotations

from typing import Any

import attrs
from hypothesis import strategies as st

from rulecheck.core.game import CHANCE, Game
from rulecheck.core.notation import Action
from rulecheck.core.trace import Trace, record

DEFAULT_MAX_STEPS = 200


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


@st.composite
def playthroughs(draw: st.DrawFn, game: Game[Any, Any], max_steps: int = DEFAULT_MAX_STEPS) -> Playthrough:
    """A strategy for random legal games of `game`, at most `max_steps` actions long."""
    steps = draw(st.integers(min_value=0, max_value=max_steps), label="steps")
    state = game.initial_state()
    actions: list[Action] = []
    states = [state]
    for _ in range(steps):
        if game.to_move(state) == CHANCE:
            choices = tuple(outcome for outcome, _ in game.chance_outcomes(state))
        else:
            choices = game.legal_actions(state)
        if not choices:
            break
        action = choices[draw(st.integers(min_value=0, max_value=len(choices) - 1))]
        state = game.apply(state, action)
        actions.append(action)
        states.append(state)
    return Playthrough(game, tuple(actions), tuple(states))
