"""How the cost of random play grows with a game's length.

Seeded random games of each game (rulecheck.check.play.playthrough's `random_game`), each timed on its own
in CPU time, are put in buckets by length (quartiles of the lengths seen); each bucket reports
its games, mean length, milliseconds per game and steps per second. Cost grows linearly when
every bucket plays at about the same steps per second (targets.LINEAR_SPREAD).

Leaves out: checks and Hypothesis (their own modules), and games longer than the step cap
(cut there, and counted in the last bucket).
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from bench import games as chosen
from bench import targets
from bench.table import note, row, section
from rulecheck.check.play.playthrough import random_game

BUCKETS = 4


def buckets(timings: list[tuple[int, float]]) -> list[dict[str, Any]]:
    """`timings` of (length, seconds) put in BUCKETS buckets by length, shortest first."""
    ordered = sorted(timings)
    size = -(-len(ordered) // BUCKETS)
    found = []
    for start in range(0, len(ordered), size):
        part = ordered[start : start + size]
        steps = sum(length for length, _ in part)
        seconds = sum(s for _, s in part)
        found.append(
            {
                "games": len(part),
                "lengths": [part[0][0], part[-1][0]],
                "steps": steps,
                "mean_length": round(steps / len(part), 1),
                "ms_per_game": round(1000 * seconds / len(part), 3),
                "steps_per_second": round(steps / seconds) if seconds else 0,
            }
        )
    return found


def measure(seconds: float, games: list[str] | None = None) -> dict[str, Any]:
    """For each game, random games from seed 0 on for about `seconds` of CPU time."""
    result: dict[str, Any] = {}
    for name in chosen.names(games):
        game = chosen.campaign_game(name)
        timings: list[tuple[int, float]] = []
        began = time.process_time()
        while time.process_time() - began < seconds or len(timings) < BUCKETS:
            start = time.process_time()
            length = len(random_game(game, len(timings)).actions)
            timings.append((length, time.process_time() - start))
        found = buckets(timings)
        result[name] = {
            "games": len(timings),
            "steps": sum(length for length, _ in timings),
            "lengths": [length for length, _ in timings],
            "buckets": found,
            "median_length": statistics.median(length for length, _ in timings),
            "growth": targets.growth([b["steps_per_second"] for b in found]),
        }
    return result


def report(result: dict[str, Any]) -> None:
    section("how play's cost grows with game length (random games in length quartiles)")
    for name, r in result.items():
        per_bucket = ", ".join(
            f"{b['lengths'][0]}-{b['lengths'][1]} steps: {b['ms_per_game']} ms ({b['steps_per_second']}/s)"
            for b in r["buckets"]
        )
        row(name, f"ms/game by length, {r['games']} games", f"median {r['median_length']} steps", "", r["growth"])
        note(per_bucket)
