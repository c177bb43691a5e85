"""Globetrotter's symmetries: the rotations of the board, carried over to whole states.

Models: the automorphisms of the playable board graph that keep each space's kind (HQ
or triangle) and are not the identity. The rules read only adjacency and kinds (shooting
distance is computed from them), so each such map carries a state to an equivalent one.
Under the default removal `ring15` they are the 4 turns about the removed pentagon's
axis; the snub dodecahedron is chiral, so no reflection is among them. Under `ring14-hq`
and `ring14-snub` there is none. A rotation applies to every planet at once and
relabels every space a state holds: where Rovers, Fortifications and Buildings stand,
where a Drill Cannon aims, where the turn's Rover stands (`rovers_per_turn=one`), and where a
pending chance event strikes.

Leaves out: permuting the planets of a multi-planet game, rotating planets
independently, and relabelling actions (a state's legal actions are recomputed from
its image instead).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from types import MappingProxyType
from typing import Final

import attrs

from rulecheck.core.evolve import evolve
from rulecheck.games.globetrotter.state import (
    BUILDING_PLACE,
    NUMBERS,
    SPACE_MASK,
    UNIT_PLACE,
    GlobetrotterState,
)
from rulecheck.geometry.facts import automorphisms
from rulecheck.geometry.planet import label_order, planet


@attrs.frozen
class Rotation:
    """One rotation of the board: `images[space]` is where `space` goes, `numbers[n]` the number of
    the image of the space numbered n (state.NUMBERS; orbit, 0, stays)."""

    images: Mapping[str, str] = attrs.field(eq=False)
    numbers: tuple[int, ...] = attrs.field(eq=False, repr=False)

    def __call__(self, state: GlobetrotterState) -> GlobetrotterState:
        return relabel(state, self.images, self.numbers)


@cache
def rotations(removal: str) -> tuple[Rotation, ...]:
    """The kind-preserving automorphisms of the board under `removal`, but the identity; computed
    once per removal."""
    board = planet(removal)
    kind = board.graph.nodes
    found = [
        images
        for images in automorphisms(board.graph)
        if any(images[s] != s for s in images) and all(kind[s]["kind"] == kind[images[s]]["kind"] for s in images)
    ]
    found.sort(key=lambda images: [label_order(images[s]) for s in board.spaces])
    return tuple(Rotation(MappingProxyType(images), _numbers(images)) for images in found)


def _numbers(images: Mapping[str, str]) -> tuple[int, ...]:
    """`images` by space number: the image's number of each number (orbit and spaces not on the
    board stay)."""
    numbers = list(range(len(NUMBERS)))
    for space, image in images.items():
        numbers[NUMBERS[space]] = NUMBERS[image]
    return tuple(numbers)


def relabel(state: GlobetrotterState, images: Mapping[str, str], numbers: tuple[int, ...]) -> GlobetrotterState:
    """`state` with every space mapped by `images` (`numbers` by space number), pieces back in
    canonical order."""
    rovers = [_moved_unit(r, numbers) for r in state.rover_codes]
    fortifications = [_moved_unit(f, numbers) for f in state.fortification_codes]
    buildings = [_moved_building(b, numbers) for b in state.building_codes]
    carried = state.with_codes(rovers=rovers, fortifications=fortifications, buildings=buildings)
    turn = state.turn
    if turn is not None and turn.rover is not None:
        planet, space, hp = turn.rover
        carried = carried.with_turn(evolve(turn, rover=(planet, images[space] if space else "", hp)))
    if not state.pending:
        return carried
    return carried.with_pending(tuple(evolve(p, space=images[p.space] if p.space else "") for p in state.pending))


_UNIT_NUMBER: Final = SPACE_MASK << UNIT_PLACE
_BUILDING_NUMBER: Final = SPACE_MASK << BUILDING_PLACE


def _moved_unit(code: int, numbers: tuple[int, ...]) -> int:
    """A Rover's or Fortification's code where `numbers` carries it."""
    return code & ~_UNIT_NUMBER | numbers[code >> UNIT_PLACE & SPACE_MASK] << UNIT_PLACE


def _moved_building(code: int, numbers: tuple[int, ...]) -> int:
    """A Building's code where `numbers` carries it, its aim too."""
    carried = code & ~(_BUILDING_NUMBER | SPACE_MASK)
    return carried | numbers[code >> BUILDING_PLACE & SPACE_MASK] << BUILDING_PLACE | numbers[code & SPACE_MASK]
