"""Policies: the uniform player is random play, seats play by their own policies, and a name the
project does not know is refused naming the known ones; every policy plays legally and the same
game from the same seed; greedy play beats uniform play on Mechanica's scores, the project's UCT
beats it at Pig, and Mechanica's plan reaches Double Rotate (MEC-T11) in most two-player games.
The games are fixed seeds, so the counts below are the same on every run."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

from rulecheck.check.play.playthrough import play, random_game
from rulecheck.check.play.policies import UNIFORM, Policy, policy_named
from rulecheck.check.watch.api import check_play
from rulecheck.cli.shared import policy_from
from rulecheck.core.clauses import coverage
from rulecheck.core.errors import OptionError, SpecError
from rulecheck.core.game import Game
from rulecheck.core.notation import Action
from rulecheck.registry import DECLARATIONS, make_game
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
    assert policy_named("mcts:12").name == "mcts:12"
    known = r"policies: greedy, plan, random, mcts:<playouts>"
    with pytest.raises(ValueError, match=rf"no policy 'best'; {known}"):
        policy_named("best")
    with pytest.raises(ValueError, match=rf"no policy 'mcts'; {known}"):
        policy_named("mcts")
    for budget in ("x", "0", "-3", ""):
        with pytest.raises(ValueError, match=rf"policy 'mcts:{budget}': the playouts must be a whole number"):
            policy_named(f"mcts:{budget}")


def test_a_game_without_a_plan_refuses_the_plan_policy():
    with pytest.raises(SpecError, match="pig has no plan policy"):
        play(Pig(2), (policy_named("plan"),), seed=0)


def _policies_of(name: str) -> tuple[str, ...]:
    """The policies every game plays, and its plan where it declares one."""
    return ("greedy", "mcts:2") + (("plan",) if DECLARATIONS[name].plan is not None else ())


@pytest.mark.parametrize(
    ("game", "names"),
    [(Pig(2, {"target": "10"}), ("greedy", "mcts:6"))]
    + [(make_game(n, 2), _policies_of(n)) for n in sorted(DECLARATIONS)],
    ids=lambda v: getattr(v, "name", None) or "-".join(v),
)
def test_each_policy_plays_legally_and_the_same_game_from_the_same_seed(game, names):
    for name in names:
        policy = policy_named(name)
        first = play(game, (policy,), seed=5, max_steps=60)
        check_play(game, first.actions)  # every action legal where it was taken, through the shared API checker
        assert play(game, (policy,), seed=5, max_steps=60).actions == first.actions
        assert play(game, (policy,), seed=6, max_steps=60).actions != first.actions


def test_a_look_ahead_counts_no_clause_coverage():
    game = make_game("mechanica", 2)
    for name in ("greedy", "mcts:3"):
        with coverage() as counted:
            played = play(game, (policy_named(name),), seed=2, max_steps=40)
        with coverage() as replayed:
            state = game.initial_state()
            game.legal_actions(state)
            for action in played.actions:
                state = game.apply(state, action)
                game.legal_actions(state)
        assert counted == replayed


def _first_wins(game: Game[Any, Any], seats: tuple[Policy, ...], seeds: range) -> int:
    """Of the games from `seeds`, how many seat 0 ends strictly ahead of every other seat in."""
    won = 0
    for seed in seeds:
        returns = game.returns(play(game, seats, seed).states[-1])
        won += returns[0] > max(returns[1:])
    return won


def test_greedy_beats_uniform_on_mechanica_scores():
    game = make_game("mechanica", 2)
    greedy = _first_wins(game, (policy_named("greedy"), UNIFORM), range(30))
    uniform = _first_wins(game, (UNIFORM, UNIFORM), range(30))
    assert greedy >= 27 and greedy > uniform  # measured: 30 and 20 of 30


def test_mcts_beats_uniform_at_pig():
    game = Pig(2, {"target": "10"})
    mcts = policy_named("mcts:20")
    won = _first_wins(game, (mcts, UNIFORM), range(60)) + 60 - _first_wins(game, (UNIFORM, mcts), range(60))
    assert won >= 78  # of 120, against 60 for an even match; measured: 88


def test_mechanica_plan_reaches_double_rotate_in_most_two_player_games():
    game = make_game("mechanica", 2)
    reached = 0
    for seed in range(30):
        with coverage() as counted:
            play(game, (policy_named("plan"),), seed)
        reached += "MEC-T11" in counted
    assert reached >= 20  # measured: 27 of 30


def test_openspiel_mcts_plays_legally_and_the_same_game_from_the_same_seed_once_the_command_asks_for_it():
    game = make_game("globot-time-force", 2)
    policy = policy_from("openspiel-mcts:4")
    assert policy.name == "openspiel-mcts:4"
    first = play(game, (policy,), seed=1, max_steps=12)
    check_play(game, first.actions)
    assert play(game, (policy,), seed=1, max_steps=12).actions == first.actions
    with pytest.raises(OptionError, match=r"policy 'openspiel-mcts:0': the playouts must be a whole number"):
        policy_from("openspiel-mcts:0")
    with pytest.raises(OptionError, match=r"no policy 'greed'; policies: .*openspiel-mcts:<playouts>"):
        policy_from("greed")
