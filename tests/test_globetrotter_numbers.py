"""The rulebook's and audit.md's numbers about Globetrotter, computed from the engine itself."""

from fractions import Fraction

import pytest

from rulecheck.core.chance import distribution
from rulecheck.games.globetrotter import Globetrotter
from rulecheck.games.globetrotter.actions import Shoot
from rulecheck.games.globetrotter.analysis import (
    far_opening,
    firing_destroys_odds,
    hand_turn_to,
    reading_disagreements,
)
from rulecheck.games.globetrotter.context import PLANETS_BY_PLAYERS
from rulecheck.games.globetrotter.state import Fortification, Rover
from rulecheck.games.globetrotter.tables import first_builds, survival
from rulecheck.registry import declaration, make_game


@pytest.fixture(scope="module")
def game():
    return Globetrotter(2)


def test_planet_destruction_table(game):
    """audit.md 1.6: odds per firing, survival of 6 firings 0.5364, the 13th always destroys,
    6.628 firings expected."""
    odds = [firing_destroys_odds(game, k - 1) for k in range(1, 14)]
    assert odds == [Fraction(n, 36) for n in (0, 0, 1, 3, 6, 10, 15, 21, 26, 30, 33, 35, 36)]
    survive = survival(odds)
    assert round(float(survive[6]), 4) == 0.5364
    assert survive[12] == Fraction(4379375, 313456656384)
    assert survive[13] == 0
    assert round(float(sum(survive[:13])), 3) == 6.628


def test_less_or_equal_reading_makes_the_12th_firing_certain():
    game = Globetrotter(2, {"destruction_roll": "less-or-equal"})
    assert firing_destroys_odds(game, 1) == Fraction(1, 36)
    assert firing_destroys_odds(game, 11) == 1


def _shot(game, covered: bool):
    board = game.rules.boards
    state = hand_turn_to(far_opening(game, "P0", "T1"), 0)
    target_space = "T3"  # beside P0, in range of T1
    state = state.with_pieces(rovers=state.rovers + (Rover(0, target_space, 1, 3),))
    if covered:
        cover = next(n for n in board.graph[target_space] if (0, n) not in state.occupied())
        state = state.with_pieces(fortifications=[Fortification(0, cover, 1, 1)])
    return distribution(
        game, state, Shoot("T1", target_space, "rover"), measure=lambda s: s.rover_at(0, target_space).hp
    )


def test_one_shot_at_a_rover_removes_a_hit_point_with_4_9_or_1_4_under_cover(game):
    assert _shot(game, covered=False) == {2: Fraction(4, 9), 3: Fraction(5, 9)}
    assert _shot(game, covered=True) == {2: Fraction(1, 4), 3: Fraction(3, 4)}


def test_earliest_build_is_the_sixth_action_from_every_start(game):
    """audit.md 1.3: one player's Move, Fortify and Build actions; every start up to the board's rotations."""
    assert set(first_builds(game, pentagons=True)) == {6}


def test_earliest_build_takes_8_actions_when_the_rover_may_not_enter_a_pentagon(game):
    lengths = first_builds(game, pentagons=False)
    assert min(lengths) == 8 and sorted(lengths) == [8] * 8 + [9, 10]


def test_shooting_readings_disagree_on_the_audited_pair_counts():
    """audit.md 1.4: ordered (shooter, target) pairs whose in-range status differs."""
    assert reading_disagreements("ring15") == {
        ("W0", "W1"): 605,
        ("W0", "W2"): 95,
        ("W0", "W3"): 510,
        ("W0", "W4"): 650,
        ("W1", "W2"): 510,
        ("W1", "W3"): 95,
        ("W1", "W4"): 45,
        ("W2", "W3"): 605,
        ("W2", "W4"): 555,
        ("W3", "W4"): 140,
    }


@pytest.mark.parametrize(("players", "planets"), sorted(PLANETS_BY_PLAYERS.items()))
def test_planets_by_player_count(players, planets):
    game = Globetrotter(players)
    assert len(game.initial_state().planets) == planets
    assert (planets > 1) == (players >= 4)


def test_expected_shots_to_destroy_a_rover_under_each_damage_reading():
    """audit.md GT-F10: 4/9 a shot, 6.75 shots expected when each success removes 1 hit point."""
    table = declaration("globetrotter").table("shots-to-destroy", make_game("globetrotter"))
    rows = {(damage, cover): (odds, shots) for damage, cover, odds, shots in table.rows}
    assert rows[("one", "no cover")] == (Fraction(4, 9), Fraction(27, 4))
    assert rows[("one", "cover")] == (Fraction(1, 4), 12)
    assert rows[("die-value", "no cover")] == (Fraction(4, 9), Fraction(9, 4))
