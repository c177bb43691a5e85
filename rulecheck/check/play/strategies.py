"""Random legal play that Hypothesis can shrink.

Models: a game as a sequence of choices. Hypothesis first draws how many steps to play
(up to a cap), then at every step an index into the legal actions; at a chance node it
draws a whole number below the common denominator of the outcome probabilities and
takes the outcome whose share of that range holds it, so chance comes out with its
exact odds. Nothing else is random, so a failing game shrinks to fewer steps and
smaller choices: a short trace that replays exactly (a trace records the actions, not
the choices that picked them).

The shares of a chance node's range go to its outcomes in the game's order, except at a
chance state the game has already been in since the last player's step: there the order
turns by one outcome for each earlier visit, so the same choice picks the next outcome.
Without the turn, Hypothesis's simplest game (every choice zero, the first example of
every run) picks the first outcome at every chance node, and a loop through dice alone
never ends: in Globetrotter's setup roll-off every contender rolls a 1, the tie is
rerolled, and the game sits at the roll-off until the step cap (3,000 steps). With it,
the second visit of the roll-off gives a 2 to the first roller, which beats the others'
1s. Turning the order keeps every outcome's share of the range, so the odds stay exact.
Only a revisit within one stretch of chance steps turns, so a choice keeps its meaning
when shrinking removes steps before that stretch (counting visits over the whole game
made shrinking worse in a game whose states recur from turn to turn); a loop through dice
and players' steps together is left to the players' choices.

Leaves out: seeded random play (playthrough.py) and any strategy for the players (every legal
action is a choice to explore).
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Callable
from typing import Any

import attrs
from hypothesis import strategies as st

from rulecheck.check.play.playthrough import DEFAULT_MAX_STEPS, Playthrough
from rulecheck.core.game import CHANCE, Game
from rulecheck.core.notation import Action


@functools.lru_cache(maxsize=None)
def below(bound: int) -> st.SearchStrategy[int]:
    """The whole numbers from 0 to `bound` - 1, as a strategy made once per bound: making one
    afresh at every step cost about as much as drawing from it."""
    return st.integers(min_value=0, max_value=bound - 1)


SWARM_ODDS = 4
"""Each verb is avoided in about one game in SWARM_ODDS."""


@attrs.frozen
class Swarm:
    """How one game's players lean: verbs they avoid while they have anything else to do, and
    a verb they favour, taken about half the times it is offered."""

    avoid: frozenset[str] = frozenset()
    favour: str | None = None


def draw_swarm(draw: Callable[[st.SearchStrategy[int]], int], game: Game[Any, Any]) -> Swarm:
    """Swarm testing: each verb avoided in about one game in SWARM_ODDS (a game that never
    decommissions keeps its buildings long enough to use them), and in half the games one verb
    favoured (a game that builds often has Treasuries to raid). Shrinks to no leaning."""
    last = SWARM_ODDS - 1
    avoid = frozenset(cls.verb for cls in game.action_types if draw(below(SWARM_ODDS)) == last)
    verbs = len(game.action_types)
    index = draw(below(2 * verbs))
    return Swarm(avoid, game.action_types[index - verbs].verb if index >= verbs else None)


def draw_action(
    draw: Callable[[st.SearchStrategy[int]], int],
    game: Game[Any, Any],
    state: Any,
    swarm: Swarm = Swarm(),
    legal: tuple[Action, ...] | None = None,
    visits: Counter[Any] | None = None,
) -> Action | None:
    """The next action: a legal action by index (among those the swarm does not avoid, if any are
    left, and half the time among those it favours, if any), or a chance outcome by its
    probability; None when there is none. `legal` saves computing the state's legal actions again
    when the caller has them. `visits` counts the chance states visited since the last player's
    step (updated here): at one visited before, the outcomes' order turns by one per earlier visit."""
    if game.to_move(state) == CHANCE:
        outcomes = game.chance_outcomes(state)
        if visits is not None:
            turn = visits[state] % len(outcomes) if outcomes else 0
            visits[state] += 1
            outcomes = outcomes[turn:] + outcomes[:turn]
        scale = math.lcm(*(p.denominator for _, p in outcomes))
        ticket = draw(below(scale))
        for outcome, p in outcomes:
            ticket -= p.numerator * (scale // p.denominator)
            if ticket < 0:
                return outcome
        raise ArithmeticError("chance probabilities do not sum to 1")
    if visits:
        visits.clear()
    if legal is None:
        legal = game.legal_actions(state)
    preferred = [a for a in legal if a.verb not in swarm.avoid] or list(legal)
    favoured = [a for a in preferred if a.verb == swarm.favour]
    if favoured and draw(below(2)):
        preferred = favoured
    return preferred[draw(below(len(preferred)))] if preferred else None


@st.composite
def playthroughs(draw: st.DrawFn, game: Game[Any, Any], max_steps: int = DEFAULT_MAX_STEPS) -> Playthrough:
    """A strategy for random legal games of `game`, at most `max_steps` actions long."""
    steps = draw(st.integers(min_value=0, max_value=max_steps), label="steps")
    state = game.initial_state()
    actions: list[Action] = []
    states = [state]
    visits = Counter[Any]()
    for _ in range(steps):
        action = draw_action(draw, game, state, visits=visits)
        if action is None:
            break
        state = game.apply(state, action)
        actions.append(action)
        states.append(state)
    return Playthrough(game, tuple(actions), tuple(states))
