"""What every Globetrotter rule reads besides the state: players, options, boards.

Models: one immutable bundle per game instance, plus the helpers every rule module
shares: reading a space or orbit token (an unknown one is an IllegalAction naming the
clause), and reporting a rule gap.

Leaves out: the rules themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import attrs

from rulecheck.core.errors import IllegalAction
from rulecheck.core.notation import Action
from rulecheck.core.options import Options
from rulecheck.games.globetrotter.board import Boards
from rulecheck.games.globetrotter.state import GlobetrotterState

PLANETS_BY_PLAYERS = {2: 1, 3: 1, 4: 2, 5: 2, 6: 3}
"""GT-M1: the rulebook's table of planets by player count (L99-L104)."""


@attrs.frozen
class Rules:
    players: int
    options: Options
    boards: Boards
    rule_gap: Callable[[str, str, Any], None]

    def space(self, token: str, clause: str, action: Action, state: GlobetrotterState) -> tuple[int, str]:
        """(planet, space) named by `token`; IllegalAction if it is no space, or on a destroyed planet."""
        where = self.boards.parse(token)
        if where is None:
            raise IllegalAction(clause, f"{token!r} is no space of this game", action)
        if state.planets[where[0]].destroyed:
            raise IllegalAction("GT-D6", f"{token!r} is on a destroyed planet", action)
        return where

    def orbit(self, token: str, clause: str, action: Action, state: GlobetrotterState) -> int:
        index = self.boards.parse_orbit(token)
        if index is None:
            raise IllegalAction(clause, f"{token!r} is no planet of this game", action)
        if state.planets[index].destroyed:
            raise IllegalAction("GT-D6", f"planet {token!r} is destroyed", action)
        return index

    def token(self, planet: int, space: str) -> str:
        return self.boards.token(planet, space)

    def live_planets(self, state: GlobetrotterState) -> tuple[int, ...]:
        return tuple(i for i, p in enumerate(state.planets) if not p.destroyed)


@attrs.frozen
class PlayRule:
    """One kind of play-phase action: its candidates, the check that raises IllegalAction
    naming the clause (returning what the effect needs), and the effect."""

    action_type: type[Action]
    candidates: Callable[[Rules, GlobetrotterState, int], Iterable[Action]]
    check: Callable[[Rules, GlobetrotterState, int, Any], Any]
    effect: Callable[[Rules, GlobetrotterState, int, Any, Any], GlobetrotterState]
