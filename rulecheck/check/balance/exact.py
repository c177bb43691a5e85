"""Outcome probabilities of a small game under fixed policies, by value iteration, exact to a
certified bound.

Models: the states reachable from the initial state, the likeliest first, up to `max_states` of them
(through the kernel only: who moves, the legal actions, the chance outcomes with their odds, the
winners at the end), and for each the probability of each outcome of figures.py (a seat winning
alone, a draw, everyone losing) when every player step chooses by a fixed distribution over the
legal actions (uniform by default) and chance by its odds. A game may cycle (Pig's turn passes
with nothing banked), so the values are the least fixed point of one step's average, found by
iterating from 0 (Gauss-Seidel, the states last found first) until no value moves by more than
TOLERANCE. A game whose play can go on without bound (Pig's turn total grows while a player
rolls) has more states than any limit: the probability of reaching a state past the limit (the
frontier) is solved for too, so each probability comes as an interval, from ending so without
reaching the frontier to that plus reaching it, that holds whatever happens past the frontier;
for a game of few states the two ends agree.

Leaves out: policies that are not a fixed distribution per state (ones that search), and
timeouts (the values are those of play without a step cap).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from typing import Any, Final

import attrs

from rulecheck.core.errors import OptionError
from rulecheck.core.game import CHANCE, TERMINAL, Game
from rulecheck.core.notation import Action

TOLERANCE: Final = 1e-12
MAX_SWEEPS: Final = 20_000

Distribution = Callable[[Game[Any, Any], Any], Sequence[tuple[Action, float]]]
"""A player's choice in a state as each legal action with its probability."""


def uniform(game: Game[Any, Any], state: Any) -> list[tuple[Action, float]]:
    """Each legal action alike: the uniform random player's distribution."""
    legal = game.legal_actions(state)
    return [(action, 1 / len(legal)) for action in legal]


@attrs.frozen
class Exact:
    """Each outcome's probability lies in [low, high]; `states` were solved, `frontier` were not."""

    low: tuple[float, ...]
    high: tuple[float, ...]
    states: int
    frontier: int


def exact_outcomes(game: Game[Any, Any], distribution: Distribution = uniform, max_states: int = 20_000) -> Exact:
    """The probability of each outcome category of figures.py but the timeout (each seat winning
    alone, a draw, everyone losing) from the initial state, when every seat plays by `distribution`:
    each as the probability of ending so without reaching the frontier (low) and that plus the
    probability of reaching the frontier (high)."""
    states, successors, frontier = _graph(game, distribution, max_states)
    width = game.players + 3  # the outcomes, then reaching the frontier
    number = {state: i for i, state in enumerate([*states, *frontier])}  # the initial state is 0
    values = [[0.0] * width for _ in states] + [[0.0] * (width - 1) + [1.0] for _ in frontier]
    for state in states:
        if game.to_move(state) == TERMINAL:
            values[number[state]][_category(game, state)] = 1.0
    moving = [
        (number[s], [(number[after], p) for after, p in successors[s]])
        for s in reversed(states)
        if game.to_move(s) != TERMINAL
    ]
    for _ in range(MAX_SWEEPS):
        moved = 0.0
        for i, after in moving:
            new = [0.0] * width
            for j, p in after:  # each column summed in the successors' order
                new = [total + p * value for total, value in zip(new, values[j])]
            moved = max(moved, max(abs(a - b) for a, b in zip(new, values[i])))
            values[i] = new
        if moved < TOLERANCE:
            *low, unknown = values[0]
            return Exact(tuple(low), tuple(min(1.0, v + unknown) for v in low), len(states), len(frontier))
    raise OptionError(f"{game.name}: value iteration did not settle within {MAX_SWEEPS} sweeps")


def _category(game: Game[Any, Any], state: Any) -> int:
    winners = game.winners(state)
    if not winners:
        return game.players + 1
    return next(iter(winners)) if len(winners) == 1 else game.players


def _graph(
    game: Game[Any, Any], distribution: Distribution, max_states: int
) -> tuple[list[Any], dict[Any, list[tuple[Any, float]]], set[Any]]:
    """The states solved (at most `max_states`: the likeliest first, by the probability of the
    path that first reached each), each one's successors with their probabilities, and the
    frontier: states reached but not solved."""
    start = game.initial_state()
    queue = [(-1.0, 0, start)]
    found = 1
    states: list[Any] = []
    seen = {start}
    successors: dict[Any, list[tuple[Any, float]]] = {}
    while queue and len(states) < max_states:
        reach, _, state = heapq.heappop(queue)
        states.append(state)
        successors[state] = []
        mover = game.to_move(state)
        if mover == TERMINAL:
            continue
        if mover == CHANCE:
            moves = [(a, float(p)) for a, p in game.chance_outcomes(state)]
        else:
            moves = list(distribution(game, state))
        for action, p in moves:
            after = game.apply(state, action)
            if after not in seen:
                seen.add(after)
                heapq.heappush(queue, (reach * p, found, after))
                found += 1
            successors[state].append((after, p))
    return states, successors, seen - set(successors)
