"""Fuzzing: Hypothesis plays random whole games with every property checked at every step.

Models: a campaign of N games from one seed. Each game is a Hypothesis example that
first draws verbs its players avoid while they can (swarm testing: rare rules get their
chance in games that skip the common moves), then an action at every step
(play.draw_action) until the
game ends or a step cap is hit, checking every promised property after every step.
When a property fails, Hypothesis shrinks the game to a short one that still breaks it,
and that game becomes a replayable trace; the campaign then runs again without that
property, so each broken property is reported once with its own minimal trace. Games,
steps and clause coverage are counted over the last campaign, the complete one unless
every property broke.

Leaves out: exhaustive search (explore) and proofs (prove).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import attrs
from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.errors import Frozen, StopTest

from rulecheck.check.play import DEFAULT_MAX_STEPS, draw_action, draw_swarm
from rulecheck.check.properties import Property, failures, promised
from rulecheck.core.clauses import coverage
from rulecheck.core.game import Game
from rulecheck.core.notation import Action
from rulecheck.core.trace import Trace, record


@attrs.frozen
class Violation:
    property: str
    clauses: tuple[str, ...]
    message: str
    trace: Trace


@attrs.frozen
class FuzzReport:
    setup: dict[str, Any]
    games: int
    steps: int
    capped: int
    """Games stopped by the step cap before they ended."""
    violations: tuple[Violation, ...]
    clause_counts: dict[str, int]
    clause_ids: tuple[str, ...]

    @property
    def unreached(self) -> tuple[str, ...]:
        return tuple(c for c in self.clause_ids if not self.clause_counts.get(c))

    def to_data(self) -> dict[str, Any]:
        covered = len(self.clause_ids) - len(self.unreached)
        return {
            "setup": self.setup,
            "games": self.games,
            "steps": self.steps,
            "capped": self.capped,
            "violations": [
                {
                    "property": v.property,
                    "clauses": list(v.clauses),
                    "message": v.message,
                    "steps": len(v.trace.actions),
                    "trace": v.trace.to_data(),
                }
                for v in self.violations
            ],
            "coverage": {"covered": covered, "total": len(self.clause_ids), "never_reached": list(self.unreached)},
        }


class _PropertyFailed(Exception):
    pass


ENGINE_RAISED = "engine-raised-an-error"
"""The violation name for any exception the engine raises during play: a legal action must apply."""


def fuzz(
    game: Game[Any, Any],
    properties: Sequence[Property],
    games: int,
    seed: int,
    max_steps: int = DEFAULT_MAX_STEPS,
) -> FuzzReport:
    """Play `games` random games of `game` from `seed`, checking every promised property."""
    remaining = list(promised(game, properties))
    violations: list[Violation] = []
    while True:
        totals = Counter[str]()
        last_failure: list[tuple[Property | None, str, list[Action]]] = []

        def play(data: st.DataObject) -> None:
            state = game.initial_state()
            actions: list[Action] = []

            def check(found: list[tuple[Property, str]]) -> None:
                if found:
                    last_failure.append((found[0][0], found[0][1], list(actions)))
                    raise _PropertyFailed(found[0][1])

            avoid = draw_swarm(data.draw, game)
            check(failures(game, remaining, None, None, state))
            for _ in range(max_steps):
                try:
                    action = draw_action(data.draw, game, state, avoid)
                    if action is None:
                        break
                    after = game.apply(state, action)
                except (StopTest, Frozen):  # Hypothesis's own control flow
                    raise
                except Exception as exc:  # noqa: BLE001 - an engine that raises is a finding
                    last_failure.append((None, f"{type(exc).__name__}: {exc}", list(actions)))
                    raise _PropertyFailed(str(exc)) from exc
                actions.append(action)
                found = failures(game, remaining, state, action, after)
                state = after
                check(found)
            else:
                totals["capped"] += 1
            totals["games"] += 1
            totals["steps"] += len(actions)

        campaign = hypothesis_seed(seed)(
            settings(
                max_examples=games,
                database=None,
                deadline=None,
                derandomize=False,
                phases=(Phase.generate, Phase.shrink),
                verbosity=Verbosity.quiet,
                report_multiple_bugs=False,
                suppress_health_check=list(HealthCheck),
            )(given(st.data())(play))
        )
        with coverage() as counts:
            try:
                campaign()
            except _PropertyFailed:
                prop, message, actions = last_failure[-1]
                trace = record(game, actions)
                if prop is None:  # the engine cannot be trusted to run the rest of the campaign
                    violations.append(Violation(ENGINE_RAISED, (), message, trace))
                else:
                    violations.append(Violation(prop.name, prop.clauses, message, trace))
                    remaining.remove(prop)
                    if remaining:
                        continue
        return FuzzReport(
            setup=game.setup,
            games=totals["games"],
            steps=totals["steps"],
            capped=totals["capped"],
            violations=tuple(violations),
            clause_counts=dict(counts),
            clause_ids=game.catalogue().ids,
        )
