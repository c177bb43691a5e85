"""OpenSpiel's MCTS as a policy: `openspiel-mcts:<playouts>`, through the project's OpenSpiel game.

Models: a policy (rulecheck/check/play/policies.py's interface) that, at each of its moves, runs
OpenSpiel's Python MCTSBot (open_spiel.python.algorithms.mcts: UCT, exploration sqrt(2), one
random rollout per playout, `playouts` simulations) on the pyspiel game of the same rules,
players and options (openspiel.py, with a history cap of ROLLOUT_CAP steps from the state it
starts at, where the wrapper truncates a rollout with every return 0), started at the state to
move in, and plays the action it picks. Its numpy generators are seeded from the rng the policy
is handed, so the same seed plays the same game. The search's steps count no clause coverage.
Importing this module makes `policy_named` know the name (`register_budgeted`); the command
imports it when a policy's name asks for it (rulecheck/cli/shared.py, `policy_from`).

Leaves out: pyspiel's C++ MCTSBot (it crashes the process on a Python game, bench/mcts.py),
data sets other than a game's default (the wrapper plays the default only: refused), and
reusing a tree between moves.
"""

from __future__ import annotations

import math
import random
from functools import cache
from typing import Any, Final

import attrs
import numpy as np
from open_spiel.python.algorithms import mcts

from rulecheck.check.play.policies import OPENSPIEL_MCTS, register_budgeted
from rulecheck.core.clauses import coverage
from rulecheck.core.data import DEFAULT_SOURCE
from rulecheck.core.errors import OptionError
from rulecheck.core.game import Game
from rulecheck.core.notation import Action
from rulecheck.suite.openspiel import load_game, options_text, state_at

ROLLOUT_CAP: Final = 400
"""The wrapper's history cap from the state a search starts at: a rollout is cut there."""


@cache
def _wrapped(name: str, players: int, options: str) -> Any:
    return load_game(name, players=players, options=options, max_game_length=ROLLOUT_CAP)


@attrs.frozen
class OpenSpielMcts:
    """OpenSpiel's MCTSBot with `playouts` simulations per move (see the module's docstring)."""

    playouts: int

    @property
    def name(self) -> str:
        return f"openspiel-mcts:{self.playouts}"

    def choose(self, game: Game[Any, Any], state: Any, rng: random.Random) -> Action:
        if game.loaded_data is not None and game.loaded_data.source != DEFAULT_SOURCE:
            raise OptionError(f"{self.name}: the OpenSpiel game of {game.name} plays its default data set only")
        wrapped = _wrapped(game.name, game.players, options_text(game.options.text))
        seed = rng.getrandbits(32)
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
        bot = mcts.MCTSBot(wrapped, math.sqrt(2), self.playouts, evaluator, random_state=np.random.RandomState(seed))
        with coverage(isolated=True):
            chosen = bot.step(state_at(wrapped, state))
        return game.action_from_id(chosen)


register_budgeted(OPENSPIEL_MCTS, OpenSpielMcts)
