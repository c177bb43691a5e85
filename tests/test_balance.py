"""The balance package: its statistics against known quantiles, the figures of played games
(lead changes and decisiveness as Ludii counts them over a game's progress), readings compared,
exact outcome probabilities by value iteration against sampled win rates, and the same figures
whether the games are played here, in local processes or on a Dask cluster."""

from __future__ import annotations

import functools
import math

import attrs
import pytest

from rulecheck.check.balance.compare import compared, other_readings
from rulecheck.check.balance.exact import exact_outcomes, uniform
from rulecheck.check.balance.figures import Played, figures, measured
from rulecheck.check.balance.games import Setup, checked, play_setups
from rulecheck.check.balance.run import balance
from rulecheck.check.balance.statistics import (
    chi_square_equal_shares,
    chi_square_homogeneity,
    chi_square_p,
    holm,
    wilson,
)
from rulecheck.check.play.playthrough import play, random_game
from rulecheck.check.play.policies import UNIFORM
from rulecheck.core.errors import OptionError
from rulecheck.registry import make_game
from tests.fixtures.high_card import HighCard
from tests.fixtures.pig import Hold, Pig
from tests.test_parallel import cluster  # noqa: F401  (the Dask LocalCluster fixture)


@pytest.mark.parametrize(
    ("statistic", "degrees", "p"),
    [(3.841458820694124, 1, 0.05), (5.991464547107979, 2, 0.05), (11.070497693516351, 5, 0.05), (6.634896601, 1, 0.01)],
)
def test_the_chi_square_tail_gives_the_tables_quantiles(statistic, degrees, p):
    assert chi_square_p(statistic, degrees) == pytest.approx(p, rel=1e-6)


def test_the_chi_square_tail_is_one_for_nothing_tested_and_falls_with_the_statistic():
    assert chi_square_p(0.0, 3) == 1.0 and chi_square_p(5.0, 0) == 1.0
    assert chi_square_p(1.0, 2) == pytest.approx(math.exp(-0.5))  # df 2: the tail is exp(-x / 2)
    assert chi_square_p(40.0, 2) == pytest.approx(math.exp(-20.0))


def test_the_wilson_interval_of_known_proportions():
    assert wilson(0, 10) == pytest.approx((0.0, 0.27753), abs=1e-5)
    assert wilson(5, 10) == pytest.approx((0.23659, 0.76341), abs=1e-5)
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(11, 10)


def test_chi_square_statistics_of_a_table_and_of_shares():
    assert chi_square_homogeneity([[10, 10], [10, 10]]) == (0.0, 1)
    statistic, degrees = chi_square_homogeneity([[30, 10, 0], [10, 30, 0]])  # the empty column is left out
    assert (statistic, degrees) == (pytest.approx(20.0), 1)
    assert chi_square_equal_shares([30, 10]) == (pytest.approx(10.0), 1)


def test_holm_multiplies_the_kth_smallest_and_keeps_the_order():
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])


class BankedPig(Pig):
    """Pig whose progress is the banked scores, to count leads over."""

    def progress(self, state):
        return tuple(float(s) for s in state.scores)


def test_lead_changes_and_decisiveness_follow_the_progress_of_one_game():
    game = BankedPig(2, {"target": "10"})
    played = random_game(game, seed=4)
    found = measured(played)
    standings = [s.scores for s in played.states]
    leaders = [frozenset(p for p, v in enumerate(s) if v == max(s)) for s in standings]
    assert found.lead_changes == sum(a != b for a, b in zip(leaders, leaders[1:]))
    assert found.lead_changes > 0
    [winner] = found.winners
    loser_best = max(s[1 - winner] for s in standings)
    first = next(i for i, s in enumerate(standings) if s[winner] > loser_best)
    assert found.decisive_at == first / len(played.actions)
    assert found.moves == sum(1 for s in played.states[:-1] if game.to_move(s) >= 0)


def test_by_default_the_lead_changes_once_at_the_end_and_the_game_is_decided_there():
    found = measured(random_game(Pig(2, {"target": "10"}), seed=1))
    assert (found.lead_changes, found.decisive_at) == (1, 1.0)


def test_figures_count_outcomes_apart_and_lengths_of_finished_games_only():
    played = [
        Played((0,), False, 10, 5, 10, 1, 0.5),
        Played((0, 1), False, 20, 10, 30, 1, 1.0),
        Played((), True, 100, 50, 50, 0, None),
    ]
    found = figures(played, 2)
    assert found.outcomes == (1, 0, 1, 0, 1)
    assert (found.draws, found.everyone_loses, found.timeouts) == (1, 0, 1)
    assert found.seats[0].wins == 1 and found.seats[1].shared == 1
    assert (found.length_mean, found.longest) == (15.0, 20)
    assert found.length_sd == pytest.approx(math.sqrt(50))
    assert found.branching == pytest.approx(90 / 65)
    assert found.decisiveness == pytest.approx(0.75)


def _sample(wins_0, wins_1):
    return [Played((0,), False, 5, 2, 4, 1, 1.0)] * wins_0 + [Played((1,), False, 5, 2, 4, 1, 1.0)] * wins_1


def test_a_reading_that_turns_the_winner_around_is_significant_and_one_that_does_not_is_not():
    base = figures(_sample(70, 30), 2)
    same, turned = compared(
        base, [(("a", "x"), figures(_sample(69, 31), 2)), (("b", "y"), figures(_sample(30, 70), 2))]
    )
    assert not same.significant and same.p > 0.5
    assert turned.significant and turned.adjusted == pytest.approx(2 * turned.p) and turned.adjusted < 1e-6


def test_other_readings_are_every_other_value_of_every_option():
    assert other_readings(Pig(2, {"target": "10"})) == [("one", "lose-all"), ("target", "20")]


@functools.cache
def exact_pig(one):
    return exact_outcomes(Pig(2, {"target": "10", "one": one}), max_states=12_000)


@pytest.mark.parametrize("one", ["lose-turn", "lose-all"])
def test_sampled_pig_win_rates_fall_inside_the_exact_values_intervals(one):
    """The exact values (value iteration, to within the frontier's bound) lie inside each seat's
    Wilson 95% interval over 2,000 seeded games."""
    game = Pig(2, {"target": "10", "one": one})
    exact = exact_pig(one)
    assert all(high - low < 0.002 for low, high in zip(exact.low, exact.high))
    found = figures([measured(play(game, (UNIFORM,), seed)) for seed in range(2000)], 2)
    for seat in (0, 1):
        assert found.seats[seat].low <= exact.low[seat] <= exact.high[seat] <= found.seats[seat].high
    assert found.timeouts == found.draws == 0


def test_the_exact_values_tell_the_readings_of_pig_apart():
    exact = [exact_pig(one) for one in ("lose-turn", "lose-all")]
    assert exact[1].high[0] < exact[0].low[0]


@pytest.mark.parametrize(("players", "deck"), [(2, "full"), (3, "full"), (2, "short")])
def test_a_small_game_is_solved_whole_and_sampled_outcomes_agree(players, deck):
    game = HighCard(players, {"deck": deck})
    exact = exact_outcomes(game)
    assert exact.frontier == 0 and exact.low == exact.high
    assert sum(exact.low) == pytest.approx(1.0)
    found = figures([measured(random_game(game, seed)) for seed in range(1500)], players)
    for category, probability in enumerate(exact.low):
        assert found.outcomes[category] <= 1500
        low, high = wilson(found.outcomes[category], 1500)
        assert low <= probability <= high


def test_a_setup_is_checked_naming_what_is_wrong():
    with pytest.raises(OptionError, match="no policy 'best'"):
        checked(Setup("globot-time-force", 2, policies=("best",)))
    with pytest.raises(OptionError, match="3 policies for 2 players"):
        checked(Setup("globot-time-force", 2, policies=("random",) * 3))
    with pytest.raises(OptionError, match="unknown option"):
        checked(Setup("globot-time-force", 2, options=(("nothing", "x"),)))
    with pytest.raises(OptionError, match="not 9"):
        checked(Setup("globot-time-force", 9))
    with pytest.raises(OptionError, match="at least 1, not 0"):
        play_setups([Setup("globot-time-force", 2)], 0, seed=0)


SETUP = Setup("globot-time-force", 2)


@pytest.fixture(scope="module")
def serial():
    return balance(SETUP, 60, seed=3)


def test_games_played_in_local_processes_give_the_serial_figures(serial):
    assert balance(SETUP, 60, seed=3, workers=2) == serial
    assert balance(SETUP, 60, seed=4) != serial


def test_games_played_on_a_dask_cluster_give_the_serial_figures(serial, cluster):  # noqa: F811
    assert balance(SETUP, 60, seed=3, dask=cluster) == serial


def test_the_figures_of_a_run_are_those_of_its_games_played_one_by_one(serial):
    game = make_game("globot-time-force", 2)
    one_by_one = [measured(play(game, (UNIFORM,), 3 * 2**32 + k)) for k in range(60)]
    assert serial.figures == figures(one_by_one, 2)


@attrs.frozen
class HoldWhenAllowed:
    """Holds whenever it may, else rolls: a fixed policy whose distribution is one action."""

    name: str = "hold-when-allowed"

    def choose(self, game, state, rng):
        return self.distribution(game, state)[0][0]

    @staticmethod
    def distribution(game, state):
        legal = game.legal_actions(state)
        return [(next((a for a in legal if isinstance(a, Hold)), legal[0]), 1.0)]


def test_exact_values_under_a_policy_per_seat():
    """Seat 0 holds at once, seat 1 plays at random: a distribution per seat, solved to within
    the frontier's bound, whose outcomes differ from uniform play's."""
    game = Pig(2, {"target": "10"})

    def by_seat(game, state):
        return HoldWhenAllowed.distribution(game, state) if game.to_move(state) == 0 else uniform(game, state)

    exact = exact_outcomes(game, by_seat, max_states=12_000)
    assert exact.high[0] - exact.low[0] < 0.002
    assert sum(exact.low) <= 1.0 <= sum(exact.low) + 0.002
    assert abs(exact.low[0] - exact_pig("lose-turn").low[0]) > 0.1  # the policy matters to who wins
    played = play(game, (HoldWhenAllowed(), UNIFORM), seed=0)
    held = [a for s, a in zip(played.states, played.actions) if game.to_move(s) == 0]
    assert held and all(
        isinstance(a, Hold) or s.turn_total == 0 for s, a in zip(played.states, played.actions) if game.to_move(s) == 0
    )


MCTS_SETUP = Setup("mechanica", 2, policies=("mcts:4", "random"), max_steps=120)


def test_games_of_mcts_on_a_dask_cluster_give_the_serial_figures(cluster):  # noqa: F811
    serial = balance(MCTS_SETUP, 4, seed=5)
    assert balance(MCTS_SETUP, 4, seed=5, dask=cluster) == serial
