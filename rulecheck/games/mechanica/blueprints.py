"""Mechanica's blueprints: completing a face-up blueprint at any step of one's own turn (MEC-A1).

Models: a blueprint is completed with bots of its models taken from the player's Trucks (MEC-B1), the
bots going back to the supply and its payout into the Vault (MEC-B2); the card then lies sideways until
the end of the round (MEC-B3, refreshed by workday.py, MEC-E2); under `blueprint_once` a blueprint is
completed once by each player or once in all (MEC-B4). Each way of filling a card is one action: the
Truck of each bot, Trucks of equal models in order (so the same bots in another order are one action).

Leaves out: turning blueprints up (shop.py) and the blueprint refresh (workday.py).
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import lru_cache

from rulecheck.core.clauses import touch
from rulecheck.core.errors import IllegalAction
from rulecheck.core.evolve import evolve
from rulecheck.core.notation import Action
from rulecheck.core.ops import INT_OPS
from rulecheck.games.mechanica import money
from rulecheck.games.mechanica.actions import Complete
from rulecheck.games.mechanica.pieces import returned, truck_bots, with_factory
from rulecheck.games.mechanica.rules import LISTINGS_KEPT, Listing, PlayRule, Rules
from rulecheck.games.mechanica.state import IN, TURN, Factory, MechanicaState

_CLAUSES = ("MEC-B1", "MEC-B2", "MEC-B3", "MEC-B4")


def _card_refusal(rules: Rules, state: MechanicaState, player: int, card: str) -> tuple[str, str] | None:
    """Why `card` cannot be completed by `player` now, whichever bots she has, as (clause, reason): it is
    not face up (MEC-B1), or `blueprint_once` forbids completing it again (MEC-B4); None when it can."""
    if not card or card not in state.blueprints:
        return "MEC-B1", "that blueprint is not face up"
    for p, c in state.completions:
        if c == card and (p == player or rules.once_in_all):
            return "MEC-B4", "that blueprint was completed before"
    return None


@lru_cache(maxsize=LISTINGS_KEPT)
def _completions(rules: Rules, card: str, factory: Factory) -> tuple[Action, ...]:
    """Each way of taking the card's bots from the factory's Trucks (MEC-B1), the Trucks of equal models
    in order."""
    held = [(s, m) for s, _, m in truck_bots(rules, factory)]
    models = rules.blueprint[card].models
    options = []
    for model in models:
        squares = sorted({s for s, m in held if m == model})
        if not squares:
            return ()
        options.append(squares)
    in_trucks = Counter(held)
    found: list[Action] = []
    for trucks in itertools.product(*options):
        if Counter(zip(trucks, models)) - in_trucks:
            continue
        if any(models[i] == models[i + 1] and trucks[i] > trucks[i + 1] for i in range(len(models) - 1)):
            continue
        found.append(rules.act(Complete, card, trucks))
    return tuple(found)


def legal(rules: Rules, state: MechanicaState, player: int) -> list[Action]:
    factory = state.factories[player]
    found: list[Action] = []
    for card in state.blueprints:
        if _card_refusal(rules, state, player, card) is None:
            found += _completions(rules, card, factory)
    return found


def _apply_complete(rules: Rules, state: MechanicaState, player: int, action: Complete) -> MechanicaState:
    touch("MEC-A1")
    touch(*_CLAUSES)
    factory = state.factories[player]
    blueprint = rules.blueprint[action.card]
    bots = list(factory.bots)
    for truck, model in zip(action.trucks, blueprint.models):
        bots.remove((truck, IN, model))
    factory = evolve(factory, bots=tuple(bots), vault=money.vaulted(INT_OPS, factory.vault, blueprint.payout))
    return with_factory(
        state,
        player,
        factory,
        supply=returned(rules, state.supply, blueprint.models),
        sideways=True,
        completions=state.completions + ((player, action.card),),
    )


def _illegal_complete(rules: Rules, state: MechanicaState, player: int, action: Complete) -> IllegalAction | None:
    refusal = _card_refusal(rules, state, player, action.card)
    if refusal is not None:
        return IllegalAction(*refusal, action)
    if action not in _completions(rules, action.card, state.factories[player]):
        return IllegalAction("MEC-B1", "the Trucks named do not hold the blueprint's models", action)
    return None


LISTINGS: tuple[Listing, ...] = (Listing((Complete,), TURN, None, legal),)
RULES: tuple[PlayRule, ...] = (PlayRule(Complete, _illegal_complete, _apply_complete),)
