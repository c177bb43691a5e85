"""Mechanica's purchases and demolishing at any step of one's own turn (MEC-A1, MEC-P8).

Models: demolishing an installed improvement, its bots back to the supply and the tile out of the game
(MEC-T12, MEC-P8), and under `fork_demolish=like-an-improvement` a Fork, back into the box; buying a Fork onto
a free Factory Floor square (MEC-A2), on the middle belt with the side its second exit points to under
`fork_exits=two`; buying a Truck (MEC-A3), which replaces a Small Truck at its price or upgrades the truck it
names at its upgrade price, the upgraded truck going back to the box. Both are always buyable (L151, L163) or
only while the box holds one (`fork_supply`, `truck_counts`); the count left is kept either way.

Leaves out: blueprints, also of any step (blueprints.py), and what a Fork does in the run (run.py).
"""

from __future__ import annotations

from functools import lru_cache

from rulecheck.core.clauses import touch
from rulecheck.core.errors import IllegalAction
from rulecheck.core.evolve import evolve
from rulecheck.core.notation import Action
from rulecheck.core.ops import INT_OPS
from rulecheck.games.mechanica import money
from rulecheck.games.mechanica.actions import BuyFork, BuyTruck, Demolish
from rulecheck.games.mechanica.data import SMALL
from rulecheck.games.mechanica.pieces import returned, taken, with_factory
from rulecheck.games.mechanica.rules import LISTINGS_KEPT, Listing, PlayRule, Rules
from rulecheck.games.mechanica.state import TURN, Factory, MechanicaState


def _truck_offers(rules: Rules, trucks_left: tuple[int, ...], factory: Factory, current: str) -> dict[str, int]:
    """MEC-A3: the trucks that may replace the `current` truck now, with their prices: those in stock
    (always, or while the box holds one) and the Wallet can pay (rules.truck_offers says which replace
    which, at what price)."""
    wallet = factory.wallet
    return {
        kind: price
        for kind, price, index in rules.truck_offers[current]
        if money.in_stock(INT_OPS, trucks_left[index], rules.trucks_always) and money.can_pay(INT_OPS, wallet, price)
    }


def _fork_refusal(rules: Rules, forks_left: bool, factory: Factory) -> str | None:
    """MEC-A2: why no Fork may be bought now (`forks_left`: whether one is in stock), or None when one
    may (onto a free Factory Floor square)."""
    if not forks_left:
        return "no Fork is left in the box (fork_supply=box)"
    if not money.can_pay(INT_OPS, factory.wallet, rules.data.fork_price):
        return "the Wallet cannot pay for a Fork"
    return None


def _sides(rules: Rules, square: str) -> tuple[tuple[str, ...], ...]:
    """The `side` arguments of a Fork bought for `square`: one of its sides where the Fork has two of the
    square's three exits (`fork_exits=two`), else none."""
    return tuple((side,) for side in rules.fork_sides[square]) or ((),)


def _free_floor(rules: Rules, factory: Factory) -> list[str]:
    used = taken(factory)
    return [s for s in rules.floor if s not in used]


def legal(rules: Rules, state: MechanicaState, player: int) -> tuple[Action, ...]:
    return _legal(rules, state.factories[player], _forks_in_stock(rules, state), state.trucks_left)


def _forks_in_stock(rules: Rules, state: MechanicaState) -> bool:
    return bool(money.in_stock(INT_OPS, state.forks_left, rules.forks_always))


@lru_cache(maxsize=LISTINGS_KEPT)
def _legal(rules: Rules, factory: Factory, forks_left: bool, trucks_left: tuple[int, ...]) -> tuple[Action, ...]:
    act = rules.act
    found: list[Action] = [act(Demolish, t[0]) for t in factory.tiles if t != rules.printed_tile]
    if rules.forks_demolished:
        found += [act(Demolish, s) for s in factory.forks]
    if _fork_refusal(rules, forks_left, factory) is None:
        found += [act(BuyFork, s, side) for s in _free_floor(rules, factory) for side in _sides(rules, s)]
    for square, current in factory.trucks:
        found += [act(BuyTruck, square, kind) for kind in _truck_offers(rules, trucks_left, factory, current)]
    return tuple(found)


def _apply_demolish(rules: Rules, state: MechanicaState, player: int, action: Demolish) -> MechanicaState:
    touch("MEC-A1", "MEC-T12")
    touch("MEC-P8")
    factory = state.factories[player]
    if action.square in factory.forks:
        factory = evolve(
            factory,
            forks=tuple(s for s in factory.forks if s != action.square),
            fork_sides=tuple(f for f in factory.fork_sides if f[0] != action.square),
        )
        return with_factory(state, player, factory, forks_left=state.forks_left + 1)
    tile = dict(factory.tiles)[action.square]
    lost = [model for square, _, model in factory.bots if square == action.square]
    factory = evolve(
        factory,
        tiles=tuple(t for t in factory.tiles if t[0] != action.square),
        bots=tuple(b for b in factory.bots if b[0] != action.square),
    )
    return with_factory(
        state,
        player,
        factory,
        demolished=tuple(sorted(state.demolished + (tile,))),
        supply=returned(rules, state.supply, lost),
    )


def _illegal_demolish(rules: Rules, state: MechanicaState, player: int, action: Demolish) -> IllegalAction | None:
    factory = state.factories[player]
    if action.square in factory.forks and not rules.forks_demolished:
        return IllegalAction("MEC-T12", "a Fork is not an improvement: it is never demolished (fork_demolish)", action)
    if action.square in factory.forks:
        return None
    tiles = dict(factory.tiles)
    if action.square not in tiles:
        return IllegalAction("MEC-T12", "no improvement of yours on that square", action)
    if (action.square, tiles[action.square]) == rules.printed_tile:
        return IllegalAction("MEC-T12", "the starting Fabricator is part of the board (starting_fabricator)", action)
    return None


def _apply_fork(rules: Rules, state: MechanicaState, player: int, action: BuyFork) -> MechanicaState:
    touch("MEC-A1")
    factory = state.factories[player]
    factory = evolve(
        factory,
        forks=tuple(sorted(factory.forks + (action.square,))),
        fork_sides=tuple(sorted(factory.fork_sides + tuple((action.square, side) for side in action.side))),
        wallet=money.paid(INT_OPS, factory.wallet, rules.data.fork_price),
    )
    return with_factory(state, player, factory, forks_left=state.forks_left - 1)


def _illegal_fork(rules: Rules, state: MechanicaState, player: int, action: BuyFork) -> IllegalAction | None:
    factory = state.factories[player]
    refusal = _fork_refusal(rules, _forks_in_stock(rules, state), factory)
    if refusal is not None:
        return IllegalAction("MEC-A2", refusal, action)
    if action.square not in _free_floor(rules, factory):
        return IllegalAction("MEC-A2", "a Fork goes on a free Factory Floor square", action)
    square, sides = action.square, rules.fork_sides[action.square]
    if sides and action.side not in _sides(rules, square):
        return IllegalAction("MEC-A2", f"a Fork on {square} points {' or '.join(sides)} (fork_exits=two)", action)
    if not sides and action.side:
        return IllegalAction("MEC-A2", f"a Fork on {square} takes every exit of its square; name no side", action)
    return None


def _apply_truck(rules: Rules, state: MechanicaState, player: int, action: BuyTruck) -> MechanicaState:
    touch("MEC-A1", "MEC-A3")
    factory = state.factories[player]
    current = dict(factory.trucks)[action.square]
    price = _truck_offers(rules, state.trucks_left, factory, current)[action.kind]
    left = list(state.trucks_left)
    left[rules.data.trucks.index(rules.truck[action.kind])] -= 1
    if current != SMALL:
        left[rules.data.trucks.index(rules.truck[current])] += 1
    trucks = tuple((s, action.kind if s == action.square else t) for s, t in factory.trucks)
    factory = evolve(factory, trucks=trucks, wallet=money.paid(INT_OPS, factory.wallet, price))
    return with_factory(state, player, factory, trucks_left=tuple(left))


def _illegal_truck(rules: Rules, state: MechanicaState, player: int, action: BuyTruck) -> IllegalAction | None:
    factory = state.factories[player]
    current = dict(factory.trucks).get(action.square)
    if current is None or action.kind not in rules.truck:
        return IllegalAction("MEC-A3", "no such truck or Loading Dock square", action)
    if action.kind not in _truck_offers(rules, state.trucks_left, factory, current):
        return IllegalAction("MEC-A3", f"a {action.kind} truck cannot replace the {current} truck now", action)
    return None


LISTINGS: tuple[Listing, ...] = (Listing((Demolish, BuyFork, BuyTruck), TURN, None, legal),)
RULES: tuple[PlayRule, ...] = (
    PlayRule(Demolish, _illegal_demolish, _apply_demolish),
    PlayRule(BuyFork, _illegal_fork, _apply_fork),
    PlayRule(BuyTruck, _illegal_truck, _apply_truck),
)
