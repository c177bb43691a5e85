"""The Globetrotter planet: the snub dodecahedron's faces as a board graph.

Models: the face graph of the snub dodecahedron (faces adjacent when they share an
edge), the canonical face labels defined in docs/board.md, and the boards left after
removing the bottom pentagon and some triangles around it. The rulebook's "bottom
pentagon and its surrounding 14 triangles" fits no symmetric reading (audit.md Part
1.2), so the removal is a named choice, `ring15` by default.

Labelling rule, reproducible from the face graph and one embedding of the solid:
  * the removed pentagon is any pentagon (the rotations act transitively on them); its
    five edge-neighbours are its "edge triangles", the other ten triangles sharing one
    of its corners are its "corner triangles";
  * the reference face is any edge triangle (the pentagon's 5-fold turn maps each onto
    each), and the positive sense around the pentagon's axis is the one in which each
    edge triangle is followed by the corner triangle that shares an edge with another
    pentagon (the solid is chiral, so the sense is combinatorial, not a convention);
  * every face gets a ring, its face distance from the removed pentagon, and an
    azimuth, the angle of its centre about the axis in the positive sense, measured from
    the reference face's centre;
  * pentagons are labelled P0..P11 and triangles T0..T79 by ring from far to near, then
    by azimuth. P0 is the top HQ, P11 the removed pentagon, T75 the reference face.

Leaves out: pieces, distances for shooting and everything else about play (those
belong to the game); multi-planet layouts (each planet is a copy of one board).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import cache
from types import MappingProxyType
from typing import Final

import attrs
import networkx as nx

from rulecheck.geometry.rotations import Vector, cross, dot, scale, sub, unit
from rulecheck.geometry.snub import Polyhedron, snub_dodecahedron

HQ: Final = "hq"
TRIANGLE: Final = "triangle"
PENTAGON_SIDES: Final = 5
ANGLE_DIGITS: Final = 6

REMOVED_PENTAGON: Final = "P11"


@attrs.frozen
class Removal:
    """One reading of which faces around the bottom pentagon are taken off the board."""

    name: str
    description: str
    rings: tuple[int, ...]
    """Rings (face distance from the removed pentagon) whose triangles are all removed."""
    keep_first: str | None = None
    """A corner-triangle class (`edge`, `hq` or `snub`) whose first-labelled member stays on the board."""


REMOVALS: Final = MappingProxyType(
    {
        r.name: r
        for r in (
            Removal("ring15", "the pentagon and the 15 triangles sharing a corner with it (default)", (1, 2)),
            Removal("edge5", "the pentagon and the 5 triangles sharing an edge with it", (1,)),
            Removal("ring14-edge", "ring15 but keep one edge triangle: it is left isolated", (1, 2), "edge"),
            Removal("ring14-hq", "ring15 but keep one corner triangle that touches an HQ: it dangles", (1, 2), "hq"),
            Removal(
                "ring14-snub", "ring15 but keep one corner triangle that touches no HQ: it dangles", (1, 2), "snub"
            ),
        )
    }
)
DEFAULT_REMOVAL: Final = "ring15"


def _face_graph(solid: Polyhedron) -> nx.Graph:
    corners = [frozenset(f) for f in solid.faces]
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(range(len(corners)))
    for i in range(len(corners)):
        for j in range(i + 1, len(corners)):
            if len(corners[i] & corners[j]) == 2:
                graph.add_edge(i, j)
    return graph


def _azimuth_frame(solid: Polyhedron, graph: nx.Graph, removed: int) -> tuple[Vector, Vector, Vector]:
    """The removed pentagon's axis and the two in-plane directions of zero and positive azimuth."""
    axis = unit(solid.face_centre(removed))

    def planar(face: int) -> Vector:
        c = solid.face_centre(face)
        return unit(sub(c, scale(dot(c, axis), axis)))

    reference = min(graph[removed])
    zero = planar(reference)
    positive = cross(axis, zero)
    # The positive sense: from the reference edge triangle, the nearest corner triangle
    # (by angle) must be the one touching another pentagon.
    corner = set(solid.faces[removed])
    corner_triangles = [f for f in graph if f != removed and f not in graph[removed] and corner & set(solid.faces[f])]

    def angle(face: int, pos: Vector) -> float:
        p = planar(face)
        return math.atan2(dot(p, pos), dot(p, zero)) % (2 * math.pi)

    first = min(corner_triangles, key=lambda f: angle(f, positive))
    if not any(len(solid.faces[n]) == PENTAGON_SIDES and n != removed for n in graph[first]):
        positive = scale(-1, positive)
    return axis, zero, positive


@attrs.frozen
class FaceInfo:
    """A face of the solid as the labelling rule sees it."""

    label: str
    kind: str
    ring: int
    azimuth: float
    """Degrees in [0, 360), rounded to ANGLE_DIGITS places."""


@attrs.frozen
class _Labelling:
    solid: Polyhedron
    frame: tuple[Vector, Vector, Vector]
    infos: Mapping[int, FaceInfo]
    """Each face of the solid by its index, with its label."""


@cache
def _labelling() -> _Labelling:
    """The labelling rule applied to the solid once: every face's label, and the frame it used."""
    solid = snub_dodecahedron()
    graph = _face_graph(solid)
    pentagons = [f for f in graph if len(solid.faces[f]) == PENTAGON_SIDES]
    removed = min(pentagons)  # any pentagon: the rotation group acts transitively on them
    axis, zero, positive = _azimuth_frame(solid, graph, removed)
    rings = nx.single_source_shortest_path_length(graph, removed)

    def azimuth(face: int) -> float:
        c = solid.face_centre(face)
        c = sub(c, scale(dot(c, axis), axis))
        if math.hypot(dot(c, zero), dot(c, positive)) < 1e-9:
            return 0.0  # the face centred on the axis (the top HQ)
        return round(math.degrees(math.atan2(dot(c, positive), dot(c, zero))) % 360, ANGLE_DIGITS) % 360

    infos: dict[int, FaceInfo] = {}
    for kind, prefix, faces in (
        (HQ, "P", pentagons),
        (TRIANGLE, "T", [f for f in graph if f not in pentagons]),
    ):
        ordered = sorted(faces, key=lambda f: (-rings[f], azimuth(f)))
        for index, face in enumerate(ordered):
            infos[face] = FaceInfo(f"{prefix}{index}", kind, rings[face], azimuth(face))
    return _Labelling(solid, (axis, zero, positive), MappingProxyType(infos))


@cache
def labelled_faces() -> tuple[tuple[FaceInfo, ...], nx.Graph]:
    """Every face of the solid with its canonical label, and the face graph over those labels."""
    labelling = _labelling()
    infos = labelling.infos
    labelled = nx.relabel_nodes(_face_graph(labelling.solid), {f: info.label for f, info in infos.items()})
    for info in infos.values():
        labelled.nodes[info.label].update(kind=info.kind, ring=info.ring, azimuth=info.azimuth)
    ordered_infos = tuple(sorted(infos.values(), key=lambda i: (i.kind != HQ, int(i.label[1:]))))
    return ordered_infos, nx.freeze(labelled)


@cache
def face_corners() -> Mapping[str, tuple[Vector, ...]]:
    """Every face's corners on the unit sphere, in order around the face, by label."""
    labelling = _labelling()
    solid = labelling.solid
    return MappingProxyType(
        {info.label: tuple(solid.vertices[v] for v in solid.faces[face]) for face, info in labelling.infos.items()}
    )


def label_frame() -> tuple[Vector, Vector, Vector]:
    """The labelling's frame: the unit axis from the centre toward the removed pentagon, and the
    unit directions of azimuth 0° (toward the reference face) and of azimuth 90°."""
    return _labelling().frame


def corner_class(graph: nx.Graph, face: str) -> str | None:
    """For a triangle sharing a corner with the removed pentagon: `edge`, `hq` or `snub`; else None."""
    node = graph.nodes[face]
    if node["kind"] != TRIANGLE or node["ring"] not in (1, 2):
        return None
    if node["ring"] == 1:
        return "edge"
    touches_hq = any(graph.nodes[n]["kind"] == HQ for n in graph[face])
    return "hq" if touches_hq else "snub"


def _corner_triangles(graph: nx.Graph) -> list[str]:
    """The triangles sharing a corner with the removed pentagon, in label order."""
    faces = [f for f in graph if corner_class(graph, f) is not None]
    return sorted(faces, key=lambda f: int(f[1:]))


@attrs.frozen
class Planet:
    """One board: the spaces left on the solid under a removal reading, and their adjacency."""

    removal: str
    graph: nx.Graph = attrs.field(eq=False, repr=False)

    @property
    def spaces(self) -> tuple[str, ...]:
        return tuple(sorted(self.graph, key=label_order))

    @property
    def hq_spaces(self) -> tuple[str, ...]:
        return tuple(s for s in self.spaces if self.graph.nodes[s]["kind"] == HQ)

    @property
    def triangle_spaces(self) -> tuple[str, ...]:
        return tuple(s for s in self.spaces if self.graph.nodes[s]["kind"] == TRIANGLE)


def label_order(label: str) -> tuple[int, int]:
    """Pentagons first, then triangles, each by number: P0..P11, T0..T79."""
    return (label[0] != "P", int(label[1:]))


def removed_faces(removal: str) -> frozenset[str]:
    """The labels of the faces a removal reading takes off the solid."""
    try:
        reading = REMOVALS[removal]
    except KeyError:
        allowed = ", ".join(REMOVALS)
        raise ValueError(f"unknown removal {removal!r}; allowed: {allowed}") from None
    _, graph = labelled_faces()
    removed = {REMOVED_PENTAGON} | {
        f for f in graph if graph.nodes[f]["kind"] == TRIANGLE and graph.nodes[f]["ring"] in reading.rings
    }
    if reading.keep_first is not None:
        kept = next(f for f in _corner_triangles(graph) if corner_class(graph, f) == reading.keep_first)
        removed.discard(kept)
    return frozenset(removed)


@cache
def planet(removal: str = DEFAULT_REMOVAL) -> Planet:
    """The board under a removal reading (see REMOVALS)."""
    _, solid_graph = labelled_faces()
    board: nx.Graph[str] = nx.Graph(solid_graph.subgraph(set(solid_graph) - removed_faces(removal)))
    return Planet(removal=removal, graph=nx.freeze(board))
