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
from collections.abc import Callable, Iterator, Mapping, Sequence
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
    AuditEntry,
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
from rulecheck.check.generic import (
    BROKEN_INVARIANT,
    CYCLE,
    DEADLOCK,
    ENGINE_ERROR,
    RULE_GAP,
    SELF_LOSS,
    Found,
    IssueReport,
)
from rulecheck.check.parallel import run_tasks
from rulecheck.check.play import random_game
from rulecheck.check.prove import PROVED, REFUTED
from rulecheck.check.pursuit import pursue
from rulecheck.check.readings import NEAR_STATES, find_divergence
from rulecheck.check.symbolic_readings import DEPTH, divergences
from rulecheck.core.errors import OptionError, SpecError
from rulecheck.core.game import Game
from rulecheck.core.trace import record
from rulecheck.registry import DECLARATIONS, declaration, make_game

READING: Final = "reading that matters"
DEAD_RULE: Final = "dead rule"
CONTRADICTION: Final = "contradiction"
TABLE: Final = "computed table"
PARTS: Final = "parts"
PARTS_SYMBOLICALLY: Final = "parts in the engine's guards (Z3), in no game of the search"
NEVER_PARTS: Final = "never parts within the search"


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
    """Random games the reading check plays for each option value."""
    directed_games: int
    """Of those seeds, how many also play a game directed toward the option's clauses."""
    lockstep_states: int
    """States compared in lockstep from each of a directed game's starting points."""
    pursuit_games: int
    """Clause-directed games toward each clause no run under the defaults exercised."""
    witness_games: int
    """Fuzz games searching for a concrete trace of each refuted invariant."""
    self_checks: int
    variant_players: int
    """How many of the game's campaign player counts, fewest first, the variant sweep covers."""
    proof_players: int
    """Of those, how many the sweep's proofs cover."""


BUDGETS: Final = {
    "quick": Budget("quick", 20, 2, 1500, 800, 3000, 2, 0, 0, 2, 5, 2, 2, 1),
    "full": Budget("full", 300, 20, 3000, 3000, 100_000, 20, 10, 400, 40, 100, 20, 99, 99),
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
    data: str | None = None
    """The data file the game plays with; None for its default data set."""
    directed: tuple[int, int] = (0, 0)
    """For the reading check: directed games, and lockstep states from each of their starts."""
    symbolic: bool = False
    """For the reading check: whether Z3 also compares the readings' symbolic systems (done at
    one player count, since a game's systems model one player's counters)."""

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
    labels = (f"{task.subject}={option.default}", f"{task.subject}={value}")
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
    described = first.describe(*labels)
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


def _pursue(task: Task, game: Game[Any, Any]) -> Outcome:
    """Clause-directed games toward the clause `task.subject`; the verdict says whether one reached it."""
    verdict: dict[str, Any] = {"clause": task.subject, "players": task.players}
    for seed in range(task.seed, task.seed + task.size):
        pursuit = pursue(game, [task.subject], seed, task.max_steps)
        if task.subject in pursuit.reached:
            trace = record(game, pursuit.playthrough.actions[: pursuit.reached[task.subject]])
            return Outcome(task, verdicts=(verdict | {"reached": len(trace.actions), "trace": trace.to_data()},))
    return Outcome(task, verdicts=(verdict,))


JOBS: Final[dict[str, Callable[[Task, Game[Any, Any]], Outcome]]] = {
    "self-check": _self_check,
    "fuzz": _fuzz,
    "explore": _explore,
    "prove": _prove,
    "readings": _readings,
    "table": _table,
    "contradictions": _contradictions,
    "pursue": _pursue,
}


def run_task(task: Task) -> Outcome:
    """Run one task; module-level so that worker processes and Dask can call it."""
    start = time.perf_counter()
    outcome = JOBS[task.job](task, task.game_under())
    return attrs.evolve(outcome, seconds=time.perf_counter() - start)


def _variants(game: type[Game[Any, Any]]) -> Iterator[tuple[str, str]]:
    for option in game.option_space.options:
        for value in option.values:
            if value != option.default:
                yield option.name, value


def tasks_for(game: str, budget: Budget, data: str | None = None) -> list[Task]:
    """Every task of one game's campaign (with the data set in the file `data`, or its default),
    under the defaults first."""
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
                Task(
                    "readings",
                    game,
                    players,
                    variant,
                    size=budget.reading_seeds,
                    max_steps=steps,
                    subject=name,
                    directed=(budget.directed_games, budget.lockstep_states),
                    symbolic=rank == 0,
                )
            )
    return [attrs.evolve(task, data=data) for task in tasks] if data is not None else tasks


def _coverage_of(game: str, outcomes: Sequence[Outcome]) -> tuple[list[Outcome], Counter[str]]:
    """The runs under the defaults of `game` that count coverage, and their clause counts together."""
    runs = [o for o in outcomes if o.coverage is not None and o.task.game == game]
    counts: Counter[str] = Counter()
    for outcome in runs:
        counts.update(outcome.coverage or {})
    return runs, counts


def never_exercised(game: str, outcomes: Sequence[Outcome]) -> list[str]:
    """The clauses of `game` that no run under the defaults exercised (none without fuzzing)."""
    runs, counts = _coverage_of(game, outcomes)
    if not any(o.task.job == "fuzz" for o in runs):
        return []
    return [clause.id for clause in declaration(game).catalogue().clauses if not counts[clause.id]]


def pursuit_tasks(outcomes: Sequence[Outcome], budget: Budget, games: Sequence[str]) -> list[Task]:
    """For every clause no run under the defaults exercised, a clause-directed search toward it at
    each player count the fuzzing covered."""
    tasks = []
    for game in games:
        players = sorted({o.task.players for o in outcomes if o.task.game == game and o.task.job == "fuzz"})
        data = next((o.task.data for o in outcomes if o.task.game == game), None)
        for clause in never_exercised(game, outcomes):
            tasks += [
                Task(
                    "pursue",
                    game,
                    n,
                    size=budget.pursuit_games,
                    max_steps=budget.variant_steps,
                    subject=clause,
                    data=data,
                )
                for n in players
            ]
    return tasks


def dead_rules(game: str, outcomes: Sequence[Outcome], pursued: Sequence[Outcome] = ()) -> list[Evidence]:
    """A clause no run under the defaults exercised, at any player count, explained: unreachable
    at a player count whose whole state space an exploration from the start covered without
    touching it (the exploration is the proof); else reached by a clause-directed search toward it
    (`pursued`), a rare rule with the shortest such trace as witness; else not reached within the
    budget, with every run and search that tried and the counts of every clause as witness."""
    runs, counts = _coverage_of(game, outcomes)
    fuzzing = [o.task for o in runs if o.task.job == "fuzz"]
    if not fuzzing:
        return []
    steps = sum(o.task.size * o.task.max_steps for o in runs if o.task.job == "fuzz")
    tried = f"{len(runs)} runs under the defaults (fuzz and explore; up to {steps} fuzzed actions)"
    first = fuzzing[0]
    replay = (
        f"rulecheck fuzz {game} --players {first.players} --games {first.size} --seed {first.seed} "
        f"--max-steps {first.max_steps}"
    )
    witness = {"coverage": {"runs": [str(o.task) for o in runs], "counts": dict(sorted(counts.items()))}}
    whole = [o for o in runs if o.exhaustive_states is not None]
    chased: dict[str, list[Outcome]] = {}
    for outcome in pursued:
        if outcome.task.game == game:
            chased.setdefault(outcome.task.subject, []).append(outcome)
    found = []
    for clause in declaration(game).catalogue().clauses:
        if counts[clause.id]:
            continue
        searches = chased.get(clause.id, [])
        reached = sorted((v for o in searches for v in o.verdicts if "reached" in v), key=lambda v: v["reached"])
        for players in sorted({task.players for task in fuzzing}):
            proof = next((o for o in whole if o.task.players == players), None)
            if proof is not None:
                title = (
                    f"{clause.id} is unreachable at {players} players: an exploration from the start expanded "
                    f"all {proof.exhaustive_states} states and none exercised it: {clause.text}"
                )
                explored = f"rulecheck explore {game} --players {players} --states {proof.task.size}"
                found.append(Evidence(game, DEAD_RULE, clause.id, title, (clause.id,), players, (), witness, explored))
            elif reached:
                best = reached[0]
                title = (
                    f"{clause.id} is rare: {tried} never exercised it; a clause-directed game at "
                    f"{best['players']} players reached it after {best['reached']} actions: {clause.text}"
                )
                found.append(
                    Evidence(
                        game,
                        DEAD_RULE,
                        clause.id,
                        title,
                        (clause.id,),
                        players,
                        (),
                        {"trace": best["trace"]},
                        f"rulecheck replay {WITNESS}",
                    )
                )
            else:
                search = (
                    f"{searches[0].task.size} clause-directed games of up to {searches[0].task.max_steps} actions "
                    f"at each of {', '.join(str(o.task.players) for o in searches)} players"
                    if searches
                    else "no directed search"
                )
                title = f"{clause.id} not reached within this budget: {tried}, and {search}: {clause.text}"
                found.append(Evidence(game, DEAD_RULE, clause.id, title, (clause.id,), players, (), witness, replay))
    return found


KEY_JOBS: Final = {
    TABLE: ("table",),
    READING: ("readings",),
    CONTRADICTION: ("contradictions",),
    DEAD_RULE: ("fuzz", "explore", "pursue"),
    BROKEN_INVARIANT: ("fuzz", "explore", "prove"),
    **{kind: ("fuzz", "explore") for kind in (DEADLOCK, SELF_LOSS, RULE_GAP, CYCLE, ENGINE_ERROR)},
}
"""The kind of check of each evidence key (CHECK:SUBJECT), and the jobs whose tasks can produce it."""


def producible(name: str) -> dict[str, frozenset[str] | None]:
    """For each kind of check, the subjects the checks of game `name` can produce evidence about
    (None: any, such as a rule gap's id, which the engine names when it meets one)."""
    declared = declaration(name)
    game = declared.game(declared.game.min_players)
    questions = () if declared.statements is None else declared.statement_set(game).questions
    proved = {s.property for s in declared.symbolic_systems(game)} if declared.systems is not None else set()
    return {
        TABLE: frozenset(declared.tables),
        READING: frozenset(o.name for o in declared.game.option_space.options),
        CONTRADICTION: frozenset(q.id for q in questions),
        DEAD_RULE: frozenset(c.id for c in declared.catalogue().clauses),
        BROKEN_INVARIANT: frozenset({p.name for p in declared.properties} | proved),
        SELF_LOSS: frozenset(cls.verb for cls in declared.game.action_types),
        DEADLOCK: None,
        RULE_GAP: None,
        CYCLE: None,
        ENGINE_ERROR: None,
    }


def check_audit_keys(name: str, audit: Sequence[AuditEntry]) -> None:
    """SpecError naming the audit file, the finding and the key for an evidence key that no check
    of the game can produce: an unknown kind of check, or a subject the game does not have."""
    kinds = producible(name)
    for entry in audit:
        for key in entry.evidence:
            check, _, subject = key.partition(":")
            where = f"specs/{declaration(name).audit}: {entry.id}: evidence {key!r}"
            if check not in kinds:
                raise SpecError(f"{where}: no check is called {check!r}; checks: {', '.join(sorted(kinds))}")
            subjects = kinds[check]
            if subjects is not None and subject not in subjects:
                raise SpecError(f"{where}: {name} has no {check} subject {subject!r}")


def not_reproduced(
    name: str, audit: Sequence[AuditEntry], findings: Sequence[Finding], tasks: Sequence[Task], budget: Budget
) -> list[dict[str, Any]]:
    """Every audited finding no check reproduced, with the checks that ran for each of its keys."""
    shown = {f.id for f in findings if f.game == name}
    missing = []
    for entry in audit:
        if entry.id in shown:
            continue
        searched = {}
        for key in entry.evidence:
            check, _, subject = key.partition(":")
            jobs = KEY_JOBS[check]
            ran = [t for t in tasks if t.game == name and t.job in jobs and t.subject in ("", subject)]
            counts = Counter(t.job for t in ran)
            searched[key] = ", ".join(f"{n} {job} task{'s' if n > 1 else ''}" for job, n in sorted(counts.items()))
        missing.append(
            {
                "game": name,
                "id": entry.id,
                "kind": entry.kind,
                "title": entry.title,
                "clauses": list(entry.clauses),
                "budget": budget.name,
                "searched": {key: ran or "no task ran" for key, ran in searched.items()},
            }
        )
    return missing


VERDICT_RANK: Final = {PARTS: 0, PARTS_SYMBOLICALLY: 1, NEVER_PARTS: 2}
"""Which verdict of one option value stands when player counts differ: a game that parts first."""


def reading_verdicts(outcomes: Sequence[Outcome]) -> list[dict[str, Any]]:
    """One verdict per game, option and value: the strongest any player count reached (a game
    where the readings part, then a part in the engine's guards, then never parting), the
    first such; a verdict that they never parted lists every search that was run."""
    merged: dict[tuple[str, str, str], dict[str, Any]] = {}
    for outcome in outcomes:
        for verdict in outcome.verdicts:
            key = (outcome.task.game, verdict["option"], verdict["value"])
            seen = merged.get(key)
            if seen is None or VERDICT_RANK[verdict["verdict"]] < VERDICT_RANK[seen["verdict"]]:
                merged[key] = {"game": outcome.task.game} | verdict
            elif verdict["verdict"] == seen["verdict"] == NEVER_PARTS:
                seen["search"] += f"; {verdict['search']}"
    return [merged[key] for key in sorted(merged)]


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
    data: Mapping[str, str] | None = None,
) -> Verdict:
    """Run the campaign of every game (or of `games`; only the tasks `select` keeps), each with the
    data file `data` names for it (or its default data), write the findings report into `out`,
    and append the ids given to new keys to each game's ledger in `ledgers` (default: the
    package's specs folder; beside the report when that is read-only)."""
    names = sorted(DECLARATIONS) if games is None else list(games)
    data = dict(data or {})
    for name, data_file in data.items():
        data_format = declaration(name).game.data_format
        if data_format is None:
            raise OptionError(f"verify --data: {name} takes no data file")
        data_format.load(data_file)  # a broken data file stops the run before any task does
    folder = specs_folder() if ledgers is None else ledgers
    audits = {name: load_audit(declaration(name).audit) for name in names}
    for name in names:
        check_audit_keys(name, audits[name])
    opened = {
        name: open_ledger(name, file, audits[name], folder, out)
        for name in names
        if (file := declaration(name).ledger) is not None
    }
    tasks = [
        task for name in names for task in tasks_for(name, budget, data.get(name)) if select is None or select(task)
    ]
    outcomes = run_tasks(run_task, tasks, workers=workers, dask=dask, progress=progress)
    chase = [task for task in pursuit_tasks(outcomes, budget, names) if select is None or select(task)]
    pursued = run_tasks(run_task, chase, workers=workers, dask=dask, progress=progress)
    findings: list[Finding] = []
    added: dict[str, tuple[LedgerEntry, ...]] = {}
    for name in names:
        evidence = [e for o in outcomes if o.task.game == name for e in o.evidence]
        evidence += dead_rules(name, outcomes, pursued)
        ledger = opened.get(name)
        found = assemble(name, evidence, audits[name], {} if ledger is None else ledger.ids)
        if ledger is not None:
            added[name] = new_entries(found, ledger.ids)
        findings += found
    missing = [
        item for name in names for item in not_reproduced(name, audits[name], findings, [*tasks, *chase], budget)
    ]
    data = write_report(findings, out, reading_verdicts(outcomes), missing)
    recorded = tuple(
        Recorded(ledger, added[name]) for name, ledger in opened.items() if write_ledger(ledger, added[name])
    )
    return Verdict(tuple(findings), (*outcomes, *pursued), data, recorded)
