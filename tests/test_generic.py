"""The generic checks on small broken Pigs: each kind of issue is seen where it is and nowhere else."""

import attrs

from rulecheck.check.search.fuzz import fuzz
from rulecheck.check.watch.generic import CYCLE, DEADLOCK, RULE_GAP, SELF_LOSS, Checks
from rulecheck.core.trace import replay
from tests.fixtures.broken_pigs import SilentPig, StuckPig
from tests.fixtures.pig import Face, Hold, Pig, Roll


def run(game, actions):
    """Every issue the watch shows along `actions`, with the step it showed at."""
    watch = Checks(game, ()).watch(game.initial_state())
    shown = [(0, issue) for issue in watch.issues]
    for step, action in enumerate(actions, start=1):
        shown += [(step, issue) for issue in watch.step(action)]
    return shown


class ForfeitPig(Pig):
    """Holding exactly 4 forfeits the game to the next player."""

    def apply(self, state, action):
        if isinstance(action, Hold) and state.turn_total == 4:
            return attrs.evolve(state, winner=(state.player + 1) % self.players)
        return super().apply(state, action)


class WaitingPig(Pig):
    """Holding with nothing banked passes the turn: two players can wait forever."""

    def legal_actions(self, state):
        legal = super().legal_actions(state)
        if self.to_move(state) == state.player and Hold() not in legal:
            return (*legal, Hold())
        return legal

    def apply(self, state, action):
        if isinstance(action, Hold) and state.turn_total == 0 and not state.rolling:
            return self._next_player(state)
        return super().apply(state, action)


def test_a_state_with_nothing_to_do_is_a_deadlock():
    shown = run(StuckPig(2), [Roll(), Face(5)])
    assert [(step, i.kind) for step, i in shown] == [(2, DEADLOCK)]


def test_losing_by_your_own_action_is_a_self_loss_and_winning_is_not():
    shown = run(ForfeitPig(2), [Roll(), Face(4), Hold()])
    assert [(step, i.kind, i.subject) for step, i in shown] == [(3, SELF_LOSS, "hold")]
    assert "player 0 lost through their own hold" in shown[0][1].message
    fair = Pig(2, {"target": "10"})
    assert run(fair, [Roll(), Face(5), Roll(), Face(5), Hold()]) == []


def test_a_silent_rule_is_a_gap_and_the_run_goes_on_under_the_default():
    game = SilentPig(2)
    watch = Checks(game, ()).watch(game.initial_state())
    watch.step(Roll())
    [issue] = watch.step(Face(6))
    assert (issue.kind, issue.subject) == (RULE_GAP, "PIG-X")
    assert watch.state.turn_total == 6  # the lenient game's outcome


def test_players_repeating_their_own_steps_is_a_cycle_but_chance_repeating_is_not():
    waiting = run(WaitingPig(2), [Hold(), Hold()])
    assert [(step, i.kind) for step, i in waiting] == [(2, CYCLE)]
    assert "the state after step 0 recurs after step 2" in waiting[0][1].message
    # Each player rolls a 1: the initial state recurs, but only through the dice.
    assert run(Pig(2), [Roll(), Face(1), Roll(), Face(1)]) == []


def test_fuzzing_reports_each_issue_once_with_a_trace_that_shows_it():
    game = WaitingPig(2)
    report = fuzz(game, [], games=30, seed=0, max_steps=40)
    [found] = report.findings
    assert found.issue.kind == CYCLE and report.violations == ()
    assert run(game, [game.parse_action(a) for a in found.trace.actions])[-1][1].kind == CYCLE
    replay(game, found.trace)
