"""Fuzz campaigns run in chunks: the games counted toward N, every game played, the same report
from the same seed, and chance drawn so that the simplest game leaves a loop through dice."""

import math
from collections import Counter
from fractions import Fraction

import pytest

from rulecheck.check.play.strategies import draw_action
from rulecheck.check.search import fuzz as fuzzing
from rulecheck.check.search.fuzz import chunk_games, chunk_seed, fuzz
from rulecheck.core.game import CHANCE
from rulecheck.core.trace import replay
from rulecheck.model.properties import StateProperty
from rulecheck.registry import declaration, make_game
from tests.fixtures.pig import Pig

GAME = "globot-time-force"


@pytest.fixture
def small_chunks(monkeypatch):
    monkeypatch.setattr(fuzzing, "CHUNK_GAMES", 4)
    monkeypatch.setattr(fuzzing, "MAX_CHUNK_GAMES", 4)


def campaign(seed: int):
    game = make_game(GAME)
    return fuzz(game, declaration(GAME).properties, games=10, seed=seed, max_steps=40)


def test_a_campaign_of_several_chunks_counts_exactly_its_games_and_every_game_it_played(small_chunks):
    report = campaign(seed=5)
    assert report.games == 10 and report.capped <= report.games
    # chunks 2 and 3 begin with Hypothesis's simplest game, which chunk 1 counted already: each is
    # played, rejected as a repeat, and replaced
    assert report.played_games >= report.games + 2 and report.played_steps > report.steps
    data = report.to_data()
    assert (data["games"], data["played_games"], data["played_steps"]) == (10, report.played_games, report.played_steps)


def test_a_violation_shrunk_in_one_chunk_is_reported_once_and_the_campaign_still_counts_every_game(small_chunks):
    def banked_ten(game, state):
        return "a turn total of 10" if state.turn_total >= 10 else None

    prop = StateProperty("below-ten", (), "no turn total reaches 10", banked_ten)
    game = Pig(2)
    report = fuzz(game, [prop], games=12, seed=1, max_steps=40)
    [violation] = report.violations
    assert violation.issue.subject == "below-ten" and report.games == 12
    assert report.played_games > report.games  # the shrinking, and the chunk's first run
    replay(game, violation.trace)


def test_two_campaigns_from_one_seed_report_the_same(small_chunks):
    assert campaign(seed=5).to_data() == campaign(seed=5).to_data()
    assert campaign(seed=5).to_data() != campaign(seed=6).to_data()


def test_chunks_of_long_games_are_small_and_chunks_of_short_games_large():
    assert chunk_games(0, 0) == fuzzing.CHUNK_GAMES
    assert chunk_games(100, 100 * fuzzing.CHUNK_STEPS) == fuzzing.CHUNK_GAMES
    assert chunk_games(100, 100) == fuzzing.MAX_CHUNK_GAMES
    assert chunk_games(100, 200 * fuzzing.CHUNK_STEPS // fuzzing.MAX_CHUNK_GAMES) == fuzzing.MAX_CHUNK_GAMES // 2


def test_each_chunk_has_a_seed_of_its_own():
    seeds = {chunk_seed(seed, index) for seed in range(3) for index in range(50)}
    assert len(seeds) == 150 and chunk_seed(0, 0) == chunk_seed(0, 0)


def zeros(strategy) -> int:
    return 0


def test_the_simplest_game_leaves_globetrotters_roll_off_tie():
    game = make_game("globetrotter", 2)
    state, visits, rolls = game.initial_state(), Counter(), 0
    while game.to_move(state) == CHANCE:
        rolls += 1
        assert rolls <= 2 * game.players, "the roll-off never ends"
        state = game.apply(state, draw_action(zeros, game, state, visits=visits))
    assert rolls == 4  # both roll a 1, then the first roller's second turn gives a 2


def test_a_chance_state_visited_again_keeps_every_outcomes_odds():
    game = make_game("globetrotter", 2)
    state = game.initial_state()
    outcomes = dict(game.chance_outcomes(state))
    scale = math.lcm(*(p.denominator for p in outcomes.values()))
    for earlier in range(3):
        drawn = Counter[object]()
        for ticket in range(scale):
            visits = Counter({state: earlier})
            drawn[draw_action(lambda strategy, t=ticket: t, game, state, visits=visits)] += 1
        assert {outcome: Fraction(n, scale) for outcome, n in drawn.items() if n} == outcomes
        first = draw_action(zeros, game, state, visits=Counter({state: earlier}))
        assert first == list(outcomes)[earlier]
