"""A written Globetrotter state is decoded only when every value is a place, seat, kind or count of
the game: the integer state packs them in fixed fields, so a value out of range would come back as
another piece or send the rules past the board or the seats. Each bad value is refused with an
EncodingError naming its field; every state of played games decodes back to itself."""

import copy
import json

import pytest

from rulecheck.check.play.playthrough import random_game
from rulecheck.core.errors import EncodingError
from rulecheck.registry import make_game

GAME = make_game("globetrotter", 4)


def a_written_state_with_pieces() -> dict:
    """A state of a played 4-player game (two planets) with Rovers, Fortifications and Buildings."""
    for seed in range(50):
        for state in random_game(GAME, seed).states:
            if state.rovers and state.fortifications and state.buildings and state.turn is not None:
                return json.loads(GAME.encode_state(state))
    raise AssertionError("no played state holds every kind of piece")


WRITTEN = a_written_state_with_pieces()


@pytest.mark.parametrize(
    ("part", "field", "value", "named"),
    [
        ("rovers", "planet", 2, "at .rovers[0].planet: 2 is no planet of the game, which has 2"),
        ("rovers", "planet", -1, "at .rovers[0].planet: -1 is no planet"),
        ("rovers", "space", "Z99", "at .rovers[0].space: 'Z99' is no space of the board"),
        ("rovers", "owner", 4, "at .rovers[0].owner: 4 is no seat of the game"),
        ("rovers", "owner", -1, "at .rovers[0].owner: -1 is no seat of the game"),
        ("rovers", "hp", 16, "at .rovers[0].hp: 16 is outside 0 to 15"),
        ("fortifications", "space", "", "at .fortifications[0].space: '' is no space of the board"),
        ("fortifications", "hp", -1, "at .fortifications[0].hp: -1 is outside 0 to 15"),
        ("buildings", "kind", "castle", "at .buildings[0].kind: no kind of Building 'castle'"),
        ("buildings", "readiness", "loaded", "at .buildings[0].readiness: 'loaded' is none of"),
        ("buildings", "aim", "Q1", "at .buildings[0].aim: 'Q1' is no space of the board"),
        ("buildings", "points", 99, "at .buildings[0].points: 99 is outside 0 to 15"),
    ],
)
def test_a_piece_out_of_range_is_refused_naming_its_field(part, field, value, named):
    written = copy.deepcopy(WRITTEN)
    written[part][0][field] = value
    with pytest.raises(EncodingError) as raised:
        GAME.decode_state(json.dumps(written))
    assert str(raised.value).startswith(named)


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (lambda w: w["turn"].update(player=4), "at .turn.player: 4 is no seat of a 4-player game"),
        (lambda w: w.update(lost=[7]), "at .lost[0]: 7 is no seat"),
        (lambda w: w.update(planets=w["planets"][:1]), "at .planets: 1 planets written, and the game has 2"),
        (lambda w: w.update(rolls=[0]), "at .rolls: 1 rolls written for 4 players"),
    ],
)
def test_turn_seats_and_planets_out_of_range_are_refused(change, named):
    written = copy.deepcopy(WRITTEN)
    change(written)
    with pytest.raises(EncodingError) as raised:
        GAME.decode_state(json.dumps(written))
    assert str(raised.value).startswith(named)


def test_every_played_state_decodes_to_itself():
    for seed in range(3):
        for state in random_game(GAME, seed).states:
            assert GAME.decode_state(GAME.encode_state(state)) == state
