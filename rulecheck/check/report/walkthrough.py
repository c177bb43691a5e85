"""A trace replayed for a person: each step's effect, the issues the checks see, and where it ends.

Models: the replay of a trace with every check watching (generic.Checks), recording for each
step who took it, the action, what it changed in the written position (positions/describe.py) and the
clauses applying it exercised; the issues seen on the way, by step; for a witness (a trace
that says what it shows, core.trace.Shows), whether its issue still shows at its last step
and the clauses it cites, looked up in the game's catalogue; and the position and the game's
standing at the end. Every replayed state is checked against the trace's digests (a trace
that no longer replays is a TraceError naming its step).

Leaves out: presentation (the command chooses which steps to print) and pictures.
"""

from __future__ import annotations

from typing import Any

import attrs

from rulecheck.check.positions.ask import applied_clauses
from rulecheck.check.positions.describe import ending, position_lines, step_effect
from rulecheck.check.watch.generic import Checks, Issue
from rulecheck.core.clauses import Clause
from rulecheck.core.errors import SpecError
from rulecheck.core.game import Game
from rulecheck.core.trace import Shows, Trace, replay_steps
from rulecheck.registry import declaration


@attrs.frozen
class Step:
    number: int
    """1 for the first action."""
    mover: int
    """Who took it: a player, or CHANCE."""
    action: str
    effect: str
    clauses: tuple[str, ...]


@attrs.frozen
class Walkthrough:
    steps: tuple[Step, ...]
    issues: tuple[tuple[int, Issue], ...]
    """Each issue the checks saw, with the step it showed at (0: the start state)."""
    shows: Shows | None
    """What the trace says it shows, for a witness."""
    shown: Issue | None
    """For a witness: its issue as the replay sees it at the last step (citing the witness's
    clauses where the issue names none), or None when it no longer shows."""
    cited: tuple[Clause, ...]
    """The clauses the witness cites (its issue's), from the catalogue."""
    position: tuple[str, ...]
    """The position at the last step, one line per part."""
    standing: str

    @property
    def others(self) -> tuple[tuple[int, Issue], ...]:
        """The issues other than the witness's own at its last step."""
        last, shown = len(self.steps), self.shown
        return tuple((n, i) for n, i in self.issues if not (shown is not None and n == last and i.key == shown.key))

    def to_data(self) -> dict[str, Any]:
        return {
            "steps": [attrs.asdict(step) for step in self.steps],
            "issues": [{"step": n} | issue.to_data() for n, issue in self.issues],
            "shows": None if self.shows is None else self.shows.to_data(),
            "still_shows": None if self.shows is None else self.shown is not None,
            "clauses": [{"id": c.id, "lines": list(c.lines), "text": c.text} for c in self.cited],
            "position": list(self.position),
            "standing": self.standing,
        }


def _cited(game: Game[Any, Any], ids: tuple[str, ...]) -> tuple[Clause, ...]:
    catalogue = game.catalogue()
    found = []
    for clause_id in ids:
        try:
            found.append(catalogue.get(clause_id))
        except SpecError:
            found.append(Clause(clause_id, "not a clause of the rulebook: a gap the rules leave open", ()))
    return tuple(found)


def walk(game: Game[Any, Any], trace: Trace) -> Walkthrough:
    """Replay `trace` on `game` with every check watching, recording each step."""
    watch = Checks(game, declaration(game.name).properties).watch(trace.first_state(game))
    issues: list[tuple[int, Issue]] = [(0, issue) for issue in watch.issues]
    steps = []
    state = watch.state
    for number, (before, action, after) in enumerate(replay_steps(game, trace), start=1):
        mover = game.to_move(before)
        clauses = applied_clauses(game, before, action)
        issues += [(number, issue) for issue in watch.step(action)]
        steps.append(Step(number, mover, game.action_text(action), step_effect(game, before, after), clauses))
        state = after
    shows = trace.shows
    shown = None
    if shows is not None:
        last = [i for n, i in issues if n == len(steps) and i.key == (shows.kind, shows.subject)]
        shown = attrs.evolve(last[0], clauses=last[0].clauses or shows.clauses) if last else None
    cited = _cited(game, shows.clauses if shows is not None else ())
    return Walkthrough(
        tuple(steps), tuple(issues), shows, shown, cited, tuple(position_lines(game, state)), ending(game, state)
    )
