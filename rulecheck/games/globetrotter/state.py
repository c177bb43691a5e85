"""Globetrotter's immutable state: pieces, planets, the turn and the chance events pending.

Models: every piece by owner, planet and space (a Rover in orbit has no space); each
planet's Drill Cannon fire counter and whether it is destroyed; the setup roll-off and
placing order; the current turn's action accounting (actions taken in a row, whether
the turn's own action is used, stolen Treasury points); the chance events still to
resolve, first one next; and the players who have lost. Piece tuples are kept sorted,
so equal positions have equal states and equal canonical JSON. What stands on each
space (`occupancy`) is worked out from the piece tuples once, not kept on the state.

Leaves out: identities of pieces beyond what play can tell apart (two orbiting Rovers
of one player with equal hit points are interchangeable), and seats' geometry: seats
run clockwise in player-index order.
"""

from __future__ import annotations

from bisect import insort_left
from collections.abc import Callable, Iterable, Mapping
from operator import attrgetter
from typing import Any, Final, TypeVar, cast

import attrs

# Phases of the game.
ROLL: Final = "roll"
CHOOSE: Final = "choose"
PLACE_FACTORY: Final = "place-factory"
PLACE_ROVER: Final = "place-rover"
PLAY: Final = "play"
OVER: Final = "over"

# Building types (GT-A11: the four the rulebook describes).
FACTORY: Final = "factory"
SPACE_PORT: Final = "space-port"
DRILL_CANNON: Final = "drill-cannon"
TREASURY: Final = "treasury"
BUILDING_KINDS: Final = (DRILL_CANNON, FACTORY, SPACE_PORT, TREASURY)

# Drill Cannon readiness (GT-D1).
IDLE: Final = "idle"
READY: Final = "ready"
AIMED: Final = "aimed"

# Kinds of piece a shot can target.
ROVER: Final = "rover"
FORTIFICATION: Final = "fortification"
BUILDING: Final = "building"
TARGET_KINDS: Final = (BUILDING, FORTIFICATION, ROVER)


@attrs.frozen(cache_hash=True)
class Rover:
    planet: int
    space: str | None
    """None while in orbit around `planet`."""
    owner: int
    hp: int


def rover_order(rover: Rover) -> tuple[int, str, int, int]:
    """Canonical order of Rovers: by planet, orbit first, then space, owner and hit points."""
    return (rover.planet, rover.space or "", rover.owner, rover.hp)


@attrs.frozen(order=True, cache_hash=True)
class Fortification:
    planet: int
    space: str
    owner: int
    hp: int


@attrs.frozen(order=True, cache_hash=True)
class Building:
    planet: int
    space: str
    owner: int
    kind: str
    hp: int
    points: int
    """Build points of a Factory, saved action points of a Treasury; 0 for the others."""
    readiness: str
    """IDLE, READY or AIMED for a Drill Cannon; IDLE for the others."""
    aim: str | None


@attrs.frozen(cache_hash=True)
class PlanetState:
    fires: int
    """How many times a Drill Cannon has fired on this planet (GT-D6)."""
    destroyed: bool


@attrs.frozen(cache_hash=True)
class Turn:
    player: int
    taken: int
    """Actions this player has taken in a row this turn."""
    counted: int
    """Of those, the ones that count toward the cap of 4 (GT-T5); fewer than `taken` only under
    `destroying_action=excluded`, where the action that destroys a Treasury is not counted."""
    own_used: bool
    """Whether the turn's own action point is spent (GT-A0)."""
    stolen: int
    """Points taken from a destroyed Treasury, to use now or forfeit (GT-T4)."""
    excluded: bool = False
    """Under `destroying_action=excluded`: whether the action being resolved has already stopped
    counting, so that one action destroying two Treasuries is excluded once."""
    arrived: tuple[tuple[int, int], ...] = ()
    """(planet, hit points) of each of the player's Rovers that moved into that planet's orbit from
    another's this turn, sorted; under `descend_after_transfer=next-turn` they descend only in a
    later turn (GT-SP3)."""
    saved_now: int = 0
    """Action points the player saved into their Treasury this turn; under
    `saved_point_use=next-turn` they are spent only in a later turn (GT-T1)."""


@attrs.frozen(cache_hash=True)
class Pending:
    """A chance event still to resolve. Fields not used by a kind are 0 or ''."""

    kind: str
    by: int
    """The player whose action caused it (who destroys what it destroys)."""
    planet: int
    space: str
    target: str = ""
    threshold: int = 0
    count: int = 0


Piece = Rover | Fortification | Building
Q = TypeVar("Q", Rover, Fortification, Building)
Occupants = tuple[Rover | None, Fortification | None, Building | None]
"""What stands on one space: its Rover, Fortification and Building, None where there is none."""
Occupancy = dict[tuple[int, str], Occupants]
"""Every occupied (planet, space) with what stands on it."""
EMPTY: Final[Occupants] = (None, None, None)
"""What stands on an empty space."""
_FORTIFICATION_ORDER: Final = attrgetter(*(f.name for f in attrs.fields(Fortification)))
_BUILDING_ORDER: Final = attrgetter(*(f.name for f in attrs.fields(Building)))
"""Sort keys giving the classes' own attrs order (field by field) without its per-comparison cost;
no two Buildings share a space, so a Building's `aim` (a str or None) is never compared."""


@attrs.frozen(cache_hash=True)
class GlobetrotterState:
    phase: str
    rolls: tuple[int, ...]
    """Setup d6 per player; 0 where a player has not rolled in this round."""
    contenders: tuple[int, ...]
    """Players rolling in the current setup round."""
    placing: tuple[int, ...]
    """Players still to place a Factory and Rover, next first."""
    turn: Turn | None
    rovers: tuple[Rover, ...]
    fortifications: tuple[Fortification, ...]
    buildings: tuple[Building, ...]
    planets: tuple[PlanetState, ...]
    pending: tuple[Pending, ...]
    lost: tuple[int, ...]
    """Players who have lost, in ascending order."""

    # The makers below pass the fields by position, in their order above: a third faster
    # than by keyword, and play makes a few states on every step.

    def with_pieces(
        self,
        rovers: Iterable[Rover] | None = None,
        fortifications: Iterable[Fortification] | None = None,
        buildings: Iterable[Building] | None = None,
    ) -> GlobetrotterState:
        """This state with some piece collections replaced, kept in canonical order."""
        return self._remade(
            self.phase,
            self.turn,
            self.rovers if rovers is None else tuple(sorted(rovers, key=rover_order)),
            self.fortifications if fortifications is None else tuple(sorted(fortifications, key=_FORTIFICATION_ORDER)),
            self.buildings if buildings is None else tuple(sorted(buildings, key=_BUILDING_ORDER)),
            self.pending,
        )

    def with_turn(
        self, turn: Turn | None, phase: str | None = None, buildings: tuple[Building, ...] | None = None
    ) -> GlobetrotterState:
        """This state with another turn (and, if given, phase, and Buildings changed where they
        stand: the same spaces, so their canonical order holds)."""
        return self._remade(
            self.phase if phase is None else phase,
            turn,
            self.rovers,
            self.fortifications,
            self.buildings if buildings is None else buildings,
            self.pending,
        )

    def with_pending(self, pending: tuple[Pending, ...]) -> GlobetrotterState:
        """This state with other chance events pending."""
        return self._remade(self.phase, self.turn, self.rovers, self.fortifications, self.buildings, pending)

    @property
    def _occupancy(self) -> Occupancy:
        """Where this state's pieces stand: the last occupancy worked out, when it was for these
        very piece tuples (a state made from another with the same pieces shares them), else a
        new one."""
        global _last_occupancy
        last = _last_occupancy
        if last[0] is self.rovers and last[1] is self.fortifications and last[2] is self.buildings:
            return last[3]
        occupancy = _occupancy_of(self.rovers, self.fortifications, self.buildings)
        _last_occupancy = (self.rovers, self.fortifications, self.buildings, occupancy)
        return occupancy

    def replace(self, old: Piece, new: Piece | None) -> GlobetrotterState:
        """This state with the piece `old` changed to `new`, or removed when `new` is None. The other
        pieces keep their canonical order, so `new` is put in its place rather than all resorted."""
        if isinstance(old, Rover):
            rovers = _replaced(self.rovers, old, cast(Rover | None, new), rover_order)
            return self._remade(self.phase, self.turn, rovers, self.fortifications, self.buildings, self.pending)
        if isinstance(old, Fortification):
            fortifications = _replaced(self.fortifications, old, cast(Fortification | None, new), _FORTIFICATION_ORDER)
            return self._remade(self.phase, self.turn, self.rovers, fortifications, self.buildings, self.pending)
        buildings = _replaced(self.buildings, old, cast(Building | None, new), _BUILDING_ORDER)
        return self._remade(self.phase, self.turn, self.rovers, self.fortifications, buildings, self.pending)

    def _remade(
        self,
        phase: str,
        turn: Turn | None,
        rovers: tuple[Rover, ...],
        fortifications: tuple[Fortification, ...],
        buildings: tuple[Building, ...],
        pending: tuple[Pending, ...],
    ) -> GlobetrotterState:
        """This state with the fields play changes (the piece tuples already in canonical order)
        and the setup fields, planets and losers as they are: the one maker the others call."""
        return GlobetrotterState(
            phase,
            self.rolls,
            self.contenders,
            self.placing,
            turn,
            rovers,
            fortifications,
            buildings,
            self.planets,
            pending,
            self.lost,
        )

    def pieces_at(self, planet: int, space: str) -> Occupants:
        """The Rover, Fortification and Building on a space (None where there is none)."""
        return self._occupancy.get((planet, space), EMPTY)

    def rover_at(self, planet: int, space: str) -> Rover | None:
        return self._occupancy.get((planet, space), EMPTY)[0]

    def fortification_at(self, planet: int, space: str) -> Fortification | None:
        return self._occupancy.get((planet, space), EMPTY)[1]

    def building_at(self, planet: int, space: str) -> Building | None:
        return self._occupancy.get((planet, space), EMPTY)[2]

    def occupancy(self) -> Mapping[tuple[int, str], Occupants]:
        """Every occupied (planet, space) with the Rover, Fortification and Building on it."""
        return self._occupancy

    def occupied(self) -> frozenset[tuple[int, str]]:
        """Every (planet, space) holding any piece."""
        return frozenset(self._occupancy)

    def buildings_of(self, player: int, kind: str | None = None) -> tuple[Building, ...]:
        return tuple([b for b in self.buildings if b.owner == player and (kind is None or b.kind == kind)])

    def rovers_of(self, player: int) -> tuple[Rover, ...]:
        return tuple([r for r in self.rovers if r.owner == player])


def _replaced(pieces: tuple[Q, ...], old: Q, new: Q | None, order: Callable[[Q], Any]) -> tuple[Q, ...]:
    """The canonically ordered `pieces` with one piece equal to `old` left out and `new`, if given,
    put in at its place in `order`. The piece is found by identity first (rules pass the state's
    own pieces), by equality otherwise (ValueError if there is none); equal pieces are
    interchangeable."""
    identities = list(map(id, pieces))
    rest = list(pieces)
    del rest[identities.index(id(old)) if id(old) in identities else pieces.index(old)]
    if new is not None:
        insort_left(rest, new, key=order)
    return tuple(rest)


def _occupancy_of(
    rovers: tuple[Rover, ...], fortifications: tuple[Fortification, ...], buildings: tuple[Building, ...]
) -> Occupancy:
    occupancy: Occupancy = {(r.planet, r.space): (r, None, None) for r in rovers if r.space is not None}
    for f in fortifications:
        where = (f.planet, f.space)
        there = occupancy.get(where, EMPTY)
        occupancy[where] = (there[0], f, there[2])
    for b in buildings:
        where = (b.planet, b.space)
        there = occupancy.get(where, EMPTY)
        occupancy[where] = (there[0], there[1], b)
    return occupancy


_last_occupancy: tuple[tuple[Rover, ...], tuple[Fortification, ...], tuple[Building, ...], Occupancy] = (
    (),
    (),
    (),
    {},
)
"""The piece tuples whose occupancy was worked out last, with it. States keep none of their own:
one kept on every state (and every state of a played game is kept) would make the garbage
collector walk it ever after, which costs more than working it out. The same tuples are the same
pieces, so the states of one step (before and after the turn moves on) share one occupancy, made
once per step of play."""
