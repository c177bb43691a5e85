"""Contradictions: rulebook statements of fact as Z3 constraints over the real game data.

Models: asking a game's questions (rulecheck/model/statements.py). Each question's set of
statements is checked with one assumption literal per statement, so an unsatisfiable set
comes back with its unsat core (which statements cannot hold together), and a satisfiable
one with a model as its witness.

Leaves out: the statements themselves, which each game writes over its own data
(rulecheck/games/<game>/statements.py).
"""

from __future__ import annotations

import time
from typing import Any

import attrs

from rulecheck.model.statements import StatementSet


@attrs.frozen
class Answer:
    id: str
    title: str
    consistent: bool
    core: tuple[str, ...]
    """For an inconsistent set: the statements that cannot hold together."""
    clauses: tuple[str, ...]
    witness: dict[str, Any] | None
    seconds: float

    def to_data(self) -> dict[str, Any]:
        return attrs.asdict(self)


def ask(facts: StatementSet) -> list[Answer]:
    """Check each question's statements together over `facts.variables(context)`, built in a
    fresh Z3 context so that cores and models do not depend on what ran before; a satisfying
    model becomes a witness through `facts.describe`."""
    import z3

    context = z3.Context()
    shared = facts.variables(context)
    by_id = {s.id: s for s in facts.statements()}
    answers = []
    for question in facts.questions:
        start = time.perf_counter()
        solver = z3.Solver(ctx=context)
        flags = {}
        for sid in question.statements:
            flag = z3.Bool(f"statement:{sid}", context)
            flags[str(flag)] = sid
            solver.add(z3.Implies(flag, by_id[sid].constraint(shared), context))
        result = solver.check(*(z3.Bool(f"statement:{sid}", context) for sid in question.statements))
        if result == z3.sat:
            answers.append(
                Answer(
                    question.id,
                    question.title,
                    True,
                    (),
                    (),
                    facts.describe(solver.model(), shared),
                    time.perf_counter() - start,
                )
            )
            continue
        core = tuple(sorted(flags[str(c)] for c in solver.unsat_core()))
        clauses = tuple(sorted({c for sid in core for c in by_id[sid].clauses}))
        answers.append(Answer(question.id, question.title, False, core, clauses, None, time.perf_counter() - start))
    return answers
