"""What the Globetrotter rulebook promises of every reachable state and every step.

Each property names the clauses it guards and, where the promise holds only under some
readings, the option values it needs (for example, Fortifications are never adjacent
only when Fortify forbids a space next to any Fortification).

The state properties, checked on every step, read the pieces' codes (the masks and shifts of
state.py) and the boards' tables by place; a piece's record is made only to write a failure.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any, Final

from rulecheck.games.globetrotter.actions import Decommission, Manufacture
from rulecheck.games.globetrotter.counters import (
    ACTIONS_IN_A_ROW,
    BUILDING_HP,
    FACTORY_CAPACITY,
    FORTIFICATION_HP,
    ROVER_HP,
    TREASURY_CAPACITY,
)
from rulecheck.games.globetrotter.options import (
    CapOrbit,
    CapScope,
    DestroyingAction,
    FortifyAdjacency,
    GameEnd,
    GlobetrotterOptions,
    LossCheck,
    LostPieces,
)
from rulecheck.games.globetrotter.state import (
    AIMED,
    B_HP,
    B_OWNER,
    B_POINTS,
    B_READINESS,
    BUILDING_PLACE,
    BUILDING_PLANET,
    DRILL_CANNON,
    FACTORY,
    FIELD,
    KIND_MASK,
    OVER,
    OWNER,
    PLAY,
    READINESS_NUMBERS,
    SLOT_MASK,
    SPACE_BITS,
    SPACE_MASK,
    TREASURY,
    UNIT_PLACE,
    UNIT_PLANET,
    Building,
    Fortification,
    GlobetrotterState,
    Piece,
    Rover,
    building_kind,
    kind_bits,
    space_label,
    spot,
)
from rulecheck.games.globetrotter.turns import losing, saved_points
from rulecheck.model.properties import StateProperty, TransitionProperty


def _first(items: list[str]) -> str | None:
    return items[0] if items else None


_FACTORY: Final = kind_bits(FACTORY)
_TREASURY: Final = kind_bits(TREASURY)
_KEEPERS: Final = (_FACTORY, _TREASURY)
"""The kinds of Building that hold points (the bits of their codes)."""
_AIMED_CANNON: Final = kind_bits(DRILL_CANNON) | READINESS_NUMBERS[AIMED] << B_READINESS
_KIND_AND_READINESS: Final = KIND_MASK | FIELD << B_READINESS


def _hp_outside(codes: tuple[int, ...], shift: int, most: int) -> int | None:
    """The first code whose hit points (the field at `shift`) fall outside 1..most."""
    for code in codes:
        if not 1 <= code >> shift & FIELD <= most:
            return code
    return None


def hit_points_in_range(game: Any, s: GlobetrotterState) -> str | None:
    r = _hp_outside(s.rover_codes, 0, ROVER_HP)
    if r is not None:
        rover = Rover.of(r)
        return f"Rover {rover} has {rover.hp} hp"
    f = _hp_outside(s.fortification_codes, 0, FORTIFICATION_HP)
    if f is not None:
        fortification = Fortification.of(f)
        return f"Fortification {fortification} has {fortification.hp} hp"
    b = _hp_outside(s.building_codes, B_HP, BUILDING_HP)
    if b is not None:
        building = Building.of(b)
        return f"Building {building} has {building.hp} hp"
    return None


def _points_outside(s: GlobetrotterState, kind: int, most: int) -> str | None:
    """Where the first Building of a kind (its bits) holding points outside 0..most stands, and its points."""
    for b in s.building_codes:
        if b & KIND_MASK == kind and not 0 <= b >> B_POINTS & FIELD <= most:
            return f"on {space_label(b >> BUILDING_PLACE)} holds {b >> B_POINTS & FIELD}"
    return None


def build_points_in_range(game: Any, s: GlobetrotterState) -> str | None:
    found = _points_outside(s, _FACTORY, FACTORY_CAPACITY)
    return None if found is None else f"Factory {found}"


def saved_points_in_range(game: Any, s: GlobetrotterState) -> str | None:
    found = _points_outside(s, _TREASURY, TREASURY_CAPACITY)
    return None if found is None else f"Treasury {found}"


def points_only_where_kept(game: Any, s: GlobetrotterState) -> str | None:
    for b in s.building_codes:
        if b & KIND_MASK not in _KEEPERS and b >> B_POINTS & FIELD:
            return f"{building_kind(b)} on {space_label(b >> BUILDING_PLACE)} holds {b >> B_POINTS & FIELD} points"
    return None


def actions_in_a_row(game: Any, before: GlobetrotterState, action: Any, after: GlobetrotterState) -> str | None:
    """Checked on the step itself: the fifth action ends the turn, so no settled state shows it."""
    turn = before.turn
    if turn is not None and game.to_move(before) == turn.player and turn.taken >= ACTIONS_IN_A_ROW:
        return f"player {turn.player} takes action {turn.taken + 1} in a row: {action}"
    return None


def stolen_points_fit(game: Any, s: GlobetrotterState) -> str | None:
    t = s.turn
    if t is not None and not 0 <= t.stolen <= ACTIONS_IN_A_ROW - t.counted:
        return f"player {t.player} holds {t.stolen} stolen points after {t.counted} counted actions"
    return None


def one_building_per_type_and_planet(game: Any, s: GlobetrotterState) -> str | None:
    codes = s.building_codes
    if len({b & SLOT_MASK for b in codes}) == len(codes):
        return None
    counts = Counter(b & SLOT_MASK for b in codes)
    return _first(
        [
            f"player {b >> B_OWNER & FIELD} has {n} {building_kind(b)}s on planet {b >> BUILDING_PLANET}"
            for b, n in counts.items()
            if n > 1
        ]
    )


def one_treasury_per_player(game: Any, s: GlobetrotterState) -> str | None:
    owners = [b >> B_OWNER & FIELD for b in s.building_codes if b & KIND_MASK == _TREASURY]
    if len(owners) < 2 or len(set(owners)) == len(owners):
        return None
    return _first([f"player {o} has {n} Treasuries" for o, n in Counter(owners).items() if n > 1])


def spaces_hold_compatible_pieces(game: Any, s: GlobetrotterState) -> str | None:
    """Worked out from the piece tuples alone, apart from the engine's own record of what stands where.
    Loops, not comprehensions: a state holds a few pieces, and a comprehension costs a call."""
    rover_owners: dict[int, int] = {}
    grounded = 0
    for r in s.rover_codes:
        if r >> UNIT_PLACE & SPACE_MASK:
            rover_owners[r >> UNIT_PLACE] = r >> OWNER & FIELD
            grounded += 1
    fortifications = s.fortification_codes
    fortification_owners: dict[int, int] = {}
    for f in fortifications:
        fortification_owners[f >> UNIT_PLACE] = f >> OWNER & FIELD
    buildings = set()
    for b in s.building_codes:
        buildings.add(b >> BUILDING_PLACE)
    if len(rover_owners) < grounded:
        rovers = Counter(r >> UNIT_PLACE for r in s.rover_codes if r >> UNIT_PLACE & SPACE_MASK)
        return _first([f"{n} Rovers on {spot(where)}" for where, n in rovers.items() if n > 1])
    for where, owner in rover_owners.items():
        if where in buildings:
            return f"a Rover and a Building on {space_label(where)}"
        if fortification_owners.get(where, owner) != owner:
            return f"a Rover on an enemy Fortification on {space_label(where)}"
    if len(fortification_owners) < len(fortifications):
        forts = Counter(f >> UNIT_PLACE for f in fortifications)
        return _first([f"{n} Fortifications on {spot(where)}" for where, n in forts.items() if n > 1])
    for f in fortifications:
        where = f >> UNIT_PLACE
        if where in buildings:
            return f"a Fortification and a Building on {space_label(where)}"
    return None


def buildings_on_hq_spaces(game: Any, s: GlobetrotterState) -> str | None:
    hq = game.rules.boards.hq_numbers
    for b in s.building_codes:
        if b >> BUILDING_PLACE & SPACE_MASK not in hq:
            return f"{building_kind(b)} on {space_label(b >> BUILDING_PLACE)}"
    return None


def fortifications_not_adjacent(game: Any, s: GlobetrotterState) -> str | None:
    """Read in the order of the Fortifications' places (their codes' order: planet, then space
    label), each one's neighbours in board order."""
    codes = s.fortification_codes
    places = set()
    for f in codes:
        places.add(f >> UNIT_PLACE)
    around = game.rules.boards.around
    for f in codes:
        where = f >> UNIT_PLACE
        near = around[where]
        if not places.isdisjoint(near):
            n = next(n for n in near if n in places)
            return f"Fortifications on {space_label(where)} and {space_label(n)} are adjacent"
    return None


def cannon_aim_consistent(game: Any, s: GlobetrotterState) -> str | None:
    for b in s.building_codes:
        if bool(b & SPACE_MASK) != (b & _KIND_AND_READINESS == _AIMED_CANNON):
            building = Building.of(b)
            return f"{building.kind} on {building.space}: {building.readiness} aiming at {building.aim}"
    return None


def nothing_on_destroyed_planets(game: Any, s: GlobetrotterState) -> str | None:
    dead = {i for i, p in enumerate(s.planets) if p.destroyed}
    if not dead:
        return None
    kinds: tuple[tuple[tuple[int, ...], int, Callable[[int], Piece]], ...] = (
        (s.rover_codes, UNIT_PLANET, Rover.of),
        (s.fortification_codes, UNIT_PLANET, Fortification.of),
        (s.building_codes, BUILDING_PLANET, Building.of),
    )
    for codes, planet_shift, record in kinds:
        for code in codes:
            if code >> planet_shift in dead:
                piece = record(code)
                return f"{piece} is on destroyed planet {piece.planet}"
    return None


def losers_are_marked_and_game_end(game: Any, s: GlobetrotterState) -> str | None:
    if s.phase not in (PLAY, OVER) or s.pending:
        return None
    lost = s.lost
    alive = [p for p in range(game.players) if p not in lost] if lost else list(range(game.players))
    options = game.options
    if options.loss_check is LossCheck.AFTER_EVERY_ACTION:
        unmarked = losing(s, alive)
        if unmarked:
            return f"players {unmarked} meet the loss condition but play on"
    ended = len(alive) <= 1 if options.game_end is GameEnd.LAST_STANDING else bool(lost)
    if ended != (s.phase == OVER):
        return f"phase {s.phase} with players {alive} still in"
    if lost and options.lost_pieces is LostPieces.REMOVED:
        holding = sorted(
            {r.owner for r in s.rovers} | {f.owner for f in s.fortifications} | {b.owner for b in s.buildings}
        )
        kept = [p for p in lost if p in holding]
        if kept:
            return f"players {kept} have lost but still hold pieces, though a loser's pieces are removed"
    return None


def fire_counters_never_decrease(
    game: Any, before: GlobetrotterState, action: Any, after: GlobetrotterState
) -> str | None:
    if before.planets is after.planets:
        return None
    return _first(
        [
            f"planet {i} fire counter fell from {a.fires} to {b.fires}"
            for i, (a, b) in enumerate(zip(before.planets, after.planets))
            if b.fires < a.fires
        ]
    )


def lost_players_stay_lost_and_never_act(
    game: Any, before: GlobetrotterState, action: Any, after: GlobetrotterState
) -> str | None:
    if not set(before.lost) <= set(after.lost):
        return f"players {sorted(set(before.lost) - set(after.lost))} came back"
    mover = game.to_move(before)
    if mover >= 0 and mover in before.lost:
        return f"player {mover} has lost but acted"
    return None


def manufacture_respects_rover_cap(
    game: Any, before: GlobetrotterState, action: Any, after: GlobetrotterState
) -> str | None:
    """After a Manufacture the player has no more Rovers, on the ground and in orbit together,
    than Buildings (on the Factory's planet under cap_scope=this-planet)."""
    if not isinstance(action, Manufacture):
        return None
    player = game.to_move(before)
    planet = game.rules.boards.places[action.target] >> SPACE_BITS
    in_scope = game.options.cap_scope is CapScope.ALL_PLANETS
    rovers = sum(
        1 for r in after.rover_codes if r >> OWNER & FIELD == player and (in_scope or r >> UNIT_PLANET == planet)
    )
    buildings = sum(
        1
        for b in after.building_codes
        if b >> B_OWNER & FIELD == player and (in_scope or b >> BUILDING_PLANET == planet)
    )
    if rovers > buildings:
        return f"Manufacture left {rovers} Rovers against {buildings} Buildings"
    return None


def decommission_removes_the_piece(
    game: Any, before: GlobetrotterState, action: Any, after: GlobetrotterState
) -> str | None:
    """After a Decommission its space holds none of the player's Buildings or Fortifications (no
    space holds both, and the action removes the one there)."""
    if not isinstance(action, Decommission):
        return None
    player = game.to_move(before)
    _, fortification, building = after.codes_at(game.rules.boards.places[action.target])
    if building is not None and building >> B_OWNER & FIELD == player:
        return f"{action} left {Building.of(building)} standing"
    if fortification is not None and fortification >> OWNER & FIELD == player:
        return f"{action} left {Fortification.of(fortification)} standing"
    return None


def saved_points_only_grow_by_saving(
    game: Any, before: GlobetrotterState, action: Any, after: GlobetrotterState
) -> str | None:
    if before.building_codes is after.building_codes:
        return None  # saved points are kept on Treasuries alone
    for player in range(game.players):
        gained = saved_points(after, player) - saved_points(before, player)
        if gained > 1 or (gained == 1 and str(action) != "save"):
            return f"player {player}'s saved points went up by {gained} on {action}"
    return None


def _fortify_any_space(options: GlobetrotterOptions) -> bool:
    return options.fortify_adjacency is FortifyAdjacency.SPACE_ANY


def _excluded_not_chosen(options: GlobetrotterOptions) -> bool:
    return options.destroying_action is DestroyingAction.COUNTS


def _orbit_counts(options: GlobetrotterOptions) -> bool:
    return options.cap_orbit is CapOrbit.COUNTS


PROPERTIES = (
    StateProperty(
        "hit-points-in-range",
        ("GT-A8",),
        "Rovers 1..3, Buildings 1..5, Fortifications 1 hit point",
        hit_points_in_range,
        reads=("rover_codes", "fortification_codes", "building_codes"),
    ),
    StateProperty(
        "build-points-in-range",
        ("GT-F1",),
        "a Factory holds 0..5 build points",
        build_points_in_range,
        reads=("building_codes",),
    ),
    StateProperty(
        "saved-points-in-range",
        ("GT-T2",),
        "a Treasury holds 0..3 action points",
        saved_points_in_range,
        reads=("building_codes",),
    ),
    StateProperty(
        "points-only-in-factories-and-treasuries",
        ("GT-F1", "GT-T1"),
        "only Factories and Treasuries hold points",
        points_only_where_kept,
        reads=("building_codes",),
    ),
    TransitionProperty(
        "at-most-4-actions-in-a-row",
        ("GT-T3", "GT-T5"),
        "no player takes more than 4 actions in a row, stolen ones included",
        actions_in_a_row,
        _excluded_not_chosen,
    ),
    StateProperty(
        "stolen-points-fit-the-cap",
        ("GT-T4", "GT-T5"),
        "stolen points never exceed what the cap of 4 leaves",
        stolen_points_fit,
        reads=("turn",),
    ),
    StateProperty(
        "one-building-per-type-and-planet",
        ("GT-A11",),
        "a player has at most one Building of each type on each planet",
        one_building_per_type_and_planet,
        reads=("building_codes",),
    ),
    StateProperty(
        "one-treasury-per-player",
        ("GT-T6",),
        "a player has at most one Treasury in all",
        one_treasury_per_player,
        reads=("building_codes",),
    ),
    StateProperty(
        "spaces-hold-compatible-pieces",
        ("GT-A2", "GT-A3", "GT-A9", "GT-A10"),
        "no two Rovers in a space, no Rover with a Building or an enemy Fortification",
        spaces_hold_compatible_pieces,
        reads=("rover_codes", "fortification_codes", "building_codes"),
    ),
    StateProperty(
        "buildings-on-hq-spaces",
        ("GT-B3", "GT-A10"),
        "Buildings stand only on HQ spaces",
        buildings_on_hq_spaces,
        reads=("building_codes",),
    ),
    StateProperty(
        "fortifications-never-adjacent",
        ("GT-A9",),
        "no two Fortifications are adjacent",
        fortifications_not_adjacent,
        _fortify_any_space,
        reads=("fortification_codes",),
    ),
    StateProperty(
        "cannon-aim-consistent",
        ("GT-D1", "GT-D3", "GT-D4"),
        "a Drill Cannon has an aim exactly when it is aimed",
        cannon_aim_consistent,
        reads=("building_codes",),
    ),
    StateProperty(
        "nothing-on-destroyed-planets",
        ("GT-D6",),
        "a destroyed planet holds no pieces",
        nothing_on_destroyed_planets,
        reads=("planets", "rover_codes", "fortification_codes", "building_codes"),
    ),
    StateProperty(
        "losses-and-game-end",
        ("GT-E1", "GT-E2", "GT-E3"),
        "losers are marked (holding no piece, when a loser's pieces are removed) and the game ends exactly when"
        " the end rule says",
        losers_are_marked_and_game_end,
        reads=("phase", "pending", "lost", "rover_codes", "fortification_codes", "building_codes"),
    ),
    TransitionProperty(
        "fire-counters-never-decrease", ("GT-D6", "GT-A15"), "fire counters never go down", fire_counters_never_decrease
    ),
    TransitionProperty(
        "lost-players-stay-out",
        ("GT-E1",),
        "a player who has lost never acts or comes back",
        lost_players_stay_lost_and_never_act,
    ),
    TransitionProperty(
        "manufacture-respects-rover-cap",
        ("GT-F5",),
        "no Manufacture leaves more Rovers, on the ground and in orbit, than Buildings",
        manufacture_respects_rover_cap,
        _orbit_counts,
    ),
    TransitionProperty(
        "decommission-removes-the-piece",
        ("GT-A12", "GT-A14"),
        "a Decommission removes the player's Building or Fortification from its space",
        decommission_removes_the_piece,
    ),
    TransitionProperty(
        "saved-points-only-by-saving",
        ("GT-T1",),
        "saved points grow only by Save, one at a time",
        saved_points_only_grow_by_saving,
    ),
)
