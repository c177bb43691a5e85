"""Exploration speed: distinct states per second, breadth-first, with and without the symmetries merged.

Globetrotter starts from a mid-game position, the state after the first MIDGAME_STEP actions of
the seeded random game of MIDGAME_SEED (play.random_game; the next seed when that game ends
sooner); the other games start from their initial state. Each search (rulecheck.check.search.explore,
no properties, every kind of issue) runs to a count of distinct states; under symmetry each
new state is looked up once per image, which costs time per state and may save states, so the
slowdown is per state: (seconds/states with) over (seconds/states without). A
game without symmetries gets the search without only. Searches are timed in CPU time (the
search's own report gives wall-clock seconds, which a busy machine inflates; the JSON keeps them
too). The rate per BFS level comes from the search's progress callback, timed the same way as it
goes: the states of level L are all known once the count of known states reaches the sum of the
levels up to L, and the level's rate is its states over the time since the level before was
complete; growth is judged on levels of LEVEL_MIN states or more, but the last (usually cut by
the state budget).

Leaves out: properties (checked.py measures their cost on play), and chance-weighted search.
"""

from __future__ import annotations

import time
from typing import Any

from bench import games as chosen
from bench import targets
from bench.table import note, row, section
from rulecheck.check.play.playthrough import random_game
from rulecheck.check.search.explore import explore
from rulecheck.core.game import Game
from rulecheck.core.notation import Action

MIDGAME_SEED = 0
MIDGAME_STEP = 80
LEVEL_MIN = 50
"""The fewest states a level must have to count in the growth verdict."""


def midgame(game: Game[Any, Any]) -> tuple[int, tuple[Action, ...]]:
    """(seed, actions): the first MIDGAME_STEP actions of the first seeded random game from MIDGAME_SEED
    that is still going after them."""
    seed = MIDGAME_SEED
    while True:
        played = random_game(game, seed, max_steps=MIDGAME_STEP)
        if len(played.actions) == MIDGAME_STEP and not game.is_terminal(played.states[-1]):
            return seed, played.actions
        seed += 1


def level_rates(levels: tuple[int, ...], marks: list[tuple[float, int]]) -> list[dict[str, Any]]:
    """The states per second of each level after the first, from (seconds, states known) marks."""
    rates = []
    known = levels[0]
    since = 0.0
    for depth, count in enumerate(levels[1:], start=1):
        known += count
        done = next((t for t, n in marks if n >= known), marks[-1][0])
        seconds = done - since
        rates.append({"depth": depth, "states": count, "states_per_second": round(count / seconds) if seconds else 0})
        since = done
    return rates


def search(game: Game[Any, Any], start: tuple[Action, ...], states: int, symmetry: bool) -> dict[str, Any]:
    marks: list[tuple[float, int]] = []
    began = time.process_time()
    found = explore(
        game,
        start,
        depth=None,
        states=states,
        symmetry=symmetry,
        progress=lambda done, _: marks.append((time.process_time() - began, done)),
    )
    seconds = time.process_time() - began
    by_level = level_rates(found.levels, marks)
    return {
        "symmetry": symmetry,
        "states": found.states,
        "edges": found.edges,
        "depth": found.depth,
        "levels": list(found.levels),
        "exhaustive": found.exhaustive,
        "seconds": round(seconds, 3),
        "wall_seconds": round(found.seconds, 3),
        "states_per_second": round(found.states / seconds),
        "by_level": by_level,
        "growth": targets.growth([r["states_per_second"] for r in by_level[:-1] if r["states"] >= LEVEL_MIN]),
    }


def measure(states: int, games: list[str] | None = None) -> dict[str, Any]:
    """For each game, a search of `states` distinct states without symmetry, and with it where the game has any."""
    result: dict[str, Any] = {}
    for name in chosen.names(games):
        game = chosen.campaign_game(name)
        if name == targets.EXPLORE_MIDGAME_GAME:
            seed, start = midgame(game)
            where = f"after {len(start)} actions of random_game seed {seed}"
        else:
            start, where = (), "initial state"
        rows = [search(game, start, states, False)]
        if game.symmetries():
            rows.append(search(game, start, states, True))
        entry: dict[str, Any] = {"start": where, "start_actions": len(start), "searches": rows}
        if len(rows) == 2:
            plain, merged = rows
            ratio = (merged["seconds"] / merged["states"]) / (plain["seconds"] / plain["states"])
            entry |= {
                "symmetry_ratio": round(ratio, 3),
                "symmetry_target": targets.SYMMETRY_RATIO,
                "symmetry_verdict": targets.at_most(ratio, targets.SYMMETRY_RATIO),
            }
        if name == targets.EXPLORE_MIDGAME_GAME:
            entry |= {
                "target": targets.EXPLORE_MIDGAME_STATES_PER_SECOND,
                "verdict": targets.at_least(rows[0]["states_per_second"], targets.EXPLORE_MIDGAME_STATES_PER_SECOND),
            }
        result[name] = entry
    return result


def report(result: dict[str, Any]) -> None:
    section("exhaustive exploration, breadth-first (no properties; CPU time)")
    for name, entry in result.items():
        for search_row in entry["searches"]:
            merged = search_row["symmetry"]
            what = f"{'with' if merged else 'without'} symmetry, {search_row['states']} states"
            if merged:
                anchor = f"{entry['symmetry_ratio']}x per state"
                target = f"<= {entry['symmetry_target']}x: {entry['symmetry_verdict']}"
            else:
                anchor = entry["start"]
                target = f">= {entry['target']}/s: {entry['verdict']}" if "target" in entry else ""
            row(
                name,
                f"{what}, depth {search_row['depth']}",
                f"{search_row['states_per_second']} states/s",
                anchor,
                target,
            )
            rates = ", ".join(f"{r['depth']}: {r['states_per_second']}" for r in search_row["by_level"])
            note(f"states/s by depth: {rates}; {search_row['growth']}")
