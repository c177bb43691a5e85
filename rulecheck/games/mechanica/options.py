"""Mechanica's options: every ambiguity of audit.md Part 4.b the engine must decide, each defaulting to
the most literal reading the text allows.

Models: the Extras in 2-3 player games (MEC-F01), when the game ends (MEC-F03), whether a blueprint is
completed once per player or once in all (MEC-F04), how many bots a hole holds and what becomes of bots
that find their hole full (MEC-F08), where recycled bots may go (MEC-F08 v, against the publisher's FAQ),
the Shop's rotation (MEC-F09), and the Big and Huge Truck counts where the rulebook and the publisher
disagree.

Leaves out: gaps no option decides; the engine raises RuleGap for those in strict mode (the rule modules,
through `Rules.gap`).
"""

from __future__ import annotations

from rulecheck.core.options import Option, OptionSpace

OPTIONS = OptionSpace(
    "mechanica",
    (
        Option(
            "extras_small_games",
            "double-rotate",
            ("double-rotate", "never"),
            ("MEC-S6", "MEC-T11"),
            "MEC-F01: with 2-3 players, Double Rotate draws the Extras (L137-139) or they are never used (L50)",
        ),
        Option(
            "game_end",
            "end-of-workday",
            ("end-of-workday", "at-once"),
            ("MEC-O1", "MEC-E1"),
            "MEC-F03: the end is checked when play returns to the first player (L177-183) or as soon as "
            "no improvement is left to buy (L20)",
        ),
        Option(
            "blueprint_once",
            "per-player",
            ("per-player", "once-in-all"),
            ("MEC-B3", "MEC-B4"),
            "MEC-F04: no player completes one blueprint twice (others may, L171), or a blueprint is "
            "completed once in the whole game",
        ),
        Option(
            "hole_capacity",
            "1",
            ("1", "unlimited"),
            ("MEC-W3", "MEC-T6", "MEC-T7"),
            "MEC-F08 (i): how many bots one hole holds (Trucks hold what the data says in any case)",
        ),
        Option(
            "crowded_hole",
            "extra-to-supply",
            ("extra-to-supply", "all-to-supply"),
            ("MEC-W3", "MEC-W4", "MEC-T7"),
            "MEC-F08 (ii, iii): bots arriving at a full hole or Truck go back to the supply, the most "
            "valuable kept first, or a crowded hole keeps none of the arrivals",
        ),
        Option(
            "recycled_bots",
            "any-hole",
            ("any-hole", "empty-hole"),
            ("MEC-T6", "MEC-T10", "MEC-P9"),
            "MEC-F08 (v): recycled bots go into any Start Zone hole with room (L117) or only into an "
            "empty one (publisher FAQ)",
        ),
        Option(
            "shop_rotation",
            "one-spot",
            ("one-spot", "until-full"),
            ("MEC-T8", "MEC-T9", "MEC-T10"),
            "MEC-F09: the Shop turns one spot and one improvement is drawn (L127, L131), or it keeps "
            "turning and drawing until every price spot holds one",
        ),
        Option(
            "truck_counts",
            "rulebook",
            ("rulebook", "publisher"),
            ("MEC-C1", "MEC-A3", "MEC-P6"),
            "how many Big and Huge Trucks the box holds: the rulebook's 15 and 7 (L6-7) or the publisher's 8 and 6",
        ),
    ),
)
