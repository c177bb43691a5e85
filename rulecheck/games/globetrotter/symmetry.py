"""Globetrotter's symmetries: the rotations of the board, carried over to whole states.

Models: the automorphisms of the playable board graph that keep each space's kind (HQ
or triangle) and are not the identity. The rules read only adjacency and kinds (shooting
distance is computed from them), so each such map carries a state to an equivalent one.
Under the default removal `ring15` they are the 4 turns about the removed pentagon's
axis; the snub dodecahedron is chiral, so no reflection is among them. Under `ring14-hq`
and `ring14-snub` there is none. A rotation applies to every planet at once and
relabels every space a state holds: where Rovers, Fortifications and Buildings stand,
where a Drill Cannon aims, and where a pending chance event strikes.

Leaves out: permuting the planets of a multi-planet game, rotating planets
independently, and relabelling actions (a state's legal actions are recomputed from
its image instead).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from types import MappingProxyType
from typing import cast

import attrs

from rulecheck.core.evolve import evolve
from rulecheck.games.globetrotter.state import Building, Fortification, GlobetrotterState, Rover
from rulecheck.geometry.facts import automorphisms
from rulecheck.geometry.planet import label_order, planet

Piece = Rover | Fortification | Building
MOVED_KEPT = 100_000
"""The most carried pieces a rotation keeps; past it, it starts again (the rotations are made once
per process and shared by every search)."""


@attrs.frozen
class Rotation:
    """One rotation of the board: `images[space]` is where `space` goes."""

    images: Mapping[str, str] = attrs.field(eq=False)
    moved: dict[Piece, Piece] = attrs.field(eq=False, repr=False)
    """Each piece this rotation has carried, with its image: a search under symmetry maps every
    state it reaches, and the states of one game hold the same few pieces again and again."""

    def __call__(self, state: GlobetrotterState) -> GlobetrotterState:
        if len(self.moved) > MOVED_KEPT:
            self.moved.clear()
        return relabel(state, self.images, self.moved)


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
    return tuple(Rotation(MappingProxyType(images), {}) for images in found)


def relabel(state: GlobetrotterState, images: Mapping[str, str], moved: dict[Piece, Piece]) -> GlobetrotterState:
    """`state` with every space mapped by `images`, pieces back in canonical order; `moved` holds
    the pieces already carried by these images, with their images, and takes the new ones."""
    rovers = [cast(Rover, moved.get(r) or moved.setdefault(r, _moved(r, images))) for r in state.rovers]
    fortifications = [
        cast(Fortification, moved.get(f) or moved.setdefault(f, _moved(f, images))) for f in state.fortifications
    ]
    buildings = [cast(Building, moved.get(b) or moved.setdefault(b, _moved(b, images))) for b in state.buildings]
    carried = state.with_pieces(rovers=rovers, fortifications=fortifications, buildings=buildings)
    if not state.pending:
        return carried
    return carried.with_pending(tuple(evolve(p, space=images[p.space] if p.space else "") for p in state.pending))


def _moved(piece: Piece, images: Mapping[str, str]) -> Piece:
    """`piece` where `images` carries it (made by position, field by field in declared order)."""
    if isinstance(piece, Rover):
        return Rover(piece.planet, None if piece.space is None else images[piece.space], piece.owner, piece.hp)
    if isinstance(piece, Fortification):
        return Fortification(piece.planet, images[piece.space], piece.owner, piece.hp)
    aim = None if piece.aim is None else images[piece.aim]
    return Building(
        piece.planet, images[piece.space], piece.owner, piece.kind, piece.hp, piece.points, piece.readiness, aim
    )
