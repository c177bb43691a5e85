"""Z3 proofs of a game's invariants, built from the engine's own guards and effects.

Models: the proof of each symbolic system a game declares (rulecheck/model/proof.py: its
variables, initial condition, claim, lemma and steps, written over the kernel's `ops` and
calling the very functions the engine calls, so a proof is about the engine's code). For
each property:

  * induction: the initial condition implies claim and lemma, and they and any step imply
    them afterwards (for a transition property, every step also meets its obligation);
  * when induction fails, the step and values that break it (a counterexample to
    induction), then bounded model checking: is a state breaking the claim (or a step
    breaking its obligation) reachable from the initial condition within `depth` steps?
    If so the status is `refuted` with that abstract run; if not, `unknown`.

For a system whose basis is `refinement` (some part, such as board structure, encoded in the
system), `refinement_violations` checks every transition seen in play against the symbolic
steps.

Leaves out: everything about a state the property does not read; those parts of a state
are free (havoc) in the proof, which is sound for an invariant that does not mention them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs

from rulecheck.core.ops import INT_OPS, Ops, Z3Ops
from rulecheck.model.proof import BOOL, INT, Step, System, Valuation

PROVED = "proved"
REFUTED = "refuted"
UNKNOWN = "unknown"
DEFAULT_DEPTH = 16


@attrs.frozen
class Result:
    property: str
    clauses: tuple[str, ...]
    status: str
    seconds: float
    basis: str
    counterexample: dict[str, Any] | None = None
    """For a failed induction: the step and the values before and after it."""
    run: tuple[dict[str, Any], ...] | None = None
    """For a refutation: the abstract run from an initial state, step by step."""

    def to_data(self) -> dict[str, Any]:
        return {
            "property": self.property,
            "clauses": list(self.clauses),
            "status": self.status,
            "seconds": round(self.seconds, 3),
            "basis": self.basis,
            "counterexample": self.counterexample,
            "run": list(self.run) if self.run is not None else None,
        }


def terms(ops: Z3Ops, system: System, suffix: str) -> dict[str, Any]:
    make = {INT: ops.int, BOOL: ops.bool}
    return {name: make[sort](f"{name}{suffix}") for name, sort in system.variables}


def values(z3: Any, model: Any, terms: Mapping[str, Any]) -> dict[str, Any]:
    out = {}
    for name, term in terms.items():
        value = model.eval(term, model_completion=True)
        out[name] = z3.is_true(value) if z3.is_bool(value) else value.as_long()
    return out


def _invariant(ops: Ops, system: System, v: Valuation) -> Any:
    """The claim with its lemma: what induction proves."""
    return system.claim(ops, v) if system.lemma is None else ops.and_(system.claim(ops, v), system.lemma(ops, v))


def _broken(ops: Ops, system: System, v: Valuation, w: Valuation, step: Step, keep: Callable[..., Any]) -> Any:
    """`step` takes v to w and w breaks `keep` (or the step its obligation)."""
    bad = ops.not_(keep(ops, system, w))
    if step.obligation is not None:
        bad = ops.or_(bad, ops.not_(step.obligation(ops, v, w)))
    return ops.and_(step.relation(ops, v, w), bad)


def _claim(ops: Ops, system: System, v: Valuation) -> Any:
    return system.claim(ops, v)


def _bounded_run(ops: Z3Ops, system: System, depth: int) -> tuple[dict[str, Any], ...] | None:
    """The shortest run from an initial state to a state that breaks the claim (or a step that
    breaks its obligation), within `depth` steps."""
    z3 = ops.z3
    states = [terms(ops, system, "@0")]
    solver = ops.solver()
    solver.add(system.init(ops, states[0]))
    for k in range(depth):
        states.append(terms(ops, system, f"@{k + 1}"))
        chosen = ops.int(f"step@{k}")
        solver.add(
            ops.or_(
                *(ops.and_(chosen == i, s.relation(ops, states[k], states[k + 1])) for i, s in enumerate(system.steps))
            )
        )
        solver.push()
        solver.add(
            ops.or_(
                *(
                    ops.and_(chosen == i, _broken(ops, system, states[k], states[k + 1], s, _claim))
                    for i, s in enumerate(system.steps)
                )
            )
        )
        if solver.check() == z3.sat:
            model = solver.model()
            run = [{"step": "initial", "values": values(z3, model, states[0])}]
            for i in range(k + 1):
                index = model.eval(ops.int(f"step@{i}"), model_completion=True).as_long()
                run.append({"step": system.steps[index].name, "values": values(z3, model, states[i + 1])})
            return tuple(run)
        solver.pop()
    return None


def prove(system: System, depth: int = DEFAULT_DEPTH) -> Result:
    """Induction on `system`, and bounded model checking where induction fails."""
    start = time.perf_counter()
    ops = Z3Ops(fresh=True)
    z3 = ops.z3
    v, w = terms(ops, system, ""), terms(ops, system, "'")
    counterexample = None
    solver = ops.solver()
    solver.add(system.init(ops, v), ops.not_(_invariant(ops, system, v)))
    if solver.check() == z3.sat:
        counterexample = {"step": "initial", "before": None, "after": values(z3, solver.model(), v)}
    solver = ops.solver()
    solver.add(_invariant(ops, system, v))
    for step in system.steps:
        if counterexample is not None:
            break
        solver.push()
        solver.add(_broken(ops, system, v, w, step, _invariant))
        if solver.check() == z3.sat:
            model = solver.model()
            counterexample = {"step": step.name, "before": values(z3, model, v), "after": values(z3, model, w)}
        solver.pop()
    if counterexample is None:
        return Result(system.property, system.clauses, PROVED, time.perf_counter() - start, system.basis)
    run = _bounded_run(ops, system, depth)
    status = REFUTED if run is not None else UNKNOWN
    return Result(
        system.property, system.clauses, status, time.perf_counter() - start, system.basis, counterexample, run
    )


def refinement_violations(system: System, game: Any, transitions: Iterable[tuple[Any, Any, Any]]) -> list[str]:
    """Concrete steps (state, action, next state) whose abstraction matches no symbolic step
    (nor leaves the variables alone): each is a place where the symbolic model and the engine
    disagree."""
    assert system.abstraction is not None
    abstraction = system.abstraction
    problems = []
    names = [name for name, _ in system.variables if name not in system.context]
    last: tuple[object, list[Valuation]] = (object(), [])  # the state a step ended in, abstracted
    for before, action, after in transitions:
        # A step starts where the one before it ended: that state's abstraction is made once.
        ahead = last[1] if before is last[0] else list(abstraction(game, before))
        last = (after, list(abstraction(game, after)))
        for v, w in zip(ahead, last[1]):
            if all(v[n] == w[n] for n in names):
                continue
            choices = list(system.instances(v, w)) if system.instances is not None else [{}]
            if not any(step.relation(INT_OPS, {**v, **c}, {**w, **c}) for step in system.steps for c in choices):
                changed = sorted(n for n in names if v[n] != w[n])
                problems.append(f"{action}: changes {', '.join(changed)} as no symbolic step allows")
    return problems
