"""Why an action that is not among Globetrotter's legal actions is refused, in the rulebook's terms.

Models: the clause and reason given with a refused action, found once the kernel has refused it
(`Game.apply` checks every action against the listing; nothing here is asked before): a token that
names no space or planet of the game, or one on a destroyed planet (GT-D6); for each kind of play
action, the first condition of its listing the action fails, read through the same named predicates
and facts of the mover (`Mover`) the listing reads, so an explanation cannot say an action is
refused for a condition the listing does not apply; setup actions out of place or turn (GT-S1,
GT-S2); a chance outcome no roll gives; and actions of the wrong phase (GT-A0) or the end of the
game (GT-E3).

Leaves out: deciding what is legal (the listings do: an explanation never decides, and none is
looked for while listing or applying). An action none of these explains is refused all the same,
naming its kind's clause (`CLAUSE_OF`): "<action> is not legal now".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from rulecheck.core.notation import Action
from rulecheck.core.ops import INT_OPS
from rulecheck.games.globetrotter import acting, combat, construction, movement, setup
from rulecheck.games.globetrotter.actions import (
    Aim,
    Build,
    Choose,
    Damage,
    Decommission,
    Descend,
    Dice,
    Die,
    EndTurn,
    EnterOrbit,
    Fire,
    Fortify,
    Manufacture,
    Move,
    Pass,
    PlaceFactory,
    PlaceRover,
    Ready,
    Repair,
    Save,
    Shoot,
    Transfer,
)
from rulecheck.games.globetrotter.context import Mover, Rules, Where
from rulecheck.games.globetrotter.counters import (
    MANUFACTURE_COST,
    can_save,
    first_of_kind,
    has_manufacture_points,
    treasury_allowed,
    under_rover_cap,
)
from rulecheck.games.globetrotter.options import FortifyAdjacency, Shooter
from rulecheck.games.globetrotter.state import (
    AIMED,
    B_POINTS,
    BUILDING_KINDS,
    BUILDING_PLACE,
    CHOOSE,
    DRILL_CANNON,
    EMPTY,
    FACTORY,
    FIELD,
    IDLE,
    PLACE_FACTORY,
    PLACE_ROVER,
    READY,
    ROLL,
    SPACE_BITS,
    TREASURY,
    GlobetrotterState,
    place,
    unit_code,
)
from rulecheck.games.globetrotter.turns import saved_points

Refusal = tuple[str, str]
"""Why an action is refused: the id of the clause it breaks, and the reason in the rulebook's terms."""

CLAUSE_OF: Final[dict[type[Action], str]] = {
    Die: "GT-S1",
    Dice: "GT-D6",
    Damage: "GT-D2",
    Choose: "GT-S1",
    PlaceFactory: "GT-S2",
    PlaceRover: "GT-S2",
    Move: "GT-A1",
    EnterOrbit: "GT-SP1",
    Descend: "GT-SP2",
    Transfer: "GT-SP3",
    Shoot: "GT-A4",
    Fortify: "GT-A9",
    Build: "GT-A10",
    Decommission: "GT-A12",
    Manufacture: "GT-F2",
    Repair: "GT-F3",
    Ready: "GT-D1",
    Aim: "GT-D1",
    Fire: "GT-D1",
    Save: "GT-T1",
    Pass: "GT-A16",
    EndTurn: "GT-A0",
}
"""The clause naming each kind of action, which its refusal names when no reason is found."""


class _Explained(Exception):
    """A token of the action explains its refusal at once (it names no space of the game, say)."""

    def __init__(self, clause: str, reason: str) -> None:
        super().__init__(clause, reason)
        self.refusal = (clause, reason)


def _space(rules: Rules, state: GlobetrotterState, token: str, clause: str) -> Where:
    """The place `token` names; explained (under `clause`) if it is no space, or on a destroyed planet."""
    where = rules.boards.places.get(token)
    if where is None:
        raise _Explained(clause, f"{token!r} is no space of this game")
    if state.planets[where >> SPACE_BITS].destroyed:
        raise _Explained("GT-D6", f"{token!r} is on a destroyed planet")
    return where


def _orbit(rules: Rules, state: GlobetrotterState, token: str, clause: str) -> int:
    """The planet whose orbit `token` names; explained if there is none, or it is destroyed."""
    index = rules.boards.parse_orbit(token)
    if index is None:
        raise _Explained(clause, f"{token!r} is no planet of this game")
    if state.planets[index].destroyed:
        raise _Explained("GT-D6", f"planet {token!r} is destroyed")
    return index


def _explained(explain: Callable[..., Refusal | None], *arguments: Any) -> Refusal | None:
    """What `explain(*arguments)` finds, or the refusal a token of the action explains at once."""
    try:
        return explain(*arguments)
    except _Explained as found:
        return found.refusal


# Setup and chance


def at_chance(rules: Rules, state: GlobetrotterState, action: Action) -> Refusal:
    """Why a chance outcome is refused: the roll due gives no such outcome."""
    if state.phase == ROLL:
        if not isinstance(action, Die):
            return "GT-S1", f"the game expects {Die.verb!r} now"
        return "GT-S1", "a d6 shows 1 to 6"  # every face is listed
    kind = state.pending[0].kind
    return combat.EVENT_CLAUSES[kind], f"not an outcome of the {kind} roll"


_SETUP_EXPECTS: Final[dict[str, tuple[type[Action], str]]] = {
    CHOOSE: (Choose, "GT-S1"),
    PLACE_FACTORY: (PlaceFactory, "GT-S2"),
    PLACE_ROVER: (PlaceRover, "GT-S2"),
}
SETUP_PHASES: Final = frozenset(_SETUP_EXPECTS)
"""The phases in which a player acts before play: choosing the order and placing."""


def in_setup(rules: Rules, state: GlobetrotterState, action: Action) -> Refusal | None:
    """Why a player's action in a setup phase is refused."""
    kind, clause = _SETUP_EXPECTS[state.phase]
    if not isinstance(action, kind):
        return clause, f"the game expects {kind.verb!r} now"
    return _explained(_SETUP_REASONS[kind], rules, state, action)


def _choose(rules: Rules, state: GlobetrotterState, action: Choose) -> Refusal | None:
    """Both orders are listed, so a refused choice names another."""
    return "GT-S1", "the high roller places 'first' or 'second'"


def _place_factory(rules: Rules, state: GlobetrotterState, action: PlaceFactory) -> Refusal | None:
    where = _space(rules, state, action.space, "GT-S2")
    if not rules.boards.bit[where] & rules.boards.hq_set:
        return "GT-S2", f"{action.space} is not an HQ space"
    if where in state.occupied_places():
        return "GT-S2", f"{action.space} is not empty"
    return None


def _place_rover(rules: Rules, state: GlobetrotterState, action: PlaceRover) -> Refusal | None:
    where = _space(rules, state, action.space, "GT-S2")
    if where not in rules.boards.around[setup.placed_factory(state)]:
        return "GT-S2", f"{action.space} is not adjacent to the Factory"
    if where in state.occupied_places():
        return "GT-S2", f"{action.space} is not empty"
    return None


_SETUP_REASONS: Final[dict[type[Action], Callable[[Rules, GlobetrotterState, Any], Refusal | None]]] = {
    Choose: _choose,
    PlaceFactory: _place_factory,
    PlaceRover: _place_rover,
}


# Play


def in_play(m: Mover, action: Action) -> Refusal | None:
    """Why an action of `m`, the player to move in play, is refused."""
    explain = _PLAY_REASONS.get(type(action))
    if explain is not None:
        return _explained(explain, m, action)
    if isinstance(action, EndTurn):  # listed once the turn's own action is taken
        return "GT-A0", "the turn's own action is still to take"
    if isinstance(action, Pass):  # listed only when nothing else is
        return "GT-A16", "Pass only when no other action is valid"
    return "GT-A0", f"{action.verb!r} is not an action of play"


_ONE_ROVER: Final = (
    "under rovers_per_turn=one the Rover that took this turn's first Rover action takes all of them"
    " (Move, into orbit, descend, orbit to orbit, Shoot)"
)


def _own_rover_at(m: Mover, token: str) -> tuple[int, Where]:
    """GT-F4: the mover's Rover on the space `token` names, and that place."""
    where = _space(m.rules, m.state, token, "GT-A1")
    rover = m.on_board.get(where)
    if rover is None:
        raise _Explained("GT-F4", f"no Rover of yours on {token}")
    if where not in acting.acting_on_board(m):
        raise _Explained("GT-F4", _ONE_ROVER)
    return rover, where


def _move(m: Mover, action: Move) -> Refusal | None:
    _, source = _own_rover_at(m, action.source)
    where = _space(m.rules, m.state, action.target, "GT-A1")
    if where not in m.rules.boards.around[source]:
        return "GT-A1", f"{action.target} is not adjacent to {action.source}"
    if not m.rules.boards.bit[where] & m.enterable:
        rover, _, building = m.occupancy.get(where, EMPTY)
        if rover is not None or building is not None:
            return "GT-A2", f"{action.target} holds a Rover or a Building"
        return "GT-A3", f"{action.target} holds an enemy Fortification"
    return None


def _enter_orbit(m: Mover, action: EnterOrbit) -> Refusal | None:
    _, where = _own_rover_at(m, action.source)
    if not movement.beside_own_port(m, where):
        return "GT-SP1", f"the Rover on {action.source} is not adjacent to a friendly Space Port"
    return None


def _orbiting_rover(m: Mover, planet: int, hp: int) -> int:
    """One of the mover's Rovers with `hp` hit points in the planet's orbit."""
    rover = unit_code(place(planet, None), m.player, hp)
    if rover not in m.orbiting:
        raise _Explained("GT-SP2", f"no Rover of yours with {hp} hit points orbits that planet")
    if rover not in acting.acting_in_orbit(m):
        raise _Explained("GT-F4", _ONE_ROVER)
    return rover


def _descend(m: Mover, action: Descend) -> Refusal | None:
    where = _space(m.rules, m.state, action.target, "GT-SP2")
    rover = _orbiting_rover(m, where >> SPACE_BITS, action.hp)
    if not m.rules.boards.bit[where] & m.unoccupied:
        return "GT-SP2", f"{action.target} is occupied"
    if not movement.may_descend(m.rules, m.state, rover):
        return "GT-SP3", (
            "a Rover that came into this orbit this turn descends in a subsequent turn (from another orbit under "
            "descend_after_transfer=next-turn, from the board under descend_after_orbit=next-turn)"
        )
    return None


def _transfer(m: Mover, action: Transfer) -> Refusal | None:
    if not movement.transfers_allowed(m.rules):
        return "GT-SP4", "an orbiting Rover may only descend (orbit_moves=descend-only)"
    source = _orbit(m.rules, m.state, action.source, "GT-SP3")
    target = _orbit(m.rules, m.state, action.target, "GT-SP3")
    _orbiting_rover(m, source, action.hp)
    if not m.rules.boards.orbits_adjacent(source, target):
        return "GT-SP3", f"orbit {action.target} is not adjacent to orbit {action.source}"
    return None


def _shoot(m: Mover, action: Shoot) -> Refusal | None:
    source = _space(m.rules, m.state, action.source, "GT-A4")
    where = _space(m.rules, m.state, action.target, "GT-A4")
    if source not in combat.shooter_spaces(m):
        if source in m.on_board and m.rules.options.shooter is Shooter.ROVER:
            return "GT-F4", _ONE_ROVER
        return "GT-A4", f"you have no piece that may shoot on {action.source}"
    target = dict(zip(combat.PIECE_KINDS, m.state.codes_at(where))).get(action.kind)
    if (action.kind, target) not in m.enemies:
        return "GT-A4", f"no enemy {action.kind} on {action.target}"
    if not m.rules.boards.reach(m.rules.options.shooting)[source] & m.rules.boards.bit[where]:
        return "GT-A4", f"{action.target} is beyond shooting distance 3 of {action.source}"
    return None


def _own_cannon(m: Mover, token: str) -> int:
    """GT-D1: the mover's Drill Cannon on the space `token` names."""
    where = _space(m.rules, m.state, token, "GT-D1")
    for cannon in m.kinds.get(DRILL_CANNON, ()):
        if cannon >> BUILDING_PLACE == where:
            return cannon
    raise _Explained("GT-D1", f"you have no Drill Cannon on {token}")


def _ready(m: Mover, action: Ready) -> Refusal | None:
    if _own_cannon(m, action.cannon) not in combat.cannons(m, IDLE):
        return "GT-D1", "the Drill Cannon is already ready"
    return None


def _aim(m: Mover, action: Aim) -> Refusal | None:
    cannon = _own_cannon(m, action.cannon)
    if cannon not in combat.cannons(m, READY, AIMED):
        return "GT-D1", "the Drill Cannon must be readied before it aims"
    _space(m.rules, m.state, action.target, "GT-D1")
    on_its_planet = m.rules.actions.across(Aim)[cannon >> BUILDING_PLACE]
    number = next((n for n, aim in on_its_planet if aim.target == action.target), None)
    if number is None:
        return "GT-D1", "a Drill Cannon aims at a space on its own planet"
    if not combat.aims_anew(cannon, number):
        return "GT-D3", "re-aiming needs another space"
    return None


def _fire(m: Mover, action: Fire) -> Refusal | None:
    if _own_cannon(m, action.cannon) not in combat.cannons(m, AIMED):
        return "GT-D1", "the Drill Cannon must be aimed before it fires"
    return None


def _fortify(m: Mover, action: Fortify) -> Refusal | None:
    space = m.rules.boards.bit[_space(m.rules, m.state, action.target, "GT-A9")]
    if space & construction.fortifiable(m):
        return None
    if not space & m.unoccupied:
        why = "is occupied"
    elif not space & m.beside_own_rover:
        why = "is not adjacent to a friendly Rover"
    elif m.rules.options.fortify_adjacency is FortifyAdjacency.ROVER:
        why = "has every friendly Rover beside it adjacent to a Fortification"
    else:
        why = "is adjacent to an existing Fortification"
    return "GT-A9", f"{action.target} {why}"


def _build(m: Mover, action: Build) -> Refusal | None:
    boards = m.rules.boards
    where = _space(m.rules, m.state, action.target, "GT-A10")
    if not boards.bit[where] & boards.hq_set:
        return "GT-B3", f"{action.target} is not an HQ space"
    if not boards.bit[where] & m.unoccupied:
        return "GT-A10", f"{action.target} is occupied"
    if action.kind not in BUILDING_KINDS:
        return "GT-A11", f"no building type {action.kind!r}; types: {', '.join(BUILDING_KINDS)}"
    supporters, overseen = construction.support(m, where)
    if not construction.enough_support(supporters):
        return "GT-A10", f"only {supporters} spaces beside {action.target} hold your pieces"
    if not overseen:
        return "GT-A10", "no friendly Rover beside it oversees construction"
    same_kind, is_treasury, treasuries = construction.kind_counts(m, where >> SPACE_BITS, action.kind)
    if not first_of_kind(INT_OPS, same_kind):
        return "GT-A11", f"you already have a {action.kind} on this planet"
    if not treasury_allowed(INT_OPS, is_treasury, treasuries):
        return "GT-T6", "you already have a Treasury"
    return None


def _decommission(m: Mover, action: Decommission) -> Refusal | None:
    _, fortification, building = m.state.codes_at(_space(m.rules, m.state, action.target, "GT-A12"))
    yours = building in m.buildings if building is not None else fortification in m.fortifications
    if not yours:
        return "GT-A12", f"no Building or Fortification of yours on {action.target}"
    return None


def _manufacture(m: Mover, action: Manufacture) -> Refusal | None:
    factory = m.state.codes_at(_space(m.rules, m.state, action.source, "GT-F2"))[2]
    if factory is None or factory not in m.kinds.get(FACTORY, ()):
        return "GT-F2", f"you have no Factory on {action.source}"
    where = _space(m.rules, m.state, action.target, "GT-F2")
    if where not in m.rules.boards.around[factory >> BUILDING_PLACE]:
        return "GT-F2", f"{action.target} is not adjacent to the Factory"
    if not m.rules.boards.bit[where] & construction.open_for_rover(m):
        return "GT-F2", f"{action.target} is not open"
    points = factory >> B_POINTS & FIELD
    if not has_manufacture_points(INT_OPS, points):
        return "GT-F2", f"the Factory has {points} build points, not {MANUFACTURE_COST}"
    rovers, buildings = construction.rover_cap_counts(m, where >> SPACE_BITS)
    if not under_rover_cap(INT_OPS, rovers, buildings):
        return "GT-F5", f"a new Rover would give you {rovers + 1} Rovers and {buildings} Buildings"
    return None


def _repair(m: Mover, action: Repair) -> Refusal | None:
    where = _space(m.rules, m.state, action.target, "GT-F3")
    rover = m.on_board.get(where)
    if rover is None:
        return "GT-F3", f"no Rover of yours on {action.target}"
    factory = construction.repairing_factory(m, where)
    if factory is None:
        return "GT-F3", f"the Rover on {action.target} is not adjacent to your Factory"
    if not construction.repairable(m, rover, factory):
        return "GT-F3", f"Repair needs a build point and a damaged Rover (hp {rover & FIELD})"
    return None


def _save(m: Mover, action: Save) -> Refusal | None:
    if TREASURY not in m.kinds:
        return "GT-T1", "you have no Treasury"
    turn = m.state.turn
    assert turn is not None
    if not can_save(INT_OPS, saved_points(m.state, m.player), turn.own_used):
        return "GT-T2", "only the turn's own action point may be saved, into a Treasury below 3"
    return None


_PLAY_REASONS: Final[dict[type[Action], Callable[[Mover, Any], Refusal | None]]] = {
    Move: _move,
    EnterOrbit: _enter_orbit,
    Descend: _descend,
    Transfer: _transfer,
    Shoot: _shoot,
    Ready: _ready,
    Aim: _aim,
    Fire: _fire,
    Fortify: _fortify,
    Build: _build,
    Decommission: _decommission,
    Manufacture: _manufacture,
    Repair: _repair,
    Save: _save,
}
"""The explanation of each kind of play action a rule lists (`PlayRule`)."""
