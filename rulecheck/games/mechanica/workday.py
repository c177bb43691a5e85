"""Mechanica's workday around the turns: the fork commits, the run, and the end of a round.

Models: a workday begins (MEC-W1) with each player who has switches committing an exit for each of them
(MEC-A2; simultaneous dynamics written as per-player commits in seat order from the first player, each
in square order); then every factory runs at once (MEC-W2, MEC-W5, MEC-W7, MEC-P7; run.py), its changes
to the bot supply applied together. After a player's turn the next player takes hers (MEC-W8); after
the last one the end check (MEC-E1, MEC-O1: an improvement left to buy, in the Shop, the Stack or with
4 players the Extras), the blueprint refresh when one was completed (MEC-E2) and the next workday
(MEC-E3).

Leaves out: what a factory's run does (run.py) and the turn itself (steps.py and the rule modules).
"""

from __future__ import annotations

from functools import lru_cache

from rulecheck.core.clauses import touch
from rulecheck.core.errors import IllegalAction
from rulecheck.core.evolve import evolve
from rulecheck.core.notation import Action
from rulecheck.core.ops import INT_OPS
from rulecheck.games.mechanica import money
from rulecheck.games.mechanica.actions import Route
from rulecheck.games.mechanica.pieces import as_before, check_supply
from rulecheck.games.mechanica.rules import LISTINGS_KEPT, Listing, PlayRule, Rules
from rulecheck.games.mechanica.run import run_all
from rulecheck.games.mechanica.state import OVER, ROUTE, SELL, SETUP, TURN, Factory, MechanicaState


def begin_workday(rules: Rules, state: MechanicaState) -> MechanicaState:
    touch("MEC-W1")
    return _next_commit(rules, state, 0, (), state.workday + 1)


@lru_cache(maxsize=LISTINGS_KEPT)
def _switches(rules: Rules, factory: Factory) -> tuple[str, ...]:
    return rules.switches(factory)


def _due_switches(
    rules: Rules, state: MechanicaState, routes: tuple[tuple[int, str, str], ...], player: int
) -> list[str]:
    """The switches of `player` without an exit among `routes`, by square."""
    switches = _switches(rules, state.factories[player])
    if not switches or not routes:
        return list(switches)
    done = {s for p, s, _ in routes if p == player}
    return [s for s in switches if s not in done]


def _next_commit(
    rules: Rules, state: MechanicaState, player: int, routes: tuple[tuple[int, str, str], ...], workday: int
) -> MechanicaState:
    """The workday `workday` with `routes` committed: waiting for the first player from `player` on who
    has a switch to commit, or, when nobody has, after the run."""
    for p in range(player, rules.players):
        if _due_switches(rules, state, routes, p):
            return evolve(state, workday=workday, routes=routes, phase=ROUTE, player=p)
    return _run(rules, state, routes, workday)


def legal_routes(rules: Rules, state: MechanicaState, player: int) -> tuple[Action, ...]:
    factory = state.factories[player]
    square = _due_switches(rules, state, state.routes, player)[0]
    return _routes(rules, square, rules.switch_exits(factory, square))


@lru_cache(maxsize=LISTINGS_KEPT)
def _routes(rules: Rules, square: str, exits: tuple[str, ...]) -> tuple[Action, ...]:
    return tuple(rules.act(Route, square, e) for e in exits)


def _apply_route(rules: Rules, state: MechanicaState, player: int, action: Route) -> MechanicaState:
    touch("MEC-A2")
    return _next_commit(rules, state, player, state.routes + ((player, action.square, action.exit),), state.workday)


def _illegal_route(rules: Rules, state: MechanicaState, player: int, action: Route) -> IllegalAction:
    return IllegalAction("MEC-A2", "that is not the next switch's exit to choose", action)


def _run(rules: Rules, state: MechanicaState, routes: tuple[tuple[int, str, str], ...], workday: int) -> MechanicaState:
    """Every factory's run with this workday's `routes`, and the first turn of the workday."""
    touch("MEC-W2", "MEC-P7")
    if workday == 1:
        touch("MEC-W5")
    results = run_all(rules, state.factories, routes)
    supply = list(state.supply)
    for result in results:
        for model, change in result.supply_change:
            supply[rules.rank[model]] += change
    check_supply(rules, supply, state)
    touch("MEC-W7")
    return evolve(
        state,
        factories=as_before(state.factories, tuple(as_before(f, r.factory) for f, r in zip(state.factories, results))),
        supply=as_before(state.supply, tuple(supply)),
        workday=workday,
        phase=TURN,
        player=0,
        step=SELL,
        routes=(),
    )


def improvements_left(rules: Rules, state: MechanicaState) -> bool:
    """MEC-O1, MEC-E1: an improvement is left to buy (money.py)."""
    occupied = [bool(t) for t in state.shop]
    return bool(money.improvements_left(INT_OPS, state.stack, state.extras, rules.extras_after_stack, occupied))


def end_turn(rules: Rules, state: MechanicaState) -> MechanicaState:
    """The turn of `state.player` is over: the next player's turn, or the end of the round."""
    player = state.player
    turns = tuple(n + (p == player) for p, n in enumerate(state.turns))
    if player + 1 < rules.players:
        return evolve(state, turns=turns, placing=(), resume="", phase=TURN, player=player + 1, step=SELL)
    state = evolve(state, turns=turns, placing=(), resume="", phase=TURN)
    if rules.players == 1:
        rules.gap("MEC-F12", "the Single Player Chips (L12) have no rule: one player plays the same turns", state)
    touch("MEC-W8", "MEC-E1")
    if not improvements_left(rules, state):
        touch("MEC-O1")
        return evolve(state, phase=OVER)
    if state.sideways:
        touch("MEC-E2", "MEC-E3")
        stacks = tuple(pile.put_bottom([card]) for pile, card in zip(state.blueprint_stacks, state.blueprints))
        return evolve(
            state,
            blueprint_stacks=(stacks[0], stacks[1]),
            blueprints=("", ""),
            sideways=False,
            phase=SETUP,
            pending=("bp:1", "bp:2"),
            player=0,
            step=SELL,
        )
    touch("MEC-E3")
    return begin_workday(rules, evolve(state, phase=SETUP, pending=(), player=0, step=SELL))


LISTINGS: tuple[Listing, ...] = (Listing((Route,), ROUTE, None, legal_routes),)
RULES: tuple[PlayRule, ...] = (PlayRule(Route, _illegal_route, _apply_route),)
