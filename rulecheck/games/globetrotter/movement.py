"""Globetrotter's Moves: on the board, into orbit, down from orbit, between orbits.

Models: GT-A1 to GT-A3 (a Rover moves to an adjacent space holding no Rover, no
Building and no enemy Fortification; it may share a friendly Fortification's space),
GT-SP1 (into orbit from beside a friendly Space Port), GT-SP2 (descending onto any
unoccupied space), GT-SP3 and GT-M2 (orbit to orbit, under `orbit_moves` and
`planet_adjacency`), GT-SP4 and GT-SP5.

Leaves out: nothing of Move in the rulebook.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from rulecheck.core.clauses import touch
from rulecheck.core.errors import IllegalAction
from rulecheck.core.notation import Action
from rulecheck.games.globetrotter.actions import Descend, EnterOrbit, Move, Transfer
from rulecheck.games.globetrotter.context import PlayRule, Rules
from rulecheck.games.globetrotter.state import SPACE_PORT, GlobetrotterState, Rover, rover_order


def _own_rover_at(rules: Rules, state: GlobetrotterState, player: int, token: str, action: Action) -> Rover:
    touch("GT-F4")
    planet, space = rules.space(token, "GT-A1", action, state)
    rover = state.rover_at(planet, space)
    if rover is None or rover.owner != player:
        raise IllegalAction("GT-F4", f"no Rover of yours on {token}", action)
    return rover


def _on_board(rules: Rules, state: GlobetrotterState, player: int) -> list[Rover]:
    return [r for r in state.rovers_of(player) if r.space is not None]


def move_candidates(rules: Rules, state: GlobetrotterState, player: int) -> Iterable[Action]:
    for r in _on_board(rules, state, player):
        assert r.space is not None
        for n in rules.boards.neighbours(r.space):
            yield Move(rules.token(r.planet, r.space), rules.token(r.planet, n))


def check_move(rules: Rules, state: GlobetrotterState, player: int, action: Move) -> Rover:
    touch("GT-A1")
    rover = _own_rover_at(rules, state, player, action.source, action)
    planet, space = rules.space(action.target, "GT-A1", action, state)
    assert rover.space is not None
    if planet != rover.planet or space not in rules.boards.neighbours(rover.space):
        raise IllegalAction("GT-A1", f"{action.target} is not adjacent to {action.source}", action)
    touch("GT-A2")
    if state.rover_at(planet, space) is not None or state.building_at(planet, space) is not None:
        raise IllegalAction("GT-A2", f"{action.target} holds a Rover or a Building", action)
    touch("GT-A3")
    fortification = state.fortification_at(planet, space)
    if fortification is not None and fortification.owner != player:
        raise IllegalAction("GT-A3", f"{action.target} holds an enemy Fortification", action)
    return rover


def _to_space(rules: Rules, state: GlobetrotterState, action: Move | Descend, rover: Rover) -> GlobetrotterState:
    planet, space = rules.space(action.target, "GT-A1", action, state)
    return state.replace(rover, attrs.evolve(rover, planet=planet, space=space))


def apply_move(rules: Rules, state: GlobetrotterState, player: int, action: Move, rover: Rover) -> GlobetrotterState:
    return _to_space(rules, state, action, rover)


def orbit_candidates(rules: Rules, state: GlobetrotterState, player: int) -> Iterable[Action]:
    return [EnterOrbit(rules.token(r.planet, r.space)) for r in _on_board(rules, state, player) if r.space]


def check_enter_orbit(rules: Rules, state: GlobetrotterState, player: int, action: EnterOrbit) -> Rover:
    touch("GT-SP1")
    rover = _own_rover_at(rules, state, player, action.source, action)
    assert rover.space is not None
    ports = [
        n
        for n in rules.boards.neighbours(rover.space)
        if (b := state.building_at(rover.planet, n)) is not None and b.owner == player and b.kind == SPACE_PORT
    ]
    if not ports:
        raise IllegalAction("GT-SP1", f"the Rover on {action.source} is not adjacent to a friendly Space Port", action)
    return rover


def apply_enter_orbit(
    rules: Rules, state: GlobetrotterState, player: int, action: EnterOrbit, rover: Rover
) -> GlobetrotterState:
    touch("GT-SP5")
    return state.replace(rover, attrs.evolve(rover, space=None))


def _orbiting(state: GlobetrotterState, player: int) -> list[Rover]:
    return sorted({r for r in state.rovers_of(player) if r.space is None}, key=rover_order)


def descend_candidates(rules: Rules, state: GlobetrotterState, player: int) -> Iterable[Action]:
    occupied = state.occupied()
    for r in _orbiting(state, player):
        for space in rules.boards.graph:
            if (r.planet, space) not in occupied:
                yield Descend(r.hp, rules.token(r.planet, space))


def _orbiting_rover(state: GlobetrotterState, player: int, planet: int, hp: int, action: Action) -> Rover:
    rover = Rover(planet, None, player, hp)
    if rover not in state.rovers:
        raise IllegalAction("GT-SP2", f"no Rover of yours with {hp} hit points orbits that planet", action)
    return rover


def check_descend(rules: Rules, state: GlobetrotterState, player: int, action: Descend) -> Rover:
    touch("GT-SP2")
    planet, space = rules.space(action.target, "GT-SP2", action, state)
    rover = _orbiting_rover(state, player, planet, action.hp, action)
    if (planet, space) in state.occupied():
        raise IllegalAction("GT-SP2", f"{action.target} is occupied", action)
    return rover


def apply_descend(
    rules: Rules, state: GlobetrotterState, player: int, action: Descend, rover: Rover
) -> GlobetrotterState:
    return _to_space(rules, state, action, rover)


def transfer_candidates(rules: Rules, state: GlobetrotterState, player: int) -> Iterable[Action]:
    for r in _orbiting(state, player):
        for other in rules.live_planets(state):
            if other != r.planet:
                yield Transfer(r.hp, rules.boards.orbit_token(r.planet), rules.boards.orbit_token(other))


def check_transfer(rules: Rules, state: GlobetrotterState, player: int, action: Transfer) -> Rover:
    touch("GT-SP3")
    touch("GT-SP4")
    if rules.options["orbit_moves"] == "descend-only":
        raise IllegalAction("GT-SP4", "an orbiting Rover may only descend (orbit_moves=descend-only)", action)
    source = rules.orbit(action.source, "GT-SP3", action, state)
    target = rules.orbit(action.target, "GT-SP3", action, state)
    rover = _orbiting_rover(state, player, source, action.hp, action)
    if not rules.boards.orbits_adjacent(source, target):
        raise IllegalAction("GT-SP3", f"orbit {action.target} is not adjacent to orbit {action.source}", action)
    return rover


def apply_transfer(
    rules: Rules, state: GlobetrotterState, player: int, action: Transfer, rover: Rover
) -> GlobetrotterState:
    target = rules.orbit(action.target, "GT-SP3", action, state)
    return state.replace(rover, attrs.evolve(rover, planet=target))


RULES = (
    PlayRule(Move, move_candidates, check_move, apply_move),
    PlayRule(EnterOrbit, orbit_candidates, check_enter_orbit, apply_enter_orbit),
    PlayRule(Descend, descend_candidates, check_descend, apply_descend),
    PlayRule(Transfer, transfer_candidates, check_transfer, apply_transfer),
)
