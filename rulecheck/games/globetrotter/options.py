"""Globetrotter's variation points: each ambiguity of the rulebook as a named option.

Models: one Option per open reading (rulebook audit Part 3.b), each default being the
most literal reading the geometry allows, with the clauses it reads.

Leaves out: readings nobody has asked for yet; a new one is a new Option here and a
branch in the rule that reads it.
"""

from __future__ import annotations

from rulecheck.core.options import Option, OptionSpace
from rulecheck.geometry.planet import DEFAULT_REMOVAL, REMOVALS

OPTIONS = OptionSpace(
    "globetrotter",
    (
        Option(
            "removal",
            DEFAULT_REMOVAL,
            tuple(REMOVALS),
            ("GT-B1", "GT-B2"),
            "which faces around the bottom pentagon are not used (no symmetric reading removes 14)",
        ),
        Option(
            "shooting",
            "W1",
            ("W1", "W0", "W2", "W3", "W4"),
            ("GT-B5", "GT-B6", "GT-A4"),
            "shooting distance: W1 entering any pentagon counts 2; W0 plain steps; W2 only a target pentagon "
            "counts 2; W3 only pentagons passed through count 2; W4 as W1 plus 1 when shooting from a pentagon",
        ),
        Option(
            "shooter",
            "rover",
            ("rover", "any-piece"),
            ("GT-A4",),
            "which pieces may shoot: the player's Rovers on a planet, or any of their pieces on a planet",
        ),
        Option(
            "cover",
            "not-shooters",
            ("not-shooters", "targets-own"),
            ("GT-A7",),
            "whose Fortification gives cover: any not the shooter's, or only the target owner's",
        ),
        Option(
            "fortification_covers_itself",
            "no",
            ("no", "yes"),
            ("GT-A7",),
            "whether a targeted Fortification 'shares a space' with itself and so has cover",
        ),
        Option(
            "damage",
            "one",
            ("one", "die-value"),
            ("GT-A5", "GT-A6", "GT-D2"),
            "hit points removed by a successful damage roll: 1, or the value the die shows",
        ),
        Option(
            "drill_hits",
            "every-piece",
            ("every-piece", "rover-first"),
            ("GT-D2",),
            "Drill Cannon damage in a space holding a Rover and a Fortification: each piece takes all of it, "
            "or the Rover takes it until destroyed and the rest goes to the Fortification",
        ),
        Option(
            "fortify_adjacency",
            "space-any",
            ("space-any", "space-own", "rover"),
            ("GT-A9",),
            "what 'not adjacent to an existing Fortification' qualifies: the new space (any owner's "
            "Fortifications, or only the player's own), or the Rover",
        ),
        Option(
            "open_space",
            "empty",
            ("empty", "friendly-fortification"),
            ("GT-F2",),
            "which spaces are 'open' for a manufactured Rover: empty ones, or also those holding only a "
            "friendly Fortification",
        ),
        Option(
            "repair_at_full",
            "illegal",
            ("illegal", "legal"),
            ("GT-F3",),
            "whether Repair may be taken by a Rover already at 3 hit points (spending the point for nothing)",
        ),
        Option(
            "cap_orbit",
            "counts",
            ("counts", "not-counted"),
            ("GT-F5", "GT-SP5"),
            "whether Rovers in orbit count toward 'no more Rovers than Buildings'",
        ),
        Option(
            "cap_scope",
            "all-planets",
            ("all-planets", "this-planet"),
            ("GT-F5", "GT-A11"),
            "whether the Rover cap counts Rovers and Buildings on all planets or on the Factory's planet",
        ),
        Option(
            "orbit_moves",
            "descend-or-transfer",
            ("descend-or-transfer", "descend-only"),
            ("GT-SP3", "GT-SP4"),
            "whether an orbiting Rover may move to another planet's orbit (L58, L106) or only descend (L59)",
        ),
        Option(
            "descend_after_transfer",
            "next-turn",
            ("next-turn", "same-turn"),
            ("GT-SP3",),
            "whether a Rover that moved to another planet's orbit may descend in the same turn, or, as L58 says, "
            "'in a subsequent turn'",
        ),
        Option(
            "fire_readiness",
            "aimed-until-hits-land",
            ("aimed-until-hits-land", "idle-on-firing"),
            ("GT-D2", "GT-D4", "GT-D5"),
            "whether a firing Drill Cannon is still Aimed while its own hits land (so, aimed at its own space and "
            "destroyed by them, it may explode), or starts over before they land",
        ),
        Option(
            "planet_adjacency",
            "all",
            ("all", "line"),
            ("GT-SP3", "GT-M2"),
            "which planets' orbits are adjacent: all of them ('no concept of distance'), or planets in a line",
        ),
        Option(
            "destruction_roll",
            "less",
            ("less", "less-or-equal"),
            ("GT-D6",),
            "the planet is destroyed when the 2d6 total is less than the fire count, or less or equal",
        ),
        Option(
            "saved_point_use",
            "next-turn",
            ("next-turn", "same-turn"),
            ("GT-T1", "GT-T3"),
            "whether a point saved into the Treasury may be spent in the turn it was saved "
            "(the rulebook: 'On the player's next turn, they can perform one extra action')",
        ),
        Option(
            "treasury_spend",
            "stolen-first",
            ("stolen-first", "saved-first"),
            ("GT-T3", "GT-T4", "GT-T5"),
            "which extra actions a player holding stolen and saved points spends first",
        ),
        Option(
            "destroying_action",
            "counts",
            ("counts", "excluded"),
            ("GT-T4", "GT-T5"),
            "whether the action that destroys a Treasury counts toward the 4 consecutive actions",
        ),
        Option(
            "loss_check",
            "after-every-action",
            ("after-every-action", "start-of-turn"),
            ("GT-E1",),
            "when the loss condition is checked: after every action for every player, or at the start of "
            "each player's own turn",
        ),
        Option(
            "game_end",
            "last-standing",
            ("last-standing", "first-loss"),
            ("GT-E1", "GT-E2", "GT-E3"),
            "what ends the game: one player (or none) left who has not lost, or the first loss",
        ),
        Option(
            "setup_ties",
            "reroll",
            ("reroll", "seat-order"),
            ("GT-S1", "GT-S4"),
            "how a tie for the highest setup roll is settled: the tied players roll again, or the earliest seat wins",
        ),
    ),
)
