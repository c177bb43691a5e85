"""What the Globetrotter rulebook promises of every reachable state and every step.

Each property names the clauses it guards and, where the promise holds only under some
readings, the option values it needs (for example, Fortifications are never adjacent
only when Fortify forbids a space next to any Fortification).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

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
)
from rulecheck.games.globetrotter.state import (
    AIMED,
    DRILL_CANNON,
    FACTORY,
    OVER,
    PLAY,
    TREASURY,
    GlobetrotterState,
    Piece,
)
from rulecheck.games.globetrotter.turns import has_lost, saved_points
from rulecheck.model.properties import StateProperty, TransitionProperty


def _first(items: list[str]) -> str | None:
    return items[0] if items else None


def hit_points_in_range(game: Any, s: GlobetrotterState) -> str | None:
    bad = [f"Rover {r} has {r.hp} hp" for r in s.rovers if not 1 <= r.hp <= ROVER_HP]
    bad += [f"Fortification {f} has {f.hp} hp" for f in s.fortifications if not 1 <= f.hp <= FORTIFICATION_HP]
    bad += [f"Building {b} has {b.hp} hp" for b in s.buildings if not 1 <= b.hp <= BUILDING_HP]
    return _first(bad)


def build_points_in_range(game: Any, s: GlobetrotterState) -> str | None:
    return _first(
        [
            f"Factory on {b.space} holds {b.points}"
            for b in s.buildings
            if b.kind == FACTORY and not 0 <= b.points <= FACTORY_CAPACITY
        ]
    )


def saved_points_in_range(game: Any, s: GlobetrotterState) -> str | None:
    return _first(
        [
            f"Treasury on {b.space} holds {b.points}"
            for b in s.buildings
            if b.kind == TREASURY and not 0 <= b.points <= TREASURY_CAPACITY
        ]
    )


def points_only_where_kept(game: Any, s: GlobetrotterState) -> str | None:
    return _first(
        [
            f"{b.kind} on {b.space} holds {b.points} points"
            for b in s.buildings
            if b.kind not in (FACTORY, TREASURY) and b.points != 0
        ]
    )


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
    counts = Counter((b.owner, b.planet, b.kind) for b in s.buildings)
    return _first([f"player {o} has {n} {k}s on planet {p}" for (o, p, k), n in counts.items() if n > 1])


def one_treasury_per_player(game: Any, s: GlobetrotterState) -> str | None:
    counts = Counter(b.owner for b in s.buildings if b.kind == TREASURY)
    return _first([f"player {o} has {n} Treasuries" for o, n in counts.items() if n > 1])


def spaces_hold_compatible_pieces(game: Any, s: GlobetrotterState) -> str | None:
    """Worked out from the piece tuples alone, apart from the engine's own record of what stands where."""
    rovers_all, fortifications = s.rovers, s.fortifications
    rover_owners = {(r.planet, r.space): r.owner for r in rovers_all if r.space is not None}
    fortification_owners = {(f.planet, f.space): f.owner for f in fortifications}
    buildings = {(b.planet, b.space) for b in s.buildings}
    bad = []
    if len(rover_owners) < sum(1 for r in rovers_all if r.space is not None):
        rovers = Counter((r.planet, r.space) for r in rovers_all if r.space is not None)
        bad += [f"{n} Rovers on {where}" for where, n in rovers.items() if n > 1]
    for (planet, space), owner in rover_owners.items():
        if (planet, space) in buildings:
            bad.append(f"a Rover and a Building on {space}")
        if fortification_owners.get((planet, space), owner) != owner:
            bad.append(f"a Rover on an enemy Fortification on {space}")
    if len(fortification_owners) < len(fortifications):
        forts = Counter((f.planet, f.space) for f in fortifications)
        bad += [f"{n} Fortifications on {where}" for where, n in forts.items() if n > 1]
    bad += [f"a Fortification and a Building on {f.space}" for f in fortifications if (f.planet, f.space) in buildings]
    return _first(bad)


def buildings_on_hq_spaces(game: Any, s: GlobetrotterState) -> str | None:
    return _first([f"{b.kind} on {b.space}" for b in s.buildings if not game.rules.boards.is_hq(b.space)])


def fortifications_not_adjacent(game: Any, s: GlobetrotterState) -> str | None:
    places = {(f.planet, f.space) for f in s.fortifications}
    for planet, space in sorted(places):
        for n in game.rules.boards.adjacent[space]:
            if (planet, n) in places:
                return f"Fortifications on {space} and {n} are adjacent"
    return None


def cannon_aim_consistent(game: Any, s: GlobetrotterState) -> str | None:
    return _first(
        [
            f"{b.kind} on {b.space}: {b.readiness} aiming at {b.aim}"
            for b in s.buildings
            if (b.aim is not None) != (b.kind == DRILL_CANNON and b.readiness == AIMED)
        ]
    )


def nothing_on_destroyed_planets(game: Any, s: GlobetrotterState) -> str | None:
    dead = {i for i, p in enumerate(s.planets) if p.destroyed}
    pieces: list[Piece] = [*s.rovers, *s.fortifications, *s.buildings]
    return _first([f"{p} is on destroyed planet {p.planet}" for p in pieces if p.planet in dead])


def losers_are_marked_and_game_end(game: Any, s: GlobetrotterState) -> str | None:
    if s.phase not in (PLAY, OVER) or s.pending:
        return None
    alive = [p for p in range(game.players) if p not in s.lost]
    if game.options.loss_check is LossCheck.AFTER_EVERY_ACTION:
        unmarked = [p for p in alive if has_lost(s, p)]
        if unmarked:
            return f"players {unmarked} meet the loss condition but play on"
    ended = len(alive) <= 1 if game.options.game_end is GameEnd.LAST_STANDING else bool(s.lost)
    if ended != (s.phase == OVER):
        return f"phase {s.phase} with players {alive} still in"
    return None


def fire_counters_never_decrease(
    game: Any, before: GlobetrotterState, action: Any, after: GlobetrotterState
) -> str | None:
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
    planet = game.rules.boards.parse(action.target)[0]
    in_scope = game.options.cap_scope is CapScope.ALL_PLANETS
    rovers = sum(1 for r in after.rovers_of(player) if in_scope or r.planet == planet)
    buildings = sum(1 for b in after.buildings_of(player) if in_scope or b.planet == planet)
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
    planet, space = game.rules.boards.parse(action.target)
    there = (after.building_at(planet, space), after.fortification_at(planet, space))
    kept = [p for p in there if p is not None and p.owner == player]
    return f"{action} left {kept[0]} standing" if kept else None


def saved_points_only_grow_by_saving(
    game: Any, before: GlobetrotterState, action: Any, after: GlobetrotterState
) -> str | None:
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
        "losers are marked and the game ends exactly when the end rule says",
        losers_are_marked_and_game_end,
        reads=("phase", "pending", "lost", "rover_codes", "building_codes"),
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
