"""The cost of checking every property at every step of random play, against play without.

Each game plays the same seeded random games twice in each round: raw (rulecheck.check.play.playthrough's
`random_game`) and watched (a generic.Watch over every property of the game's declaration and
every kind of issue, as `rulecheck fuzz` watches: the strict twin for rule gaps, deadlocks,
self-losses, the outcome at the end, recurring states). Both draw their choices from the same
seeded generator in the same way, so they play the same games: the steps of the two must
agree, and the figure is the median over rounds of the watched CPU time over the raw.

Leaves out: Hypothesis (hypothesis_play.py) and the shrinking and recording of a finding.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable
from typing import Any

from bench import games as chosen
from bench import targets
from bench.rounds import Round, seeded_round, timed_round, totals
from bench.table import row, section
from rulecheck.check.play.playthrough import DEFAULT_MAX_STEPS, random_game
from rulecheck.check.watch.generic import KINDS, Checks
from rulecheck.core.game import CHANCE, TERMINAL, Game
from rulecheck.registry import declaration

ROUNDS = 4


def watched_game(checks: Checks, seed: int, max_steps: int = DEFAULT_MAX_STEPS) -> int:
    """The steps of the random game of `seed` (as `random_game` plays it), every step watched."""
    game = checks.game
    rng = random.Random(seed)
    watch = checks.watch(game.initial_state())
    while watch.steps < max_steps:
        mover = game.to_move(watch.state)
        if mover == TERMINAL:
            break
        if mover == CHANCE:
            outcomes, weights = zip(*game.chance_outcomes(watch.state))
            action = rng.choices(outcomes, weights=[float(w) for w in weights])[0]
        else:
            action = rng.choice(watch.legal)
        before = watch.steps
        watch.step(action)
        if watch.steps == before:  # an engine error: the run cannot go on
            break
    return watch.steps


def players_of(game: Game[Any, Any]) -> tuple[Callable[[int], int], Callable[[int], int]]:
    """(raw, watched) players of one game from a seed, each returning the steps played."""
    checks = Checks(game, tuple(declaration(game.name).properties), KINDS)
    return (lambda seed: len(random_game(game, seed).actions)), (lambda seed: watched_game(checks, seed))


def measure(seconds: float, games: list[str] | None = None) -> dict[str, Any]:
    """For each game, about `seconds` of raw play in ROUNDS rounds, each followed by the same games watched."""
    result: dict[str, Any] = {}
    for name in chosen.names(games):
        game = chosen.campaign_game(name)
        raw_play, watched_play = players_of(game)
        raw: list[Round] = []
        watched: list[Round] = []
        for _ in range(ROUNDS):
            first = sum(r[0] for r in raw)
            raw.append(timed_round(raw_play, seconds / ROUNDS, first))
            watched.append(seeded_round(watched_play, range(first, first + raw[-1][0])))
        ratio = statistics.median(w[2] / r[2] for r, w in zip(raw, watched))
        result[name] = {
            "properties": len(declaration(name).properties),
            "raw": totals(raw),
            "watched": totals(watched),
            "same_games": [r[:2] for r in raw] == [w[:2] for w in watched],
            **targets.ratio_at_most(ratio, targets.CHECKED_RATIO),
        }
    return result


def report(result: dict[str, Any]) -> None:
    section(f"every property checked at every step (same seeded games, median of {ROUNDS} rounds)")
    for name, r in result.items():
        same = "" if r["same_games"] else " (NOT the same games!)"
        row(
            name,
            f"play + {r['properties']} properties + checks",
            f"{r['watched']['steps_per_second']} steps/s{same}",
            f"{r['ratio']}x raw ({r['raw']['steps_per_second']}/s)",
            f"<= {r['target']}x: {r['verdict']}",
        )
