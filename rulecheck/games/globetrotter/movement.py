"""Globetrotter's Moves: on the board, into orbit, down from orbit, between orbits.

Models: GT-A1 to GT-A3 (a Rover moves to an adjacent space holding no Rover, no
Building and no enemy Fortification; it may share a friendly Fortification's space),
GT-SP1 (into orbit from beside a friendly Space Port), GT-SP2 (descending onto any
unoccupied space), GT-SP3 and GT-M2 (orbit to orbit, under `orbit_moves` and
`planet_adjacency`, and descending from the new orbit only in a later turn, under
`descend_after_transfer`), GT-SP4 and GT-SP5.

Leaves out: nothing of Move in the rulebook.
"""

from __future__ import annotations

from typing import Final

from rulecheck.core.clauses import touch
from rulecheck.core.errors import IllegalAction
from rulecheck.core.evolve import evolve
from rulecheck.core.notation import Action
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
from rulecheck.games.globetrotter.options import DescendAfterTransfer, OrbitMoves
from rulecheck.games.globetrotter.state import (
    EMPTY,
    FIELD,
    SPACE_BITS,
    SPACE_MASK,
    UNIT_PLACE,
    GlobetrotterState,
    Occupants,
    place,
    unit_code,
)

_MOVE_CLAUSES: Final = ("GT-A1", "GT-F4", "GT-B4", "GT-A2", "GT-A3")
_FIELDS: Final = (1 << UNIT_PLACE) - 1
"""A unit's code but its place: what stays when a Rover moves."""
_IN_ORBIT: Final = ~(SPACE_MASK << UNIT_PLACE)
"""A unit's code but its space number: a Rover going into its planet's orbit keeps the rest."""


def _own_rover_at(m: Mover, token: str, action: Action) -> tuple[int, Where]:
    """GT-F4: the mover's Rover on the space `token` names, and that place."""
    touch("GT-F4")
    where = m.rules.space(token, "GT-A1", action, m.state)
    rover = m.on_board.get(where)
    if rover is None:
        raise IllegalAction("GT-F4", f"no Rover of yours on {token}", action)
    return rover, where


def _blocked(there: Occupants) -> tuple[str, str]:
    """GT-A2, GT-A3: why the mover's Rover may not enter a space (outside `Mover.enterable`) where
    `there` stands, as (clause, reason)."""
    rover, _, building = there
    if rover is not None or building is not None:
        return "GT-A2", "holds a Rover or a Building"
    return "GT-A3", "holds an enemy Fortification"


def legal_moves(m: Mover) -> Listing[int]:
    """Each Move with the Rover that moves."""
    if not m.on_board:
        return NOTHING
    m.touched += _MOVE_CLAUSES
    steps, enterable = m.rules.actions.steps(Move), m.enterable
    return [(move, rover) for where, rover in m.on_board.items() for there, move in steps[where] if there & enterable]


def check_move(m: Mover, action: Move) -> None:
    touch("GT-A1")
    _, source = _own_rover_at(m, action.source, action)
    where = m.rules.space(action.target, "GT-A1", action, m.state)
    if not m.rules.boards.beside(source, where):
        raise IllegalAction("GT-A1", f"{action.target} is not adjacent to {action.source}", action)
    touch("GT-A2")
    if not m.rules.boards.bit[where] & m.enterable:
        clause, reason = _blocked(m.occupancy.get(where, EMPTY))
        raise IllegalAction(clause, f"{action.target} {reason}", action)
    touch("GT-A3")


def _to_space(state: GlobetrotterState, rover: int, where: Where) -> GlobetrotterState:
    """The Rover moved to the place (from the board or from orbit)."""
    return state.replace_rover(rover, rover & _FIELDS | where << UNIT_PLACE)


def apply_move(rules: Rules, state: GlobetrotterState, player: int, action: Move, rover: int) -> GlobetrotterState:
    touch(*_MOVE_CLAUSES)
    return _to_space(state, rover, rules.boards.places[action.target])


def _beside_own_port(m: Mover, where: Where) -> bool:
    """GT-SP1: the space is adjacent to a friendly Space Port."""
    return bool(m.rules.boards.bit[where] & m.beside_own_port)


_ORBIT_CLAUSES: Final = ("GT-SP1", "GT-F4")


def legal_orbits(m: Mover) -> Listing[int]:
    """Each move into orbit with the Rover that goes (the game reads _ORBIT_CLAUSES for it, whenever
    the mover has a Rover on the board: PlayRule.reads)."""
    if not m.on_board or not m.beside_own_port:
        return NOTHING
    at = m.rules.actions.at(EnterOrbit)
    return [(at[where], rover) for where, rover in m.on_board.items() if _beside_own_port(m, where)]


def check_enter_orbit(m: Mover, action: EnterOrbit) -> None:
    touch("GT-SP1")
    _, where = _own_rover_at(m, action.source, action)
    if not _beside_own_port(m, where):
        raise IllegalAction("GT-SP1", f"the Rover on {action.source} is not adjacent to a friendly Space Port", action)


def apply_enter_orbit(
    rules: Rules, state: GlobetrotterState, player: int, action: EnterOrbit, rover: int
) -> GlobetrotterState:
    touch("GT-SP1", "GT-F4", "GT-SP5")
    return state.replace_rover(rover, rover & _IN_ORBIT)


def _may_descend(rules: Rules, state: GlobetrotterState, rover: int) -> bool:
    """GT-SP3 under `descend_after_transfer`: whether one of the player's orbiting Rovers like `rover`
    (same planet and hit points) did not arrive in that orbit this turn, or arrivals may descend."""
    turn = state.turn
    if turn is None or not turn.arrived:
        return True
    touch("GT-SP3")
    if rules.options.descend_after_transfer is DescendAfterTransfer.SAME_TURN:
        return True
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
        for r in m.orbiting
        if _may_descend(m.rules, m.state, r)
        for where in boards.places_in(m.unoccupied & boards.planet_set[r >> UNIT_PLACE >> SPACE_BITS])
    ]


def _orbiting_rover(state: GlobetrotterState, player: int, planet: int, hp: int, action: Action) -> int:
    rover = unit_code(place(planet, None), player, hp)
    if rover not in state.rover_codes:
        raise IllegalAction("GT-SP2", f"no Rover of yours with {hp} hit points orbits that planet", action)
    return rover


def check_descend(m: Mover, action: Descend) -> None:
    touch("GT-SP2")
    where = m.rules.space(action.target, "GT-SP2", action, m.state)
    rover = _orbiting_rover(m.state, m.player, where >> SPACE_BITS, action.hp, action)
    if not m.rules.boards.bit[where] & m.unoccupied:
        raise IllegalAction("GT-SP2", f"{action.target} is occupied", action)
    if not _may_descend(m.rules, m.state, rover):
        raise IllegalAction(
            "GT-SP3", "a Rover that moved to this orbit this turn descends in a subsequent turn", action
        )


def apply_descend(
    rules: Rules, state: GlobetrotterState, player: int, action: Descend, found: tuple[int, Where]
) -> GlobetrotterState:
    touch("GT-SP2")
    if state.turn is not None and state.turn.arrived:
        touch("GT-SP3")  # the listing asked whether the Rover arrived this turn
    return _to_space(state, *found)


def legal_transfers(m: Mover) -> Listing[tuple[int, int]]:
    """Each move between orbits with the orbiting Rover that moves and the planet it reaches."""
    if not m.orbiting:
        return NOTHING
    rules = m.rules
    live = rules.live_planets(m.state)
    moves = [
        (r, r >> UNIT_PLACE >> SPACE_BITS, other)
        for r in m.orbiting
        for other in live
        if other != r >> UNIT_PLACE >> SPACE_BITS
    ]
    if not moves:
        return NOTHING
    m.touched += ("GT-SP3", "GT-SP4")
    if rules.options.orbit_moves is OrbitMoves.DESCEND_ONLY:
        return NOTHING
    boards = rules.boards
    return [
        (rules.actions.act(Transfer, r & FIELD, boards.orbit_token(source), boards.orbit_token(other)), (r, other))
        for r, source, other in moves
        if boards.orbits_adjacent(source, other)
    ]


def check_transfer(m: Mover, action: Transfer) -> None:
    rules = m.rules
    touch("GT-SP3", "GT-SP4")
    if rules.options.orbit_moves is OrbitMoves.DESCEND_ONLY:
        raise IllegalAction("GT-SP4", "an orbiting Rover may only descend (orbit_moves=descend-only)", action)
    source = rules.orbit(action.source, "GT-SP3", action, m.state)
    target = rules.orbit(action.target, "GT-SP3", action, m.state)
    _orbiting_rover(m.state, m.player, source, action.hp, action)
    if not rules.boards.orbits_adjacent(source, target):
        raise IllegalAction("GT-SP3", f"orbit {action.target} is not adjacent to orbit {action.source}", action)


def apply_transfer(
    rules: Rules, state: GlobetrotterState, player: int, action: Transfer, found: tuple[int, int]
) -> GlobetrotterState:
    touch("GT-SP3", "GT-SP4", "GT-M2")
    rover, target = found
    source, hp = rover >> UNIT_PLACE >> SPACE_BITS, rover & FIELD
    moved = state.replace_rover(rover, unit_code(place(target, None), player, hp))
    turn = moved.turn
    assert turn is not None
    arrived = list(turn.arrived)
    if (source, hp) in arrived:  # Rovers alike are one: the one that moves on is one that came
        arrived.remove((source, hp))
    arrived.append((target, hp))
    return moved.with_turn(evolve(turn, arrived=tuple(sorted(arrived))))


RULES: tuple[PlayRule, ...] = (
    PlayRule(Move, legal_moves, check_move, apply_move, ROVERS_ON_BOARD),
    PlayRule(
        EnterOrbit, legal_orbits, check_enter_orbit, apply_enter_orbit, ROVERS_ON_BOARD, _ORBIT_CLAUSES, SPACE_PORTS
    ),
    PlayRule(Descend, legal_descents, check_descend, apply_descend, ROVERS_IN_ORBIT),
    PlayRule(Transfer, legal_transfers, check_transfer, apply_transfer, ROVERS_IN_ORBIT),
)
