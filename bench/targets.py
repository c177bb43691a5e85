"""The targets of issues 17 ("every figure beside its peer") and 29 (the same speed in pure Python:
random play at least 2x python-chess for Globetrotter and 1.5x for the others), in one place, and
how a figure is judged.

Each target is a bound on one figure of the benchmark: a floor (at least) or a ceiling (at
most). `verdict` says "met" or "NOT met"; a figure with no target is shown without one.

Leaves out: the figures themselves (each measurement's module) and how they are printed (table.py).
"""

from __future__ import annotations

from typing import Any, Final

PLAY_VS_CHESS: Final = {"globetrotter": 2.0, "globot-time-force": 1.5, "mechanica": 1.5}
"""Floor of each game's random-play steps per second over python-chess's, in the same rounds."""
PLAY_VS_CHESS_OTHER: Final = 1.0
"""The floor of a game not listed in PLAY_VS_CHESS."""
CHECKED_RATIO: Final = 2.0
"""Ceiling of the cost per step of play with every property checked over play without."""
HYPOTHESIS_RATIO: Final = 5.0
"""Ceiling of the cost per step of Hypothesis-driven play over raw random play."""
EXPLORE_MIDGAME_STATES_PER_SECOND: Final = 20_000
"""Floor of Globetrotter's distinct states per second, without symmetry, from a mid-game position."""
EXPLORE_MIDGAME_GAME: Final = "globetrotter"
SYMMETRY_RATIO: Final = 2.0
"""Ceiling of the time per state with the symmetries merged over without."""
PROOF_SECONDS: Final = 1.0
"""Ceiling of each proof's seconds."""
CAMPAIGN_GAMES: Final = 10_000
CAMPAIGN_MEGABYTES: Final = 500.0
"""Ceiling of the peak memory of a CAMPAIGN_GAMES-game fuzz campaign."""
FLAT_MEMORY: Final = 0.10
"""Memory counts as flat when the largest campaign's peak is within this share above the smallest's."""
LINEAR_SPREAD: Final = 1.5
"""Cost counts as linear when the rate (steps or states per second) of every bucket is within
this factor of every other's."""

BALANCE_GAMES: Final = 1000
BALANCE_SECONDS: Final = 300.0
"""Ceiling of the wall-clock seconds of a balance report of BALANCE_GAMES random games at 2 players
on 2 local workers (issue 33); a run of fewer games is not judged."""


def at_least(value: float, floor: float) -> str:
    return "met" if value >= floor else "NOT met"


def at_most(value: float, ceiling: float) -> str:
    return "met" if value <= ceiling else "NOT met"


def ratio_at_most(ratio: float, ceiling: float) -> dict[str, Any]:
    """A cost ratio judged against its ceiling: the figure, the target and the verdict."""
    return {"ratio": round(ratio, 3), "target": ceiling, "verdict": at_most(ratio, ceiling)}


def play_floor(game: str) -> float:
    return PLAY_VS_CHESS.get(game, PLAY_VS_CHESS_OTHER)


def growth(rates: list[float]) -> str:
    """'linear' when the rates of the buckets stay within LINEAR_SPREAD of each other, else how far apart."""
    rates = [r for r in rates if r > 0]
    if len(rates) < 2:
        return "one bucket only"
    spread = max(rates) / min(rates)
    return "linear" if spread <= LINEAR_SPREAD else f"NOT linear (rates {spread:.1f}x apart)"
