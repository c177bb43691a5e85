"""Globetrotter's obvious plan, for the `plan` policy: build, fortify, shoot.

Models: of a player's legal actions, those of the first kind the plan wants that has any: build
(any kind of building), have a Factory make a Rover, fortify, shoot, repair a Rover, then save
the turn's action point; anything else (setup, moving, orbiting, a Drill Cannon's readying and
aiming, passing, ending the turn) when none is on offer, and decommissioning a building or
firing a Drill Cannon (which can destroy the planet, and then everyone loses, GT-E2) only when
nothing else is.

Leaves out: where to build or whom to shoot (the policy draws among those the plan allows) and
any look ahead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from rulecheck.core.notation import Action
from rulecheck.games.globetrotter.actions import Build, Decommission, Fire, Fortify, Manufacture, Repair, Save, Shoot
from rulecheck.model.plan import first_offered

PLAN: Final = (Build, Manufacture, Fortify, Shoot, Repair, Save)
"""The plan's kinds of action, most wanted first."""
AVOIDED: Final = (Decommission, Fire)
"""Taken only when nothing else is legal."""


def plan(game: Any, state: Any, legal: tuple[Action, ...]) -> Sequence[Action]:
    """The legal actions of the first kind on PLAN that has any, else those of no kind AVOIDED."""
    return first_offered(legal, PLAN, AVOIDED)
