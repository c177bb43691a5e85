"""`rulecheck balance GAME --players 2 --games N --workers 2`, in seconds: the balance report of
every game at 2 players with the random policy, its games in two local processes.

The figure is the wall-clock seconds of the whole run (spawning the workers included), since
the work is spread over processes; the CPU seconds of this process are beside it (the workers'
own are not counted). The target (issue 33): 1,000 games of each game under 5 minutes on 2 cores;
a smaller run (--quick) is not judged, since starting the workers takes much of its time.

Leaves out: readings (`--readings` multiplies the games by the option values), policies other
than random play, and Dask.
"""

from __future__ import annotations

import time
from typing import Any

from bench import games as chosen
from bench import targets
from bench.table import row, section
from rulecheck.check.balance.games import Setup
from rulecheck.check.balance.run import balance

PLAYERS = 2
WORKERS = 2


def measure(games: int, names: list[str] | None = None) -> dict[str, Any]:
    """Each game's balance run of `games` games (or of the games `names`)."""
    found: dict[str, Any] = {}
    for name in chosen.names(names):
        wall, cpu = time.perf_counter(), time.process_time()
        run = balance(Setup(name, PLAYERS), games, seed=0, workers=WORKERS)
        seconds = time.perf_counter() - wall
        judged = games >= targets.BALANCE_GAMES
        found[name] = {
            "games": games,
            "players": PLAYERS,
            "workers": WORKERS,
            "seconds": round(seconds, 2),
            "cpu_seconds_here": round(time.process_time() - cpu, 2),
            "seat_rates": [round(s.rate, 4) for s in run.figures.seats],
            "target": targets.BALANCE_SECONDS if judged else None,
            "verdict": targets.at_most(seconds, targets.BALANCE_SECONDS) if judged else "not judged (fewer games)",
        }
    return found


def report(result: dict[str, Any]) -> None:
    section(f"balance report (random policy, {PLAYERS} players, {WORKERS} local workers, wall clock)")
    for name, figures in result.items():
        row(
            name,
            f"balance, {figures['games']} games",
            f"{figures['seconds']} s",
            f"seat win rates {figures['seat_rates']}",
            f"<= {figures['target']:.0f} s: {figures['verdict']}" if figures["target"] else figures["verdict"],
        )
