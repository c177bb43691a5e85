"""Proof times: every Globetrotter invariant proved with Z3 under the defaults.

Each proof is timed on its own (the prover alone, without the refinement check against
play); the goal is at most 1 second each on the project's 2-core machine.
"""

from __future__ import annotations

from typing import Any

from rulecheck.check.prove import prove
from rulecheck.registry import declaration, make_game

GOAL_SECONDS = 1.0
ROUNDS = 3


def measure() -> dict[str, Any]:
    game = make_game("globetrotter", 2)
    rows = []
    for system in declaration("globetrotter").symbolic_systems(game):
        results = [prove(system) for _ in range(ROUNDS)]
        rows.append(
            {
                "property": system.property,
                "status": results[0].status,
                "seconds": round(max(r.seconds for r in results), 3),
            }
        )
    return {"proofs": rows, "slowest": max(r["seconds"] for r in rows), "goal_seconds": GOAL_SECONDS}


def report(result: dict[str, Any]) -> None:
    for row in result["proofs"]:
        print(f"{row['status']:8} {row['seconds']:6.3f}s  {row['property']}")
    verdict = "met" if result["slowest"] <= GOAL_SECONDS else "NOT met"
    print(f"slowest proof {result['slowest']:.3f}s (worst of {ROUNDS} runs); goal {GOAL_SECONDS}s each: {verdict}")
