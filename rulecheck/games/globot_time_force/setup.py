"""Globot Time Force's setup and its chance draws.

Models: the players' starting resources by turn order (GTF-S1..S4, GTF-R1), the deck and the
achievement boards shuffled (Piles: their order is chance); drawing the boards for the
player count (GTF-S7) and revealing cards into the timeline, at setup (GTF-S5) and in the
refill after a turn (GTF-T12); an event card entering the timeline (rule gap GTF-G3: what
it does is not in the text).

Leaves out: when a draw is due and what follows it (turns.py).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from rulecheck.core.clauses import touch
from rulecheck.core.hidden import Pile
from rulecheck.core.notation import Action
from rulecheck.games.globot_time_force import payment
from rulecheck.games.globot_time_force.actions import DrawBoard, Reveal
from rulecheck.games.globot_time_force.context import Rules
from rulecheck.games.globot_time_force.state import BOARDS, TIMELINE, Draft, GTFState, Player


def initial_state(rules: Rules) -> GTFState:
    """The state before the first draw: no board drawn and an empty timeline."""
    touch("GTF-S1", "GTF-S2", "GTF-S3", "GTF-S4", "GTF-R1")
    data = rules.data
    players = tuple(
        Player(coins=payment.greedy(b.gears), charge=b.charge, iom=b.iom, tec=b.tec)
        for b in data.bonuses[: rules.players]
    )
    return GTFState(
        stage=BOARDS,
        deck=Pile.shuffled(data.deck_cards()),
        boards_left=Pile.shuffled(tuple(data.achievements)),
        boards=(),
        spaces=(),
        timeline=(),
        discards=(),
        players=players,
    )


def draws(rules: Rules, state: GTFState) -> tuple[tuple[Action, Fraction], ...]:
    """The outcomes of the draw due in `state`: a board, or the deck's top card."""
    if state.stage == BOARDS:
        make = rules.make
        return tuple((make(DrawBoard, b), p) for b, p in state.boards_left.draw_outcomes())
    reveals = rules.reveals
    layers = state.deck.layers
    if len(layers) != 1:
        return tuple((reveals[c], p) for c, p in state.deck.draw_outcomes())
    # The one layer of a deck nobody has put cards under: Pile.draw_outcomes, with each exact
    # probability made once (they repeat from game to game) rather than at every draw.
    top = layers[0]
    odds = _odds(sum([count for _, count in top]))
    return tuple([(reveals[c], odds[n]) for c, n in top])


@lru_cache(maxsize=None)
def _odds(total: int) -> tuple[Fraction, ...]:
    """The chance of drawing any one of `count` copies among `total` cards, at index `count`."""
    return tuple(Fraction(count, total) for count in range(total + 1))


def draw_board(rules: Rules, state: Draft, action: DrawBoard) -> None:
    """GTF-S7: the board drawn (the drawn boards are kept sorted)."""
    touch("GTF-S7")
    board = action.board
    state.boards_left = state.boards_left.without_top(board)
    state.boards = tuple(sorted(state.boards + (board,)))
    state.spaces = state.spaces + ((),)


def reveal(rules: Rules, state: Draft, action: Reveal) -> None:
    """GTF-S5, GTF-T12: the deck's top card into the timeline."""
    card = action.card
    touch("GTF-S5" if state.stage == TIMELINE else "GTF-T12")
    if rules.cards[card].event:
        rules.rule_gap("GTF-G3", f"event {card!r} entered the timeline: what it does is not in the text", state.state())
    state.deck = state.deck.without_top(card)
    state.timeline = state.timeline + (card,)
    state.refill = max(state.refill - 1, 0)
