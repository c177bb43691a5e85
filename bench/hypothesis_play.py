"""Hypothesis-driven play against raw random play of the same game.

The campaign is `rulecheck fuzz`'s own (check.fuzz.fuzz) with no property and no kind of issue
watched, so the figure is what Hypothesis adds to play: its chunks of runs, drawing how the
players lean and every step's index, and counting. Every step applied counts toward the cost,
also in games Hypothesis cuts short or plays again (`played`), beside the games that count
toward the campaign (`counted`). Rounds alternate with raw random play (random_game) of about
the same number of games; the ratio is the median over rounds of the CPU time per step of the
two.

Leaves out: the checks (checked.py) and shrinking (nothing is watched, so nothing is shrunk).
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from bench import games as chosen
from bench import targets
from bench.rounds import Round, per_step, timed_round, totals
from bench.table import row, section
from rulecheck.check.play.playthrough import random_game
from rulecheck.check.search.fuzz import fuzz
from rulecheck.core.game import Game

ROUNDS = 4


def campaign(game: Game[Any, Any], games: int, seed: int) -> dict[str, Any]:
    """A fuzz campaign of `games` games from `seed`, nothing watched: what it played, in what CPU time."""
    start = time.process_time()
    report = fuzz(game, (), games=games, seed=seed, kinds=frozenset())
    return {
        "counted_games": report.games,
        "counted_steps": report.steps,
        "played_games": report.played_games,
        "played_steps": report.played_steps,
        "seconds": time.process_time() - start,
    }


def measure(seconds: float, games: list[str] | None = None) -> dict[str, Any]:
    """For each game, ROUNDS rounds of about `seconds / ROUNDS` of raw play, each followed by a
    Hypothesis campaign of as many examples as raw play finished games."""
    result: dict[str, Any] = {}
    for name in chosen.names(games):
        game = chosen.campaign_game(name)
        raw: list[Round] = []
        runs: list[dict[str, Any]] = []
        for number in range(ROUNDS):
            raw.append(
                timed_round(lambda s: len(random_game(game, s).actions), seconds / ROUNDS, sum(r[0] for r in raw))
            )
            runs.append(campaign(game, max(raw[-1][0], 1), seed=number))
        ratios = [(h["seconds"] / h["played_steps"]) / per_step(r) for r, h in zip(raw, runs)]
        ratio = statistics.median(ratios)
        steps = sum(h["played_steps"] for h in runs)
        hyp_seconds = sum(h["seconds"] for h in runs)
        result[name] = {
            "raw": totals(raw),
            "hypothesis": {
                **{key: sum(h[key] for h in runs) for key in ("counted_games", "counted_steps", "played_games")},
                "played_steps": steps,
                "seconds": round(hyp_seconds, 3),
                "steps_per_second": round(steps / hyp_seconds) if hyp_seconds else 0,
            },
            **targets.ratio_at_most(ratio, targets.HYPOTHESIS_RATIO),
        }
    return result


def report(result: dict[str, Any]) -> None:
    section(f"Hypothesis-driven play: rulecheck fuzz with nothing watched (median of {ROUNDS} rounds)")
    for name, r in result.items():
        h = r["hypothesis"]
        row(
            name,
            f"{h['counted_games']} games counted, {h['played_games']} played",
            f"{h['steps_per_second']} steps/s",
            f"{r['ratio']}x raw ({r['raw']['steps_per_second']}/s)",
            f"<= {r['target']}x: {r['verdict']}",
        )
        row("", f"  steps in games not counted: {h['played_steps'] - h['counted_steps']}", f"of {h['played_steps']}")
