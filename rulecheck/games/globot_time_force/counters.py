"""Globot Time Force's arithmetic on counters, written once over `ops` for the engine and for Z3.

Models: every guard and effect on energy used, the tableau size, reservations, tokens and
turns in a row: paying a cost from energy, gears and charge with the energy used never
above 12, the energy effects (pay, reset, restore), room in the tableau, reserving,
placing a token, and second turns. The engine calls these with INT_OPS; the prover calls
the same functions with Z3 terms, so what it proves is what the engine runs. Each function
names the clause it implements.

Leaves out: which cards and coins (payment.py picks the coins; costs.py and cards.py the cards).
"""

from __future__ import annotations

from typing import Any, Final

from rulecheck.core.ops import Ops

ENERGY_CAP: Final = 12  # GTF-S4, GTF-R5
TABLEAU_LIMIT: Final = 7  # GTF-T8
TOKENS: Final = 3  # GTF-S2
TURNS_IN_A_ROW: Final = 2  # GTF-T13
DISMISS_GEARS: Final = 3  # GTF-T2e


def energy_fits(ops: Ops, used: Any, energy: Any) -> Any:
    """GTF-R5: the energy used can never exceed 12."""
    return used + energy <= ENERGY_CAP


def can_pay(
    ops: Ops, cost: Any, used: Any, energy: Any, gears: Any, charge: Any, gears_held: Any, charge_held: Any
) -> Any:
    """GTF-R5..R8: energy, gears and charge, none negative, adding up to the cost, the energy
    within the cap and no more gears or charge than held."""
    return ops.and_(
        energy >= 0,
        gears >= 0,
        charge >= 0,
        energy + gears + charge == cost,
        energy_fits(ops, used, energy),
        gears <= gears_held,
        charge <= charge_held,
    )


def used_after_pay(ops: Ops, used: Any, energy: Any) -> Any:
    """GTF-R5: paying with energy moves the head up by the amount paid."""
    return used + energy


def used_after_reset(ops: Ops, used: Any) -> Any:
    """GTF-R3, GTF-T2d: a TEC, Recover or a reset skill sets the energy used to 0."""
    return used - used


def used_after_restore(ops: Ops, used: Any, amount: Any) -> Any:
    """A restore-energy skill lowers the energy used by its amount, not below 0."""
    return ops.max(used - amount, 0)


def tableau_room(ops: Ops, size: Any, hard: Any) -> Any:
    """GTF-T8: under the hard reading a card is gained only into a tableau of fewer than 7."""
    return ops.implies(hard, size < TABLEAU_LIMIT)


def may_reserve(ops: Ops, reserved: Any, limit: Any, tokens_in_hand: Any, uses_token: Any) -> Any:
    """GTF-T7, GTF-S2: fewer reservations than the limit, and a token in hand where reserving locks one."""
    return ops.and_(reserved < limit, ops.implies(uses_token, tokens_in_hand >= 1))


def reserve_has_room(ops: Ops, size: Any, needs_room: Any, hard: Any) -> Any:
    """GTF-T7, GTF-T8: under reserve_when_full=needs-room a card is reserved only into a tableau
    that has room for it; otherwise the tableau's size does not matter."""
    return ops.implies(needs_room, tableau_room(ops, size, hard))


def may_place(ops: Ops, tokens_in_hand: Any) -> Any:
    """GTF-E1: a token to place."""
    return tokens_in_hand >= 1


def second_turn_allowed(ops: Ops, in_row: Any) -> Any:
    """GTF-T13: a granted turn is taken only if it is not a third consecutive one."""
    return in_row < TURNS_IN_A_ROW


def granted_turn_taken(ops: Ops, in_row: Any, trigger_turn: Any, lost_after_trigger: Any) -> Any:
    """GTF-T13, GTF-E2: a granted turn is taken if it is not a third consecutive one and, under
    trigger_second_turn=lost, the turn that earned it did not trigger the end."""
    return ops.and_(second_turn_allowed(ops, in_row), ops.not_(ops.and_(lost_after_trigger, trigger_turn)))


def turns_in_row(ops: Ops, in_row: Any, same_player: Any) -> Any:
    """GTF-T13: the count of consecutive turns grows when the same player goes on, else starts at 1."""
    return ops.ite(same_player, in_row + 1, 1)


def extra_turns_in_row(ops: Ops, in_row: Any, same_player: Any, counted: Any) -> Any:
    """GTF-T13, GTF-E3: an end-game extra turn's place in a run of one player's turns: counted
    (consecutive_turns=out-of-order) it grows when the player who just moved goes on; not counted
    (granted-only) each extra turn starts the count again."""
    return ops.ite(counted, turns_in_row(ops, in_row, same_player), 1)


def turn_allowed(ops: Ops, in_row: Any) -> Any:
    """GTF-T13: a turn is taken only if it is not a third consecutive one."""
    return in_row <= TURNS_IN_A_ROW


def gaps_refilled(ops: Ops, missing: Any, in_row: Any, one_gap: Any) -> Any:
    """GTF-T12, GTF-T13: the timeline gaps filled as a turn ends: every one; or, where the ended
    turn was the player's second in a row and second_turn_refill=one-gap, only one (L128 "replaces
    the empty space" once both turns are over), the row staying a card short until the next refill."""
    return ops.ite(ops.and_(one_gap, in_row >= TURNS_IN_A_ROW), ops.min(missing, 1), missing)


def tokens_after_place(ops: Ops, hand: Any, placed: Any) -> tuple[Any, Any]:
    """GTF-E1: a token goes from the hand onto an achievement space. Returns (hand, placed)."""
    return hand - 1, placed + 1


def tokens_after_reserve(ops: Ops, hand: Any, locked: Any, uses_token: Any) -> tuple[Any, Any]:
    """GTF-S2, GTF-T7: where reserving takes a token, it leaves the hand for the reservation.
    Returns (hand, locked)."""
    return ops.ite(uses_token, hand - 1, hand), ops.ite(uses_token, locked + 1, locked)


def tokens_after_payment(ops: Ops, hand: Any, locked: Any, uses_token: Any) -> tuple[Any, Any]:
    """GTF-T7: paying for the reserved card returns its token. Returns (hand, locked)."""
    return ops.ite(uses_token, hand + 1, hand), ops.ite(uses_token, locked - 1, locked)


def tokens_to_discard(ops: Ops, hand: Any, locked: Any, locked_remain: Any) -> Any:
    """GTF-E3, GTF-E4: the tokens a player could still discard for an extra turn: those in hand,
    and under locked_token_at_end=remaining those locked on reservations ("When no tokens remain")."""
    return hand + ops.ite(locked_remain, locked, 0)


def abandons_reservation(ops: Ops, hand: Any, locked: Any, locked_remain: Any) -> Any:
    """GTF-E3, GTF-T7: an extra turn taken with no token in hand discards a locked one, giving up
    its reservation (locked_token_at_end=remaining)."""
    return ops.and_(locked_remain, hand == 0, locked >= 1)


def tokens_after_abandon(ops: Ops, locked: Any, spent: Any) -> tuple[Any, Any]:
    """GTF-E3: the locked token discarded for an extra turn. Returns (locked, spent)."""
    return locked - 1, spent + 1


def tokens_after_extra_turn(ops: Ops, hand: Any, spent: Any, all_at_once: Any) -> tuple[Any, Any]:
    """GTF-E3: an extra turn discards one token, or under extra_turns=all-at-once every token
    in hand. Returns (hand, spent)."""
    return ops.ite(all_at_once, 0, hand - 1), ops.ite(all_at_once, spent + hand, spent + 1)
