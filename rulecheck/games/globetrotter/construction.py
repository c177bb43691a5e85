"""Globetrotter's building actions: Fortify, Build, Decommission, Manufacture, Repair, Save.

Models: GT-A9 (Fortify, under `fortify_adjacency`), GT-A10, GT-A11, GT-B3 and GT-T6
(Build), GT-A12 to GT-A15 (Decommission), GT-F2 and GT-F5 (Manufacture, under
`open_space`, `cap_orbit` and `cap_scope`), GT-F3 (Repair, under `repair_at_full`),
GT-T1 and GT-T2 (saving an action point in the Treasury).

"Unoccupied" means holding no piece at all (GT-A9, GT-A10); only Manufacture's "open"
is an option.

Each listing (`legal_*`) alone decides which building actions are legal, with what the effect
needs; the effects check nothing again. The predicates a listing reads are named, so that
refusals.py explains a refusal by the same ones.

Leaves out: a limit on the number of Fortification pieces (the rulebook gives none).
"""

from __future__ import annotations

from typing import Final

from rulecheck.core.clauses import touch
from rulecheck.core.evolve import evolve
from rulecheck.core.notation import Action
from rulecheck.core.ops import INT_OPS
from rulecheck.games.globetrotter.actions import Build, Decommission, Fortify, Manufacture, Repair, Save
from rulecheck.games.globetrotter.context import (
    ANYWAY,
    FACTORIES,
    NOTHING,
    ROVERS_ON_BOARD,
    STRUCTURES,
    TREASURIES,
    Listing,
    Mover,
    PlayRule,
    Rules,
    Where,
)
from rulecheck.games.globetrotter.counters import (
    BUILDING_HP,
    FORTIFICATION_HP,
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
from rulecheck.games.globetrotter.options import CapOrbit, CapScope, FortifyAdjacency, OpenSpace, RepairAtFull
from rulecheck.games.globetrotter.state import (
    B_POINTS,
    BUILDING_KINDS,
    BUILDING_PLACE,
    DRILL_CANNON,
    FACTORY,
    FIELD,
    IDLE,
    SPACE_BITS,
    SPACE_MASK,
    TREASURY,
    UNIT_PLACE,
    GlobetrotterState,
    building_code,
    building_kind,
    unit_code,
    with_field,
)
from rulecheck.games.globetrotter.turns import saved_points, set_saved_points

# Readings compared on every step, kept as globals (why: Reading, rulecheck/core/options.py).
_ROVER_ADJACENCY: Final = FortifyAdjacency.ROVER
_FRIENDLY_FORTIFICATION: Final = OpenSpace.FRIENDLY_FORTIFICATION
_ALL_PLANETS: Final = CapScope.ALL_PLANETS
_ORBIT_COUNTS: Final = CapOrbit.COUNTS
_REPAIR_AT_FULL_LEGAL: Final = RepairAtFull.LEGAL


# Fortify

_FORTIFY_CLAUSES: Final = ("GT-A9", "GT-B4")


def fortifiable(m: Mover) -> int:
    """GT-A9 under `fortify_adjacency`: the set of spaces the mover may fortify (`may_fortify` on the
    boards' sets of spaces, which decides every space at once)."""
    reading = m.rules.options.fortify_adjacency
    clear = 0
    if reading is _ROVER_ADJACENCY:
        around_set, bit = m.rules.boards.around_set, m.rules.boards.bit
        for where in m.on_board:
            if not bit[where] & m.beside_fortification:
                clear |= around_set[where]
    return int(
        may_fortify(
            m.rules.boards.ops,
            reading,
            m.unoccupied,
            m.beside_own_rover,
            m.beside_fortification,
            m.beside_own_fortification,
            clear,
        )
    )


def legal_fortifications(m: Mover) -> Listing[Where]:
    """Each Fortify with the place it fortifies."""
    if not m.beside_own_rover:
        return NOTHING
    m.touched += _FORTIFY_CLAUSES
    return m.rules.actions.each_at(Fortify, fortifiable(m))


def apply_fortify(
    rules: Rules, state: GlobetrotterState, player: int, action: Fortify, where: Where
) -> GlobetrotterState:
    touch("GT-A9")
    fortification = unit_code(where, player, FORTIFICATION_HP)
    return state.with_codes(fortifications=state.fortification_codes + (fortification,))


# Build


def support(m: Mover, where: Where) -> tuple[int, bool]:
    """GT-A10: how many spaces beside `where` hold the mover's Rovers or Fortifications, and whether
    a friendly Rover among them oversees construction."""
    beside = m.rules.boards.around_set[where]
    return (beside & m.own_supporting).bit_count(), bool(beside & m.own_rover_spaces)


def enough_support(supporters: int) -> bool:
    """GT-A10: at least 3 of the spaces beside a site hold the mover's Rovers or Fortifications."""
    return supporters >= 3


def kind_counts(m: Mover, planet: int, kind: str) -> tuple[int, bool, int]:
    """GT-A11, GT-T6: the mover's buildings of `kind` on the planet, whether it is a Treasury,
    and the mover's Treasuries anywhere."""
    same_kind = sum(1 for b in m.kinds.get(kind, ()) if b >> BUILDING_PLACE >> SPACE_BITS == planet)
    return same_kind, kind == TREASURY, len(m.kinds.get(TREASURY, ()))


def legal_builds(m: Mover) -> Listing[Where]:
    """Unoccupied HQs beside one of the player's Rovers, with the support and the type the rules ask:
    each Build with the place it builds on."""
    boards = m.rules.boards
    sites = m.beside_own_rover & boards.hq_set & m.unoccupied
    if not sites:
        return NOTHING
    m.touched += ("GT-A10", "GT-B3")
    found: list[tuple[Action, Where]] = []
    for where in boards.places_in(sites):
        supporters, overseen = support(m, where)
        if not enough_support(supporters) or not overseen:
            continue
        m.touched.append("GT-A11")
        for kind in BUILDING_KINDS:
            counts = kind_counts(m, where >> SPACE_BITS, kind)
            if counts[1]:
                m.touched.append("GT-T6")
            if may_build_kind(INT_OPS, *counts):
                found.append((m.rules.actions.act(Build, boards.tokens[where], kind), where))
    return found


def apply_build(rules: Rules, state: GlobetrotterState, player: int, action: Build, where: Where) -> GlobetrotterState:
    touch("GT-A10", "GT-B3", "GT-B4", "GT-A11")
    if action.kind == TREASURY:
        touch("GT-T6")
    building = building_code(where, player, action.kind, BUILDING_HP, 0, IDLE, 0)
    return state.with_codes(buildings=state.building_codes + (building,))


# Decommission

Removable = tuple[bool, int]
"""A piece Decommission removes: whether it is a Building (else a Fortification), and its code."""


def legal_decommissions(m: Mover) -> Listing[Removable]:
    """Each Decommission with the piece that goes."""
    if not m.buildings and not m.fortifications:
        return NOTHING
    m.touched.append("GT-A12")
    at = m.rules.actions.at(Decommission)
    found: list[tuple[Action, Removable]] = []
    for b in m.buildings:
        found.append((at[b >> BUILDING_PLACE], (True, b)))
    for f in m.fortifications:
        found.append((at[f >> UNIT_PLACE], (False, f)))
    return found


def apply_decommission(
    rules: Rules, state: GlobetrotterState, player: int, action: Decommission, piece: Removable
) -> GlobetrotterState:
    touch("GT-A12")
    is_building, code = piece
    if not is_building:
        return state.replace_fortification(code, None)
    # The piece as it stands now: a Treasury that paid for this action with a saved point holds one
    # point fewer than when the action was listed, and goes all the same.
    code = state.codes_at(code >> BUILDING_PLACE)[2] or code
    touch("GT-A13")  # the Fortifications around it stay
    kind = building_kind(code)
    if kind in (FACTORY, TREASURY):
        touch("GT-A14")  # its points go with it
    if kind == DRILL_CANNON:
        touch("GT-A15")  # no explosion, and the fire counter stays
    return state.replace_building(code, None)


# Manufacture and Repair


def open_for_rover(m: Mover) -> int:
    """GT-F2 under `open_space`: the set of spaces where a new Rover of the mover may appear."""
    if m.rules.options.open_space is _FRIENDLY_FORTIFICATION:
        return m.unoccupied | m.own_fortified_clear
    return m.unoccupied


def rover_cap_counts(m: Mover, planet: int) -> tuple[int, int]:
    """GT-F5: the mover's Rovers and Buildings as the cap counts them (`cap_orbit`, `cap_scope`)."""
    everywhere = m.rules.options.cap_scope is _ALL_PLANETS
    counted = m.rules.options.cap_orbit is _ORBIT_COUNTS
    rovers = buildings = 0
    for r in m.rovers:
        where = r >> UNIT_PLACE
        if (everywhere or where >> SPACE_BITS == planet) and (counted or where & SPACE_MASK):
            rovers += 1
    for b in m.buildings:
        if everywhere or b >> BUILDING_PLACE >> SPACE_BITS == planet:
            buildings += 1
    return rovers, buildings


def legal_manufactures(m: Mover) -> Listing[int]:
    """Each Manufacture with the Factory that makes the Rover."""
    factories = m.kinds.get(FACTORY)
    if not factories:
        return NOTHING
    found: list[tuple[Action, int]] = []
    for f in factories:
        m.touched += ("GT-F2", "GT-F5")
        where = f >> BUILDING_PLACE
        rovers, buildings = rover_cap_counts(m, where >> SPACE_BITS)
        if not can_manufacture(INT_OPS, f >> B_POINTS & FIELD, rovers, buildings):
            continue
        open_spaces = open_for_rover(m)
        steps = m.rules.actions.steps(Manufacture)[where]
        found += [(action, f) for there, action in steps if there & open_spaces]
    return found


def apply_manufacture(
    rules: Rules, state: GlobetrotterState, player: int, action: Manufacture, factory: int
) -> GlobetrotterState:
    touch("GT-F2", "GT-B4", "GT-F5")
    where = rules.boards.places[action.target]
    state = state.replace_building(factory, with_field(factory, B_POINTS, 0))
    return state.with_codes(rovers=state.rover_codes + (unit_code(where, player, ROVER_HP),))


def repairing_factory(m: Mover, where: Where) -> int | None:
    """GT-F3: the first of the mover's Factories beside the place, in board order, if any."""
    factories = m.kinds.get(FACTORY)
    if not factories:
        return None
    by_place = {f >> BUILDING_PLACE: f for f in factories}
    for near in m.rules.boards.around[where]:
        factory = by_place.get(near)
        if factory is not None:
            return factory
    return None


def repairable(m: Mover, rover: int, factory: int) -> bool:
    """GT-F3 under `repair_at_full`: whether the Factory may repair the Rover (a build point, and a
    damaged Rover unless repairing one at full hit points is legal)."""
    at_full_allowed = m.rules.options.repair_at_full is _REPAIR_AT_FULL_LEGAL
    return bool(can_repair(INT_OPS, rover & FIELD, factory >> B_POINTS & FIELD, at_full_allowed))


def legal_repairs(m: Mover) -> Listing[tuple[int, int]]:
    """Each Repair with the Rover repaired and the Factory that repairs it (the game reads GT-F3 for
    it, whenever the mover has a Rover on the board: PlayRule.reads)."""
    if not m.on_board or FACTORY not in m.kinds:
        return NOTHING
    found: list[tuple[Action, tuple[int, int]]] = []
    for where, r in m.on_board.items():
        factory = repairing_factory(m, where)
        if factory is not None and repairable(m, r, factory):
            found.append((m.rules.actions.at(Repair)[where], (r, factory)))
    return found


def apply_repair(
    rules: Rules, state: GlobetrotterState, player: int, action: Repair, found: tuple[int, int]
) -> GlobetrotterState:
    touch("GT-F3")
    rover, factory = found
    points = after_repair_points(INT_OPS, factory >> B_POINTS & FIELD)
    state = state.replace_building(factory, with_field(factory, B_POINTS, points))
    return state.replace_rover(rover, rover & ~FIELD | repaired_hp(INT_OPS, rover & FIELD))


# Saving in the Treasury


def legal_saves(m: Mover) -> Listing[None]:
    """The Save, if the mover may save (the game reads GT-T1 for it on every step: PlayRule.reads)."""
    if TREASURY not in m.kinds:
        return NOTHING
    m.touched.append("GT-T2")
    turn = m.state.turn
    assert turn is not None
    if can_save(INT_OPS, saved_points(m.state, m.player), turn.own_used):
        return [(m.rules.actions.act(Save), None)]
    return NOTHING


def apply_save(rules: Rules, state: GlobetrotterState, player: int, action: Save, _: None) -> GlobetrotterState:
    touch("GT-T1", "GT-T2")
    saved = set_saved_points(state, player, saved_after_save(INT_OPS, saved_points(state, player)))
    turn = saved.turn
    assert turn is not None
    return saved.with_turn(evolve(turn, saved_now=turn.saved_now + 1))


RULES: tuple[PlayRule, ...] = (
    PlayRule(Fortify, legal_fortifications, apply_fortify, ROVERS_ON_BOARD),
    PlayRule(Build, legal_builds, apply_build, ROVERS_ON_BOARD),
    PlayRule(Decommission, legal_decommissions, apply_decommission, STRUCTURES),
    PlayRule(Manufacture, legal_manufactures, apply_manufacture, FACTORIES),
    PlayRule(Repair, legal_repairs, apply_repair, ROVERS_ON_BOARD, ("GT-F3",), FACTORIES),
    PlayRule(Save, legal_saves, apply_save, ANYWAY, ("GT-T1",), TREASURIES),
)
