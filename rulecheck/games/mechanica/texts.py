"""What the Mechanica rulebook's turn sentences say, as text contracts for the silent-decision
finder (rulecheck/model/texts.py), each quoting its line of mechanica.txt.

Models: Forks and Trucks bought at any point of one's turn (L143), Forks and Trucks always
buyable at their price (L151, L163), a Fork's bots sent to "either exit arrow" (L149, two
choices per Fork), recycled bots placed "in any of the holes" (L117, so which bot goes into an
empty hole is the player's choice), and no Shop left with only its 7-cost spot after rotating in
a 2-3 player game (L137). Each reads the written position (docs/mechanica.md#scenarios) and the
data set (the layout's squares, the prices), never the engine.

Leaves out: every other clause (the finder lists them as unaudited), blueprints (which bots a
Truck must hold), and the Truck upgrade (L161).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from rulecheck.model.texts import At, Choice, Never, Open, Permit, TextContract

TURN_PHASES: Final = frozenset({"turn", "place"})
"""The phases in which a player is taking her turn: its steps, and placing recycled bots in it."""


def _mover(at: At) -> int | None:
    return int(at.position["player"]) if at.position.get("phase") in TURN_PHASES else None


def _free_floor(at: At, me: int) -> list[str]:
    taken = set(at.grouped(f"players.{me}.improvements")) | set(at.player(me, "forks", []))
    return [square for square in at.data.layout.floor if square not in taken]


def _fork(at: At, me: int) -> str | None:
    """L151: a Fork costs its price and is always buyable; it goes on a free Factory Floor square."""
    free = _free_floor(at, me)
    return f"fork {free[0]}" if free and at.player(me, "wallet", 0) >= at.data.fork_price else None


def _huge_truck(at: At, me: int) -> str | None:
    """L159, L163: a Huge Truck costs its price, replaces a Small Truck, and is always buyable."""
    huge = next(t for t in at.data.trucks if t.name == "huge")
    small = [square for square, kind in at.grouped(f"players.{me}.trucks").items() if kind == "small"]
    return f"truck {small[0]} huge" if small and at.player(me, "wallet", 0) >= huge.price else None


Offer = Callable[[At, int], "str | None"]


def _permit(verb: str, offer: Offer, where: Callable[[At], bool]) -> Permit:
    """`offer` for the mover wherever `where` holds in her turn."""

    def offers(at: At) -> str | None:
        me = _mover(at)
        return None if me is None or not where(at) else offer(at, me)

    return Permit(verb, offers)


def _outside_the_buy_step(at: At) -> bool:
    """L143's "at any point during your turn" speaks of the points other than the Buy step."""
    return not (at.position.get("phase") == "turn" and at.position.get("step") == "buy")


def _in_a_step(at: At) -> bool:
    """A step of the turn (not while recycled bots wait to be placed)."""
    return at.position.get("phase") == "turn"


def _fork_installed(at: At) -> bool:
    """L113 lets an installed improvement be demolished; Forks are bought apart from the Shop's
    improvements (L143-L151), and the text does not say whether a Fork may be."""
    me = _mover(at)
    return me is not None and at.position.get("phase") == "turn" and bool(at.player(me, "forks", []))


def _on_a_fork(at: At, action: str) -> bool:
    """The action's square holds one of the mover's Forks."""
    return action.split()[1] in at.player(int(at.position["player"]), "forks", [])


def _place_choices(at: At) -> int:
    """L117: each waiting bot model may go into any empty hole of the Start Zone."""
    me = _mover(at)
    if me is None or at.position.get("phase") != "place":
        return 0
    waiting = set(at.position.get("to_place", []))
    held = at.grouped(f"players.{me}.bots")
    empty = [square for square in at.data.layout.start if not held.get(square)]
    return len(waiting) * len(empty)


def _only_seven_cost_spot(at: At) -> bool:
    """L137: in a 2-3 player game, after rotating the Shop's only improvement is not in the 7-cost spot."""
    if not 2 <= at.players <= 3 or at.verb not in {"rotate", "draw"} or at.position.get("phase") == "over":
        return False
    shop = at.position.get("shop", [])
    return bool(shop) and bool(shop[0]) and not any(shop[1:])


CONTRACTS: Final = (
    TextContract(
        "MEC-A1",
        143,
        "You can complete blueprints and buy Trucks and Forks at any point during your turn.",
        permits=(_permit("fork", _fork, _outside_the_buy_step), _permit("truck", _huge_truck, _outside_the_buy_step)),
    ),
    TextContract(
        "MEC-A2",
        151,
        "Forks cost 1. Forks are always buyable, and never change price.",
        permits=(_permit("fork", _fork, _in_a_step),),
    ),
    TextContract(
        "MEC-A3",
        163,
        "Trucks are always buyable, and never change price.",
        permits=(_permit("truck", _huge_truck, _in_a_step),),
    ),
    TextContract(
        "MEC-A2",
        149,
        "Forks let you send any bots that pass through them to either exit arrow of your choice.",
        choices=(Choice("route", lambda text: text.split()[1], at_most=2, what="a Fork's exits"),),
    ),
    TextContract(
        "MEC-T12",
        113,
        "you may demolish (discard) it to make space for new ones",
        open=(Open("demolish", _fork_installed, "whether a Fork may be demolished", _on_a_fork),),
    ),
    TextContract(
        "MEC-T6",
        117,
        "Place the bots depicted in the improvement's recycling value (bottom right corner) in any of the holes",
        choices=(
            Choice(
                "place",
                lambda text: "all",
                at_least=_place_choices,
                what="which waiting bot goes into which empty Start Zone hole",
            ),
        ),
    ),
    TextContract(
        "MEC-T11",
        137,
        "If the Shop's only improvement after rotating is in the 7-cost spot, rotate a second time",
        never=(
            Never("rotate", _only_seven_cost_spot, "the Shop's only improvement is in the 7-cost spot after rotating"),
        ),
    ),
)
