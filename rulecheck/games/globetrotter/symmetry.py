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

import attrs

from rulecheck.games.globetrotter.state import Building, Fortification, GlobetrotterState, Rover
from rulecheck.geometry.facts import automorphisms
from rulecheck.geometry.planet import label_order, planet


@attrs.frozen
class Rotation:
    """One rotation of the board: `images[space]` is where `space` goes."""

    images: Mapping[str, str] = attrs.field(eq=False)

    def __call__(self, state: GlobetrotterState) -> GlobetrotterState:
        return relabel(state, self.images)


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
    return tuple(Rotation(MappingProxyType(images)) for images in found)


def relabel(state: GlobetrotterState, images: Mapping[str, str]) -> GlobetrotterState:
    """`state` with every space mapped by `images`, pieces back in canonical order. Pieces are made
    by position, field by field in their declared order: exploration under symmetry maps every
    state it reaches once per rotation."""
    rovers = [Rover(r.planet, None if r.space is None else images[r.space], r.owner, r.hp) for r in state.rovers]
    fortifications = [Fortification(f.planet, images[f.space], f.owner, f.hp) for f in state.fortifications]
    buildings = [
        Building(
            b.planet,
            images[b.space],
            b.owner,
            b.kind,
            b.hp,
            b.points,
            b.readiness,
            None if b.aim is None else images[b.aim],
        )
        for b in state.buildings
    ]
    moved = state.with_pieces(rovers=rovers, fortifications=fortifications, buildings=buildings)
    if not state.pending:
        return moved
    return moved.with_pending(tuple(attrs.evolve(p, space=images[p.space] if p.space else "") for p in state.pending))
