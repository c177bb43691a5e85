"""Mechanica refuses an action its listings leave out with IllegalAction, even one no rule's check
explains: the listing alone decides, so the rules never disagree with it (RulesDisagree)."""

import random

import pytest

from rulecheck.core.errors import IllegalAction, RulesDisagree
from rulecheck.core.game import CHANCE
from rulecheck.games.mechanica import game as game_module
from rulecheck.games.mechanica.state import TURN
from rulecheck.registry import make_game


def a_turn_with_actions(game, seed):
    """A state of seeded random play where a player acts in a turn."""
    rng, state = random.Random(seed), game.initial_state()
    while game.to_move(state) == CHANCE or state.phase != TURN:
        state = game.apply(state, rng.choice(game.legal_actions(state)))
    return state


def test_an_action_its_listing_leaves_out_is_refused_even_when_no_check_explains_it(monkeypatch):
    game = make_game("mechanica", 2)
    state = a_turn_with_actions(game, 1)
    at = (state.phase, state.step)
    listings = game._listed_at[at]
    first = next(a for legal in listings for a in legal(game.rules, state, state.player))

    def leaving_out_the_first(legal):
        return lambda rules, state, player: [a for a in legal(rules, state, player) if a != first]

    game = make_game("mechanica", 2)
    monkeypatch.setitem(game._listed_at, at, tuple(leaving_out_the_first(legal) for legal in listings))
    assert first not in game.legal_actions(state)
    rule = game_module._RULE_BY_TYPE[type(first)]
    assert rule.check(game.rules, state, state.player, first) is None  # its check finds nothing wrong
    try:
        game.apply(state, first)
    except RulesDisagree as disagreement:  # what the kernel raised before
        pytest.fail(f"the rules disagreed: {disagreement}")
    except IllegalAction as refusal:
        assert refusal.clause == "MEC-T0" and refusal.reason == f"{first} is not legal now"
    else:
        pytest.fail(f"{first}, left out of the listing, was applied")
