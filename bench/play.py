"""Random-play speed: Globetrotter against python-chess, in one run on one machine.

Each side plays whole random games (uniform over the legal moves; Globetrotter's dice
by their odds) for the same wall-clock budget, and a step is one legal-move generation
plus one move applied, so the two figures measure the same work.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import chess

from rulecheck.check.play import random_game
from rulecheck.games import make_game

MAX_CHESS_PLIES = 400


def _measure(play_one: Callable[[int], int], seconds: float) -> dict[str, float]:
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += play_one(games)
        games += 1
    elapsed = time.perf_counter() - start
    return {"games": games, "steps": steps, "seconds": round(elapsed, 2), "steps_per_second": round(steps / elapsed)}


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
    ours = _measure(globetrotter_game, seconds)
    theirs = _measure(chess_game, seconds)
    return {
        "globetrotter": ours,
        "python_chess": {**theirs, "version": chess.__version__},
        "ratio": round(ours["steps_per_second"] / theirs["steps_per_second"], 3),
    }


def report(result: dict[str, Any]) -> None:
    ours, theirs = result["globetrotter"], result["python_chess"]
    print(f"globetrotter   {ours['steps_per_second']:>8} steps/s  ({ours['games']} games, {ours['steps']} steps)")
    print(
        f"python-chess   {theirs['steps_per_second']:>8} steps/s  ({theirs['games']} games, {theirs['steps']} steps, "
        f"chess {theirs['version']})"
    )
    print(f"ratio          {result['ratio']:>8}  (goal: 2 or more)")
