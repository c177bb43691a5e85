"""Globetrotter's setup: the d6 roll-off, the placing order, each Factory and its Rover.

Models: GT-S1 to GT-S5. All contenders roll a d6 (chance, one die each); a tie for the
highest roll is settled by `setup_ties`. With two players the high roller chooses to
place first or second and the second placer moves first; with more, the high roller
places first, placing runs counter-clockwise (down the seat indices) and the last
placer moves first, play then running clockwise (up the seat indices). Each placer puts
a Factory on an empty HQ and then a Rover on an empty space adjacent to it.

Each phase's listing decides what is legal; the apply functions take an action it listed (the
kernel checks every action against it) and check nothing again; refusals.py says why an action
it leaves out is refused.

Leaves out: the planet of a Factory in multi-planet games, which the rulebook does not
give (a rule gap: any planet's HQ is allowed).
"""

from __future__ import annotations

from collections.abc import Iterable

from rulecheck.core.clauses import touch
from rulecheck.core.evolve import evolve
from rulecheck.core.notation import Action
from rulecheck.games.globetrotter.actions import Choose, Die, PlaceFactory, PlaceRover
from rulecheck.games.globetrotter.context import Rules
from rulecheck.games.globetrotter.counters import BUILDING_HP, ROVER_HP
from rulecheck.games.globetrotter.options import SetupTies
from rulecheck.games.globetrotter.state import (
    B_KIND,
    B_OWNER,
    BUILDING_PLACE,
    CHOOSE,
    FACTORY,
    FIELD,
    IDLE,
    KIND_NUMBERS,
    PLACE_FACTORY,
    PLACE_ROVER,
    GlobetrotterState,
    building_code,
    place,
    unit_code,
)
from rulecheck.games.globetrotter.turns import begin_turn

ORDERS = ("first", "second")


def roller(state: GlobetrotterState) -> int:
    """The next contender to roll."""
    return next(p for p in state.contenders if state.rolls[p] == 0)


def apply_roll(rules: Rules, state: GlobetrotterState, die: Die) -> GlobetrotterState:
    touch("GT-S1")
    rolls = list(state.rolls)
    rolls[roller(state)] = die.value
    state = evolve(state, rolls=tuple(rolls))
    if any(state.rolls[p] == 0 for p in state.contenders):
        return state
    best = max(state.rolls[p] for p in state.contenders)
    tied = tuple(p for p in state.contenders if state.rolls[p] == best)
    if len(tied) > 1 and rules.options.setup_ties is SetupTies.REROLL:
        return evolve(state, contenders=tied, rolls=tuple(0 for _ in state.rolls))
    winner = tied[0]
    if rules.players == 2:
        return evolve(state, phase=CHOOSE, contenders=(winner,))
    touch("GT-S4")
    order = tuple((winner - k) % rules.players for k in range(rules.players))
    return evolve(state, phase=PLACE_FACTORY, placing=order, contenders=())


def legal_choices(rules: Rules, state: GlobetrotterState) -> Iterable[Action]:
    return [rules.actions.act(Choose, order) for order in ORDERS]


def apply_choose(rules: Rules, state: GlobetrotterState, action: Choose) -> GlobetrotterState:
    touch("GT-S1")
    chooser = state.contenders[0]
    other = 1 - chooser
    order = (chooser, other) if action.order == "first" else (other, chooser)
    return evolve(state, phase=PLACE_FACTORY, placing=order, contenders=())


def legal_factories(rules: Rules, state: GlobetrotterState) -> Iterable[Action]:
    if rules.boards.count > 1:
        rules.rule_gap("GT-F13", "the rulebook does not say on which planet a Factory is placed", state)
    occupied = state.occupied_places()
    return [
        rules.actions.act(PlaceFactory, rules.boards.tokens[where])
        for p in rules.live_planets(state)
        for h in rules.boards.board.hq_spaces
        if (where := place(p, h)) not in occupied
    ]


def apply_place_factory(rules: Rules, state: GlobetrotterState, action: PlaceFactory) -> GlobetrotterState:
    touch("GT-S2")
    factory = building_code(rules.boards.places[action.space], state.placing[0], FACTORY, BUILDING_HP, 0, IDLE, 0)
    return evolve(state.with_codes(buildings=state.building_codes + (factory,)), phase=PLACE_ROVER)


def placed_factory(state: GlobetrotterState) -> int:
    """The place of the Factory of the player placing now."""
    owner, kind = state.placing[0], KIND_NUMBERS[FACTORY]
    return next(
        b >> BUILDING_PLACE
        for b in state.building_codes
        if b >> B_OWNER & FIELD == owner and b >> B_KIND & FIELD == kind
    )


def legal_rovers(rules: Rules, state: GlobetrotterState) -> Iterable[Action]:
    factory = placed_factory(state)
    occupied = state.occupied_places()
    touch("GT-B4")
    return [
        rules.actions.act(PlaceRover, rules.boards.tokens[n]) for n in rules.boards.around[factory] if n not in occupied
    ]


def apply_place_rover(rules: Rules, state: GlobetrotterState, action: PlaceRover) -> GlobetrotterState:
    touch("GT-S2", "GT-B4")  # the listing read the spaces beside the Factory
    where = rules.boards.places[action.space]
    placer, rest = state.placing[0], state.placing[1:]
    state = state.with_codes(rovers=state.rover_codes + (unit_code(where, placer, ROVER_HP),))
    if rest:
        return evolve(state, phase=PLACE_FACTORY, placing=rest)
    touch("GT-S3" if rules.players == 2 else "GT-S4")
    touch("GT-S5")
    return begin_turn(rules, evolve(state, placing=()), placer)
