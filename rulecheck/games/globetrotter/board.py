"""Globetrotter's boards as the rules see them: spaces by token, adjacency, shooting range.

Models: the planets of a game (every one the same board, under the `removal` option),
the text tokens of spaces and orbits, each space's neighbours (tabulated once for all games,
for the rules to look up, also as a set of spaces in a bitmask), adjacency between orbits
(`planet_adjacency`), and shooting distance under the five readings of L13:

  W0  plain steps along the shortest chain;
  W1  every pentagon entered counts 2, the target's included, the own space free;
  W2  only a target pentagon counts 2, pentagons passed through count 1;
  W3  only pentagons passed through count 2, the target counts 1;
  W4  W1, plus 1 when the shooter's own space is a pentagon.

Leaves out: pieces (state.py, which also numbers the spaces) and whether a shot is legal (rules.py).
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from functools import cache
from types import MappingProxyType
from typing import Any, Final

import networkx as nx

from rulecheck.core.clauses import touch
from rulecheck.core.ops import MaskOps
from rulecheck.games.globetrotter.options import PlanetAdjacency, Removal, Shooting
from rulecheck.games.globetrotter.state import NUMBERS, SPACE_BITS, SPACE_MASK, place, space_label, spot
from rulecheck.geometry.facts import board_facts
from rulecheck.geometry.planet import HQ, REMOVALS, Planet, label_order, planet
from rulecheck.model.board import BoardView

SHOOTING_RANGE: Final = 3
"""GT-A4: distance 3 or less."""
PENTAGON_WEIGHT: Final = 2
"""GT-B6: each HQ pentagon counts as 2 spaces."""
READINGS: Final = tuple(sorted(Shooting, key=lambda reading: reading.value))
PLANET_LETTERS: Final = string.ascii_lowercase


def _entry_weighted(board: Planet) -> dict[str, dict[str, int]]:
    """W1 distances: the cost of a chain is the sum over the spaces it enters."""

    def weight(_u: str, v: str, _data: object) -> int:
        return PENTAGON_WEIGHT if board.graph.nodes[v]["kind"] == HQ else 1

    graph: nx.DiGraph[str] = nx.DiGraph(board.graph)
    lengths = nx.all_pairs_dijkstra_path_length(graph, weight=weight)
    return {s: {t: int(cost) for t, cost in d.items()} for s, d in lengths}  # whole weights, whole costs


@cache
def shooting_distances(removal: str, reading: Shooting) -> Mapping[str, Mapping[str, int]]:
    """Shooting distance from every space to every space it can reach, under one reading."""
    board = planet(removal)
    is_hq = {s: board.graph.nodes[s]["kind"] == HQ for s in board.graph}
    steps = {s: dict(d) for s, d in nx.all_pairs_shortest_path_length(board.graph)}
    entered = _entry_weighted(board)
    table: dict[str, dict[str, int]] = {}
    for source in board.graph:
        row: dict[str, int] = {}
        for target, hops in steps[source].items():
            if reading is Shooting.W0:
                row[target] = hops
            elif reading is Shooting.W1:
                row[target] = entered[source][target]
            elif reading is Shooting.W2:
                row[target] = hops + (1 if is_hq[target] and target != source else 0)
            elif reading is Shooting.W3:
                # The cheapest chain to a neighbour of the target, then 1 for the target itself.
                row[target] = (
                    0
                    if target == source
                    else 1 + min(entered[source][n] for n in board.graph[target] if n in entered[source])
                )
            elif reading is Shooting.W4:
                row[target] = entered[source][target] + (1 if is_hq[source] and target != source else 0)
            else:
                raise ValueError(f"unknown shooting reading {reading!r}")
        table[source] = row
    return MappingProxyType({s: MappingProxyType(r) for s, r in table.items()})


@cache
def in_range(removal: str, reading: Shooting) -> Mapping[str, frozenset[str]]:
    """For every space, the other spaces within shooting range under one reading."""
    table = shooting_distances(removal, reading)
    return MappingProxyType(
        {s: frozenset(t for t, d in row.items() if t != s and d <= SHOOTING_RANGE) for s, row in table.items()}
    )


@cache
def boards_for(removal: Removal, planets: int, adjacency: PlanetAdjacency) -> Boards:
    """The Boards of a game with these settings, made once and shared by every such game."""
    return Boards(removal, planets, adjacency)


class Boards:
    """The planets of one game and the text tokens of their spaces and orbits (never changed
    once made, so games with the same settings share one: `boards_for`). The rules name a space by
    its place (state.place: planet and space number in one int) and sets of spaces as bitmasks of
    the game's numbering (`numbered`); labels and tokens are for the edges."""

    def __init__(self, removal: Removal, planets: int, adjacency: PlanetAdjacency) -> None:
        self.removal = removal
        self.board = planet(removal.value)
        self.graph = self.board.graph
        self.count = planets
        self.hq_spaces = frozenset(self.board.hq_spaces)
        self.hq_numbers: frozenset[int] = frozenset(NUMBERS[s] for s in self.hq_spaces)
        """The space numbers (place & SPACE_MASK) of the HQ spaces, on every planet."""
        self.spaces: tuple[str, ...] = tuple(self.graph)
        """Every space of one planet, in the board graph's order."""
        self.adjacent: Mapping[str, tuple[str, ...]] = MappingProxyType({s: tuple(self.graph[s]) for s in self.graph})
        """Each space's neighbours, read once from the graph."""
        self.numbered: tuple[int, ...] = tuple(place(p, s) for p in range(planets) for s in self.spaces)
        """Every place of the game, numbered for sets of spaces as bitmasks (`ops`)."""
        self.tokens: Mapping[int, str] = MappingProxyType({where: _token(planets, where) for where in self.numbered})
        """The token of every place of the game, written once."""
        self.places: Mapping[str, int] = MappingProxyType({t: where for where, t in self.tokens.items()})
        """Every space token of the game with the place it names."""
        self.around: Mapping[int, tuple[int, ...]] = MappingProxyType(
            {
                where: tuple(where & ~SPACE_MASK | NUMBERS[n] for n in self.adjacent[space_label(where)])
                for where in self.numbered
            }
        )
        """Each place of the game with its neighbours, in board order."""
        self.bit: Mapping[int, int] = MappingProxyType({w: 1 << i for i, w in enumerate(self.numbered)})
        """Each place of the game as the set holding it alone."""
        self.around_set: Mapping[int, int] = MappingProxyType(
            {where: sum(self.bit[n] for n in near) for where, near in self.around.items()}
        )
        """Each place of the game with the set of its neighbours."""
        self.spot: Mapping[int, tuple[int, int]] = MappingProxyType(
            {where: (self.bit[where], self.around_set[where]) for where in self.numbered}
        )
        """Each place of the game with its set and the set of its neighbours, read at once."""
        self.planet_set: tuple[int, ...] = tuple(
            sum(self.bit[place(p, s)] for s in self.spaces) for p in range(planets)
        )
        """Each planet's spaces as a set."""
        self.hq_set: int = sum(bit for where, bit in self.bit.items() if space_label(where) in self.hq_spaces)
        """The HQ spaces of every planet, as a set."""
        self.ops = MaskOps(len(self.numbered))
        """Guards (counters.py) on sets of the game's spaces."""
        self._adjacency = adjacency
        self._reach: dict[Shooting, Mapping[int, int]] = {}

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its settings: unpickling gives the shared Boards of those settings."""
        return boards_for, (self.removal, self.count, self._adjacency)

    def places_in(self, spaces: int) -> list[int]:
        """The place of each member of a set of spaces, in their numbering's order."""
        found = []
        numbered = self.numbered
        while spaces:
            lowest = spaces & -spaces
            found.append(numbered[lowest.bit_length() - 1])
            spaces ^= lowest
        return found

    def reach(self, reading: Shooting) -> Mapping[int, int]:
        """GT-A4, GT-B5, GT-B6: each place of the game with the set of the other spaces of its planet
        within shooting distance under one reading (`in_range`), worked out on first use."""
        found = self._reach.get(reading)
        if found is None:
            labels, bit = in_range(self.removal.value, reading), self.bit
            found = self._reach[reading] = MappingProxyType(
                {w: sum(bit[w & ~SPACE_MASK | NUMBERS[t]] for t in labels[space_label(w)]) for w in self.numbered}
            )
        return found

    def beside(self, a: int, b: int) -> bool:
        """GT-B4: whether place `b` is adjacent to place `a` (a neighbour on the same planet)."""
        if a >> SPACE_BITS != b >> SPACE_BITS:
            return False
        touch("GT-B4")
        return b in self.around[a]

    def neighbours(self, space: str) -> tuple[str, ...]:
        touch("GT-B4")
        return self.adjacent[space]

    def is_hq(self, space: str) -> bool:
        return space in self.hq_spaces

    def token(self, planet_index: int, space: str) -> str:
        """A space's token: its label on a one-planet board, else planet letter, colon and label."""
        return self.tokens[place(planet_index, space)]

    def parse(self, token: str) -> tuple[int, str] | None:
        """(planet, space) for a space token of this game, or None if it names no space."""
        where = self.places.get(token)
        return None if where is None else spot(where)

    def orbit_token(self, planet_index: int) -> str:
        return PLANET_LETTERS[planet_index]

    def parse_orbit(self, token: str) -> int | None:
        index = PLANET_LETTERS.find(token) if len(token) == 1 else -1
        return index if 0 <= index < self.count else None

    def orbits_adjacent(self, a: int, b: int) -> bool:
        """GT-M2 / GT-SP3: whether an orbiting Rover may move from planet a's orbit to b's."""
        touch("GT-M2")
        if a == b:
            return False
        return True if self._adjacency is PlanetAdjacency.ALL else abs(a - b) == 1


def _token(planets: int, where: int) -> str:
    """A place's token: its label on a one-planet board, else planet letter, colon and label."""
    return space_label(where) if planets == 1 else f"{PLANET_LETTERS[where >> SPACE_BITS]}:{space_label(where)}"


def board_view(game: Any) -> BoardView:
    """The planet of a game under its `removal` option, with its facts, for `rulecheck board`."""
    removal = game.options.removal.value
    board = planet(removal)
    return BoardView(
        f"removal {removal}: {REMOVALS[removal].description}", board.graph, board_facts(board), label_order
    )
