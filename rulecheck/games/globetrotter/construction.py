"""Globetrotter's building actions: Fortify, Build, Decommission, Manufacture, Repair, Save.

Models: GT-A9 (Fortify, under `fortify_adjacency`), GT-A10, GT-A11, GT-B3 and GT-T6
(Build), GT-A12 to GT-A15 (Decommission), GT-F2 and GT-F5 (Manufacture, under
`open_space`, `cap_orbit` and `cap_scope`), GT-F3 (Repair, under `repair_at_full`),
GT-T1 and GT-T2 (saving an action point in the Treasury).

"Unoccupied" means holding no piece at all (GT-A9, GT-A10); only Manufacture's "open"
is an option.

Leaves out: a limit on the number of Fortification pieces (the rulebook gives none).
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from rulecheck.core.clauses import touch
from rulecheck.core.errors import IllegalAction
from rulecheck.core.notation import Action
from rulecheck.core.ops import INT_OPS
from rulecheck.games.globetrotter.actions import Build, Decommission, Fortify, Manufacture, Repair, Save
from rulecheck.games.globetrotter.context import PlayRule, Rules
from rulecheck.games.globetrotter.counters import (
    BUILDING_HP,
    FORTIFICATION_HP,
    MANUFACTURE_COST,
    ROVER_HP,
    after_repair_points,
    can_manufacture,
    can_repair,
    can_save,
    may_build_kind,
    may_fortify,
    repaired_hp,
    saved_after_save,
)
from rulecheck.games.globetrotter.state import (
    BUILDING_KINDS,
    DRILL_CANNON,
    FACTORY,
    IDLE,
    TREASURY,
    Building,
    Fortification,
    GlobetrotterState,
    Rover,
)
from rulecheck.games.globetrotter.turns import saved_points, set_saved_points


def _unoccupied(state: GlobetrotterState, planet: int, space: str) -> bool:
    return (planet, space) not in state.occupied()


def _board_rovers(state: GlobetrotterState, player: int) -> list[Rover]:
    return [r for r in state.rovers_of(player) if r.space is not None]


# Fortify


def fortify_candidates(rules: Rules, state: GlobetrotterState, player: int) -> Iterable[Action]:
    for r in _board_rovers(state, player):
        assert r.space is not None
        for n in rules.boards.neighbours(r.space):
            yield Fortify(rules.token(r.planet, n))


def _fortification_near(rules: Rules, state: GlobetrotterState, planet: int, space: str, owner: int | None) -> bool:
    return any(
        (f := state.fortification_at(planet, n)) is not None and (owner is None or f.owner == owner)
        for n in rules.boards.neighbours(space)
    )


def check_fortify(rules: Rules, state: GlobetrotterState, player: int, action: Fortify) -> tuple[int, str]:
    touch("GT-A9")
    planet, space = rules.space(action.target, "GT-A9", action, state)
    rovers = [
        r for r in _board_rovers(state, player) if r.planet == planet and r.space in rules.boards.neighbours(space)
    ]
    unoccupied = _unoccupied(state, planet, space)
    any_near = _fortification_near(rules, state, planet, space, None)
    own_near = _fortification_near(rules, state, planet, space, player)
    clear_rover = any(not _fortification_near(rules, state, planet, r.space, None) for r in rovers if r.space)
    reading = rules.options["fortify_adjacency"]
    if not may_fortify(INT_OPS, reading, unoccupied, bool(rovers), any_near, own_near, clear_rover):
        if not unoccupied:
            reason = f"{action.target} is occupied"
        elif not rovers:
            reason = f"{action.target} is not adjacent to a friendly Rover"
        elif reading == "rover":
            reason = "every friendly Rover beside it is adjacent to a Fortification"
        else:
            reason = f"{action.target} is adjacent to an existing Fortification"
        raise IllegalAction("GT-A9", reason, action)
    return planet, space


def apply_fortify(
    rules: Rules, state: GlobetrotterState, player: int, action: Fortify, where: tuple[int, str]
) -> GlobetrotterState:
    fortification = Fortification(where[0], where[1], player, FORTIFICATION_HP)
    return state.with_pieces(fortifications=state.fortifications + (fortification,))


# Build


def build_candidates(rules: Rules, state: GlobetrotterState, player: int) -> Iterable[Action]:
    """Unoccupied HQs beside at least one of the player's Rovers (the check does the rest)."""
    occupied = state.occupied()
    for r in _board_rovers(state, player):
        assert r.space is not None
        for hq in rules.boards.neighbours(r.space):
            if rules.boards.is_hq(hq) and (r.planet, hq) not in occupied:
                for kind in BUILDING_KINDS:
                    yield Build(rules.token(r.planet, hq), kind)


def check_build(rules: Rules, state: GlobetrotterState, player: int, action: Build) -> tuple[int, str]:
    touch("GT-A10")
    planet, space = rules.space(action.target, "GT-A10", action, state)
    touch("GT-B3")
    if not rules.boards.is_hq(space):
        raise IllegalAction("GT-B3", f"{action.target} is not an HQ space", action)
    if not _unoccupied(state, planet, space):
        raise IllegalAction("GT-A10", f"{action.target} is occupied", action)
    if action.kind not in BUILDING_KINDS:
        raise IllegalAction("GT-A11", f"no building type {action.kind!r}; types: {', '.join(BUILDING_KINDS)}", action)
    supporters = 0
    overseen = False
    for n in rules.boards.neighbours(space):
        rover = state.rover_at(planet, n)
        fortification = state.fortification_at(planet, n)
        own_rover = rover is not None and rover.owner == player
        if own_rover or (fortification is not None and fortification.owner == player):
            supporters += 1
        overseen = overseen or own_rover
    if supporters < 3:
        raise IllegalAction("GT-A10", f"only {supporters} spaces beside {action.target} hold your pieces", action)
    if not overseen:
        raise IllegalAction("GT-A10", "no friendly Rover beside it oversees construction", action)
    touch("GT-A11")
    same_kind = sum(1 for b in state.buildings_of(player, action.kind) if b.planet == planet)
    treasuries = len(state.buildings_of(player, TREASURY))
    is_treasury = action.kind == TREASURY
    if is_treasury:
        touch("GT-T6")
    if not may_build_kind(INT_OPS, same_kind, is_treasury, treasuries):
        if same_kind:
            raise IllegalAction("GT-A11", f"you already have a {action.kind} on this planet", action)
        raise IllegalAction("GT-T6", "you already have a Treasury", action)
    return planet, space


def apply_build(
    rules: Rules, state: GlobetrotterState, player: int, action: Build, where: tuple[int, str]
) -> GlobetrotterState:
    building = Building(where[0], where[1], player, action.kind, BUILDING_HP, 0, IDLE, None)
    return state.with_pieces(buildings=state.buildings + (building,))


# Decommission


def decommission_candidates(rules: Rules, state: GlobetrotterState, player: int) -> Iterable[Action]:
    yield from (Decommission(rules.token(b.planet, b.space)) for b in state.buildings_of(player))
    yield from (Decommission(rules.token(f.planet, f.space)) for f in state.fortifications if f.owner == player)


def check_decommission(
    rules: Rules, state: GlobetrotterState, player: int, action: Decommission
) -> Building | Fortification:
    touch("GT-A12")
    planet, space = rules.space(action.target, "GT-A12", action, state)
    piece = state.building_at(planet, space) or state.fortification_at(planet, space)
    if piece is None or piece.owner != player:
        raise IllegalAction("GT-A12", f"no Building or Fortification of yours on {action.target}", action)
    return piece


def apply_decommission(
    rules: Rules, state: GlobetrotterState, player: int, action: Decommission, piece: Building | Fortification
) -> GlobetrotterState:
    if isinstance(piece, Fortification):
        return state.replace(piece, None)
    touch("GT-A13")  # the Fortifications around it stay
    if piece.kind in (FACTORY, TREASURY):
        touch("GT-A14")  # its points go with it
    if piece.kind == DRILL_CANNON:
        touch("GT-A15")  # no explosion, and the fire counter stays
    return state.replace(piece, None)


# Manufacture and Repair


def _own_factory(rules: Rules, state: GlobetrotterState, player: int, token: str, action: Action) -> Building:
    planet, space = rules.space(token, "GT-F2", action, state)
    factory = state.building_at(planet, space)
    if factory is None or factory.owner != player or factory.kind != FACTORY:
        raise IllegalAction("GT-F2", f"you have no Factory on {token}", action)
    return factory


def _open_for_rover(rules: Rules, state: GlobetrotterState, player: int, planet: int, space: str) -> bool:
    if _unoccupied(state, planet, space):
        return True
    fortification = state.fortification_at(planet, space)
    return (
        rules.options["open_space"] == "friendly-fortification"
        and fortification is not None
        and fortification.owner == player
        and state.rover_at(planet, space) is None
    )


def rover_cap_counts(rules: Rules, state: GlobetrotterState, player: int, planet: int) -> tuple[int, int]:
    """GT-F5: the player's Rovers and Buildings as the cap counts them (`cap_orbit`, `cap_scope`)."""
    in_scope = (lambda p: True) if rules.options["cap_scope"] == "all-planets" else (lambda p: p == planet)
    counted = rules.options["cap_orbit"] == "counts"
    rovers = sum(1 for r in state.rovers_of(player) if in_scope(r.planet) and (counted or r.space is not None))
    buildings = sum(1 for b in state.buildings_of(player) if in_scope(b.planet))
    return rovers, buildings


def manufacture_candidates(rules: Rules, state: GlobetrotterState, player: int) -> Iterable[Action]:
    for f in state.buildings_of(player, FACTORY):
        for n in rules.boards.neighbours(f.space):
            yield Manufacture(rules.token(f.planet, f.space), rules.token(f.planet, n))


def check_manufacture(rules: Rules, state: GlobetrotterState, player: int, action: Manufacture) -> tuple[Building, str]:
    touch("GT-F2")
    factory = _own_factory(rules, state, player, action.source, action)
    planet, space = rules.space(action.target, "GT-F2", action, state)
    if planet != factory.planet or space not in rules.boards.neighbours(factory.space):
        raise IllegalAction("GT-F2", f"{action.target} is not adjacent to the Factory", action)
    if not _open_for_rover(rules, state, player, planet, space):
        raise IllegalAction("GT-F2", f"{action.target} is not open", action)
    touch("GT-F5")
    rovers, buildings = rover_cap_counts(rules, state, player, planet)
    if not can_manufacture(INT_OPS, factory.points, rovers, buildings):
        if factory.points < MANUFACTURE_COST:
            raise IllegalAction("GT-F2", f"the Factory has {factory.points} build points, not 5", action)
        raise IllegalAction(
            "GT-F5", f"a new Rover would give you {rovers + 1} Rovers and {buildings} Buildings", action
        )
    return factory, space


def apply_manufacture(
    rules: Rules, state: GlobetrotterState, player: int, action: Manufacture, found: tuple[Building, str]
) -> GlobetrotterState:
    factory, space = found
    state = state.replace(factory, attrs.evolve(factory, points=0))
    return state.with_pieces(rovers=state.rovers + (Rover(factory.planet, space, player, ROVER_HP),))


def repair_candidates(rules: Rules, state: GlobetrotterState, player: int) -> Iterable[Action]:
    return [Repair(rules.token(r.planet, r.space)) for r in _board_rovers(state, player) if r.space is not None]


def check_repair(rules: Rules, state: GlobetrotterState, player: int, action: Repair) -> tuple[Rover, Building]:
    touch("GT-F3")
    planet, space = rules.space(action.target, "GT-F3", action, state)
    rover = state.rover_at(planet, space)
    if rover is None or rover.owner != player:
        raise IllegalAction("GT-F3", f"no Rover of yours on {action.target}", action)
    factories = [
        b
        for n in rules.boards.neighbours(space)
        if (b := state.building_at(planet, n)) is not None and b.owner == player and b.kind == FACTORY
    ]
    if not factories:
        raise IllegalAction("GT-F3", f"the Rover on {action.target} is not adjacent to your Factory", action)
    factory = factories[0]
    at_full_allowed = rules.options["repair_at_full"] == "legal"
    if not can_repair(INT_OPS, rover.hp, factory.points, at_full_allowed):
        raise IllegalAction("GT-F3", f"Repair needs a build point and a damaged Rover (hp {rover.hp})", action)
    return rover, factory


def apply_repair(
    rules: Rules, state: GlobetrotterState, player: int, action: Repair, found: tuple[Rover, Building]
) -> GlobetrotterState:
    rover, factory = found
    state = state.replace(factory, attrs.evolve(factory, points=after_repair_points(INT_OPS, factory.points)))
    return state.replace(rover, attrs.evolve(rover, hp=repaired_hp(INT_OPS, rover.hp)))


# Saving in the Treasury


def save_candidates(rules: Rules, state: GlobetrotterState, player: int) -> Iterable[Action]:
    return [Save()]


def check_save(rules: Rules, state: GlobetrotterState, player: int, action: Save) -> None:
    touch("GT-T1")
    if not state.buildings_of(player, TREASURY):
        raise IllegalAction("GT-T1", "you have no Treasury", action)
    turn = state.turn
    assert turn is not None
    touch("GT-T2")
    if not can_save(INT_OPS, saved_points(state, player), turn.own_used):
        raise IllegalAction("GT-T2", "only the turn's own action point may be saved, into a Treasury below 3", action)


def apply_save(rules: Rules, state: GlobetrotterState, player: int, action: Save, _: None) -> GlobetrotterState:
    return set_saved_points(state, player, saved_after_save(INT_OPS, saved_points(state, player)))


RULES = (
    PlayRule(Fortify, fortify_candidates, check_fortify, apply_fortify),
    PlayRule(Build, build_candidates, check_build, apply_build),
    PlayRule(Decommission, decommission_candidates, check_decommission, apply_decommission),
    PlayRule(Manufacture, manufacture_candidates, check_manufacture, apply_manufacture),
    PlayRule(Repair, repair_candidates, check_repair, apply_repair),
    PlayRule(Save, save_candidates, check_save, apply_save),
)
