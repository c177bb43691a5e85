"""The fields each state property declares it reads are all it reads, and a run skips a state
property on a step that left those fields as they were, without missing a failure (StepChecks,
which finds a step's changed fields once for all the properties)."""

import attrs
import pytest

from rulecheck.check.play.playthrough import random_game
from rulecheck.check.watch.property_checks import StepChecks, failures
from rulecheck.games.globetrotter.game import Globetrotter
from rulecheck.model.properties import StateProperty, TransitionProperty
from rulecheck.registry import DECLARATIONS, declaration, make_game
from tests.field_reads import ReadOutside, window

GAMES_PER_COUNT = 2
STATES_PER_GAME = 300


def played_states(name):
    """States spread over a few random games at each player count the game's campaign covers,
    about STATES_PER_GAME of each game."""
    for players in DECLARATIONS[name].game.campaign_players:
        game = make_game(name, players)
        for seed in range(GAMES_PER_COUNT):
            states = random_game(game, seed).states
            for state in states[:: max(1, len(states) // STATES_PER_GAME)]:
                yield game, state


@pytest.mark.parametrize("name", sorted(DECLARATIONS))
def test_state_properties_read_only_the_fields_they_declare(name):
    props = [p for p in declaration(name).properties if isinstance(p, StateProperty) and p.reads]
    assert props, f"{name} declares no reads"
    checked = 0
    for game, state in played_states(name):
        for prop in props:
            with window(state, frozenset(prop.reads)) as read:
                seen = prop.check(game, state)
            assert read, f"{prop.name} read nothing through the window"
            assert seen == prop.check(game, state), prop.name
            checked += 1
    assert checked > 1000


def test_a_window_catches_a_read_outside_it():
    game = Globetrotter(2)
    state = random_game(game, 0).states[80]
    [prop] = [p for p in declaration("globetrotter").properties if p.name == "spaces-hold-compatible-pieces"]
    with pytest.raises(ReadOutside, match="'rover_codes'"), window(state, frozenset({"building_codes"})):
        prop.check(game, state)
    assert prop.check(game, state) is None  # the window is closed: every field reads again


def test_a_step_that_leaves_the_read_fields_alone_is_not_checked_again():
    game = Globetrotter(2)
    state = random_game(game, 0).states[80]
    assert state.rovers
    too_many = attrs.evolve(state, rover_codes=state.rover_codes + state.rover_codes[:1])  # two Rovers on one space
    [prop] = [p for p in declaration("globetrotter").properties if p.name == "spaces-hold-compatible-pieces"]
    later = attrs.evolve(too_many, lost=())
    assert failures(game, [prop], too_many, "end", later)  # checked unless the caller checked `before`
    run = StepChecks([prop])
    assert not run.failures(game, too_many, "end", later, checked_before=True)
    moved = attrs.evolve(later, rover_codes=later.rover_codes[:-1] + (attrs.evolve(later.rovers[-1], hp=1).code,))
    assert run.failures(game, too_many, "end", moved, checked_before=True)  # a field it reads changed


@pytest.mark.parametrize("name", sorted(DECLARATIONS))
def test_a_run_skips_only_state_properties_the_step_cannot_change(name):
    """On every step of random games, each state property StepChecks leaves out answers on the state
    after as on the state before, and every transition property is kept."""
    skipped = 0
    for players in DECLARATIONS[name].game.campaign_players:
        game = make_game(name, players)
        checks = StepChecks(declaration(name).properties)
        for seed in range(GAMES_PER_COUNT):
            states = random_game(game, seed).states
            for before, after in zip(states, states[1:]):
                chosen = checks.changed_by(before, after)
                for prop in checks.properties:
                    if isinstance(prop, TransitionProperty):
                        assert prop in chosen
                    elif prop not in chosen:
                        assert prop.check(game, after) == prop.check(game, before), prop.name
                        skipped += 1
    assert skipped > 500


def test_step_checks_find_what_the_full_check_finds_where_a_read_field_changed():
    game = Globetrotter(2)
    state = random_game(game, 0).states[80]
    props = declaration("globetrotter").properties
    checks = StepChecks(props)
    too_many = attrs.evolve(state, rover_codes=state.rover_codes + state.rover_codes[:1])
    found = checks.failures(game, state, "end", too_many, checked_before=True)
    assert "spaces-hold-compatible-pieces" in [p.name for p, _ in found]
    assert found == failures(game, props, state, "end", too_many)
    assert checks.failures(game, state, "end", too_many, checked_before=True) == found  # kept, and the same
