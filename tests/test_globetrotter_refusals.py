"""Globetrotter's refusals explain, and only explain: the listings decide what is legal, so any action
they leave out is refused with IllegalAction naming a clause of the game, never reported as the rules
disagreeing with themselves (RulesDisagree)."""

import random
from pathlib import Path

import attrs
import pytest

from rulecheck.check.positions.scenario import load_scenario
from rulecheck.core.clauses import coverage
from rulecheck.core.errors import IllegalAction, RulesDisagree
from rulecheck.core.game import CHANCE, TERMINAL
from rulecheck.games.globetrotter import Globetrotter, refusals
from rulecheck.games.globetrotter import game as game_module
from rulecheck.games.globetrotter.actions import ACTION_TYPES, Move
from rulecheck.games.globetrotter.analysis import far_opening, hand_turn_to
from rulecheck.games.globetrotter.context import Mover, Table

GT_CLAUSES = frozenset(Globetrotter.catalogue().ids)
GENERIC = "is not legal now"
SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios" / "globetrotter"


def test_every_kind_of_action_has_a_clause_of_the_game():
    assert set(refusals.CLAUSE_OF) == set(ACTION_TYPES)
    assert set(refusals.CLAUSE_OF.values()) <= GT_CLAUSES


def refused_along_random_play(game, seed, steps, tried):
    """(action, IllegalAction) for `tried` actions drawn from the game's numbering (player actions, or
    chance outcomes at a chance node) that are not legal, at each step of one seeded random game."""
    rng = random.Random(seed)
    players, outcomes = game.num_distinct_actions(), game.max_chance_outcomes()
    state, found = game.initial_state(), []
    for _ in range(steps):
        mover = game.to_move(state)
        if mover == TERMINAL:
            break
        legal = game.legal_actions(state)
        for _ in range(tried):
            if mover == CHANCE:
                action = game.action_from_id(rng.randrange(outcomes), chance=True)
            else:
                action = game.action_from_id(rng.randrange(players))
            if action in legal:
                continue
            try:
                game.apply(state, action)
            except IllegalAction as refusal:
                found.append((action, refusal))
            else:
                pytest.fail(f"{action} is not listed but was applied")
        state = game.apply(state, rng.choice(legal))
    return found


@pytest.mark.parametrize("players", [2, 4])
def test_every_action_not_listed_is_refused_naming_a_clause_of_the_game(players):
    found = []
    for seed in range(3):
        found += refused_along_random_play(Globetrotter(players), seed, steps=250, tried=6)
    assert len(found) > 1000  # setup, play and chance all sampled
    kinds = {type(action) for action, _ in found}
    assert len(kinds) >= 15, sorted(k.__name__ for k in kinds)
    for action, refusal in found:  # RulesDisagree is no IllegalAction: it would have failed the game above
        assert refusal.clause in GT_CLAUSES, refusal
        assert refusal.action == action
        assert GENERIC not in refusal.reason, refusal  # each sampled refusal is explained


def test_an_action_its_listing_leaves_out_is_refused_without_the_rules_deciding_again(monkeypatch):
    game = Globetrotter(2)
    state = hand_turn_to(far_opening(game, "P0", "T1"), 0)
    moves = [a for a in game.legal_actions(state) if isinstance(a, Move)]
    assert moves
    rule = game_module._RULE_BY_TYPE[Move]
    first = next(action for action, _ in rule.legal(Mover(game.rules, state, 0)))

    def all_but_the_first(m):
        return [(action, payload) for action, payload in rule.legal(m) if action != first]

    shorter = attrs.evolve(rule, legal=all_but_the_first)
    monkeypatch.setattr(game_module, "PLAY_RULES", tuple(shorter if r is rule else r for r in game_module.PLAY_RULES))
    monkeypatch.setitem(game_module._RULE_BY_TYPE, Move, shorter)
    monkeypatch.setattr(game_module, "_RULES_FOR", Table(game_module._rules_for))  # made anew from the rules above
    game = Globetrotter(2)
    assert first not in game.legal_actions(state)
    assert refusals.in_play(Mover(game.rules, state, 0), first) is None  # nothing the explanations read forbids it
    try:
        game.apply(state, first)
    except RulesDisagree as disagreement:  # what the kernel raised before the listings alone decided
        pytest.fail(f"the rules disagreed: {disagreement}")
    except IllegalAction as refusal:
        assert (refusal.clause, refusal.reason) == ("GT-A1", f"{first} is not legal now")
    else:
        pytest.fail(f"{first}, left out of the listing, was applied")
    for move in moves:  # every other Move is still looked up in the listing and applied
        if move != first:
            assert game.to_move(game.apply(state, move)) >= 0


def test_explaining_a_refusal_counts_no_clause():
    """Transfer's explanation asks whether the orbits are adjacent, which reads GT-M2; it is not counted."""
    line = load_scenario(SCENARIOS / "26-orbits-in-a-line.toml", {"planet_adjacency": "line"})
    game, state = line.game, line.state
    transfer = game.parse_action("transfer 3 a c")
    assert transfer not in game.legal_actions(state)  # listed (and counted) before the block
    with coverage() as counts, pytest.raises(IllegalAction) as refusal:
        game.apply(state, transfer)
    assert (refusal.value.clause, refusal.value.reason) == ("GT-SP3", "orbit c is not adjacent to orbit a")
    assert counts == {}
