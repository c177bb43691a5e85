"""Bots between the supply and the factories, and a player's factory within the state.

Models: returning bots to the supply or taking them from it, by model, and taking only those the supply
holds unless stand-ins are used (`bot_shortage`); the rule gap when a model runs short all the same
(MEC-F08: stand-ins are used); adding bots to a factory's multiset; the bots in a factory's
Trucks; the squares a factory has taken (improvements and Forks, MEC-T4, MEC-T12, MEC-A2); putting a
player's changed factory back into the state; keeping a part of the state the very same object when a
step leaves it as it was (so a property that reads only parts a step left alone is not checked again).

Leaves out: why bots move (the rule modules) and the factory run (run.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from rulecheck.core.evolve import evolve
from rulecheck.core.ops import INT_OPS
from rulecheck.games.mechanica import money
from rulecheck.games.mechanica.rules import Rules
from rulecheck.games.mechanica.state import Bot, Factory, MechanicaState

T = TypeVar("T")


def as_before(old: T, new: T) -> T:
    """`old` if `new` is equal to it, else `new`: a part of the state a step leaves as it was stays the
    very same object."""
    return old if new == old else new


def add_bots(factory: Factory, bots: Iterable[Bot]) -> Factory:
    return evolve(factory, bots=tuple(sorted(factory.bots + tuple(bots))))


def truck_bots(rules: Rules, factory: Factory) -> list[Bot]:
    docks = rules.dock_squares
    return [b for b in factory.bots if b[0] in docks]


def taken(factory: Factory) -> set[str]:
    """The squares holding an improvement or a Fork."""
    return {s for s, _ in factory.tiles} | set(factory.forks)


def replaced(factories: tuple[Factory, ...], player: int, factory: Factory) -> tuple[Factory, ...]:
    """`factories` with the one of `player` replaced by `factory`."""
    return factories[:player] + (factory,) + factories[player + 1 :]


def with_factory(state: MechanicaState, player: int, factory: Factory, **changes: Any) -> MechanicaState:
    return evolve(state, factories=replaced(state.factories, player, factory), **changes)


def returned(rules: Rules, supply: Sequence[int], models: Iterable[str], change: int = 1) -> tuple[int, ...]:
    """The supply after `change` bots of each of `models` (once per mention) come back to it (negative:
    are taken from it)."""
    counts = list(supply)
    for model in models:
        counts[rules.rank[model]] += change
    return as_before(tuple(supply), tuple(counts))


def taken_from_supply(
    rules: Rules, supply: tuple[int, ...], models: Iterable[str]
) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """The supply after `models` (once per mention, in that order) are taken from it, and those taken: every
    one with stand-ins (`bot_shortage=stand-ins`), else only those the supply still holds (MEC-F08 vii)."""
    counts = list(supply)
    got = []
    for model in models:
        i = rules.rank[model]
        if money.in_stock(INT_OPS, counts[i], rules.stand_ins):
            counts[i] -= 1
            got.append(model)
    return as_before(supply, tuple(counts)), tuple(got)


def check_supply(rules: Rules, supply: Sequence[int], state: MechanicaState) -> None:
    short = [rules.models[i] for i, n in enumerate(supply) if n < 0]
    if short:
        rules.gap("MEC-F08", f"the supply has run out of {', '.join(short)} bots (stand-ins are used)", state)
