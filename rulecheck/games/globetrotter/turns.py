"""Globetrotter's turn flow: action points, the end of a turn, losing and the end of the game.

Models: a turn gives one action (GT-A0), plus extra actions from stolen Treasury points
(to use now or forfeit, GT-T4) and saved ones (GT-T3; under `saved_point_use=next-turn`,
not those saved this same turn, GT-T1), never more than 4 in a row
(GT-T5). After each action settles, losses are checked (`loss_check`; a loser's pieces stay
or leave under `lost_pieces`), the game may end (`game_end`, GT-E2, GT-E3), and the turn
passes clockwise (up the seat indices) to the next player who has not lost, whose Factories
then gain a build point (GT-F1).

Leaves out: what the actions do (the rule modules).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from rulecheck.core.clauses import touch
from rulecheck.core.evolve import evolve
from rulecheck.core.ops import INT_OPS
from rulecheck.games.globetrotter.context import PLANETS_BY_PLAYERS, Rules
from rulecheck.games.globetrotter.counters import (
    ACTIONS_IN_A_ROW,
    may_act,
    spend_action,
    turn_start_points,
    usable_saved,
)
from rulecheck.games.globetrotter.options import GameEnd, LossCheck, LostPieces, SavedPointUse, TreasurySpend
from rulecheck.games.globetrotter.state import (
    B_OWNER,
    B_POINTS,
    FACTORY,
    FIELD,
    KIND_MASK,
    OVER,
    OWNER,
    OWNER_AND_KIND,
    PLAY,
    SPACE_MASK,
    TREASURY,
    UNIT_PLACE,
    GlobetrotterState,
    Turn,
    kind_bits,
    with_field,
)

# Readings compared on every step, kept as globals (why: Reading, rulecheck/core/options.py).
_NEXT_TURN: Final = SavedPointUse.NEXT_TURN
_STOLEN_FIRST: Final = TreasurySpend.STOLEN_FIRST
_FIRST_LOSS: Final = GameEnd.FIRST_LOSS
_START_OF_TURN: Final = LossCheck.START_OF_TURN
_AFTER_EVERY_ACTION: Final = LossCheck.AFTER_EVERY_ACTION

_TREASURY: Final = kind_bits(TREASURY)
_FACTORY: Final = kind_bits(FACTORY)
"""The kind bits of a Treasury's and a Factory's code (as properties/globetrotter.py reads them)."""


_GAINED: Final = tuple(turn_start_points(INT_OPS, points) for points in range(FIELD + 1))
"""GT-F1: a Factory's build points after it gains its turn's point, by its points before."""


def _owned(player: int, kind: int) -> int:
    """The owner and kind bits of `player`'s Buildings whose kind bits (`kind_bits`) are `kind`."""
    return player << B_OWNER | kind


_FACTORIES_OF: Final = tuple(_owned(player, _FACTORY) for player in range(FIELD + 1))
"""The owner and kind bits of each player's Factories (read on every step)."""


_last_saved: tuple[tuple[int, ...], dict[int, int]] = ((), {})
"""The Buildings' codes whose Treasury points were added up last, with each Treasury owner's sum.
A step of play asks for the mover's points when it spends its action and again when the action
is done, mostly on the very same tuple of Buildings (only Buildings' changes make a new one), so
they are added up once (as state._last_occupancy, kept here rather than on every state)."""


def saved_points(state: GlobetrotterState, player: int) -> int:
    """The action points `player` holds saved in Treasuries."""
    global _last_saved
    buildings, saved = _last_saved
    if buildings is not state.building_codes:
        buildings, saved = state.building_codes, {}
        for b in buildings:
            if b & KIND_MASK == _TREASURY:
                owner = b >> B_OWNER & FIELD
                saved[owner] = saved.get(owner, 0) + (b >> B_POINTS & FIELD)
        _last_saved = buildings, saved
    return saved.get(player, 0)


def set_saved_points(state: GlobetrotterState, player: int, points: int) -> GlobetrotterState:
    treasury = _owned(player, _TREASURY)
    for b in state.building_codes:
        if b & OWNER_AND_KIND == treasury:
            state = state.replace_building(b, with_field(b, B_POINTS, points))
    return state


# The turn's counters are a few small numbers, so the engine works out `may_act` and
# `spend_action` (on INT_OPS) once for each distinct set of arguments and keeps the answer. A cache
# whose answer is a plain bool or int (made so by `bool`, `int`) keys equal arguments alike, whatever
# their types (True and 1), which costs less on every call than keying by type; `_turn` keys by type,
# as the Turn it makes keeps its arguments.


@lru_cache(maxsize=None)
def _may_act(counted: int, own_used: bool, stolen: int, saved: int) -> bool:
    return bool(may_act(INT_OPS, counted, own_used, stolen, saved))


@lru_cache(maxsize=None)
def _spent(turn: Turn, usable: int, stolen_first: bool) -> tuple[Turn, int]:
    """`spend_action` on a turn and the Treasury points usable: the turn with the action counted (the
    Turn with these counters shared where nothing else is kept on it), and the points usable after.
    Few distinct turns occur, and a Turn's hash is kept on it, so each answer is worked out once."""
    counted, own_used, stolen, usable_after = spend_action(
        INT_OPS, turn.counted, turn.own_used, turn.stolen, usable, stolen_first
    )
    if turn.arrived or turn.saved_now or turn.rover is not None:
        spent = Turn(
            turn.player, turn.taken + 1, counted, own_used, stolen, False, turn.arrived, turn.saved_now, turn.rover
        )
    else:
        spent = _turn(turn.player, turn.taken + 1, counted, own_used, stolen)
    return spent, int(usable_after)


@lru_cache(maxsize=None, typed=True)
def _turn(player: int, taken: int, counted: int, own_used: bool, stolen: int) -> Turn:
    """The Turn with these counters: few distinct ones occur, so each is made once and shared."""
    return Turn(player, taken, counted, own_used, stolen)


_BEGUN: Final = tuple(_turn(player, 0, 0, False, 0) for player in range(max(PLANETS_BY_PLAYERS)))
"""Each seat's Turn as it begins, `_turn`'s own, looked up by seat (most steps of play begin a turn)."""


@lru_cache(maxsize=None)
def _usable_saved(saved: int, saved_now: int, next_turn: bool) -> int:
    return int(usable_saved(INT_OPS, saved, saved_now, next_turn))


def usable_points(rules: Rules, state: GlobetrotterState, turn: Turn) -> int:
    """The Treasury points the player to move may spend now (`saved_point_use`, GT-T1)."""
    next_turn = rules.options.saved_point_use is _NEXT_TURN
    return _usable_saved(saved_points(state, turn.player), turn.saved_now, next_turn)


def can_act(rules: Rules, state: GlobetrotterState) -> bool:
    turn = state.turn
    assert turn is not None
    return _may_act(turn.counted, turn.own_used, turn.stolen, usable_points(rules, state, turn))


def spend(rules: Rules, state: GlobetrotterState) -> tuple[GlobetrotterState, Turn]:
    """Count one action and use the point it costs: the state with the point paid (a saved point
    taken from the Treasury, if one pays; else the very same state), its turn as it was, and the
    turn with the action counted. The action's effect reads the paid state and the turn goes in
    after it (`counted_turn`), so that a step makes no state for the spending alone."""
    turn = state.turn
    assert turn is not None
    usable = usable_points(rules, state, turn)
    spent, usable_after = _spent(turn, usable, rules.options.treasury_spend is _STOLEN_FIRST)
    if usable_after != usable:
        touch("GT-T3")
        state = set_saved_points(state, turn.player, saved_points(state, turn.player) - (usable - usable_after))
    if spent.stolen != turn.stolen:
        touch("GT-T4")
    touch("GT-A0")
    return state, spent


def counted_turn(spent: Turn, after: GlobetrotterState) -> Turn:
    """The turn after an action whose effect made `after`, changing its turn, from the paid state
    (`spend`): the action counted as in `spent`, and what the effect changed in the turn (Rovers
    arrived, points saved, the Rover that acted) kept. (An effect that leaves the turn as it was
    leaves `spent` the turn after.)"""
    turn = after.turn
    assert turn is not None
    return Turn(
        spent.player,
        spent.taken,
        spent.counted,
        spent.own_used,
        spent.stolen,
        False,
        turn.arrived,
        turn.saved_now,
        turn.rover,
    )


def has_lost(state: GlobetrotterState, player: int) -> bool:
    """GT-E1: no Rover on any planet (orbit does not count) and no Factory."""
    touch("GT-E1")
    for r in state.rover_codes:
        if r >> OWNER & FIELD == player and r >> UNIT_PLACE & SPACE_MASK:
            return False
    return not _has_factory(state, player)


def _has_factory(state: GlobetrotterState, player: int) -> bool:
    factory = _FACTORIES_OF[player]
    for b in state.building_codes:
        if b & OWNER_AND_KIND == factory:
            return True
    return False


_last_standing: tuple[tuple[int, ...], frozenset[int]] = ((), frozenset())
"""The Rovers' codes whose owners on a planet's surface `losing` found last, with them (at first, of
no Rovers): a step that moves no Rover hands on the very same tuple, so they are found once."""


def losing(state: GlobetrotterState, players: Sequence[int]) -> list[int]:
    """Those of `players` who meet GT-E1 (`has_lost`), in their order, reading the pieces once."""
    global _last_standing
    if players:
        touch(*("GT-E1",) * len(players))  # read for each player
    rovers, standing = _last_standing
    if rovers is not state.rover_codes:
        rovers = state.rover_codes
        standing = frozenset({r >> OWNER & FIELD for r in rovers if r >> UNIT_PLACE & SPACE_MASK})
        _last_standing = rovers, standing
    found = []
    for player in players:
        if player not in standing and not _has_factory(state, player):
            found.append(player)
    return found


def _mark_lost(rules: Rules, state: GlobetrotterState, players: list[int]) -> GlobetrotterState:
    """The state with `players` marked as lost; under `lost_pieces=removed` their pieces all leave the
    board and the orbits (a Drill Cannon leaving does not explode, a Treasury's points go with it)."""
    state = evolve(state, lost=tuple(sorted(set(state.lost) | set(players))))
    if rules.options.lost_pieces is LostPieces.STAY:
        return state
    touch("GT-E1")
    gone = set(players)
    return state.with_codes(
        rovers=[r for r in state.rover_codes if r >> OWNER & FIELD not in gone],
        fortifications=[f for f in state.fortification_codes if f >> OWNER & FIELD not in gone],
        buildings=[b for b in state.building_codes if b >> B_OWNER & FIELD not in gone],
    )


def _game_over(rules: Rules, state: GlobetrotterState) -> bool:
    if rules.options.game_end is _FIRST_LOSS:
        return bool(state.lost)
    touch("GT-E3")
    if not state.lost:
        return rules.players <= 1
    alive = [p for p in range(rules.players) if p not in state.lost]
    return len(alive) <= 1


def begin_turn(rules: Rules, state: GlobetrotterState, player: int, *, fresh: bool = False) -> GlobetrotterState:
    """Give `player` the turn: their Factories gain a point; under `loss_check=start-of-turn` a
    player who has lost is marked and skipped. `fresh`: `state` is one the step has just made and
    nobody else holds, so the turn is set on it (`settle_turn`) rather than on a copy."""
    while True:
        if rules.options.loss_check is _START_OF_TURN and has_lost(state, player):
            state = _mark_lost(rules, state, [player])
            if _game_over(rules, state):
                return evolve(state, phase=OVER, turn=None)
            player = next_player(rules, state, player)
            continue
        touch("GT-F1")
        buildings = _factories_gain_a_point(state.building_codes, player)
        settle = state.settle_turn if fresh else state.with_turn
        return settle(_BEGUN[player], PLAY, buildings)


def _factories_gain_a_point(buildings: tuple[int, ...], player: int) -> tuple[int, ...]:
    """GT-F1: the Buildings after `player`'s Factories gain their turn's point; the very same tuple
    when none changes (no Factory, or every one full), so what reads only Buildings sees no change."""
    gained: list[int] | None = None
    factory = _FACTORIES_OF[player]
    for i, b in enumerate(buildings):
        if b & OWNER_AND_KIND == factory:
            points = _GAINED[b >> B_POINTS & FIELD]
            if points != b >> B_POINTS & FIELD:
                if gained is None:
                    gained = list(buildings)
                gained[i] = with_field(b, B_POINTS, points)
    return buildings if gained is None else tuple(gained)


def next_player(rules: Rules, state: GlobetrotterState, after: int) -> int:
    """The next player clockwise who has not lost."""
    for step in range(1, rules.players + 1):
        candidate = (after + step) % rules.players
        if candidate not in state.lost:
            return candidate
    return after


def finish_action(
    rules: Rules, state: GlobetrotterState, turn: Turn | None = None, *, fresh: bool = False
) -> GlobetrotterState:
    """After an action and all its chance events: losses, the end of the game, the end of the turn.
    `turn`, if given, is the turn of `state` in place of the one it holds (`counted_turn`). `fresh`:
    `state` is the one the action's effect has just made, which nobody else holds, so the next
    turn is set on it rather than on a copy (`settle_turn`)."""
    turn = state.turn if turn is None else turn
    assert turn is not None
    for planet in state.planets:
        if not planet.destroyed:
            break
    else:
        touch("GT-E2")
        return evolve(_mark_lost(rules, state, list(range(rules.players))), phase=OVER, turn=None)
    if rules.options.loss_check is _AFTER_EVERY_ACTION:
        lost = state.lost
        newly = losing(state, [p for p in range(rules.players) if p not in lost] if lost else range(rules.players))
        if newly:
            state = _mark_lost(rules, state, newly)
    if _game_over(rules, state):
        return evolve(state, phase=OVER, turn=None)
    usable = usable_points(rules, state, turn)
    if turn.player in state.lost or not _may_act(turn.counted, turn.own_used, turn.stolen, usable):
        if turn.counted >= ACTIONS_IN_A_ROW and (turn.stolen or usable):
            touch("GT-T5")  # the cap of 4 stops a player who still holds points
        if turn.stolen:
            touch("GT-T4")
        return begin_turn(rules, state, next_player(rules, state, turn.player), fresh=fresh)
    if state.turn is turn:
        return state
    return state.settle_turn(turn) if fresh else state.with_turn(turn)
