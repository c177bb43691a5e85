"""The tasks of a verification campaign and the jobs that run them, one check each.

Models: a task (a picklable value: the job, the game and player count, the option values it
sweeps, its seed and size, its data file), its outcome (the evidence it found, the clause
coverage of its runs, any engine defect, the verdicts of searches that found nothing to file,
whether an exploration covered a whole state space), and each job: the shared API
self-check, fuzzing, exploration, the proofs, the reading check (random and clause-directed
games compared in lockstep, then Z3 on the symbolic systems), a computed table (evidence only
where one of its predicates holds), the contradictions, the silent-decision finder, the
clause-directed search toward a clause nothing exercised, games played by a policy (greedy, a
plan, MCTS) watching for the clauses nothing exercised, the shrinking of a witness, and the
random games of one setup for the balance section (balance.py). `run_task` is module-level so
that worker processes and Dask can call it.

Leaves out: which tasks a campaign runs (verify.py), what the outcomes mean together
(explain.py) and the checks themselves (fuzz, explore, prove, readings, contradictions).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final

import attrs

from rulecheck.check.balance.figures import Figures, figures
from rulecheck.check.balance.games import Setup, play_setups
from rulecheck.check.play.playthrough import play, random_game
from rulecheck.check.play.policies import policy_named
from rulecheck.check.play.pursuit import pursue
from rulecheck.check.proofs.contradictions import ask
from rulecheck.check.proofs.game_proofs import prove_game
from rulecheck.check.proofs.prove import PROVED, REFUTED
from rulecheck.check.proofs.symbolic_readings import DEPTH, divergences
from rulecheck.check.report.findings import (
    WITNESS,
    Evidence,
)
from rulecheck.check.search.explore import explore
from rulecheck.check.search.fuzz import fuzz
from rulecheck.check.search.readings import NEAR_STATES, find_divergence, reading_labels
from rulecheck.check.search.shrink import shrink
from rulecheck.check.search.silent import corpus, find, scenario_files
from rulecheck.check.watch.api import ApiViolation, check_play
from rulecheck.check.watch.generic import (
    BROKEN_INVARIANT,
    Found,
    IssueReport,
)
from rulecheck.core.clauses import coverage
from rulecheck.core.game import Game
from rulecheck.core.notation import Action
from rulecheck.core.trace import parse_trace, record
from rulecheck.registry import declaration, make_game

READING: Final = "reading that matters"
DEAD_RULE: Final = "dead rule"
RARE_RULE: Final = "rare rule"
"""A clause random play never exercised and a clause-directed search reached: a note, not a finding."""
CLAUSE_DIRECTED: Final = "clause-directed"
"""The player of the clause-directed search (play/pursuit.py), as a verdict names who reached a clause."""
NOT_REACHED: Final = "not reached"
"""A clause nothing of the budget exercised or reached: a note of coverage, not a finding."""
COVERAGE_NOTES: Final = frozenset({RARE_RULE, NOT_REACHED})
"""The kinds of evidence that say what a budget did not show, kept apart from findings and never given an id."""
CONTRADICTION: Final = "contradiction"
TABLE: Final = "computed table"
PARTS: Final = "parts"
PARTS_SYMBOLICALLY: Final = "parts in the engine's guards (Z3), in no game of the search"
NEVER_PARTS: Final = "never parts within the search"
SILENT_DECISION: Final = "silent decision"
"""Evidence that the engine decides what the rulebook's text leaves open, or decides otherwise (search/silent.py)."""
BALANCE: Final = "balance"
"""The job that plays random games of one setup for the balance section (balance.py)."""
BALANCE_POLICY: Final = "random"


@attrs.frozen
class Task:
    job: str
    game: str
    players: int
    variant: tuple[tuple[str, str], ...] = ()
    seed: int = 0
    size: int = 0
    max_steps: int = 0
    subject: str = ""
    data: str | None = None
    """The data file the game plays with; None for its default data set."""
    directed: tuple[int, int] = (0, 0)
    """For the reading check: directed games, and lockstep states from each of their starts."""
    symbolic: bool = False
    """For the reading check: whether Z3 also compares the readings' symbolic systems (done at
    one player count, since a game's systems model one player's counters)."""
    witness: str = ""
    """For shrinking: the JSON of the witness trace to shrink, which shows the issue `subject`
    names (`kind:subject`, the evidence's key) at its last step."""
    targets: tuple[str, ...] = ()
    """For play by a policy: the clauses it watches for (those no run under the defaults exercised)."""

    def game_under(self, options: Mapping[str, str] | None = None) -> Game[Any, Any]:
        """The task's game with `options` (its variant when None) and data."""
        return make_game(self.game, self.players, dict(self.variant if options is None else options), data=self.data)

    def __str__(self) -> str:
        setting = " ".join(f"{k}={v}" for k, v in self.variant) or "defaults"
        subject = f" {self.subject}" if self.subject else ""
        start = f" from step {self.max_steps} of seed {self.seed}" if self.job == "explore" and self.max_steps else ""
        return f"{self.job}{subject} {self.game} {self.players}p {setting}{start}"


@attrs.frozen
class Outcome:
    task: Task
    evidence: tuple[Evidence, ...] = ()
    coverage: dict[str, int] | None = None
    """Clause counts of the task's runs, for tasks under the defaults that play."""
    defects: tuple[str, ...] = ()
    seconds: float = 0.0
    verdicts: tuple[dict[str, Any], ...] = ()
    """What a search concluded where it found nothing to file as evidence too: for the reading
    check, whether the option's readings part (PARTS) or did not within the search (NEVER_PARTS)."""
    exhaustive_states: int | None = None
    """For an exploration from the initial state that expanded every state it found: how many."""
    balance: Figures | None = None
    """For a balance task: the figures of its games."""


def _sets(variant: Sequence[tuple[str, str]]) -> str:
    return "".join(f" --set {k}={v}" for k, v in variant)


def _evidence(task: Task, check: str, subject: str, title: str, clauses: Sequence[str], **kw: Any) -> Evidence:
    return Evidence(task.game, check, subject, title, tuple(clauses), task.players, task.variant, **kw)


def _found_evidence(task: Task, found: Found) -> Evidence:
    issue = found.issue
    return _evidence(
        task,
        issue.kind,
        issue.subject,
        issue.message,
        issue.clauses,
        witness={"trace": found.trace.to_data()},
        replay=f"rulecheck replay {WITNESS}",
    )


def _self_check(task: Task, game: Game[Any, Any]) -> Outcome:
    defects = []
    for seed in range(task.seed, task.seed + task.size):
        try:
            check_play(game, random_game(game, seed, task.max_steps).actions)
        except ApiViolation as exc:
            defects.append(f"API self-check, seed {seed}: {exc}")
    return Outcome(task, defects=tuple(defects))


def _issues(task: Task, report: IssueReport) -> Outcome:
    """A fuzz or explore report as an outcome: findings as evidence, violations as defects, and
    the clause coverage of runs under the defaults."""
    return Outcome(
        task,
        tuple(_found_evidence(task, f) for f in report.findings),
        report.clause_counts if not task.variant else None,
        tuple(f"{f.issue.kind} {f.issue.subject}: {f.issue.message}" for f in report.violations),
    )


def _fuzz(task: Task, game: Game[Any, Any]) -> Outcome:
    return _issues(task, fuzz(game, declaration(game.name).properties, task.size, task.seed, task.max_steps))


def _explore(task: Task, game: Game[Any, Any]) -> Outcome:
    """From the initial state, or with `max_steps` from where a random game stands after them."""
    start = random_game(game, task.seed, task.max_steps).actions if task.max_steps else ()
    properties = declaration(game.name).properties
    report = explore(game, start, depth=None, states=task.size, properties=properties)
    whole = report.states if report.exhaustive and not start else None
    return attrs.evolve(_issues(task, report), exhaustive_states=whole)


def _prove(task: Task, game: Game[Any, Any]) -> Outcome:
    evidence, defects = [], []
    for proof in prove_game(game, task.seed, task.size):
        result = proof.result
        if proof.promised and result.status != PROVED:
            defects.append(f"{result.property} is promised but {result.status}")
        if proof.refinement_mismatches:
            defects.append(f"{result.property}: the engine departs from its symbolic model")
        if result.status != REFUTED or proof.promised:
            continue
        if proof.witness is not None:
            witness, replay = {"trace": proof.witness.to_data()}, f"rulecheck replay {WITNESS}"
        else:
            bounded_run = {"status": result.status, "basis": result.basis, "run": list(result.run or ())}
            witness, replay = {"z3": bounded_run}, f"rulecheck prove {task.game} --players {task.players}"
            replay += _sets(task.variant)
        title = f"{result.property} fails under {', '.join(f'{k}={v}' for k, v in task.variant)}"
        evidence.append(
            _evidence(task, BROKEN_INVARIANT, result.property, title, result.clauses, witness=witness, replay=replay)
        )
    return Outcome(task, tuple(evidence), defects=tuple(defects))


def _readings(task: Task, game: Game[Any, Any]) -> Outcome:
    base = task.game_under({})
    option = game.option_space.get(task.subject)
    [(_, value)] = task.variant
    seeds = range(task.seed, task.seed + task.size)
    directed, lockstep_states = task.directed
    found = find_divergence(
        base, game, seeds, task.max_steps, option.clauses, directed=directed, lockstep_states=lockstep_states
    )
    search = f"{task.players} players: {task.size} random games of up to {task.max_steps} actions"
    if directed:
        steered = min(directed, task.size)
        search += (
            f", {steered} undirected and {steered} directed games of clause-directed play, and lockstep searches "
            f"of {lockstep_states} states from up to {NEAR_STATES} states per game touching {', '.join(option.clauses)}"
        )
    verdict = {"option": task.subject, "value": value, "default": option.default, "players": task.players}
    title = f"{task.subject}={value} against {option.default}"
    if found is not None:
        trace, divergence = found
        evidence = _evidence(
            task,
            READING,
            task.subject,
            f"{title}: {divergence}",
            option.clauses,
            witness={"trace": trace.to_data()},
            replay=f"rulecheck compare {WITNESS} --set {task.subject}={value}",
        )
        parts = verdict | {"verdict": PARTS, "search": search, "after": len(trace.actions), "what": str(divergence)}
        return Outcome(task, (evidence,), verdicts=(parts,))
    declared = declaration(task.game)
    asked = task.symbolic and declared.systems is not None
    symbolic = divergences(declared.symbolic_systems(base), declared.symbolic_systems(game)) if asked else []
    if asked:
        search += f"; Z3 on the symbolic systems, {DEPTH} steps deep"
    if not symbolic:
        return Outcome(task, verdicts=(verdict | {"verdict": NEVER_PARTS, "search": search},))
    first = symbolic[0]
    labels = reading_labels(base, game)
    described = first.describe(labels.base, labels.variant)
    evidence = _evidence(
        task,
        READING,
        task.subject,
        f"{title}: in the engine's guards and effects, {described}",
        option.clauses,
        witness={"z3": first.to_data()},
        replay=f"rulecheck symbolic-compare {task.game} --players {task.players} --variant {task.subject}={value}",
    )
    parts = verdict | {"verdict": PARTS_SYMBOLICALLY, "search": search, "what": described}
    return Outcome(task, (evidence,), verdicts=(parts,))


def _table(task: Task, game: Game[Any, Any]) -> Outcome:
    """A computed table is evidence only where one of its predicates holds, and says which."""
    table = declaration(task.game).table(task.subject, game)
    shows = table.shows()
    if not shows:
        return Outcome(task)
    evidence = _evidence(
        task,
        TABLE,
        table.name,
        f"{table.title}: {'; '.join(seen for _, seen in shows)}",
        table.clauses,
        witness={"table": table.to_data(), "shows": [{"predicate": name, "seen": seen} for name, seen in shows]},
        replay=f"rulecheck table {task.game} {table.name}",
    )
    return Outcome(task, (evidence,))


def _contradictions(task: Task, game: Game[Any, Any]) -> Outcome:
    evidence = tuple(
        _evidence(
            task,
            CONTRADICTION,
            answer.id,
            f"{answer.title}: {', '.join(answer.core)} cannot all hold",
            answer.clauses,
            witness={"z3": {"unsat_core": list(answer.core)}},
            replay=f"rulecheck contradictions {task.game}",
        )
        for answer in ask(declaration(task.game).statement_set(game))
        if not answer.consistent
    )
    return Outcome(task, evidence)


def _silent(task: Task, game: Game[Any, Any]) -> Outcome:
    """The silent-decision finder over the game's shipped scenarios and `task.size` seeded games.
    A finding no option decides is evidence of a silent decision; one an option decides is
    evidence that the option's reading matters (filed with that option's other evidence: the
    option exists, and the finding shows where its default departs from the text or decides it)."""
    seeds = range(task.seed, task.seed + task.size)
    evidence = []
    for found in find(game, corpus(game, seeds, task.max_steps, scenario_files(game))):
        candidate = found.candidate
        title = f"{candidate.kind}: {candidate.what} ({found.verdict})"
        clauses = (candidate.contract.clause,)
        found_by = {"witness": found.witness, "replay": found.replay}
        if not found.decided_by:
            evidence.append(_evidence(task, SILENT_DECISION, candidate.subject, title, clauses, **found_by))
        for option in dict(found.decided_by):
            evidence.append(_evidence(task, READING, option, title, clauses, **found_by))
    return Outcome(task, tuple(evidence))


def _pursue(task: Task, game: Game[Any, Any]) -> Outcome:
    """Clause-directed games toward the clause `task.subject`; the verdict says whether one reached it."""
    verdict: dict[str, Any] = {"clause": task.subject, "players": task.players, "policy": CLAUSE_DIRECTED}
    for seed in range(task.seed, task.seed + task.size):
        pursuit = pursue(game, [task.subject], seed, task.max_steps)
        if task.subject in pursuit.reached:
            trace = record(game, pursuit.playthrough.actions[: pursuit.reached[task.subject]])
            return Outcome(task, verdicts=(verdict | {"reached": len(trace.actions), "trace": trace.to_data()},))
    return Outcome(task, verdicts=(verdict,))


def _first_touches(game: Game[Any, Any], actions: Sequence[Action], targets: Iterable[str]) -> dict[str, int]:
    """For each of `targets` the game `actions` touches, how many of its actions lead to (and
    include) the first action whose effect touches it, so that a replay's last step shows it; for
    a clause only the listing of legal actions touches, the actions up to the state so listed."""
    wanted = set(targets)
    applied: dict[str, int] = {}
    listed: dict[str, int] = {}
    state = game.initial_state()
    for steps in range(len(actions) + 1):
        if steps:
            with coverage(isolated=True) as counts:
                state = game.apply(state, actions[steps - 1])
            for clause in wanted & counts.keys():
                applied.setdefault(clause, steps)
        with coverage(isolated=True) as counts:
            game.legal_actions(state)
        for clause in wanted & counts.keys():
            listed.setdefault(clause, steps)
    return listed | applied


def _play(task: Task, game: Game[Any, Any]) -> Outcome:
    """Games under the defaults with every seat played by the policy `task.subject`; a verdict for
    each clause of `task.targets` one reached, with the trace of the first that did up to it."""
    policy = policy_named(task.subject)
    verdicts: dict[str, dict[str, Any]] = {}
    for seed in range(task.seed, task.seed + task.size):
        played = play(game, (policy,), seed, task.max_steps).actions
        for clause, steps in _first_touches(game, played, set(task.targets) - verdicts.keys()).items():
            verdicts[clause] = {
                "clause": clause,
                "players": task.players,
                "policy": policy.name,
                "reached": steps,
                "trace": record(game, played[:steps]).to_data(),
            }
    return Outcome(task, verdicts=tuple(verdicts[c] for c in sorted(verdicts)))


def _shrink(task: Task, game: Game[Any, Any]) -> Outcome:
    """The witness of `task.witness`, shrunk within `task.size` replayed steps, as evidence."""
    trace = parse_trace(task.witness, f"the witness of {task.subject}")
    kind, subject = task.subject.split(":", 1)
    actions = [game.parse_action(text) for text in trace.actions]
    shrunk = shrink(game, declaration(game.name).properties, actions, (kind, subject), task.size)
    issue = attrs.evolve(shrunk.issue, clauses=shrunk.clauses)
    return Outcome(task, (_found_evidence(task, Found(issue, shrunk.trace(game))),))


def _balance(task: Task, game: Game[Any, Any]) -> Outcome:
    setup = Setup(task.game, task.players, task.variant, (BALANCE_POLICY,), task.max_steps, task.data)
    [played] = play_setups([setup], task.size, task.seed)
    return Outcome(task, balance=figures(played, task.players))


JOBS: Final[dict[str, Callable[[Task, Game[Any, Any]], Outcome]]] = {
    "self-check": _self_check,
    "fuzz": _fuzz,
    "explore": _explore,
    "prove": _prove,
    "readings": _readings,
    "table": _table,
    "contradictions": _contradictions,
    "pursue": _pursue,
    "silent": _silent,
    "play": _play,
    "shrink": _shrink,
    BALANCE: _balance,
}


def run_task(task: Task) -> Outcome:
    """Run one task; module-level so that worker processes and Dask can call it."""
    start = time.perf_counter()
    outcome = JOBS[task.job](task, task.game_under())
    return attrs.evolve(outcome, seconds=time.perf_counter() - start)
