"""Hypothesis-driven play against raw random play of the same game.

A Hypothesis test `@given(st.data())` plays whole games, drawing how the players lean
(play.draw_swarm) and then every step with play.draw_action, as rulecheck/check/fuzz.py
does, but with no checks and no shrinking (the generate phase only), so the figure is
Hypothesis's own cost per step. Every step applied is counted, also in examples Hypothesis
gives up on before they end (a choice buffer that overruns): `started` and `finished` say how
many examples began and how many played their game to the end or to the step cap. Rounds
alternate with raw random play (random_game) of about the same number of games; the ratio is
the median over rounds of the CPU time per step of the two.

Leaves out: the checks (checked.py) and shrinking (only a failing example is shrunk).
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from bench import games as chosen
from bench import targets
from bench.rounds import Round, per_step, timed_round, totals
from bench.table import row, section
from rulecheck.check.play import DEFAULT_MAX_STEPS, draw_action, draw_swarm, random_game
from rulecheck.core.game import Game

ROUNDS = 4


def generate_only(examples: int, **more: Any) -> settings:
    """Hypothesis settings for `examples` examples, generated only (nothing shrunk, saved or timed out)."""
    return settings(
        max_examples=examples,
        database=None,
        deadline=None,
        phases=(Phase.generate,),
        verbosity=Verbosity.quiet,
        suppress_health_check=list(HealthCheck),
        **more,
    )


def campaign(game: Game[Any, Any], examples: int, seed: int, max_steps: int = DEFAULT_MAX_STEPS) -> dict[str, Any]:
    """`examples` Hypothesis examples of whole games from `seed`: what they played, and in what CPU time."""
    counted = {"started": 0, "finished": 0, "steps": 0, "finished_steps": 0}
    lengths: list[int] = []

    def play(data: st.DataObject) -> None:
        counted["started"] += 1
        state = game.initial_state()
        swarm = draw_swarm(data.draw, game)
        steps = 0
        while steps < max_steps:
            action = draw_action(data.draw, game, state, swarm)
            if action is None:
                break
            state = game.apply(state, action)
            steps += 1
            counted["steps"] += 1
        counted["finished"] += 1
        counted["finished_steps"] += steps
        lengths.append(steps)

    test = hypothesis_seed(seed)(generate_only(examples)(given(st.data())(play)))
    start = time.process_time()
    test()
    return {**counted, "seconds": time.process_time() - start, "lengths": lengths}


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
        ratios = [(h["seconds"] / h["steps"]) / per_step(r) for r, h in zip(raw, runs)]
        ratio = statistics.median(ratios)
        steps = sum(h["steps"] for h in runs)
        hyp_seconds = sum(h["seconds"] for h in runs)
        result[name] = {
            "raw": totals(raw),
            "hypothesis": {
                "examples_asked": sum(max(r[0], 1) for r in raw),
                "started": sum(h["started"] for h in runs),
                "finished": sum(h["finished"] for h in runs),
                "steps": steps,
                "finished_steps": sum(h["finished_steps"] for h in runs),
                "lengths": [n for h in runs for n in h["lengths"]],
                "seconds": round(hyp_seconds, 3),
                "steps_per_second": round(steps / hyp_seconds) if hyp_seconds else 0,
            },
            **targets.ratio_at_most(ratio, targets.HYPOTHESIS_RATIO),
        }
    return result


def report(result: dict[str, Any]) -> None:
    section(f"Hypothesis-driven play, @given(st.data()) + draw_action (median of {ROUNDS} rounds)")
    for name, r in result.items():
        h = r["hypothesis"]
        uncounted = h["steps"] - h["finished_steps"]
        row(
            name,
            f"{h['finished']} of {h['started']} examples played out",
            f"{h['steps_per_second']} steps/s",
            f"{r['ratio']}x raw ({r['raw']['steps_per_second']}/s)",
            f"<= {r['target']}x: {r['verdict']}",
        )
        if uncounted:
            row("", f"  steps in abandoned examples: {uncounted}", f"of {h['steps']}")
