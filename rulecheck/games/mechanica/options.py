"""Mechanica's options: every ambiguity of audit.md Part 4.b the engine must decide, each defaulting to
the most literal reading the text allows.

Models: the Extras in 2-3 player games (MEC-F01), when the game ends (MEC-F03), whether a blueprint is
completed once per player or once in all (MEC-F04), how many bots a hole holds and what becomes of bots that
find their hole full (MEC-F08), where recycled bots may go (MEC-F08 v, against the publisher's FAQ), the
Shop's rotation (MEC-F09), whether Forks and Trucks are always buyable (L151, L163) or only while the box
holds one, with the Big and Huge Truck counts where the rulebook and the publisher disagree, and the silent
decisions of FID #30: whether the actions of any point of a turn are allowed while recycled bots wait to be
placed, whether Double Rotate turns the Shop with no Extra left, how many exits a Fork has, who orders the
recycled bots placed, whether a bot the supply lacks is made with a stand-in (MEC-F08 vii), whether the
starting Basic Fabricator is an improvement, whether a Fork may be demolished, and whether a 1-player game
(no solo rule, MEC-F12) is played or refused.

Leaves out: gaps no option decides; the engine raises RuleGap for those in strict mode (the rule modules,
through `Rules.gap`).
"""

from __future__ import annotations

import attrs

from rulecheck.core.options import Options, OptionSpace, Reading, option


class ExtrasSmallGames(Reading):
    DOUBLE_ROTATE = "double-rotate"
    NEVER = "never"


class GameEnd(Reading):
    END_OF_WORKDAY = "end-of-workday"
    AT_ONCE = "at-once"


class BlueprintOnce(Reading):
    PER_PLAYER = "per-player"
    ONCE_IN_ALL = "once-in-all"


class HoleCapacity(Reading):
    ONE = "1"
    UNLIMITED = "unlimited"


class CrowdedHole(Reading):
    EXTRA_TO_SUPPLY = "extra-to-supply"
    ALL_TO_SUPPLY = "all-to-supply"


class RecycledBots(Reading):
    ANY_HOLE = "any-hole"
    EMPTY_HOLE = "empty-hole"


class ShopRotation(Reading):
    ONE_SPOT = "one-spot"
    UNTIL_FULL = "until-full"


class AnytimeWhilePlacing(Reading):
    ALLOWED = "allowed"
    PLACE_FIRST = "place-first"


class ForkSupply(Reading):
    ALWAYS_BUYABLE = "always-buyable"
    BOX = "box"


class DoubleRotateWithoutExtras(Reading):
    ROTATE_AGAIN = "rotate-again"
    SKIP = "skip"


class ForkExits(Reading):
    TWO = "two"
    EVERY_EXIT = "every-exit"


class RecycledOrder(Reading):
    PLAYER_CHOOSES = "player-chooses"
    PRINTED_ORDER = "printed-order"


class StartingFabricator(Reading):
    IMPROVEMENT = "improvement"
    PRINTED = "printed"


class ForkDemolish(Reading):
    NEVER = "never"
    LIKE_AN_IMPROVEMENT = "like-an-improvement"


class Solo(Reading):
    SAME_TURNS = "same-turns"
    REFUSED = "refused"


class BotShortage(Reading):
    NONE_MADE = "none-made"
    STAND_INS = "stand-ins"


class TruckCounts(Reading):
    ALWAYS_BUYABLE = "always-buyable"
    RULEBOOK = "rulebook"
    PUBLISHER = "publisher"


@attrs.frozen
class MechanicaOptions(Options):
    """Every option of Mechanica, resolved; each default is the most literal reading."""

    extras_small_games: ExtrasSmallGames = option(
        ExtrasSmallGames.DOUBLE_ROTATE,
        ("MEC-S6", "MEC-T11"),
        "MEC-F01: with 2-3 players, Double Rotate draws the Extras (L137-139) or they are never used (L50)",
    )
    game_end: GameEnd = option(
        GameEnd.END_OF_WORKDAY,
        ("MEC-O1", "MEC-E1"),
        "MEC-F03: the end is checked when play returns to the first player (L177-183) or as soon as no improvement"
        " is left to buy (L20)",
    )
    blueprint_once: BlueprintOnce = option(
        BlueprintOnce.PER_PLAYER,
        ("MEC-B3", "MEC-B4"),
        "MEC-F04: no player completes one blueprint twice (others may, L171), or a blueprint is completed once in "
        "the whole game",
    )
    hole_capacity: HoleCapacity = option(
        HoleCapacity.ONE,
        ("MEC-W3", "MEC-T6", "MEC-T7"),
        "MEC-F08 (i): how many bots one hole holds (Trucks hold what the data says in any case)",
    )
    crowded_hole: CrowdedHole = option(
        CrowdedHole.EXTRA_TO_SUPPLY,
        ("MEC-W3", "MEC-W4", "MEC-T7"),
        "MEC-F08 (ii, iii): bots arriving at a full hole or Truck go back to the supply, the most valuable kept "
        "first, or a crowded hole keeps none of the arrivals",
    )
    recycled_bots: RecycledBots = option(
        RecycledBots.ANY_HOLE,
        ("MEC-T6", "MEC-T10", "MEC-P9"),
        "MEC-F08 (v): recycled bots go into any Start Zone hole with room (L117) or only into an empty one "
        "(publisher FAQ)",
    )
    shop_rotation: ShopRotation = option(
        ShopRotation.ONE_SPOT,
        ("MEC-T8", "MEC-T9", "MEC-T10"),
        "MEC-F09: the Shop turns one spot and one improvement is drawn (L127, L131), or it keeps turning and "
        "drawing until every price spot holds one",
    )
    anytime_while_placing: AnytimeWhilePlacing = option(
        AnytimeWhilePlacing.ALLOWED,
        ("MEC-A1", "MEC-T6", "MEC-T10", "MEC-P8"),
        "blueprints, Trucks, Forks and demolishing are allowed while recycled bots wait to be placed, since they "
        'are allowed "at any point during your turn" (L143, L147), or the bots are placed before anything else',
    )
    double_rotate_without_extras: DoubleRotateWithoutExtras = option(
        DoubleRotateWithoutExtras.ROTATE_AGAIN,
        ("MEC-T11",),
        'when Double Rotate is due and no Extra is left, the Shop still "rotate[s] a second time" with nothing '
        "put out (L137), or it does not rotate again",
    )
    fork_exits: ForkExits = option(
        ForkExits.TWO,
        ("MEC-A2", "MEC-W3"),
        'a Fork sends bots "to either exit arrow of your choice" (L149): two exits, its belt\'s and one side '
        "chosen when it is bought on the middle belt, or every exit of its square (three there); improvements that "
        "send bots above or below (MEC-P5) offer every exit either way",
    )
    recycled_order: RecycledOrder = option(
        RecycledOrder.PLAYER_CHOOSES,
        ("MEC-T6", "MEC-T10"),
        'the player places the recycled bots "in any of the holes in your Start Zone" (L117) and says which bot '
        "goes into each hole, or they come in the order the data set lists them",
    )
    starting_fabricator: StartingFabricator = option(
        StartingFabricator.IMPROVEMENT,
        ("MEC-S1", "MEC-T12", "MEC-O2", "MEC-E4"),
        "the Basic Fabricator each player starts with is one of her improvements (L11, L36), so it may be demolished "
        "(L113) and its value scores (L201), or it is part of her board: never demolished, worth nothing",
    )
    fork_demolish: ForkDemolish = option(
        ForkDemolish.NEVER,
        ("MEC-T12", "MEC-P8", "MEC-A2"),
        "a Fork is never demolished, since only an installed improvement may be (L113) and the text keeps Forks "
        "apart from improvements (L143, L211-212), or it may be demolished like one, back into the box",
    )
    solo: Solo = option(
        Solo.SAME_TURNS,
        ("MEC-S6", "MEC-W7", "MEC-T11"),
        "MEC-F12: the box has Single Player Chips (L12) but no rule for them; one player plays the same turns as "
        "several (with neither Double Rotate nor the Extras), or a 1-player game is refused",
    )
    bot_shortage: BotShortage = option(
        BotShortage.NONE_MADE,
        ("MEC-T7", "MEC-T6", "MEC-T10", "MEC-P5"),
        'MEC-F08 (vii): a bot Make Bots, a gift or a recycling would take "from the supply" (L117, L123) when the '
        "supply has none of its model is not made, or a stand-in is used (the factory run's improvements use "
        "stand-ins either way, a rule gap)",
    )
    fork_supply: ForkSupply = option(
        ForkSupply.ALWAYS_BUYABLE,
        ("MEC-A2", "MEC-C1"),
        'whether a Fork is bought however many are installed, as "Forks are always buyable" says (L151), or only '
        "while the box's 10 (L13) are not all installed",
    )
    truck_counts: TruckCounts = option(
        TruckCounts.ALWAYS_BUYABLE,
        ("MEC-C1", "MEC-A3", "MEC-P6"),
        'whether a Truck is bought however many are installed, as "Trucks are always buyable" says (L163), or '
        "only while the box holds one: the rulebook's 15 Big and 7 Huge (L6-7) or the publisher's 8 and 6",
    )


OPTIONS = OptionSpace("mechanica", MechanicaOptions)
