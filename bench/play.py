"""Random-play speed: every registered game against python-chess, in one run on one machine.

Each side plays whole random games (uniform over the legal moves; dice and draws by their
odds), and a step is one legal-move generation plus one move applied, so the figures
measure the same work. Each game plays at the fewest players its campaign covers. The
engines take turns in short rounds until the budget is spent, each round timed in process
CPU time, so that a busy or throttled machine slows all alike; each game's ratio is the
median over the rounds of its steps per second over python-chess's in the same round.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import chess

from rulecheck.check.play import random_game
from rulecheck.registry import DECLARATIONS, make_game

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


def game_player(name: str) -> Callable[[int], int]:
    """Plays one random game of `name` (at its fewest campaign players) from a seed; its length."""
    game = make_game(name, DECLARATIONS[name].game.campaign_players[0])
    return lambda seed: len(random_game(game, seed).actions)


def chess_game(seed: int) -> int:
    rng = random.Random(seed)
    board = chess.Board()
    plies = 0
    while not board.is_game_over(claim_draw=False) and plies < MAX_CHESS_PLIES:
        board.push(rng.choice(list(board.legal_moves)))
        plies += 1
    return plies


def measure(seconds: float, games: list[str] | None = None) -> dict[str, Any]:
    """Every game (or `games`) and python-chess for about `seconds` of CPU time each, in ROUNDS
    alternating rounds."""
    names = sorted(DECLARATIONS) if games is None else games
    players = {name: game_player(name) for name in names}
    ours: dict[str, list[tuple[int, int, float]]] = {name: [] for name in names}
    theirs: list[tuple[int, int, float]] = []
    for _ in range(ROUNDS):
        for name in names:
            ours[name].append(_round(players[name], seconds / ROUNDS, sum(r[0] for r in ours[name])))
        theirs.append(_round(chess_game, seconds / ROUNDS, sum(r[0] for r in theirs)))
    result: dict[str, Any] = {"python_chess": {**_totals(theirs), "version": chess.__version__}, "games": {}}
    for name in names:
        ratios = [(o[1] / o[2]) / (t[1] / t[2]) for o, t in zip(ours[name], theirs)]
        result["games"][name] = {
            **_totals(ours[name]),
            "players": DECLARATIONS[name].game.campaign_players[0],
            "ratio": round(statistics.median(ratios), 3),
            "ratio_range": [round(min(ratios), 3), round(max(ratios), 3)],
        }
    return result


def report(result: dict[str, Any]) -> None:
    theirs = result["python_chess"]
    width = max(len(name) for name in [*result["games"], "python-chess"])
    for name, ours in result["games"].items():
        low, high = ours["ratio_range"]
        print(
            f"{name.ljust(width)}  {ours['steps_per_second']:>8} steps/s  ({ours['players']} players, "
            f"{ours['games']} games, {ours['steps']} steps); ratio {ours['ratio']} (median of {ROUNDS} rounds, "
            f"{low} to {high}; floor 1, goal 2)"
        )
    print(
        f"{'python-chess'.ljust(width)}  {theirs['steps_per_second']:>8} steps/s  ({theirs['games']} games, "
        f"{theirs['steps']} steps, chess {theirs['version']})"
    )
