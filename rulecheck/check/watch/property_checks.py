"""Properties on a step: which ones a game's options promise, and which fail.

Models: the properties the rulebook promises under a game's option values; every property
(rulecheck/model/properties.py) that fails on one step, with its explanation; and, along a
run whose every state was checked, which properties a step may have changed the answer of.

Leaves out: the properties themselves (properties/<game>.py, reached through the game's
declaration) and how states are produced (fuzzing, exploration, tests all use these).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rulecheck.core.game import Game
from rulecheck.model.properties import Property, StateProperty


def promised(game: Game[Any, Any], properties: Sequence[Property]) -> tuple[Property, ...]:
    """The properties the rulebook promises under the game's option values."""
    return tuple(p for p in properties if p.applies(game.options))


def failures(
    game: Game[Any, Any], properties: Sequence[Property], before: Any, action: Any, after: Any
) -> list[tuple[Property, str]]:
    """Every property that fails on the step `before --action--> after`; with `action` None,
    only the state properties of `after` (the initial state). A run that checked `before`
    already checks only what the step may have changed (StepChecks)."""
    found = []
    for prop in properties:
        if isinstance(prop, StateProperty):
            message = prop.check(game, after)
        elif action is not None:
            message = prop.check(game, before, action, after)
        else:
            continue
        if message is not None:
            found.append((prop, message))
    return found


class StepChecks:
    """Properties checked on every step of a run, so each step checks only what it may have
    changed: a state property that declares its `reads` gives the same answer on a state whose
    fields it reads are the very same objects as on the state before, which the run checked.
    A step's changes are found in one pass over every field some property reads; which
    properties each pattern of changes leaves to check is worked out once and kept."""

    def __init__(self, properties: Sequence[Property]) -> None:
        self.properties = tuple(properties)
        self.fields = tuple(sorted({f for p in self.properties if isinstance(p, StateProperty) for f in p.reads}))
        """Every field some state property reads."""
        self._to_check: dict[frozenset[str], tuple[Property, ...]] = {}
        """For each set of read fields a step changed, the properties it may have changed the answer of."""

    def changed_by(self, before: Any, after: Any) -> tuple[Property, ...]:
        """The properties whose answer the step `before -> after` may have changed, in their order:
        every transition property, and every state property that reads a field the step changed
        or declares no reads."""
        changed = frozenset(f for f in self.fields if getattr(before, f) is not getattr(after, f))
        chosen = self._to_check.get(changed)
        if chosen is None:
            chosen = self._to_check[changed] = tuple(
                p for p in self.properties if not isinstance(p, StateProperty) or not p.reads or changed & set(p.reads)
            )
        return chosen

    def failures(
        self, game: Game[Any, Any], before: Any, action: Any, after: Any, checked_before: bool
    ) -> list[tuple[Property, str]]:
        """`failures` of these properties on the step `before --action--> after`."""
        return failures(
            game, self.changed_by(before, after) if checked_before else self.properties, before, action, after
        )
