"""Globot Time Force's flow between actions: effects resolving, the end of a turn, refills, the
next turn and the end game's extra turns.

Models: after each step, the waiting effects resolve in order, those needing a choice waiting
for it (one with nothing to choose is dropped); setup moving from the board draws to the
timeline to the first turn; the end of a turn: its end-of-turn passives (GTF-T6, GTF-T15),
charge expiring under charge=expires, a granted second turn at once (under
trigger_second_turn=lost not after the turn that triggered the end) but never a third
consecutive turn (GTF-T13, L126; under consecutive_turns=out-of-order an end-game extra turn
taken again by the player who just moved counts too, and one that would be a third in a row is
not taken, its token discarded), else the timeline sliding and its gaps refilled (all of them,
or after a double turn under second_turn_refill=one-gap one; GTF-T12); an empty deck (rule gap
GTF-G1); the next player in order (GTF-T14); after the end is triggered, the other players'
extra turns, each begun by discarding a token, or under extra_turns=all-at-once all of them
(GTF-E3), taken in turn or under extra_turn_order=consecutive one player's in a row, and under
extra_turn_choice=optional taken or declined; the game's end when no extra turn remains
(GTF-E4; tokens left then are rule gap GTF-F05), or when deck and timeline are empty (GTF-G2;
under exhaustion=round-completes once the last player in seat order has had their turn).

Leaves out: what the actions and effects do (the rule modules), and scoring (tableau.py).
"""

from __future__ import annotations

from rulecheck.core.clauses import touch
from rulecheck.core.evolve import evolve
from rulecheck.games.globot_time_force import counters, skills
from rulecheck.games.globot_time_force.actions import ExtraTurn
from rulecheck.games.globot_time_force.components import CHOICE_EFFECTS
from rulecheck.games.globot_time_force.context import Rules, discarded, ops
from rulecheck.games.globot_time_force.options import Charge, ExtraTurnChoice, ExtraTurnOrder
from rulecheck.games.globot_time_force.state import (
    ACT,
    BOARDS,
    CLOSING,
    ENDING,
    OFFER,
    OVER,
    REFILL,
    TIMELINE,
    Draft,
    GTFState,
)


def advance(rules: Rules, state: Draft) -> None:
    """`state` moved on to the next point where a player or chance acts."""
    while True:
        stage = state.stage
        if stage == BOARDS:
            if len(state.boards) < rules.board_count:
                return
            state.stage = TIMELINE
        elif stage in (TIMELINE, REFILL):
            want = rules.row - len(state.timeline) if stage == TIMELINE else state.refill
            if want > 0 and state.deck.layers:  # a pile's layers are never empty
                return
            if want > 0:
                rules.rule_gap("GTF-G1", "the deck is empty: the timeline cannot be filled", state.state())
            if stage == TIMELINE:
                _begin(state, 0, 1, False)
            else:
                _next_turn(rules, state)
        elif stage in (ACT, ENDING, CLOSING):
            if state.pending:
                first = state.pending[0]
                if first.effect not in CHOICE_EFFECTS:
                    state.pending = state.pending[1:]
                    skills.effect(state, first)
                    continue
                if skills.options(rules, state, first):
                    return
                state.pending = state.pending[1:]
                continue
            if stage == ACT:
                return
            if stage == ENDING:
                _end_passives(rules, state)
            else:
                _finish(rules, state)
        else:
            return


def _end_passives(rules: Rules, state: Draft) -> None:
    """GTF-T15: the end-of-turn passives wait to resolve before the turn ends."""
    touch("GTF-T15")
    pending = skills.end_passives(rules, state)
    if not pending:
        _finish(rules, state)
        return
    state.pending = pending
    state.stage = CLOSING


def _finish(rules: Rules, state: Draft) -> None:
    """The turn is over: charge may expire; a granted second turn follows at once, never a
    third (GTF-T13); otherwise the timeline slides and its gaps are refilled (GTF-T12)."""
    me = state.player()
    if rules.options.charge is Charge.EXPIRES and me.charge:
        state.set_player(evolve(me, charge=0))
    if state.granted:
        touch("GTF-T13")
        trigger_turn = state.triggered == state.current
        if counters.granted_turn_taken(ops, state.in_row, trigger_turn, rules.trigger_loses_turn):
            _begin(state, state.current, counters.turns_in_row(ops, state.in_row, True), state.extra)
            return
    touch("GTF-T12")
    missing = max(rules.row - len(state.timeline), 0)
    state.stage = REFILL
    state.refill = counters.gaps_refilled(ops, missing, state.in_row, rules.one_gap)
    state.granted = False


def _begin(state: Draft, player: int, in_row: int, extra: bool) -> None:
    me = state.players[player]
    if me.fresh:
        state.set_player(evolve(me, fresh=0), player)
    state.refill = 0
    state.stage = ACT
    state.current = player
    state.in_row = in_row
    state.granted = False
    state.fired = ()
    state.pending = ()
    state.extra = extra


def _next_turn(rules: Rules, state: Draft) -> None:
    """GTF-T14, GTF-E3, GTF-E4: the next player in order; after the trigger, the remaining
    players' extra turns; scoring when no token remains."""
    n = rules.players
    if not state.timeline and not (rules.round_completes and state.current < n - 1):
        rules.rule_gap("GTF-G2", "the deck and the timeline are empty: the game ends", state.state())
        state.stage = OVER
        state.refill = 0
        return
    if state.triggered < 0:
        touch("GTF-T14")
        _begin(state, (state.current + 1) % n, counters.turns_in_row(ops, state.in_row, False), False)
        return
    waiting = waiting_players(rules, state)
    if not waiting:
        touch("GTF-E4")
        if any(p.tokens or (rules.uses_token and p.reserved) for p in state.players):
            rules.rule_gap(
                "GTF-F05", "tokens remain (declined, or locked on a reservation) but no turn follows", state.state()
            )
        state.stage = OVER
        state.refill = 0
        return
    current = state.current
    if rules.options.extra_turn_order is ExtraTurnOrder.CONSECUTIVE and state.extra and current in waiting:
        player = current
    else:
        player = min(waiting, key=lambda q: (q - current - 1) % n)
    in_row = counters.extra_turns_in_row(ops, state.in_row, player == current, rules.extra_turns_counted)
    if not counters.turn_allowed(ops, in_row):
        touch("GTF-T13")
        _discard_tokens(rules, state, player)
        _next_turn(rules, state)
        return
    if rules.options.extra_turn_choice is ExtraTurnChoice.OPTIONAL:
        state.stage = OFFER
        state.current = player
        state.in_row = in_row
        state.pending = ()
        state.fired = ()
        state.granted = False
        state.refill = 0
        return
    _extra_turn(rules, state, player, in_row)


def waiting_players(rules: Rules, state: GTFState | Draft) -> list[int]:
    """GTF-E3: the players, besides the one who triggered the end, with a token left to discard for
    an extra turn (locked ones too under locked_token_at_end=remaining) who have not declined."""
    return [
        q
        for q, p in enumerate(state.players)
        if q != state.triggered
        and not p.declined
        and counters.tokens_to_discard(ops, p.tokens, len(p.reserved), rules.locked_remain) > 0
    ]


def _discard_tokens(rules: Rules, state: Draft, player: int) -> None:
    """GTF-E3: one token discarded for an extra turn (or, all-at-once, every token in hand); with
    none in hand, under locked_token_at_end=remaining, the token locked on the first reservation,
    the card going to the discard pile. Under consecutive_turns=out-of-order also the token of an
    extra turn that would be a third in a row (GTF-T13), which is then not taken."""
    me = state.players[player]
    if counters.abandons_reservation(ops, me.tokens, len(me.reserved), rules.locked_remain):
        touch("GTF-T7")
        _, spent = counters.tokens_after_abandon(ops, len(me.reserved), me.spent)
        reserved = me.reserved[1:]
        state.discards = discarded(state.discards, me.reserved[0])
        state.set_player(evolve(me, reserved=reserved, spent=spent, fresh=min(me.fresh, len(reserved))), player)
        return
    hand, spent = counters.tokens_after_extra_turn(ops, me.tokens, me.spent, rules.all_at_once)
    state.set_player(evolve(me, tokens=hand, spent=spent), player)


def _extra_turn(rules: Rules, state: Draft, player: int, in_row: int) -> None:
    """GTF-E3: an extra turn begins by discarding one token (or, all-at-once, every token)."""
    touch("GTF-E3")
    _discard_tokens(rules, state, player)
    _begin(state, player, in_row, True)


def answer(rules: Rules, state: Draft, action: ExtraTurn) -> None:
    """extra_turn_choice=optional: the offered extra turn taken, or declined for good (GTF-E3).
    A declined offer is no turn, but the count of turns in a row then follows the decliner (the
    state keeps no earlier mover): see docs/globot-time-force.md."""
    if action.answer == "take":
        _extra_turn(rules, state, state.current, state.in_row)
        return
    touch("GTF-E3")
    state.set_player(evolve(state.player(), declined=True))
    _next_turn(rules, state)
