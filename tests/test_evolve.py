"""The kernel's evolve makes what attrs.evolve makes, for every class inside every game's state,
and refuses what it cannot make."""

import attrs
import pytest

from rulecheck.check.play.playthrough import random_game
from rulecheck.core.evolve import evolve
from rulecheck.registry import DECLARATIONS, make_game


def attrs_values(value):
    """Every attrs instance inside `value` (itself included), depth first."""
    if attrs.has(type(value)):
        yield value
        for field in attrs.fields(type(value)):
            yield from attrs_values(getattr(value, field.name))
    elif isinstance(value, tuple):
        for item in value:
            yield from attrs_values(item)


@pytest.mark.parametrize("name", sorted(DECLARATIONS))
def test_evolve_makes_what_attrs_evolve_makes(name):
    game = make_game(name, players=DECLARATIONS[name].game.campaign_players[0])
    states = random_game(game, 0).states
    compared = 0
    for before, after in zip(states, states[7:]):
        olds = {type(v): v for v in attrs_values(before)}
        for new in attrs_values(after):
            old = olds.get(type(new))
            if old is None:
                continue
            for field in attrs.fields(type(new)):
                change = {field.name: getattr(new, field.name)}
                made = evolve(old, **change)
                assert made == attrs.evolve(old, **change) and type(made) is type(old)
                compared += 1
            assert evolve(old) == old
    assert compared > 1000


def test_evolve_names_a_field_its_class_does_not_have():
    game = make_game("globetrotter", players=2)
    with pytest.raises(TypeError, match="GlobetrotterState has no field 'score'"):
        evolve(game.initial_state(), score=1)


def test_evolve_refuses_a_class_whose_init_does_not_take_every_field():
    @attrs.frozen
    class Counted:
        kept: int
        made: int = attrs.field(init=False, default=0)

    with pytest.raises(TypeError, match="Counted: evolve needs every field"):
        evolve(Counted(1), kept=2)
