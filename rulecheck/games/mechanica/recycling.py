"""Mechanica's recycled bots: what a recycled improvement gives back, and placing it.

Models: an improvement recycled from the Shop (MEC-T6) or fallen into the Recycler (MEC-T10) gives its
recycling-value bots from the supply, which the player places one at a time (PLACE; before the turn's
steps go on), the bot of her choice (`recycled_order=player-chooses`) or the next in the data's order,
into her Start Zone holes with room (under `recycled_bots=empty-hole` only empty holes, MEC-P9); with no
hole to take them they go back to the supply (a rule gap, MEC-F08). Once placed, the Buy step goes on,
or after a rotation the turn ends (workday.py).

Leaves out: buying and rotating themselves (steps.py, shop.py).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from rulecheck.core.clauses import touch
from rulecheck.core.errors import IllegalAction
from rulecheck.core.evolve import evolve
from rulecheck.core.notation import Action
from rulecheck.games.mechanica.actions import Place
from rulecheck.games.mechanica.pieces import add_bots, check_supply, returned, taken_from_supply, with_factory
from rulecheck.games.mechanica.rules import Listing, PlayRule, Rules
from rulecheck.games.mechanica.state import IN, PLACE, TURN, Factory, MechanicaState
from rulecheck.games.mechanica.workday import end_turn


def to_place(rules: Rules, state: MechanicaState, tile: str, **changes: Any) -> MechanicaState:
    """The recycling-value bots of `tile`, taken from the supply (those it holds, unless stand-ins are used),
    wait to be placed; `changes` are made to the state at the same time (they change neither the supply nor
    the bots waiting)."""
    supply, bots = taken_from_supply(rules, state.supply, rules.improvement[tile].recycle)
    check_supply(rules, supply, state)
    return evolve(state, placing=state.placing + bots, supply=supply, **changes)


def holes_with_room(rules: Rules, factory: Factory) -> list[str]:
    held = Counter(s for s, _, _ in factory.bots)
    limit = 1 if rules.empty_holes_only else rules.hole
    return [s for s in rules.start if held[s] < limit]


def after_placing(rules: Rules, state: MechanicaState, resume: str) -> MechanicaState:
    """The next recycled bot waiting to be placed (PLACE), or, with none left, what the placing
    interrupted: the Buy step goes on (`resume` 'buy') or the turn ends ('rotate'). Bots with no hole to
    go to return to the supply (a rule gap)."""
    placing = state.placing
    if placing and not holes_with_room(rules, state.factories[state.player]):
        rules.gap("MEC-F08", "recycled bots and no Start Zone hole with room for them", state)
        state = evolve(state, placing=(), supply=returned(rules, state.supply, placing))
    if state.placing:
        if rules.empty_holes_only:
            touch("MEC-P9")
        if state.phase == PLACE and state.resume == resume:
            return state
        return evolve(state, phase=PLACE, resume=resume)
    if resume == "rotate":
        return end_turn(rules, state)
    return evolve(state, phase=TURN, resume="")


def _choices(rules: Rules, placing: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """The `model` arguments of a Place: each model waiting, by rank, where the player chooses
    (`recycled_order=player-chooses`), else none (the next waiting bot goes)."""
    if not rules.player_orders_recycled:
        return ((),)
    return tuple((m,) for m in sorted(set(placing), key=rules.rank.__getitem__))


def legal_places(rules: Rules, state: MechanicaState, player: int) -> list[Action]:
    choices = _choices(rules, state.placing)
    return [rules.act(Place, s, c) for s in holes_with_room(rules, state.factories[player]) for c in choices]


def _apply_place(rules: Rules, state: MechanicaState, player: int, action: Place) -> MechanicaState:
    touch("MEC-T6")
    placing = list(state.placing)
    model = placing.pop(placing.index(action.model[0]) if action.model else 0)
    factory = add_bots(state.factories[player], [(action.square, IN, model)])
    state = with_factory(state, player, factory, placing=tuple(placing))
    return after_placing(rules, state, state.resume)


def _illegal_place(rules: Rules, state: MechanicaState, player: int, action: Place) -> IllegalAction:
    if action.model not in _choices(rules, state.placing):
        waiting = ", ".join(sorted(set(state.placing)))
        if rules.player_orders_recycled:
            return IllegalAction("MEC-T6", f"name one of the bots waiting to be placed: {waiting}", action)
        return IllegalAction("MEC-T6", "the bots are placed in the data's order (recycled_order); name none", action)
    return IllegalAction("MEC-T6", "that Start Zone hole has no room", action)


LISTINGS: tuple[Listing, ...] = (Listing((Place,), PLACE, None, legal_places),)
RULES: tuple[PlayRule, ...] = (PlayRule(Place, _illegal_place, _apply_place),)
