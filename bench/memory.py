"""Peak memory of fuzz campaigns of growing size, each in a child process of its own.

Each campaign is `rulecheck.check.search.fuzz.fuzz(game, every property, games, seed 0)` at the game's
fewest campaign players, run by `python -m bench.memory GAME GAMES` in a fresh interpreter, which
prints its peak resident memory (Linux's VmHWM of /proc/self/status; resource.getrusage's
ru_maxrss elsewhere) after the imports and
the game are loaded (the baseline) and after the campaign, with the games and steps the campaign
counted. Memory is flat when the largest campaign's peak is within targets.FLAT_MEMORY above the
smallest's; the growth per 1,000 games is the slope between the smallest and the largest. The
campaign of targets.CAMPAIGN_GAMES games is judged against targets.CAMPAIGN_MEGABYTES.

Leaves out: memory of the parent process and of `verify`'s worker pool, and time (the children's
seconds are shown but are wall-clock on a shared machine).
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench import targets
from bench.table import row, section

STATUS = Path("/proc/self/status")


def peak_megabytes() -> float:
    """This process's peak resident memory so far: Linux's VmHWM, which starts afresh at exec;
    elsewhere ru_maxrss (kilobytes on Linux, bytes on macOS), which on Linux keeps the parent's
    peak from before the exec, so it serves only where /proc is missing."""
    if STATUS.exists():
        for line in STATUS.read_text(encoding="ascii").splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    divisor = 1024 * 1024 if sys.platform == "darwin" else 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / divisor


def child(name: str, games: int) -> dict[str, Any]:
    """The campaign itself, in the child: what it counted and the memory before and after."""
    from bench.games import campaign_game
    from rulecheck.check.search.fuzz import fuzz
    from rulecheck.registry import declaration

    game = campaign_game(name)
    baseline = peak_megabytes()
    start = time.perf_counter()
    found = fuzz(game, declaration(name).properties, games, 0)
    return {
        "games_asked": games,
        "games": found.games,
        "steps": found.steps,
        "issues": len(found.found),
        "seconds": round(time.perf_counter() - start, 1),
        "baseline_mb": round(baseline, 1),
        "peak_mb": round(peak_megabytes(), 1),
    }


def campaign(name: str, games: int) -> dict[str, Any]:
    """One campaign in a child process."""
    done = subprocess.run(
        [sys.executable, "-m", "bench.memory", name, str(games)], capture_output=True, text=True, check=True
    )
    return dict(json.loads(done.stdout.splitlines()[-1]))


def measure(plan: dict[str, list[int]]) -> dict[str, Any]:
    """For each game of `plan`, a campaign of each of its sizes, smallest first."""
    result: dict[str, Any] = {}
    for name, sizes in plan.items():
        runs = [campaign(name, games) for games in sorted(sizes)]
        smallest, largest = runs[0], runs[-1]
        entry: dict[str, Any] = {"runs": runs}
        if len(runs) > 1:
            rise = largest["peak_mb"] - smallest["peak_mb"]
            entry["mb_per_1000_games"] = round(1000 * rise / (largest["games_asked"] - smallest["games_asked"]), 2)
            entry["growth"] = "flat" if rise <= targets.FLAT_MEMORY * smallest["peak_mb"] else "grows"
        full = [r for r in runs if r["games_asked"] >= targets.CAMPAIGN_GAMES]
        if full:
            entry["verdict"] = targets.at_most(full[0]["peak_mb"], targets.CAMPAIGN_MEGABYTES)
        result[name] = entry
    return result


def report(result: dict[str, Any]) -> None:
    section("peak memory of a fuzz campaign (child process per campaign, peak RSS)")
    for name, entry in result.items():
        for r in entry["runs"]:
            target = ""
            if r["games_asked"] >= targets.CAMPAIGN_GAMES:
                target = f"<= {targets.CAMPAIGN_MEGABYTES:.0f} MB: {entry['verdict']}"
            row(
                name,
                f"fuzz --games {r['games_asked']}: {r['games']} games, {r['steps']} steps",
                f"{r['peak_mb']} MB peak",
                f"{r['baseline_mb']} MB before, {r['seconds']} s",
                target,
            )
        if "growth" in entry:
            row(
                name, "memory against campaign size", f"{entry['mb_per_1000_games']} MB/1000 games", "", entry["growth"]
            )
        if not any(r["games_asked"] >= targets.CAMPAIGN_GAMES for r in entry["runs"]):
            row(name, f"{targets.CAMPAIGN_GAMES}-game campaign", "not run (sizes chosen smaller)")


if __name__ == "__main__":
    print(json.dumps(child(sys.argv[1], int(sys.argv[2]))))
