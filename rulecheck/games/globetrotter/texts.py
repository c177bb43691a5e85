"""What the Globetrotter rulebook's turn sentences say, as text contracts for the silent-decision
finder (rulecheck/model/texts.py), each quoting its line of globetrotter.txt.

Models: a player with several Rovers choosing which Rover performs the turn's action (L67, read
as the sentence words it: one Rover is chosen for the turn, so once a Rover has moved, another
may not move in the same turn); a Factory gaining one build point at the start of its owner's
turn (L64, "the Factory": a turn's start adds at most one point to each Factory and, as the
sentence speaks of one Factory, to one); whether a Rover may descend in the turn it went into
orbit, which L57 and L58 (a wait said of moves between orbits) leave open. Each reads the
written position (docs/globetrotter.md#scenarios), never the engine.

Leaves out: every other clause (the finder lists them as unaudited); which action a Rover
performs other than moving (shooting, overseeing a build) for L67.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from rulecheck.model.texts import At, Forbid, Never, Open, TextContract

ROVER_MOVES: Final = frozenset({"move", "orbit"})
"""The actions a Rover on the board performs by moving (L56, L67)."""


def _same_turn(at: At) -> bool:
    before = at.before
    return before is not None and before.get("turn.player") == at.position.get("turn.player")


def _rover_moved_in_the_turn(at: At) -> bool:
    """L67: a Rover moved this turn, and its player has another Rover on a planet."""
    if not _same_turn(at) or at.verb != "move" or at.position.get("phase") != "play":
        return False
    me = at.position["turn.player"]
    return len(at.grouped(f"players.{me}.rovers")) > 1


def _by_the_chosen_rover(at: At, action: str) -> bool:
    """The action is the chosen Rover's: it moves from where the turn's last move left it."""
    assert at.action is not None
    return action.split()[1] == at.action.split()[2]


def _orbited_this_turn(at: At) -> bool:
    """L57 lets a Rover in orbit descend; L58's wait is said of a move between orbits only: the
    text leaves open whether a Rover that went into orbit this turn may descend in it."""
    return _same_turn(at) and at.verb == "orbit" and at.position.get("phase") == "play"


def _factory_points(me: object, position: Mapping[str, Any]) -> dict[str, int]:
    """Each of player `me`'s Factories by its space, with its build points (none written: 0)."""
    prefix = f"players.{me}.buildings."
    spaces = [
        path[len(prefix) : -len(".kind")]
        for path, kind in position.items()
        if path.startswith(prefix) and path.endswith(".kind") and kind == "factory"
    ]
    return {space: int(position.get(f"{prefix}{space}.points", 0)) for space in spaces}


def _several_factories_gained(at: At) -> bool:
    """L64: the turn that starts adds a build point to one Factory, not to several."""
    if at.before is None or _same_turn(at) or at.position.get("phase") != "play":
        return False
    me = at.position.get("turn.player")
    before, after = _factory_points(me, at.before), _factory_points(me, at.position)
    return sum(space in before and points > before[space] for space, points in after.items()) > 1


CONTRACTS: Final = (
    TextContract(
        "GT-F4",
        67,
        "they must choose which Rover will perform an action on their turn",
        forbids=(
            Forbid(
                frozenset(),
                _rover_moved_in_the_turn,
                "a Rover has moved this turn and its player has another",
                verbs=ROVER_MOVES,
                but=_by_the_chosen_rover,
            ),
        ),
    ),
    TextContract(
        "GT-SP2",
        57,
        "A Rover in orbit around a planet can Move to descend into any unoccupied space on the planet.",
        open=(Open("descend", _orbited_this_turn, "whether a Rover may descend in the turn it went into orbit"),),
    ),
    TextContract(
        "GT-F1",
        64,
        "At the start of your turn, add a build point to the Factory.",
        never=(
            Never("factories", _several_factories_gained, "the turn's start added a build point to several Factories"),
        ),
    ),
)
