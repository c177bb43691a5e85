"""Exploration speed: Globetrotter states per second, breadth-first from the initial state, with
and without merging states under the board's rotations.

Symmetry costs time per state (each state is encoded once per rotation) and saves states; both
figures are printed, with the depth each search reached within the same state budget.
"""

from __future__ import annotations

from typing import Any

from rulecheck.check.explore import explore
from rulecheck.registry import make_game

STATES = 20_000


def measure() -> dict[str, Any]:
    game = make_game("globetrotter", 2)
    rows = []
    for symmetry in (False, True):
        report = explore(game, depth=None, states=STATES, symmetry=symmetry)
        rows.append(
            {
                "symmetry": symmetry,
                "states": report.states,
                "depth": report.depth,
                "seconds": round(report.seconds, 2),
                "states_per_second": round(report.states_per_second),
            }
        )
    return {"explore": rows}


def report(result: dict[str, Any]) -> None:
    for row in result["explore"]:
        label = "with rotations merged" if row["symmetry"] else "without symmetry"
        print(
            f"{label.ljust(21)}  {row['states']} states to depth {row['depth']} in {row['seconds']}s: "
            f"{row['states_per_second']} states/s"
        )
