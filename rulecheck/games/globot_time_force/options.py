"""Globot Time Force's variation points: each ambiguity of the rulebook as a named option.

Models: one option per open reading of audit.md Part 2.b (GTF-F01 to F14), and per decision the
engine once took silently (the count of consecutive turns, L126; the last token and a locked
token in the end game; a second turn in the trigger turn; an IoM for a reserved card; reserving
into a full tableau; how often a passive resolves; an exhausted deck and timeline): an enum of
its readings and a field of the record GlobotTimeForceOptions, whose default is the most
literal reading the text allows (passive_uses and exhaustion excepted, where the literal
reading has no end: docs/globot-time-force.md), with the clauses it reads.

Leaves out: readings nobody has asked for yet (who gets a starting bonus when the board
numbers are not consecutive, GTF-F15 ii): a new one is a new option here and a branch in the
rule that reads it; and what the text decides (docs/globot-time-force.md, "Decided by the
text").
"""

from __future__ import annotations

import attrs

from rulecheck.core.options import Options, OptionSpace, Reading, option


class Tokens(Reading):
    POOL = "pool"
    ASSISTANT = "assistant"
    THREE_RESERVATIONS = "three-reservations"


class TimelineActions(Reading):
    LISTED = "listed"
    SKILL_EFFECTS = "skill-effects"
    DISCARDS = "discards"


class TurnEnd(Reading):
    TIMELINE_ACTION = "timeline-action"
    VOLUNTARY = "voluntary"


class ExtraTurns(Reading):
    PER_TOKEN = "per-token"
    ALL_AT_ONCE = "all-at-once"


class ExtraTurnChoice(Reading):
    FORCED = "forced"
    OPTIONAL = "optional"


class ExtraTurnOrder(Reading):
    ROUND_ROBIN = "round-robin"
    CONSECUTIVE = "consecutive"


class ConsecutiveTurns(Reading):
    OUT_OF_ORDER = "out-of-order"
    GRANTED_ONLY = "granted-only"


class TriggerSecondTurn(Reading):
    TAKEN = "taken"
    LOST = "lost"


class SecondTurnRefill(Reading):
    EVERY_GAP = "every-gap"
    ONE_GAP = "one-gap"


class LastTokenInExtraTurn(Reading):
    NO_OTHER_ACTIONS = "no-other-actions"
    TURN_GOES_ON = "turn-goes-on"


class LockedTokenAtEnd(Reading):
    REMAINING = "remaining"
    IGNORED = "ignored"


class IomReserved(Reading):
    ANY_CARD = "any-card"
    TIMELINE_ONLY = "timeline-only"


class ReserveWhenFull(Reading):
    ALLOWED = "allowed"
    NEEDS_ROOM = "needs-room"


class Exhaustion(Reading):
    ENDS_AT_ONCE = "ends-at-once"
    ROUND_COMPLETES = "round-completes"


class TableauLimit(Reading):
    HARD = "hard"
    FORCED_DISCARD = "forced-discard"
    SCORING = "scoring"


class GearPayment(Reading):
    EXACT = "exact"
    CHANGE = "change"
    NO_CHANGE = "no-change"


class Charge(Reading):
    CARRIES = "carries"
    EXPIRES = "expires"


class Passives(Reading):
    OPTIONAL = "optional"
    MANDATORY = "mandatory"


class PassiveUses(Reading):
    ONCE_A_TURN = "once-a-turn"
    UNLIMITED = "unlimited"


class GearExchange(Reading):
    OFF = "off"
    ON = "on"


class TokensPerBoard(Reading):
    ANY = "any"
    ONE = "one"


@attrs.frozen
class GlobotTimeForceOptions(Options):
    """Every option of Globot Time Force, resolved; each default is the most literal reading."""

    tokens: Tokens = option(
        Tokens.POOL,
        ("GTF-S2", "GTF-T7", "GTF-E1", "GTF-E2"),
        "what the 3 tokens are (GTF-F01): pool = one pool, a reservation locks one token until paid; assistant = "
        "the assistant is a separate piece, tokens only go on achievements; three-reservations = each token can "
        "reserve a card, up to 3 at a time",
    )
    timeline_actions: TimelineActions = option(
        TimelineActions.LISTED,
        ("GTF-T1", "GTF-T2a", "GTF-T3b", "GTF-T4"),
        "which actions affect the timeline (GTF-F02): listed = only the gain, IoM, reserve and dismiss actions; "
        "skill-effects = also a skill that takes a timeline card, ending the turn at once; discards = also a "
        "tableau discard (the discard pile is part of the timeline row, L91)",
    )
    turn_end: TurnEnd = option(
        TurnEnd.TIMELINE_ACTION,
        ("GTF-T1", "GTF-T16"),
        "whether a turn must end with a timeline action (GTF-F03) or may be ended without one",
    )
    extra_turns: ExtraTurns = option(
        ExtraTurns.PER_TOKEN,
        ("GTF-E3", "GTF-E4"),
        "end-game extra turns (GTF-F05): one per remaining token, or all tokens discarded for one turn",
    )
    extra_turn_choice: ExtraTurnChoice = option(
        ExtraTurnChoice.FORCED,
        ("GTF-E3", "GTF-E4"),
        "whether a player must take their extra turns (GTF-F05) or may decline, keeping their tokens",
    )
    extra_turn_order: ExtraTurnOrder = option(
        ExtraTurnOrder.ROUND_ROBIN,
        ("GTF-E3",),
        "extra turns in player order one at a time (GTF-F05), or each player takes all of theirs in a row",
    )
    consecutive_turns: ConsecutiveTurns = option(
        ConsecutiveTurns.OUT_OF_ORDER,
        ("GTF-T13", "GTF-E3"),
        "'a player can never gain a third consecutive turn during the game' (L126): out-of-order = every turn a "
        "player takes again out of player order (a skill's second turn or an end-game extra turn) counts, and an "
        "extra turn that would be a third in a row is not taken, its token discarded; granted-only = only a "
        "skill's granted turn is limited, each extra turn starts the count again",
    )
    last_token_in_extra_turn: LastTokenInExtraTurn = option(
        LastTokenInExtraTurn.NO_OTHER_ACTIONS,
        ("GTF-E1", "GTF-E3"),
        "L130 'they will not be able to take any other actions if they do not have another token to discard': "
        "no-other-actions = in an extra turn, placing a token that leaves the player none to discard ends the "
        "turn at once; turn-goes-on = the turn goes on as normal, no further extra turn following",
    )
    locked_token_at_end: LockedTokenAtEnd = option(
        LockedTokenAtEnd.REMAINING,
        ("GTF-E3", "GTF-E4", "GTF-T7"),
        "a token locked on a reservation once the end is triggered (L37, L130 'When no tokens remain'): "
        "remaining = it is a remaining token, discarded for an extra turn when none is in hand, abandoning the "
        "reservation; ignored = only tokens in hand give extra turns (the game may end with it locked); no "
        "difference where the assistant is a separate piece, as no token is locked then",
    )
    trigger_second_turn: TriggerSecondTurn = option(
        TriggerSecondTurn.TAKEN,
        ("GTF-T13", "GTF-E2"),
        "a second turn granted in the turn that triggers the end (GTF-F06 v): taken = the player completes both "
        "turns before the end game goes on (L128 'this does not occur until they've completed both turns. The "
        "next player may then take their turn as normal if the end-game trigger has not occurred'); lost = the "
        "trigger ends the double turn, the extra turns follow at once",
    )
    second_turn_refill: SecondTurnRefill = option(
        SecondTurnRefill.EVERY_GAP,
        ("GTF-T12", "GTF-T13"),
        "after a double turn (a skill's second turn, or a player's second turn in a row) every gap of the "
        "timeline is refilled, or only one, L128 'replaces the empty space' (GTF-F06 i); a single turn's end "
        "refills every gap under both",
    )
    exhaustion: Exhaustion = option(
        Exhaustion.ENDS_AT_ONCE,
        ("GTF-T12", "GTF-E4"),
        "the deck and the timeline both empty (the text is silent, rule gap GTF-G2; L37, L130 end the game only "
        "through tokens, which may never come): ends-at-once = the game ends before the next turn; "
        "round-completes = the players after the current one in seat order take their turns first (only "
        "non-timeline actions and `end`), so that every player has had as many turns",
    )
    tableau_limit: TableauLimit = option(
        TableauLimit.HARD,
        ("GTF-T8",),
        "'up to 7 cards' (GTF-F11): hard = no gain with 7 in the tableau; forced-discard = an 8th card forces a "
        "discard; scoring = no limit in play, only the first 7 gained score",
    )
    iom_reserved: IomReserved = option(
        IomReserved.ANY_CARD,
        ("GTF-R4", "GTF-T3c", "GTF-T7"),
        "whether an IoM may pay for a reserved card (GTF-F09 i): any-card = L110 'Spend an IoM to cover the "
        "entire cost of any card', a reserved card's cost being a cost to pay (L111), as a non-timeline action; "
        "timeline-only = L30/L73 'any card in the timeline' only",
    )
    reserve_when_full: ReserveWhenFull = option(
        ReserveWhenFull.ALLOWED,
        ("GTF-T7", "GTF-T8"),
        "reserving with a full tableau (GTF-F09; the text sets no condition on it, L32, L111): allowed = a card "
        "may be reserved with 7 in the tableau, to be paid once one is discarded; needs-room = only with "
        "fewer than 7 where the limit is hard",
    )
    gear_payment: GearPayment = option(
        GearPayment.EXACT,
        ("GTF-R1", "GTF-R6"),
        "paying with gears (GTF-F12): exact = coins summing exactly to the gear part; change = any value up to the"
        " gears held, change given; no-change = the fewest-value coins covering it, overpay lost",
    )
    charge: Charge = option(
        Charge.CARRIES,
        ("GTF-R7",),
        "whether unspent charge carries over to later turns (nothing says it expires) or expires (GTF-F07)",
    )
    passives: Passives = option(
        Passives.OPTIONAL,
        ("GTF-T3a", "GTF-T6"),
        "passive skills (GTF-F14): a non-timeline action of the owner's turn, once per turn each, optional; or "
        "mandatory, to be resolved before the turn's timeline action when their condition holds",
    )
    passive_uses: PassiveUses = option(
        PassiveUses.ONCE_A_TURN,
        ("GTF-T3a",),
        "how often a passive skill resolves in a turn, L34 'whenever their individual conditions are met' "
        "(GTF-F14): once-a-turn = once for each copy held; unlimited = again each time while its condition "
        "holds (where passives are mandatory only the first use of each copy is required)",
    )
    gear_exchange: GearExchange = option(
        GearExchange.OFF,
        ("GTF-R2",),
        "the gear exchange 'as a task' (GTF-F13), at the data set's rate of gears for charge",
    )
    tokens_per_board: TokensPerBoard = option(
        TokensPerBoard.ANY,
        ("GTF-E1",),
        "whether a player may put several tokens on one achievement (any open space, GTF-F08 ii) or one",
    )


OPTIONS = OptionSpace("globot-time-force", GlobotTimeForceOptions)
