"""Globetrotter's computed tables: the numbers audit.md reasons about, measured on the engine.

Models: each table as a title, the clauses it speaks to, column names and rows, built by
searching or by exact chance analysis of real engine states (analysis.py), or from the
board graphs themselves:
- `boards`: each reading of the removed faces, with its spaces, adjacencies, connectivity,
  HQ neighbour counts and symmetries (GT-B1, GT-B2);
- `destruction-odds`: the chance that each firing destroys the planet if it still stands,
  under both readings of the destruction roll, with the chance it still stands after that
  firing and the expected number of firings (GT-D6), every number an exact fraction;
- `shooting-readings`: for each two shooting readings, the ordered (shooter, target)
  pairs whose in-range status differs (GT-B5, GT-B6, GT-A4);
- `earliest-build`: from every opening up to the board's rotations, the fewest actions of
  one player to a second Building, with and without entering pentagons (GT-A10);
- `shots-to-destroy`: one Shoot at a 3-hit-point Rover, without and with cover, and the
  expected number of shots to destroy it under each damage reading (GT-A5, GT-A6, GT-A7).
`rulecheck table globetrotter NAME` prints one.

Leaves out: presentation beyond rows of plain values (the command shows each fraction with a
decimal beside it).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from typing import Any, cast

from rulecheck.core.chance import distribution
from rulecheck.core.progress import Progress, no_progress, part
from rulecheck.games.globetrotter.actions import Shoot
from rulecheck.games.globetrotter.analysis import (
    far_opening,
    firing_destroys_odds,
    hand_turn_to,
    opening_placements,
    reading_disagreements,
    solo_search,
)
from rulecheck.games.globetrotter.counters import ROVER_HP
from rulecheck.games.globetrotter.game import Globetrotter
from rulecheck.games.globetrotter.options import DamageAmount, DestructionRoll, GlobetrotterOptions
from rulecheck.games.globetrotter.state import Fortification, GlobetrotterState, Rover
from rulecheck.geometry.facts import board_facts
from rulecheck.geometry.planet import REMOVALS, planet
from rulecheck.model.tables import Table, columns_differ, readings_differ, some_row

SHOOTER, TARGET = "T1", "T3"
"""A Rover shooting from T1 at T3, a triangle beside P0 and in range of T1 under every reading."""


def survival(odds: list[Fraction]) -> list[Fraction]:
    """P(the planet still stands after k firings), for k = 0..len(odds)."""
    alive = [Fraction(1)]
    for p in odds:
        alive.append(alive[-1] * (1 - p))
    return alive


BOARD_COLUMNS = ("spaces", "triangle_spaces", "adjacencies", "connected", "hq_neighbour_counts", "automorphisms")


def boards() -> Table:
    rows = []
    for removal in REMOVALS:
        facts = board_facts(planet(removal))
        rows.append(
            (removal, *(json.dumps(facts[c]) if isinstance(facts[c], dict) else facts[c] for c in BOARD_COLUMNS))
        )
    return Table(
        "boards",
        "The board under each reading of which faces around the bottom pentagon are removed",
        ("GT-B1", "GT-B2"),
        ("removal", *BOARD_COLUMNS),
        tuple(rows),
        (
            readings_differ("removal"),
            some_row("connected", lambda connected: not connected, "a reading leaves spaces cut off", ("removal",)),
        ),
    )


DESTROYS = "destroys, given it stood so far"
STANDS = "stands after it"
FIRINGS = 13
"""Firings shown: the 13th destroys the planet under either reading."""


def destruction_odds() -> Table:
    readings = tuple(r.value for r in DestructionRoll)
    odds = {
        r: [firing_destroys_odds(Globetrotter(2, {"destruction_roll": r}), k) for k in range(FIRINGS)] for r in readings
    }
    alive = {r: survival(odds[r]) for r in readings}
    rows: list[tuple[Any, ...]] = [
        (k + 1, *(x for r in readings for x in (odds[r][k], alive[r][k + 1]))) for k in range(FIRINGS)
    ]
    rows.append(("expected firings", *(x for r in readings for x in (sum(alive[r][:FIRINGS]), ""))))
    return Table(
        "destruction-odds",
        "Per firing of a Drill Cannon: the chance it destroys the planet if the planet still stands "
        "(conditional on every earlier firing), and the chance the planet still stands after it",
        ("GT-D6",),
        ("firing", *(f"{c} ({r})" for r in readings for c in (DESTROYS, STANDS))),
        tuple(rows),
        tuple(
            columns_differ(f"{DESTROYS} ({a})", f"{DESTROYS} ({b})", "firing") for a, b in zip(readings, readings[1:])
        ),
    )


def shooting_readings() -> Table:
    removal = GlobetrotterOptions().removal.value
    counts = reading_disagreements(removal)
    return Table(
        "shooting-readings",
        f"Ordered (shooter, target) pairs whose in-range status differs between two readings ({removal})",
        ("GT-B5", "GT-B6", "GT-A4"),
        ("reading", "other reading", "pairs"),
        tuple((a, b, n) for (a, b), n in sorted(counts.items())),
        (
            some_row(
                "pairs",
                lambda pairs: pairs > 0,
                "two readings put different targets in range",
                ("reading", "other reading"),
            ),
        ),
    )


def first_builds(game: Globetrotter, pentagons: bool, progress: Progress = no_progress) -> list[int | None]:
    """From each opening up to rotation, the fewest Move, Fortify and Build actions of player 0
    to a second Building (None beyond 10); `progress` hears the openings searched of all."""
    board = game.rules.boards

    def allowed(action: Any) -> bool:
        if action.verb == "move":
            return pentagons or not board.is_hq(action.target)
        return action.verb in ("fortify", "build")

    def built(state: GlobetrotterState) -> bool:
        return len(state.buildings_of(0)) == 2

    openings = opening_placements(game)
    lengths: list[int | None] = []
    for factory, rover in openings:
        plan = solo_search(game, far_opening(game, factory, rover), 0, allowed, built, max_depth=10)
        lengths.append(len(plan) if plan is not None else None)
        progress(len(lengths), len(openings))
    return lengths


def earliest_build(progress: Progress = no_progress) -> Table:
    """The search, about two minutes here; `progress` hears the openings searched, twice over."""
    game = Globetrotter(2)
    openings = opening_placements(game)
    total = 2 * len(openings)
    anywhere = first_builds(game, True, part(progress, 0, total))
    no_pentagons = first_builds(game, False, part(progress, len(openings), total))
    return Table(
        "earliest-build",
        "Fewest actions of one player from the opening to a second Building (every die lucky)",
        ("GT-A9", "GT-A10"),
        ("factory", "rover", "actions", "actions without entering a pentagon"),
        tuple((f, r, a, b) for (f, r), a, b in zip(openings, anywhere, no_pentagons)),
        (columns_differ("actions", "actions without entering a pentagon", "factory"),),
    )


def _shot(game: Globetrotter, hp: int, covered: bool) -> dict[int, Fraction]:
    """The target Rover's hit points after one Shoot at it with `hp` (0: destroyed)."""
    state = hand_turn_to(far_opening(game, "P0", SHOOTER), 0)
    state = state.with_pieces(rovers=state.rovers + (Rover(0, TARGET, 1, hp),))
    if covered:
        cover = next(n for n in game.rules.boards.graph[TARGET] if (0, n) not in state.occupied())
        state = state.with_pieces(fortifications=[Fortification(0, cover, 1, 1)])

    def left(s: GlobetrotterState) -> int:
        rover = s.rover_at(0, TARGET)
        return rover.hp if rover is not None else 0

    return cast(dict[int, Fraction], distribution(game, state, Shoot(SHOOTER, TARGET, "rover"), measure=left))


def expected_shots(step: Callable[[int], dict[int, Fraction]], hp: int) -> Fraction:
    """Expected shots until hit points reach 0, for a chain that never raises them."""
    expected: dict[int, Fraction] = {0: Fraction(0)}
    for h in range(1, hp + 1):
        odds = step(h)
        stay = odds.get(h, Fraction(0))
        expected[h] = (1 + sum(p * expected[k] for k, p in odds.items() if k != h)) / (1 - stay)
    return expected[hp]


def shots_to_destroy() -> Table:
    rows = []
    for damage in (amount.value for amount in DamageAmount):
        game = Globetrotter(2, {"damage": damage})
        for covered in (False, True):
            odds = _shot(game, ROVER_HP, covered)
            rows.append(
                (
                    damage,
                    "cover" if covered else "no cover",
                    1 - odds.get(ROVER_HP, Fraction(0)),
                    expected_shots(partial(_shot, game, covered=covered), ROVER_HP),
                )
            )
    return Table(
        "shots-to-destroy",
        f"One Shoot at a {ROVER_HP}-hit-point Rover: the chance to damage it, and expected shots to destroy it",
        ("GT-A5", "GT-A6", "GT-A7"),
        ("damage reading", "cover", "one shot damages", "expected shots to destroy"),
        tuple(rows),
        (readings_differ("damage reading", within=("cover",)),),
    )


TABLES: dict[str, Callable[[Globetrotter, Progress], Table]] = {
    # Each table sets its rows side by side over every reading, so none reads the game's options;
    # only the search, earliest-build, takes long enough to tell its progress.
    "boards": lambda game, progress: boards(),
    "destruction-odds": lambda game, progress: destruction_odds(),
    "earliest-build": lambda game, progress: earliest_build(progress),
    "shooting-readings": lambda game, progress: shooting_readings(),
    "shots-to-destroy": lambda game, progress: shots_to_destroy(),
}
