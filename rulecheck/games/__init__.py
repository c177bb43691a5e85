"""The registry of modelled games, by name.

Models: which game classes exist and how to build one from a name, a player count and
option values, with errors that list what is allowed.

Leaves out: the games themselves (one package each under rulecheck/games/).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from rulecheck.core.errors import OptionError, SpecError
from rulecheck.core.game import Game
from rulecheck.games.globetrotter import Globetrotter

GAMES: dict[str, type[Game[Any, Any]]] = {cls.name: cls for cls in (Globetrotter,)}


def game_class(name: str) -> type[Game[Any, Any]]:
    try:
        return GAMES[name]
    except KeyError:
        allowed = ", ".join(sorted(GAMES)) or "(none yet)"
        raise OptionError(f"unknown game {name!r}; games: {allowed}") from None


def game_part(game: str, part: str, what: str) -> ModuleType:
    """The module rulecheck/games/<game>/<part>.py; SpecError naming `what` is missing if there is none."""
    try:
        return importlib.import_module(f"rulecheck.games.{game}.{part}")
    except ModuleNotFoundError:
        raise SpecError(f"{game} has no {what} yet (rulecheck/games/{game}/{part}.py)") from None


def make_game(
    name: str, players: int | None = None, options: Mapping[str, str] | None = None, *, strict: bool = False
) -> Game[Any, Any]:
    """The game `name` for `players` (its minimum when None) under `options`."""
    cls = game_class(name)
    return cls(cls.min_players if players is None else players, options, strict=strict)
