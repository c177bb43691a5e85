"""`python -m bench.digest GAME [GAMES]`: a digest of a game's behaviour, to show a speed change changed nothing.

Plays seeded random games of GAME (GAMES of each player count the game's campaign plays, under
its default options, and a tenth as many under each other option value) and hashes, at every
step: the state's canonical JSON, the legal actions' texts, the chance outcomes with their
probabilities, and, for a few actions drawn from the game's numbering that are not legal, the
clause and reason of their refusal. It prints that hash, a hash of the clauses touched with how
often, and the counts themselves. Run it before and after a change meant to keep behaviour (the
golden suites replay far fewer games): the printed lines must be identical.

Leaves out: timing (the benchmarks do that) and properties (the campaign checks them).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Iterator
from typing import Any

from rulecheck.core.clauses import coverage
from rulecheck.core.errors import IllegalAction
from rulecheck.core.game import CHANCE, TERMINAL, Game
from rulecheck.registry import declaration, make_game

MOST_STEPS = 600
"""Steps played of each game at most."""
ILLEGAL_TRIED = 3
"""Actions not legal tried at each player's step."""


def play(digest: Any, game: Game[Any, Any], seed: int) -> None:
    """Play one seeded random game of `game`, hashing each step's behaviour into `digest`."""
    rng, probe = random.Random(seed), random.Random(seed * 7919 + 1)
    distinct = game.num_distinct_actions()
    state = game.initial_state()
    for _ in range(MOST_STEPS):
        digest.update(hashlib.sha256(game.encode_state(state).encode()).digest())
        mover = game.to_move(state)
        if mover == TERMINAL:
            digest.update(repr(game.returns(state)).encode())
            return
        if mover == CHANCE:
            outcomes = game.chance_outcomes(state)
            digest.update(repr([(str(a), str(p)) for a, p in outcomes]).encode())
            action = rng.choices([a for a, _ in outcomes], weights=[float(p) for _, p in outcomes])[0]
        else:
            legal = game.legal_actions(state)
            digest.update("|".join(a.text for a in legal).encode())
            texts = {a.text for a in legal}
            for _ in range(ILLEGAL_TRIED):
                other = game.action_from_id(probe.randrange(distinct))
                if other.text not in texts:
                    digest.update(_refusal(game, state, other).encode())
            action = rng.choice(legal)
        state = game.apply(state, action)


def _refusal(game: Game[Any, Any], state: Any, action: Any) -> str:
    try:
        game.apply(state, action)
    except IllegalAction as exc:
        return f"{action.text}:{exc.clause}:{exc.reason}"
    return f"ACCEPTED {action.text}"


def runs(name: str, games: int) -> Iterator[tuple[int, dict[str, str], int]]:
    """(players, options, seed) of each game played: `games` of each campaign player count under
    the defaults, then a tenth as many (at least one) under each other value of each option."""
    game = declaration(name).game
    players = game.campaign_players
    for count in players:
        yield from ((count, {}, seed) for seed in range(games))
    for option in game.option_space.options:
        for value in option.values:
            if value != option.default:
                for count in players:
                    yield from ((count, {option.name: value}, 1000 + s) for s in range(max(1, games // 10)))


def main(name: str, games: int) -> None:
    total = hashlib.sha256()
    with coverage() as counts:
        for players, options, seed in runs(name, games):
            one = hashlib.sha256()
            play(one, make_game(name, players, options), seed)
            total.update(one.digest())
    touched = json.dumps(counts, sort_keys=True)
    print("play", total.hexdigest())
    print("coverage", hashlib.sha256(touched.encode()).hexdigest())
    print(touched)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 30)
