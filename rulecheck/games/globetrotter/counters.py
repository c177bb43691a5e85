"""Globetrotter's arithmetic on counters, written once over `ops` for the engine and for Z3.

Models: every guard and effect on hit points, build points, saved and stolen action
points, actions taken in a row and the fire counter. The engine calls these with
INT_OPS; the prover calls the same functions with Z3 terms, so what it proves is what
the engine runs. Each function names the clause it implements.

Leaves out: anything about the board (which spaces, which pieces); those rules are
checked by refinement against fuzzed play.
"""

from __future__ import annotations

from typing import Any, Final

from rulecheck.core.ops import Ops
from rulecheck.games.globetrotter.options import FortifyAdjacency

ROVER_HP: Final = 3  # GT-A8
BUILDING_HP: Final = 5  # GT-A8
FORTIFICATION_HP: Final = 1  # GT-A8
FACTORY_CAPACITY: Final = 5  # GT-F1
MANUFACTURE_COST: Final = 5  # GT-F2
TREASURY_CAPACITY: Final = 3  # GT-T2
ACTIONS_IN_A_ROW: Final = 4  # GT-T3, GT-T5
HIT_THRESHOLD: Final = 3  # GT-A5, GT-A6
COVERED_THRESHOLD: Final = 4  # GT-A7
EXPLOSION_THRESHOLD: Final = 3  # GT-D5


def damaged_hp(ops: Ops, hp: Any, amount: Any) -> Any:
    """GT-A8: damage removes hit points; a piece is destroyed at 0, never below."""
    return ops.max(hp - amount, 0)


def repaired_hp(ops: Ops, hp: Any) -> Any:
    """GT-F3: a repaired Rover regains 1 hit point, up to its maximum."""
    return ops.min(hp + 1, ROVER_HP)


def can_repair(ops: Ops, hp: Any, build_points: Any, at_full_allowed: Any) -> Any:
    """GT-F3: Repair costs one build point; at full hit points only under `repair_at_full=legal`."""
    return ops.and_(build_points >= 1, ops.or_(hp < ROVER_HP, at_full_allowed))


def after_repair_points(ops: Ops, build_points: Any) -> Any:
    """GT-F3: Repair spends one Factory build point."""
    return build_points - 1


def turn_start_points(ops: Ops, build_points: Any) -> Any:
    """GT-F1: a Factory gains one build point at the start of its owner's turn, up to 5."""
    return ops.min(build_points + 1, FACTORY_CAPACITY)


def has_manufacture_points(ops: Ops, build_points: Any) -> Any:
    """GT-F2: a Factory makes a Rover with 5 build points."""
    return build_points >= MANUFACTURE_COST


def under_rover_cap(ops: Ops, rovers: Any, buildings: Any) -> Any:
    """GT-F5: a new Rover may not make the player's Rovers outnumber their Buildings."""
    return rovers + 1 <= buildings


def can_manufacture(ops: Ops, build_points: Any, rovers: Any, buildings: Any) -> Any:
    """GT-F2, GT-F5: 5 build points, and the new Rover may not make Rovers outnumber Buildings."""
    return ops.and_(has_manufacture_points(ops, build_points), under_rover_cap(ops, rovers, buildings))


def can_save(ops: Ops, saved: Any, own_used: Any) -> Any:
    """GT-T1, GT-T2: the turn's own action point goes into a Treasury holding fewer than 3."""
    return ops.and_(ops.not_(own_used), saved < TREASURY_CAPACITY)


def saved_after_save(ops: Ops, saved: Any) -> Any:
    """GT-T1: saving puts one point into the Treasury."""
    return saved + 1


def usable_saved(ops: Ops, saved: Any, saved_now: Any, next_turn: Any) -> Any:
    """GT-T1 under `saved_point_use`: of the points in the Treasury, those the player may spend now:
    with `next_turn`, not the ones saved this turn ("on the player's next turn")."""
    return ops.ite(next_turn, ops.max(saved - saved_now, 0), saved)


def may_act(ops: Ops, counted: Any, own_used: Any, stolen: Any, saved: Any) -> Any:
    """GT-A0, GT-T3, GT-T5: the turn's own action, or an extra one from stolen or saved points
    while fewer than 4 actions in a row have been counted."""
    return ops.and_(counted < ACTIONS_IN_A_ROW, ops.or_(ops.not_(own_used), stolen > 0, saved > 0))


def spend_action(
    ops: Ops, counted: Any, own_used: Any, stolen: Any, saved: Any, stolen_first: Any
) -> tuple[Any, Any, Any, Any]:
    """GT-A0, GT-T3, GT-T4, GT-T5: an action counts toward the 4 in a row and uses the turn's
    own point first, then stolen or saved points in the order `treasury_spend` gives; stolen
    points the cap no longer leaves room for are forfeit at once.
    Returns (counted, own_used, stolen, saved)."""
    use_stolen = ops.and_(own_used, stolen > 0, ops.or_(stolen_first, saved == 0))
    use_saved = ops.and_(own_used, ops.not_(use_stolen))
    counted_after = counted + 1
    stolen_after = ops.ite(use_stolen, stolen - 1, stolen)
    return (
        counted_after,
        True,
        ops.min(stolen_after, ACTIONS_IN_A_ROW - counted_after),
        ops.ite(use_saved, saved - 1, saved),
    )


def stolen_after_theft(ops: Ops, stolen: Any, counted: Any, points: Any) -> Any:
    """GT-T4, GT-T5: a destroyed Treasury's points go to the destroyer, but never so many that
    their counted actions in a row could pass 4; the excess is forfeit."""
    return ops.max(ops.min(stolen + points, ACTIONS_IN_A_ROW - counted), 0)


def fires_after_firing(ops: Ops, fires: Any) -> Any:
    """GT-D6: each firing on a planet adds one to its fire counter."""
    return fires + 1


def planet_destroyed(ops: Ops, total: Any, fires: Any, or_equal: Any) -> Any:
    """GT-D6: the planet is destroyed when the 2d6 total is less than the fire count
    (or less or equal, under `destruction_roll=less-or-equal`)."""
    return ops.or_(total < fires, ops.and_(or_equal, total == fires))


def first_of_kind(ops: Ops, same_kind_on_planet: Any) -> Any:
    """GT-A11: a player builds at most one Building of each type on a planet."""
    return same_kind_on_planet == 0


def treasury_allowed(ops: Ops, is_treasury: Any, treasuries: Any) -> Any:
    """GT-T6: a Treasury only if the player has none anywhere."""
    return ops.implies(is_treasury, treasuries == 0)


def may_build_kind(ops: Ops, same_kind_on_planet: Any, is_treasury: Any, treasuries: Any) -> Any:
    """GT-A11, GT-T6: none of this type on the planet yet, and a Treasury only if the player has none."""
    return ops.and_(first_of_kind(ops, same_kind_on_planet), treasury_allowed(ops, is_treasury, treasuries))


# Readings compared on every step, kept as globals (why: Reading, rulecheck/core/options.py).
_SPACE_ANY: Final = FortifyAdjacency.SPACE_ANY
_SPACE_OWN: Final = FortifyAdjacency.SPACE_OWN


def may_fortify(
    ops: Ops,
    reading: FortifyAdjacency,
    unoccupied: Any,
    beside_own_rover: Any,
    fortification_beside_space: Any,
    own_fortification_beside_space: Any,
    rover_beside_clear_of_fortifications: Any,
) -> Any:
    """GT-A9 under `fortify_adjacency`: an unoccupied space beside a friendly Rover, and not
    adjacent to an existing Fortification: any owner's (space-any), the player's own
    (space-own), or, read as qualifying the Rover, some friendly Rover beside it is clear of
    every Fortification (rover)."""
    if reading is _SPACE_ANY:
        apart = ops.not_(fortification_beside_space)
    elif reading is _SPACE_OWN:
        apart = ops.not_(own_fortification_beside_space)
    else:
        apart = rover_beside_clear_of_fortifications
    return ops.and_(unoccupied, beside_own_rover, apart)
