"""Paying for cards, and the actions on energy and gears alone: TEC and the gear exchange.

Models: every mix of energy, gears and charge that pays a cost, the energy used never above
12 and the gears payable as coins under `gear_payment` (GTF-R1, GTF-R5..R8); the player
after paying; a TEC resetting the energy used (GTF-T3d, GTF-R3); and, under
gear_exchange=on, the exchange of gears for charge (GTF-R2). The legal payments are worked
out once for each distinct cost and purse, and kept.

Leaves out: the arithmetic itself (counters.py for energy and charge, payment.py for the
coins), and which card is paid for (cards.py, timeline.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rulecheck.core.clauses import touch
from rulecheck.core.evolve import evolve
from rulecheck.core.notation import Action
from rulecheck.games.globot_time_force import counters, payment
from rulecheck.games.globot_time_force.actions import Exchange, Gain, PayReserved, UseTEC
from rulecheck.games.globot_time_force.context import Rules, ops
from rulecheck.games.globot_time_force.state import Draft, Player

CACHE_LIMIT = 20_000
"""Entries the per-game cache of payments keeps before it starts afresh."""


def payments(
    rules: Rules, cls: type[Gain] | type[PayReserved], first: int, cost: int, me: Player
) -> tuple[Action, ...]:
    """The actions of `cls` (for the card `first` names) that pay `cost` (GTF-R5..R8), worked out
    once for each purse and kept. Working them out touches no clause; paying does (`paid`)."""
    cache = rules.payment_cache
    key = (cls, first, cost, me.used, me.coins, me.charge)
    found = cache.get(key)
    if found is None:
        if len(cache) >= CACHE_LIMIT:
            cache.clear()
        found = cache[key] = tuple(_list_payments(rules, cls, first, cost, me))
    return found


def _list_payments(
    rules: Rules, cls: type[Gain] | type[PayReserved], first: int, cost: int, me: Player
) -> Iterator[Action]:
    held = me.gears
    for energy in range(min(cost, counters.ENERGY_CAP - me.used) + 1):
        for charge in range(min(me.charge, cost - energy) + 1):
            gears = cost - energy - charge
            if gears > held:
                continue
            if counters.can_pay(ops, cost, me.used, energy, gears, charge, held, me.charge) and (
                payment.after_paying(me.coins, gears, rules.gear_reading) is not None
            ):
                yield rules.make(cls, first, energy, gears, charge)


def paid(rules: Rules, me: Player, energy: int, gears: int, charge: int) -> dict[str, Any]:
    """GTF-R5..R8: the fields of `me` that paying changes, as they are after paying (the card
    paid for goes into the tableau in the same change of the player)."""
    for clause, amount in (("GTF-R5", energy), ("GTF-R6", gears), ("GTF-R7", charge)):
        if amount:
            touch(clause)
    if sum(map(bool, (energy, gears, charge))) > 1:
        touch("GTF-R8")
    if gears:
        touch("GTF-R1")
    coins = payment.after_paying(me.coins, gears, rules.gear_reading)
    assert coins is not None
    return {"used": counters.used_after_pay(ops, me.used, energy), "coins": coins, "charge": me.charge - charge}


def use_tec(rules: Rules, state: Draft, action: UseTEC) -> None:
    """GTF-T3d, GTF-R3: a TEC resets the energy used."""
    touch("GTF-T3d", "GTF-R3")
    me = state.player()
    state.set_player(evolve(me, tec=me.tec - 1, used=counters.used_after_reset(ops, me.used)))


def exchanged(rules: Rules, me: Player) -> tuple[int, int, int] | None:
    """GTF-R2: the coins left after the gear exchange, or None if `me` cannot pay it."""
    return payment.after_paying(me.coins, rules.data.exchange_gears, rules.gear_reading)


def exchange(rules: Rules, state: Draft, action: Exchange) -> None:
    """GTF-R2: gears for charge."""
    touch("GTF-R2")
    me = state.player()
    coins = exchanged(rules, me)
    assert coins is not None
    state.set_player(evolve(me, coins=coins, charge=me.charge + rules.data.exchange_charge))
