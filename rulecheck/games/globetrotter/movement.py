"""Globetrotter's Moves: on the board, into orbit, down from orbit, between orbits.

Models: GT-A1 to GT-A3 (a Rover moves to an adjacent space holding no Rover, no
Building and no enemy Fortification; it may share a friendly Fortification's space),
GT-SP1 (into orbit from beside a friendly Space Port), GT-SP2 (descending onto any
unoccupied space; in the turn the Rover went into orbit, or a later one, under
`descend_after_orbit`), GT-SP3 and GT-M2 (orbit to orbit, under `orbit_moves` and
`planet_adjacency`, and descending from the new orbit only in a later turn, under
`descend_after_transfer`), GT-SP4 and GT-SP5; each by the turn's Rover alone under
`rovers_per_turn=one` (GT-F4, acting.py).

Each listing (`legal_*`) alone decides which Moves are legal, with what the effect
needs; the effects check nothing again. The predicates a listing reads are named, so that
refusals.py explains a refusal by the same ones.

Leaves out: nothing of Move in the rulebook.
"""

from __future__ import annotations

from typing import Final

from rulecheck.core.clauses import touch
from rulecheck.core.evolve import evolve
from rulecheck.games.globetrotter.acting import acted, acting_in_orbit, acting_on_board
from rulecheck.games.globetrotter.actions import Descend, EnterOrbit, Move, Transfer
from rulecheck.games.globetrotter.context import (
    NOTHING,
    ROVERS_IN_ORBIT,
    ROVERS_ON_BOARD,
    SPACE_PORTS,
    Listing,
    Mover,
    PlayRule,
    Rules,
    Where,
)
from rulecheck.games.globetrotter.options import DescendAfterOrbit, DescendAfterTransfer, OrbitMoves
from rulecheck.games.globetrotter.state import (
    FIELD,
    SPACE_BITS,
    SPACE_MASK,
    UNIT_PLACE,
    GlobetrotterState,
    place,
    unit_code,
)

# Readings compared on every step, kept as globals (why: Reading, rulecheck/core/options.py).
_ORBIT_SAME_TURN: Final = DescendAfterOrbit.SAME_TURN
_TRANSFER_SAME_TURN: Final = DescendAfterTransfer.SAME_TURN
_DESCEND_ONLY: Final = OrbitMoves.DESCEND_ONLY


_MOVE_CLAUSES: Final = ("GT-A1", "GT-F4", "GT-B4", "GT-A2", "GT-A3")
_FIELDS: Final = (1 << UNIT_PLACE) - 1
"""A unit's code but its place: what stays when a Rover moves."""
_IN_ORBIT: Final = ~(SPACE_MASK << UNIT_PLACE)
"""A unit's code but its space number: a Rover going into its planet's orbit keeps the rest."""


def legal_moves(m: Mover) -> Listing[int]:
    """Each Move with the Rover that moves."""
    if not m.on_board:
        return NOTHING
    m.touched += _MOVE_CLAUSES
    steps, enterable = m.rules.actions.steps(Move), m.enterable
    movers = acting_on_board(m)
    return [(move, rover) for where, rover in movers.items() for there, move in steps[where] if there & enterable]


def _to_space(rules: Rules, state: GlobetrotterState, rover: int, where: Where) -> GlobetrotterState:
    """The Rover moved to the place (from the board or from orbit), as the Rover that acted."""
    moved = rover & _FIELDS | where << UNIT_PLACE
    return acted(rules, state.replace_rover(rover, moved), moved)


def apply_move(rules: Rules, state: GlobetrotterState, player: int, action: Move, rover: int) -> GlobetrotterState:
    touch(*_MOVE_CLAUSES)
    return _to_space(rules, state, rover, rules.boards.places[action.target])


def beside_own_port(m: Mover, where: Where) -> bool:
    """GT-SP1: the space is adjacent to a friendly Space Port."""
    return bool(m.rules.boards.bit[where] & m.beside_own_port)


_ORBIT_CLAUSES: Final = ("GT-SP1", "GT-F4")


def legal_orbits(m: Mover) -> Listing[int]:
    """Each move into orbit with the Rover that goes (the game reads _ORBIT_CLAUSES for it, whenever
    the mover has a Rover on the board: PlayRule.reads)."""
    if not m.on_board or not m.beside_own_port:
        return NOTHING
    at = m.rules.actions.at(EnterOrbit)
    return [(at[where], rover) for where, rover in acting_on_board(m).items() if beside_own_port(m, where)]


def apply_enter_orbit(
    rules: Rules, state: GlobetrotterState, player: int, action: EnterOrbit, rover: int
) -> GlobetrotterState:
    touch("GT-SP1", "GT-F4", "GT-SP5")
    orbiting = acted(rules, state.replace_rover(rover, rover & _IN_ORBIT), rover & _IN_ORBIT)
    if rules.options.descend_after_orbit is _ORBIT_SAME_TURN:
        return orbiting
    touch("GT-SP3")  # descend_after_orbit=next-turn: it waits, as a Rover from another orbit does
    return _arrive(orbiting, rover >> UNIT_PLACE >> SPACE_BITS, rover & FIELD)


def _arrive(state: GlobetrotterState, planet: int, hp: int, left: int | None = None) -> GlobetrotterState:
    """The state with one of the player's Rovers (`hp` hit points) come into `planet`'s orbit this turn
    and waiting to descend; `left`: the orbit it left, if it was waiting there (Rovers alike are one:
    the one that moves on is one that came)."""
    turn = state.turn
    assert turn is not None
    arrived = list(turn.arrived)
    if left is not None and (left, hp) in arrived:
        arrived.remove((left, hp))
    arrived.append((planet, hp))
    return state.with_turn(evolve(turn, arrived=tuple(sorted(arrived))))


def may_descend(rules: Rules, state: GlobetrotterState, rover: int) -> bool:
    """GT-SP3 under `descend_after_transfer` and `descend_after_orbit`: whether one of the player's
    orbiting Rovers like `rover` (same planet and hit points) is not waiting to descend: it did not
    come into that orbit this turn in a way that makes it wait."""
    turn = state.turn
    if turn is None or not turn.arrived:
        return True
    touch("GT-SP3")
    options = rules.options
    if options.descend_after_transfer is _TRANSFER_SAME_TURN and options.descend_after_orbit is _ORBIT_SAME_TURN:
        return True  # nothing waits (a written position may still list arrivals)
    return state.rover_codes.count(rover) > turn.arrived.count((rover >> UNIT_PLACE >> SPACE_BITS, rover & FIELD))


def legal_descents(m: Mover) -> Listing[tuple[int, Where]]:
    """Each descent with the orbiting Rover that descends and the place it lands on (a Rover in
    orbit has no space to tell it by)."""
    if not m.orbiting:
        return NOTHING
    m.touched.append("GT-SP2")
    boards = m.rules.boards
    act, tokens = m.rules.actions.act, boards.tokens
    return [
        (act(Descend, r & FIELD, tokens[where]), (r, where))
        for r in acting_in_orbit(m)
        if may_descend(m.rules, m.state, r)
        for where in boards.places_in(m.unoccupied & boards.planet_set[r >> UNIT_PLACE >> SPACE_BITS])
    ]


def apply_descend(
    rules: Rules, state: GlobetrotterState, player: int, action: Descend, found: tuple[int, Where]
) -> GlobetrotterState:
    touch("GT-SP2")
    if state.turn is not None and state.turn.arrived:
        touch("GT-SP3")  # the listing asked whether the Rover arrived this turn
    return _to_space(rules, state, *found)


def transfers_allowed(rules: Rules) -> bool:
    """GT-SP4 under `orbit_moves`: whether an orbiting Rover may move to another orbit at all."""
    return rules.options.orbit_moves is not _DESCEND_ONLY


def legal_transfers(m: Mover) -> Listing[tuple[int, int]]:
    """Each move between orbits with the orbiting Rover that moves and the planet it reaches."""
    if not m.orbiting:
        return NOTHING
    rules = m.rules
    live = rules.live_planets(m.state)
    moves = [
        (r, r >> UNIT_PLACE >> SPACE_BITS, other)
        for r in acting_in_orbit(m)
        for other in live
        if other != r >> UNIT_PLACE >> SPACE_BITS
    ]
    if not moves:
        return NOTHING
    m.touched += ("GT-SP3", "GT-SP4")
    if not transfers_allowed(rules):
        return NOTHING
    boards = rules.boards
    return [
        (rules.actions.act(Transfer, r & FIELD, boards.orbit_token(source), boards.orbit_token(other)), (r, other))
        for r, source, other in moves
        if boards.orbits_adjacent(source, other)
    ]


def apply_transfer(
    rules: Rules, state: GlobetrotterState, player: int, action: Transfer, found: tuple[int, int]
) -> GlobetrotterState:
    touch("GT-SP3", "GT-SP4", "GT-M2")
    rover, target = found
    source, hp = rover >> UNIT_PLACE >> SPACE_BITS, rover & FIELD
    there = unit_code(place(target, None), player, hp)
    moved = acted(rules, state.replace_rover(rover, there), there)
    if rules.options.descend_after_transfer is _TRANSFER_SAME_TURN:
        return moved
    return _arrive(moved, target, hp, source)


RULES: tuple[PlayRule, ...] = (
    PlayRule(Move, legal_moves, apply_move, ROVERS_ON_BOARD),
    PlayRule(EnterOrbit, legal_orbits, apply_enter_orbit, ROVERS_ON_BOARD, _ORBIT_CLAUSES, SPACE_PORTS),
    PlayRule(Descend, legal_descents, apply_descend, ROVERS_IN_ORBIT),
    PlayRule(Transfer, legal_transfers, apply_transfer, ROVERS_IN_ORBIT),
)
