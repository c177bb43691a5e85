"""Fuzzing: Hypothesis plays random whole games, watching every step with the generic checks.

Models: a campaign of N games from one seed. Each game is a Hypothesis example that
first draws how its players lean (swarm testing: verbs they avoid while they can, a verb
they favour; rare rules get their chance in games that skip the common moves or dwell
on one), then an action at every step
(play.draw_action) until the game ends or a step cap is hit. Every step is watched
(generic.Watch): properties, deadlocks, self-losses, rule gaps, recurring states,
engine errors. Each distinct issue is reported once, with a replayable trace that shows
it at its last step. When a violation shows, Hypothesis shrinks the game to a short one
that still shows it, and the campaign runs again without that issue; findings are
shrunk the same way only on request (see `fuzz`). Games, steps and clause coverage are
counted over the last campaign, the complete one unless an engine error stopped it.
Each issue's trace is handed to `on_found` as soon as it shows (and again each time
shrinking finds a shorter one), so a caller can save it before the campaign ends; a
campaign stopped by a signal (signals.Interrupted) returns what it found so far, marked
as interrupted, the violation it was shrinking included at its shortest yet.

A broken property the rulebook promises, and an engine error, are violations: the
engine is at fault. Every other issue is a finding about the rulebook.

Leaves out: exhaustive search (explore) and proofs (prove).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import attrs
from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from rulecheck.check.generic import ENGINE_ERROR, KINDS, Checks, Found, Issue, IssueReport
from rulecheck.check.play import DEFAULT_MAX_STEPS, draw_action, draw_swarm
from rulecheck.check.signals import Interrupted
from rulecheck.check.signals import check as check_signals
from rulecheck.core.clauses import coverage
from rulecheck.core.game import Game
from rulecheck.core.notation import Action
from rulecheck.core.progress import Progress, no_progress
from rulecheck.core.trace import record
from rulecheck.model.properties import Property


@attrs.frozen
class FuzzReport(IssueReport):
    setup: dict[str, Any]
    games: int
    steps: int
    capped: int
    """Games stopped by the step cap before they ended."""
    found: tuple[Found, ...]
    clause_counts: dict[str, int]
    clause_ids: tuple[str, ...]
    interrupted: str | None = None
    """The signal that stopped the campaign before its last game, if one did."""

    def to_data(self) -> dict[str, Any]:
        return {
            "setup": self.setup,
            "games": self.games,
            "steps": self.steps,
            "capped": self.capped,
            "interrupted": self.interrupted,
            **self.issues_data(),
        }


class _Shown(Exception):
    pass


def fuzz(
    game: Game[Any, Any],
    properties: Sequence[Property],
    games: int,
    seed: int,
    max_steps: int = DEFAULT_MAX_STEPS,
    kinds: frozenset[str] = KINDS,
    shrink_findings: bool = False,
    on_found: Callable[[Found], None] | None = None,
    progress: Progress = no_progress,
) -> FuzzReport:
    """Play `games` random games of `game` from `seed`, watching for issues of `kinds`; each
    issue's trace goes to `on_found` as soon as it shows.

    A violation is always shrunk. A finding is shrunk only with `shrink_findings`: shrinking a
    long game can take Hypothesis minutes, so by default a finding's trace is the first game
    that showed it, cut at that step, and that game plays on.

    `progress` hears the games finished of `games` as they finish; shrinking replays games, which
    count no further, and a campaign run again without an issue it shrank starts the count again."""
    checks = Checks(game, tuple(properties), kinds)
    noted: dict[tuple[str, str], Found] = {}
    violations: list[Found] = []
    shortest: dict[tuple[str, str], int] = {}
    interrupted: str | None = None

    def keep(found: Found) -> None:
        if found.is_violation:
            violations.append(found)
        else:
            noted[found.issue.key] = found

    def announce(issue: Issue, actions: list[Action]) -> None:
        """Hand a violation's game to `on_found` when it is the first, or shorter than any before."""
        if on_found is not None and len(actions) < shortest.get(issue.key, len(actions) + 1):
            shortest[issue.key] = len(actions)
            on_found(Found(issue, record(game, actions)))

    while True:
        totals = Counter[str]()
        shown: list[tuple[Issue, list[Action]]] = []

        def play(data: st.DataObject) -> None:
            watch = checks.watch(game.initial_state())
            actions: list[Action] = []
            swarm = draw_swarm(data.draw, game)
            while True:
                for issue in watch.issues:
                    if issue.is_defect or shrink_findings:
                        shown.append((issue, list(actions)))
                        announce(issue, actions)
                        raise _Shown(issue.message)
                    if issue.key not in noted:
                        noted[issue.key] = found = Found(issue, record(game, actions))
                        if on_found is not None:
                            on_found(found)
                if len(actions) == max_steps:
                    totals["capped"] += 1
                    break
                check_signals()
                action = draw_action(data.draw, game, watch.state, swarm, watch.legal)
                if action is None:
                    break
                watch.step(action)
                if watch.steps > len(actions):  # not an engine error
                    actions.append(action)
            totals["games"] += 1
            totals["steps"] += len(actions)
            progress(min(totals["games"], games), games)

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
            except _Shown:
                issue, actions = shown[-1]
                checks = checks.without(issue.key)
                keep(Found(issue, record(game, actions)))
                if issue.kind != ENGINE_ERROR and not checks.exhausted:  # an engine that raised cannot be trusted
                    continue
            except Interrupted as stop:
                interrupted = stop.name
                if shown:  # the shortest game yet of the issue being shrunk
                    issue, actions = min(shown, key=lambda seen: len(seen[1]))
                    keep(Found(issue, record(game, actions)))
        return FuzzReport(
            setup=game.setup,
            games=totals["games"],
            steps=totals["steps"],
            capped=totals["capped"],
            found=tuple(violations) + tuple(noted.values()),
            clause_counts=dict(counts),
            clause_ids=game.catalogue().ids,
            interrupted=interrupted,
        )
