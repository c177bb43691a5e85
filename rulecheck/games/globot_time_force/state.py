"""Globot Time Force's state: immutable, hashable, and encoded by the kernel's canonical codec.

Models: the deck (a Pile: its order is chance), the achievement boards not drawn (a Pile),
the drawn boards with the players on their token spaces, the timeline (oldest card, the
one nearest the discard pile, first), the discard pile (a sorted multiset: face down, but
every card in it was seen going there), each player's tableau (in the order gained),
reservations, energy used, gear coins, charge, IoM, TEC and tokens; whose turn it is, its
stage, the skill effects waiting to resolve, and the end-game bookkeeping.

Also a step's working copy of a state (Draft), which the rule modules change in place.

Leaves out: the rules (game.py and the rule modules).
"""

from __future__ import annotations

from operator import attrgetter
from typing import Final

import attrs

from rulecheck.core.hidden import Pile

BOARDS: Final = "boards"
"""Setup: achievement boards are drawn (chance)."""
TIMELINE: Final = "timeline"
"""Setup: the timeline's first cards are drawn (chance)."""
ACT: Final = "act"
"""The player to move acts: non-timeline actions, then one timeline action."""
ENDING: Final = "ending"
"""The turn's timeline action is taken; its effects resolve, then the end-of-turn passives."""
CLOSING: Final = "closing"
"""The end-of-turn passives have been queued; when they have resolved the turn ends."""
REFILL: Final = "refill"
"""The timeline's gaps are refilled from the deck (chance)."""
OFFER: Final = "offer"
"""End game, extra_turn_choice=optional: the player takes or declines an extra turn."""
OVER: Final = "over"
DRAWS: Final = frozenset((BOARDS, TIMELINE, REFILL))
"""The stages where chance moves."""


@attrs.frozen
class Pending:
    """A skill effect waiting to resolve (or a forced discard, with `card` empty)."""

    card: str
    effect: str
    amount: int = 1


@attrs.frozen
class Player:
    tableau: tuple[str, ...] = ()
    """Card keys, in the order gained."""
    reserved: tuple[str, ...] = ()
    fresh: int = 0
    """How many of the last reservations were made this turn (they are paid on a later turn)."""
    used: int = 0
    """Energy used, 0 to 12."""
    coins: tuple[int, int, int] = (0, 0, 0)
    """Bronze (1), silver (5) and gold (10) gear coins held."""
    charge: int = 0
    iom: int = 0
    tec: int = 0
    tokens: int = 3
    """Globot tokens in hand."""
    placed: int = 0
    """Tokens on achievements."""
    spent: int = 0
    """Tokens discarded for end-game extra turns."""
    declined: bool = False
    """Declined further extra turns (extra_turn_choice=optional)."""

    @property
    def gears(self) -> int:
        bronze, silver, gold = self.coins
        return bronze + 5 * silver + 10 * gold


@attrs.frozen
class GTFState:
    stage: str
    deck: Pile
    boards_left: Pile
    boards: tuple[str, ...]
    """The drawn achievement boards, sorted (the order they were drawn in does not matter)."""
    spaces: tuple[tuple[int, ...], ...]
    """For each drawn board, the player on each filled token space, in filling order."""
    timeline: tuple[str, ...]
    discards: tuple[str, ...]
    players: tuple[Player, ...]
    current: int = 0
    in_row: int = 1
    """Consecutive turns of the current player (2 in a granted second turn)."""
    granted: bool = False
    """A skill gave the current player another turn."""
    fired: tuple[str, ...] = ()
    """Card keys whose passive skill fired this turn (a multiset, sorted)."""
    pending: tuple[Pending, ...] = ()
    refill: int = 0
    """Cards still to draw into the timeline."""
    triggered: int = -1
    """The player who triggered the end, or -1."""
    extra: bool = False
    """The current turn is an end-game extra turn."""

    def player(self, index: int | None = None) -> Player:
        return self.players[self.current if index is None else index]

    def with_player(self, player: Player, index: int | None = None) -> GTFState:
        """The state with `player` at `index` (the current player's seat)."""
        draft = Draft(self)
        draft.set_player(player, index)
        return draft.state()


_FIELDS: Final = tuple(f.name for f in attrs.fields(GTFState))
_READ: Final = attrgetter(*_FIELDS)


class Draft:
    """One step's working copy of a state: the rule modules change its fields in place, and
    `state()` makes the GTFState once the step is done (a new immutable state at every rule
    that changes something cost several states a step). The fields are GTFState's, in order."""

    __slots__ = _FIELDS
    stage: str
    deck: Pile
    boards_left: Pile
    boards: tuple[str, ...]
    spaces: tuple[tuple[int, ...], ...]
    timeline: tuple[str, ...]
    discards: tuple[str, ...]
    players: tuple[Player, ...]
    current: int
    in_row: int
    granted: bool
    fired: tuple[str, ...]
    pending: tuple[Pending, ...]
    refill: int
    triggered: int
    extra: bool

    def __init__(self, state: GTFState) -> None:
        (
            self.stage,
            self.deck,
            self.boards_left,
            self.boards,
            self.spaces,
            self.timeline,
            self.discards,
            self.players,
            self.current,
            self.in_row,
            self.granted,
            self.fired,
            self.pending,
            self.refill,
            self.triggered,
            self.extra,
        ) = _READ(state)

    def state(self) -> GTFState:
        return GTFState(
            self.stage,
            self.deck,
            self.boards_left,
            self.boards,
            self.spaces,
            self.timeline,
            self.discards,
            self.players,
            self.current,
            self.in_row,
            self.granted,
            self.fired,
            self.pending,
            self.refill,
            self.triggered,
            self.extra,
        )

    def player(self, index: int | None = None) -> Player:
        return self.players[self.current if index is None else index]

    def set_player(self, player: Player, index: int | None = None) -> None:
        """`player` in the seat `index` (the current player's seat)."""
        at = self.current if index is None else index
        self.players = self.players[:at] + (player,) + self.players[at + 1 :]
