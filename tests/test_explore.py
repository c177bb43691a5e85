"""Bounded exhaustive exploration on small Pigs and on Globetrotter, and Globetrotter's symmetries.

The Pig fixture's turn total grows without bound while a player keeps rolling, so plain
Pig is searched to a depth; CappedPig, where a player who could win by holding must
hold, is finite and searched to the end.
"""

import gc
import json
import random
from collections import Counter, deque
from fractions import Fraction

import attrs
import networkx as nx
import pytest

from rulecheck.check.play.playthrough import random_game
from rulecheck.check.search.explore import ExploreError, explore, first_cycle
from rulecheck.check.watch.generic import BROKEN_INVARIANT, CYCLE, DEADLOCK, ENGINE_ERROR, RULE_GAP, SELF_LOSS
from rulecheck.cli import main
from rulecheck.core.errors import IllegalAction
from rulecheck.core.game import CHANCE
from rulecheck.core.notation import Action
from rulecheck.core.trace import load_trace, record, replay, replay_steps
from rulecheck.games.globetrotter import Globetrotter
from rulecheck.model.properties import StateProperty
from tests.fixtures.broken_pigs import SilentPig, StuckPig
from tests.fixtures.pig import Face, Hold, Pig, Roll

# Small Pigs, each with one thing wrong or different.


class CappedPig(Pig):
    """A player whose score and turn total reach the target must hold: the game is finite."""

    def _must_hold(self, state):
        target = int(self.options.target.value)
        return self.to_move(state) == state.player and state.scores[state.player] + state.turn_total >= target

    def legal_actions(self, state):
        return (Hold(),) if self._must_hold(state) else super().legal_actions(state)

    def apply(self, state, action):
        if isinstance(action, Roll) and self._must_hold(state):
            raise IllegalAction("PIG-5", "holding wins now", action)
        return super().apply(state, action)


def swap(state):
    """Two-player Pig looks the same with the seats swapped."""
    winner = None if state.winner is None else 1 - state.winner
    return attrs.evolve(state, scores=state.scores[::-1], player=1 - state.player, winner=winner)


class SeatlessPig(CappedPig):
    """CappedPig for two, with the seat swap as its symmetry."""

    def symmetries(self):
        return (swap,)


@attrs.frozen
class Pass(Action):
    verb = "pass"


class PassingPig(Pig):
    """A player with nothing at stake may pass the turn: two players can pass forever."""

    action_types = (*Pig.action_types, Pass)

    def legal_actions(self, state):
        legal = super().legal_actions(state)
        if self.to_move(state) == state.player and state.turn_total == 0:
            return (*legal, Pass())
        return legal

    def apply(self, state, action):
        if isinstance(action, Pass):
            return self._next_player(state)
        return super().apply(state, action)


class SeatlessPassingPig(PassingPig):
    def symmetries(self):
        return (swap,)


class CursedPig(Pig):
    """Rolling a 1 with 6 or more at stake loses the game: the roller's dice, the roller's loss."""

    def apply(self, state, action):
        if isinstance(action, Face) and action.value == 1 and state.turn_total >= 6:
            return attrs.evolve(state, rolling=False, winner=1 - state.player)
        return super().apply(state, action)


class CrashingPig(Pig):
    """The engine fails on a 3 rolled with 2 at stake; the search goes on past it."""

    def apply(self, state, action):
        if isinstance(action, Face) and action.value == 3 and state.turn_total == 2:
            raise ZeroDivisionError("three after two")
        return super().apply(state, action)


def reachable(game, state=None):
    """Every state reachable from `state` (the initial one by default), depth first."""
    stack = [game.initial_state() if state is None else state]
    seen = set(stack)
    while stack:
        state = stack.pop()
        for action in game.legal_actions(state):
            after = game.apply(state, action)
            if after not in seen:
                seen.add(after)
                stack.append(after)
    return seen


def within(game, depth):
    """Every state at most `depth` steps from the initial state, by a depth-first walk that
    revisits a state only with more steps left."""
    left = {}

    def visit(state, budget):
        if left.get(state, -1) >= budget:
            return
        left[state] = budget
        if budget:
            for action in game.legal_actions(state):
                visit(game.apply(state, action), budget - 1)

    visit(game.initial_state(), depth)
    return set(left)


def kinds_found(report):
    return [f.issue.kind for f in report.found]


# Pig


def test_a_finite_game_is_searched_to_the_end_and_every_state_is_found():
    game = CappedPig(2, {"target": "10"})
    report = explore(game, depth=None, states=None)
    assert report.exhaustive
    assert report.states == len(reachable(game)) == 2412
    assert sum(report.levels) == report.states and report.levels[0] == 1
    assert report.found == ()  # rolling 1s brings states back, but only through the dice
    assert not report.symmetry


def test_a_depth_limit_counts_the_states_within_that_many_steps():
    game = Pig(2, {"target": "10"})
    for depth in range(7):
        report = explore(game, depth=depth, states=None)
        assert report.states == len(within(game, depth))
        assert report.depth == depth and not report.exhaustive
    # Each player rolls a 1: the initial state recurs after 4 steps, through the dice only.
    assert explore(game, depth=8, states=None).found == ()


def test_a_state_limit_stops_the_search():
    report = explore(Pig(2), depth=None, states=50)
    assert report.states == 50 and not report.exhaustive
    with pytest.raises(ExploreError, match="1 state or more"):
        explore(Pig(2), depth=None, states=0)


def freeze_counts(every: int = 250):
    """The list of the collector's frozen-object counts, and a progress listener that adds one at its
    first call and then each time `every` more states are known (gc.get_freeze_count walks every
    frozen object, so one at every state would cost more than the search)."""
    counts = []
    due = 0

    def heard(done, _):
        nonlocal due
        if done >= due:
            counts.append(gc.get_freeze_count())
            due = done + every

    return counts, heard


def test_a_search_keeps_what_it_found_out_of_the_collectors_walks_and_leaves_the_process_as_it_was():
    game = CappedPig(2, {"target": "10"})
    frozen, heard = freeze_counts()
    report = explore(game, depth=None, states=None, progress=heard)
    assert report.states == 2412
    assert frozen[0] == 0 and max(frozen) > 0  # settled once 1,000 states were found
    assert gc.get_freeze_count() == 0
    gc.freeze()  # a process that froze objects of its own keeps them frozen, and nothing more is
    try:
        kept = gc.get_freeze_count()
        frozen, heard = freeze_counts()
        again = explore(game, depth=None, states=None, progress=heard)
        assert again.states == report.states
        assert 0 < max(frozen) <= kept and 0 < gc.get_freeze_count() <= kept  # frozen objects freed, none added
    finally:
        gc.unfreeze()


def test_a_deadlock_is_found_with_the_shortest_witness_and_it_replays():
    game = StuckPig(2, {"target": "10"})
    [found] = explore(game, depth=8, states=None).found
    assert found.issue.kind == DEADLOCK
    assert found.trace.actions == ("roll", "face 5")  # no shorter game reaches a turn total of 5
    stuck = replay(game, found.trace)
    assert game.legal_actions(stuck) == () and not game.is_terminal(stuck)


def test_players_passing_forever_is_non_termination_and_the_witness_revisits_a_state():
    game = PassingPig(2, {"target": "10"})
    [found] = explore(game, depth=6, states=None).found
    assert found.issue.kind == CYCLE
    assert found.trace.actions == ("pass", "pass")
    assert "the state after step 0 recurs after step 2" in found.issue.message
    visited = [game.initial_state()] + [after for _, _, after in replay_steps(game, found.trace)]
    assert len(set(visited)) < len(visited)


def test_the_cycle_search_meets_the_cycle_networkx_finds_first():
    """On seeded random graphs, some with self-loops and repeated edges, most of them mostly
    forward like a search's steps: the same cycle, from the same node, as networkx's find_cycle."""
    rng = random.Random(0)
    cycles = 0
    for _ in range(1500):
        nodes = rng.randint(1, 60)
        backward = rng.choice([0.0, 0.02, 0.5])
        steps = []
        for _ in range(rng.randint(0, 2 * nodes)):
            tail, head = sorted((rng.randrange(nodes), rng.randrange(nodes)), reverse=rng.random() < backward)
            steps.append((tail, head))
        try:
            ring = [tail for tail, _ in nx.find_cycle(nx.DiGraph(steps))]
        except nx.NetworkXNoCycle:
            ring = None
        assert first_cycle(steps) == ring, steps
        cycles += ring is not None
    assert 300 < cycles < 1200


def test_a_cycle_between_equivalent_states_is_walked_until_the_very_state_recurs():
    """Under the seat swap, one pass leads back to the initial state's class; the witness
    passes twice, until the initial state itself recurs."""
    game = SeatlessPassingPig(2, {"target": "10"})
    report = explore(game, depth=6, states=None)
    assert report.symmetry
    [found] = report.found
    assert found.issue.kind == CYCLE and found.trace.actions == ("pass", "pass")
    assert replay(game, found.trace) == game.initial_state()


def test_symmetry_classes_are_the_orbits_of_the_states():
    game = SeatlessPig(2, {"target": "10"})
    states = reachable(game)
    fixed = sum(1 for s in states if swap(s) == s)
    assert all(swap(s) in states for s in states)
    orbits = (len(states) + fixed) // 2  # Burnside: the average number of fixed states
    report = explore(game, depth=None, states=None)
    assert report.exhaustive and report.symmetry
    assert report.states == orbits < len(states)
    assert explore(game, depth=None, states=None, symmetry=False).states == len(states)


def test_the_dice_count_against_the_player_who_rolled_them():
    game = CursedPig(2, {"target": "10"})
    [found] = explore(game, depth=8, states=None).found
    assert (found.issue.kind, found.issue.subject) == (SELF_LOSS, "roll")
    assert found.trace.actions == ("roll", "face 6", "roll", "face 1")
    assert "player 0 lost through their own roll" in found.issue.message


def test_an_engine_error_is_a_violation_and_the_search_goes_on():
    game = CrashingPig(2, {"target": "10"})
    report = explore(game, depth=6, states=None)
    [found] = report.violations
    assert (found.issue.kind, found.issue.subject) == (ENGINE_ERROR, "ZeroDivisionError")
    assert found.trace.actions == ("roll", "face 2", "roll") and "face 3: ZeroDivisionError" in found.issue.message
    assert report.states == len(within(Pig(2, {"target": "10"}), 6))  # a 5 at once reaches what 2 and 3 would


def test_rule_gaps_and_broken_properties_are_found_once_with_shortest_traces():
    def small_scores(game, state):
        return None if max(state.scores) < 6 else f"a score of {max(state.scores)}"

    prop = StateProperty("scores-stay-small", ("PIG-2",), "no score reaches 6", small_scores)
    report = explore(SilentPig(2, {"target": "10"}), depth=8, states=None, properties=[prop])
    by_kind = {f.issue.kind: f for f in report.found}
    assert set(by_kind) == {RULE_GAP, BROKEN_INVARIANT}
    assert by_kind[RULE_GAP].trace.actions == ("roll", "face 6")
    assert by_kind[BROKEN_INVARIANT].trace.actions == ("roll", "face 6", "hold")
    assert report.violations == (by_kind[BROKEN_INVARIANT],)  # the property is promised
    only_gaps = explore(SilentPig(2), depth=4, states=None, properties=[prop], kinds=frozenset({RULE_GAP}))
    assert kinds_found(only_gaps) == [RULE_GAP]


def test_exploration_can_start_where_some_actions_lead():
    game = CappedPig(2, {"target": "10"})
    start = [Roll(), Face(4), Hold()]
    report = explore(game, start, depth=None, states=None)
    assert report.exhaustive and report.start_steps == 3
    assert report.states == len(reachable(game, replay(game, record(game, start))))


# Globetrotter


def test_symmetry_merges_globetrotter_states_level_by_level():
    game = Globetrotter(2)
    plain = explore(game, depth=None, states=3000, symmetry=False)
    merged = explore(game, depth=None, states=3000)
    assert merged.symmetry and not plain.symmetry
    assert plain.states == merged.states == 3000 and merged.depth > plain.depth
    assert plain.levels[:4] == merged.levels[:4] == (1, 6, 30, 60)  # rolls and the choice: nothing on the board
    assert merged.levels[4] * 11 == plain.levels[4] * 3  # 11 HQs for the first Factory, in 3 classes
    assert plain.found == merged.found == ()


def test_globetrotter_symmetry_classes_are_the_orbits_of_the_states():
    """Every state within 5 steps, by a separate search, its orbits counted by Burnside's lemma
    (the set is closed under the rotations, as the initial state is fixed by them)."""
    game = Globetrotter(2)
    rotations = game.symmetries()
    assert len(rotations) == 4
    states = within(game, 5)
    images = [[g(s) for s in states] for g in rotations]
    assert all(image in states for row in images for image in row)
    fixed = sum(1 for g, row in zip(rotations, images) for s, image in zip(states, row) if image == s)
    orbits, remainder = divmod(len(states) + fixed, len(rotations) + 1)
    assert remainder == 0
    plain = explore(game, depth=5, states=None, symmetry=False)
    merged = explore(game, depth=5, states=None)
    assert plain.states == len(states) == 3757
    assert merged.states == orbits == 877


def breadth_first(game, actions, budget):
    """The states, edges and states per level of a plain breadth-first search from the state
    `actions` reach, which stops at the first edge once `budget` states are known. A state is
    told from another by equality, and a chance node also by the player to blame for it and the
    verb of the last player action before it."""
    state, cause = game.initial_state(), None
    for action in actions:
        actor = game.blame(state, action)
        cause = cause if game.to_move(state) == CHANCE else action
        state = game.apply(state, action)

    def key(state, actor, cause):
        return (state, actor, cause.verb) if cause is not None and game.to_move(state) == CHANCE else state

    depths = {key(state, actor, cause): 0}
    frontier = deque([(state, cause, 0)])
    edges = 0
    while frontier:
        state, cause, depth = frontier.popleft()
        for action in game.legal_actions(state):
            if len(depths) >= budget:
                return len(depths), edges, Counter(depths.values())
            edges += 1
            after = game.apply(state, action)
            then = cause if game.to_move(state) == CHANCE else action
            reached = key(after, game.blame(state, action), then)
            if reached not in depths:
                depths[reached] = depth + 1
                frontier.append((after, then, depth + 1))
    return len(depths), edges, Counter(depths.values())


def test_a_globetrotter_mid_game_search_counts_what_a_plain_breadth_first_search_does():
    """From the bench's mid-game position (80 actions of the seeded random game 0), without
    symmetry, to a budget of states."""
    game = Globetrotter(2)
    start = random_game(game, 0, max_steps=80).actions
    states, edges, levels = breadth_first(game, start, 1500)
    report = explore(game, start, depth=None, states=1500, symmetry=False)
    assert (report.states, report.edges) == (states, edges)
    assert report.levels == tuple(levels[depth] for depth in range(len(levels)))
    assert report.depth == 5 and not report.exhaustive


def test_boards_without_symmetry_have_none():
    assert Globetrotter(2, {"removal": "ring14-hq"}).symmetries() == ()
    report = explore(Globetrotter(2, {"removal": "ring14-hq"}), depth=2, states=None)
    assert not report.symmetry


def relabel_token(token, images):
    letter, colon, label = token.rpartition(":")
    return f"{letter}{colon}{images[label]}" if label in images else token


def relabel_action(text, images):
    """An action's text with every space in it rotated."""
    return " ".join(relabel_token(token, images) for token in text.split(" "))


def sampled_states(players, seed, options):
    """Some states of a random game: every 25th, and every 5th with a chance event pending or a
    Drill Cannon aimed."""
    game = Globetrotter(players, options)
    states = random_game(game, seed, 1000).states
    rare = [i for i, s in enumerate(states) if s.pending or any(b.aim for b in s.buildings)]
    return game, [states[i] for i in sorted(set(range(0, len(states), 25)) | set(rare[::5]))]


@pytest.mark.parametrize(
    ("players", "seed", "options"),
    [(2, 0, {}), (3, 1, {}), (4, 0, {}), (3, 2, {"removal": "edge5", "shooting": "W3", "shooter": "any-piece"})],
)
def test_rotations_carry_legal_actions_outcomes_and_steps_over(players, seed, options):
    """For each rotation g: the legal actions of g(s) are the images of those of s, chance
    outcomes keep their odds, who moves and who has lost agree, and on a few states
    g(apply(s, a)) == apply(g(s), g(a)) for every legal a."""
    game, states = sampled_states(players, seed, options)
    assert len(game.symmetries()) == 4
    text = game.action_text
    stepped = 0
    for index, state in enumerate(states):
        legal = game.legal_actions(state)
        for g in game.symmetries():
            image = g(state)
            assert game.to_move(image) == game.to_move(state)
            assert game.losers(image) == game.losers(state)
            assert {text(a) for a in game.legal_actions(image)} == {relabel_action(text(a), g.images) for a in legal}
            outcomes = {relabel_action(text(a), g.images): p for a, p in game.chance_outcomes(state)}
            assert {text(a): p for a, p in game.chance_outcomes(image)} == outcomes
            assert sum(outcomes.values(), Fraction(0)) == (1 if game.to_move(state) == CHANCE else 0)
            if index % 7 == 0 or state.pending:
                stepped += 1
                for action in legal:
                    moved = game.parse_action(relabel_action(text(action), g.images))
                    assert g(game.apply(state, action)) == game.apply(image, moved), (text(action), g)
    assert stepped >= 8


def test_the_rotations_are_the_boards_turns_and_keep_every_space_kind():
    game = Globetrotter(4)
    state = random_game(game, 0, 600).states[-1]
    for g in game.symmetries():
        assert g.images["P0"] == "P0"  # the axis through the top HQ and the removed pentagon
        assert all(label[0] == image[0] for label, image in g.images.items())
    turned = state
    for _ in range(5):
        turned = game.symmetries()[0](turned)
    assert turned == state  # a fifth of a turn, five times


# The command line


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_explore_json_has_the_promised_keys(capsys):
    code, out, _ = run(capsys, "explore", "globetrotter", "--states", "500", "--json")
    report = json.loads(out)
    assert code == 0
    for key in ("setup", "states", "edges", "depth", "levels", "exhaustive", "seconds", "states_per_second"):
        assert key in report
    assert report["symmetry"] is True and report["states"] == 500 and report["exhaustive"] is False
    assert report["violations"] == [] and report["coverage"]["total"] == 55


def test_explore_text_and_no_symmetry(capsys):
    code, out, _ = run(capsys, "explore", "globetrotter", "--depth", "3", "--no-symmetry")
    assert code == 0
    assert "97 states" in out and "depth 3 reached, not exhaustive" in out
    assert "symmetry off" in out and "states by depth: 1 6 30 60" in out
    assert "no promised property failed" in out


def test_explore_from_a_played_trace(capsys, tmp_path):
    path = tmp_path / "game.json"
    run(capsys, "play", "globetrotter", "--seed", "5", "--players", "3", "--out", str(path))
    code, out, _ = run(capsys, "explore", "globetrotter", "--from", str(path), "--json")
    report = json.loads(out)
    played = load_trace(path)
    assert code == 0 and report["start_steps"] == len(played.actions)
    assert report["setup"]["players"] == 3
    assert report["states"] == 1 and report["exhaustive"] is True  # the game is over
    game = Globetrotter(3)
    middle = tmp_path / "middle.json"
    record(game, played.actions[:60]).save(middle)
    code, out, _ = run(capsys, "explore", "globetrotter", "--from", str(middle), "--depth", "2", "--json")
    report = json.loads(out)
    assert code == 0 and report["start_steps"] == 60 and report["states"] > 1


def test_explore_from_a_trace_takes_no_setup(capsys, tmp_path):
    path = tmp_path / "game.json"
    run(capsys, "play", "globetrotter", "--seed", "5", "--out", str(path))
    for extra in (["--set", "shooting=W0"], ["--players", "2"]):
        code, out, err = run(capsys, "explore", "globetrotter", "--from", str(path), *extra)
        assert code == 2 and out == ""
        assert err.count("\n") == 1 and "give no --players or --set" in err


def test_explore_saves_each_witness_and_it_replays(capsys, tmp_path):
    """Two players who fortify and decommission the same two HQs forever: a finding, not a violation."""
    game = Globetrotter(2)
    opening = "die 6; die 4; choose second; factory P3; rover T16; factory P9; rover T55; fortify T39; fortify T23"
    middle = "decommission T39; decommission T23; fortify T39; decommission P3; decommission P9; fortify T23"
    late = "decommission T39; fortify T6; fortify T63; fortify P3; fortify P9"
    start = tmp_path / "start.json"
    record(game, f"{opening}; {middle}; {late}".split("; ")).save(start)
    folder = tmp_path / "witnesses"
    code, out, _ = run(capsys, "explore", "globetrotter", "--from", str(start), "--depth", "4", "--traces", str(folder))
    assert code == 0
    assert "found non-termination: the state after step 20 recurs after step 24" in out
    assert "witness: 24 steps" in out
    witness = load_trace(folder / "issue-1.json")
    states = [after for _, _, after in replay_steps(game, witness)]
    assert states[19] == states[23]
