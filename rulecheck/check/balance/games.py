"""Games played as seeded tasks, for a balance report.

Models: what a set of games is played under (`Setup`: the game, its players, option values and
data set, a policy per seat or one for every seat, named as `policy_named` knows them, and the
step cap), checked before any game is played; batches of games that carry their own seeds, so
that game k of a run with seed s plays from the seed `game_seed(s, k)` wherever its batch runs;
and the batches of several setups run together through running/parallel.py (in this process,
in local processes or on a Dask cluster), each game measured where it is played (figures.py).

Leaves out: what the figures are (figures.py) and what they are compared with (compare.py).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from rulecheck.check.balance.figures import Played, measured
from rulecheck.check.play.playthrough import DEFAULT_MAX_STEPS, play
from rulecheck.check.play.policies import Policy, policy_named
from rulecheck.check.running.parallel import run_tasks
from rulecheck.core.errors import OptionError
from rulecheck.core.game import Game
from rulecheck.registry import make_game

BATCH = 25
"""Games per task: enough that a task's cost outweighs sending it, few enough to share the work."""
SEEDS_PER_RUN = 2**32
"""Game k of a run with seed s plays from s * SEEDS_PER_RUN + k: runs of different seeds share no game."""


@attrs.frozen
class Setup:
    """What games are played under: `policies` holds one name (every seat) or one per seat."""

    game: str
    players: int
    options: tuple[tuple[str, str], ...] = ()
    policies: tuple[str, ...] = ("random",)
    max_steps: int = DEFAULT_MAX_STEPS
    data: str | None = None

    def make(self) -> Game[Any, Any]:
        return _made(self.game, self.players, self.options, self.data)

    def players_policies(self) -> tuple[Policy, ...]:
        return tuple(policy_named(name) for name in self.policies)

    def with_options(self, chosen: Mapping[str, str]) -> Setup:
        return attrs.evolve(self, options=tuple(sorted((dict(self.options) | dict(chosen)).items())))


@functools.lru_cache(maxsize=8)
def _made(game: str, players: int, options: tuple[tuple[str, str], ...], data: str | None) -> Game[Any, Any]:
    """The game of a setup, made once per process (a worker plays many batches of it)."""
    return make_game(game, players, dict(options), data=data)


def checked(setup: Setup) -> Setup:
    """`setup` with every option written out (the defaults included), once it is known to make a
    game and name known policies, one or one per seat, and a step cap of at least 1; else an
    OptionError naming what is wrong."""
    game = setup.make()
    if setup.max_steps < 1:
        raise OptionError(f"the step cap must be at least 1, not {setup.max_steps}")
    if len(setup.policies) not in (1, game.players):
        raise OptionError(
            f"{len(setup.policies)} policies for {game.players} players: give one for every seat, or one per seat"
        )
    try:
        setup.players_policies()
    except ValueError as exc:
        raise OptionError(str(exc)) from None
    return attrs.evolve(setup, options=tuple(sorted(game.options.text.items())))


def game_seed(seed: int, index: int) -> int:
    """The seed game `index` of a run with seed `seed` plays from."""
    return seed * SEEDS_PER_RUN + index


@attrs.frozen
class Batch:
    """Games `first` to `first + count - 1` of a run of `setup` with seed `seed`."""

    setup: Setup
    seed: int
    first: int
    count: int


def play_batch(batch: Batch) -> tuple[Played, ...]:
    """The games of a batch, each played and measured: a module-level function, for workers."""
    game = batch.setup.make()
    policies = batch.setup.players_policies()
    return tuple(
        measured(play(game, policies, game_seed(batch.seed, k), batch.setup.max_steps))
        for k in range(batch.first, batch.first + batch.count)
    )


def play_setups(
    setups: Sequence[Setup],
    games: int,
    seed: int,
    *,
    workers: int = 1,
    dask: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[tuple[Played, ...]]:
    """`games` games of each setup (the same seeds for each), in game order per setup, played in
    batches here, in `workers` local processes or on the Dask cluster at `dask`;
    `progress(done, total)` counts the games as their batches arrive."""
    if games < 1:
        raise OptionError(f"the number of games must be at least 1, not {games}")
    batches = [
        Batch(setup, seed, first, min(BATCH, games - first)) for setup in setups for first in range(0, games, BATCH)
    ]
    done = [0]

    def arrived(_done: int, _total: int, batch: Batch, _result: tuple[Played, ...]) -> None:
        done[0] += batch.count
        if progress is not None:
            progress(done[0], games * len(setups))

    results = run_tasks(play_batch, batches, workers=workers, dask=dask, progress=arrived)
    per_setup = len(batches) // len(setups) if setups else 0
    return [
        tuple(g for result in results[i * per_setup : (i + 1) * per_setup] for g in result) for i in range(len(setups))
    ]
