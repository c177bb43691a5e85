"""Proof times: every invariant of every game that has symbolic systems, proved with Z3 under the defaults.

Each proof is timed on its own (rulecheck.check.proofs.prove's `prove`: the prover alone, without the
refinement check against play), ROUNDS times, in CPU time (Z3 runs in this process; the
prover's own figure is wall-clock, which a busy machine inflates, and the JSON keeps it too);
its worst time is its figure, and the target is at most targets.PROOF_SECONDS each. A game's
systems are those its declaration builds for the game at its fewest campaign players.

Leaves out: the refinement check and the proofs under other option values or player counts
(`rulecheck verify` runs those).
"""

from __future__ import annotations

import time
from typing import Any

from bench import games as chosen
from bench import targets
from bench.table import row, section
from rulecheck.check.proofs.prove import prove
from rulecheck.registry import declaration

ROUNDS = 3


def measure(rounds: int = ROUNDS, games: list[str] | None = None) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for name in chosen.names(games):
        game = chosen.campaign_game(name)
        rows = []
        for system in declaration(name).symbolic_systems(game):
            results, times = [], []
            for _ in range(rounds):
                start = time.process_time()
                results.append(prove(system))
                times.append(time.process_time() - start)
            seconds = max(times)
            rows.append(
                {
                    "property": system.property,
                    "status": results[0].status,
                    "seconds": round(seconds, 3),
                    "wall_seconds": round(max(r.seconds for r in results), 3),
                    "verdict": targets.at_most(seconds, targets.PROOF_SECONDS),
                }
            )
        if rows:
            result[name] = {"proofs": rows, "slowest": max(r["seconds"] for r in rows), "rounds": rounds}
    return result


def report(result: dict[str, Any]) -> None:
    section("rulecheck prove, CPU seconds per property (worst of its rounds)")
    for name, entry in result.items():
        for proof in entry["proofs"]:
            row(
                name,
                proof["property"],
                f"{proof['seconds']:.3f}s {proof['status']}",
                "",
                f"< {targets.PROOF_SECONDS}s: {proof['verdict']}",
            )
