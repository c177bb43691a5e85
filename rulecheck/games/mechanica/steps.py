"""Mechanica's turn in its steps (MEC-T0): Sell, Buy, Make Bots, Rotate.

Models: selling a bot from a Truck for its value (MEC-T1) and `next` to end the Sell step; buying the
improvement of a Shop spot at the spot's price from the Wallet (MEC-T2, MEC-T3) to install it on a free
square of its zone (MEC-T4, MEC-T5) or to recycle it (MEC-T6, recycling.py), and Make Bots to end the
Buy step: one bot into each Fabricator's centre hole as `crowded_hole` allows (MEC-T7), an Overactive
Fabricator's gifts into the other players' first Start Zone hole with room from the top (MEC-P5, and
MEC-P9 as a rule gap: the rulebook does not say which hole); and rotating the Shop to end the turn
(shop.py). Each action belongs to one step (`LISTINGS`).

Leaves out: the actions of any step (anytime.py, blueprints.py) and what follows a turn (workday.py).
"""

from __future__ import annotations

from functools import lru_cache

from rulecheck.core.clauses import touch
from rulecheck.core.errors import IllegalAction
from rulecheck.core.evolve import evolve
from rulecheck.core.notation import Action
from rulecheck.core.ops import INT_OPS
from rulecheck.games.mechanica import money
from rulecheck.games.mechanica.actions import Install, Make, Next, Recycle, Rotate, Sell
from rulecheck.games.mechanica.data import START
from rulecheck.games.mechanica.pieces import (
    add_bots,
    as_before,
    check_supply,
    replaced,
    returned,
    taken,
    taken_from_supply,
    truck_bots,
    with_factory,
)
from rulecheck.games.mechanica.recycling import after_placing, holes_with_room, to_place
from rulecheck.games.mechanica.rules import LISTINGS_KEPT, Listing, PlayRule, Rules
from rulecheck.games.mechanica.shop import rotate
from rulecheck.games.mechanica.state import BUY, IN, MADE, SELL, TURN, Factory, MechanicaState


def _sellable(rules: Rules, factory: Factory) -> set[tuple[str, str]]:
    """MEC-T1: (Truck square, model) of every bot in a Truck."""
    return {(s, m) for s, _, m in truck_bots(rules, factory)}


def _sell_step(rules: Rules, state: MechanicaState, player: int) -> tuple[Action, ...]:
    return _sells(rules, state.factories[player])


@lru_cache(maxsize=LISTINGS_KEPT)
def _sells(rules: Rules, factory: Factory) -> tuple[Action, ...]:
    act = rules.act
    return (*(act(Sell, s, m) for s, m in sorted(_sellable(rules, factory))), act(Next))


def _spot_refusal(rules: Rules, shop: tuple[str, ...], factory: Factory, spot: int) -> str | None:
    """MEC-T2: why the improvement of Shop spot `spot` cannot be bought now, or None when it can."""
    if not 0 <= spot < len(shop) or not shop[spot]:
        return "no improvement in that Shop spot"
    if not money.can_pay(INT_OPS, factory.wallet, rules.data.prices[spot]):
        return "the Wallet cannot pay that price"
    return None


def _install_squares(rules: Rules, factory: Factory, tile: str) -> list[str]:
    """MEC-T4, MEC-T12: the free squares of the improvement's zone."""
    used = taken(factory)
    return [s for s in (rules.start if rules.improvement[tile].zone == START else rules.floor) if s not in used]


def _buy_step(rules: Rules, state: MechanicaState, player: int) -> tuple[Action, ...]:
    return _buys(rules, state.factories[player], state.shop)


@lru_cache(maxsize=LISTINGS_KEPT)
def _buys(rules: Rules, factory: Factory, shop: tuple[str, ...]) -> tuple[Action, ...]:
    act = rules.act
    found: list[Action] = []
    for spot, tile in enumerate(shop):
        if _spot_refusal(rules, shop, factory, spot) is None:
            found.append(act(Recycle, spot))
            found += [act(Install, spot, s) for s in _install_squares(rules, factory, tile)]
    found.append(act(Make))
    return tuple(found)


def _apply_sell(rules: Rules, state: MechanicaState, player: int, action: Sell) -> MechanicaState:
    touch("MEC-T1")
    factory = state.factories[player]
    bots = list(factory.bots)
    bots.remove((action.truck, IN, action.model))
    wallet = money.sold(INT_OPS, factory.wallet, rules.value[action.model])
    return with_factory(
        state,
        player,
        evolve(factory, bots=tuple(bots), wallet=wallet),
        supply=returned(rules, state.supply, (action.model,)),
    )


def _illegal_sell(rules: Rules, state: MechanicaState, player: int, action: Sell) -> IllegalAction | None:
    if (action.truck, action.model) not in _sellable(rules, state.factories[player]):
        return IllegalAction("MEC-T1", f"no {action.model} bot in a Truck on {action.truck}", action)
    return None


def _apply_next(rules: Rules, state: MechanicaState, player: int, action: Next) -> MechanicaState:
    touch("MEC-T0")
    return evolve(state, step=BUY)


def _apply_buy(rules: Rules, state: MechanicaState, player: int, action: Install | Recycle) -> MechanicaState:
    touch("MEC-T2", "MEC-T3")
    factory = state.factories[player]
    tile = state.shop[action.spot]
    shop = state.shop[: action.spot] + ("",) + state.shop[action.spot + 1 :]
    factory = evolve(factory, wallet=money.paid(INT_OPS, factory.wallet, rules.data.prices[action.spot]))
    if isinstance(action, Install):
        touch("MEC-T4", "MEC-T5")
        factory = evolve(factory, tiles=tuple(sorted(factory.tiles + ((action.square, tile),))))
        return with_factory(state, player, factory, shop=shop)
    touch("MEC-T6")
    state = to_place(
        rules,
        state,
        tile,
        factories=replaced(state.factories, player, factory),
        shop=shop,
        recycled=tuple(sorted(state.recycled + (tile,))),
    )
    return after_placing(rules, state, "buy")


def _illegal_buy(rules: Rules, state: MechanicaState, player: int, action: Install | Recycle) -> IllegalAction | None:
    factory = state.factories[player]
    refusal = _spot_refusal(rules, state.shop, factory, action.spot)
    if refusal is not None:
        return IllegalAction("MEC-T2", refusal, action)
    if isinstance(action, Install):
        tile = state.shop[action.spot]
        if action.square not in _install_squares(rules, factory, tile):
            zone = rules.improvement[tile].zone
            if rules.zone.get(action.square) != zone:
                return IllegalAction("MEC-T4", f"this improvement goes on a {zone} square", action)
            return IllegalAction("MEC-T12", "the square is taken: demolish first", action)
    return None


def _apply_make(rules: Rules, state: MechanicaState, player: int, action: Make) -> MechanicaState:
    """MEC-T7: one bot into each Fabricator's centre hole (a full hole keeps what `crowded_hole`
    allows); an Overactive Fabricator's extra bots go to the other players (MEC-P5, MEC-P9)."""
    touch("MEC-T0", "MEC-T7")
    factories = list(state.factories)
    supply = state.supply
    for square, tile in state.factories[player].tiles:
        effect = rules.improvement[tile].effect
        if effect.kind != "make":
            continue
        held = sum(1 for s, _, _ in factories[player].bots if s == square)
        if money.kept(INT_OPS, held, 1, rules.hole, rules.keep_some):
            supply, made = taken_from_supply(rules, supply, [effect.model])
            factories[player] = add_bots(factories[player], [(square, IN, m) for m in made])
        if not effect.gift:
            continue
        touch("MEC-P5")
        for other in range(rules.players):
            if other == player:
                continue
            rules.gap("MEC-P9", "which Start Zone hole receives another player's gift", state)
            holes = holes_with_room(rules, factories[other])
            if holes:
                touch("MEC-P9")
                supply, made = taken_from_supply(rules, supply, [effect.gift])
                factories[other] = add_bots(factories[other], [(holes[0], IN, m) for m in made])
    check_supply(rules, supply, state)
    return evolve(
        state,
        factories=as_before(state.factories, tuple(factories)),
        supply=supply,
        step=MADE,
    )


def _apply_rotate(rules: Rules, state: MechanicaState, player: int, action: Rotate) -> MechanicaState:
    touch("MEC-T0")
    return rotate(rules, state)


def _no_check(rules: Rules, state: MechanicaState, player: int, action: Action) -> None:
    return None


def _made_step(rules: Rules, state: MechanicaState, player: int) -> tuple[Action, ...]:
    return (rules.act(Rotate),)


LISTINGS: tuple[Listing, ...] = (
    Listing((Sell, Next), TURN, SELL, _sell_step),
    Listing((Install, Recycle, Make), TURN, BUY, _buy_step),
    Listing((Rotate,), TURN, MADE, _made_step),
)
RULES: tuple[PlayRule, ...] = (
    PlayRule(Sell, _illegal_sell, _apply_sell),
    PlayRule(Next, _no_check, _apply_next),
    PlayRule(Install, _illegal_buy, _apply_buy),
    PlayRule(Recycle, _illegal_buy, _apply_buy),
    PlayRule(Make, _no_check, _apply_make),
    PlayRule(Rotate, _no_check, _apply_rotate),
)
