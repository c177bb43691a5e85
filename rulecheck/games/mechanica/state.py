"""Mechanica's state: immutable, hashable, in the canonical JSON codec's terms.

Models: each player's factory (installed improvements by square, the truck on each Loading Dock square,
Forks, bots by square and hole, Wallet, Vault); the unseen improvement tiles as one Pile with how many of
them are the Stack and how many the Extras (each draw from either is a chance node over the unseen tiles,
which is exact since the 21 + 6 split is itself a shuffle); the Shop's spots; the Recycler and demolished
tiles; the two Blueprint Stacks as Piles, the face-up blueprints, whether they are sideways and every
completion so far; the bot supply by model; Trucks and Forks left in the box; the phase, the workday,
whose turn and its step, each player's turns taken; the draws due (chance) and recycled bots waiting
to be placed.

Leaves out: money in the supply (the rulebook never limits it) and the Reminder and Armand cards.
"""

from __future__ import annotations

from typing import Final

import attrs

from rulecheck.core.hidden import Pile

SETUP: Final = "setup"
ROUTE: Final = "route"
TURN: Final = "turn"
PLACE: Final = "place"
OVER: Final = "over"

SELL: Final = "sell"
BUY: Final = "buy"
MADE: Final = "made"
"""The turn's steps in order (MEC-T0): selling, buying, and after Make Bots, before the rotation."""
STEPS: Final = (SELL, BUY, MADE)

IN: Final = "in"
"""A Start Zone hole, a Truck, or an improvement's input holes."""
OUT: Final = "out"
"""An improvement's output holes."""

STACK: Final = "stack"
EXTRAS: Final = "extras"

Bot = tuple[str, str, str]
"""(square, IN or OUT, model)."""


@attrs.frozen(cache_hash=True)
class Factory:
    tiles: tuple[tuple[str, str], ...]
    """(square, improvement) for every installed improvement, by square."""
    trucks: tuple[tuple[str, str], ...]
    """(Loading Dock square, truck) for every Loading Dock square, by square."""
    forks: tuple[str, ...]
    """The squares holding a Fork, sorted."""
    bots: tuple[tuple[str, str, str], ...]
    """(square, IN or OUT, model) for every bot, sorted (a multiset)."""
    wallet: int
    vault: int
    fork_sides: tuple[tuple[str, str], ...] = ()
    """(square, UP or DOWN) for every Fork on a square with three exits under `fork_exits=two`: the side
    its second exit arrow points to, chosen when it was bought (MEC-A2), by square."""


@attrs.frozen(cache_hash=True)
class MechanicaState:
    phase: str
    factories: tuple[Factory, ...]
    unseen: Pile
    """The improvement tiles nobody has seen: the Stack and the Extras together."""
    stack: int
    extras: int
    shop: tuple[str, ...]
    """The improvement in each price spot, from the 7-cost spot on; '' where empty."""
    recycled: tuple[str, ...]
    demolished: tuple[str, ...]
    blueprint_stacks: tuple[Pile, Pile]
    blueprints: tuple[str, str]
    """The face-up blueprint of each stack ('' when none)."""
    sideways: bool
    completions: tuple[tuple[int, str], ...]
    """(player, blueprint) for every completion this game, in order."""
    supply: tuple[int, ...]
    """Bots of each model in the supply."""
    trucks_left: tuple[int, ...]
    """Trucks of each kind in the box, less those installed (below 0 when always buyable, MEC-A3)."""
    forks_left: int
    """Forks in the box, less those installed (below 0 when always buyable, MEC-A2)."""
    workday: int
    player: int
    """Whose turn it is (or, in ROUTE, who commits next)."""
    step: str
    turns: tuple[int, ...]
    pending: tuple[str, ...]
    """Draws due, in order: 'stack:SPOT', 'extras:SPOT' (an improvement into a Shop spot), 'bp:N'."""
    placing: tuple[str, ...]
    """Recycled bots the player still places in her Start Zone (PLACE)."""
    resume: str
    """What the placing interrupted: 'buy' (the Buy step goes on) or 'rotate' (the turn ends)."""
    routes: tuple[tuple[int, str, str], ...]
    """This workday's commits: (player, square, exit), in commit order."""
