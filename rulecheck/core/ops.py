"""Arithmetic written once, run on Python ints by the engines and on Z3 terms by the prover.

Models: the few operations a guard or effect on a game's counters needs (energy, hit
points, build points, saved actions, money) that Python's operators do not already
cover for both kinds of value: if-then-else, min, max and the boolean connectives.
`+`, `-`, `*`, `<`, `<=` and `==` work on ints and on Z3 terms alike, so a rule is
written as `def save(ops, saved): return ops.min(saved + 1, CAP)` and called with
`INT_OPS` in the engine and with `Z3Ops()` in a proof. A proof about such a function
is a proof about the engine's code.

A guard made only of the boolean connectives also runs on sets of places as bitmasks
(`MaskOps`): called with, for each condition, the set of spaces where it holds, it gives
the set where the guard holds, which answers it for every space of a board at once.

Leaves out: data structures (board spaces, card lists); a rule over those is checked
by refinement against fuzzed transitions, not evaluated on Z3 terms.
"""

from __future__ import annotations

from typing import Any, Protocol


class Ops(Protocol):
    """The operations a counter rule may use beyond Python's arithmetic and comparisons."""

    def ite(self, cond: Any, then: Any, otherwise: Any) -> Any: ...
    def min(self, a: Any, b: Any) -> Any: ...
    def max(self, a: Any, b: Any) -> Any: ...
    def and_(self, *conds: Any) -> Any: ...
    def or_(self, *conds: Any) -> Any: ...
    def not_(self, cond: Any) -> Any: ...
    def implies(self, cond: Any, then: Any) -> Any: ...


class IntOps:
    """The engine's ops: plain Python values."""

    def ite(self, cond: bool, then: Any, otherwise: Any) -> Any:
        return then if cond else otherwise

    def min(self, a: int, b: int) -> int:
        return a if a <= b else b

    def max(self, a: int, b: int) -> int:
        return a if a >= b else b

    def and_(self, *conds: bool) -> bool:
        return all(conds)

    def or_(self, *conds: bool) -> bool:
        return any(conds)

    def not_(self, cond: bool) -> bool:
        return not cond

    def implies(self, cond: bool, then: bool) -> bool:
        return (not cond) or then


INT_OPS = IntOps()


class MaskOps:
    """Ops on sets drawn from a universe of `size` places, each set a bitmask (bit i for place i):
    a condition's value is the set of places where it holds, and the connectives are the set
    operations, so a boolean guard on masks is the guard on each place at once. Only the
    connectives and if-then-else have a meaning here; min and max, on numbers, raise TypeError."""

    def __init__(self, size: int) -> None:
        self.every = (1 << size) - 1
        """The set of every place."""

    def ite(self, cond: int, then: int, otherwise: int) -> int:
        return (cond & then) | (self.not_(cond) & otherwise)

    def min(self, a: Any, b: Any) -> Any:
        raise TypeError("a set of places has no minimum: MaskOps runs boolean guards only")

    def max(self, a: Any, b: Any) -> Any:
        raise TypeError("a set of places has no maximum: MaskOps runs boolean guards only")

    def and_(self, *conds: int) -> int:
        found = self.every
        for cond in conds:
            found &= cond
        return found

    def or_(self, *conds: int) -> int:
        found = 0
        for cond in conds:
            found |= cond
        return found

    def not_(self, cond: int) -> int:
        return self.every & ~cond

    def implies(self, cond: int, then: int) -> int:
        return self.not_(cond) | then


class Z3Ops:
    """The prover's ops: Z3 terms in one Z3 context. z3 is imported only when a prover builds
    one. A proof that owns a fresh context (`Z3Ops(fresh=True)`) gets the same models whatever
    else ran in the process before it, which keeps witnesses identical across workers."""

    def __init__(self, fresh: bool = False) -> None:
        import z3

        self.z3 = z3
        self.ctx = z3.Context() if fresh else z3.main_ctx()

    def int(self, name: str) -> Any:
        return self.z3.Int(name, self.ctx)

    def bool(self, name: str) -> Any:
        return self.z3.Bool(name, self.ctx)

    def solver(self) -> Any:
        return self.z3.Solver(ctx=self.ctx)

    def ite(self, cond: Any, then: Any, otherwise: Any) -> Any:
        return self.z3.If(cond, then, otherwise, self.ctx)

    def min(self, a: Any, b: Any) -> Any:
        return self.ite(a <= b, a, b)

    def max(self, a: Any, b: Any) -> Any:
        return self.ite(a >= b, a, b)

    def and_(self, *conds: Any) -> Any:
        return self.z3.And(*conds, self.ctx)

    def or_(self, *conds: Any) -> Any:
        return self.z3.Or(*conds, self.ctx)

    def not_(self, cond: Any) -> Any:
        return self.z3.Not(cond, self.ctx)

    def implies(self, cond: Any, then: Any) -> Any:
        return self.z3.Implies(cond, then, self.ctx)
