"""What every Globot Time Force rule reads besides the state: data set, player count, options.

Models: one bundle per game instance (`Rules`): the cards and achievement boards, the
timeline of players+1 cards (GTF-S5), the boards drawn for the player count (GTF-S7), the
reading of each option the rules branch on, each card's skills by kind, the one instance of
each distinct action, the caches of legal-action parts, and reporting a rule gap. Also the
checks and helpers several rule modules share: room in the tableau (GTF-T8), whether a
reservation may be made (GTF-T7), a skill's effects queued to resolve (GTF-T4), a card onto
the discard pile (GTF-S6).

Leaves out: the rules themselves (the rule modules).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rulecheck.core.notation import Action, ActionCache
from rulecheck.core.ops import INT_OPS
from rulecheck.games.globot_time_force import counters
from rulecheck.games.globot_time_force.actions import Reveal
from rulecheck.games.globot_time_force.components import PASSIVE, SKILL_KINDS, Effect, GameData, Requirement, Skill
from rulecheck.games.globot_time_force.options import (
    ConsecutiveTurns,
    Exhaustion,
    ExtraTurns,
    GlobotTimeForceOptions,
    IomReserved,
    LastTokenInExtraTurn,
    LockedTokenAtEnd,
    Passives,
    PassiveUses,
    ReserveWhenFull,
    SecondTurnRefill,
    TableauLimit,
    Tokens,
    TriggerSecondTurn,
)
from rulecheck.games.globot_time_force.state import Pending, Player

ops = INT_OPS


class Rules:
    """The facts of one game instance that the rules read, and its caches."""

    def __init__(
        self, data: GameData, players: int, options: GlobotTimeForceOptions, rule_gap: Callable[[str, str, Any], None]
    ) -> None:
        self.data = data
        self.cards = data.cards
        self.players = players
        self.row = players + 1
        self.board_count = data.boards_by_players[players - 1]
        self.options = options
        self.hard_limit = options.tableau_limit is TableauLimit.HARD
        self.uses_token = options.tokens is not Tokens.ASSISTANT
        self.reservation_limit = counters.TOKENS if options.tokens is Tokens.THREE_RESERVATIONS else 1
        self.gear_reading = options.gear_payment
        self.mandatory_passives = options.passives is Passives.MANDATORY
        self.all_at_once = options.extra_turns is ExtraTurns.ALL_AT_ONCE
        self.one_gap = options.second_turn_refill is SecondTurnRefill.ONE_GAP
        self.iom_reserved = options.iom_reserved is IomReserved.ANY_CARD
        self.round_completes = options.exhaustion is Exhaustion.ROUND_COMPLETES
        self.reserve_needs_room = options.reserve_when_full is ReserveWhenFull.NEEDS_ROOM
        self.trigger_loses_turn = options.trigger_second_turn is TriggerSecondTurn.LOST
        self.passives_once = options.passive_uses is PassiveUses.ONCE_A_TURN
        self.locked_remain = self.uses_token and options.locked_token_at_end is LockedTokenAtEnd.REMAINING
        self.last_token_ends = options.last_token_in_extra_turn is LastTokenInExtraTurn.NO_OTHER_ACTIONS
        self.extra_turns_counted = options.consecutive_turns is ConsecutiveTurns.OUT_OF_ORDER
        self.rule_gap = rule_gap
        self.skills_of: dict[str, dict[str, tuple[Skill, ...]]] = {
            kind: {key: card.skills_of(kind) for key, card in data.cards.items()} for kind in SKILL_KINDS
        }
        """Each card's skills of each kind, by kind and then card key."""
        self.passives: dict[str, tuple[tuple[int, Requirement | None], ...]] = {
            key: tuple((i, s.requires) for i, s in enumerate(card.skills) if s.kind == PASSIVE)
            for key, card in data.cards.items()
        }
        """Each card's passive skills, as (skill index, condition) (skills.py)."""
        self.make = ActionCache()
        self.reveals = {key: self.make(Reveal, key) for key in data.cards}
        """`reveal <card>` for every card, by key (setup.py)."""
        self.payment_cache: dict[Any, tuple[Action, ...]] = {}
        """The legal payments, by what they depend on (costs.py)."""
        self.discard_actions: dict[int, tuple[Action, ...]] = {}
        """`discard 0` .. `discard n-1`, by n (cards.py)."""


def room(rules: Rules, me: Player) -> bool:
    """GTF-T8: whether `me` may gain a card into the tableau."""
    return bool(counters.tableau_room(ops, len(me.tableau), rules.hard_limit))


def may_reserve(rules: Rules, me: Player) -> bool:
    """GTF-T7: whether `me` may reserve a card."""
    return bool(
        counters.may_reserve(ops, len(me.reserved), rules.reservation_limit, me.tokens, rules.uses_token)
        and counters.reserve_has_room(ops, len(me.tableau), rules.reserve_needs_room, rules.hard_limit)
    )


def queued(card: str, effects: Sequence[Effect]) -> tuple[Pending, ...]:
    """The effects of a skill of `card`, waiting to resolve in the order printed."""
    return tuple(Pending(card, e.effect, e.amount) for e in effects)


def discarded(pile: tuple[str, ...], card: str) -> tuple[str, ...]:
    """The discard pile (a sorted multiset) with `card` added."""
    return tuple(sorted(pile + (card,)))
