"""Random-play speed: Globetrotter against python-chess, in one run on one machine.

Each side plays whole random games (uniform over the legal moves; Globetrotter's dice
by their odds), and a step is one legal-move generation plus one move applied, so the
two figures measure the same work. The two engines take turns in short rounds until the
budget is spent, each round timed in process CPU time, so that a busy or throttled
machine slows both alike; the ratio reported is the median of the rounds' ratios.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import chess

from rulecheck.check.play import random_game
from rulecheck.registry import make_game

MAX_CHESS_PLIES = 400
ROUNDS = 8
"""Rounds in which both engines play, alternately."""


def _round(play_one: Callable[[int], int], seconds: float, first_seed: int) -> tuple[int, int, float]:
    """Games, steps and CPU seconds of one round of at least `seconds` of CPU time."""
    steps = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        steps += play_one(first_seed + games)
        games += 1
    return games, steps, time.process_time() - start


def _totals(rounds: list[tuple[int, int, float]]) -> dict[str, float]:
    games = sum(r[0] for r in rounds)
    steps = sum(r[1] for r in rounds)
    seconds = sum(r[2] for r in rounds)
    return {"games": games, "steps": steps, "seconds": round(seconds, 2), "steps_per_second": round(steps / seconds)}


def globetrotter_game(seed: int) -> int:
    return len(random_game(make_game("globetrotter", 2), seed).actions)


def chess_game(seed: int) -> int:
    rng = random.Random(seed)
    board = chess.Board()
    plies = 0
    while not board.is_game_over(claim_draw=False) and plies < MAX_CHESS_PLIES:
        board.push(rng.choice(list(board.legal_moves)))
        plies += 1
    return plies


def measure(seconds: float) -> dict[str, Any]:
    """Both engines for about `seconds` of CPU time each, in ROUNDS alternating rounds."""
    ours: list[tuple[int, int, float]] = []
    theirs: list[tuple[int, int, float]] = []
    for _ in range(ROUNDS):
        ours.append(_round(globetrotter_game, seconds / ROUNDS, sum(r[0] for r in ours)))
        theirs.append(_round(chess_game, seconds / ROUNDS, sum(r[0] for r in theirs)))
    ratios = [(o[1] / o[2]) / (t[1] / t[2]) for o, t in zip(ours, theirs)]
    return {
        "globetrotter": _totals(ours),
        "python_chess": {**_totals(theirs), "version": chess.__version__},
        "ratio": round(statistics.median(ratios), 3),
        "ratio_range": [round(min(ratios), 3), round(max(ratios), 3)],
    }


def report(result: dict[str, Any]) -> None:
    ours, theirs = result["globetrotter"], result["python_chess"]
    print(f"globetrotter   {ours['steps_per_second']:>8} steps/s  ({ours['games']} games, {ours['steps']} steps)")
    print(
        f"python-chess   {theirs['steps_per_second']:>8} steps/s  ({theirs['games']} games, {theirs['steps']} steps, "
        f"chess {theirs['version']})"
    )
    low, high = result["ratio_range"]
    print(f"ratio          {result['ratio']:>8}  (median of {ROUNDS} rounds, {low} to {high}; floor 1, goal 2)")
