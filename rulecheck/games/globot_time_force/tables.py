"""Globot Time Force's computed tables: what the engine measures about the rulebook's turn rules.

Models: `end-game-turns`: for each player count and each reading of the consecutive turns
and the extra turns (consecutive_turns, extra_turns, extra_turn_order), the turns the engine
plays after player 1 triggers the end by placing their third token while every other player
still holds 3 (each turn ending with a dismiss, and in a second row set each turn's player
first discarding a card whose skill grants another turn), and the longest run of consecutive
turns one player takes, counted on the trace of movers (not on the engine's counter). GTF-T13
says a player never gets a third consecutive turn (L126); GTF-E3 gives the remaining players
extra turns in player order; with one remaining player, or all of one player's extra turns in
a row, the two meet.
`gear-payment`: a player holding one gold coin (10 gears), with no energy left, and a card of
each cost from 1 to 10 in the data set (one whose skills give nothing when it is gained):
whether the engine lets them gain it with gears alone, and the gears left, under each reading
of gear_payment (GTF-R1, GTF-R6, GTF-F12).
`turn_movers` reads the player of each turn off any played game, for the same count on traces of
random play (tests/test_globot_time_force_rules.py). `rulecheck table globot-time-force NAME`
prints one.

Leaves out: turns before the trigger (the prover's no-third-consecutive-turn system covers every turn).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rulecheck.core.evolve import evolve
from rulecheck.core.game import CHANCE
from rulecheck.core.notation import Action
from rulecheck.core.progress import Progress
from rulecheck.games.globot_time_force.actions import Dismiss, EndTurn, Gain, Reserve, UseIoM
from rulecheck.games.globot_time_force.components import PASSIVE_END, WHEN_GAINED, key_of
from rulecheck.games.globot_time_force.counters import ENERGY_CAP, TOKENS
from rulecheck.games.globot_time_force.game import GlobotTimeForce
from rulecheck.games.globot_time_force.options import ConsecutiveTurns, ExtraTurnOrder, ExtraTurns, GearPayment
from rulecheck.games.globot_time_force.state import ACT, GTFState
from rulecheck.model.tables import Table, readings_differ, some_row

DISMISS = "dismiss gears"


def _settled(game: GlobotTimeForce, state: GTFState) -> GTFState:
    while game.to_move(state) == CHANCE:
        state = game.apply(state, game.legal_actions(state)[0])
    return state


GRANTS_A_TURN = key_of("Chrono Gardener")
"""A card whose discard skill gives its owner another turn (GTF-T13)."""


def end_game_movers(game: GlobotTimeForce, skill_turns: bool = False) -> list[int]:
    """The player of each turn from the trigger turn to the end: player 1 (index 0) has placed
    all their tokens, each turn ends with a dismiss; with `skill_turns`, each turn's player first
    discards a Chrono Gardener put into their tableau, whose skill grants another turn."""
    state = _settled(game, game.initial_state())
    spaces = tuple(tuple(0 for _ in range(TOKENS)) if i == 0 else () for i in range(len(state.boards)))
    trigger = evolve(state.player(0), tokens=0, placed=TOKENS)
    state = evolve(state.with_player(trigger, 0), spaces=spaces, triggered=0)
    movers = [state.current]
    while True:
        if skill_turns:
            me = state.player()
            state = state.with_player(evolve(me, tableau=(GRANTS_A_TURN, *me.tableau)))
            state = _settled(game, game.apply(state, _legal(game, state)["discard 0"]))
        legal = _legal(game, state)
        state = _settled(game, game.apply(state, legal.get(DISMISS) or next(iter(legal.values()))))
        if game.is_terminal(state):
            return movers
        movers.append(state.current)


def _legal(game: GlobotTimeForce, state: GTFState) -> dict[str, Action]:
    return {a.text: a for a in game.legal_actions(state)}


TURN_ENDING = (Gain, UseIoM, Reserve, Dismiss, EndTurn)
"""The actions that affect the timeline under timeline_actions=listed, each ending its turn (GTF-T1)."""


def turn_movers(states: Sequence[GTFState], actions: Sequence[Action]) -> list[int]:
    """The player of each turn that ends along a played game (`states` has one more than `actions`),
    read from the trace alone and not from the engine's count of turns in a row: a turn ends at a
    timeline action (GTF-T1, under timeline_actions=listed), or where the next state is another
    player's, the game's end or a refill (a turn ended by placing the last token, GTF-E3)."""
    movers = []
    for before, action, after in zip(states, actions, states[1:], strict=False):
        if before.stage != ACT:
            continue
        if isinstance(action, TURN_ENDING) or after.stage != ACT or after.current != before.current:
            movers.append(before.current)
    return movers


def longest_run(movers: list[int]) -> int:
    best = run = 0
    for i, mover in enumerate(movers):
        run = run + 1 if i and mover == movers[i - 1] else 1
        best = max(best, run)
    return best


def end_game_turns() -> Table:
    rows = []
    for players in range(2, GlobotTimeForce.max_players + 1):
        for consecutive in ConsecutiveTurns:
            for order in ExtraTurnOrder:
                for extra in ExtraTurns:
                    options = {
                        "consecutive_turns": consecutive.value,
                        "extra_turn_order": order.value,
                        "extra_turns": extra.value,
                    }
                    game = GlobotTimeForce(players, options)
                    for skill_turns in (False, True):
                        movers = end_game_movers(game, skill_turns)
                        turns = " ".join(str(m + 1) for m in movers)
                        rows.append(
                            (
                                players,
                                consecutive.value,
                                order.value,
                                extra.value,
                                skill_turns,
                                turns,
                                longest_run(movers),
                            )
                        )
    return Table(
        "end-game-turns",
        "Turns after the end is triggered (with or without a skill granting a second turn in each), and the "
        "longest run of one player's consecutive turns",
        ("GTF-T13", "GTF-E3"),
        (
            "players",
            "consecutive_turns",
            "extra_turn_order",
            "extra_turns",
            "skill turns",
            "turns (player numbers)",
            "longest run",
        ),
        tuple(rows),
        (
            some_row(
                "longest run",
                lambda run: bool(run > 2),
                "a player takes more than 2 consecutive turns",
                ("players", "consecutive_turns", "extra_turn_order", "extra_turns", "skill turns"),
            ),
        ),
    )


GOLD = (0, 0, 1)
GOLD_VALUE = 10


def gears_after_paying(reading: GearPayment, card: str) -> int | None:
    """The gears left after gaining `card` with one gold coin and no energy, as the engine allows
    it under gear_payment `reading`; None where it does not."""
    game = GlobotTimeForce(1, {"gear_payment": reading.value})
    state = _settled(game, game.initial_state())
    me = evolve(state.player(), coins=GOLD, used=ENERGY_CAP, charge=0)
    state = evolve(state.with_player(me), timeline=(card,))
    gain = {a.text: a for a in game.legal_actions(state)}.get(f"gain 0 0 {game.data.cards[card].cost} 0")
    return None if gain is None else game.apply(state, gain).players[0].gears


def gear_payment() -> Table:
    cards = GlobotTimeForce(1).data.cards
    by_cost: dict[int, str] = {}
    for key, card in sorted(cards.items()):
        quiet = not any(skill.kind in (WHEN_GAINED, PASSIVE_END) for skill in card.skills)
        if card.gainable and quiet and 1 <= card.cost <= GOLD_VALUE:
            by_cost.setdefault(card.cost, key)
    rows = []
    for cost, key in sorted(by_cost.items()):
        for reading in GearPayment:
            left = gears_after_paying(reading, key)
            rows.append((cost, key, reading.value, left is not None, "-" if left is None else left))
    return Table(
        "gear-payment",
        "A card of each cost in the data set, paid with one gold coin (10 gears) and no energy",
        ("GTF-R1", "GTF-R6"),
        ("cost", "card", "reading", "can pay", "gears left"),
        tuple(rows),
        (readings_differ("reading", within=("cost",)),),
    )


TABLES: dict[str, Callable[[GlobotTimeForce, Progress], Table]] = {
    # Each table sets every reading side by side, so none reads the game's options; each takes a
    # second or less, so none tells its progress.
    "end-game-turns": lambda game, progress: end_game_turns(),
    "gear-payment": lambda game, progress: gear_payment(),
}
