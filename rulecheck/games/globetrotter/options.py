"""Globetrotter's variation points: each ambiguity of the rulebook as a named option.

Models: one option per open reading (rulebook audit Part 3.b): an enum of its readings and a
field of the record GlobetrotterOptions, whose default is the most literal reading the geometry
allows, with the clauses it reads.

Leaves out: readings nobody has asked for yet; a new one is a new option here and a
branch in the rule that reads it.
"""

from __future__ import annotations

import attrs

from rulecheck.core.options import Options, OptionSpace, Reading, option
from rulecheck.geometry.planet import DEFAULT_REMOVAL


class Removal(Reading):
    RING15 = "ring15"
    EDGE5 = "edge5"
    RING14_EDGE = "ring14-edge"
    RING14_HQ = "ring14-hq"
    RING14_SNUB = "ring14-snub"


class Shooting(Reading):
    W1 = "W1"
    W0 = "W0"
    W2 = "W2"
    W3 = "W3"
    W4 = "W4"


class Shooter(Reading):
    ROVER = "rover"
    ANY_PIECE = "any-piece"


class Cover(Reading):
    NOT_SHOOTERS = "not-shooters"
    TARGETS_OWN = "targets-own"


class FortificationCoversItself(Reading):
    NO = "no"
    YES = "yes"


class DamageAmount(Reading):
    ONE = "one"
    DIE_VALUE = "die-value"


class DrillHits(Reading):
    EVERY_PIECE = "every-piece"
    ROVER_FIRST = "rover-first"


class FortifyAdjacency(Reading):
    SPACE_ANY = "space-any"
    SPACE_OWN = "space-own"
    ROVER = "rover"


class OpenSpace(Reading):
    EMPTY = "empty"
    FRIENDLY_FORTIFICATION = "friendly-fortification"


class RepairAtFull(Reading):
    ILLEGAL = "illegal"
    LEGAL = "legal"


class CapOrbit(Reading):
    COUNTS = "counts"
    NOT_COUNTED = "not-counted"


class CapScope(Reading):
    ALL_PLANETS = "all-planets"
    THIS_PLANET = "this-planet"


class RoversPerTurn(Reading):
    ANY = "any"
    ONE = "one"


class OrbitMoves(Reading):
    DESCEND_OR_TRANSFER = "descend-or-transfer"
    DESCEND_ONLY = "descend-only"


class DescendAfterTransfer(Reading):
    NEXT_TURN = "next-turn"
    SAME_TURN = "same-turn"


class DescendAfterOrbit(Reading):
    SAME_TURN = "same-turn"
    NEXT_TURN = "next-turn"


class FireReadiness(Reading):
    AIMED_UNTIL_HITS_LAND = "aimed-until-hits-land"
    IDLE_ON_FIRING = "idle-on-firing"


class PlanetAdjacency(Reading):
    ALL = "all"
    LINE = "line"


class DestructionRoll(Reading):
    LESS = "less"
    LESS_OR_EQUAL = "less-or-equal"


class SavedPointUse(Reading):
    NEXT_TURN = "next-turn"
    SAME_TURN = "same-turn"


class TreasurySpend(Reading):
    STOLEN_FIRST = "stolen-first"
    SAVED_FIRST = "saved-first"


class PlanetTreasuries(Reading):
    TO_FIRER = "to-firer"
    LOST = "lost"


class DestroyingAction(Reading):
    COUNTS = "counts"
    EXCLUDED = "excluded"


class LossCheck(Reading):
    AFTER_EVERY_ACTION = "after-every-action"
    START_OF_TURN = "start-of-turn"


class LostPieces(Reading):
    STAY = "stay"
    REMOVED = "removed"


class GameEnd(Reading):
    LAST_STANDING = "last-standing"
    FIRST_LOSS = "first-loss"


class SetupTies(Reading):
    REROLL = "reroll"
    SEAT_ORDER = "seat-order"


@attrs.frozen
class GlobetrotterOptions(Options):
    """Every option of Globetrotter, resolved; each default is the most literal reading."""

    removal: Removal = option(
        Removal(DEFAULT_REMOVAL),
        ("GT-B1", "GT-B2"),
        "which faces around the bottom pentagon are not used (no symmetric reading removes 14)",
    )
    shooting: Shooting = option(
        Shooting.W1,
        ("GT-B5", "GT-B6", "GT-A4"),
        "shooting distance: W1 entering any pentagon counts 2; W0 plain steps; W2 only a target pentagon counts 2;"
        " W3 only pentagons passed through count 2; W4 as W1 plus 1 when shooting from a pentagon",
    )
    shooter: Shooter = option(
        Shooter.ROVER,
        ("GT-A4",),
        "which pieces may shoot: the player's Rovers on a planet, or any of their pieces on a planet",
    )
    cover: Cover = option(
        Cover.NOT_SHOOTERS,
        ("GT-A7",),
        "whose Fortification gives cover: any not the shooter's, or only the target owner's",
    )
    fortification_covers_itself: FortificationCoversItself = option(
        FortificationCoversItself.NO,
        ("GT-A7",),
        "whether a targeted Fortification 'shares a space' with itself and so has cover",
    )
    damage: DamageAmount = option(
        DamageAmount.ONE,
        ("GT-A5", "GT-A6", "GT-D2"),
        "hit points removed by a successful damage roll: 1, or the value the die shows",
    )
    drill_hits: DrillHits = option(
        DrillHits.EVERY_PIECE,
        ("GT-D2", "GT-D5"),
        "damage dealt to a space holding a Rover and a Fortification (a Drill Cannon's hits on its aim, an "
        "explosion's point on each adjacent space): each piece takes all of it, or the Rover takes it until "
        "destroyed and the rest goes to the Fortification",
    )
    fortify_adjacency: FortifyAdjacency = option(
        FortifyAdjacency.SPACE_ANY,
        ("GT-A9",),
        "what 'not adjacent to an existing Fortification' qualifies: the new space (any owner's Fortifications, or"
        " only the player's own), or the Rover",
    )
    open_space: OpenSpace = option(
        OpenSpace.EMPTY,
        ("GT-F2",),
        "which spaces are 'open' for a manufactured Rover: empty ones, or also those holding only a friendly "
        "Fortification",
    )
    repair_at_full: RepairAtFull = option(
        RepairAtFull.ILLEGAL,
        ("GT-F3",),
        "whether Repair may be taken by a Rover already at 3 hit points (spending the point for nothing)",
    )
    cap_orbit: CapOrbit = option(
        CapOrbit.COUNTS,
        ("GT-F5", "GT-SP5"),
        "whether Rovers in orbit count toward 'no more Rovers than Buildings'",
    )
    cap_scope: CapScope = option(
        CapScope.ALL_PLANETS,
        ("GT-F5", "GT-A11"),
        "whether the Rover cap counts Rovers and Buildings on all planets or on the Factory's planet",
    )
    rovers_per_turn: RoversPerTurn = option(
        RoversPerTurn.ANY,
        ("GT-F4", "GT-T3"),
        "whether the actions of a turn with extra Treasury actions may go to different Rovers ('they must choose "
        "which Rover will perform an action on their turn', L67), or the first Rover action chooses the turn's "
        "Rover for all the others; Rover actions are Move, into orbit, descend, orbit to orbit, and Shoot when "
        "only a Rover shoots",
    )
    orbit_moves: OrbitMoves = option(
        OrbitMoves.DESCEND_OR_TRANSFER,
        ("GT-SP3", "GT-SP4"),
        "whether an orbiting Rover may move to another planet's orbit (L58, L106) or only descend (L59)",
    )
    descend_after_transfer: DescendAfterTransfer = option(
        DescendAfterTransfer.NEXT_TURN,
        ("GT-SP3",),
        "whether a Rover that moved to another planet's orbit may descend in the same turn, or, as L58 says, 'in a"
        " subsequent turn'",
    )
    descend_after_orbit: DescendAfterOrbit = option(
        DescendAfterOrbit.SAME_TURN,
        ("GT-SP1", "GT-SP2", "GT-SP3"),
        "whether a Rover that moved into orbit from beside a Space Port may descend in the same turn (L57 sets no "
        "wait), or only in a later turn, as L58 says of a Rover that moved to another planet's orbit",
    )
    fire_readiness: FireReadiness = option(
        FireReadiness.AIMED_UNTIL_HITS_LAND,
        ("GT-D2", "GT-D4", "GT-D5"),
        "whether a firing Drill Cannon is still Aimed while its own hits land (so, aimed at its own space and "
        "destroyed by them, it may explode), or starts over before they land",
    )
    planet_adjacency: PlanetAdjacency = option(
        PlanetAdjacency.ALL,
        ("GT-SP3", "GT-M2"),
        "which planets' orbits are adjacent: all of them ('no concept of distance'), or planets in a line",
    )
    destruction_roll: DestructionRoll = option(
        DestructionRoll.LESS,
        ("GT-D6",),
        "the planet is destroyed when the 2d6 total is less than the fire count, or less or equal",
    )
    saved_point_use: SavedPointUse = option(
        SavedPointUse.NEXT_TURN,
        ("GT-T1", "GT-T3"),
        "whether a point saved into the Treasury may be spent in the turn it was saved (the rulebook: 'On the "
        "player's next turn, they can perform one extra action')",
    )
    treasury_spend: TreasurySpend = option(
        TreasurySpend.STOLEN_FIRST,
        ("GT-T3", "GT-T4", "GT-T5"),
        "which extra actions a player holding stolen and saved points spends first",
    )
    planet_treasuries: PlanetTreasuries = option(
        PlanetTreasuries.TO_FIRER,
        ("GT-D6", "GT-T4"),
        "whether the Treasuries a planet's destruction destroys (L79) give their points to the player whose Drill "
        "Cannon fired, as 'the player that destroyed it' (L86), or are lost with the planet",
    )
    destroying_action: DestroyingAction = option(
        DestroyingAction.COUNTS,
        ("GT-T4", "GT-T5"),
        "whether the action that destroys a Treasury counts toward the 4 consecutive actions",
    )
    loss_check: LossCheck = option(
        LossCheck.AFTER_EVERY_ACTION,
        ("GT-E1",),
        "when the loss condition is checked: after every action for every player, or at the start of each player's"
        " own turn",
    )
    lost_pieces: LostPieces = option(
        LostPieces.STAY,
        ("GT-E1",),
        "what becomes of the pieces of a player who has lost (L91 says nothing): they stay on the board, blocking, "
        "giving cover and open to shots, or they all leave it, orbit included",
    )
    game_end: GameEnd = option(
        GameEnd.LAST_STANDING,
        ("GT-E1", "GT-E2", "GT-E3"),
        "what ends the game: one player (or none) left who has not lost, or the first loss",
    )
    setup_ties: SetupTies = option(
        SetupTies.REROLL,
        ("GT-S1", "GT-S4"),
        "how a tie for the highest setup roll is settled: the tied players roll again, or the earliest seat wins",
    )


OPTIONS = OptionSpace("globetrotter", GlobetrotterOptions)
