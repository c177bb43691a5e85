"""What a campaign's outcomes say beyond their evidence: what was never exercised, what was
never reproduced, and where readings were searched.

Models: the clauses no run under the defaults exercised, the clause-directed searches toward
them and the games of the search policies (greedy, the game's plan, MCTS of a small budget)
watching for them, and what each is: a dead rule, a finding, where an exploration from the
start covered the whole state space without it (the rule can never apply); else a note of
coverage, no finding: a rare rule where a search or a policy reached it, else a rule not
reached within the budget (each note, and each dead rule's witness, names every policy that
played and its budget; the report quotes the clause beside it); the evidence keys a game's
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
    CLAUSE_DIRECTED,
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

SEARCH_PLAYOUTS: Final = 2
"""The MCTS budget of the search for clauses nothing exercised: playouts per move."""
POLICY_GAMES: Final = 4
"""Games of the greedy and the plan policy at each player count in that search."""
MCTS_GAMES: Final = 1
"""Games of MCTS at each player count in that search (each move costs SEARCH_PLAYOUTS playouts)."""


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


def search_policies(game: str) -> tuple[str, ...]:
    """The policies that play `game` in the search for the clauses nothing exercised: greedy, the
    game's plan when its declaration names one, and MCTS with a small budget."""
    planned = ("plan",) if declaration(game).plan is not None else ()
    return ("greedy", *planned, f"mcts:{SEARCH_PLAYOUTS}")


def pursuit_tasks(outcomes: Sequence[Outcome], games: Sequence[str], size: int, max_steps: int) -> list[Task]:
    """For every clause no run under the defaults exercised, a clause-directed search toward it at
    each player count the fuzzing covered; and at each of those counts, games of every search
    policy watching for all of those clauses (POLICY_GAMES each, MCTS_GAMES for MCTS), each task
    with its own seeds, so that any split of the tasks plays the same games."""
    tasks = []
    for game in games:
        players = sorted({o.task.players for o in outcomes if o.task.game == game and o.task.job == "fuzz"})
        data = next((o.task.data for o in outcomes if o.task.game == game), None)
        unexercised = never_exercised(game, outcomes)
        for clause in unexercised:
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
        if unexercised:
            tasks += [
                Task(
                    "play",
                    game,
                    n,
                    seed=n,
                    size=MCTS_GAMES if policy.startswith("mcts:") else POLICY_GAMES,
                    max_steps=max_steps,
                    subject=policy,
                    data=data,
                    targets=tuple(unexercised),
                )
                for policy in search_policies(game)
                for n in players
            ]
    return tasks


def _policies_tried(fuzzing: Sequence[Task], searches: Sequence[Outcome], plays: Sequence[Outcome]) -> list[str]:
    """Every policy that played in search of a clause, with its budget: the uniform fuzzing, the
    clause-directed games and each search policy's games, with their player counts."""
    counts = ", ".join(str(n) for n in sorted({t.players for t in fuzzing}))
    fuzzed = sum(t.size for t in fuzzing)
    tried = [f"random: {fuzzed} fuzzed games of up to {max(t.max_steps for t in fuzzing)} actions at {counts} players"]
    by_player: dict[str, list[Task]] = {CLAUSE_DIRECTED: [o.task for o in searches]}
    for outcome in plays:
        by_player.setdefault(outcome.task.subject, []).append(outcome.task)
    for who, tasks in by_player.items():
        if tasks:
            at = ", ".join(str(n) for n in sorted({t.players for t in tasks}))
            games = f"{tasks[0].size} game{'s' if tasks[0].size != 1 else ''}"
            tried.append(f"{who}: {games} of up to {tasks[0].max_steps} actions at each of {at} players")
    return tried


def dead_rules(game: str, outcomes: Sequence[Outcome], pursued: Sequence[Outcome] = ()) -> list[Evidence]:
    """A clause no run under the defaults exercised, at any player count, explained: a dead rule,
    unreachable at a player count whose whole state space an exploration from the start covered
    without touching it (the exploration is the proof); else a rare rule (RARE_RULE), reached
    by a clause-directed search toward it or a search policy's game (`pursued`), with the
    shortest such trace as witness; else NOT_REACHED within the budget, with every run and
    search that tried and the counts of every clause as witness. A dead rule's witness and a
    clause not reached name every policy that played (random fuzzing, clause-directed, greedy,
    plan, MCTS) and its budget. Only the first is a finding; the others say what the budget did
    not show."""
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
    plays = [o for o in pursued if o.task.game == game and o.task.job == "play"]
    for outcome in pursued:
        if outcome.task.game == game and outcome.task.job == "pursue":
            chased.setdefault(outcome.task.subject, []).append(outcome)
    found = []
    for clause in declaration(game).catalogue().clauses:
        if counts[clause.id]:
            continue
        searches = chased.get(clause.id, [])
        tries = [o for o in plays if clause.id in o.task.targets]
        reached = sorted(
            (v for o in (*searches, *tries) for v in o.verdicts if "reached" in v and v["clause"] == clause.id),
            key=lambda v: v["reached"],
        )
        policies = _policies_tried(fuzzing, searches, tries)
        for players in sorted({task.players for task in fuzzing}):
            proof = next((o for o in whole if o.task.players == players), None)
            if proof is not None:
                title = (
                    f"A rule that can never apply at {players} players: an exploration from the start expanded "
                    f"all {proof.exhaustive_states} positions and none applied {clause.id}: {clause.text}"
                )
                explored = f"rulecheck explore {game} --players {players} --states {proof.task.size}"
                proved = witness | {"policies": policies}
                found.append(Evidence(game, DEAD_RULE, clause.id, title, (clause.id,), players, (), proved, explored))
            elif reached:
                best = reached[0]
                title = (
                    f"reached only by a game of the {best.get('policy', CLAUSE_DIRECTED)} policy at {best['players']} "
                    f"players, after {best['reached']} actions; {tried} never applied it"
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
                title = f"not reached within this budget by any policy that played: {'; '.join(policies)}"
                tried_all = witness | {"policies": policies}
                noted = Evidence(game, NOT_REACHED, clause.id, title, (clause.id,), players, (), tried_all, replay)
                found.append(noted)
    return found


KEY_JOBS: Final = {
    TABLE: ("table",),
    READING: ("readings",),
    SILENT_DECISION: ("silent",),
    CONTRADICTION: ("contradictions",),
    DEAD_RULE: ("fuzz", "explore", "pursue", "play"),
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
            ran = [
                t
                for t in tasks
                if t.game == name and t.job in jobs and (t.subject in ("", subject) or subject in t.targets)
            ]
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
