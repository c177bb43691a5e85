"""Globetrotter's pieces as a list to read: what `rulecheck cards globetrotter` prints.

Models: each kind of piece the rules place on the planet (a Rover, a Fortification) and each
kind of Building, with its key (how actions, traces and scenario files write it: `build P3
treasury`, `shoot T5 T6 fortification`), its name in the rulebook's words and its facts from
the rules code (hit points and what it holds, from counters.py; how many each player starts
with, GT-S5). Globetrotter has no data set: every piece is the rulebook's.

Leaves out: what a piece does in play (the rule modules) and the board (`rulecheck board`).
"""

from __future__ import annotations

from typing import Final

from rulecheck.core.words import counted
from rulecheck.games.globetrotter.counters import (
    BUILDING_HP,
    FACTORY_CAPACITY,
    FORTIFICATION_HP,
    MANUFACTURE_COST,
    ROVER_HP,
    TREASURY_CAPACITY,
)
from rulecheck.games.globetrotter.state import (
    AIMED,
    DRILL_CANNON,
    FACTORY,
    FORTIFICATION,
    IDLE,
    READY,
    ROVER,
    SPACE_PORT,
    TREASURY,
)
from rulecheck.model.components import Component

NAMES: Final = {
    ROVER: "Rover",
    FORTIFICATION: "Fortification",
    FACTORY: "Factory",
    SPACE_PORT: "Space Port",
    DRILL_CANNON: "Drill Cannon",
    TREASURY: "Treasury",
}
"""Each kind of piece by its key, with its name in the rulebook's words."""


def listing() -> tuple[Component, ...]:
    """Globetrotter's pieces and Buildings, each with its facts, for `rulecheck components`."""
    building = f"a Building, {counted(BUILDING_HP, 'hit point')}"
    facts = {
        ROVER: f"{counted(ROVER_HP, 'hit point')}; 1 each at the start (GT-S5); never more than its owner's "
        "Buildings (GT-F5)",
        FORTIFICATION: f"{counted(FORTIFICATION_HP, 'hit point')}; placed by Fortify (GT-A9)",
        FACTORY: f"{building}; 1 each at the start (GT-S5); holds up to {FACTORY_CAPACITY} build points, "
        f"a Rover costs {MANUFACTURE_COST} (GT-F1, GT-F2)",
        SPACE_PORT: f"{building}; a Rover beside it may move into orbit (GT-SP1)",
        DRILL_CANNON: f"{building}; readiness {IDLE}, {READY} or {AIMED} before it fires (GT-D1)",
        TREASURY: f"{building}; stores up to {TREASURY_CAPACITY} action points (GT-T2)",
    }
    kinds = {ROVER: "piece", FORTIFICATION: "piece"}
    return tuple(Component(kinds.get(key, "building"), key, NAMES[key], facts[key]) for key in NAMES)
