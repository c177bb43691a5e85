"""Clause-directed play: it reaches a deep clause, its witness replays, and its lookahead at
steps not taken is not counted as coverage."""

from rulecheck.check.play.pursuit import pursue
from rulecheck.core.clauses import coverage
from rulecheck.core.trace import record, replay
from rulecheck.registry import make_game

FIRING_DESTROYS = "GT-D6"
"""The planet-destruction roll after a Drill Cannon's firing: a cannon must be built, readied,
aimed and fired first."""


def test_a_directed_game_reaches_a_deep_clause_and_its_witness_replays():
    game = make_game("globetrotter", 2)
    pursuits = (pursue(game, [FIRING_DESTROYS], seed, 800) for seed in range(16))
    pursuit = next((p for p in pursuits if FIRING_DESTROYS in p.reached), None)
    assert pursuit is not None, "no directed game of 16 reached the destruction roll"
    step = pursuit.reached[FIRING_DESTROYS]
    witness = record(game, pursuit.playthrough.actions[:step])
    with coverage() as counts:
        replay(make_game("globetrotter", 2), witness)
    assert counts[FIRING_DESTROYS] > 0
    with coverage() as before:
        replay(make_game("globetrotter", 2), record(game, pursuit.playthrough.actions[: step - 1]))
    assert FIRING_DESTROYS not in before, "the recorded step is the first that touched it"


def test_the_lookahead_is_not_counted_as_coverage():
    """The walk counts what its own steps touch (each state's listing of actions may be counted
    more than once), never what an untaken step would have."""
    game = make_game("globetrotter", 2)
    pursuit = pursue(game, [FIRING_DESTROYS], 0, 60)
    with coverage() as walked:
        pursue(game, [FIRING_DESTROYS], 0, 60)
    other = make_game("globetrotter", 2)
    with coverage() as replayed:
        final = replay(other, record(game, pursuit.playthrough.actions))
        other.legal_actions(final)
    assert set(walked) == set(replayed)
