"""Which games the benchmark measures, and at what player count.

Every registered game (rulecheck.registry.DECLARATIONS), or those `--game` names, each at
the fewest players its campaign covers (what `rulecheck fuzz` plays by default).

Leaves out: options other than the defaults, and other player counts.
"""

from __future__ import annotations

from typing import Any

from rulecheck.core.game import Game
from rulecheck.registry import DECLARATIONS, declaration, make_game


def names(chosen: list[str] | None = None) -> list[str]:
    """The games to measure: `chosen` (each checked against the registry), or all of them."""
    if chosen is None:
        return sorted(DECLARATIONS)
    return [declaration(name).name for name in chosen]


def players(name: str) -> int:
    return declaration(name).game.campaign_players[0]


def campaign_game(name: str) -> Game[Any, Any]:
    """The game `name` at its fewest campaign players, under the default options."""
    return make_game(name, players(name))
