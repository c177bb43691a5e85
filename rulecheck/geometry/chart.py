"""The planet on paper: an azimuthal equidistant chart of the solid, centred on the top HQ P0.

Models: where each face lands on a flat map of the planet seen from outside, above P0. A point at
angle θ from P0's centre lands θ (in radians) from the chart's centre, in the direction of its
azimuth (docs/board.md) read as a bearing: 0° straight up, increasing clockwise. So every ring of
the labelling is a band around the centre, the labels of a ring increase clockwise within it,
and the chart is seen as from outside the solid, not mirrored. A face is drawn as its corners'
images joined by straight lines; faces sharing an edge share its two corners, so the chart has no
gaps. Each face's label goes at its centre's image. Distances along a ray from the centre keep
their scale; across it they stretch by θ/sin θ (about 2.4 at the outermost corners of the default
board, 137° from P0).

Leaves out: the removed pentagon P11, whose centre is the point opposite P0, which this projection
spreads over the whole rim (no board keeps it), and drawing (the game's picture module).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import cache
from types import MappingProxyType

import attrs

from rulecheck.geometry.planet import REMOVED_PENTAGON, face_corners, label_frame
from rulecheck.geometry.rotations import Vector, centroid, dot, unit

Point = tuple[float, float]


@attrs.frozen
class ChartFace:
    outline: tuple[Point, ...]
    """The images of the face's corners, in order around it."""
    centre: Point
    """The image of the face's centre, where its label goes."""


def project(point: Vector) -> Point:
    """The chart position of a point of the sphere (any length but 0) other than the one opposite P0."""
    axis, zero, positive = label_frame()
    p = unit(point)
    up = -dot(p, axis)
    x, y = dot(p, positive), dot(p, zero)
    across = math.hypot(x, y)
    if across < 1e-12:
        return (0.0, 0.0)  # P0's centre
    angle = math.atan2(across, up)
    return (angle * x / across, angle * y / across)


@cache
def chart() -> Mapping[str, ChartFace]:
    """Every face of the solid but the removed pentagon, by label, on the chart."""
    return MappingProxyType(
        {
            label: ChartFace(tuple(project(c) for c in corners), project(centroid(corners)))
            for label, corners in face_corners().items()
            if label != REMOVED_PENTAGON
        }
    )
