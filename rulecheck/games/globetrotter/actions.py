"""Globetrotter's actions and chance outcomes in canonical notation.

Models: one class per kind of action. A space is written as its label (`T14`, `P3`) in
a one-planet game and as planet letter, colon and label (`b:T14`) with several planets;
an orbit as the planet letter. The rulebook calls moving on the board, into orbit, down
from orbit and between orbits all "Move"; they are four verbs here so that each names
what it does.

Leaves out: legality, which rules.py decides.
"""

from __future__ import annotations

import attrs

from rulecheck.core.notation import Action


@attrs.frozen
class Die(Action):
    """Chance: one d6 shows `value`."""

    verb = "die"
    value: int


@attrs.frozen
class Dice(Action):
    """Chance: two d6 show `total` together (the planet-destruction roll)."""

    verb = "dice"
    total: int


@attrs.frozen
class Damage(Action):
    """Chance: a Drill Cannon's hits, rolled for damage, deal `amount` in all."""

    verb = "damage"
    amount: int


@attrs.frozen
class Choose(Action):
    """Setup, two players: the high roller places `first` or `second`."""

    verb = "choose"
    order: str


@attrs.frozen
class PlaceFactory(Action):
    verb = "factory"
    space: str


@attrs.frozen
class PlaceRover(Action):
    verb = "rover"
    space: str


@attrs.frozen
class Move(Action):
    verb = "move"
    source: str
    target: str


@attrs.frozen
class EnterOrbit(Action):
    """The Rover on `source` moves into its planet's orbit."""

    verb = "orbit"
    source: str


@attrs.frozen
class Descend(Action):
    """An orbiting Rover with `hp` hit points moves down onto `target`."""

    verb = "descend"
    hp: int
    target: str


@attrs.frozen
class Transfer(Action):
    """An orbiting Rover with `hp` hit points moves from orbit `source` to orbit `target` (planet letters)."""

    verb = "transfer"
    hp: int
    source: str
    target: str


@attrs.frozen
class Shoot(Action):
    """The player's piece on `source` shoots the enemy piece of kind `kind` on `target`."""

    verb = "shoot"
    source: str
    target: str
    kind: str


@attrs.frozen
class Fortify(Action):
    verb = "fortify"
    target: str


@attrs.frozen
class Build(Action):
    verb = "build"
    target: str
    kind: str


@attrs.frozen
class Decommission(Action):
    verb = "decommission"
    target: str


@attrs.frozen
class Manufacture(Action):
    """The Factory on `source` produces a Rover on `target`."""

    verb = "manufacture"
    source: str
    target: str


@attrs.frozen
class Repair(Action):
    """The Rover on `target` regains a hit point from the adjacent Factory."""

    verb = "repair"
    target: str


@attrs.frozen
class Ready(Action):
    verb = "ready"
    cannon: str


@attrs.frozen
class Aim(Action):
    verb = "aim"
    cannon: str
    target: str


@attrs.frozen
class Fire(Action):
    verb = "fire"
    cannon: str


@attrs.frozen
class Save(Action):
    """Put the turn's own action point into the Treasury."""

    verb = "save"


@attrs.frozen
class Pass(Action):
    verb = "pass"


@attrs.frozen
class EndTurn(Action):
    """Decline the extra actions still available (stolen points are forfeit)."""

    verb = "end"


ACTION_TYPES: tuple[type[Action], ...] = (
    Die,
    Dice,
    Damage,
    Choose,
    PlaceFactory,
    PlaceRover,
    Move,
    EnterOrbit,
    Descend,
    Transfer,
    Shoot,
    Fortify,
    Build,
    Decommission,
    Manufacture,
    Repair,
    Ready,
    Aim,
    Fire,
    Save,
    Pass,
    EndTurn,
)
