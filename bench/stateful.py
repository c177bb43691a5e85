"""Anchor: a plain Hypothesis `RuleBasedStateMachine` playing a game, and how far each run gets.

The machine holds a state (an @initialize rule sets the initial state); its @rule `step`, under
a @precondition that the state is not terminal, draws the next action with st.data() and
play.draw_action (an index into the legal actions, or a chance outcome by its odds) and
applies it; at a terminal state a second @rule starts a new game (without one, Hypothesis
refuses a state where no rule applies), so a run plays games back to back. The step count per
run is set to the step cap of a campaign (play.DEFAULT_MAX_STEPS), so what stops a game short
of its end is Hypothesis itself: each game's steps are recorded, and whether it finished within
its run. Generate phase only.

Leaves out: checks (the machine has no invariants) and shrinking.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule, run_state_machine_as_test

from bench import games as chosen
from bench.table import row, section
from rulecheck.check.play.playthrough import DEFAULT_MAX_STEPS
from rulecheck.check.play.strategies import draw_action
from rulecheck.core.game import Game


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


def machine(game: Game[Any, Any], runs: list[list[Any]]) -> type[RuleBasedStateMachine]:
    """The machine class playing `game`; each game appends [steps, finished] to `runs`."""

    class Play(RuleBasedStateMachine):
        state: Any = None

        @initialize()
        def start(self) -> None:
            self.state = game.initial_state()
            runs.append([0, game.is_terminal(self.state)])

        @precondition(lambda self: self.state is not None and not game.is_terminal(self.state))
        @rule(data=st.data())
        def step(self, data: st.DataObject) -> None:
            action = draw_action(data.draw, game, self.state)
            assert action is not None, "a state that is not terminal offers an action"
            self.state = game.apply(self.state, action)
            runs[-1][0] += 1
            runs[-1][1] = game.is_terminal(self.state)

        @precondition(lambda self: self.state is not None and game.is_terminal(self.state))
        @rule()
        def again(self) -> None:
            self.start()

    return Play


def measure(examples: int, games: list[str] | None = None) -> dict[str, Any]:
    """For each game, `examples` runs of the machine."""
    result: dict[str, Any] = {}
    for name in chosen.names(games):
        game = chosen.campaign_game(name)
        runs: list[list[Any]] = []
        options = generate_only(examples, stateful_step_count=DEFAULT_MAX_STEPS, derandomize=True)
        start = time.process_time()
        run_state_machine_as_test(machine(game, runs), settings=options)
        seconds = time.process_time() - start
        steps = [n for n, _ in runs]
        result[name] = {
            "examples": examples,
            "games": len(runs),
            "finished": sum(1 for _, done in runs if done),
            "steps": sum(steps),
            "steps_per_game": steps,
            "median_steps": statistics.median(steps) if steps else 0,
            "max_steps": max(steps, default=0),
            "max_finished_steps": max((n for n, done in runs if done), default=0),
            "seconds": round(seconds, 3),
            "steps_per_second": round(sum(steps) / seconds) if seconds else 0,
        }
    return result


def report(result: dict[str, Any]) -> None:
    section(f"anchor: plain Hypothesis RuleBasedStateMachine (stateful_step_count {DEFAULT_MAX_STEPS})")
    for name, r in result.items():
        row(
            name,
            f"{r['finished']} of {r['games']} games end ({r['examples']} runs)",
            f"{r['steps_per_second']} steps/s",
            f"median {r['median_steps']}, max {r['max_steps']} steps/game",
        )
