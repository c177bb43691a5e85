"""A game's proofs, tied to the engine: the prover, refinement against real play, witnesses.

Models: for each symbolic system a game declares (rulecheck/registry.py): the
Z3 result; for a system whose basis is refinement, every transition of some random games
checked against its symbolic steps (a mismatch turns a proof into `unknown`); and for a
refutation, a concrete, replayable trace: the system's own goal-directed witness where it
has one (kept only if replaying it breaks the property), else Hypothesis fuzzing with that
one property checked.

Leaves out: the prover itself (prove.py) and presentation (rulecheck/cli/analysis.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from rulecheck.check.play.playthrough import random_game
from rulecheck.check.proofs.prove import REFUTED, UNKNOWN, Result, prove, refinement_violations
from rulecheck.check.search.fuzz import fuzz
from rulecheck.check.watch.generic import BROKEN_INVARIANT
from rulecheck.check.watch.property_checks import failures
from rulecheck.core.errors import SpecError
from rulecheck.core.game import Game
from rulecheck.core.progress import Progress, no_progress
from rulecheck.core.trace import Trace, record, replay_steps
from rulecheck.model.proof import System
from rulecheck.model.properties import Property
from rulecheck.registry import declaration

REFINEMENT_GAMES = 5
REFINEMENT_STEPS = 400
WITNESS_GAMES = 100


@attrs.frozen
class Proof:
    result: Result
    promised: bool
    """Whether the rulebook promises the property under the game's options."""
    refinement_steps: int = 0
    refinement_mismatches: tuple[str, ...] = ()
    witness: Trace | None = None

    def to_data(self) -> dict[str, Any]:
        data = self.result.to_data()
        data["promised"] = self.promised
        if self.result.basis == "refinement":
            data["refinement"] = {"steps": self.refinement_steps, "mismatches": list(self.refinement_mismatches)}
        data["witness"] = self.witness.to_data() if self.witness is not None else None
        return data


def _property_for(system: System, properties: tuple[Property, ...]) -> Property:
    base = system.property.split(" (")[0]
    for prop in properties:
        if prop.name == base:
            return prop
    raise SpecError(f"symbolic system {system.property!r} proves no property of properties/*.py")


def _refinement(system: System, game: Game[Any, Any], seed: int) -> tuple[int, tuple[str, ...]]:
    steps = 0
    mismatches: list[str] = []
    for offset in range(REFINEMENT_GAMES):
        play = random_game(game, seed + offset, REFINEMENT_STEPS)
        transitions = list(zip(play.states, play.actions, play.states[1:]))
        steps += len(transitions)
        mismatches += refinement_violations(system, game, transitions)
    return steps, tuple(mismatches)


def _breaks(game: Game[Any, Any], prop: Property, actions: Sequence[Any]) -> Trace | None:
    """The trace of `actions` if replaying it breaks `prop` at its last step."""
    trace = record(game, actions)
    steps = list(replay_steps(game, trace))
    if steps and failures(game, [prop], *steps[-1]):
        return trace
    return None


def _witness(system: System, prop: Property, game: Game[Any, Any], games: int, seed: int) -> Trace | None:
    """A concrete trace breaking `prop`: the system's own witness if it has one and it does
    break the property on replay, else the first one fuzzing finds."""
    if system.witness is not None and (actions := system.witness()) is not None:
        if (trace := _breaks(game, prop, actions)) is not None:
            return trace
    if not games:
        return None
    report = fuzz(game, [prop], games=games, seed=seed, kinds=frozenset({BROKEN_INVARIANT}), shrink_findings=True)
    return report.found[0].trace if report.found else None


def prove_game(
    game: Game[Any, Any], seed: int = 0, witness_games: int = WITNESS_GAMES, progress: Progress = no_progress
) -> list[Proof]:
    """Every symbolic system of `game`, proved or refuted, checked against the engine; `progress`
    hears the systems done of all, as each is done."""
    declared = declaration(game.name)
    proofs = []
    systems = declared.symbolic_systems(game)
    progress(0, len(systems))
    for system in systems:
        prop = _property_for(system, declared.properties)
        result = prove(system)
        steps, mismatches = _refinement(system, game, seed) if system.basis == "refinement" else (0, ())
        if mismatches:
            result = attrs.evolve(result, status=UNKNOWN)
        witness = _witness(system, prop, game, witness_games, seed) if result.status == REFUTED else None
        proofs.append(Proof(result, prop.applies(game.options), steps, mismatches, witness))
        progress(len(proofs), len(systems))
    return proofs
