"""What every Globetrotter rule reads besides the state: players, options, boards.

Models: one immutable bundle per game instance, plus the helpers every rule module
shares: the live planets, reporting a rule gap, and the one instance of each distinct action (`Actions`),
shared by every game on the same boards. The player to move in a state (`Mover`), with
the facts about their position that several rules read, worked out once per state.

Leaves out: the rules themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any, Final, TypeVar

import attrs

from rulecheck.core.notation import Action, ActionCache
from rulecheck.games.globetrotter.board import Boards
from rulecheck.games.globetrotter.options import GlobetrotterOptions, RoversPerTurn
from rulecheck.games.globetrotter.state import (
    B_KIND,
    B_OWNER,
    BUILDING,
    BUILDING_KINDS,
    BUILDING_PLACE,
    DRILL_CANNON,
    FACTORY,
    FIELD,
    FORTIFICATION,
    OWNER,
    ROVER,
    SPACE_MASK,
    SPACE_PORT,
    TREASURY,
    UNIT_PLACE,
    GlobetrotterState,
    Occupants,
    place,
    unit_code,
)

PLANETS_BY_PLAYERS = {2: 1, 3: 1, 4: 2, 5: 2, 6: 3}
"""GT-M1: the rulebook's table of planets by player count (L99-L104)."""

A = TypeVar("A", bound=Action)
K = TypeVar("K")
V = TypeVar("V")
P = TypeVar("P")
Where = int
"""A space of the game: its place (state.place)."""
Listing = Sequence[tuple[Action, P]]
"""Legal actions of one kind, each with what its effect needs (its payload: codes of pieces,
places)."""
NOTHING: Listing[Any] = ()
"""The listing of a kind of action none of which is legal (one for all, rather than a new empty
list from every rule on every step)."""
Steps = tuple[tuple[int, Action], ...]
"""Spaces of a planet, each as its space number (state.NUMBERS), with the action that reaches it from
one place."""
Neighbours = tuple[tuple[int, Action], ...]
"""A space's neighbours, each as the set of spaces holding it alone (Boards.bit), with the action
that reaches it from the space."""

# What the mover holds, one bit a fact (`Mover.holds`), and what a rule needs of it (`PlayRule.needs`).
ANYWAY: Final = 1
"""Held by every mover: a rule that needs it is listed on every step."""
ROVERS_ON_BOARD: Final = 2
ROVERS_IN_ORBIT: Final = 4
STRUCTURES: Final = 8
"""Buildings or Fortifications."""
FACTORIES: Final = 16
DRILL_CANNONS: Final = 32
SPACE_PORTS: Final = 64
TREASURIES: Final = 128

ANY_ROVER: Final = RoversPerTurn.ANY
"""The reading every listing and every Rover action compares (`rovers_per_turn=any`), kept as a
global (why: Reading, rulecheck/core/options.py)."""


class Table(dict[K, V]):
    """A mapping whose value for a key is made on first use, by `make(key)`, and then kept."""

    def __init__(self, make: Callable[[K], V]) -> None:
        super().__init__()
        self._make = make

    def __missing__(self, key: K) -> V:
        value = self[key] = self._make(key)
        return value


class Actions:
    """Every distinct action of the games played on one set of boards, each made on first use and
    then shared by all of them: by its arguments (`act`), and by place (`at`, `steps`, `across`).
    Legal actions are thus made, and their text written, once rather than on every step or in
    every game. Safe to share between threads (a race makes an equal action twice, which is
    harmless)."""

    def __init__(self, boards: Boards) -> None:
        self.boards = boards
        self.act = ActionCache()
        self._at: dict[type[Action], Table[Where, Any]] = {}
        self._steps: dict[type[Action], Table[Where, Neighbours]] = {}
        self._across: dict[type[Action], Table[Where, Steps]] = {}
        self._rows: dict[type[Action], tuple[tuple[Action, Where], ...]] = {}

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its boards: unpickling gives the shared Actions of those boards."""
        return actions_on, (self.boards,)

    def at(self, cls: type[A]) -> Mapping[Where, A]:
        """For each place, the action of `cls` whose one argument is that space."""
        table = self._at.get(cls)
        if table is None:
            act, tokens = self.act, self.boards.tokens
            table = self._at[cls] = Table(lambda where: act(cls, tokens[where]))
        return table

    def each_at(self, cls: type[A], spaces: int) -> list[tuple[A, Where]]:
        """For each member of a set of spaces (Boards.bit), in their numbering's order, the action of
        `cls` whose one argument is that space, with its place: read from a row made once per class,
        by the members' bit positions."""
        row = self._rows.get(cls)
        if row is None:
            act, tokens = self.act, self.boards.tokens
            row = self._rows[cls] = tuple((act(cls, tokens[where]), where) for where in self.boards.numbered)
        found = []
        while spaces:
            lowest = spaces & -spaces
            found.append(row[lowest.bit_length() - 1])
            spaces ^= lowest
        return found  # type: ignore[return-value]

    def steps(self, cls: type[Action]) -> Mapping[Where, Neighbours]:
        """For each place, its neighbours in board order, each as its set with the action of `cls`
        from the place to it (a Move, a Manufacture)."""
        table = self._steps.get(cls)
        if table is None:
            act, tokens, around, bit = self.act, self.boards.tokens, self.boards.around, self.boards.bit
            table = self._steps[cls] = Table(
                lambda where: tuple((bit[n], act(cls, tokens[where], tokens[n])) for n in around[where])
            )
        return table

    def across(self, cls: type[A]) -> Mapping[Where, tuple[tuple[int, A], ...]]:
        """For each place, every space of its planet in board order, each as its space number with
        the action of `cls` from the place to it (an Aim)."""
        table = self._across.get(cls)
        if table is None:
            act, tokens, numbered = self.act, self.boards.tokens, self.boards.numbered
            table = self._across[cls] = Table(
                lambda where: tuple(
                    (other & SPACE_MASK, act(cls, tokens[where], tokens[other]))
                    for other in numbered
                    if other & ~SPACE_MASK == where & ~SPACE_MASK
                )
            )
        return table  # type: ignore[return-value]


@cache
def actions_on(boards: Boards) -> Actions:
    """The actions of the games played on `boards` (one Actions for each Boards)."""
    return Actions(boards)


@attrs.frozen
class Rules:
    players: int
    options: GlobetrotterOptions
    """Every option's value, as the game resolved them."""
    boards: Boards
    rule_gap: Callable[[str, str, Any], None]
    actions: Actions = attrs.field(eq=False)
    """The actions of the games played on `boards`: `actions_on(boards)`, made once by the game."""
    reach: Mapping[Where, int] = attrs.field(eq=False)
    """GT-A4, GT-B5, GT-B6: each place with the set of spaces within shooting distance of it under
    the game's `shooting` reading: `boards.reach(options.shooting)`, looked up once by the game."""

    def live_planets(self, state: GlobetrotterState) -> tuple[int, ...]:
        return tuple(i for i, p in enumerate(state.planets) if not p.destroyed)


class Mover:
    """The player to move in one state, under one game's rules, with the facts about their
    position that several rules read, worked out once: the rules listing the state's legal
    actions and the explanation of a refused action (refusals.py) share them. Pieces are codes (state.py),
    spaces places, sets of spaces bitmasks. Making the facts touches no clause; the rule that
    reads one does (a listing notes them in `touched`)."""

    __slots__ = (
        "rules",
        "state",
        "player",
        "touched",
        "holds",
        "rovers",
        "on_board",
        "fortifications",
        "buildings",
        "kinds",
        "enemy_spaces",
        "orbiting",
        "unoccupied",
        "enterable",
        "own_fortified_clear",
        "own_supporting",
        "own_rover_spaces",
        "beside_own_rover",
        "beside_fortification",
        "beside_own_fortification",
        "beside_own_port",
        "turns_rover",
    )

    def __init__(self, rules: Rules, state: GlobetrotterState, player: int) -> None:
        self.rules = rules
        self.state = state
        self.player = player
        self.touched: list[str] = []
        """The clauses the rules listing the mover's actions read, touched at once when the listing
        is done (one call rather than one per rule)."""
        boards = rules.boards
        spot = boards.spot
        rover_spaces = own_rover_spaces = enemy_spaces = 0
        rovers: list[int] = []
        orbiting: list[int] = []
        on_board: dict[Where, int] = {}
        beside_own_rover = 0
        for r in state.rover_codes:
            where = r >> UNIT_PLACE
            mine = r >> OWNER & FIELD == player
            if not where & SPACE_MASK:
                if mine:
                    rovers.append(r)
                    orbiting.append(r)
                continue
            space, beside = spot[where]
            rover_spaces |= space
            if not mine:
                enemy_spaces |= space
            else:
                rovers.append(r)
                on_board[where] = r
                own_rover_spaces |= space
                beside_own_rover |= beside
        self.rovers: Sequence[int] = rovers
        """The player's Rovers, in canonical order."""
        self.on_board = on_board
        """The player's Rovers on a planet's surface (not in orbit), by place, in canonical order."""
        fortifications: list[int] = []
        beside_fortification = beside_own_fortification = own_fortification_spaces = fortification_spaces = 0
        for f in state.fortification_codes:
            space, beside = spot[f >> UNIT_PLACE]
            fortification_spaces |= space
            beside_fortification |= beside
            if f >> OWNER & FIELD != player:
                enemy_spaces |= space
            else:
                fortifications.append(f)
                own_fortification_spaces |= space
                beside_own_fortification |= beside
        self.fortifications: Sequence[int] = fortifications
        """The player's Fortifications, in canonical order."""
        buildings: list[int] = []
        kinds: dict[str, list[int]] = {}
        building_spaces = 0
        for b in state.building_codes:
            space = spot[b >> BUILDING_PLACE][0]
            building_spaces |= space
            if b >> B_OWNER & FIELD != player:
                enemy_spaces |= space
            else:
                buildings.append(b)
                kind = BUILDING_KINDS[b >> B_KIND & FIELD]
                alike = kinds.get(kind)
                if alike is None:
                    kinds[kind] = [b]
                else:
                    alike.append(b)
        self.buildings: Sequence[int] = buildings
        """The player's Buildings, in canonical order."""
        self.kinds: Mapping[str, Sequence[int]] = kinds
        """The player's Buildings by kind (kinds they have none of are left out)."""
        self.enemy_spaces = enemy_spaces
        """The spaces holding the other players' pieces, as a set (below)."""
        self.orbiting: Sequence[int] = sorted(set(orbiting)) if orbiting else ()
        """The player's orbiting Rovers, each distinct one once, in canonical order."""
        # Sets of spaces, as bitmasks of the boards' numbering (Boards.bit):
        every = boards.ops.every
        self.unoccupied = every & ~(rover_spaces | fortification_spaces | building_spaces)
        """The spaces holding no piece."""
        self.enterable = every & ~(rover_spaces | building_spaces | (fortification_spaces & ~own_fortification_spaces))
        """GT-A2, GT-A3: the spaces a Rover of the player may enter: no Rover, no Building and no
        enemy Fortification there."""
        self.own_fortified_clear = own_fortification_spaces & ~rover_spaces
        """The spaces holding one of the player's Fortifications and no Rover."""
        self.own_supporting = own_rover_spaces | own_fortification_spaces
        """The spaces holding one of the player's Rovers or Fortifications."""
        self.own_rover_spaces = own_rover_spaces
        """The spaces holding one of the player's Rovers."""
        self.beside_own_rover = beside_own_rover
        """The spaces adjacent to one of the player's Rovers."""
        self.beside_fortification = beside_fortification
        """The spaces adjacent to a Fortification, whoever's."""
        self.beside_own_fortification = beside_own_fortification
        """The spaces adjacent to one of the player's Fortifications."""
        ports = kinds.get(SPACE_PORT)
        around_set = boards.around_set
        beside_own_port = 0
        if ports:
            for b in ports:
                beside_own_port |= around_set[b >> BUILDING_PLACE]
        self.beside_own_port = beside_own_port
        """The spaces adjacent to one of the player's Space Ports, as a set."""
        holds = ANYWAY
        if on_board:
            holds |= ROVERS_ON_BOARD
        if orbiting:
            holds |= ROVERS_IN_ORBIT
        if buildings or fortifications:
            holds |= STRUCTURES
        if FACTORY in kinds:
            holds |= FACTORIES
        if DRILL_CANNON in kinds:
            holds |= DRILL_CANNONS
        if ports:
            holds |= SPACE_PORTS
        if TREASURY in kinds:
            holds |= TREASURIES
        self.holds = holds
        """What the player holds, as bits (ANYWAY and the facts above): a rule whose `needs` is
        not among them lists nothing and reads no clause, so it is not asked."""
        turn = state.turn
        self.turns_rover: int | None = None
        """The code of the turn's Rover under `rovers_per_turn=one`, once one has acted (acting.py);
        else None, so that under `any` the acting Rovers are read with no further test."""
        if rules.options.rovers_per_turn is not ANY_ROVER and turn is not None and turn.rover is not None:
            planet, label, hp = turn.rover
            self.turns_rover = unit_code(place(planet, label or None), turn.player, hp)

    @property
    def enemies(self) -> list[tuple[str, int]]:
        """The other players' pieces on the planets' surfaces, each with the kind a shot names
        (worked out when asked: only a listing that finds a target in reach reads them)."""
        player = self.player
        state = self.state
        found = []  # by loops rather than generators: a listing that finds a target reads this on each step
        for r in state.rover_codes:
            if r >> OWNER & FIELD != player and r >> UNIT_PLACE & SPACE_MASK:
                found.append((ROVER, r))
        for f in state.fortification_codes:
            if f >> OWNER & FIELD != player:
                found.append((FORTIFICATION, f))
        for b in state.building_codes:
            if b >> B_OWNER & FIELD != player:
                found.append((BUILDING, b))
        return found

    @property
    def occupancy(self) -> Mapping[Where, Occupants]:
        """Every occupied place with the codes of what stands on it (worked out on first use: listing
        the legal actions reads the sets above, and only some refusals say what stands where)."""
        return self.state.occupied_places()


@attrs.frozen
class PlayRule:
    """One kind of play-phase action. `legal` alone decides legality: it lists the mover's legal
    actions of that kind, each with what its effect needs (the piece that acts, the space it
    reaches), so applying a listed action is looking it up, and an action it leaves out is
    refused (refusals.py only says why). `effect` makes the change (on the state with the
    action's point paid, its turn not yet counting the action: `turns.spend`), touching the
    clauses the action's legality read. `needs` is the fact of `Mover.holds` without which
    `legal` lists nothing and touches no clause (its first test), so the game leaves it out of a
    listing (ANYWAY: listed on every step). `reads` are clauses the listing reads whenever the
    mover holds `needs`, and `lists` the further fact without which it lists nothing past them:
    the game touches `reads` for the rule (`legal` does not) and asks `legal` only when the mover
    holds both, so a rule that would only read a clause is not called."""

    action_type: type[Action]
    legal: Callable[[Mover], Listing[Any]]
    effect: Callable[[Rules, GlobetrotterState, int, Any, Any], GlobetrotterState]
    needs: int = ANYWAY
    reads: tuple[str, ...] = ()
    lists: int = ANYWAY
