"""An OpenSpiel-style view of every game, with no game-specific code: integers in, integers out.

The view below is what an adapter to OpenSpiel or to an engine in another language needs:
legal actions and chance outcomes as integer ids, applying an id, and exact returns at the
end. It is written once against the kernel's protocol and plays every registered game.
"""

import random
from fractions import Fraction

import pytest

from rulecheck.check.search.fuzz import fuzz
from rulecheck.check.watch.generic import ENGINE_ERROR
from rulecheck.core.game import CHANCE, Game
from rulecheck.registry import DECLARATIONS, declaration, make_game
from tests.fixtures.pig import Pig


class IntegerView:
    """One game seen through integer ids only."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.state = game.initial_state()

    def is_chance_node(self) -> bool:
        return self.game.to_move(self.state) == CHANCE

    def legal_actions(self) -> list[int]:
        return [self.game.action_id(a) for a in self.game.legal_actions(self.state)]

    def chance_outcomes(self) -> list[tuple[int, Fraction]]:
        return [(self.game.action_id(o), p) for o, p in self.game.chance_outcomes(self.state)]

    def apply_action(self, number: int) -> None:
        self.state = self.game.apply(self.state, self.game.action_from_id(number, chance=self.is_chance_node()))


def _play(view: IntegerView, seed: int, max_steps: int) -> int:
    rng = random.Random(seed)
    steps = 0
    while not view.game.is_terminal(view.state) and steps < max_steps:
        if view.is_chance_node():
            outcomes = view.chance_outcomes()
            assert all(0 <= n < view.game.max_chance_outcomes() for n, _ in outcomes)
            number = rng.choices([n for n, _ in outcomes], weights=[float(p) for _, p in outcomes])[0]
        else:
            legal = view.legal_actions()
            assert legal == sorted(set(legal), key=lambda n: str(view.game.action_from_id(n)))
            assert all(0 <= n < view.game.num_distinct_actions() for n in legal)
            number = rng.choice(legal)
        view.apply_action(number)
        steps += 1
    return steps


@pytest.mark.parametrize("name", sorted(DECLARATIONS))
def test_every_game_plays_through_integer_ids_alone(name):
    for players in make_game(name).campaign_players:
        for seed in range(3):
            view = IntegerView(make_game(name, players))
            assert _play(view, seed, max_steps=400) > 0


@pytest.mark.parametrize("players", [2, 4])
def test_every_globetrotter_action_is_built_from_its_id_and_back(players):
    game = make_game("globetrotter", players)
    for chance, count in ((False, game.num_distinct_actions()), (True, game.max_chance_outcomes())):
        for number in range(count):
            action = game.action_from_id(number, chance=chance)
            assert game.action_id(action) == number
            assert game.parse_action(str(action)) == action


def test_returns_agree_with_winners_and_losers_at_every_end_of_a_fuzz_campaign():
    """The generic checks hold every terminal state's returns to its winners and losers (an engine
    error otherwise); a campaign in which games end shows no such error."""
    game = make_game("globetrotter", 2)
    report = fuzz(game, declaration("globetrotter").properties, games=12, seed=5)
    assert report.games > report.capped  # some games ended, so their ends were checked
    assert report.violations == ()


class WinnersEverywherePig(Pig):
    """Says every player won, although all but one lost."""

    def _returns(self, state):
        return (1,) * self.players


def test_returns_that_disagree_with_the_losers_are_an_engine_error():
    report = fuzz(WinnersEverywherePig(2, {"target": "10"}), [], games=20, seed=0, max_steps=200)
    [violation] = report.violations
    assert violation.issue.key == (ENGINE_ERROR, "returns")
    assert "the losers are" in violation.issue.message


@pytest.mark.parametrize("players", [2, 4, 6])
def test_globetrotter_id_counts_follow_from_the_board(players):
    """S spaces over all planets and O orbits: 6 two-space classes of S*S ids (move, shoot x3,
    manufacture, aim), 15*S for one space (descend x3, build x4 and eight more), 3*O*O transfers,
    and 5 without a space (two choices, save, pass, end); chance: 6 + 11 + 37 outcomes."""
    game = make_game("globetrotter", players)
    planets = game.rules.boards.count
    spaces = len(game.rules.boards.spaces) * planets
    assert game.num_distinct_actions() == 6 * spaces**2 + 15 * spaces + 3 * planets**2 + 5
    assert game.max_chance_outcomes() == 6 + 11 + 37
