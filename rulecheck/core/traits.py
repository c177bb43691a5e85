"""What kind of game a game is: its declared traits, in the spirit of OpenSpiel's GameType.

Models: four facts every game declares once, so that checks, suites and adapters know
what to expect without reading the rules:
- chance: `none` (no chance node is ever reached) or `explicit` (dice, draws and
  shuffles are chance nodes with exact outcome probabilities);
- information: `perfect` (every player sees the whole state) or `imperfect`, with a
  line for each thing that is hidden and from whom (a face-down deck is hidden from
  everyone; its order is chance, never a stored shuffle);
- dynamics: `sequential` (one player acts at a time) or `simultaneous`, where the
  players' choices of one round are written as per-player commits in a fixed order
  the game documents (`commit_order`), none of them seeing the others until all are in;
- outcome: `win-loss` (returns are +1 for each winner and -1 for each loser, ties
  standing) or `scores` (returns are the players' final scores; the highest wins, ties
  standing).

Leaves out: how a game meets its traits; the shared API checker tests that it does.
"""

from __future__ import annotations

from typing import Final

import attrs

NO_CHANCE: Final = "none"
EXPLICIT_CHANCE: Final = "explicit"
PERFECT: Final = "perfect"
IMPERFECT: Final = "imperfect"
SEQUENTIAL: Final = "sequential"
SIMULTANEOUS: Final = "simultaneous"
WIN_LOSS: Final = "win-loss"
SCORES: Final = "scores"

_ALLOWED: Final = {
    "chance": (NO_CHANCE, EXPLICIT_CHANCE),
    "information": (PERFECT, IMPERFECT),
    "dynamics": (SEQUENTIAL, SIMULTANEOUS),
    "outcome": (WIN_LOSS, SCORES),
}


@attrs.frozen
class Traits:
    chance: str
    information: str
    dynamics: str
    outcome: str
    hidden: tuple[str, ...] = ()
    """For imperfect information: what is hidden, and from whom, one line each."""
    commit_order: str = ""
    """For simultaneous dynamics: the fixed order in which the players' commits are written."""

    def __attrs_post_init__(self) -> None:
        for name, allowed in _ALLOWED.items():
            if getattr(self, name) not in allowed:
                raise ValueError(f"traits: {name} must be one of {', '.join(allowed)}, not {getattr(self, name)!r}")
        if (self.information == IMPERFECT) != bool(self.hidden):
            raise ValueError("traits: an imperfect-information game says what is hidden, and only such a game does")
        if (self.dynamics == SIMULTANEOUS) != bool(self.commit_order):
            raise ValueError("traits: a simultaneous game documents its commit order, and only such a game does")
