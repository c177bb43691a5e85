"""Cards moving between the timeline, the reservations, the tableau and the discard pile.

Models: a card taken from the timeline, the rest sliding (GTF-T12); a gained card going into
the tableau, its when-gained skills waiting to resolve, and under tableau_limit=forced-discard
an 8th card forcing a discard (GTF-T8, GTF-T9); reserving a timeline card, under a Globot token
unless tokens=assistant (GTF-T7, GTF-S2); paying for a reserved card on a later turn (GTF-T3c),
under iom_reserved=any-card with an IoM too (GTF-R4); discarding from the tableau, its discard
skills waiting after those of cards discarded before it (GTF-T3b, GTF-T4, GTF-S6), and under
timeline_actions=discards a discard ending the turn (GTF-T1).

Leaves out: the timeline actions that take cards (timeline.py), what the skills do (skills.py),
and the payment itself (costs.py).
"""

from __future__ import annotations

from typing import Any

from rulecheck.core.clauses import touch
from rulecheck.core.evolve import evolve
from rulecheck.core.notation import Action
from rulecheck.games.globot_time_force import costs, counters
from rulecheck.games.globot_time_force.actions import Discard, PayReserved, PayReservedIoM
from rulecheck.games.globot_time_force.components import DISCARD, DISCARD_CARD, WHEN_GAINED
from rulecheck.games.globot_time_force.context import Rules, discarded, ops, queued, room
from rulecheck.games.globot_time_force.options import TableauLimit, TimelineActions
from rulecheck.games.globot_time_force.state import ENDING, Draft, Pending, Player


def take(rules: Rules, state: Draft, slot: int, stage: str, **changes: Any) -> None:
    """The timeline card in `slot` into the mover's tableau (the rest slide, GTF-T12), with
    `changes` to the mover's other fields (what gaining it cost)."""
    card = state.timeline[slot]
    state.timeline = state.timeline[:slot] + state.timeline[slot + 1 :]
    state.stage = stage
    into_tableau(rules, state, card, **changes)


def into_tableau(rules: Rules, state: Draft, card: str, **changes: Any) -> None:
    """GTF-T9: a gained card goes into the tableau (with `changes` to the mover's other fields);
    its when-gained skills wait to resolve, and under tableau_limit=forced-discard an 8th card
    forces a discard."""
    touch("GTF-T9")
    me = state.player()
    tableau = me.tableau + (card,)
    if len(me.tableau) < counters.TABLEAU_LIMIT:
        touch("GTF-T8")
    pending = state.pending
    for skill in rules.skills_of[WHEN_GAINED][card]:
        pending += queued(card, skill.effects)
    if rules.options.tableau_limit is TableauLimit.FORCED_DISCARD and len(tableau) > counters.TABLEAU_LIMIT:
        pending += (Pending("", DISCARD_CARD),)
    state.set_player(evolve(me, tableau=tableau, **changes))
    state.pending = pending


def reserve(rules: Rules, state: Draft, slot: int) -> None:
    """GTF-T7: the timeline card in `slot` reserved (under a token unless tokens=assistant)."""
    touch("GTF-T7")
    me = state.player()
    card = state.timeline[slot]
    hand, _ = counters.tokens_after_reserve(ops, me.tokens, len(me.reserved), rules.uses_token)
    me = evolve(me, reserved=me.reserved + (card,), fresh=me.fresh + 1, tokens=hand)
    if rules.uses_token:
        touch("GTF-S2")
    state.set_player(me)
    state.timeline = state.timeline[:slot] + state.timeline[slot + 1 :]


def reserved_payments(rules: Rules, me: Player) -> list[Action]:
    """GTF-T3c: every payment for a card reserved on an earlier turn, when the tableau has room."""
    found: list[Action] = []
    if room(rules, me):
        for index in range(len(me.reserved) - me.fresh):
            found += costs.payments(rules, PayReserved, index, rules.cards[me.reserved[index]].cost, me)
            if me.iom and rules.iom_reserved:
                found.append(rules.make(PayReservedIoM, index))
    return found


def pay_reserved(rules: Rules, state: Draft, action: PayReserved) -> None:
    """GTF-T3c, GTF-T7: the reserved card paid for goes into the tableau, its token back in hand."""
    touch("GTF-T3c", "GTF-T7")
    me = state.player()
    spent = costs.paid(rules, me, action.energy, action.gears, action.charge)
    index = action.index
    hand, _ = counters.tokens_after_payment(ops, me.tokens, len(me.reserved), rules.uses_token)
    reserved = me.reserved[:index] + me.reserved[index + 1 :]
    into_tableau(rules, state, me.reserved[index], reserved=reserved, tokens=hand, **spent)


def pay_reserved_iom(rules: Rules, state: Draft, action: PayReservedIoM) -> None:
    """GTF-T3c, GTF-R4: an IoM covers the reserved card's whole cost (iom_reserved=any-card); the
    card goes into the tableau, its token back in hand."""
    touch("GTF-T3c", "GTF-T7", "GTF-R4")
    me = state.player()
    index = action.index
    hand, _ = counters.tokens_after_payment(ops, me.tokens, len(me.reserved), rules.uses_token)
    reserved = me.reserved[:index] + me.reserved[index + 1 :]
    into_tableau(rules, state, me.reserved[index], reserved=reserved, tokens=hand, iom=me.iom - 1)


def discards(rules: Rules, count: int) -> tuple[Action, ...]:
    """`discard 0` .. `discard count-1`, made once for each count."""
    found = rules.discard_actions.get(count)
    if found is None:
        found = rules.discard_actions[count] = tuple(rules.make(Discard, p) for p in range(count))
    return found


def discard_action(rules: Rules, state: Draft, action: Discard) -> None:
    """GTF-T3b: the Discard action; under timeline_actions=discards it ends the turn (GTF-T1)."""
    discard(rules, state, action.position)
    if rules.options.timeline_actions is TimelineActions.DISCARDS:
        touch("GTF-T1")
        state.stage = ENDING


def discard(rules: Rules, state: Draft, position: int) -> None:
    """GTF-T3b, GTF-T4, GTF-S6: the card goes to the discard pile; its discard skills wait, after
    those of cards discarded before it."""
    touch("GTF-T3b", "GTF-S6")
    me = state.player()
    card = me.tableau[position]
    pending = state.pending
    for skill in rules.skills_of[DISCARD][card]:
        touch("GTF-T4")
        pending += queued(card, skill.effects)
    me = evolve(me, tableau=me.tableau[:position] + me.tableau[position + 1 :])
    fired = state.fired
    if card in fired and fired.count(card) > me.tableau.count(card):
        at = fired.index(card)
        state.fired = fired[:at] + fired[at + 1 :]
    state.set_player(me)
    state.discards = discarded(state.discards, card)
    state.pending = pending
