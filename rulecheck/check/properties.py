"""Properties on a step: which ones a game's options promise, and which fail.

Models: the properties the rulebook promises under a game's option values, and every
property (rulecheck/model/properties.py) that fails on one step, with its explanation.

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
    game: Game[Any, Any],
    properties: Sequence[Property],
    before: Any,
    action: Any,
    after: Any,
    checked_before: bool = False,
) -> list[tuple[Property, str]]:
    """Every property that fails on the step `before --action--> after`; with `action` None,
    only the state properties of `after` (the initial state). With `checked_before`, the caller
    checked the state properties on `before` already: one whose `reads` the step left as they
    were would give the same answer again, so it is not checked (a run checks on each step only
    what the step changed)."""
    found = []
    for prop in properties:
        if isinstance(prop, StateProperty):
            if checked_before and prop.reads and all(getattr(before, f) is getattr(after, f) for f in prop.reads):
                continue
            message = prop.check(game, after)
        elif action is not None:
            message = prop.check(game, before, action, after)
        else:
            continue
        if message is not None:
            found.append((prop, message))
    return found
