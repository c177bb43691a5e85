"""Globot Time Force's obvious plan, for the `plan` policy: reach achievements and gain cards.

Models: of a player's legal actions, those of the first kind the plan wants that has any: place
a token on an achievement board (GTF-T3e), pay for a reserved card and gain it (GTF-T3c), gain
a timeline card (GTF-T2a), or with an IoM (GTF-T2b), resolve a passive skill (GTF-T3a), reserve
a card (GTF-T2c); anything else (a skill's choice, a TEC, an exchange, the end of a turn, an extra
turn) when none is on offer, and discarding from the tableau (GTF-T3b) or dismissing a timeline
card (GTF-T2d, GTF-T2e) only when nothing else is.

Leaves out: which card or board is best (the policy draws among those the plan allows) and
any look ahead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from rulecheck.core.notation import Action
from rulecheck.games.globot_time_force.actions import (
    Discard,
    Dismiss,
    Gain,
    PayReserved,
    Place,
    Reserve,
    Resolve,
    UseIoM,
)
from rulecheck.model.plan import first_offered

PLAN: Final = (Place, PayReserved, Gain, UseIoM, Resolve, Reserve)
"""The plan's kinds of action, most wanted first."""
AVOIDED: Final = (Discard, Dismiss)
"""Taken only when nothing else is legal."""


def plan(game: Any, state: Any, legal: tuple[Action, ...]) -> Sequence[Action]:
    """The legal actions of the first kind on PLAN that has any, else those of no kind AVOIDED."""
    return first_offered(legal, PLAN, AVOIDED)
