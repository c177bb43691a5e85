"""Players that choose: a policy picks one of the legal actions at a player's step.

Models: the one interface every player of a search or a balance run goes through (`Policy`: a
name that says what it is and its budget, and `choose`), the uniform random player, the policies
known by name on the command line (`policy_named`). playthrough.py plays a game with a policy per
seat.

Leaves out: policies that look ahead or follow a plan (added beside `Uniform` behind the same
interface) and what is measured over many games (the balance report).
"""

from __future__ import annotations

import random
from typing import Any, Protocol

import attrs

from rulecheck.core.game import Game
from rulecheck.core.notation import Action


class Policy(Protocol):
    """A player: `name` is what reports print (with the budget, if the policy has one), and
    `choose` picks one of the legal actions of the player to move in `state`, drawing any
    randomness from `rng` only."""

    @property
    def name(self) -> str: ...

    def choose(self, game: Game[Any, Any], state: Any, rng: random.Random) -> Action: ...


@attrs.frozen
class Uniform:
    """Each legal action alike."""

    name: str = "random"

    def choose(self, game: Game[Any, Any], state: Any, rng: random.Random) -> Action:
        return rng.choice(game.legal_actions(state))


UNIFORM = Uniform()

POLICIES = {UNIFORM.name: UNIFORM}
"""The policies known by name."""


def policy_named(text: str) -> Policy:
    """The policy `text` names; ValueError naming the known ones for any other text."""
    found = POLICIES.get(text)
    if found is None:
        raise ValueError(f"no policy {text!r}; policies: {', '.join(sorted(POLICIES))}")
    return found
