"""Globetrotter: rovers, fortifications and buildings on a snub-dodecahedron planet."""

from rulecheck.games.globetrotter.game import Globetrotter

__all__ = ["Globetrotter"]
