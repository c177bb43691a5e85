"""Mechanica's arithmetic on counters, written once over `ops` for the engine and for Z3.

Models: paying from the Wallet (MEC-T2, MEC-A2, MEC-A3), selling into it (MEC-T1), whether a Fork or a Truck
is in stock (MEC-A2, MEC-A3), putting money into the Vault (MEC-B1, MEC-B2 and the Gift Wrapper), when Double
Rotate is due and whether it puts out an Extra (MEC-T11), how many arriving bots a hole or Truck keeps
(MEC-F08 under `crowded_hole`), where the next improvement is drawn from (MEC-S6, MEC-T9, MEC-T11), whether
any improvement is left to buy (MEC-O1, MEC-E1), and the ranking function of the Shop that falls every turn
(MEC-F03's termination argument). The engine calls these with INT_OPS; symbolic.py calls the same functions
with Z3 terms.

Leaves out: which bots and which squares (the factory run, run.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rulecheck.core.ops import Ops


def can_pay(ops: Ops, wallet: Any, price: Any) -> Any:
    """MEC-T2, MEC-A2, MEC-A3: a purchase is paid from the Wallet alone, so it must hold the price."""
    return ops.and_(price >= 0, wallet >= price)


def in_stock(ops: Ops, left: Any, always: Any) -> Any:
    """MEC-A2, MEC-A3: a Fork or a Truck may be bought when it is always buyable (`fork_supply`,
    `truck_counts` = always-buyable, L151, L163) or while the box still holds one (`left` of them)."""
    return ops.or_(always, left > 0)


def paid(ops: Ops, wallet: Any, price: Any) -> Any:
    """The Wallet after paying `price`."""
    return wallet - price


def sold(ops: Ops, wallet: Any, value: Any) -> Any:
    """MEC-T1: a sold bot's value goes into the Wallet."""
    return wallet + value


def vaulted(ops: Ops, vault: Any, amount: Any) -> Any:
    """MEC-B1, MEC-B2: money goes into the Vault and never out (amounts are never negative)."""
    return vault + ops.max(amount, 0)


def kept(ops: Ops, held: Any, arriving: Any, capacity: Any, keep_some: Any) -> Any:
    """MEC-F08: how many of `arriving` bots a hole or Truck holding `held` of `capacity` keeps: as many
    as fit (`crowded_hole=extra-to-supply`) or, if they do not all fit, none (`all-to-supply`)."""
    room = ops.max(capacity - held, 0)
    return ops.ite(arriving <= room, arriving, ops.ite(keep_some, room, 0))


def draw_from(ops: Ops, stack: Any, extras: Any, extras_when_stack_out: Any) -> tuple[Any, Any]:
    """MEC-T9, MEC-S6: the next improvement comes from the Stack, or, once it is out and the Extras are
    in play (4 players), from the Extras. Returns (from the Stack, from the Extras)."""
    from_stack = stack > 0
    return from_stack, ops.and_(ops.not_(from_stack), extras_when_stack_out, extras > 0)


def double_rotate_due(ops: Ops, occupied: Sequence[Any], allowed: Any, extras: Any, without_extras: Any) -> Any:
    """MEC-T11: after rotating, the Shop's only improvement is in the 7-cost spot, Double Rotate applies
    (2-3 players, `extras_small_games=double-rotate`) and an Extra is left, or the Shop rotates a second
    time without one (`without_extras`: `double_rotate_without_extras=rotate-again`)."""
    return ops.and_(allowed, occupied[0], *(ops.not_(o) for o in occupied[1:]), ops.or_(without_extras, extras > 0))


def double_rotate_draws(ops: Ops, due: Any, extras: Any) -> Any:
    """MEC-T11: a due Double Rotate puts out an Extra when one is left."""
    return ops.and_(due, extras > 0)


def improvements_left(ops: Ops, stack: Any, extras: Any, extras_count: Any, occupied: Sequence[Any]) -> Any:
    """MEC-O1, MEC-E1: an improvement is left to buy: in the Shop, in the Stack, or (with 4 players)
    in the Extras. Trucks and Forks are not improvements here (MEC-F03)."""
    return ops.or_(stack > 0, ops.and_(extras_count, extras > 0), *occupied)


def shop_rank(ops: Ops, stack: Any, extras: Any, occupied: Sequence[Any]) -> Any:
    """The ranking function of MEC-F03: every tile still to be drawn weighs one more than the spots of
    the Shop, and a tile in the Shop weighs the spots it has still to pass to reach the Recycler."""
    spots = len(occupied)
    return (spots + 1) * (stack + extras) + sum((ops.ite(o, spots - i, 0) for i, o in enumerate(occupied)), 0)
