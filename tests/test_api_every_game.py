"""Every registered game passes the shared API checker, with no game-specific code here.

Each game is played at every player count its campaign covers, under its default options and
with every option at its first other value, by the Hypothesis play strategy (the checker
includes the observation check, which binds games that declare imperfect information).
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulecheck.check.play.strategies import playthroughs
from rulecheck.check.watch.api import check_play
from rulecheck.registry import DECLARATIONS, make_game


def other_values(game):
    """Every option of `game` at its first value other than the default."""
    return {o.name: next(v for v in o.values if v != o.default) for o in game.option_space.options}


def _setups():
    for name in sorted(DECLARATIONS):
        game = DECLARATIONS[name].game
        for players in game.campaign_players:
            yield name, players, {}
            yield name, players, other_values(game)


SETUPS = list(_setups())


def _id(setup):
    name, players, options = setup
    return f"{name}-{players}p-{'variants' if options else 'defaults'}"


@pytest.mark.parametrize("setup", SETUPS, ids=_id)
@settings(max_examples=3)
@given(data=st.data())
def test_random_games_pass_the_api_checker(setup, data):
    game = make_game(*setup)
    play = data.draw(playthroughs(game, max_steps=120))
    check_play(game, play.actions)
