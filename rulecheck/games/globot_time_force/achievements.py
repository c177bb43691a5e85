"""Globot tokens on achievement boards, and the end of the game they trigger.

Models: the boards a player may place a token on: a free token space, the board's
requirement met by the tableau, and under tokens_per_board=one not already holding one of
the player's tokens (GTF-E1); placing a token (GTF-T3e, GTF-E1), the third placed
triggering the end (GTF-E2), and a token placed in an extra turn (GTF-E3), which under
last_token_in_extra_turn=no-other-actions ends the turn when it leaves the player no token to
discard (L130 "they will not be able to take any other actions").

Leaves out: scoring the boards (tableau.py) and the extra turns (turns.py).
"""

from __future__ import annotations

from rulecheck.core.clauses import touch
from rulecheck.core.evolve import evolve
from rulecheck.games.globot_time_force import counters
from rulecheck.games.globot_time_force.actions import Place
from rulecheck.games.globot_time_force.context import Rules, ops
from rulecheck.games.globot_time_force.options import TokensPerBoard
from rulecheck.games.globot_time_force.state import ENDING, Draft, GTFState
from rulecheck.games.globot_time_force.tableau import meets


def placeable(rules: Rules, state: GTFState, player: int) -> list[str]:
    """The drawn boards `player` may place a token on now."""
    tableau = state.players[player].tableau
    one_each = rules.options.tokens_per_board is TokensPerBoard.ONE
    found = []
    for board, holders in zip(state.boards, state.spaces, strict=True):
        achievement = rules.data.achievements[board]
        if len(holders) >= len(achievement.spaces):
            continue
        if one_each and player in holders:
            continue
        if meets(rules.cards, achievement.requires, tableau):
            found.append(board)
    return found


def place(rules: Rules, state: Draft, action: Place) -> None:
    """The mover's token on the next free space of the board named."""
    board = action.board
    touch("GTF-T3e", "GTF-E1")
    me = state.player()
    index = state.boards.index(board)
    hand, placed = counters.tokens_after_place(ops, me.tokens, me.placed)
    me = evolve(me, tokens=hand, placed=placed)
    state.spaces = state.spaces[:index] + (state.spaces[index] + (state.current,),) + state.spaces[index + 1 :]
    state.set_player(me)
    if me.placed == counters.TOKENS and state.triggered < 0:
        touch("GTF-E2")
        state.triggered = state.current
    if state.extra:
        touch("GTF-E3")
        left = counters.tokens_to_discard(ops, me.tokens, len(me.reserved), rules.locked_remain)
        if rules.last_token_ends and not left:
            state.stage = ENDING
