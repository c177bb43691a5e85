"""The kernel's protocol beyond transitions: traits, returns and winners, blame, observations,
hidden order as chance, integer action ids, the base class's legality guard, and clause
coverage that stays with its own thread."""

import threading
from fractions import Fraction

import attrs
import pytest

from rulecheck.check.play.playthrough import random_game
from rulecheck.check.watch.api import ApiViolation, check_observations, check_play
from rulecheck.core.clauses import coverage
from rulecheck.core.errors import IllegalAction, NotationError, RulesDisagree
from rulecheck.core.hidden import Pile
from rulecheck.core.notation import Action
from rulecheck.core.numbering import Numbering, Sequences
from rulecheck.core.traits import EXPLICIT_CHANCE, IMPERFECT, PERFECT, SEQUENTIAL, SIMULTANEOUS, WIN_LOSS, Traits
from tests.fixtures.high_card import HighCard, HighCardState, Stand, Swap
from tests.fixtures.pig import Face, Hold, Pig, PigState, Roll

# Traits


def test_traits_say_what_is_hidden_and_how_commits_are_ordered():
    with pytest.raises(ValueError, match="chance must be one of none, explicit"):
        Traits(chance="dice", information=PERFECT, dynamics=SEQUENTIAL, outcome=WIN_LOSS)
    with pytest.raises(ValueError, match="says what is hidden"):
        Traits(chance=EXPLICIT_CHANCE, information=IMPERFECT, dynamics=SEQUENTIAL, outcome=WIN_LOSS)
    with pytest.raises(ValueError, match="commit order"):
        Traits(chance=EXPLICIT_CHANCE, information=PERFECT, dynamics=SIMULTANEOUS, outcome=WIN_LOSS)


# Returns and winners


def test_win_loss_returns_follow_the_winner_and_are_undefined_before_the_end():
    game = Pig(3)
    state = PigState(scores=(3, 20, 7), player=1, turn_total=0, rolling=False, winner=1)
    assert game.returns(state) == (-1, 1, -1)
    assert game.winners(state) == {1}
    assert game.losers(state) == {0, 2}
    with pytest.raises(ValueError, match="terminal states only"):
        game.returns(game.initial_state())


def test_scores_ties_stand():
    game = HighCard(3)
    state = HighCardState(Pile.shuffled(["1"]), ("3", "4", "4"), 3, False)
    assert game.is_terminal(state)
    assert game.returns(state) == (3, 4, 4)
    assert game.winners(state) == {1, 2}


# Blame


def test_blame_is_the_mover_or_what_the_game_says_at_chance():
    game = Pig(2)
    rolling = game.apply(game.initial_state(), Roll())
    assert game.blame(game.initial_state(), Roll()) == 0
    assert game.blame(rolling, Face(1)) == 0  # Pig blames the roller for the die
    dealing = HighCard(2).initial_state()
    assert HighCard(2).blame(dealing, HighCard(2).legal_actions(dealing)[0]) is None


# Hidden order as chance


def test_a_pile_draws_by_count_and_never_stores_an_order():
    pile = Pile.shuffled(["b", "a", "b", "c"])
    assert pile.size == 4
    assert pile.draw_outcomes() == (("a", Fraction(1, 4)), ("b", Fraction(1, 2)), ("c", Fraction(1, 4)))
    assert sum(p for _, p in pile.draw_outcomes()) == 1
    after = pile.without_top("b")
    assert after.contents() == {"a": 1, "b": 1, "c": 1}
    with pytest.raises(ValueError, match="cannot be on top"):
        after.without_top("d")


def test_cards_put_under_a_pile_come_out_after_it_in_known_order():
    pile = Pile.shuffled(["a"]).put_bottom(["x"]).put_bottom(["y", "z"])
    assert pile.draw_outcomes() == (("a", 1),)
    pile = pile.without_top("a")
    assert pile.draw_outcomes() == (("x", 1),)
    pile = pile.without_top("x")
    assert pile.draw_outcomes() == (("y", Fraction(1, 2)), ("z", Fraction(1, 2)))
    assert pile.put_top(["q"]).draw_outcomes() == (("q", 1),)
    assert pile.reshuffled() == Pile.shuffled(["z", "y"])
    with pytest.raises(ValueError, match="empty pile"):
        Pile().draw_outcomes()


# Observations


class PeekingHighCard(HighCard):
    """Offers a swap only to a player whose card is beaten by someone else's: its legal actions
    read a card the player cannot see."""

    def _legal_actions(self, state, player):
        beaten = any(int(c) > int(state.hands[player]) for p, c in enumerate(state.hands) if p != player)
        return (Stand(), Swap()) if beaten and state.deck.size else (Stand(),)


def _states(game, games):
    return [s for seed in range(games) for s in random_game(game, seed).states]


def test_legal_actions_depend_only_on_what_the_mover_observes():
    check_observations(HighCard(2), _states(HighCard(2), 40))
    with pytest.raises(ApiViolation, match="cannot tell this state from"):
        check_observations(PeekingHighCard(2), _states(PeekingHighCard(2), 40))


def test_the_fixture_games_pass_the_shared_checker():
    for game in (HighCard(2), HighCard(3, {"deck": "short"}), Pig(2), Pig(4, {"target": "10"})):
        for seed in range(5):
            check_play(game, random_game(game, seed).actions)


# Integer ids


@attrs.frozen
class Pay(Action):
    verb = "pay"
    card: str
    coins: tuple[int, ...]


@attrs.frozen
class Done(Action):
    verb = "done"


def test_numbering_is_mixed_radix_in_declared_order_and_round_trips():
    numbering = Numbering({Done: (), Pay: (("a", "b"), Sequences((1, 5), 2))})
    assert numbering.count == 1 + 2 * (1 + 2 + 4)
    assert [str(numbering.action(i)) for i in range(4)] == ["done", "pay a", "pay a 1", "pay a 5"]
    assert numbering.id(Pay("b", (5, 5))) == numbering.count - 1
    assert all(numbering.id(numbering.action(i)) == i for i in range(numbering.count))
    with pytest.raises(NotationError, match="is not a value of coins"):
        numbering.id(Pay("a", (2,)))
    with pytest.raises(NotationError, match="at most 2 items"):
        numbering.id(Pay("a", (1, 1, 1)))
    with pytest.raises(NotationError, match="ids run from 0 to 14"):
        numbering.action(15)


def test_player_actions_and_chance_outcomes_are_numbered_apart():
    game = Pig(2)
    assert game.num_distinct_actions() == 2
    assert game.max_chance_outcomes() == 6
    assert [game.action_id(a) for a in (Roll(), Hold())] == [0, 1]
    assert game.action_id(Face(1)) == 0
    assert game.action_from_id(5, chance=True) == Face(6)
    with pytest.raises(NotationError):
        game.action_id(Face(7))


# The legality guard of the base class


def test_apply_rejects_every_action_that_is_not_legal_with_its_clause():
    game = Pig(2)
    state = game.initial_state()
    for action, clause in ((Hold(), "PIG-4"), (Face(3), "PIG-1")):
        with pytest.raises(IllegalAction) as error:
            game.apply(state, action)
        assert error.value.clause == clause


class ForgetfulListPig(Pig):
    """Never lists Hold, though its checks allow it."""

    def _legal_actions(self, state, player):
        return (Roll(),)


def test_an_action_the_checks_allow_but_the_list_omits_is_an_engine_defect():
    game = ForgetfulListPig(2)
    state = game.apply(game.apply(game.initial_state(), Roll()), Face(4))
    with pytest.raises(RulesDisagree, match="'hold' passes the rules' checks but is not a legal action"):
        game.apply(state, Hold())


class ClaimsSortedPig(Pig):
    """Claims to list its actions in canonical order, but does not."""

    def _legal_actions(self, state, player):
        return tuple(reversed(super()._legal_actions(state, player)))


def test_a_game_that_claims_sorted_actions_is_held_to_it():
    game = ClaimsSortedPig(2)
    with pytest.raises(ApiViolation, match="not sorted"):
        check_play(game, [game.parse_action(a) for a in ("roll", "face 3")])


# Coverage per context


def test_coverage_counts_stay_with_the_thread_that_opened_them():
    game = Pig(2)
    counts = {}
    barrier = threading.Barrier(2)

    def run(name, rolls):
        with coverage() as mine:
            barrier.wait()
            state = game.initial_state()
            for _ in range(rolls):
                state = game.apply(game.apply(state, Roll()), Face(2))
            barrier.wait()
        counts[name] = dict(mine)

    threads = [threading.Thread(target=run, args=(name, n)) for name, n in (("a", 3), ("b", 5))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert counts == {"a": {"PIG-1": 3}, "b": {"PIG-1": 5}}
