"""Contradictions: rulebook statements of fact as Z3 constraints over the real game data.

Models: a statement is a named constraint (with the clause ids it comes from, or marked as
a reading the text implies but does not say) built over shared Z3 variables; a question
is a set of statements asked together. Each set is checked with one assumption literal
per statement, so an unsatisfiable set comes back with its unsat core (which statements
cannot hold together), and a satisfiable one with a model as its witness.

Leaves out: the statements themselves, which each game writes over its own data
(rulecheck/games/<game>/statements.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs


@attrs.frozen
class Statement:
    id: str
    clauses: tuple[str, ...]
    text: str
    constraint: Callable[[Any], Any]
    """Builds the Z3 constraint from the shared variables."""
    reading: bool = False
    """True for what a reading of the text implies (not what the text says)."""


@attrs.frozen
class Question:
    id: str
    title: str
    statements: tuple[str, ...]


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


def ask(
    variables: Callable[[Any], Any],
    statements: Sequence[Statement],
    questions: Sequence[Question],
    describe: Callable[[Any, Any], dict[str, Any]],
) -> list[Answer]:
    """Check each question's statements together over `variables(context)`, built in a fresh Z3
    context so that cores and models do not depend on what ran before; `describe(model,
    variables)` turns a model into a witness."""
    import z3

    context = z3.Context()
    shared = variables(context)
    by_id = {s.id: s for s in statements}
    answers = []
    for question in questions:
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
                    describe(solver.model(), shared),
                    time.perf_counter() - start,
                )
            )
            continue
        core = tuple(sorted(flags[str(c)] for c in solver.unsat_core()))
        clauses = tuple(sorted({c for sid in core for c in by_id[sid].clauses}))
        answers.append(Answer(question.id, question.title, False, core, clauses, None, time.perf_counter() - start))
    return answers
