"""A game's obvious plan, written as kinds of action in order of preference.

Models: the choice a plan makes among a player's legal actions (`GameDeclaration.plan`): the
actions of the first wanted kind that has any; when none has, every action but those of the
kinds the plan avoids (a step that throws away what the plan built); those too when nothing
else is legal. The `plan` policy (rulecheck/check/play/policies.py) draws one of them.

Leaves out: what each game wants (its package's policy.py) and any look ahead.
"""

from __future__ import annotations

from collections.abc import Sequence

from rulecheck.core.notation import Action


def first_offered(
    legal: Sequence[Action], wanted: Sequence[type[Action]], avoided: Sequence[type[Action]] = ()
) -> Sequence[Action]:
    """The actions of `legal` of the first kind of `wanted` that has any; else those of no kind of
    `avoided`; else all of them."""
    for kind in wanted:
        found = [a for a in legal if isinstance(a, kind)]
        if found:
            return found
    return [a for a in legal if not isinstance(a, tuple(avoided))] or legal
