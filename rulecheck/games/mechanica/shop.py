"""Mechanica's Shop and Blueprint Stacks: the draws into them and the Shop's rotation.

Models: each draw as a chance node: an improvement from the unseen tiles into a Shop spot (MEC-S3 at
setup, MEC-T9 after a rotation; from the Stack, or with 4 players from the Extras once the Stack is out,
MEC-S6) and a blueprint turned up from its stack (MEC-S4); the rotation (MEC-T8): one spot clockwise, a
tile in the last spot falling into the Recycler and recycled by the rotating player (MEC-T10), a draw
into the emptied 7-cost spot, Double Rotate (MEC-T11; with no Extra left it turns and puts nothing out under
`double_rotate_without_extras=rotate-again`) and, under `shop_rotation=until-full`, rotating
until every spot is filled. Setup ends with its last draw (workday.py starts the first workday); a
rotation ends the turn once the recycled bots are placed (recycling.py).

Leaves out: buying from the Shop (steps.py).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any

from rulecheck.core.clauses import touch
from rulecheck.core.evolve import evolve
from rulecheck.core.hidden import Pile
from rulecheck.core.notation import Action
from rulecheck.core.ops import INT_OPS
from rulecheck.games.mechanica import money
from rulecheck.games.mechanica.actions import Draw, Reveal
from rulecheck.games.mechanica.recycling import after_placing, to_place
from rulecheck.games.mechanica.rules import Rules
from rulecheck.games.mechanica.state import EXTRAS, SETUP, STACK, TURN, MechanicaState
from rulecheck.games.mechanica.workday import begin_workday

DRAWS_KEPT = 512
"""How many piles' draws `_draws` keeps: a pile's outcomes are a function of the game and the pile alone,
and play asks for them twice at each chance node (to choose, then to check the choice), search for many
states sharing one pile."""


@lru_cache(maxsize=DRAWS_KEPT)
def _draws(rules: Rules, pile: Pile, kind: type[Draw | Reveal]) -> tuple[tuple[Action, Fraction], ...]:
    return tuple((rules.act(kind, item), p) for item, p in pile.draw_outcomes())


def chance_outcomes(rules: Rules, state: MechanicaState) -> tuple[tuple[Action, Fraction], ...]:
    due = state.pending[0]
    if due.startswith("bp:"):
        return _draws(rules, state.blueprint_stacks[int(due[3:]) - 1], Reveal)
    return _draws(rules, state.unseen, Draw)


def apply_chance(rules: Rules, state: MechanicaState, action: Action) -> MechanicaState:
    due, rest = state.pending[0], state.pending[1:]
    if isinstance(action, Reveal):
        touch("MEC-S4")
        n = int(due[3:]) - 1
        stacks = list(state.blueprint_stacks)
        stacks[n] = stacks[n].without_top(action.card)
        shown = list(state.blueprints)
        shown[n] = action.card
        state = evolve(state, blueprint_stacks=(stacks[0], stacks[1]), blueprints=(shown[0], shown[1]), pending=rest)
    else:
        assert isinstance(action, Draw)
        source, spot = due.split(":")
        touch("MEC-S3" if state.phase == SETUP else "MEC-T9")
        shop = list(state.shop)
        shop[int(spot)] = action.tile
        state = evolve(
            state,
            unseen=state.unseen.without_top(action.tile),
            stack=state.stack - (source == STACK),
            extras=state.extras - (source == EXTRAS),
            shop=tuple(shop),
            pending=rest,
        )
        if state.phase == TURN and not rest:
            return _after_rotation(rules, state)
    if state.phase == SETUP and not state.pending:
        return begin_workday(rules, state)
    return state


def _turn_once(rules: Rules, state: MechanicaState, **changes: Any) -> MechanicaState:
    """One spot clockwise: a tile in the last spot falls into the Recycler and is recycled by the
    player rotating (MEC-T10); `changes` are made to the state at the same time."""
    touch("MEC-T8")
    fell = state.shop[-1]
    shop = ("",) + state.shop[:-1]
    if not fell:
        return evolve(state, shop=shop, **changes)
    touch("MEC-T10")
    return to_place(rules, state, fell, shop=shop, recycled=tuple(sorted(state.recycled + (fell,))), **changes)


def _next_draw(rules: Rules, state: MechanicaState) -> str | None:
    """The draw due for the next improvement into the 7-cost spot (`stack:0` or `extras:0`), or None
    when none is left."""
    from_stack, from_extras = money.draw_from(INT_OPS, state.stack, state.extras, rules.extras_after_stack)
    if from_stack:
        return f"{STACK}:0"
    if from_extras:
        touch("MEC-S6")
        return f"{EXTRAS}:0"
    return None


def rotate(rules: Rules, state: MechanicaState) -> MechanicaState:
    due = _next_draw(rules, state)
    if due is None:
        return _after_rotation(rules, _turn_once(rules, state))
    return _turn_once(rules, state, pending=(due,))


def _after_rotation(rules: Rules, state: MechanicaState) -> MechanicaState:
    occupied = [bool(t) for t in state.shop]
    due = money.double_rotate_due(INT_OPS, occupied, rules.double_rotate, state.extras, rules.rotate_without_extras)
    if due:
        touch("MEC-T11")
        if money.double_rotate_draws(INT_OPS, due, state.extras):
            return _turn_once(rules, state, pending=(f"{EXTRAS}:0",))
        return _after_rotation(rules, _turn_once(rules, state))
    if rules.until_full and not all(occupied):
        due = _next_draw(rules, state)
        if due is not None:
            return _turn_once(rules, state, pending=(due,))
    return after_placing(rules, state, "rotate")
