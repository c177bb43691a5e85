"""MCTS playouts per second: the project's UCT on each game beside OpenSpiel's own MCTS.

Ours: `mcts:<PLAYOUTS>` (rulecheck/check/play/mcts.py) choosing at the player nodes of a seeded
random game of each game (at its fewest campaign players), every STRIDE-th one, until the CPU
seconds are spent; a playout there runs at most PLAYOUT_STEPS random actions, then is valued by
the game's progress. OpenSpiel's: pyspiel's C++ MCTSBot with a random rollout evaluator (one
rollout, played to the end) on connect_four, a C++ game of branching 7 at most, between our
games' mean branching at a player node (Mechanica about 3, Globetrotter about 8, Globot Time
Force about 13, at 2 players; `branching` below measures it again); and OpenSpiel's Python
MCTSBot, the same algorithm, on each of our games through the project's OpenSpiel game
(rulecheck/suite/openspiel.py; its rollouts run to the end or the wrapper's length cap). The C++
MCTSBot is not run on our games: on a Python game it crashes the process (a segmentation fault,
seen with open-spiel's wheel here). A playout is one simulation: a descent, a rollout, a backup.

Leaves out: strength (tests/test_policies.py measures that against uniform play) and any
comparison of equal rollout lengths: ours are capped, OpenSpiel's run to the end.
"""

from __future__ import annotations

import random
import time
from typing import Any, Final

from bench import games as chosen
from bench.table import row, section
from rulecheck.check.play.mcts import PLAYOUT_STEPS, Uct
from rulecheck.check.play.playthrough import random_game
from rulecheck.core.game import Game

PLAYOUTS: Final = 16
"""Playouts per move, ours and OpenSpiel's."""
STRIDE: Final = 10
"""Every this many-th player node of the random game is searched from."""
CPP_GAME: Final = "connect_four"
WRAPPER_LENGTH: Final = 400
"""The history cap of our games through the OpenSpiel wrapper (its rollouts stop there)."""


def branching(game: Game[Any, Any], seeds: int = 10) -> float:
    """The mean number of legal actions at the player nodes of `seeds` random games."""
    counts = [
        len(game.legal_actions(state))
        for seed in range(seeds)
        for state in random_game(game, seed).states
        if game.to_move(state) >= 0
    ]
    return round(sum(counts) / len(counts), 2)


def ours(game: Game[Any, Any], seconds: float) -> dict[str, Any]:
    """Our UCT's playouts per second at the sampled player nodes of a random game."""
    nodes = [s for s in random_game(game, 0).states if game.to_move(s) >= 0][::STRIDE]
    policy, rng = Uct(PLAYOUTS), random.Random(0)
    moves = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        policy.choose(game, nodes[moves % len(nodes)], rng)
        moves += 1
    spent = time.process_time() - start
    return {"moves": moves, "playouts_per_second": round(moves * PLAYOUTS / spent, 1)}


def _bot_rate(step: Any, states: list[Any], seconds: float) -> dict[str, Any]:
    moves = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        step(states[moves % len(states)])
        moves += 1
    spent = time.process_time() - start
    return {"moves": moves, "playouts_per_second": round(moves * PLAYOUTS / spent, 1)}


def _player_nodes(game: Any, seed: int) -> list[Any]:
    """Every STRIDE-th player node of a random game of the pyspiel `game`."""
    rng, state, found = random.Random(seed), game.new_initial_state(), []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, weights=weights)[0])
            continue
        found.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    return found[::STRIDE] or found


def measure(seconds: float, games: list[str] | None = None) -> dict[str, Any]:
    """Each side for about `seconds` of CPU time per game."""
    result: dict[str, Any] = {"playouts": PLAYOUTS, "playout_steps": PLAYOUT_STEPS, "ours": {}, "openspiel": {}}
    for name in chosen.names(games):
        game = chosen.campaign_game(name)
        result["ours"][name] = ours(game, seconds) | {"branching": branching(game)}
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import mcts

        from rulecheck.suite.openspiel import load_game
    except ImportError as exc:
        result["openspiel"] = {"skipped": f"open-spiel is not importable ({exc})"}
        return result
    cpp = pyspiel.load_game(CPP_GAME)
    bot = pyspiel.MCTSBot(cpp, pyspiel.RandomRolloutEvaluator(1, 0), 2**0.5, PLAYOUTS, 1000, False, 0, False)
    result["openspiel"][f"{CPP_GAME} (C++ MCTSBot)"] = _bot_rate(bot.step, _player_nodes(cpp, 0), seconds)
    for name in chosen.names(games):
        wrapped = load_game(name, players=chosen.players(name), max_game_length=WRAPPER_LENGTH)
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
        python_bot = mcts.MCTSBot(wrapped, 2**0.5, PLAYOUTS, evaluator, random_state=np.random.RandomState(0))
        result["openspiel"][f"{name} (Python MCTSBot)"] = _bot_rate(python_bot.step, _player_nodes(wrapped, 0), seconds)
    return result


def report(result: dict[str, Any]) -> None:
    section(f"MCTS playouts per second ({result['playouts']} per move; ours cut at {result['playout_steps']} steps)")
    for name, r in result["ours"].items():
        row(name, "our UCT", f"{r['playouts_per_second']} playouts/s", f"branching {r['branching']}")
    for name, r in result["openspiel"].items():
        if name == "skipped":
            row("(all)", "OpenSpiel MCTS", "skipped", r)
            continue
        game, _, what = name.partition(" (")
        row(game, f"OpenSpiel {what.rstrip(')')}", f"{r['playouts_per_second']} playouts/s")
