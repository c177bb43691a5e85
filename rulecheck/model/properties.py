"""The vocabulary of properties: what a game's rulebook promises of every state and every step.

Models: a state property (true of every reachable state) and a transition property (true of
every step: state, action, next state), each with the clauses it guards and the option
values under which the rulebook promises it. A check returns None when it holds and a
one-line explanation when it does not. Each game's properties live in `properties/<game>.py`
(shipped as `rulecheck.properties.<game>`) and reach the checks through its declaration.

Leaves out: checking them (rulecheck/check/watch/property_checks.py picks the promised ones and runs
them on a step) and how states are produced (fuzzing, exploration, tests all use these).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from rulecheck.core.game import Game


def _always(options: Any) -> bool:
    return True


@attrs.frozen
class StateProperty:
    name: str
    clauses: tuple[str, ...]
    description: str
    check: Callable[[Game[Any, Any], Any], str | None]
    applies: Callable[[Any], bool] = _always
    """Whether the rulebook promises it under a game's options (its Options record)."""
    reads: tuple[str, ...] = ()
    """The state's fields `check` reads, when it reads no others (besides the game): a step that
    leaves each of them the very same object cannot change its answer. Empty: it may read any."""


@attrs.frozen
class TransitionProperty:
    name: str
    clauses: tuple[str, ...]
    description: str
    check: Callable[[Game[Any, Any], Any, Any, Any], str | None]
    applies: Callable[[Any], bool] = _always


Property = StateProperty | TransitionProperty
