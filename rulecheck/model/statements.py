"""The vocabulary of contradictions: rulebook statements of fact, as a game declares them for Z3.

Models: a statement is a named constraint (with the clause ids it comes from, or marked as a
reading the text implies but does not say) built over variables the game's statements share;
a question is a set of statements asked together; a game's StatementSet gathers the function
that makes those variables in a Z3 context, the statements, the questions and the function
that turns a model into a witness.

Leaves out: asking (rulecheck/check/proofs/contradictions.py: unsat cores and witnesses) and the
statements themselves, which each game writes over its own data (its statements.py).
"""

from __future__ import annotations

from collections.abc import Callable
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
class StatementSet:
    """Everything `ask` needs of one game."""

    variables: Callable[[Any], Any]
    """The shared Z3 variables, made in the Z3 context it is given."""
    statements: Callable[[], tuple[Statement, ...]]
    """The statements, built when asked (they import Z3 and read the game's data)."""
    questions: tuple[Question, ...]
    describe: Callable[[Any, Any], dict[str, Any]]
    """`describe(model, variables)`: a satisfying model as a witness."""
