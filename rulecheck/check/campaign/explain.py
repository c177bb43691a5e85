"""What a campaign's outcomes say beyond their evidence: what was never exercised, what was
never reproduced, and where readings were searched.

Models: the clauses no run under the defaults exercised, the clause-directed searches toward
them, and what each is: a dead rule, a finding, where an exploration from the start covered the
whole state space without it (the rule can never apply); else a note of coverage, no finding:
a rare rule where a search reached it, else a rule not reached within the budget (each note
says what the checks did; the report quotes the clause beside it); the evidence keys a game's
checks can produce, against which every audit file is checked; the audited findings no check
reproduced, with the tasks that ran for each key; and one verdict per option value of the
reading check.

Leaves out: running anything (jobs.py runs tasks, verify.py runs the campaign) and the report's
layout (report/findings.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, Final

from rulecheck.check.campaign.jobs import (
    CONTRADICTION,
    DEAD_RULE,
    NEVER_PARTS,
    NOT_REACHED,
    PARTS,
    PARTS_SYMBOLICALLY,
    RARE_RULE,
    READING,
    SILENT_DECISION,
    TABLE,
    Outcome,
    Task,
)
from rulecheck.check.report.findings import (
    WITNESS,
    AuditEntry,
    Evidence,
    Finding,
)
from rulecheck.check.search.silent import subjects
from rulecheck.check.watch.generic import (
    BROKEN_INVARIANT,
    CYCLE,
    DEADLOCK,
    ENGINE_ERROR,
    RULE_GAP,
    SELF_LOSS,
)
from rulecheck.core.errors import SpecError
from rulecheck.registry import declaration


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


def pursuit_tasks(outcomes: Sequence[Outcome], games: Sequence[str], size: int, max_steps: int) -> list[Task]:
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
                    size=size,
                    max_steps=max_steps,
                    subject=clause,
                    data=data,
                )
                for n in players
            ]
    return tasks


def dead_rules(game: str, outcomes: Sequence[Outcome], pursued: Sequence[Outcome] = ()) -> list[Evidence]:
    """A clause no run under the defaults exercised, at any player count, explained: a dead rule,
    unreachable at a player count whose whole state space an exploration from the start covered
    without touching it (the exploration is the proof); else a rare rule (RARE_RULE), reached by a
    clause-directed search toward it (`pursued`), with the shortest such trace as witness; else
    NOT_REACHED within the budget, with every run and search that tried and the counts of every
    clause as witness. Only the first is a finding; the others say what the budget did not show."""
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
                    f"A rule that can never apply at {players} players: an exploration from the start expanded "
                    f"all {proof.exhaustive_states} positions and none applied {clause.id}: {clause.text}"
                )
                explored = f"rulecheck explore {game} --players {players} --states {proof.task.size}"
                found.append(Evidence(game, DEAD_RULE, clause.id, title, (clause.id,), players, (), witness, explored))
            elif reached:
                best = reached[0]
                title = (
                    f"reached only by a clause-directed game at {best['players']} players, after {best['reached']} "
                    f"actions; {tried} never applied it"
                )
                found.append(
                    Evidence(
                        game,
                        RARE_RULE,
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
                title = f"not reached within this budget: {tried}, and {search}"
                found.append(Evidence(game, NOT_REACHED, clause.id, title, (clause.id,), players, (), witness, replay))
    return found


KEY_JOBS: Final = {
    TABLE: ("table",),
    READING: ("readings",),
    SILENT_DECISION: ("silent",),
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
        SILENT_DECISION: subjects(declared.texts),
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
    name: str, audit: Sequence[AuditEntry], findings: Sequence[Finding], tasks: Sequence[Task], budget: str
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
                "budget": budget,
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
