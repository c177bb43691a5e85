"""Globetrotter's immutable state: pieces, planets, the turn and the chance events pending.

Models: every piece by owner, planet and space (a Rover in orbit has no space); each
planet's Drill Cannon fire counter and whether it is destroyed; the setup roll-off and
placing order; the current turn's action accounting (actions taken in a row, whether
the turn's own action is used, stolen Treasury points); the chance events still to
resolve, first one next; and the players who have lost. Piece tuples are kept sorted,
so equal positions have equal states and equal canonical JSON.

Leaves out: identities of pieces beyond what play can tell apart (two orbiting Rovers
of one player with equal hit points are interchangeable), and seats' geometry: seats
run clockwise in player-index order.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property
from typing import Any, Final

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


@attrs.frozen
class Rover:
    planet: int
    space: str | None
    """None while in orbit around `planet`."""
    owner: int
    hp: int


def rover_order(rover: Rover) -> tuple[int, str, int, int]:
    """Canonical order of Rovers: by planet, orbit first, then space, owner and hit points."""
    return (rover.planet, rover.space or "", rover.owner, rover.hp)


@attrs.frozen(order=True)
class Fortification:
    planet: int
    space: str
    owner: int
    hp: int


@attrs.frozen(order=True)
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


@attrs.frozen
class PlanetState:
    fires: int
    """How many times a Drill Cannon has fired on this planet (GT-D6)."""
    destroyed: bool


@attrs.frozen
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


@attrs.frozen
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
_EMPTY: Final = (None, None, None)


@attrs.frozen
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

    def with_pieces(
        self,
        rovers: Iterable[Rover] | None = None,
        fortifications: Iterable[Fortification] | None = None,
        buildings: Iterable[Building] | None = None,
    ) -> GlobetrotterState:
        """This state with some piece collections replaced, kept in canonical order."""
        return attrs.evolve(
            self,
            rovers=self.rovers if rovers is None else tuple(sorted(rovers, key=rover_order)),
            fortifications=self.fortifications if fortifications is None else tuple(sorted(fortifications)),
            buildings=self.buildings if buildings is None else tuple(sorted(buildings)),
        )

    @cached_property
    def _by_space(self) -> dict[tuple[int, str], tuple[Rover | None, Fortification | None, Building | None]]:
        """Each occupied (planet, space) with the Rover, Fortification and Building on it."""
        index: dict[tuple[int, str], list[Any]] = {}
        for r in self.rovers:
            if r.space is not None:
                index.setdefault((r.planet, r.space), [None, None, None])[0] = r
        for f in self.fortifications:
            index.setdefault((f.planet, f.space), [None, None, None])[1] = f
        for b in self.buildings:
            index.setdefault((b.planet, b.space), [None, None, None])[2] = b
        return {key: (v[0], v[1], v[2]) for key, v in index.items()}

    def replace(self, old: Piece, new: Piece | None) -> GlobetrotterState:
        """This state with the piece `old` changed to `new`, or removed when `new` is None."""
        if isinstance(old, Rover):
            rovers = list(self.rovers)
            rovers.remove(old)
            return self.with_pieces(rovers=rovers + ([new] if new is not None else []))  # type: ignore[list-item]
        if isinstance(old, Fortification):
            return self.with_pieces(
                fortifications=[new if f == old else f for f in self.fortifications if new is not None or f != old]  # type: ignore[misc]
            )
        return self.with_pieces(
            buildings=[new if b == old else b for b in self.buildings if new is not None or b != old]  # type: ignore[misc]
        )

    def rover_at(self, planet: int, space: str) -> Rover | None:
        return self._by_space.get((planet, space), _EMPTY)[0]

    def fortification_at(self, planet: int, space: str) -> Fortification | None:
        return self._by_space.get((planet, space), _EMPTY)[1]

    def building_at(self, planet: int, space: str) -> Building | None:
        return self._by_space.get((planet, space), _EMPTY)[2]

    def occupied(self) -> frozenset[tuple[int, str]]:
        """Every (planet, space) holding any piece."""
        return self._occupied

    @cached_property
    def _occupied(self) -> frozenset[tuple[int, str]]:
        return frozenset(self._by_space)

    def buildings_of(self, player: int, kind: str | None = None) -> tuple[Building, ...]:
        return tuple(b for b in self.buildings if b.owner == player and (kind is None or b.kind == kind))

    def rovers_of(self, player: int) -> tuple[Rover, ...]:
        return tuple(r for r in self.rovers if r.owner == player)
