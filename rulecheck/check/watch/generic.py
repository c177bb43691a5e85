"""Generic rule checks: what no game's rules should allow, watched on every step of a run.

Models: the kinds of issue any game can show, found without knowing the game:
- a deadlock: a state that is not terminal and has no legal action (or, at a chance
  node, no outcome);
- a self-loss: a step after which the player to blame for it has newly lost (the game's
  `blame`: the mover, or at a chance node whoever the game names, so a Shoot's dice
  count as the shooter's and setup rolls as nobody's);
- a rule gap: the engine in strict mode raises RuleGap, in `apply` or in
  `legal_actions`, where the rulebook is silent and no option decides (the run goes on
  under the documented default);
- a broken invariant: a property of `properties/<game>.py` fails; `promised` says
  whether the rulebook promises it under the game's options (if so, the engine is at
  fault, not the rulebook);
- a cycle: a state recurs within one run with no chance step between, so the players
  alone can repeat those steps forever and the game need never end (a loop through
  dice, like re-rolled ties, repeats forever only with probability 0);
- an engine error: `apply` raised on an action `legal_actions` offered, or a terminal
  state's returns disagree with its winners and losers under the declared outcome.
Each issue has a key (kind, subject) so a campaign can report each distinct issue once
and leave it out of later runs; a Found is an issue with the trace that shows it, and
an IssueReport what fuzzing and exploration report of them. The checks of one step and
of one state are functions (`apply_step`, `legal_step`, `state_issues` and the parts it
is made of): a Watch calls them along one run, exploration on every edge of its search
graph.

Leaves out: how runs are produced (fuzz, explore, replay), how a search finds cycles
(search/explore.py), and checks that compare runs (dead rules from coverage, readings that
matter).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Final

import attrs

from rulecheck.check.watch.property_checks import StepChecks, failures
from rulecheck.core.errors import RuleGap
from rulecheck.core.game import CHANCE, TERMINAL, Game
from rulecheck.core.notation import Action
from rulecheck.core.trace import Trace
from rulecheck.core.traits import WIN_LOSS
from rulecheck.model.properties import Property, TransitionProperty

DEADLOCK: Final = "deadlock"
SELF_LOSS: Final = "self-loss"
RULE_GAP: Final = "rule gap"
BROKEN_INVARIANT: Final = "broken invariant"
CYCLE: Final = "non-termination"
ENGINE_ERROR: Final = "engine error"
KINDS: Final = frozenset({DEADLOCK, SELF_LOSS, RULE_GAP, BROKEN_INVARIANT, CYCLE, ENGINE_ERROR})


@attrs.frozen
class Issue:
    kind: str
    subject: str
    """What tells two issues of one kind apart: a property's name, a gap's id, a verb."""
    clauses: tuple[str, ...]
    message: str
    promised: bool = False
    """For a broken invariant: whether the rulebook promises it under the game's options."""

    @property
    def key(self) -> tuple[str, str]:
        return (self.kind, self.subject)

    def to_data(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "subject": self.subject,
            "clauses": list(self.clauses),
            "message": self.message,
            "promised": self.promised,
        }

    @property
    def is_defect(self) -> bool:
        """Whether the engine, not the rulebook, is at fault: an engine error, or a broken
        property the rulebook promises."""
        return self.kind == ENGINE_ERROR or (self.kind == BROKEN_INVARIANT and self.promised)


@attrs.frozen
class Found:
    """An issue and a replayable game that shows it at its last step, as short as the search
    that found it could make it."""

    issue: Issue
    trace: Trace

    @property
    def is_violation(self) -> bool:
        return self.issue.is_defect

    def to_data(self) -> dict[str, Any]:
        return {**self.issue.to_data(), "steps": len(self.trace.actions), "trace": self.trace.to_data()}


class IssueReport:
    """What the reports of fuzzing and exploration share: each issue found with its trace, and
    the clauses their runs exercised. Subclasses declare the fields."""

    __slots__ = ()
    found: tuple[Found, ...]
    clause_counts: dict[str, int]
    clause_ids: tuple[str, ...]
    interrupted: str | None
    """The name of the signal that stopped the run before its limits, if one did."""

    @property
    def violations(self) -> tuple[Found, ...]:
        return tuple(f for f in self.found if f.is_violation)

    @property
    def findings(self) -> tuple[Found, ...]:
        return tuple(f for f in self.found if not f.is_violation)

    @property
    def unreached(self) -> tuple[str, ...]:
        return tuple(c for c in self.clause_ids if not self.clause_counts.get(c))

    def issues_data(self) -> dict[str, Any]:
        """The violations, findings and clause coverage, as JSON data."""
        return {
            "violations": [f.to_data() for f in self.violations],
            "findings": [f.to_data() for f in self.findings],
            "coverage": {
                "covered": len(self.clause_ids) - len(self.unreached),
                "total": len(self.clause_ids),
                "never_reached": list(self.unreached),
            },
        }


@attrs.frozen
class Checks:
    """What to watch for in the runs of one game: its properties, the kinds of issue, and the
    issues already reported (left out). Rule gaps are found by a strict twin of the game."""

    game: Game[Any, Any]
    properties: tuple[Property, ...]
    kinds: frozenset[str] = KINDS
    skip: frozenset[tuple[str, str]] = frozenset()
    strict: Game[Any, Any] = attrs.field(eq=False)
    step_checks: StepChecks = attrs.field(eq=False, init=False)
    """The properties, as a run checks them step after step."""

    @strict.default
    def _strict_twin(self) -> Game[Any, Any]:
        return type(self.game)(self.game.players, self.game.options.text, strict=True)

    @step_checks.default
    def _step_checks(self) -> StepChecks:
        return StepChecks(self.properties)

    @property
    def transition_properties(self) -> tuple[Property, ...]:
        return tuple(p for p in self.properties if isinstance(p, TransitionProperty))

    @property
    def exhausted(self) -> bool:
        """Whether nothing is left to find: only broken properties are watched, and each is
        reported already."""
        return self.kinds <= {BROKEN_INVARIANT} and all(
            (BROKEN_INVARIANT, p.name) in self.skip for p in self.properties
        )

    def without(self, key: tuple[str, str]) -> Checks:
        return attrs.evolve(self, skip=self.skip | {key}, strict=self.strict)

    def keep(self, issues: Sequence[Issue]) -> list[Issue]:
        """The issues of the kinds watched for that are not reported already."""
        return [i for i in issues if i.kind in self.kinds and i.key not in self.skip]

    def watch(self, state: Any) -> Watch:
        return Watch(self, state)


# The checks of one step and one state.


def _gap(gap: RuleGap, where: str) -> Issue:
    return Issue(RULE_GAP, gap.gap, (gap.gap,), f"{where}: {gap.detail}")


def apply_step(checks: Checks, state: Any, action: Action) -> tuple[Any, list[Issue]]:
    """The state after `action` and the rule gap the step shows, if any: the strict twin applies
    it and, where it raises RuleGap, the lenient game applies the documented default. Whatever
    else `apply` raises goes to the caller, to report as an `engine_error`."""
    try:
        return checks.strict.apply(state, action), []
    except RuleGap as gap:
        return checks.game.apply(state, action), [_gap(gap, str(action))]


def legal_step(checks: Checks, state: Any) -> tuple[tuple[Action, ...], list[Issue]]:
    """The legal actions of `state` and the rule gap listing them shows, if any (a rule may be
    silent about what the choices are), found the same way as in `apply_step`."""
    try:
        return checks.strict.legal_actions(state), []
    except RuleGap as gap:
        return checks.game.legal_actions(state), [_gap(gap, "the legal actions")]


def engine_error(action: Action, exc: Exception) -> Issue:
    return Issue(ENGINE_ERROR, type(exc).__name__, (), f"{action}: {type(exc).__name__}: {exc}")


def broken_invariants(
    game: Game[Any, Any], properties: Sequence[Property], before: Any, action: Action | None, after: Any
) -> list[Issue]:
    """The properties the step `before --action--> after` breaks; with `action` None, the state
    properties `after` breaks."""
    if not properties:
        return []
    return _broken(game, failures(game, properties, before, action, after))


def _broken(game: Game[Any, Any], failed: Sequence[tuple[Property, str]]) -> list[Issue]:
    return [
        Issue(BROKEN_INVARIANT, prop.name, prop.clauses, message, prop.applies(game.options))
        for prop, message in failed
    ]


def deadlock(game: Game[Any, Any], state: Any, legal: Sequence[Action]) -> list[Issue]:
    """A deadlock if `state`, whose legal actions are `legal`, is not terminal but offers none."""
    mover = game.to_move(state)
    if mover != TERMINAL and not legal:
        return [Issue(DEADLOCK, "no legal action", (), f"nobody can act: to_move is {mover}, nothing legal")]
    return []


def outcome_disagreement(game: Game[Any, Any], state: Any) -> str | None:
    """At a terminal state, how its returns disagree with `winners` and `losers` under the game's
    declared outcome, or None when they agree: under `win-loss` every return is 1 or -1 and the
    losers are exactly the players who are not winners; under `scores` the winners are the players
    with the highest score. Returns are exact (ints or Fractions) and one per player."""
    returns = game.returns(state)
    if not all(isinstance(r, (int, Fraction)) and not isinstance(r, bool) for r in returns):
        return f"returns must be ints or Fractions, got {returns}"
    winners, losers = game.winners(state), game.losers(state)
    if game.traits.outcome == WIN_LOSS:
        if set(returns) - {1, -1}:
            return f"win-loss returns are 1 or -1, got {returns}"
        if losers != frozenset(range(game.players)) - winners:
            return f"returns {returns} say the winners are {sorted(winners)}, but the losers are {sorted(losers)}"
    elif winners != frozenset(p for p, r in enumerate(returns) if r == max(returns)):
        return f"winners {sorted(winners)} are not the players with the highest of the scores {returns}"
    return None


def outcome(game: Game[Any, Any], state: Any) -> list[Issue]:
    """An engine error if `state` is terminal and its returns disagree with its winners and losers."""
    if not game.is_terminal(state):
        return []
    problem = outcome_disagreement(game, state)
    return [] if problem is None else [Issue(ENGINE_ERROR, "returns", (), f"at the end: {problem}")]


def self_loss(game: Game[Any, Any], before: Any, after: Any, actor: int | None, cause: Action | None) -> list[Issue]:
    """A self-loss if `actor`, whose action `cause` brought the step `before -> after` about, has
    newly lost after it."""
    if actor is None or cause is None or actor not in game.losers(after) or actor in game.losers(before):
        return []
    return [Issue(SELF_LOSS, cause.verb, (), f"player {actor} lost through their own {cause}")]


def state_issues(
    checks: Checks,
    before: Any,
    action: Action | None,
    after: Any,
    legal: Sequence[Action],
    actor: int | None,
    cause: Action | None,
) -> list[Issue]:
    """Every issue but a rule gap that the step `before --action--> after` shows, where `legal`
    are the legal actions of `after` and `actor` the player to blame for the step, whose last
    action was `cause`; with
    `before` and `action` None, the issues of the start state `after`. `before`, when given, is
    a state these checks saw, so a state property the step cannot have changed is not checked
    again."""
    found = (
        _broken(checks.game, checks.step_checks.failures(checks.game, before, action, after, before is not None))
        if checks.properties
        else []
    )
    found += deadlock(checks.game, after, legal)
    found += outcome(checks.game, after)
    if before is not None:
        found += self_loss(checks.game, before, after, actor, cause)
    return found


def cycle(earlier: int, later: int) -> Issue:
    """The state after step `earlier` recurs after step `later`, with only player steps between."""
    return Issue(
        CYCLE,
        "cycle",
        (),
        f"the state after step {earlier} recurs after step {later}: steps {earlier + 1} to {later} can repeat forever",
    )


class Watch:
    """One run of a game, from `state`, step by step."""

    def __init__(self, checks: Checks, state: Any) -> None:
        self.checks = checks
        self.game = checks.game
        self.state = state
        self.steps = 0
        self.actor: int | None = None
        self.cause: Action | None = None
        self._seen: dict[Any, int] = {state: 0}
        self._last_chance = -1
        self.legal, gaps = legal_step(checks, state)
        """The legal actions of the current state (at a chance node, its outcomes)."""
        self.issues = checks.keep(gaps + state_issues(checks, None, None, state, self.legal, None, None))

    def step(self, action: Action) -> list[Issue]:
        """Apply `action` to the current state and return the issues the step shows (also kept
        in `self.issues`). An engine error ends the run: `self.state` stays where it was."""
        before = self.state
        mover = self.game.to_move(before)
        try:
            after, found = apply_step(self.checks, before, action)
        except Exception as exc:  # noqa: BLE001 - an engine that raises on a legal action is a finding
            self.issues = self.checks.keep([engine_error(action, exc)])
            return self.issues
        self.steps += 1
        self.actor = self.game.blame(before, action)
        if mover == CHANCE:
            self._last_chance = self.steps
        else:
            self.cause = action
        self.state = after
        self.legal, gaps = legal_step(self.checks, after)
        found += gaps
        found += state_issues(self.checks, before, action, after, self.legal, self.actor, self.cause)
        if CYCLE in self.checks.kinds and self._recurs(after):
            found.append(cycle(self._seen[after], self.steps))
        self.issues = self.checks.keep(found)
        if CYCLE in self.checks.kinds:
            self._seen[after] = self.steps
        return self.issues

    def _recurs(self, state: Any) -> bool:
        """Whether `state` was seen before in this run, with only player steps since."""
        earlier = self._seen.get(state)
        return earlier is not None and earlier >= self._last_chance
