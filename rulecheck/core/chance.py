"""Exact chance analysis: the distribution of what follows an action, as Fractions.

Models: from a state and (optionally) an action, every path through the chance nodes
that follow is enumerated, with probability mass flowing forward and merging where
paths reach the same state, until a player is to move or the game has ended. The
result is the exact distribution of those settled states, or of any function of them.

Leaves out: player choices (a distribution over strategies is not chance) and
approximation: there is no sampling here, so a chance tree that is too large is an
error rather than an estimate.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any, TypeVar

from rulecheck.core.game import CHANCE, Game

S = TypeVar("S", bound=Hashable)
DEFAULT_LIMIT = 1_000_000


def settle(game: Game[S, Any], state: S, limit: int = DEFAULT_LIMIT) -> dict[S, Fraction]:
    """The exact distribution of the first non-chance states reached from `state`."""
    pending: defaultdict[S, Fraction] = defaultdict(Fraction, {state: Fraction(1)})
    settled: defaultdict[S, Fraction] = defaultdict(Fraction)
    expansions = 0
    while pending:
        current, mass = pending.popitem()
        if game.to_move(current) != CHANCE:
            settled[current] += mass
            continue
        expansions += 1
        if expansions > limit:
            raise RuntimeError(f"{game.name}: more than {limit} chance expansions; is there a chance cycle?")
        for outcome, probability in game.chance_outcomes(current):
            pending[game.apply(current, outcome)] += mass * probability
    return dict(settled)


def distribution(
    game: Game[S, Any],
    state: S,
    action: Any | None = None,
    measure: Callable[[S], Hashable] | None = None,
    limit: int = DEFAULT_LIMIT,
) -> dict[Hashable, Fraction]:
    """Apply `action` (if any) to `state`, resolve all chance, and return the exact
    distribution of the settled states, or of `measure` of them."""
    start = state if action is None else game.apply(state, action)
    result: defaultdict[Hashable, Fraction] = defaultdict(Fraction)
    for settled, p in settle(game, start, limit).items():
        result[settled if measure is None else measure(settled)] += p
    return dict(result)
