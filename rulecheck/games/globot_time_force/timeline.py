"""The timeline actions: the one action of a turn that ends it (GTF-T1, GTF-T2).

Models: gaining a timeline card by paying its cost (GTF-T2a) or with an IoM (GTF-T2b,
GTF-R4), reserving one (GTF-T2c), dismissing the oldest card for an energy reset or 3 gears
(GTF-T2d, GTF-T2e, GTF-T11, GTF-T16); an event card, which cannot be gained or reserved
(GTF-T10); and, under turn_end=voluntary or with the timeline empty, ending the turn
without one (GTF-T1; an empty timeline is rule gap GTF-G2).

Leaves out: where the cards go (cards.py), paying (costs.py), and what follows the end of
the turn (turns.py).
"""

from __future__ import annotations

from typing import Final

from rulecheck.core.clauses import touch
from rulecheck.core.evolve import evolve
from rulecheck.core.notation import Action
from rulecheck.games.globot_time_force import cards, costs, counters, payment
from rulecheck.games.globot_time_force.actions import Dismiss, EndTurn, Gain, Reserve, UseIoM
from rulecheck.games.globot_time_force.context import Rules, discarded, may_reserve, ops, room
from rulecheck.games.globot_time_force.options import TurnEnd
from rulecheck.games.globot_time_force.state import ENDING, Draft, GTFState, Player

RECOVER: Final = "recover"
"""Dismiss for an energy reset (GTF-T2d)."""
GEARS: Final = "gears"
"""Dismiss for 3 gears (GTF-T2e)."""
REWARDS: Final = (GEARS, RECOVER)


DISMISSALS: Final = (Dismiss(RECOVER), Dismiss(GEARS))
END_TURN: Final = EndTurn()


def legal(rules: Rules, state: GTFState, me: Player) -> list[Action]:
    """The timeline actions open to `me`, the player to move."""
    make = rules.make
    found: list[Action] = []
    has_room = room(rules, me)
    reserving = may_reserve(rules, me)
    by_key = rules.cards
    for slot, key in enumerate(state.timeline):
        card = by_key[key]
        if not card.gainable:
            touch("GTF-T10")
            continue
        if has_room:
            found += costs.payments(rules, Gain, slot, card.cost, me)
            if me.iom:
                found.append(make(UseIoM, slot))
        if reserving:
            found.append(make(Reserve, slot))
    if state.timeline:
        found += DISMISSALS
    if rules.options.turn_end is TurnEnd.VOLUNTARY or not state.timeline:
        found.append(END_TURN)
    return found


def gain(rules: Rules, state: Draft, action: Gain) -> None:
    touch("GTF-T2a")
    spent = costs.paid(rules, state.player(), action.energy, action.gears, action.charge)
    cards.take(rules, state, action.slot, ENDING, **spent)


def use_iom(rules: Rules, state: Draft, action: UseIoM) -> None:
    touch("GTF-T2b", "GTF-R4")
    cards.take(rules, state, action.slot, ENDING, iom=state.player().iom - 1)


def reserve(rules: Rules, state: Draft, action: Reserve) -> None:
    touch("GTF-T2c")
    cards.reserve(rules, state, action.slot)
    state.stage = ENDING


def dismiss(rules: Rules, state: Draft, action: Dismiss) -> None:
    touch("GTF-T11", "GTF-T16")
    me = state.player()
    if action.reward == RECOVER:
        touch("GTF-T2d")
        me = evolve(me, used=counters.used_after_reset(ops, me.used))
    else:
        touch("GTF-T2e")
        me = evolve(me, coins=payment.gained(me.coins, counters.DISMISS_GEARS))
    state.set_player(me)
    state.discards = discarded(state.discards, state.timeline[0])
    state.timeline = state.timeline[1:]
    state.stage = ENDING


def end_turn(rules: Rules, state: Draft, action: EndTurn) -> None:
    touch("GTF-T1")
    if state.timeline:
        touch("GTF-T16")
    else:
        rules.rule_gap("GTF-G2", "the timeline is empty: no timeline action can end the turn", state.state())
    state.stage = ENDING
