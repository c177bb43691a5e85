"""Globot Time Force's invariants as symbolic systems for the prover, built from counters.py.

Models: for each promised property the prover handles (energy used within 0..12, the
tableau limit, at most one reservation, token conservation, no third consecutive turn, L126, or under
consecutive_turns=granted-only no third granted turn),
the variables it reads for one player, the initial condition (after setup), the claim and
every step that changes those variables, each step's guard and effect being the engine's
own function from counters.py called on Z3 terms (looked up on the module at proof time, so
what is proved is what the engine runs, and a test that replaces a guard sees the proof
fail). The option values the engine reads (the hard limit, whether reserving takes a token,
how many reservations, all tokens at once) are fixed from the game. Values a step reads but
the property does not track (a card's cost, the gears and charge held) are free variables.

Leaves out: which card is where (the cards-in-one-place property is checked in play).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulecheck.core.game import CHANCE
from rulecheck.core.notation import Action
from rulecheck.core.ops import Ops
from rulecheck.games.globot_time_force import counters
from rulecheck.games.globot_time_force.actions import Choose, Gain, Reserve, UseIoM
from rulecheck.games.globot_time_force.game import GlobotTimeForce
from rulecheck.games.globot_time_force.options import TableauLimit
from rulecheck.games.globot_time_force.state import GTFState
from rulecheck.model.proof import BOOL, INT, Step, System, Valuation, unchanged

WITNESS_STEPS = 400


def greedy_play(
    game: GlobotTimeForce, prefer: Callable[[Action], int | None], reached: Callable[[GTFState], bool]
) -> list[Action]:
    """A game played toward a goal, stopping where `reached`: at each chance node the first
    outcome, at each decision the legal action `prefer` ranks lowest (None: not wanted), else
    Recover, else the first action. A refuted system's witness: the campaign keeps it only if
    replaying it breaks the property at its last step."""
    state = game.initial_state()
    actions: list[Action] = []
    while len(actions) < WITNESS_STEPS and not game.is_terminal(state) and not reached(state):
        legal = game.legal_actions(state)
        if game.to_move(state) == CHANCE:
            action = legal[0]
        else:
            ranked = sorted((rank, a.text) for a in legal if (rank := prefer(a)) is not None)
            by_text = {a.text: a for a in legal}
            fallback = by_text.get("dismiss recover", legal[0])
            action = by_text[ranked[0][1]] if ranked else fallback
        state = game.apply(state, action)
        actions.append(action)
    return actions


def _gain_cheaply(action: Action) -> int | None:
    """Gain cards, spending as little energy as possible (gears and charge first)."""
    if isinstance(action, Gain):
        return action.energy
    return 0 if isinstance(action, UseIoM | Choose) else None


def _reserve(action: Action) -> int | None:
    return 0 if isinstance(action, Reserve) else None


ENERGY_VARIABLES = (
    ("used", INT),
    ("cost", INT),
    ("energy", INT),
    ("gears", INT),
    ("charge", INT),
    ("gears_held", INT),
    ("charge_held", INT),
    ("amount", INT),
)


def energy(game: GlobotTimeForce) -> System:
    """GTF-R5, GTF-S4: the energy used stays within 0..12."""

    def pay(ops: Ops, v: Valuation, w: Valuation) -> Any:
        return ops.and_(
            counters.can_pay(
                ops, v["cost"], v["used"], v["energy"], v["gears"], v["charge"], v["gears_held"], v["charge_held"]
            ),
            w["used"] == counters.used_after_pay(ops, v["used"], v["energy"]),
        )

    def reset(ops: Ops, v: Valuation, w: Valuation) -> Any:
        return w["used"] == counters.used_after_reset(ops, v["used"])

    def restore(ops: Ops, v: Valuation, w: Valuation) -> Any:
        return ops.and_(v["amount"] >= 1, w["used"] == counters.used_after_restore(ops, v["used"], v["amount"]))

    return System(
        "energy-in-range",
        ("GTF-R5", "GTF-S4"),
        ENERGY_VARIABLES,
        lambda ops, v: v["used"] == 0,
        lambda ops, v: ops.and_(0 <= v["used"], v["used"] <= counters.ENERGY_CAP),
        (
            Step("pay", ("GTF-R5", "GTF-R8", "GTF-T2a", "GTF-T3c"), pay),
            Step("reset", ("GTF-R3", "GTF-T2d"), reset),
            Step("restore", ("GTF-T3a",), restore),
            Step("anything-else", ("GTF-T1",), lambda ops, v, w: unchanged(ops, v, w, "used")),
        ),
    )


def tableau_limit(game: GlobotTimeForce) -> System:
    """GTF-T8: no tableau holds more than 7 cards (promised under tableau_limit=hard)."""
    hard = game.options.tableau_limit is TableauLimit.HARD

    def gain(ops: Ops, v: Valuation, w: Valuation) -> Any:
        return ops.and_(counters.tableau_room(ops, v["size"], hard), w["size"] == v["size"] + 1)

    def discard(ops: Ops, v: Valuation, w: Valuation) -> Any:
        return ops.and_(v["size"] >= 1, w["size"] == v["size"] - 1)

    return System(
        "tableau-limit",
        ("GTF-T8",),
        (("size", INT),),
        lambda ops, v: v["size"] == 0,
        lambda ops, v: v["size"] <= counters.TABLEAU_LIMIT,
        (
            Step("gain", ("GTF-T2a", "GTF-T2b", "GTF-T3c", "GTF-T9"), gain),
            Step("discard", ("GTF-T3b",), discard),
            Step("anything-else", ("GTF-T1",), lambda ops, v, w: unchanged(ops, v, w, "size")),
        ),
        lemma=lambda ops, v: v["size"] >= 0,
        witness=lambda: greedy_play(
            game, _gain_cheaply, lambda s: any(len(p.tableau) > counters.TABLEAU_LIMIT for p in s.players)
        ),
    )


TOKEN_VARIABLES = (("hand", INT), ("placed", INT), ("locked", INT), ("spent", INT), ("size", INT))
"""One player's tokens, and the tableau size the reserve guard reads (free: no step tracks it)."""


def _token_steps(game: GlobotTimeForce) -> tuple[Step, ...]:
    """How one player's tokens and reservations move (GTF-S2, GTF-T7, GTF-E1, GTF-E3)."""
    uses_token = game.rules.uses_token
    limit = game.rules.reservation_limit
    all_at_once = game.rules.all_at_once
    locked_remain = game.rules.locked_remain
    needs_room = game.rules.reserve_needs_room
    hard = game.rules.hard_limit

    def place(ops: Ops, v: Valuation, w: Valuation) -> Any:
        hand, placed = counters.tokens_after_place(ops, v["hand"], v["placed"])
        return ops.and_(
            counters.may_place(ops, v["hand"]),
            w["hand"] == hand,
            w["placed"] == placed,
            unchanged(ops, v, w, "locked", "spent"),
        )

    def reserve(ops: Ops, v: Valuation, w: Valuation) -> Any:
        hand, locked = counters.tokens_after_reserve(ops, v["hand"], v["locked"], uses_token)
        return ops.and_(
            counters.may_reserve(ops, v["locked"], limit, v["hand"], uses_token),
            counters.reserve_has_room(ops, v["size"], needs_room, hard),
            w["hand"] == hand,
            w["locked"] == locked,
            unchanged(ops, v, w, "placed", "spent"),
        )

    def pay(ops: Ops, v: Valuation, w: Valuation) -> Any:
        hand, locked = counters.tokens_after_payment(ops, v["hand"], v["locked"], uses_token)
        return ops.and_(
            v["locked"] >= 1, w["hand"] == hand, w["locked"] == locked, unchanged(ops, v, w, "placed", "spent")
        )

    def extra_turn(ops: Ops, v: Valuation, w: Valuation) -> Any:
        hand, spent = counters.tokens_after_extra_turn(ops, v["hand"], v["spent"], all_at_once)
        return ops.and_(
            v["hand"] >= 1, w["hand"] == hand, w["spent"] == spent, unchanged(ops, v, w, "placed", "locked")
        )

    def abandon(ops: Ops, v: Valuation, w: Valuation) -> Any:
        locked, spent = counters.tokens_after_abandon(ops, v["locked"], v["spent"])
        return ops.and_(
            counters.abandons_reservation(ops, v["hand"], v["locked"], locked_remain),
            w["locked"] == locked,
            w["spent"] == spent,
            unchanged(ops, v, w, "hand", "placed"),
        )

    return (
        Step("place", ("GTF-E1", "GTF-T3e"), place),
        Step("reserve", ("GTF-T2c", "GTF-T7", "GTF-S2"), reserve),
        Step("pay-reserved", ("GTF-T3c", "GTF-T7"), pay),
        Step("extra-turn", ("GTF-E3",), extra_turn),
        Step("extra-turn-on-a-locked-token", ("GTF-E3", "GTF-T7"), abandon),
    )


def _token_init(ops: Ops, v: Valuation) -> Any:
    return ops.and_(v["hand"] == counters.TOKENS, v["placed"] == 0, v["locked"] == 0, v["spent"] == 0)


def one_reservation(game: GlobotTimeForce) -> System:
    """GTF-T7: at most one reserved card (promised unless tokens=three-reservations). Under
    tokens=assistant, `locked` counts reservations without tokens; the steps are the same."""
    steps = _token_steps(game)
    if not game.rules.uses_token:
        steps = tuple(s for s in steps if s.name in ("place", "extra-turn")) + (_assistant_steps(game),)
    return System(
        "one-reservation",
        ("GTF-T7",),
        TOKEN_VARIABLES,
        _token_init,
        lambda ops, v: v["locked"] <= 1,
        steps,
        lemma=lambda ops, v: v["locked"] >= 0,
        witness=lambda: greedy_play(game, _reserve, lambda s: any(len(p.reserved) > 1 for p in s.players)),
    )


def _assistant_steps(game: GlobotTimeForce) -> Step:
    """Under tokens=assistant: reserving and paying move no token, only the reservation count."""

    def reserve_or_pay(ops: Ops, v: Valuation, w: Valuation) -> Any:
        reserve = ops.and_(
            counters.may_reserve(ops, v["locked"], game.rules.reservation_limit, v["hand"], False),
            counters.reserve_has_room(ops, v["size"], game.rules.reserve_needs_room, game.rules.hard_limit),
            w["locked"] == v["locked"] + 1,
        )
        pay = ops.and_(v["locked"] >= 1, w["locked"] == v["locked"] - 1)
        return ops.and_(ops.or_(reserve, pay), unchanged(ops, v, w, "hand", "placed", "spent"))

    return Step("reserve-or-pay", ("GTF-T2c", "GTF-T3c", "GTF-T7"), reserve_or_pay)


def tokens_conserved(game: GlobotTimeForce) -> System:
    """GTF-S2: each of the 3 tokens is in hand, on an achievement, locked on a reservation or spent."""

    def claim(ops: Ops, v: Valuation) -> Any:
        locked = v["locked"] if game.rules.uses_token else 0
        return ops.and_(
            v["hand"] + v["placed"] + locked + v["spent"] == counters.TOKENS,
            v["hand"] >= 0,
            v["placed"] >= 0,
            v["locked"] >= 0,
            v["spent"] >= 0,
        )

    steps = _token_steps(game)
    if not game.rules.uses_token:
        steps = tuple(s for s in steps if s.name in ("place", "extra-turn")) + (_assistant_steps(game),)
    return System("tokens-in-one-place", ("GTF-S2", "GTF-E1", "GTF-E3"), TOKEN_VARIABLES, _token_init, claim, steps)


def turns_in_a_row(game: GlobotTimeForce, claim: str) -> System:
    """GTF-T13 (L126), the count of one player's turns in a row never above 2, as the system named
    `claim`: `no-third-consecutive-turn` (L126 itself, under consecutive_turns=out-of-order, where a
    skill's granted turn and an end-game extra turn taken again by the player who just moved count
    alike) or `no-third-granted-turn` (what every reading promises: a granted turn never makes a
    third in a row; under granted-only each extra turn starts the count again, so that is all the
    proof says there)."""
    counted = game.rules.extra_turns_counted
    lost = game.rules.trigger_loses_turn

    def second_turn(ops: Ops, v: Valuation, w: Valuation) -> Any:
        return ops.and_(
            v["granted"],
            counters.granted_turn_taken(ops, v["in_row"], v["trigger"], lost),
            w["in_row"] == counters.turns_in_row(ops, v["in_row"], True),
        )

    def next_player(ops: Ops, v: Valuation, w: Valuation) -> Any:
        return w["in_row"] == counters.turns_in_row(ops, v["in_row"], False)

    def extra_turn(ops: Ops, v: Valuation, w: Valuation) -> Any:
        in_row = counters.extra_turns_in_row(ops, v["in_row"], v["same"], counted)
        return ops.and_(counters.turn_allowed(ops, in_row), w["in_row"] == in_row)

    return System(
        claim,
        ("GTF-T13",),
        (("in_row", INT), ("granted", BOOL), ("same", BOOL), ("trigger", BOOL)),
        lambda ops, v: v["in_row"] == 1,
        lambda ops, v: ops.and_(1 <= v["in_row"], v["in_row"] <= counters.TURNS_IN_A_ROW),
        (
            Step("second-turn", ("GTF-T13",), second_turn),
            Step("next-turn", ("GTF-T14",), next_player),
            Step("extra-turn", ("GTF-E3", "GTF-T13"), extra_turn),
            Step("anything-else", ("GTF-T1",), lambda ops, v, w: unchanged(ops, v, w, "in_row")),
        ),
    )


def systems(game: GlobotTimeForce) -> tuple[System, ...]:
    """Every system; L126's own claim only where the engine counts every out-of-order turn."""
    turns = [turns_in_a_row(game, "no-third-granted-turn")]
    if game.rules.extra_turns_counted:
        turns.append(turns_in_a_row(game, "no-third-consecutive-turn"))
    return (energy(game), tableau_limit(game), one_reservation(game), tokens_conserved(game), *turns)
