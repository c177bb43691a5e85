"""Gear coins: which coins pay the gear part of a cost under each reading of GTF-F12.

Models: coins of value 1, 5 and 10 (GTF-R1); a gain of gears as the fewest coins (greedy);
and what paying `amount` in gears leaves under `gear_payment`: `exact`, coins whose values
add up to exactly the amount (the first such set taking the most gold, then silver);
`change`, any amount up to the value held, the rest given back as the fewest coins;
`no-change`, the set of coins of least total value that covers the amount (ties broken as
under exact), the overpayment lost. None where the amount cannot be paid.

Leaves out: energy and charge (counters.py).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from rulecheck.games.globot_time_force.options import GearPayment

VALUES: Final = (1, 5, 10)
NAMES: Final = ("bronze", "silver", "gold")
"""The coins of each value, as positions and messages name them."""
Coins = tuple[int, int, int]


def greedy(value: int) -> Coins:
    """`value` gears as the fewest coins."""
    gold, rest = divmod(value, 10)
    silver, bronze = divmod(rest, 5)
    return (bronze, silver, gold)


def value_of(coins: Coins) -> int:
    return sum(n * v for n, v in zip(coins, VALUES, strict=True))


def gained(coins: Coins, amount: int) -> Coins:
    """`coins` after gaining `amount` gears (as the fewest coins)."""
    extra = greedy(amount)
    return (coins[0] + extra[0], coins[1] + extra[1], coins[2] + extra[2])


def _subsets(coins: Coins) -> list[Coins]:
    bronze, silver, gold = coins
    return [(b, s, g) for g in range(gold, -1, -1) for s in range(silver, -1, -1) for b in range(bronze, -1, -1)]


@lru_cache(maxsize=4096)
def after_paying(coins: Coins, amount: int, reading: GearPayment) -> Coins | None:
    """The coins left after paying `amount` in gears under `reading`, or None if it cannot be paid."""
    if amount == 0:
        return coins
    if reading is GearPayment.CHANGE:
        held = value_of(coins)
        return greedy(held - amount) if amount <= held else None
    best: Coins | None = None
    for subset in _subsets(coins):
        paid = value_of(subset)
        if paid == amount or (
            reading is GearPayment.NO_CHANGE and paid > amount and (best is None or paid < value_of(best))
        ):
            best = subset
            if paid == amount:
                break
    if best is None or (reading is GearPayment.EXACT and value_of(best) != amount):
        return None
    return (coins[0] - best[0], coins[1] - best[1], coins[2] - best[2])
