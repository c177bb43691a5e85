"""Readings that matter, found by Z3 in the engine's own guards and effects.

Models: two readings of one game (`base` and `variant`, the same game and players under
different options) each declare their symbolic systems (rulecheck/model/proof.py), whose
steps call the engine's own functions over `ops`. For each system both declare on the `ops`
basis, and each of its steps, Z3 is asked for the shortest run of the base's steps from the
initial condition (bounded model checking, up to `depth` steps) that ends in a valuation
where the step allows a change under one reading and not under the other; a step that allows no
such change from any valuation at all, reachable or not, is left out of that search at once. Such a valuation
is where the readings part in the engine's code: the witness names the system, the step, the
run to it and the change that only one reading allows.

Leaves out: whether a concrete state of the game has that valuation (the variables a system
does not track are free, as in the proofs), so a symbolic divergence says where the rules'
code parts, and the concrete reading check (search/readings.py) looks for a game that gets there.
Systems on the `refinement` basis encode part of the board themselves and are not compared.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import attrs

from rulecheck.check.proofs.prove import terms, values
from rulecheck.core.ops import Z3Ops
from rulecheck.model.proof import Step, System

DEPTH: Final = 16
"""The longest run of the base's steps searched before a step where the readings part."""


@attrs.frozen
class SymbolicDivergence:
    system: str
    step: str
    clauses: tuple[str, ...]
    run: tuple[dict[str, Any], ...]
    """From the initial condition: each step of the base taken and the values after it."""
    after: dict[str, Any]
    """A change the step allows from the run's last values under only one reading."""
    allowed_under: str
    """"base" or "variant": the reading that allows the change."""

    def to_data(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "step": self.step,
            "clauses": list(self.clauses),
            "run": [dict(entry) for entry in self.run],
            "after": dict(self.after),
            "allowed_under": self.allowed_under,
        }

    def describe(self, base: str, variant: str) -> str:
        reading, other = (base, variant) if self.allowed_under == "base" else (variant, base)

        def shown(valuation: dict[str, Any]) -> str:
            return ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in valuation.items())

        return (
            f"{self.system}, {len(self.run) - 1} steps from the start: step {self.step} may go from "
            f"({shown(self.run[-1]['values'])}) to ({shown(self.after)}) under {reading}, not under {other}"
        )


def _relation(ops: Z3Ops, steps: Sequence[Step], name: str, v: Any, w: Any) -> Any:
    found = [s for s in steps if s.name == name]
    return found[0].relation(ops, v, w) if found else False


def _parting(ops: Z3Ops, base: System, variant: System, name: str, v: Any, w: Any) -> Any:
    """Step `name` allows the change from `v` to `w` under one of the two systems only."""
    here, there = (_relation(ops, s.steps, name, v, w) for s in (base, variant))
    return ops.or_(ops.and_(here, ops.not_(there)), ops.and_(there, ops.not_(here)))


def _may_part(ops: Z3Ops, base: System, variant: System, name: str) -> bool:
    """Whether step `name` allows a change under one system only from any valuation at all,
    reachable or not: a step that never does cannot part the readings at the end of any run, so
    the run search leaves it out (most steps of most readings are the same code)."""
    solver = ops.solver()
    solver.add(_parting(ops, base, variant, name, terms(ops, base, "@any"), terms(ops, base, "@any'")))
    return solver.check() != ops.z3.unsat


def divergence(base: System, variant: System, depth: int = DEPTH) -> SymbolicDivergence | None:
    """The shortest run of `base`'s steps to a valuation where some step allows a change under one
    of the two systems only; None if there is none within `depth` steps."""
    ops = Z3Ops(fresh=True)
    z3 = ops.z3
    every = sorted({s.name for s in base.steps} | {s.name for s in variant.steps})
    names = [name for name in every if _may_part(ops, base, variant, name)]
    if not names:
        return None
    states = [terms(ops, base, "@0")]
    solver = ops.solver()
    solver.add(base.init(ops, states[0]))
    for k in range(depth + 1):
        after = terms(ops, base, f"@{k}'")
        for name in names:
            solver.push()
            solver.add(_parting(ops, base, variant, name, states[k], after))
            if solver.check() == z3.sat:
                model = solver.model()
                run = [{"step": "initial", "values": values(z3, model, states[0])}]
                for i in range(k):
                    index = model.eval(ops.int(f"step@{i}"), model_completion=True).as_long()
                    run.append({"step": base.steps[index].name, "values": values(z3, model, states[i + 1])})
                here = _relation(ops, base.steps, name, states[k], after)
                allowed = "base" if z3.is_true(model.eval(here, model_completion=True)) else "variant"
                clauses = next(s.clauses for s in (*base.steps, *variant.steps) if s.name == name)
                return SymbolicDivergence(base.property, name, clauses, tuple(run), values(z3, model, after), allowed)
            solver.pop()
        if k == depth:
            break
        states.append(terms(ops, base, f"@{k + 1}"))
        chosen = ops.int(f"step@{k}")
        solver.add(
            ops.or_(
                *(ops.and_(chosen == i, s.relation(ops, states[k], states[k + 1])) for i, s in enumerate(base.steps))
            )
        )
    return None


def divergences(base: Sequence[System], variant: Sequence[System]) -> list[SymbolicDivergence]:
    """For each system both readings declare on the `ops` basis (matched by property), where the
    readings first part, if they do within DEPTH steps."""
    theirs = {s.property: s for s in variant if s.basis == "ops"}
    found = []
    for system in base:
        other = theirs.get(system.property)
        if system.basis == "ops" and other is not None:
            if (parted := divergence(system, other)) is not None:
                found.append(parted)
    return found
