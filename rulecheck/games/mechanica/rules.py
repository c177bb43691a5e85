"""What Mechanica's rules read, built once per game from its players, options and data.

Models: lookups into the data set (models by name and rank, improvements, trucks and the trucks that may
replace each, MEC-A3, squares by zone, each square's exits along the board graph), the option values as
flags, hole capacities, the switches of a factory (its Forks and the improvements whose owner chooses
their exit, MEC-A2, MEC-P5), the one instance of each distinct action (`act`), how many listings of a
factory's actions the rule modules keep (`LISTINGS_KEPT`), and the shapes of a rule module's entries: where
its actions are legal and which (`Listing`), and how one kind is checked and applied (`PlayRule`).

Leaves out: the rules' effects (run.py for the factory run, the rule modules that game.py lists for the rest).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from rulecheck.core.errors import IllegalAction
from rulecheck.core.notation import Action, ActionCache
from rulecheck.games.mechanica.data import BELT, CHOICE, DOCK, FLOOR, SMALL, START, Improvement, MechanicaData, Truck
from rulecheck.games.mechanica.options import (
    BlueprintOnce,
    BotShortage,
    CrowdedHole,
    DoubleRotateWithoutExtras,
    ExtrasSmallGames,
    ForkDemolish,
    ForkExits,
    ForkSupply,
    GameEnd,
    HoleCapacity,
    MechanicaOptions,
    RecycledBots,
    RecycledOrder,
    ShopRotation,
    StartingFabricator,
    TruckCounts,
)
from rulecheck.games.mechanica.state import Factory, MechanicaState

UNLIMITED = 10**6
"""The capacity of a hole under `hole_capacity=unlimited`: more bots than the box holds."""

LISTINGS_KEPT = 1024
"""How many listings each rule module keeps (functools.lru_cache) of the actions a player's factory
offers: each is a function of the rules, the factory and a few counters alone, and a factory outlives
many steps (every step of a turn that buys nothing, every step of the other players) and a search finds
many states sharing one."""


def _edges(graph: Any, square: str) -> list[tuple[str, str, str]]:
    return list(graph.out_edges(square, data="kind"))


def _offers(trucks: Sequence[Truck], current: str) -> tuple[tuple[str, int, int], ...]:
    found = []
    for index, truck in enumerate(trucks):
        if current == SMALL:
            found.append((truck.name, truck.price, index))
        elif current == truck.upgrade_from:
            found.append((truck.name, truck.upgrade_price, index))
    return tuple(found)


class Rules:
    def __init__(
        self, players: int, options: MechanicaOptions, data: MechanicaData, gap: Callable[[str, str, Any], None]
    ) -> None:
        self.players = players
        self.data = data
        self.gap = gap
        self.hole = UNLIMITED if options.hole_capacity is HoleCapacity.UNLIMITED else int(options.hole_capacity.value)
        self.keep_some = options.crowded_hole is CrowdedHole.EXTRA_TO_SUPPLY
        self.empty_holes_only = options.recycled_bots is RecycledBots.EMPTY_HOLE
        printed = options.starting_fabricator is StartingFabricator.PRINTED
        self.printed_tile = (data.start_square, data.start_fabricator) if printed else None
        """The starting Basic Fabricator on its square when it is part of the board
        (`starting_fabricator=printed`): never demolished, worth nothing; None when it is an improvement."""
        self.stand_ins = options.bot_shortage is BotShortage.STAND_INS
        """MEC-F08 (vii): a bot the supply lacks is made all the same, with a stand-in (the supply goes below 0);
        else Make Bots, gifts and recycling make none."""
        self.player_orders_recycled = options.recycled_order is RecycledOrder.PLAYER_CHOOSES
        """MEC-T6: the player says which waiting recycled bot each Place puts into its hole."""
        self.until_full = options.shop_rotation is ShopRotation.UNTIL_FULL
        self.at_once = options.game_end is GameEnd.AT_ONCE
        self.once_in_all = options.blueprint_once is BlueprintOnce.ONCE_IN_ALL
        self.extras_after_stack = players == 4
        """MEC-S6: with 4 players the Extras follow the Stack."""
        self.double_rotate = 2 <= players <= 3 and options.extras_small_games is ExtrasSmallGames.DOUBLE_ROTATE
        """MEC-T11: 2-3 player games only, and only when the Extras are read as usable through it."""
        self.rotate_without_extras = options.double_rotate_without_extras is DoubleRotateWithoutExtras.ROTATE_AGAIN
        """MEC-T11: Double Rotate turns the Shop even when no Extra is left to put out."""
        self.models = tuple(m.name for m in data.models)
        self.rank = {m.name: i for i, m in enumerate(data.models)}
        self.value = {m.name: m.value for m in data.models}
        self.improvement: dict[str, Improvement] = {i.name: i for i in data.improvements}
        self.tile_names = tuple(sorted(self.improvement))
        self.truck = {t.name: t for t in data.trucks}
        self.capacity = {SMALL: data.layout.small_capacity, **{t.name: t.capacity for t in data.trucks}}
        self.trucks_always = options.truck_counts is TruckCounts.ALWAYS_BUYABLE
        """MEC-A3: Trucks are always buyable (L163), whatever the box holds."""
        self.forks_demolished = options.fork_demolish is ForkDemolish.LIKE_AN_IMPROVEMENT
        """MEC-T12 under `fork_demolish=like-an-improvement`: a Fork may be demolished, back into the box."""
        self.forks_always = options.fork_supply is ForkSupply.ALWAYS_BUYABLE
        """MEC-A2: Forks are always buyable (L151), whatever the box holds."""
        box = TruckCounts.RULEBOOK if self.trucks_always else options.truck_counts
        self.truck_counts = tuple(dict(t.counts)[box.value] for t in data.trucks)
        """How many of each truck the box holds (the rulebook's count when Trucks are always buyable: then
        the count left may fall below 0, and nothing reads it as a limit)."""
        self.truck_offers = {current: _offers(data.trucks, current) for current in (SMALL, *self.truck)}
        """MEC-A3: for each truck on a Loading Dock square, the trucks that may replace it, each as (name,
        price, its index among the data's trucks): any truck in place of a Small Truck at its price, and a
        truck in place of the one it upgrades at its upgrade price."""
        layout = data.layout
        self.start = layout.start
        self.floor = layout.floor
        self.dock = layout.dock
        self.dock_squares = frozenset(layout.dock)
        self.zone = {square: layout.zone(square) for square in layout.graph}
        self.exits: dict[str, dict[str, str]] = {
            square: {str(e[2]): str(e[1]) for e in _edges(layout.graph, square)} for square in layout.graph
        }
        self.squares = tuple(sorted(layout.graph))
        self.exit_order = {square: tuple(sorted(exits)) for square, exits in self.exits.items()}
        """Each square's exit names, sorted."""
        self.branching = frozenset(square for square, exits in self.exits.items() if len(exits) > 1)
        """The squares with more than one exit: where a switch offers a choice."""
        two_exits = options.fork_exits is ForkExits.TWO
        self.fork_sides = {
            square: tuple(e for e in names if e != BELT) if two_exits and len(names) > 2 else ()
            for square, names in self.exit_order.items()
        }
        """MEC-A2 under `fork_exits=two`: for a square with more than two exits (the middle belt), the sides
        one of which a Fork bought there points to; () where a Fork takes every exit of its square."""
        self.chosen_exits = frozenset(i.name for i in data.improvements if i.exits == CHOICE)
        """The improvements whose owner chooses their exit, like a Fork's (MEC-P5)."""
        self.blueprint = {b.name: b for b in data.blueprints}
        self.blueprint_names = tuple(sorted(self.blueprint))
        self.act = ActionCache()

    def tile_value(self, tile: tuple[str, str]) -> int:
        """MEC-O2, MEC-E4: what an installed improvement (square, name) scores: its value, or nothing for the
        starting Fabricator printed on the board."""
        return 0 if tile == self.printed_tile else self.improvement[tile[1]].value

    def tile_capacity(self, improvement: Improvement, hole: str) -> int:
        """How many bots an improvement's input (IN) or output (OUT) holes hold together."""
        holes = improvement.inputs if hole == "in" else improvement.outputs
        return holes * self.hole

    def switches(self, factory: Factory) -> tuple[str, ...]:
        """The squares whose exit the owner chooses each workday: Forks, and improvements that send
        bots to the belt above or below (MEC-A2, MEC-P5), with more than one exit, by square."""
        branching = self.branching
        chosen = {s for s in factory.forks if s in branching}
        chosen.update(s for s, t in factory.tiles if t in self.chosen_exits and s in branching)
        return tuple(sorted(chosen))

    def exit_names(self, square: str) -> tuple[str, ...]:
        return self.exit_order[square]

    def switch_exits(self, factory: Factory, square: str) -> tuple[str, ...]:
        """The exits a switch of `factory` offers: a Fork with a side its belt and that side (MEC-A2,
        `fork_exits=two`), any other switch every exit of its square."""
        side = dict(factory.fork_sides).get(square)
        return self.exit_order[square] if side is None else tuple(sorted((BELT, side)))

    def is_start(self, square: str) -> bool:
        return self.zone.get(square) == START

    def is_floor(self, square: str) -> bool:
        return self.zone.get(square) == FLOOR

    def is_dock(self, square: str) -> bool:
        return self.zone.get(square) == DOCK

    def along(self, square: str) -> str:
        return self.exits[square][BELT]


@attrs.frozen
class Listing:
    """Where a rule module's actions of `kinds` are legal and which are: in `phase` and, in a turn, its
    `step` (MEC-T0; None for any step), `legal` giving each of them legal for `player` there. Actions of
    these kinds are legal nowhere else, which is what game.py tells a player who tries one elsewhere."""

    kinds: tuple[type[Action], ...]
    phase: str
    step: str | None
    legal: Callable[[Rules, MechanicaState, int], Sequence[Action]]


@attrs.frozen
class PlayRule:
    """One kind of player action: `check` saying why one of that kind, where its listing lists them, is
    not legal (None when it is), and `effect` applying a legal one for `player`."""

    action_type: type[Action]
    check: Callable[[Rules, MechanicaState, int, Any], IllegalAction | None]
    effect: Callable[[Rules, MechanicaState, int, Any], MechanicaState]
