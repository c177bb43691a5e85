"""Globot Time Force's variation points: each ambiguity of the rulebook as a named option.

Models: one Option per open reading of audit.md Part 2.b (GTF-F01 to F14), each default
being the most literal reading the text allows, with the clauses it reads.

Leaves out: readings nobody has asked for yet (whether an IoM may pay for the reserved
card, GTF-F09 i; who gets a starting bonus when the board numbers are not consecutive,
GTF-F15 ii): a new one is a new Option here and a branch in the rule that reads it.
"""

from __future__ import annotations

from rulecheck.core.options import Option, OptionSpace

OPTIONS = OptionSpace(
    "globot-time-force",
    (
        Option(
            "tokens",
            "pool",
            ("pool", "assistant", "three-reservations"),
            ("GTF-S2", "GTF-T7", "GTF-E1", "GTF-E2"),
            "what the 3 tokens are (GTF-F01): pool = one pool, a reservation locks one token until paid; "
            "assistant = the assistant is a separate piece, tokens only go on achievements; "
            "three-reservations = each token can reserve a card, up to 3 at a time",
        ),
        Option(
            "timeline_actions",
            "listed",
            ("listed", "skill-effects", "discards"),
            ("GTF-T1", "GTF-T2a", "GTF-T3b", "GTF-T4"),
            "which actions affect the timeline (GTF-F02): listed = only the gain, IoM, reserve and dismiss actions; "
            "skill-effects = also a skill that takes a timeline card, ending the turn at once; "
            "discards = also a tableau discard (the discard pile is part of the timeline row, L91)",
        ),
        Option(
            "turn_end",
            "timeline-action",
            ("timeline-action", "voluntary"),
            ("GTF-T1", "GTF-T16"),
            "whether a turn must end with a timeline action (GTF-F03) or may be ended without one",
        ),
        Option(
            "extra_turns",
            "per-token",
            ("per-token", "all-at-once"),
            ("GTF-E3", "GTF-E4"),
            "end-game extra turns (GTF-F05): one per remaining token, or all tokens discarded for one turn",
        ),
        Option(
            "extra_turn_choice",
            "forced",
            ("forced", "optional"),
            ("GTF-E3", "GTF-E4"),
            "whether a player must take their extra turns (GTF-F05) or may decline, keeping their tokens",
        ),
        Option(
            "extra_turn_order",
            "round-robin",
            ("round-robin", "consecutive"),
            ("GTF-E3",),
            "extra turns in player order one at a time (GTF-F05), or each player takes all of theirs in a row",
        ),
        Option(
            "second_turn_refill",
            "every-gap",
            ("every-gap", "one-gap"),
            ("GTF-T12", "GTF-T13"),
            "after a turn (a double turn too) every gap of the timeline is refilled, or only one (GTF-F06)",
        ),
        Option(
            "tableau_limit",
            "hard",
            ("hard", "forced-discard", "scoring"),
            ("GTF-T8",),
            "'up to 7 cards' (GTF-F11): hard = no gain with 7 in the tableau; forced-discard = an 8th card forces "
            "a discard; scoring = no limit in play, only the first 7 gained score",
        ),
        Option(
            "gear_payment",
            "exact",
            ("exact", "change", "no-change"),
            ("GTF-R1", "GTF-R6"),
            "paying with gears (GTF-F12): exact = coins summing exactly to the gear part; change = any value up "
            "to the gears held, change given; no-change = the fewest-value coins covering it, overpay lost",
        ),
        Option(
            "charge",
            "carries",
            ("carries", "expires"),
            ("GTF-R7",),
            "whether unspent charge carries over to later turns (nothing says it expires) or expires (GTF-F07)",
        ),
        Option(
            "passives",
            "optional",
            ("optional", "mandatory"),
            ("GTF-T3a", "GTF-T6"),
            "passive skills (GTF-F14): a non-timeline action of the owner's turn, once per turn each, optional; "
            "or mandatory, to be resolved before the turn's timeline action when their condition holds",
        ),
        Option(
            "gear_exchange",
            "off",
            ("off", "on"),
            ("GTF-R2",),
            "the gear exchange 'as a task' (GTF-F13), at the data set's rate of gears for charge",
        ),
        Option(
            "tokens_per_board",
            "any",
            ("any", "one"),
            ("GTF-E1",),
            "whether a player may put several tokens on one achievement (any open space, GTF-F08 ii) or one",
        ),
    ),
)
