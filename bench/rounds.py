"""Timing in CPU time: rounds of whole games until a budget is spent, and their totals.

A round plays games from consecutive seeds until at least its CPU seconds (process time) are
spent, so that a busy or throttled machine slows every side of a comparison alike when the
sides take turns in short rounds.

Leaves out: what a game is (the caller's function from a seed to the steps it played).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

Round = tuple[int, int, float]
"""Games, steps and CPU seconds of one round."""


def timed_round(play_one: Callable[[int], int], seconds: float, first_seed: int) -> Round:
    """Games from `first_seed` on until at least `seconds` of CPU time are spent."""
    steps = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        steps += play_one(first_seed + games)
        games += 1
    return games, steps, time.process_time() - start


def seeded_round(play_one: Callable[[int], int], seeds: range) -> Round:
    """Exactly the games of `seeds`."""
    start = time.process_time()
    steps = sum(play_one(seed) for seed in seeds)
    return len(seeds), steps, time.process_time() - start


def totals(rounds: list[Round]) -> dict[str, Any]:
    games = sum(r[0] for r in rounds)
    steps = sum(r[1] for r in rounds)
    seconds = sum(r[2] for r in rounds)
    return {
        "games": games,
        "steps": steps,
        "seconds": round(seconds, 3),
        "steps_per_second": round(steps / seconds) if seconds else 0,
        "games_per_second": round(games / seconds, 2) if seconds else 0,
    }


def per_step(r: Round) -> float:
    """CPU seconds per step of a round."""
    return r[2] / r[1] if r[1] else float("inf")
