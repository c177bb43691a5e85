"""Mechanica's actions and chance outcomes in canonical notation.

Models: selling a bot from a Truck (`sell D2 basic`), ending the Sell step (`next`), installing the
improvement of a Shop spot on a square (`install 0 F12`; spots count from 0, the 7-cost spot) or recycling it
(`recycle 1`), demolishing (`demolish F12`), Make Bots (`make`, which ends the Buy step), rotating the Shop
(`rotate`, which ends the turn), completing a blueprint with the Truck of each bot it needs (`blueprint bp03
D1 D2`), buying a Truck (`truck D1 big`) or a Fork (`fork F12`, or with its side on the middle belt under
`fork_exits=two`, `fork F22 up`), placing a recycled bot (`place S1 plus`, or `place S1` for the next under
`recycled_order=printed-order`), and a workday's fork commits (`route F12 up`). Chance: the improvement drawn
(`draw duplicator`) and the blueprint turned up (`reveal bp07`). The domain of each action's arguments, for
numbering the actions (`domains`).

Leaves out: legality, which game.py and the rule modules decide.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from rulecheck.core.notation import Action
from rulecheck.core.numbering import Domain, Sequences
from rulecheck.games.mechanica.data import BELT, DOWN, UP
from rulecheck.games.mechanica.rules import Rules


@attrs.frozen
class Draw(Action):
    """Chance: the improvement drawn is a `tile`."""

    verb = "draw"
    tile: str


@attrs.frozen
class Reveal(Action):
    """Chance: the blueprint turned face up is `card`."""

    verb = "reveal"
    card: str


@attrs.frozen
class Route(Action):
    """A workday commit: bots leaving the switch on `square` this workday take `exit`."""

    verb = "route"
    square: str
    exit: str


@attrs.frozen
class Sell(Action):
    verb = "sell"
    truck: str
    model: str


@attrs.frozen
class Next(Action):
    """The Sell step is over."""

    verb = "next"


@attrs.frozen
class Install(Action):
    verb = "install"
    spot: int
    square: str


@attrs.frozen
class Recycle(Action):
    verb = "recycle"
    spot: int


@attrs.frozen
class Demolish(Action):
    verb = "demolish"
    square: str


@attrs.frozen
class Make(Action):
    """Make Bots; the Buy step is over."""

    verb = "make"


@attrs.frozen
class Rotate(Action):
    """Rotate the Shop; the turn is over."""

    verb = "rotate"


@attrs.frozen
class Complete(Action):
    """Complete `card` with a bot from each of `trucks`, one per model the card lists, in its order."""

    verb = "blueprint"
    card: str
    trucks: tuple[str, ...]


@attrs.frozen
class BuyTruck(Action):
    verb = "truck"
    square: str
    kind: str


@attrs.frozen
class BuyFork(Action):
    """A Fork for `square`; `side` names where its second exit arrow points (`up` or `down`) where the
    square has three exits and a Fork two (`fork_exits=two`), and is empty elsewhere."""

    verb = "fork"
    square: str
    side: tuple[str, ...] = ()


@attrs.frozen
class Place(Action):
    """Put a recycled bot into the Start Zone hole on `square`: the bot of `model` (one name) where the
    player chooses which (`recycled_order=player-chooses`), else (no name) the next in the data's order."""

    verb = "place"
    square: str
    model: tuple[str, ...] = ()


ACTION_TYPES: tuple[type[Action], ...] = (
    Route,
    Sell,
    Next,
    Install,
    Recycle,
    Demolish,
    Make,
    Rotate,
    Complete,
    BuyTruck,
    BuyFork,
    Place,
    Draw,
    Reveal,
)
CHANCE_TYPES: tuple[type[Action], ...] = (Draw, Reveal)


def domains(rules: Rules) -> dict[type[Action], Sequence[Domain]]:
    data = rules.data
    spots = tuple(range(len(data.prices)))
    placed = tuple(sorted(rules.start + rules.floor))
    longest = max(len(b.models) for b in data.blueprints)
    return {
        Route: (rules.squares, (BELT, DOWN, UP)),
        Sell: (tuple(sorted(rules.dock)), rules.models),
        Next: (),
        Install: (spots, placed),
        Recycle: (spots,),
        Demolish: (placed,),
        Make: (),
        Rotate: (),
        Complete: (rules.blueprint_names, Sequences(tuple(sorted(rules.dock)), longest)),
        BuyTruck: (tuple(sorted(rules.dock)), tuple(sorted(rules.truck))),
        BuyFork: (tuple(sorted(rules.floor)), Sequences((DOWN, UP), 1)),
        Place: (tuple(sorted(rules.start)), Sequences(rules.models, 1)),
        Draw: (rules.tile_names,),
        Reveal: (rules.blueprint_names,),
    }
