"""The main job: every check on every game, as independent tasks, gathered into findings.

Models: a budget (how many games, states and seeds each check gets); the campaign of one
game as a list of tasks (jobs.py), each a picklable value with its own seed, so local
processes or a Dask cluster return exactly what a serial run returns: the shared API
self-check, fuzzing and exploration under the defaults at each player count, the variant
sweep (fuzzing, proofs and the reading check under every other value of every option, one
at a time), the proofs, the computed tables and the contradictions, each where the game's
declaration (rulecheck/registry.py) has that part, and the random games of the balance section
(balance.py: who wins, and at the quick and full budgets which readings change it); then a
second round of tasks, a clause-directed search toward each clause the first round never
exercised; then a third, the
shrinking of each witness that shows a generic issue (search/shrink.py), whose shorter game takes the
witness's place. The outcomes
are explained (explain.py: dead rules, the rules the budget did not reach, findings not
reproduced, reading verdicts), the findings filed against the game's audit, new ones under the
ids of the shipped ledger (read only) and of the user's ledger when one is named, where the ids
given to new keys are appended; without one, a new key gets a provisional id of this run
(report/findings.py). Each finding then says what the designer should decide (decide.py), and
findings.html is drawn with each witness's last position where its game has pictures; a broken
audit file or ledger stops the run before any task does. Nothing is written outside the report's
folder but the user's ledgers. Every outcome goes to the campaign's journal (journal.py) as it
arrives, so a run stopped by a signal resumes with only the tasks that had not finished.

Leaves out: presentation (rulecheck/cli/campaign.py prints progress and the summary) and the checks
themselves (fuzz, explore, prove, readings, contradictions).
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import attrs

from rulecheck.check.campaign.balance import balance_section, balance_tasks
from rulecheck.check.campaign.decide import decided
from rulecheck.check.campaign.explain import (
    check_audit_keys,
    dead_rules,
    not_reproduced,
    pursuit_tasks,
    reading_verdicts,
)
from rulecheck.check.campaign.jobs import COVERAGE_NOTES, Outcome, Task, run_task
from rulecheck.check.campaign.journal import FOLDER, Journal
from rulecheck.check.positions.scenario import load_scenario
from rulecheck.check.report.findings import (
    REPORT_PARTS,
    WITNESSES,
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
from rulecheck.check.running.parallel import Workers, local_workers, run_tasks
from rulecheck.check.running.signals import check as check_signals
from rulecheck.check.search.silent import scenario_files, unaudited
from rulecheck.check.watch.generic import ENGINE_ERROR, KINDS
from rulecheck.core.data import DEFAULT_SOURCE
from rulecheck.core.errors import OptionError
from rulecheck.core.files import refuse_link
from rulecheck.core.game import Game
from rulecheck.core.trace import parse_trace, replay
from rulecheck.model.picture import Moment, svg_text
from rulecheck.registry import DECLARATIONS, declaration, make_game


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
    shrink_steps: int
    """The steps each witness's shrinking may replay in all."""
    balance_games: int = 30
    """Random games of each balance task (balance.py)."""
    balance_players: int = 1
    """How many of the game's campaign player counts of 2 or more, fewest first, the balance section covers."""
    balance_readings: bool = False
    """Whether the balance section also plays every other option value, at the fewest of those
    player counts, and compares it with the defaults."""


BUDGETS: Final = {
    "smoke": Budget("smoke", 3, 1, 300, 300, 300, 2, 1, 10, 1, 0, 1, 1, 1, 10_000),
    "quick": Budget("quick", 20, 2, 1500, 800, 3000, 2, 0, 0, 2, 5, 2, 2, 1, 20_000, 100, 99, True),
    "full": Budget("full", 300, 20, 3000, 3000, 100_000, 20, 10, 400, 40, 100, 20, 99, 99, 200_000, 1000, 99, True),
}


FUZZ_SHARE: Final = 10
"""Fuzzing under the defaults is split into tasks of at most this many games, each with its own
seed, so that workers share it."""


MIDGAME: Final = 200
"""A second exploration starts where a random game stands after this many actions."""


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
    first = declared.game.campaign_players[0]
    tasks.append(Task("silent", game, first, seed=first, size=budget.games, max_steps=budget.max_steps))
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
    tasks += balance_tasks(game, budget.balance_games, budget.balance_players, budget.balance_readings)
    return [attrs.evolve(task, data=data) for task in tasks] if data is not None else tasks


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
    resumed: int = 0
    """How many tasks' outcomes were read back from the journal of an earlier run."""

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
    ledgers: Path | None = None,
    data: Mapping[str, str] | None = None,
    resume: bool = False,
) -> Verdict:
    """Run the campaign of every game (or of `games`; only the tasks `select` keeps), each with the
    data file `data` names for it (or its default data), write the findings report into `out`,
    and append the ids given to new keys to each game's ledger in `ledgers` (default: none, so
    new keys get provisional ids and the shipped ledgers are only read). Each outcome is written
    to the journal in `out` as it arrives; with `resume`, the tasks the journal holds an outcome
    of are not run again."""
    check_output(out)
    names = sorted(DECLARATIONS) if games is None else list(games)
    data = dict(data or {})
    for name, data_file in data.items():
        data_format = declaration(name).game.data_format
        if data_format is None:
            raise OptionError(f"verify --data: {name} takes no data file")
        data_format.load(data_file)  # a broken data file stops the run before any task does
    if ledgers is not None and not ledgers.is_dir():
        raise OptionError(f"verify: the ledgers' folder {ledgers} is not a folder")
    audits = {name: load_audit(declaration(name).audit) for name in names}
    for name in names:
        check_audit_keys(name, audits[name])
    opened = {
        name: open_ledger(name, file, audits[name], specs_folder(), ledgers)
        for name in names
        if (file := declaration(name).ledger) is not None
    }
    tasks = [
        task for name in names for task in tasks_for(name, budget, data.get(name)) if select is None or select(task)
    ]
    journal = Journal.open(out, resume)
    with local_workers(workers) as pool:  # the three rounds share the local processes
        outcomes, resumed = _run(tasks, journal, workers, pool, dask, progress)
        chase = [
            task
            for task in pursuit_tasks(outcomes, names, budget.pursuit_games, budget.variant_steps)
            if select is None or select(task)
        ]
        pursued, resumed_pursuits = _run(chase, journal, workers, pool, dask, progress)
        evidence = [e for o in outcomes for e in o.evidence]
        shrinking = [task for task in shrink_tasks(evidence, budget, data) if select is None or select(task)]
        shrunk, resumed_shrinks = _run(shrinking, journal, workers, pool, dask, progress)
    evidence = with_shrunk_witnesses(evidence, shrunk)
    findings: list[Finding] = []
    unreached: list[Evidence] = []
    added: dict[str, tuple[LedgerEntry, ...]] = {}
    for name in names:
        explained = dead_rules(name, outcomes, pursued)
        unreached += [e for e in explained if e.check in COVERAGE_NOTES]
        evidence_of = [e for e in evidence if e.game == name] + [e for e in explained if e.check not in COVERAGE_NOTES]
        ledger = opened.get(name)
        permanent = ledger is not None and ledger.target is not None
        found = assemble(name, evidence_of, audits[name], {} if ledger is None else ledger.ids, permanent)
        if ledger is not None:
            added[name] = new_entries(found, ledger.ids)
        findings += decided(found)
    missing = [
        item for name in names for item in not_reproduced(name, audits[name], findings, [*tasks, *chase], budget.name)
    ]
    clauses = {c.id: c for name in names for c in declaration(name).catalogue().clauses}
    tried = {name: _settings([t for t in tasks if t.game == name and t.job == "fuzz"]) for name in names}
    readings = option_verdicts(reading_verdicts(outcomes), names)
    contracts = [contract_coverage(name) for name in names]
    data = write_report(
        findings,
        out,
        readings,
        missing,
        clauses,
        tried,
        witness_picture,
        unreached,
        contracts,
        balance_section(outcomes),
    )
    recorded = tuple(
        Recorded(ledger, added[name]) for name, ledger in opened.items() if write_ledger(ledger, added[name])
    )
    resumed_all = resumed + resumed_pursuits + resumed_shrinks
    return Verdict(tuple(findings), (*outcomes, *pursued, *shrunk), data, recorded, resumed_all)


def contract_coverage(name: str) -> dict[str, Any]:
    """Which clauses of game `name` have a text contract, and which are unaudited."""
    game = declaration(name).game(declaration(name).game.min_players)
    gap = unaudited(game)
    return {"game": name, "audited": [c for c in game.catalogue().ids if c not in gap], "unaudited": list(gap)}


NOT_SEARCHED: Final = "not searched in this run"
"""The search verdict of an option value no reading task of the run searched."""


def built_positions(name: str) -> dict[tuple[str, str], list[str]]:
    """For each option value, the shipped scenario files (of `name`, setting no option of their
    own) whose `[[expect.when]]` answer under that value alone differs from their `[expect]`
    one: positions built by hand where the readings part."""
    parts: dict[tuple[str, str], list[str]] = {}
    for path in scenario_files(declaration(name).game(declaration(name).game.min_players)):
        scenario = load_scenario(path)
        if scenario.game.options.text != scenario.game.option_space.defaults().text:
            continue
        default = [r.answer for r in scenario.expected if not r.options]
        for reading in scenario.expected:
            if len(reading.options) == 1 and default and reading.answer != default[0]:
                parts.setdefault(reading.options[0], []).append(path.name)
    return parts


def option_verdicts(readings: Sequence[Mapping[str, Any]], names: Sequence[str]) -> list[dict[str, Any]]:
    """Every option value of the games `names` with a verdict: the reading check's (NOT_SEARCHED
    where no task of the run searched it), and under `built` the built positions where it parts."""
    searched = {(r["game"], r["option"], r["value"]): dict(r) for r in readings}
    found = []
    for name in names:
        built = built_positions(name)
        for option in declaration(name).game.option_space.options:
            for value in option.values:
                if value == option.default:
                    continue
                row = searched.get((name, option.name, value)) or {
                    "game": name,
                    "option": option.name,
                    "value": value,
                    "default": option.default,
                    "verdict": NOT_SEARCHED,
                    "search": "none",
                }
                files = built.get((option.name, value), [])
                found.append(row | ({"built": [f"parts in built position {f}" for f in files]} if files else {}))
    return found


def check_output(out: Path) -> None:
    """OutputError naming the first part of the report folder `out` that is a symbolic link (its
    journal, its witnesses folder or a witness in it, its report files): checked before any
    work, and again as each is written, so that nothing is removed or written through a link
    planted there, and no run ends with half its report written."""
    for part in (FOLDER, *REPORT_PARTS):
        refuse_link(out / part)
    if (out / WITNESSES).is_dir():
        for witness in sorted((out / WITNESSES).iterdir()):
            refuse_link(witness)


def witness_picture(data: Mapping[str, Any]) -> str | None:
    """The SVG of the position at a witness trace's last step (its JSON data), or None when its
    game has no pictures or matplotlib, the `draw` extra, is not installed."""
    declared = declaration(data["game"])
    if declared.picture is None or importlib.util.find_spec("matplotlib") is None:
        return None
    trace = parse_trace(json.dumps(data), "a witness")
    source = trace.data[0] if trace.data is not None and trace.data[0] != DEFAULT_SOURCE else None
    game = make_game(trace.game, trace.players, dict(trace.options), data=source)
    moment = Moment(len(trace.actions), "the witness")
    return svg_text(declared.draw(game, replay(game, trace), moment=moment))


def _settings(tasks: Sequence[Task]) -> list[dict[str, Any]]:
    """The distinct settings (players and option values) of `tasks`, in order."""
    found: list[dict[str, Any]] = []
    for task in tasks:
        if (setting := {"players": task.players, **dict(task.variant)}) not in found:
            found.append(setting)
    return found


SHRUNK_KINDS: Final = KINDS - {ENGINE_ERROR}
"""The kinds of issue whose witnesses are shrunk (an engine error is a defect, not a finding)."""


def shrink_tasks(evidence: Sequence[Evidence], budget: Budget, data: Mapping[str, str]) -> list[Task]:
    """A shrinking task for the witness of each evidence key whose witness is a game from the
    initial state that shows a generic issue: the first piece of evidence of each key, the
    one the report shows."""
    tasks, seen = [], set()
    for item in evidence:
        trace = item.witness.get("trace")
        if item.key in seen or item.check not in SHRUNK_KINDS or trace is None or "start" in trace:
            continue
        seen.add(item.key)
        witness = json.dumps(trace, sort_keys=True)
        tasks.append(
            Task(
                "shrink",
                item.game,
                item.players,
                item.variant,
                size=budget.shrink_steps,
                subject=item.key,
                data=data.get(item.game),
                witness=witness,
            )
        )
    return tasks


def with_shrunk_witnesses(evidence: Sequence[Evidence], shrunk: Sequence[Outcome]) -> list[Evidence]:
    """`evidence` with the first piece of each key that was shrunk replaced by its shrunk witness."""
    replacement = {o.task.subject: o.evidence[0] for o in shrunk}
    replaced = []
    for item in evidence:
        replaced.append(replacement.pop(item.key, item))
    return replaced


def _run(
    tasks: Sequence[Task],
    journal: Journal,
    workers: int,
    pool: Workers | None,
    dask: str | None,
    progress: Callable[[int, int, Task, Outcome], None] | None,
) -> tuple[list[Outcome], int]:
    """The outcome of every task, in task order: the journal's where it has one, else run (and
    written to the journal as it arrives); and how many came from the journal."""
    recorded = [journal.outcome(task) for task in tasks]
    pending = [task for task, outcome in zip(tasks, recorded) if outcome is None]
    done = len(tasks) - len(pending)

    def arrived(count: int, _total: int, task: Task, outcome: Outcome) -> None:
        check_signals()  # an outcome that arrives after a signal may be a run cut short
        journal.write(outcome)
        if progress is not None:
            progress(done + count, len(tasks), task, outcome)

    fresh = iter(run_tasks(run_task, pending, workers=workers, dask=dask, progress=arrived, pool=pool))
    return [outcome if outcome is not None else next(fresh) for outcome in recorded], done
