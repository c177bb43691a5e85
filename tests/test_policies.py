"""Policies: the uniform player is random play, seats play by their own policies, and a name the
project does not know is refused naming the known ones."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

from rulecheck.check.play.playthrough import play, random_game
from rulecheck.check.play.policies import UNIFORM, policy_named
from rulecheck.core.game import Game
from rulecheck.core.notation import Action
from tests.fixtures.pig import Hold, Pig


@attrs.frozen
class AlwaysHold:
    """Holds whenever it may, to tell one seat's choices from the other's."""

    name: str = "always-hold"

    def choose(self, game: Game[Any, Any], state: Any, rng: random.Random) -> Action:
        legal = game.legal_actions(state)
        return next((a for a in legal if isinstance(a, Hold)), legal[0])


def test_uniform_play_is_random_play():
    game = Pig(2)
    for seed in range(5):
        assert play(game, (UNIFORM,), seed).actions == random_game(game, seed).actions


def test_each_seat_plays_by_its_own_policy():
    game = Pig(2)
    played = play(game, (AlwaysHold(), UNIFORM), seed=3, max_steps=200)
    rolled_though_may_hold = {0: 0, 1: 0}
    for state, action in zip(played.states, played.actions):
        mover = game.to_move(state)
        if mover >= 0 and any(isinstance(a, Hold) for a in game.legal_actions(state)):
            rolled_though_may_hold[mover] += not isinstance(action, Hold)
    assert rolled_though_may_hold[0] == 0
    assert rolled_though_may_hold[1] > 0


def test_the_count_of_policies_must_fit_the_players():
    with pytest.raises(ValueError, match="3 policies for 2 players"):
        play(Pig(2), (UNIFORM, UNIFORM, UNIFORM), seed=0)


def test_an_unknown_policy_is_refused_naming_the_known_ones():
    assert policy_named("random") is UNIFORM
    with pytest.raises(ValueError, match=r"no policy 'best'; policies: random"):
        policy_named("best")
