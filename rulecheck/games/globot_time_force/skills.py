"""Skills: passive skills resolved on the player's say, end-of-turn passives, and the effects
waiting in `pending`.

Models: the passive skills of the mover's tableau that may resolve now, each once a turn for
each copy held (under passive_uses=unlimited as often as wanted), condition met (GTF-T3a,
GTF-T5; under passives=mandatory they must resolve before any timeline action); the end-of-turn
passives queued (GTF-T6); the choice a waiting effect offers, a timeline slot or a tableau
position (GTF-T4), and what the choice does: a forced or skill discard (GTF-T8), a card gained
from or reserved out of the timeline, under timeline_actions=skill-effects ending the turn
(GTF-T1; effects still waiting then are rule gap GTF-F02); and the effects that need no choice:
gears, charge, IoM, TEC, the energy reset and restore, and a second turn (GTF-R7, GTF-T13).

Leaves out: score skills (tableau.py), and when effects resolve (turns.py).
"""

from __future__ import annotations

from rulecheck.core.clauses import touch
from rulecheck.core.evolve import evolve
from rulecheck.games.globot_time_force import cards, counters, payment
from rulecheck.games.globot_time_force.actions import Choose, Resolve
from rulecheck.games.globot_time_force.components import (
    DISCARD_CARD,
    EXTRA_TURN,
    GAIN_CHARGE,
    GAIN_FROM_TIMELINE,
    GAIN_GEARS,
    GAIN_IOM,
    GAIN_TEC,
    PASSIVE_END,
    RESET_ENERGY,
    RESTORE_ENERGY,
)
from rulecheck.games.globot_time_force.context import Rules, may_reserve, ops, queued, room
from rulecheck.games.globot_time_force.options import TimelineActions
from rulecheck.games.globot_time_force.state import ACT, ENDING, Draft, GTFState, Pending
from rulecheck.games.globot_time_force.tableau import meets


def passives(rules: Rules, state: GTFState, once: bool = True) -> list[tuple[int, int]]:
    """The passive skills of the mover's tableau that may resolve now, as (position, skill):
    condition met, and with `once` not yet resolved this turn as often as the mover holds the
    card (GTF-T3a, GTF-T5)."""
    me = state.player()
    if me.reserved:
        touch("GTF-T5")
    tableau = me.tableau
    fired = state.fired
    found = []
    for position, key in enumerate(tableau):
        skills = rules.passives[key]
        if not skills or (once and fired and tableau[: position + 1].count(key) <= fired.count(key)):
            continue
        for index, requires in skills:
            if requires is None or meets(rules.cards, requires, tableau):
                found.append((position, index))
    return found


def resolve(rules: Rules, state: Draft, action: Resolve) -> None:
    """GTF-T3a: a passive skill's effects wait to resolve; the card has fired this turn (counted at
    most once for each copy held: under passive_uses=unlimited a further use changes nothing else)."""
    touch("GTF-T3a")
    tableau = state.player().tableau
    key = tableau[action.position]
    skill = rules.cards[key].skills[action.skill]
    if state.fired.count(key) < tableau.count(key):
        state.fired = tuple(sorted(state.fired + (key,)))
    state.pending = state.pending + queued(key, skill.effects)


def end_passives(rules: Rules, state: Draft) -> tuple[Pending, ...]:
    """GTF-T6: the effects of the mover's passive skills that trigger at the end of the turn,
    condition met."""
    me = state.player()
    if me.reserved:
        touch("GTF-T5")
    tableau = me.tableau
    pending: tuple[Pending, ...] = ()
    at_end = rules.skills_of[PASSIVE_END]
    for key in tableau:
        for skill in at_end[key]:
            if skill.requires is None or meets(rules.cards, skill.requires, tableau):
                touch("GTF-T6")
                pending += queued(key, skill.effects)
    return pending


def options(rules: Rules, state: GTFState | Draft, pending: Pending) -> tuple[int, ...]:
    """The choices a waiting effect offers: timeline slots or tableau positions."""
    me = state.player()
    if pending.effect == DISCARD_CARD:
        if not pending.card and len(me.tableau) <= counters.TABLEAU_LIMIT:
            return ()
        return tuple(range(len(me.tableau)))
    gainable = tuple(s for s, k in enumerate(state.timeline) if rules.cards[k].gainable)
    if pending.effect == GAIN_FROM_TIMELINE:
        return gainable if room(rules, me) else ()
    return gainable if may_reserve(rules, me) else ()


def choose(rules: Rules, state: Draft, action: Choose) -> None:
    """The first waiting effect takes the option chosen."""
    option = action.option
    pending = state.pending[0]
    state.pending = state.pending[1:]
    if pending.effect == DISCARD_CARD:
        if not pending.card:
            touch("GTF-T8")
        cards.discard(rules, state, option)
        return
    if pending.effect == GAIN_FROM_TIMELINE:
        cards.take(rules, state, option, state.stage)
    else:
        cards.reserve(rules, state, option)
    if rules.options.timeline_actions is TimelineActions.SKILL_EFFECTS and state.stage == ACT:
        touch("GTF-T1")
        if state.pending:
            rules.rule_gap("GTF-F02", "a skill ended the turn while mandatory skill effects still wait", state.state())
        state.stage = ENDING


def effect(state: Draft, pending: Pending) -> None:
    """An effect that needs no choice (GTF-T3a: skills of the tableau only, GTF-T5)."""
    me = state.player()
    kind, amount = pending.effect, pending.amount
    if kind == GAIN_GEARS:
        me = evolve(me, coins=payment.gained(me.coins, amount))
    elif kind == GAIN_CHARGE:
        touch("GTF-R7")
        me = evolve(me, charge=me.charge + amount)
    elif kind == GAIN_IOM:
        me = evolve(me, iom=me.iom + amount)
    elif kind == GAIN_TEC:
        me = evolve(me, tec=me.tec + amount)
    elif kind == RESET_ENERGY:
        me = evolve(me, used=counters.used_after_reset(ops, me.used))
    elif kind == RESTORE_ENERGY:
        me = evolve(me, used=counters.used_after_restore(ops, me.used, amount))
    else:
        assert kind == EXTRA_TURN
        touch("GTF-T13")
        state.granted = True
        return
    state.set_player(me)
