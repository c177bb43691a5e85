"""Mechanica's obvious plan, for the `plan` policy: buy the Shop's improvements, complete
blueprints, sell, and keep the money for improvements.

Models: of a player's legal actions, the dearest improvement the player can buy (the lowest Shop
spot, the 7-cost spot first: the one the Shop refills every turn), installed when it can be,
else recycled; else those of the first kind on PLAN that has any: complete a blueprint, sell,
end the Sell step (rather than spend on Trucks and Forks, so the money buys improvements), buy
a Truck, then a Fork, make bots; anything else (routing a workday, placing recycled bots,
rotating the Shop) only when none of these is on offer, and demolishing an installed
improvement only when nothing else is. Buying the Shop's improvements as they come empties the
Shop, which is what a game needs to see its late rules (Double Rotate, MEC-T11).

Leaves out: which improvement, Truck or blueprint is best beyond that (the policy draws among
those the plan allows), and any look ahead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from rulecheck.core.notation import Action
from rulecheck.games.mechanica.actions import BuyFork, BuyTruck, Complete, Demolish, Install, Make, Next, Recycle, Sell
from rulecheck.model.plan import first_offered

PLAN: Final = (Complete, Sell, Next, BuyTruck, BuyFork, Make)
"""After the dearest improvement, the plan's kinds of action, most wanted first."""


def plan(game: Any, state: Any, legal: tuple[Action, ...]) -> Sequence[Action]:
    """The dearest improvements on offer (installed if they can be); else the legal actions of the
    first kind on PLAN that has any; else every legal action but a demolition, or all of them when
    only demolitions are left."""
    buys = [a for a in legal if isinstance(a, (Install, Recycle))]
    if buys:
        dearest = [a for a in buys if a.spot == min(a.spot for a in buys)]
        return [a for a in dearest if isinstance(a, Install)] or dearest
    return first_offered(legal, PLAN, (Demolish,))
