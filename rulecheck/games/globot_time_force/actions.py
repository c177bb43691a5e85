"""Globot Time Force's actions and chance outcomes in canonical notation.

Models: one class per kind of action. A timeline card is named by its slot (0 = the
oldest, nearest the discard pile), a tableau card by its position (0 = first gained),
an achievement board and a card by their keys (`green-thumb`, `seed-vault`). A payment
gives the energy, the gear value and the charge it spends.

Leaves out: legality (game.py and the rule modules).
"""

from __future__ import annotations

import attrs

from rulecheck.core.notation import Action


@attrs.frozen
class DrawBoard(Action):
    """Chance: the next achievement board drawn is `board`."""

    verb = "board"
    board: str


@attrs.frozen
class Reveal(Action):
    """Chance: the top card of the deck, put into the timeline, is `card`."""

    verb = "reveal"
    card: str


@attrs.frozen
class Gain(Action):
    """GTF-T2a: gain the timeline card in `slot`, paying `energy`, `gears` and `charge`."""

    verb = "gain"
    slot: int
    energy: int
    gears: int
    charge: int


@attrs.frozen
class UseIoM(Action):
    """GTF-T2b: gain the timeline card in `slot` with an IoM."""

    verb = "iom"
    slot: int


@attrs.frozen
class Reserve(Action):
    """GTF-T2c: reserve the timeline card in `slot`."""

    verb = "reserve"
    slot: int


@attrs.frozen
class Dismiss(Action):
    """GTF-T2d, GTF-T2e: dismiss the oldest timeline card and `recover` energy or take `gears`."""

    verb = "dismiss"
    reward: str


@attrs.frozen
class Discard(Action):
    """GTF-T3b: discard the tableau card at `position`."""

    verb = "discard"
    position: int


@attrs.frozen
class PayReserved(Action):
    """GTF-T3c: pay for reservation `index` with `energy`, `gears` and `charge`, and gain it."""

    verb = "pay"
    index: int
    energy: int
    gears: int
    charge: int


@attrs.frozen
class PayReservedIoM(Action):
    """GTF-T3c, GTF-R4: spend an IoM to cover the whole cost of reservation `index`, and gain it
    (iom_reserved=any-card)."""

    verb = "pay-iom"
    index: int


@attrs.frozen
class UseTEC(Action):
    """GTF-T3d: spend a TEC to set the energy used to 0."""

    verb = "tec"


@attrs.frozen
class Place(Action):
    """GTF-T3e: place a token on the achievement `board`."""

    verb = "place"
    board: str


@attrs.frozen
class Resolve(Action):
    """GTF-T3a: resolve the passive skill `skill` of the tableau card at `position`."""

    verb = "resolve"
    position: int
    skill: int


@attrs.frozen
class Choose(Action):
    """A waiting skill effect takes option `option`: a timeline slot, or a tableau position to discard."""

    verb = "choose"
    option: int


@attrs.frozen
class Exchange(Action):
    """GTF-R2 under gear_exchange=on: exchange gears for charge at the data set's rate."""

    verb = "exchange"


@attrs.frozen
class EndTurn(Action):
    """End the turn without a timeline action: under turn_end=voluntary, or with an empty timeline."""

    verb = "end"


@attrs.frozen
class ExtraTurn(Action):
    """End game, extra_turn_choice=optional: `take` an extra turn or `decline` further ones."""

    verb = "extra"
    answer: str


PLAYER_ACTIONS = (
    Gain,
    UseIoM,
    Reserve,
    Dismiss,
    Discard,
    PayReserved,
    PayReservedIoM,
    UseTEC,
    Place,
    Resolve,
    Choose,
    Exchange,
    EndTurn,
    ExtraTurn,
)
CHANCE_ACTIONS = (DrawBoard, Reveal)
ACTION_TYPES = PLAYER_ACTIONS + CHANCE_ACTIONS
