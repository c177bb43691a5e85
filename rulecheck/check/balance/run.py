"""A balance run: a setup's games, and with readings, the same games under every other reading.

Models: the figures of `games` seeded games of a setup and, when asked, of each other reading
of its options (one option changed at a time), compared with them (compare.py); all the games
of a run are one set of tasks, so local workers or a Dask cluster share them, and a run gives
the same figures wherever it runs.

Leaves out: the table, the plot and the JSON (the command's), and the campaign's section.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from rulecheck.check.balance.compare import TEST, Compared, compared, other_readings
from rulecheck.check.balance.figures import Figures, figures
from rulecheck.check.balance.games import Setup, checked, game_seed, play_setups


@attrs.frozen
class Balance:
    """The figures of a setup's games, and of each other reading's when they were asked for."""

    setup: Setup
    games: int
    seed: int
    figures: Figures
    readings: tuple[Compared, ...]

    def to_data(self) -> dict[str, Any]:
        return {
            "setup": {**attrs.asdict(self.setup), "options": dict(self.setup.options)},
            "games": self.games,
            "seed": self.seed,
            "first_game_seed": game_seed(self.seed, 0),
            "interval": "Wilson score interval, 95%",
            "test": TEST,
            "figures": self.figures.to_data(),
            "readings": [r.to_data() for r in self.readings],
        }

    @property
    def changes_who_wins(self) -> tuple[Compared, ...]:
        return tuple(r for r in self.readings if r.significant)


def balance(
    setup: Setup,
    games: int,
    seed: int,
    *,
    readings: bool = False,
    workers: int = 1,
    dask: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Balance:
    """The balance of `setup` over `games` games from `seed`, and with `readings`, of every other
    reading of its options; OptionError for a setup that makes no game or names an unknown policy."""
    base = checked(setup)
    others = other_readings(base.make()) if readings else []
    setups = [base, *(base.with_options({option: value}) for option, value in others)]
    played = play_setups(setups, games, seed, workers=workers, dask=dask, progress=progress)
    players = base.make().players
    found = [figures(one, players) for one in played]
    return Balance(base, games, seed, found[0], tuple(compared(found[0], list(zip(others, found[1:])))))
