"""The project's own Monte Carlo tree search: UCT with a playout budget per move.

Models: at each of its moves the policy grows a fresh tree from the state to move in, by
`playouts` iterations. An iteration walks down the tree: at a player's node it takes, while
some action of the node is untried, one of them drawn by the rng, else the child of highest
UCB1 for the player to move there (mean value plus EXPLORATION * sqrt(ln visits / child visits));
at a chance node it samples an outcome by its odds. Below the first new node it plays uniformly
at random (chance by its odds) to the end of the game or PLAYOUT_STEPS actions, whichever is
first. The value of a playout for each player is its return at the end, or its progress
(`Game.progress`) where the step cap stopped it, scaled into [0, 1] by the game's
`return_bounds` for a game of that many steps; each node on the way adds it. The move is the
root's most visited action, ties broken by the rng. Every draw comes from the rng the policy is
handed, so the same seed plays the same game. The search's steps are counted apart from clause
coverage: they are steps considered, not played.

Leaves out: reusing the tree between moves, transpositions, and any evaluation but playouts.
"""

from __future__ import annotations

import math
import random
from typing import Any, Final

import attrs

from rulecheck.core.clauses import coverage
from rulecheck.core.game import CHANCE, TERMINAL, Game
from rulecheck.core.notation import Action

EXPLORATION: Final = math.sqrt(2)
"""UCB1's exploration constant, for values in [0, 1]."""
PLAYOUT_STEPS: Final = 50
"""A random playout stops after this many actions and is valued by the game's progress."""


class _Node:
    """A state of the tree: its visits, each player's summed value, and its children by action."""

    __slots__ = ("children", "totals", "untried", "visits")

    def __init__(self, players: int) -> None:
        self.visits = 0
        self.totals = [0.0] * players
        self.children: dict[Action, _Node] = {}
        self.untried: list[Action] | None = None


def _sample(game: Game[Any, Any], state: Any, rng: random.Random) -> Action:
    outcomes, odds = zip(*game.chance_outcomes(state))
    return rng.choices(outcomes, weights=[float(p) for p in odds])[0]


def _value(game: Game[Any, Any], state: Any, steps: int) -> list[float]:
    """Each player's value in [0, 1]: the return at the end, else the progress, by the bounds."""
    low, high = (float(b) for b in game.return_bounds(steps))
    found = game.returns(state) if game.is_terminal(state) else game.progress(state)
    span = high - low or 1.0
    return [min(1.0, max(0.0, (float(v) - low) / span)) for v in found]


@attrs.frozen
class Uct:
    """UCT with `playouts` iterations per move (see the module's docstring)."""

    playouts: int
    steps: int = PLAYOUT_STEPS

    @property
    def name(self) -> str:
        return f"mcts:{self.playouts}"

    def choose(self, game: Game[Any, Any], state: Any, rng: random.Random) -> Action:
        root = _Node(game.players)
        with coverage(isolated=True):
            for _ in range(self.playouts):
                self._iterate(game, state, root, rng)
        most = max(child.visits for child in root.children.values())
        return rng.choice([a for a, child in root.children.items() if child.visits == most])

    def _iterate(self, game: Game[Any, Any], state: Any, root: _Node, rng: random.Random) -> None:
        path = [root]
        node, depth = root, 0
        while True:
            mover = game.to_move(state)
            if mover == TERMINAL:
                break
            if mover == CHANCE:
                action = _sample(game, state, rng)
            else:
                if node.untried is None:
                    node.untried = list(game.legal_actions(state))
                if node.untried:
                    action = node.untried.pop(rng.randrange(len(node.untried)))
                else:
                    action = self._select(node, mover)
            state = game.apply(state, action)
            depth += 1
            fresh = action not in node.children
            node = node.children.setdefault(action, _Node(game.players))
            path.append(node)
            if fresh and mover != CHANCE:
                break
        played = 0
        while played < self.steps and (mover := game.to_move(state)) != TERMINAL:
            legal = game.legal_actions(state)
            state = game.apply(state, _sample(game, state, rng) if mover == CHANCE else rng.choice(legal))
            played += 1
        value = _value(game, state, depth + played)
        for visited in path:
            visited.visits += 1
            for p, v in enumerate(value):
                visited.totals[p] += v

    @staticmethod
    def _select(node: _Node, mover: int) -> Action:
        spread = EXPLORATION * math.sqrt(math.log(node.visits))
        return max(
            node.children,
            key=lambda a: (c := node.children[a]).totals[mover] / c.visits + spread / math.sqrt(c.visits),
        )
