"""OpenSpiel interop: every registered game passes pyspiel's random simulation test, and what
pyspiel sees of a game (ids, chance, states, returns) is what the kernel says."""

import importlib
import random
import sys

import pytest

from rulecheck.core.errors import OptionError
from rulecheck.core.game import CHANCE, TERMINAL, Game
from rulecheck.model.declaration import GameDeclaration
from rulecheck.registry import DECLARATIONS, game_class, make_game
from tests.fixtures.high_card import HighCard
from tests.fixtures.pig import Pig

pyspiel = pytest.importorskip("pyspiel", reason="open-spiel is not installed (the test extra installs it)")

from rulecheck.suite import openspiel  # noqa: E402  (needs pyspiel)

SIMS = 3
SIM_LENGTH = 1500
"""max_game_length in the simulation test: most two-player Globetrotter games end before it,
longer ones are truncated, and the file stays fast."""


def _player_counts(name):
    """The game's least player count and the next its campaign covers (or one more)."""
    cls = DECLARATIONS[name].game
    more = [p for p in cls.campaign_players if p > cls.min_players] or [cls.min_players + 1]
    return [cls.min_players] + ([more[0]] if more[0] <= cls.max_players else [])


SIM_CASES = [(name, players) for name in sorted(DECLARATIONS) for players in _player_counts(name)]


@pytest.mark.parametrize(("name", "players"), SIM_CASES)
def test_every_game_passes_the_random_simulation_test(name, players):
    """pyspiel's own checks on random games (clone, serialization, sorted and unique legal
    actions, chance outcomes summing to 1, returns within the utility bounds and the history
    within max_game_length, observation and information state strings)."""
    game = openspiel.load_game(name, players=players, max_game_length=SIM_LENGTH)
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=SIMS, serialize=True, verbose=False)


def _kernel_replay(game, history):
    """The kernel's canonical state after each prefix of `history` (integer ids), from its own engine."""
    state = game.initial_state()
    found = [game.encode_state(state)]
    for number in history:
        state = game.apply(state, game.action_from_id(number, chance=game.to_move(state) == CHANCE))
        found.append(game.encode_state(state))
    return state, found


@pytest.mark.parametrize("name", sorted(DECLARATIONS))
def test_pyspiel_sees_what_the_kernel_says(name):
    game = openspiel.load_game(name)
    rules = make_game(name)
    rng = random.Random(3)
    state = game.new_initial_state()
    kernel = rules.initial_state()
    seen = [str(state)]
    while not state.is_terminal():
        mover = rules.to_move(kernel)
        if mover == CHANCE:
            assert state.current_player() == pyspiel.PlayerId.CHANCE
            outcomes = sorted((rules.action_id(o), float(p)) for o, p in rules.chance_outcomes(kernel))
            assert state.chance_outcomes() == outcomes
            assert state.legal_actions() == [n for n, _ in outcomes]
            number = rng.choices([n for n, _ in outcomes], weights=[p for _, p in outcomes])[0]
        else:
            assert state.current_player() == mover
            legal = sorted(rules.action_id(a) for a in rules.legal_actions(kernel))
            assert state.legal_actions() == legal
            number = rng.choice(legal)
        action = rules.action_from_id(number, chance=mover == CHANCE)
        assert state.action_to_string(state.current_player(), number) == str(action)
        state.apply_action(number)
        kernel = rules.apply(kernel, action)
        assert str(state) == rules.encode_state(kernel)
        seen.append(str(state))
    assert not state.is_truncated() and rules.to_move(kernel) == TERMINAL
    assert state.returns() == [float(r) for r in rules.returns(kernel)]
    end, replayed = _kernel_replay(make_game(name), state.history())
    assert replayed == seen
    assert rules.returns(end) == rules.returns(kernel)


@pytest.mark.parametrize("name", sorted(DECLARATIONS))
def test_truncation_at_max_game_length_ends_the_game_with_returns_of_zero(name):
    game = openspiel.load_game(name, max_game_length=5)
    state = game.new_initial_state()
    rng = random.Random(0)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([n for n, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert len(state.history()) == 5 and state.is_truncated()
    assert state.current_player() == pyspiel.PlayerId.TERMINAL and state.legal_actions() == []
    assert state.returns() == [0.0] * game.num_players()
    assert str(state) == openspiel.TRUNCATED + game.rules.encode_state(state.rules_state)
    clone = state.clone()
    assert clone.is_terminal() and str(clone) == str(state)


@pytest.mark.parametrize("name", sorted(DECLARATIONS))
def test_a_run_of_chance_outcomes_past_max_chance_run_is_truncated(name):
    """Every setup here draws more than once in a row, so max_chance_run=1 ends it there."""
    game = openspiel.load_game(name, max_chance_run=1)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.is_truncated() and state.returns() == [0.0] * game.num_players()
    chance = [item.player == pyspiel.PlayerId.CHANCE for item in state.full_history()]
    assert chance[-1] and not any(a and b for a, b in zip(chance, chance[1:]))
    assert game.rules.to_move(state.rules_state) == CHANCE


def test_a_game_that_ends_at_max_game_length_keeps_its_returns():
    game = openspiel.load_game("globot-time-force")
    state = game.new_initial_state()
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    history = state.history()
    exact = openspiel.load_game("globot-time-force", max_game_length=len(history)).new_initial_state()
    for number in history:
        exact.apply_action(number)
    assert exact.is_terminal() and not exact.is_truncated()
    assert exact.returns() == state.returns() != [0.0]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ("nonsense=1", "unknown option 'nonsense' for globetrotter; `rulecheck options globetrotter` lists its"),
        ("lost_piece=stay", "unknown option 'lost_piece' for globetrotter; near it: lost_pieces"),
        ("shooter", "expected NAME=VALUE, got 'shooter'"),
        ("shooter=sometimes", "option 'shooter' of globetrotter has no value 'sometimes'; allowed: rover, any-piece"),
        ("shooter=rover,shooter:any-piece", "option 'shooter' set twice"),
    ],
)
def test_bad_options_are_a_clear_error(options, message):
    with pytest.raises(OptionError, match=message):
        openspiel.load_game("globetrotter", options=options)


def test_bad_numbers_are_a_clear_error():
    with pytest.raises(OptionError, match="globetrotter is for 2 to 6 players, not 9"):
        openspiel.load_game("globetrotter", players=9)
    with pytest.raises(OptionError, match="max_chance_run must be a positive integer"):
        openspiel.load_game("globetrotter", max_chance_run=0)


def test_options_survive_a_game_string():
    """OpenSpiel's game strings take `=` and `,` for themselves: the game keeps its options as
    key:value;key:value, so its string loads the same game again."""
    game = openspiel.load_game("globetrotter", players=3, options="shooter=any-piece, removal=edge5")
    assert game.get_parameters()["options"] == "removal:edge5;shooter:any-piece"
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert again.rules.options == make_game("globetrotter", 3, {"shooter": "any-piece", "removal": "edge5"}).options


def test_utility_bounds_hold_and_grow_with_the_length_of_a_game():
    for name in sorted(DECLARATIONS):
        rules = make_game(name)
        low, high = openspiel.utility_bounds(rules, 100)
        if rules.traits.outcome == "win-loss":
            assert (low, high) == (-1, 1) == openspiel.utility_bounds(rules, 10**6)
        else:
            assert low == 0 < high < openspiel.utility_bounds(rules, 1000)[1]
        game = openspiel.load_game(name, max_game_length=100)
        assert (game.min_utility(), game.max_utility()) == (float(low), float(high))


def test_a_game_of_scores_without_derived_bounds_is_refused(monkeypatch):
    monkeypatch.setattr(game_class("mechanica"), "return_bounds", Game.return_bounds)
    with pytest.raises(ValueError, match="mechanica: derives no bounds on its scores"):
        openspiel.load_game("mechanica")


def test_a_game_whose_players_observe_different_things_is_refused(monkeypatch):
    monkeypatch.setitem(DECLARATIONS, "high-card", GameDeclaration("high-card", HighCard))
    with pytest.raises(ValueError, match="high-card: players observe different things"):
        openspiel.register("high-card")


def test_a_game_from_outside_the_registry_plays_through_pyspiel(monkeypatch):
    monkeypatch.setitem(DECLARATIONS, "pig", GameDeclaration("pig", Pig))
    game = openspiel.load_game("pig", players=3, options="target=10")
    assert str(game) == "python_rulecheck_pig(max_chance_run=100,max_game_length=10000,options=target:10,players=3)"
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


def test_without_open_spiel_the_module_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    monkeypatch.delitem(sys.modules, "rulecheck.suite.openspiel")
    with pytest.raises(ImportError, match=r"pip install 'rulecheck\[openspiel\]'"):
        importlib.import_module("rulecheck.suite.openspiel")
