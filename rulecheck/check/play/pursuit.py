"""Clause-directed play: seeded games that steer toward the steps that exercise chosen rule clauses.

Models: a walk like playthrough.random_game that looks one step ahead at every node. Each legal
action (at a chance node, each outcome of positive probability: any of them is a possible
line of play) is applied, and the clauses that step touches, with the legal actions of the
state it leads to, are counted apart from any outer count (`coverage(isolated=True)`), and
steps after which someone newly loses are set aside while others remain. With probability
PULL the walk takes one of the steps that touch a target clause, chosen uniformly; else,
again with probability PULL, a step that touches a clause this game has not touched yet
(novelty: the way to a rare clause passes through other rare ones); else, again with
probability PULL, a step by which nobody loses of a verb this game favours (each game
favours a random half of the verbs); else, again with probability PULL, any step by which
nobody loses; otherwise it plays as random_game does (uniform actions, chance by its odds).
At most LOOKAHEAD actions of one node are tried, a sample when there are more. The walk
records, for each target, the first step whose own touches (the step taken, and the listing
of the next state's actions) include it, so a witness is the trace up to that step.

Leaves out: any knowledge of a game (only the Game protocol and clause coverage are used),
and search with backtracking: a target behind a long plan that no single step leans toward
is found only by luck. Exhaustive search is search/explore.py's.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any, Final

import attrs

from rulecheck.check.play.playthrough import Playthrough
from rulecheck.core.clauses import coverage
from rulecheck.core.game import CHANCE, TERMINAL, Game
from rulecheck.core.notation import Action

PULL: Final = 0.8
"""How often the walk takes a step toward a target when one is on offer."""
FAVOURED: Final = 0.5
"""Each game favours each verb with this probability (swarm testing: over several seeds, some
game leans on every combination of a few verbs, such as build, ready, aim and fire)."""
LOOKAHEAD: Final = 12
"""At most this many steps of one node are tried ahead."""


@attrs.frozen
class Pursuit:
    """One directed game, and the step at which each target clause it reached was first touched."""

    playthrough: Playthrough
    reached: Mapping[str, int]
    """Target clause -> how many actions of the playthrough lead to (and include) its first touch."""
    touched: tuple[frozenset[str], ...]
    """For each state of the playthrough, the clauses listing its actions and taking the next one
    touched (the last state: its listing only)."""


def _options(game: Game[Any, Any], state: Any) -> list[tuple[Action, float]]:
    if game.to_move(state) == CHANCE:
        return [(outcome, float(p)) for outcome, p in game.chance_outcomes(state)]
    return [(action, 1.0) for action in game.legal_actions(state)]


def _look(game: Game[Any, Any], state: Any, action: Action) -> tuple[set[str], bool]:
    """The clauses the step touches (with the next state's listing), and whether someone loses by it."""
    with coverage(isolated=True) as counts:
        after = game.apply(state, action)
        game.legal_actions(after)
    return set(counts), game.losers(after) != game.losers(state)


def pursue(game: Game[Any, Any], targets: Iterable[str], seed: int, max_steps: int) -> Pursuit:
    """One seeded game of at most `max_steps` actions leaning toward steps that touch `targets`."""
    wanted = frozenset(targets)
    rng = random.Random(seed)
    with coverage() as counts:
        state = game.initial_state()
        game.legal_actions(state)
    reached = dict.fromkeys(set(counts) & wanted, 0)
    seen = set(counts)
    listed = set(counts)
    touched: list[frozenset[str]] = []
    favoured = {cls.verb for cls in game.action_types if rng.random() < FAVOURED}
    actions: list[Action] = []
    states = [state]
    while len(actions) < max_steps and game.to_move(state) != TERMINAL:
        offered = _options(game, state)
        tried = offered if len(offered) <= LOOKAHEAD else rng.sample(offered, LOOKAHEAD)
        looks = {a: _look(game, state, a) for a, _ in tried}
        safe = [a for a, (_, loses) in looks.items() if not loses]
        toward = [a for a in safe if looks[a][0] & (wanted - reached.keys())]
        novel = [a for a in safe if looks[a][0] - seen]
        if toward and rng.random() < PULL:
            action = rng.choice(toward)
        elif novel and rng.random() < PULL:
            action = rng.choice(novel)
        elif (leaned := [a for a in safe if a.verb in favoured]) and rng.random() < PULL:
            action = rng.choice(leaned)
        elif safe and rng.random() < PULL:
            action = rng.choice(safe)
        else:
            action = rng.choices([a for a, _ in offered], weights=[w for _, w in offered])[0]
        with coverage() as applied:
            state = game.apply(state, action)
        with coverage() as counts:
            game.legal_actions(state)
        touched.append(frozenset(listed | set(applied)))
        listed = set(counts)
        actions.append(action)
        states.append(state)
        seen |= set(applied) | listed
        for clause in (set(applied) | listed) & wanted:
            reached.setdefault(clause, len(actions))
    touched.append(frozenset(listed))
    return Pursuit(Playthrough(game, tuple(actions), tuple(states)), reached, tuple(touched))
