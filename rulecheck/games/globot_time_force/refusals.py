"""Why a player's action that is not among the legal ones is refused, in the rulebook's terms.

Models: the reason given with a refused action, for the checks a reader can follow: a timeline
slot that holds no card, an event that cannot be gained (GTF-T10), a full tableau (GTF-T8), a
reservation beyond the limit (GTF-T7) or, under reserve_when_full=needs-room, into a full
tableau (GTF-T8), a reserved card not paid on a later turn (GTF-T7), an IoM or TEC not held
(GTF-R3, GTF-R4), and a payment that does not add up to the cost (GTF-R8), spends more gears or
charge than held (GTF-R6, GTF-R7) or cannot be made of the coins held under the gear_payment
reading (GTF-R1, GTF-R6). The clause the refusal names stays the one of the action's kind
(game.py); the reason names the clause of the check that fails.

Leaves out: deciding what is legal (the legal actions do; a reason is only looked for once an
action is refused), and the energy cap, which game.py states on its own (GTF-R5). An action
none of these checks explains is refused as not legal now.
"""

from __future__ import annotations

from rulecheck.core.notation import Action
from rulecheck.core.words import counted
from rulecheck.games.globot_time_force import counters, payment
from rulecheck.games.globot_time_force.actions import Gain, PayReserved, PayReservedIoM, Reserve, UseIoM, UseTEC
from rulecheck.games.globot_time_force.context import Rules, may_reserve, ops, room
from rulecheck.games.globot_time_force.options import GearPayment
from rulecheck.games.globot_time_force.state import GTFState, Player

GEAR_READINGS = {
    GearPayment.EXACT: "coins summing exactly to the gears paid",
    GearPayment.CHANGE: "any amount up to the gears held, change given",
    GearPayment.NO_CHANGE: "the fewest-value coins covering it, overpay lost",
}


def reason(rules: Rules, state: GTFState, action: Action) -> str | None:
    """Why `action`, by the player to move in `state`, is refused; None when no check here explains it."""
    me = state.player()
    who = f"player {state.current}"
    if isinstance(action, UseTEC) and not me.tec:
        return f"{who} holds no TEC [GTF-R3]"
    if isinstance(action, Gain | UseIoM | Reserve):
        if action.slot >= len(state.timeline):
            return f"the timeline has {counted(len(state.timeline), 'card')}: slot {action.slot} holds none"
        card = rules.cards[state.timeline[action.slot]]
        if not card.gainable:
            return f"{card.name} can never be gained or reserved [GTF-T10]"
        if isinstance(action, Reserve):
            if may_reserve(rules, me):
                return None
            if not counters.reserve_has_room(ops, len(me.tableau), rules.reserve_needs_room, rules.hard_limit):
                return (
                    f"{who}'s tableau holds {len(me.tableau)} cards: under reserve_when_full=needs-room a card is "
                    "reserved only with room for it [GTF-T8]"
                )
            return f"{who} may reserve no more cards now [GTF-T7]"
    if isinstance(action, UseIoM) and not me.iom:
        return f"{who} holds no IoM [GTF-R4]"
    if isinstance(action, PayReserved | PayReservedIoM) and action.index >= len(me.reserved) - me.fresh:
        return f"{who} has no card reserved on an earlier turn at {action.index} [GTF-T7]"
    if isinstance(action, PayReservedIoM) and not rules.iom_reserved:
        return "under iom_reserved=timeline-only an IoM gains only a timeline card [GTF-R4]"
    if isinstance(action, PayReservedIoM) and not me.iom:
        return f"{who} holds no IoM [GTF-R4]"
    if isinstance(action, Gain | UseIoM | PayReserved | PayReservedIoM) and not room(rules, me):
        return f"{who}'s tableau holds {len(me.tableau)} cards, no room for another [GTF-T8]"
    if isinstance(action, Gain | PayReserved):
        key = state.timeline[action.slot] if isinstance(action, Gain) else me.reserved[action.index]
        return _payment(rules, me, rules.cards[key].name, rules.cards[key].cost, action)
    return None


def _payment(rules: Rules, me: Player, name: str, cost: int, action: Gain | PayReserved) -> str | None:
    """Why paying `cost` for `name` as `action` does fails, if it does."""
    energy, gears, charge = action.energy, action.gears, action.charge
    if energy + gears + charge != cost:
        paid = f"{energy} energy + {counted(gears, 'gear')} + {charge} charge"
        return f"{name} costs {cost}; {paid} make {energy + gears + charge} [GTF-R8]"
    if gears > me.gears:
        return f"{counted(gears, 'gear')} paid, {me.gears} held [GTF-R6]"
    if charge > me.charge:
        return f"{charge} charge paid, {me.charge} held [GTF-R7]"
    if payment.after_paying(me.coins, gears, rules.gear_reading) is None:
        held = ", ".join(f"{count} {coin}" for coin, count in zip(payment.NAMES, me.coins, strict=True) if count)
        reading = rules.gear_reading
        return (
            f"{counted(gears, 'gear')} cannot be paid from the coins held ({held}) under gear_payment={reading.value}: "
            f"{GEAR_READINGS[reading]} [GTF-R1, GTF-R6]"
        )
    return None
