"""The registry: each game's declaration by name, the games RULECHECK_EXTRA_GAMES adds, and errors that
say what is allowed or missing."""

import pytest

from rulecheck.core.errors import OptionError, SpecError
from rulecheck.games.globetrotter.options import Shooting
from rulecheck.model.declaration import GameDeclaration
from rulecheck.registry import DECLARATIONS, SHIPPED, declaration, make_game, registered
from tests.fixtures.pig import Pig
from tests.fixtures.pig_declaration import PIG


def test_an_unknown_game_lists_the_registered_ones():
    with pytest.raises(OptionError, match="unknown game 'chess'; games: globetrotter"):
        declaration("chess")


def test_make_game_builds_the_declared_class_at_its_fewest_players():
    game = make_game("globetrotter", options={"shooting": "W0"}, strict=True)
    assert type(game) is DECLARATIONS["globetrotter"].game
    assert (game.players, game.options.shooting, game.strict) == (2, Shooting.W0, True)


def test_a_declaration_names_its_own_class():
    with pytest.raises(SpecError, match="the declaration of 'dice' names the class of 'pig'"):
        GameDeclaration("dice", Pig)


def test_every_part_a_game_lacks_is_named():
    assert PIG.properties == () and PIG.audit is None
    assert len(PIG.catalogue().clauses) == 5
    for ask, part in [
        (lambda: PIG.symbolic_systems(Pig(2)), "symbolic model"),
        (lambda: PIG.statement_set(Pig(2)), "statements of fact"),
        (lambda: PIG.board_view(Pig(2)), "board"),
        (lambda: PIG.draw(Pig(2), Pig(2).initial_state(), 0), "pictures"),
        (lambda: PIG.draw_board(Pig(2)), "board map"),
        (lambda: PIG.table("odds", Pig(2)), "computed tables"),
    ]:
        with pytest.raises(SpecError, match=f"^pig has no {part}$"):
            ask()


def test_an_unknown_table_lists_the_tables():
    with pytest.raises(OptionError, match="globetrotter has no table 'odds'; tables: boards, destruction-odds"):
        declaration("globetrotter").table("odds", make_game("globetrotter"))


def test_rulecheck_extra_games_adds_each_module_declaration_after_the_shipped_ones():
    from tests.fixtures.toy_game import DECLARATION as TOY

    found = registered(" tests.fixtures.toy_game ,")
    assert list(found) == [*(d.name for d in SHIPPED), "toy-game"] and found["toy-game"] is TOY
    assert list(registered("")) == [d.name for d in SHIPPED]
    assert TOY.tests().page == "tests/fixtures/toy_game/toy-game.md"
    with pytest.raises(SpecError, match="^pig declares nothing the per-game tests read"):
        PIG.tests()


@pytest.mark.parametrize(
    "extra, error, message",
    [
        ("tests.fixtures.pig", SpecError, "module 'tests.fixtures.pig' holds no GameDeclaration named DECLARATION"),
        ("tests.fixtures.toy_game,tests.fixtures.toy_game.broken", SpecError, "two declarations of the game"),
        ("tests.fixtures.no_such_game", ModuleNotFoundError, "tests.fixtures.no_such_game"),
    ],
    ids=["no-declaration", "name-taken", "no-module"],
)
def test_a_module_rulecheck_extra_games_names_must_hold_a_declaration_of_a_new_game(extra, error, message):
    with pytest.raises(error, match=message):
        registered(extra)
