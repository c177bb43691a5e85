"""Properties: the invariants and transition rules a game promises, checked on every step.

Models: a state property (true of every reachable state) and a transition property
(true of every step: state, action, next state), each with the clauses it guards and
the option values under which the rulebook promises it. A check returns None when it
holds and a one-line explanation when it does not. Each game's properties live in
`properties/<game>.py` (shipped as `rulecheck.properties.<game>`), as a tuple named
PROPERTIES.

Leaves out: how states are produced (fuzzing, exploration, tests all use these).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from rulecheck.core.errors import SpecError
from rulecheck.core.game import Game


def _always(options: Mapping[str, str]) -> bool:
    return True


@attrs.frozen
class StateProperty:
    name: str
    clauses: tuple[str, ...]
    description: str
    check: Callable[[Game[Any, Any], Any], str | None]
    applies: Callable[[Mapping[str, str]], bool] = _always


@attrs.frozen
class TransitionProperty:
    name: str
    clauses: tuple[str, ...]
    description: str
    check: Callable[[Game[Any, Any], Any, Any, Any], str | None]
    applies: Callable[[Mapping[str, str]], bool] = _always


Property = StateProperty | TransitionProperty


def load_properties(game: str) -> tuple[Property, ...]:
    """The PROPERTIES of `properties/<game>.py`."""
    try:
        module = importlib.import_module(f"rulecheck.properties.{game}")
    except ModuleNotFoundError:
        raise SpecError(f"no properties file properties/{game}.py") from None
    found = getattr(module, "PROPERTIES", None)
    if not isinstance(found, tuple) or not all(isinstance(p, (StateProperty, TransitionProperty)) for p in found):
        raise SpecError(f"properties/{game}.py must define PROPERTIES, a tuple of properties")
    return found


def promised(game: Game[Any, Any], properties: Sequence[Property]) -> tuple[Property, ...]:
    """The properties the rulebook promises under the game's option values."""
    return tuple(p for p in properties if p.applies(game.options))


def failures(
    game: Game[Any, Any], properties: Sequence[Property], before: Any, action: Any, after: Any
) -> list[tuple[Property, str]]:
    """Every property that fails on the step `before --action--> after`; with `action` None,
    only the state properties of `after` (the initial state)."""
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
