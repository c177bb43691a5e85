"""The Hypothesis play strategy and the shared API checker, on Pig and on broken copies of it."""

from fractions import Fraction

import attrs
import pytest
from hypothesis import given, seed, settings
from hypothesis import strategies as st

from rulecheck.check.play.strategies import playthroughs
from rulecheck.check.watch.api import ApiViolation, check_play, check_state
from rulecheck.core.errors import IllegalAction
from rulecheck.core.game import TERMINAL
from rulecheck.core.trace import replay
from tests.fixtures.pig import Face, Hold, Pig, PigState, Roll

GAMES = [Pig(2), Pig(3, {"one": "lose-all", "target": "10"}), Pig(4, {"target": "10"})]


@pytest.mark.parametrize(
    "game", GAMES, ids=lambda g: f"{g.players}p-{g.options.text['one']}-{g.options.text['target']}"
)
@settings(max_examples=60)
@given(data=st.data())
def test_random_pig_games_pass_the_api_checker(game, data):
    play = data.draw(playthroughs(game, max_steps=120))
    check_play(game, play.actions)


@settings(max_examples=30)
@given(playthroughs(Pig(2, {"target": "10"}), max_steps=300))
def test_playthroughs_are_legal_and_replay(play):
    game = play.game
    for state, action, after in zip(play.states, play.actions, play.states[1:]):
        assert action in game.legal_actions(state)
        assert game.apply(state, action) == after
    assert replay(game, play.trace()) == play.states[-1]


def test_a_failure_shrinks_to_a_short_replayable_trace():
    """Hypothesis finds a game in which player 0 banks 6 and shrinks it. Shrinking reaches a local
    minimum, not always the shortest game (3 steps: roll, face 6, hold), so the test checks what it
    does promise: the shrunk game is shorter than the first failure found (unless that one was
    already minimal), fails only at its last step, and replays."""
    game = Pig(2)
    found = []

    def banked_six(state):
        return state.scores[0] >= 6

    @seed(1)
    @settings(max_examples=500, database=None)
    @given(playthroughs(game, max_steps=60))
    def never_banks_six(play):
        if banked_six(play.states[-1]):
            found.append(play)
            raise AssertionError("player 0 banked 6")

    with pytest.raises(AssertionError, match="banked 6"):
        never_banks_six()
    first, shrunk = found[0], found[-1]
    assert 3 <= len(shrunk.actions) < len(first.actions) or len(first.actions) == 3
    assert [banked_six(s) for s in shrunk.states] == [False] * len(shrunk.actions) + [True]
    assert str(shrunk.actions[-1]) == "hold"
    assert banked_six(replay(game, shrunk.trace()))


# Each broken copy of Pig breaks one promise of the protocol; the checker must catch it.


class UnsortedPig(Pig):
    def legal_actions(self, state):
        return tuple(reversed(super().legal_actions(state)))


class LoadedDiePig(Pig):
    def chance_outcomes(self, state):
        outcomes = super().chance_outcomes(state)
        return tuple((o, Fraction(1, 7)) for o, _ in outcomes)


class LaxHoldPig(Pig):
    def apply(self, state, action):
        if isinstance(action, Hold) and state.turn_total == 0 and self.to_move(state) == state.player:
            return self._next_player(state)
        return super().apply(state, action)


class ForgetfulPig(Pig):
    def encode_state(self, state):
        return super().encode_state(attrs.evolve(state, turn_total=0))


@attrs.frozen
class NotedPigState(PigState):
    rolls: int = attrs.field(default=0, eq=False)


class NotingPig(Pig):
    """Counts the rolls in a field its encoding shows and equality ignores."""

    state_type = NotedPigState

    def initial_state(self):
        return NotedPigState(**attrs.asdict(super().initial_state(), recurse=False))

    def apply(self, state, action):
        after = attrs.asdict(super().apply(state, action), recurse=False)
        return NotedPigState(**(after | {"rolls": state.rolls + isinstance(action, Roll)}))


class EndlessPig(Pig):
    def legal_actions(self, state):
        if self.to_move(state) == TERMINAL:
            return (Roll(),)
        return super().legal_actions(state)


class MoodyPig(Pig):
    calls = 0

    def apply(self, state, action):
        MoodyPig.calls += 1
        after = super().apply(state, action)
        return (
            attrs.evolve(after, turn_total=after.turn_total + MoodyPig.calls % 2) if isinstance(action, Face) else after
        )


@pytest.mark.parametrize(
    ("game", "actions", "message"),
    [
        (UnsortedPig(2), ["roll", "face 3"], "not sorted"),
        (LoadedDiePig(2), ["roll"], "sum to 6/7"),
        (LaxHoldPig(2), ["roll", "face 3", "hold"], "'hold' is not legal here but apply accepted it"),
        (ForgetfulPig(2), ["roll", "face 3"], "does not round-trip"),
        (NotingPig(2), ["roll", "face 1", "roll", "face 1"], "an equal state has other canonical JSON"),
        (EndlessPig(2, {"target": "10"}), ["roll", "face 6", "roll", "face 6", "hold"], "terminal state has actions"),
        (MoodyPig(2), ["roll"], "applying 'face 1' twice gave different states"),
    ],
)
def test_the_checker_catches_each_broken_promise(game, actions, message):
    parsed = [game.parse_action(a) for a in actions]
    with pytest.raises(ApiViolation, match=message):
        check_play(game, parsed)


def test_rejection_uses_actions_seen_elsewhere():
    game = Pig(2)
    state = game.initial_state()
    check_state(game, state, [Face(3), Hold()])
    with pytest.raises(IllegalAction):
        game.apply(state, Face(3))
    with pytest.raises(ApiViolation, match="apply accepted"):
        check_state(LaxHoldPig(2), state, [Hold()])


class CrashingPig(Pig):
    def apply(self, state, action):
        if isinstance(action, Face) and action.value == 5 and state.turn_total >= 4:
            raise ZeroDivisionError("the die fell off the table")
        return super().apply(state, action)


def test_fuzz_reports_an_engine_error_with_a_shrunk_trace():
    from rulecheck.check.search.fuzz import fuzz
    from rulecheck.check.watch.generic import ENGINE_ERROR

    report = fuzz(CrashingPig(2), [], games=200, seed=3, max_steps=60)
    [violation] = report.violations
    assert violation.issue.kind == ENGINE_ERROR
    assert "ZeroDivisionError: the die fell off the table" in violation.issue.message
    assert violation.trace.actions[-1] == "roll"  # the next face 5 raises
    assert len(violation.trace.actions) <= 6


def test_fuzz_checks_the_last_step_of_a_game_stopped_by_the_step_cap():
    from rulecheck.check.search.fuzz import fuzz
    from rulecheck.model.properties import StateProperty

    def rolling(game, state):
        return "rolling at the cap" if state.rolling else None

    prop = StateProperty("never-rolling", (), "the die is never in the air", rolling)
    report = fuzz(Pig(2), [prop], games=20, seed=0, max_steps=1)
    assert [v.issue.subject for v in report.violations] == ["never-rolling"]
    assert report.violations[0].trace.actions == ("roll",)
