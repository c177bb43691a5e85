"""The main job: every check on every game, as independent tasks, gathered into findings.

Models: a budget (how many games, states and seeds each check gets); the campaign of one
game as a list of tasks, each a picklable value with its own seed, so local processes
or a Dask cluster return exactly what a serial run returns: the shared API self-check,
fuzzing and exploration under the defaults at each player count, the variant sweep
(fuzzing, proofs and the reading check under every other value of every option, one at
a time), the proofs, the computed tables and the contradictions, each where the game's
declaration (rulecheck/registry.py) has that part. Each task returns its evidence, the
clause coverage of its runs, and any engine defect (a broken promise, an engine error, an
API violation, a promised invariant not proved). Dead rules come from the coverage of all
runs under the defaults. The findings are then filed against the game's audit, new ones
under the ids of its ledger, and the ids given to new keys appended to the ledger
(findings.py); a broken ledger stops the run before any task does.

Leaves out: presentation (cli.py prints progress and the summary) and the checks
themselves (fuzz, explore, prove, readings, contradictions).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Final

import attrs

from rulecheck.check.api import ApiViolation, check_play
from rulecheck.check.campaign import prove_game
from rulecheck.check.contradictions import ask
from rulecheck.check.explore import explore
from rulecheck.check.findings import (
    WITNESS,
    Evidence,
    Finding,
    Ledger,
    LedgerEntry,
    assemble,
    load_audit,
    new_entries,
    open_ledger,
    specs_folder,
    write_ledger,
    write_report,
)
from rulecheck.check.fuzz import fuzz
from rulecheck.check.generic import BROKEN_INVARIANT, Found, IssueReport
from rulecheck.check.parallel import run_tasks
from rulecheck.check.play import random_game
from rulecheck.check.prove import PROVED, REFUTED
from rulecheck.check.readings import find_divergence
from rulecheck.core.game import Game
from rulecheck.registry import DECLARATIONS, declaration, make_game

READING: Final = "reading that matters"
DEAD_RULE: Final = "dead rule"
CONTRADICTION: Final = "contradiction"
TABLE: Final = "computed table"


@attrs.frozen
class Budget:
    name: str
    games: int
    """Fuzz games under the defaults, at each player count."""
    variant_games: int
    """Fuzz games under each other option value, at each player count."""
    max_steps: int
    """The step cap of a fuzzed game under the defaults."""
    variant_steps: int
    """The step cap of a game under another option value (fuzz, the reading check) and of a game
    the API self-check plays."""
    explore_states: int
    reading_seeds: int
    witness_games: int
    """Fuzz games searching for a concrete trace of each refuted invariant."""
    self_checks: int
    variant_players: int
    """How many of the game's campaign player counts, fewest first, the variant sweep covers."""
    proof_players: int
    """Of those, how many the sweep's proofs cover."""


BUDGETS: Final = {
    "quick": Budget("quick", 20, 2, 1500, 800, 3000, 2, 5, 2, 2, 1),
    "full": Budget("full", 300, 20, 3000, 3000, 100_000, 20, 100, 20, 99, 99),
}


FUZZ_SHARE: Final = 10
"""Fuzzing under the defaults is split into tasks of at most this many games, each with its own
seed, so that workers share it."""


MIDGAME: Final = 200
"""A second exploration starts where a random game stands after this many actions."""


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
    return _issues(task, explore(game, start, depth=None, states=task.size, properties=properties))


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
    base = make_game(task.game, task.players)
    found = find_divergence(base, game, range(task.seed, task.seed + task.size), task.max_steps)
    if found is None:
        return Outcome(task)
    trace, divergence = found
    option = game.option_space.get(task.subject)
    [(_, value)] = task.variant
    title = f"{task.subject}={value} against {option.default}: {divergence}"
    evidence = _evidence(
        task,
        READING,
        task.subject,
        title,
        option.clauses,
        witness={"trace": trace.to_data()},
        replay=f"rulecheck compare {WITNESS} --set {task.subject}={value}",
    )
    return Outcome(task, (evidence,))


def _table(task: Task, game: Game[Any, Any]) -> Outcome:
    table = declaration(task.game).table(task.subject)
    evidence = _evidence(
        task,
        TABLE,
        table.name,
        table.title,
        table.clauses,
        witness={"table": table.to_data()},
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
        for answer in ask(declaration(task.game).statement_set())
        if not answer.consistent
    )
    return Outcome(task, evidence)


JOBS: Final[dict[str, Callable[[Task, Game[Any, Any]], Outcome]]] = {
    "self-check": _self_check,
    "fuzz": _fuzz,
    "explore": _explore,
    "prove": _prove,
    "readings": _readings,
    "table": _table,
    "contradictions": _contradictions,
}


def run_task(task: Task) -> Outcome:
    """Run one task; module-level so that worker processes and Dask can call it."""
    start = time.perf_counter()
    outcome = JOBS[task.job](task, make_game(task.game, task.players, dict(task.variant)))
    return attrs.evolve(outcome, seconds=time.perf_counter() - start)


def _variants(game: type[Game[Any, Any]]) -> Iterator[tuple[str, str]]:
    for option in game.option_space.options:
        for value in option.values:
            if value != option.default:
                yield option.name, value


def tasks_for(game: str, budget: Budget) -> list[Task]:
    """Every task of one game's campaign, under the defaults first."""
    declared = declaration(game)
    proves = declared.systems is not None
    tasks = []
    for players in declared.game.campaign_players:
        tasks.append(Task("self-check", game, players, size=budget.self_checks, max_steps=budget.variant_steps))
        tasks += [
            Task(
                "fuzz",
                game,
                players,
                seed=players * 1000 + first,
                size=min(FUZZ_SHARE, budget.games - first),
                max_steps=budget.max_steps,
            )
            for first in range(0, budget.games, FUZZ_SHARE)
        ]
        tasks += [
            Task("explore", game, players, size=budget.explore_states),
            Task("explore", game, players, seed=players, size=budget.explore_states, max_steps=MIDGAME),
        ]
        if proves:
            tasks.append(Task("prove", game, players, size=budget.witness_games))
    tasks += [Task("table", game, declared.game.min_players, subject=name) for name in declared.tables]
    if declared.statements is not None:
        tasks.append(Task("contradictions", game, declared.game.min_players))
    for rank, players in enumerate(declared.game.campaign_players[: budget.variant_players]):
        for name, value in _variants(declared.game):
            variant = ((name, value),)
            steps = budget.variant_steps
            tasks.append(Task("fuzz", game, players, variant, seed=players, size=budget.variant_games, max_steps=steps))
            if proves and rank < budget.proof_players:
                tasks.append(Task("prove", game, players, variant, size=budget.witness_games))
            tasks.append(
                Task("readings", game, players, variant, size=budget.reading_seeds, max_steps=steps, subject=name)
            )
    return tasks


def dead_rules(game: str, outcomes: Sequence[Outcome]) -> list[Evidence]:
    """A clause no run under the defaults exercised, at any player count, with the counts of every
    clause as witness; the replay is the first fuzz task under the defaults, which lists what it
    never reached."""
    runs = [o for o in outcomes if o.coverage is not None and o.task.game == game]
    fuzzing = [o.task for o in runs if o.task.job == "fuzz"]
    if not fuzzing:
        return []
    counts: Counter[str] = Counter()
    for outcome in runs:
        counts.update(outcome.coverage or {})
    first = fuzzing[0]
    replay = (
        f"rulecheck fuzz {game} --players {first.players} --games {first.size} --seed {first.seed} "
        f"--max-steps {first.max_steps}"
    )
    witness = {"coverage": {"runs": [str(o.task) for o in runs], "counts": dict(sorted(counts.items()))}}
    return [
        Evidence(
            game,
            DEAD_RULE,
            clause.id,
            f"no run under the defaults exercised {clause.id}: {clause.text}",
            (clause.id,),
            players,
            (),
            witness,
            replay,
        )
        for clause in declaration(game).catalogue().clauses
        if not counts[clause.id]
        for players in sorted({task.players for task in fuzzing})
    ]


@attrs.frozen
class Recorded:
    """A ledger verify wrote, and the ids it added to it."""

    ledger: Ledger
    added: tuple[LedgerEntry, ...]


@attrs.frozen
class Verdict:
    findings: tuple[Finding, ...]
    outcomes: tuple[Outcome, ...]
    data: dict[str, Any]
    ledgers: tuple[Recorded, ...]
    """The ledgers verify wrote, each with the ids it added (none written: nothing to add)."""

    @property
    def defects(self) -> tuple[str, ...]:
        return tuple(f"{o.task}: {d}" for o in self.outcomes for d in o.defects)


def verify(
    out: Path,
    budget: Budget,
    *,
    workers: int = 1,
    dask: str | None = None,
    games: Sequence[str] | None = None,
    select: Callable[[Task], bool] | None = None,
    progress: Callable[[int, int, Task, Outcome], None] | None = None,
    ledgers: Traversable | None = None,
) -> Verdict:
    """Run the campaign of every game (or of `games`; only the tasks `select` keeps), write the
    findings report into `out`, and append the ids given to new keys to each game's ledger in
    `ledgers` (default: the package's specs folder; beside the report when that is read-only)."""
    names = sorted(DECLARATIONS) if games is None else list(games)
    folder = specs_folder() if ledgers is None else ledgers
    audits = {name: load_audit(declaration(name).audit) for name in names}
    opened = {
        name: open_ledger(name, file, audits[name], folder, out)
        for name in names
        if (file := declaration(name).ledger) is not None
    }
    tasks = [task for name in names for task in tasks_for(name, budget) if select is None or select(task)]
    outcomes = run_tasks(run_task, tasks, workers=workers, dask=dask, progress=progress)
    findings: list[Finding] = []
    added: dict[str, tuple[LedgerEntry, ...]] = {}
    for name in names:
        evidence = [e for o in outcomes if o.task.game == name for e in o.evidence]
        evidence += dead_rules(name, outcomes)
        ledger = opened.get(name)
        found = assemble(name, evidence, audits[name], {} if ledger is None else ledger.ids)
        if ledger is not None:
            added[name] = new_entries(found, ledger.ids)
        findings += found
    data = write_report(findings, out)
    recorded = tuple(
        Recorded(ledger, added[name]) for name, ledger in opened.items() if write_ledger(ledger, added[name])
    )
    return Verdict(tuple(findings), tuple(outcomes), data, recorded)
