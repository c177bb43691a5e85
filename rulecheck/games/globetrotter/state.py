"""Globetrotter's immutable state: pieces, planets, the turn and the chance events pending.

Models: every piece by owner, planet and space (a Rover in orbit has no space); each
planet's Drill Cannon fire counter and whether it is destroyed; the setup roll-off and
placing order; the current turn's action accounting (actions taken in a row, whether
the turn's own action is used, stolen Treasury points); the chance events still to
resolve, first one next; and the players who have lost.

The rules work on integers: a space of the game is a place, its planet and its space number
folded into one int (`place`); a piece is one int packing its place and its fields (`rover_code`,
`building_code`), so the state holds sorted tuples of ints: equal positions have equal states,
canonical order is the ints' order, and the garbage collector has no piece objects to walk.
Space numbers follow the labels' text order (orbit first), so that order is the one the
canonical JSON has always written. What scans every piece on every step (the rules, the state
properties) reads fields out of codes with the masks and shifts below (`KIND_MASK`, `SLOT_MASK`,
`space_label`, `spot`). Text is for the edges: the records `Rover`, `Fortification`
and `Building` show a piece by its labels (`rovers`, `pieces_at` and the like read them), and
`StateRecord` is the state as its canonical JSON writes it. What stands on each space
(`occupancy`) is worked out from the piece tuples once, not kept on the state.

Leaves out: identities of pieces beyond what play can tell apart (two orbiting Rovers
of one player with equal hit points are interchangeable), and seats' geometry: seats
run clockwise in player-index order.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Final

import attrs

from rulecheck.geometry.planet import REMOVALS, planet

# Phases of the game.
ROLL: Final = "roll"
CHOOSE: Final = "choose"
PLACE_FACTORY: Final = "place-factory"
PLACE_ROVER: Final = "place-rover"
PLAY: Final = "play"
OVER: Final = "over"
BEFORE_PLAY: Final = frozenset({ROLL, CHOOSE, PLACE_FACTORY, PLACE_ROVER})
"""The setup phases: the order rolled and chosen, the Factories and Rovers placed."""

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
READINESSES: Final = (AIMED, IDLE, READY)
"""In text order, as the canonical order of Buildings compares them."""

# Kinds of piece a shot can target.
ROVER: Final = "rover"
FORTIFICATION: Final = "fortification"
BUILDING: Final = "building"
TARGET_KINDS: Final = (BUILDING, FORTIFICATION, ROVER)

# Places: a planet and a space number in one int.

LABELS: Final = ("", *sorted({label for removal in REMOVALS for label in planet(removal).graph}))
"""Every space label of every board, in text order, after "" (orbit): a space's number is its
index here."""
NUMBERS: Final = {label: number for number, label in enumerate(LABELS)}
"""Each space label's number ("" for orbit: 0)."""
SPACE_BITS: Final = 7
SPACE_MASK: Final = (1 << SPACE_BITS) - 1
assert len(LABELS) <= 1 << SPACE_BITS


def place(planet_index: int, space: str | None) -> int:
    """The place of a space (or, for None, of the orbit) of a planet."""
    return planet_index << SPACE_BITS | NUMBERS[space or ""]


def label(place_: int) -> str | None:
    """The space label of a place; None for an orbit."""
    return space_label(place_) or None


# Pieces: one int each. A Rover or Fortification (a unit) packs place, owner and hit points; a
# Building packs place, owner, kind, hit points, points, readiness and the space number it aims at.

UNIT_PLACE: Final = 8
"""A unit's place is its code >> UNIT_PLACE; its owner (code >> OWNER) & FIELD, its hit points
code & FIELD."""
OWNER: Final = 4
FIELD: Final = 15
BUILDING_PLACE: Final = 28
B_OWNER: Final = 24
B_KIND: Final = 20
B_HP: Final = 16
B_POINTS: Final = 12
B_READINESS: Final = 8
KIND_NUMBERS: Final = {kind: i for i, kind in enumerate(BUILDING_KINDS)}
READINESS_NUMBERS: Final = {r: i for i, r in enumerate(READINESSES)}
"""The numbers of the kinds and readinesses in a Building's code."""


def unit_code(where: int, owner: int, hp: int) -> int:
    """The code of a Rover or Fortification at place `where`."""
    return where << UNIT_PLACE | owner << OWNER | hp


def building_code(where: int, owner: int, kind: str, hp: int, points: int, readiness: str, aim: int) -> int:
    """The code of a Building at place `where`; `aim` is the number of the space it aims at, 0 for none."""
    return (
        where << BUILDING_PLACE
        | owner << B_OWNER
        | KIND_NUMBERS[kind] << B_KIND
        | hp << B_HP
        | points << B_POINTS
        | READINESS_NUMBERS[readiness] << B_READINESS
        | aim
    )


def building_kind(code: int) -> str:
    return BUILDING_KINDS[code >> B_KIND & FIELD]


def building_readiness(code: int) -> str:
    return READINESSES[code >> B_READINESS & FIELD]


def with_field(code: int, shift: int, value: int) -> int:
    """The code with the 4-bit field at `shift` (B_HP, B_POINTS, B_READINESS) set to `value`."""
    return code & ~(FIELD << shift) | value << shift


def aimed(code: int, readiness: str, aim: int) -> int:
    """A Drill Cannon's code with another readiness and aim (a space number, 0 for none)."""
    return code & ~(FIELD << B_READINESS | SPACE_MASK) | READINESS_NUMBERS[readiness] << B_READINESS | aim


def hp_of(kind: str, code: int) -> int:
    """The hit points of a piece of a kind (ROVER, FORTIFICATION, BUILDING) by its code."""
    return code >> (B_HP if kind == BUILDING else 0) & FIELD


def owner_of(kind: str, code: int) -> int:
    """The owner of a piece of a kind (ROVER, FORTIFICATION, BUILDING) by its code."""
    return code >> (B_OWNER if kind == BUILDING else OWNER) & FIELD


def with_hp(kind: str, code: int, hp: int) -> int:
    """A piece's code with other hit points."""
    return with_field(code, B_HP if kind == BUILDING else 0, hp)


# Reading codes whole: masks that pick fields out of many codes at once, for what reads every piece
# on every step (the rules' scans, the state properties) without making records.

KIND_MASK: Final = FIELD << B_KIND
"""The bits of a Building's code that tell its kind (`kind_bits`)."""
OWNER_AND_KIND: Final = FIELD << B_OWNER | KIND_MASK
"""The bits of a Building's code that tell its owner and kind."""
SLOT_MASK: Final = ~(SPACE_MASK << BUILDING_PLACE | (1 << B_KIND) - 1)
"""The bits of a Building's code that tell its planet, owner and kind (GT-A11 allows one of each)."""
UNIT_PLANET: Final = UNIT_PLACE + SPACE_BITS
BUILDING_PLANET: Final = BUILDING_PLACE + SPACE_BITS
"""A unit's or Building's planet is its code shifted right by these."""


def kind_bits(kind: str) -> int:
    """The bits of a Building's code (code & KIND_MASK) for its kind."""
    return KIND_NUMBERS[kind] << B_KIND


def space_label(where: int) -> str:
    """The label of a place's space ("" for an orbit), as a record of a piece on it shows it."""
    return LABELS[where & SPACE_MASK]


def spot(where: int) -> tuple[int, str]:
    """(planet, space label) of a place: the key records of pieces on it give."""
    return where >> SPACE_BITS, LABELS[where & SPACE_MASK]


# The records of pieces, for the edges.


@attrs.frozen(cache_hash=True)
class Rover:
    planet: int
    space: str | None
    """None while in orbit around `planet`."""
    owner: int
    hp: int

    @property
    def code(self) -> int:
        return unit_code(place(self.planet, self.space), self.owner, self.hp)

    @classmethod
    def of(cls, code: int) -> Rover:
        where = code >> UNIT_PLACE
        return cls(where >> SPACE_BITS, label(where), code >> OWNER & FIELD, code & FIELD)


@attrs.frozen(cache_hash=True)
class Fortification:
    planet: int
    space: str
    owner: int
    hp: int

    @property
    def code(self) -> int:
        return unit_code(place(self.planet, self.space), self.owner, self.hp)

    @classmethod
    def of(cls, code: int) -> Fortification:
        where = code >> UNIT_PLACE
        return cls(*spot(where), code >> OWNER & FIELD, code & FIELD)


@attrs.frozen(cache_hash=True)
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

    @property
    def code(self) -> int:
        where = place(self.planet, self.space)
        return building_code(
            where, self.owner, self.kind, self.hp, self.points, self.readiness, NUMBERS[self.aim or ""]
        )

    @classmethod
    def of(cls, code: int) -> Building:
        where = code >> BUILDING_PLACE
        return cls(
            *spot(where),
            code >> B_OWNER & FIELD,
            building_kind(code),
            code >> B_HP & FIELD,
            code >> B_POINTS & FIELD,
            building_readiness(code),
            label(code),  # the aim's space number is the code's lowest bits
        )


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
    """(planet, hit points) of each of the player's Rovers that came into that planet's orbit this turn
    and so descend only in a later turn (GT-SP3), sorted: from another orbit under
    `descend_after_transfer=next-turn`, from the board under `descend_after_orbit=next-turn`."""
    saved_now: int = 0
    """Action points the player saved into their Treasury this turn; under
    `saved_point_use=next-turn` they are spent only in a later turn (GT-T1)."""
    rover: tuple[int, str, int] | None = None
    """Under `rovers_per_turn=one`: (planet, space label, hit points) of the Rover that took this turn's
    Rover actions, where it stands now ("" in orbit); None before the first one (GT-F4)."""


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
Occupants = tuple[int | None, int | None, int | None]
"""The codes of what stands on one place: its Rover, Fortification and Building, None where there is none."""
EMPTY: Final[Occupants] = (None, None, None)
"""What stands on an empty place."""
Shown = tuple[Rover | None, Fortification | None, Building | None]
"""What stands on one space, as records."""


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
    rover_codes: tuple[int, ...]
    """The Rovers' codes (`unit_code`), sorted."""
    fortification_codes: tuple[int, ...]
    """The Fortifications' codes (`unit_code`), sorted."""
    building_codes: tuple[int, ...]
    """The Buildings' codes (`building_code`), sorted."""
    planets: tuple[PlanetState, ...]
    pending: tuple[Pending, ...]
    lost: tuple[int, ...]
    """Players who have lost, in ascending order."""

    # The makers below pass the fields by position, in their order above: a third faster
    # than by keyword, and play makes a few states on every step.

    def with_codes(
        self,
        rovers: Iterable[int] | None = None,
        fortifications: Iterable[int] | None = None,
        buildings: Iterable[int] | None = None,
    ) -> GlobetrotterState:
        """This state with some piece collections replaced (by their codes, in any order)."""
        return self._remade(
            self.phase,
            self.turn,
            self.rover_codes if rovers is None else tuple(sorted(rovers)),
            self.fortification_codes if fortifications is None else tuple(sorted(fortifications)),
            self.building_codes if buildings is None else tuple(sorted(buildings)),
            self.pending,
        )

    def with_pieces(
        self,
        rovers: Iterable[Rover] | None = None,
        fortifications: Iterable[Fortification] | None = None,
        buildings: Iterable[Building] | None = None,
    ) -> GlobetrotterState:
        """This state with some piece collections replaced, given as records."""
        return self.with_codes(
            None if rovers is None else [r.code for r in rovers],
            None if fortifications is None else [f.code for f in fortifications],
            None if buildings is None else [b.code for b in buildings],
        )

    def with_turn(
        self, turn: Turn | None, phase: str | None = None, buildings: tuple[int, ...] | None = None
    ) -> GlobetrotterState:
        """This state with another turn (and, if given, phase, and Buildings' codes changed where they
        stand: the same places, so their order holds)."""
        return self._remade(
            self.phase if phase is None else phase,
            turn,
            self.rover_codes,
            self.fortification_codes,
            self.building_codes if buildings is None else buildings,
            self.pending,
        )

    def settle_turn(
        self, turn: Turn | None, phase: str | None = None, buildings: tuple[int, ...] | None = None
    ) -> GlobetrotterState:
        """`with_turn` done on this very state rather than a copy: only for a state the step in progress
        has just made and nobody else holds or has hashed yet (the result of an action's effect), so
        that a step of play makes one state rather than two. Returns the state."""
        settle = object.__setattr__
        settle(self, "turn", turn)
        if phase is not None:
            settle(self, "phase", phase)
        if buildings is not None:
            settle(self, "building_codes", buildings)
        return self

    def with_pending(self, pending: tuple[Pending, ...]) -> GlobetrotterState:
        """This state with other chance events pending."""
        return self._remade(
            self.phase, self.turn, self.rover_codes, self.fortification_codes, self.building_codes, pending
        )

    @property
    def _occupancy(self) -> dict[int, Occupants]:
        """Where this state's pieces stand: the last occupancy worked out, when it was for these
        very piece tuples (a state made from another with the same pieces shares them), else a
        new one."""
        global _last_occupancy
        last = _last_occupancy
        rovers, fortifications, buildings = self.rover_codes, self.fortification_codes, self.building_codes
        if last[0] is rovers and last[1] is fortifications and last[2] is buildings:
            return last[3]
        occupancy = _occupancy_of(rovers, fortifications, buildings)
        _last_occupancy = (rovers, fortifications, buildings, occupancy)
        return occupancy

    def replace_rover(self, old: int, new: int | None) -> GlobetrotterState:
        """This state with the Rover `old` changed to `new`, or removed when `new` is None."""
        rovers = _replaced(self.rover_codes, old, new)
        return self._remade(self.phase, self.turn, rovers, self.fortification_codes, self.building_codes, self.pending)

    def replace_fortification(self, old: int, new: int | None) -> GlobetrotterState:
        """This state with the Fortification `old` changed to `new`, or removed when `new` is None."""
        fortifications = _replaced(self.fortification_codes, old, new)
        return self._remade(self.phase, self.turn, self.rover_codes, fortifications, self.building_codes, self.pending)

    def replace_building(self, old: int, new: int | None) -> GlobetrotterState:
        """This state with the Building `old` changed to `new`, or removed when `new` is None."""
        buildings = _replaced(self.building_codes, old, new)
        return self._remade(self.phase, self.turn, self.rover_codes, self.fortification_codes, buildings, self.pending)

    def replace_piece(self, kind: str, old: int, new: int | None) -> GlobetrotterState:
        """This state with the piece `old` of a kind (ROVER, FORTIFICATION, BUILDING) changed to `new`,
        or removed when `new` is None."""
        if kind == ROVER:
            return self.replace_rover(old, new)
        if kind == FORTIFICATION:
            return self.replace_fortification(old, new)
        return self.replace_building(old, new)

    def _remade(
        self,
        phase: str,
        turn: Turn | None,
        rovers: tuple[int, ...],
        fortifications: tuple[int, ...],
        buildings: tuple[int, ...],
        pending: tuple[Pending, ...],
    ) -> GlobetrotterState:
        """This state with the fields play changes (the piece tuples already sorted) and the setup
        fields, planets and losers as they are: the one maker the others call."""
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

    def codes_at(self, where: int) -> Occupants:
        """The codes of the Rover, Fortification and Building on a place (None where there is none)."""
        return self._occupancy.get(where, EMPTY)

    def occupied_places(self) -> Mapping[int, Occupants]:
        """Every occupied place with the codes of what stands on it."""
        return self._occupancy

    # The pieces as records, for the edges (written positions, pictures, tests).

    @property
    def rovers(self) -> tuple[Rover, ...]:
        return tuple(map(_rover, self.rover_codes))

    @property
    def fortifications(self) -> tuple[Fortification, ...]:
        return tuple(map(_fortification, self.fortification_codes))

    @property
    def buildings(self) -> tuple[Building, ...]:
        return tuple(map(_building, self.building_codes))

    def pieces_at(self, planet_index: int, space: str) -> Shown:
        """The Rover, Fortification and Building on a space (None where there is none)."""
        return _shown(self._occupancy.get(place(planet_index, space), EMPTY))

    def rover_at(self, planet_index: int, space: str) -> Rover | None:
        return self.pieces_at(planet_index, space)[0]

    def fortification_at(self, planet_index: int, space: str) -> Fortification | None:
        return self.pieces_at(planet_index, space)[1]

    def building_at(self, planet_index: int, space: str) -> Building | None:
        return self.pieces_at(planet_index, space)[2]

    def occupancy(self) -> Mapping[tuple[int, str], Shown]:
        """Every occupied (planet, space) with the Rover, Fortification and Building on it."""
        return {spot(where): _shown(there) for where, there in self._occupancy.items()}

    def occupied(self) -> frozenset[tuple[int, str]]:
        """Every (planet, space) holding any piece."""
        return frozenset(map(spot, self._occupancy))

    def buildings_of(self, player: int, kind: str | None = None) -> tuple[Building, ...]:
        return tuple([b for b in self.buildings if b.owner == player and (kind is None or b.kind == kind)])

    def rovers_of(self, player: int) -> tuple[Rover, ...]:
        return tuple([r for r in self.rovers if r.owner == player])

    def record(self) -> StateRecord:
        """This state as its canonical JSON writes it."""
        return StateRecord(
            self.phase,
            self.rolls,
            self.contenders,
            self.placing,
            self.turn,
            self.rovers,
            self.fortifications,
            self.buildings,
            self.planets,
            self.pending,
            self.lost,
        )

    @classmethod
    def of(cls, record: StateRecord) -> GlobetrotterState:
        """The state a record writes (its pieces put in canonical order)."""
        r = record
        return cls(
            r.phase, r.rolls, r.contenders, r.placing, r.turn, (), (), (), r.planets, r.pending, r.lost
        ).with_pieces(r.rovers, r.fortifications, r.buildings)


@attrs.frozen
class StateRecord:
    """A Globetrotter state as its canonical JSON writes it (the game's `state_type`): the fields of
    GlobetrotterState, with each kind of piece as records in canonical order. Made only at the edges:
    encoding, decoding, and the JSON's documented fields."""

    phase: str
    rolls: tuple[int, ...]
    contenders: tuple[int, ...]
    placing: tuple[int, ...]
    turn: Turn | None
    rovers: tuple[Rover, ...]
    fortifications: tuple[Fortification, ...]
    buildings: tuple[Building, ...]
    planets: tuple[PlanetState, ...]
    pending: tuple[Pending, ...]
    lost: tuple[int, ...]


RECORDS_KEPT: Final = 1 << 16
"""How many records of each kind of piece are kept, by code: the edges that read pieces as records
(the written state, pictures) read the same few again and again."""
_rover: Final = lru_cache(maxsize=RECORDS_KEPT)(Rover.of)
_fortification: Final = lru_cache(maxsize=RECORDS_KEPT)(Fortification.of)
_building: Final = lru_cache(maxsize=RECORDS_KEPT)(Building.of)


def _shown(there: Occupants) -> Shown:
    rover, fortification, building = there
    return (
        None if rover is None else _rover(rover),
        None if fortification is None else _fortification(fortification),
        None if building is None else _building(building),
    )


def _replaced(codes: tuple[int, ...], old: int, new: int | None) -> tuple[int, ...]:
    """The sorted `codes` with one `old` left out (ValueError if there is none) and `new`, if given,
    put in at its place."""
    rest = list(codes)
    rest.remove(old)
    if new is not None:
        insort(rest, new)
    return tuple(rest)


def _occupancy_of(
    rovers: tuple[int, ...], fortifications: tuple[int, ...], buildings: tuple[int, ...]
) -> dict[int, Occupants]:
    occupancy: dict[int, Occupants] = {r >> UNIT_PLACE: (r, None, None) for r in rovers if r >> UNIT_PLACE & SPACE_MASK}
    for f in fortifications:
        where = f >> UNIT_PLACE
        there = occupancy.get(where, EMPTY)
        occupancy[where] = (there[0], f, there[2])
    for b in buildings:
        where = b >> BUILDING_PLACE
        there = occupancy.get(where, EMPTY)
        occupancy[where] = (there[0], there[1], b)
    return occupancy


_last_occupancy: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], dict[int, Occupants]] = ((), (), (), {})
"""The piece tuples whose occupancy was worked out last, with it. States keep none of their own:
one kept on every state (and every state of a played game is kept) would make the garbage
collector walk it ever after, which costs more than working it out. The same tuples are the same
pieces, so the states of one step (before and after the turn moves on) share one occupancy, made
once per step of play."""
