"""The snub dodecahedron, computed from its symmetry.

Models: the solid as the orbit of one seed point under the 60 rotations of the
icosahedron (Wythoff's snub construction). The seed lies in the spherical triangle
spanned by a 5-fold, a 3-fold and a 2-fold axis and is solved for (Newton's method)
so that turning it by 72° about the 5-fold axis, by 120° about the 3-fold axis and by
180° about the 2-fold axis moves it by the same distance: those three moves are the
edges of the solid. Edges are the vertex pairs at that shortest distance; faces are
the supporting planes of the convex hull through two edges at a vertex.

Leaves out: the mirror-image solid (the face graph of either hand is the same up to
isomorphism) and any scaling: vertices lie on the unit sphere.
"""

from __future__ import annotations

import math
from functools import cache
from itertools import combinations

import attrs

from rulecheck.geometry.rotations import (
    FIVE_FOLD_AXIS,
    THREE_FOLD_AXIS,
    TWO_FOLD_AXIS,
    Vector,
    add,
    apply,
    centroid,
    cross,
    dot,
    icosahedral_rotations,
    norm,
    scale,
    sub,
    unit,
)

_TOLERANCE = 1e-9

# Half the chord factor 2·sin(θ/2) for the three generating turns: a point at angular
# distance α from an axis moves by 2·sin(θ/2)·sin(α) when turned by θ about it.
_HALF_CHORDS = (
    (FIVE_FOLD_AXIS, math.sin(math.pi / 5)),
    (THREE_FOLD_AXIS, math.sin(math.pi / 3)),
    (TWO_FOLD_AXIS, 1.0),
)


def _seed_point(a: float, b: float) -> Vector:
    """A point of the fundamental triangle, from barycentric weights on its three axes."""
    return unit(add(add(scale(a, FIVE_FOLD_AXIS), scale(b, THREE_FOLD_AXIS)), scale(1 - a - b, TWO_FOLD_AXIS)))


def _edge_mismatch(a: float, b: float) -> tuple[float, float]:
    v = _seed_point(a, b)
    lengths = [k * math.sqrt(max(0.0, 1 - dot(v, axis) ** 2)) for axis, k in _HALF_CHORDS]
    return (lengths[0] - lengths[1], lengths[1] - lengths[2])


def snub_seed() -> Vector:
    """The seed vertex: equal moves under the 5-fold, 3-fold and 2-fold generating turns."""
    a, b, h = 1 / 3, 1 / 3, 1e-7
    for _ in range(50):
        f1, f2 = _edge_mismatch(a, b)
        if abs(f1) + abs(f2) < 1e-15:
            break
        fa1, fa2 = _edge_mismatch(a + h, b)
        fb1, fb2 = _edge_mismatch(a, b + h)
        j11, j12, j21, j22 = (fa1 - f1) / h, (fb1 - f1) / h, (fa2 - f2) / h, (fb2 - f2) / h
        det = j11 * j22 - j12 * j21
        a -= (f1 * j22 - f2 * j12) / det
        b -= (j11 * f2 - j21 * f1) / det
    else:
        raise ArithmeticError("the snub seed did not converge")
    if not (0 < a < 1 and 0 < b < 1 and a + b < 1):
        raise ArithmeticError(f"the snub seed left the fundamental triangle: weights {a}, {b}")
    return _seed_point(a, b)


@attrs.frozen
class Polyhedron:
    """A convex polyhedron: unit-sphere vertices, edges as vertex-index pairs, faces as vertex-index cycles."""

    vertices: tuple[Vector, ...]
    edges: frozenset[frozenset[int]]
    faces: tuple[tuple[int, ...], ...]

    def face_centre(self, face: int) -> Vector:
        return centroid(self.vertices[i] for i in self.faces[face])


def _orbit(seed: Vector) -> tuple[Vector, ...]:
    points: list[Vector] = []
    for g in icosahedral_rotations():
        p = apply(g, seed)
        if all(norm(sub(p, q)) > _TOLERANCE for q in points):
            points.append(p)
    return tuple(points)


def _shortest_edges(points: tuple[Vector, ...]) -> frozenset[frozenset[int]]:
    distances = {(i, j): norm(sub(points[i], points[j])) for i, j in combinations(range(len(points)), 2)}
    shortest = min(distances.values())
    return frozenset(frozenset(pair) for pair, d in distances.items() if d - shortest < _TOLERANCE)


def _cyclic_order(corners: list[int], points: tuple[Vector, ...], normal: Vector) -> tuple[int, ...]:
    """Corners sorted counter-clockwise seen from outside, starting from the lowest index."""
    centre = centroid(points[c] for c in corners)
    reference = sub(points[corners[0]], centre)
    other = cross(normal, reference)

    def angle(c: int) -> float:
        d = sub(points[c], centre)
        return math.atan2(dot(d, other), dot(d, reference)) % (2 * math.pi)

    ordered = sorted(corners, key=angle)
    start = ordered.index(min(ordered))
    return tuple(ordered[start:] + ordered[:start])


def _hull_faces(points: tuple[Vector, ...], edges: frozenset[frozenset[int]]) -> tuple[tuple[int, ...], ...]:
    """Faces of the convex hull: planes through a vertex and two of its edges with every point on one side."""
    neighbours: dict[int, list[int]] = {i: [] for i in range(len(points))}
    for edge in edges:
        i, j = sorted(edge)
        neighbours[i].append(j)
        neighbours[j].append(i)
    faces: dict[frozenset[int], tuple[int, ...]] = {}
    for v, around in neighbours.items():
        for u, w in combinations(around, 2):
            normal = unit(cross(sub(points[u], points[v]), sub(points[w], points[v])))
            if dot(normal, points[v]) < 0:
                normal = scale(-1, normal)
            offset = dot(normal, points[v])
            heights = [dot(normal, p) - offset for p in points]
            if max(heights) > _TOLERANCE:
                continue
            corners = [i for i, h in enumerate(heights) if h > -_TOLERANCE]
            faces.setdefault(frozenset(corners), _cyclic_order(corners, points, normal))
    return tuple(sorted(faces.values()))


@cache
def snub_dodecahedron() -> Polyhedron:
    """The snub dodecahedron: 60 vertices, 150 edges, 92 faces (the tests check these)."""
    points = _orbit(snub_seed())
    edges = _shortest_edges(points)
    return Polyhedron(vertices=points, edges=edges, faces=_hull_faces(points, edges))
