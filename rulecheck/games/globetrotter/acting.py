"""Globetrotter's acting Rover: which of a player's Rovers may take the turn's Rover actions.

Models: GT-F4 (L67, "they must choose which Rover will perform an action on their turn") under
`rovers_per_turn`: under `any` each action may go to any of the player's Rovers; under `one` the
first Rover action of a turn chooses the turn's Rover (`Turn.rover`, kept as it moves) and every
later Rover action of that turn is its. The Rover actions are those a Rover performs: Move, the
Move into orbit, the descent and the move between orbits (the Rover that moves), and Shoot under
`shooter=rover` (the Rover that shoots).

Leaves out: actions that only need a Rover beside them (Fortify, Build's overseeing Rover, Repair,
Manufacture) and shots under `shooter=any-piece` (the shot names a space, not a piece): none is
taken as a Rover's action, so under `one` they stay open to every Rover's neighbourhood.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rulecheck.core.clauses import touch
from rulecheck.core.evolve import evolve
from rulecheck.games.globetrotter.context import ANY_ROVER, Mover, Rules, Where
from rulecheck.games.globetrotter.state import FIELD, SPACE_MASK, UNIT_PLACE, GlobetrotterState, spot


def is_turns_rover(chosen: int, rover: int) -> bool:
    """Whether `rover` is the turn's Rover `chosen`: the one on its space, or, in orbit (where alike
    Rovers are one), one with its planet and hit points."""
    if chosen >> UNIT_PLACE != rover >> UNIT_PLACE:
        return False
    return bool(rover >> UNIT_PLACE & SPACE_MASK) or chosen & FIELD == rover & FIELD


def acting_on_board(m: Mover) -> Mapping[Where, int]:
    """The mover's Rovers on a planet's surface that may take a Rover action now, by place."""
    chosen = m.turns_rover
    if chosen is None:
        return m.on_board
    touch("GT-F4")
    return {where: r for where, r in m.on_board.items() if is_turns_rover(chosen, r)}


def acting_in_orbit(m: Mover) -> Sequence[int]:
    """The mover's orbiting Rovers (each distinct one once) that may take a Rover action now."""
    chosen = m.turns_rover
    if chosen is None:
        return m.orbiting
    touch("GT-F4")
    return [r for r in m.orbiting if is_turns_rover(chosen, r)]


def acted(rules: Rules, state: GlobetrotterState, rover: int) -> GlobetrotterState:
    """The state after a Rover action, `rover` the acting Rover's code as it now stands: under
    `rovers_per_turn=one` it is the turn's Rover (kept as planet, space label and hit points);
    under `any` nothing is kept."""
    if rules.options.rovers_per_turn is ANY_ROVER:
        return state
    turn = state.turn
    assert turn is not None
    touch("GT-F4")
    planet, space = spot(rover >> UNIT_PLACE)
    return state.with_turn(evolve(turn, rover=(planet, space, rover & FIELD)))
