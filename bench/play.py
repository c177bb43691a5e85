"""Random-play speed: every registered game against python-chess, in one run on one machine.

Each side plays whole random games (uniform over the legal moves; dice and draws by their
odds), and a step is one legal-move generation plus one move applied, so the figures
measure the same work. Each game plays at the fewest players its campaign covers. The
engines take turns in short rounds until the budget is spent, each round timed in process
CPU time, so that a busy or throttled machine slows all alike; each game's ratio is the
median over the rounds of its steps per second over python-chess's in the same round.

Leaves out: checks (checked.py), Hypothesis (hypothesis_play.py), and chess games longer
than MAX_CHESS_PLIES (cut there).
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable
from typing import Any

import chess

from bench import games as chosen
from bench import targets
from bench.rounds import Round, timed_round, totals
from bench.table import row, section
from rulecheck.check.play.playthrough import random_game

MAX_CHESS_PLIES = 400
ROUNDS = 8
"""Rounds in which both engines play, alternately."""


def game_player(name: str) -> Callable[[int], int]:
    """Plays one random game of `name` (at its fewest campaign players) from a seed; its length."""
    game = chosen.campaign_game(name)
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
    names = chosen.names(games)
    players = {name: game_player(name) for name in names}
    ours: dict[str, list[Round]] = {name: [] for name in names}
    theirs: list[Round] = []
    for _ in range(ROUNDS):
        for name in names:
            ours[name].append(timed_round(players[name], seconds / ROUNDS, sum(r[0] for r in ours[name])))
        theirs.append(timed_round(chess_game, seconds / ROUNDS, sum(r[0] for r in theirs)))
    result: dict[str, Any] = {"python_chess": {**totals(theirs), "version": chess.__version__}, "games": {}}
    for name in names:
        ratios = [(o[1] / o[2]) / (t[1] / t[2]) for o, t in zip(ours[name], theirs)]
        ratio = statistics.median(ratios)
        floor = targets.play_floor(name)
        result["games"][name] = {
            **totals(ours[name]),
            "players": chosen.players(name),
            "ratio": round(ratio, 3),
            "ratio_range": [round(min(ratios), 3), round(max(ratios), 3)],
            "target": floor,
            "verdict": targets.at_least(ratio, floor),
        }
    return result


def report(result: dict[str, Any]) -> None:
    theirs = result["python_chess"]
    section(f"random play (CPU time, median of {ROUNDS} alternating rounds)")
    for name, ours in result["games"].items():
        low, high = ours["ratio_range"]
        row(
            name,
            f"random play, {ours['players']} players",
            f"{ours['steps_per_second']} steps/s, {ours['games_per_second']} games/s",
            f"{ours['ratio']}x chess ({low}-{high})",
            f">= {ours['target']}x chess: {ours['verdict']}",
        )
    row(
        "python-chess",
        f"random play (chess {theirs['version']})",
        f"{theirs['steps_per_second']} steps/s, {theirs['games_per_second']} games/s",
        "anchor",
    )
