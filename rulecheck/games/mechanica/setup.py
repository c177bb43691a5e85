"""Mechanica's setup: the state before the first draw.

Models: one factory board per player (MEC-C1, up to four) with the starting Fabricator and its bot, a
Small Truck on each Loading Dock square and the starting Wallet (MEC-S1, MEC-P1..P4, MEC-P10); the 27
improvement tiles as one Pile of unseen tiles, split by count into the Stack and the Extras (MEC-S2,
MEC-S6); the bot supply less the starting bots; Trucks (by `truck_counts`, MEC-P6) and Forks in the box;
the two Blueprint Stacks shuffled (MEC-S5); and the draws due: the first two Shop spots and the two
face-up blueprints (MEC-S3, MEC-S4, resolved as chance by shop.py).

Leaves out: the draws themselves (shop.py) and the first workday (workday.py).
"""

from __future__ import annotations

from rulecheck.core.clauses import touch
from rulecheck.core.hidden import Pile
from rulecheck.games.mechanica.data import SMALL
from rulecheck.games.mechanica.options import MechanicaOptions, TruckCounts
from rulecheck.games.mechanica.rules import Rules
from rulecheck.games.mechanica.state import IN, SELL, SETUP, STACK, Factory, MechanicaState

_CLAUSES = ("MEC-C1", "MEC-S1", "MEC-S2", "MEC-S5", "MEC-S6", "MEC-P1", "MEC-P2", "MEC-P3", "MEC-P4", "MEC-P10")


def initial_state(rules: Rules, options: MechanicaOptions) -> MechanicaState:
    touch(*_CLAUSES)
    if options.truck_counts is TruckCounts.PUBLISHER:
        touch("MEC-P6")
    data = rules.data
    players = rules.players
    factory = Factory(
        tiles=((data.start_square, data.start_fabricator),),
        trucks=tuple((d, SMALL) for d in sorted(rules.dock)),
        forks=(),
        bots=((data.start_square, IN, data.start_bot),),
        wallet=data.start_wallet,
        vault=0,
    )
    supply = tuple(m.supply - (m.name == data.start_bot) * players for m in data.models)
    tiles = [i.name for i in data.improvements for _ in range(i.copies)]
    stacks = tuple(Pile.shuffled(b.name for b in data.blueprints if b.stack == n) for n in (1, 2))
    return MechanicaState(
        phase=SETUP,
        factories=(factory,) * players,
        unseen=Pile.shuffled(tiles),
        stack=len(tiles) - data.extras,
        extras=data.extras,
        shop=("",) * len(data.prices),
        recycled=(),
        demolished=(),
        blueprint_stacks=(stacks[0], stacks[1]),
        blueprints=("", ""),
        sideways=False,
        completions=(),
        supply=supply,
        trucks_left=rules.truck_counts,
        forks_left=data.fork_count,
        workday=0,
        player=0,
        step=SELL,
        turns=(0,) * players,
        pending=(f"{STACK}:0", f"{STACK}:1", "bp:1", "bp:2"),
        placing=(),
        resume="",
        routes=(),
    )
