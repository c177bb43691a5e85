"""The vocabulary of proofs: a symbolic system per property, as a game declares it for the prover.

Models: a system's variables (ints and booleans), the initial condition, the claim (what the
property says), a lemma that makes the claim inductive where it is not on its own, and the
steps that can change those variables, each a relation between the values before (v) and
after (w) written over the kernel's `ops`, so that a game's steps can call the very
functions its engine calls. A system's `basis` says what ties it to the engine: `ops` when
every guard and effect is an engine function over ops; `refinement` when some part (board
structure) is encoded in the system, in which case its `abstraction` maps concrete states to
valuations so that play can be checked against the steps.

Leaves out: proving (rulecheck/check/proofs/prove.py: induction, bounded model checking and the
refinement check) and the systems themselves (each game's symbolic.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final

import attrs

from rulecheck.core.ops import Ops

INT: Final = "int"
BOOL: Final = "bool"

Valuation = Mapping[str, Any]


@attrs.frozen
class Step:
    """One way the variables change; `relation(ops, v, w)` holds when v may become w."""

    name: str
    clauses: tuple[str, ...]
    relation: Callable[[Ops, Valuation, Valuation], Any]
    obligation: Callable[[Ops, Valuation, Valuation], Any] | None = None
    """For a transition property: what this step must satisfy, besides keeping the invariant."""


@attrs.frozen
class System:
    """What a proof of one property needs."""

    property: str
    clauses: tuple[str, ...]
    variables: tuple[tuple[str, str], ...]
    """(name, INT or BOOL) for each variable."""
    init: Callable[[Ops, Valuation], Any]
    claim: Callable[[Ops, Valuation], Any]
    """What the property says of every reachable state."""
    steps: tuple[Step, ...]
    basis: str = "ops"
    lemma: Callable[[Ops, Valuation], Any] | None = None
    """What else must hold for the claim to be inductive (proved along with it)."""
    abstraction: Callable[[Any, Any], Iterable[Valuation]] | None = None
    """For basis `refinement`: the valuations a concrete state stands for (one per planet, player...)."""
    context: frozenset[str] = frozenset()
    """Variables the steps read but never constrain afterwards (where the Rovers stand): a concrete
    step that changes only these leaves the property's own variables alone."""
    witness: Callable[[], Sequence[Any] | None] | None = None
    """Where random play is unlikely to find a refutation: actions of a game, from its start, that
    are meant to break the property (the campaign replays them and keeps them only if they do)."""
    instances: Callable[[Valuation, Valuation], Iterable[Valuation]] | None = None
    """For steps with parameters (which space a Fortification goes on, free variables in proofs): the
    parameter values that could explain a concrete change from v to w, tried when matching it."""


def unchanged(ops: Ops, v: Valuation, w: Valuation, *names: str) -> Any:
    """The frame condition: these variables keep their values."""
    return ops.and_(*(v[n] == w[n] for n in names)) if names else True
