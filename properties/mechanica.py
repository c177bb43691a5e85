"""What the Mechanica rulebook promises of every state and step.

Each property names the clauses it guards and, where the promise holds only under some readings, the
option values it needs: equal turns at the end only when the end is checked at the end of a workday
(MEC-F03), no blueprint twice by anybody only under `blueprint_once=once-in-all` (MEC-F04).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from rulecheck.core.ops import INT_OPS
from rulecheck.games.mechanica.actions import BuyFork, BuyTruck, Complete, Install, Recycle, Sell
from rulecheck.games.mechanica.data import SMALL
from rulecheck.games.mechanica.options import BlueprintOnce, GameEnd, MechanicaOptions
from rulecheck.games.mechanica.state import IN, OVER, STEPS, TURN, Factory, MechanicaState
from rulecheck.games.mechanica.symbolic import counted_bound, rank_at
from rulecheck.games.mechanica.workday import improvements_left
from rulecheck.model.properties import StateProperty, TransitionProperty


def _first(items: list[str]) -> str | None:
    return items[0] if items else None


def wallet_never_negative(game: Any, s: MechanicaState) -> str | None:
    return _first([f"player {p}'s Wallet holds {f.wallet}" for p, f in enumerate(s.factories) if f.wallet < 0])


def vault_never_decreases(game: Any, before: MechanicaState, action: Any, after: MechanicaState) -> str | None:
    if before.factories is after.factories:
        return None
    return _first(
        [
            f"player {p}'s Vault went from {b.vault} to {a.vault}"
            for p, (b, a) in enumerate(zip(before.factories, after.factories))
            if a.vault < b.vault
        ]
    )


def _first_in_a_factory(game: Any, s: MechanicaState, faults: Callable[[Any, Factory], tuple[str, ...]]) -> str | None:
    """The first fault `faults` finds in a factory, in seat order, with its owner."""
    for p, f in enumerate(s.factories):
        found = faults(game, f)
        if found:
            return f"player {p}'s {found[0]}"
    return None


FACTORY_FAULTS_KEPT = 256
"""How many factories' faults each per-factory check keeps: they are a function of the game and the
factory alone, so a factory a step left as it was is not looked at again."""


@lru_cache(maxsize=FACTORY_FAULTS_KEPT)
def _overloaded_trucks(game: Any, f: Factory) -> tuple[str, ...]:
    rules = game.rules
    held = Counter(square for square, _, _ in f.bots)
    return tuple(
        f"{truck} truck on {square} holds {held[square]}"
        for square, truck in f.trucks
        if held[square] > rules.capacity[truck] and rules.is_dock(square)
    )


def trucks_within_capacity(game: Any, s: MechanicaState) -> str | None:
    return _first_in_a_factory(game, s, _overloaded_trucks)


@lru_cache(maxsize=FACTORY_FAULTS_KEPT)
def _overfull_holes(game: Any, f: Factory) -> tuple[str, ...]:
    rules = game.rules
    tiles = dict(f.tiles)
    bad = []
    for (square, hole), count in Counter((square, hole) for square, hole, _ in f.bots).items():
        if rules.is_dock(square):
            continue
        if rules.is_start(square):
            capacity = rules.hole if hole == IN else 0
        elif square in tiles:
            capacity = rules.tile_capacity(rules.improvement[tiles[square]], hole)
        else:
            capacity = 0
        if count > capacity:
            bad.append(f"{hole} holes on {square} hold {count} of {capacity}")
    return tuple(bad)


def holes_within_capacity(game: Any, s: MechanicaState) -> str | None:
    return _first_in_a_factory(game, s, _overfull_holes)


@lru_cache(maxsize=16)
def _bound(game: Any) -> int:
    return counted_bound(game)


@lru_cache(maxsize=16)
def _expected_tiles(game: Any) -> dict[str, int]:
    """Every tile of the data set, and the starting Fabricators (MEC-S1) besides the shuffled ones, by
    name (a plain dict of positive counts, compared as one)."""
    expected = Counter({i.name: i.copies for i in game.data.improvements})
    expected[game.data.start_fabricator] += game.players
    return dict(+expected)


def tiles_in_one_place(game: Any, s: MechanicaState) -> str | None:
    """Stack and Extras (unseen), Shop, factories, Recycler, demolished: every tile once. The counts
    are a plain dict, which equals the expected one only with no count of 0 either: a Counter's
    comparison would let an unseen layer's count of 0 (which a Pile never holds) through."""
    found: dict[str, int] = {}
    unseen = 0
    for layer in s.unseen.layers:
        for tile, count in layer:
            found[tile] = found.get(tile, 0) + count
            unseen += count
    placed = [t for t in s.shop if t] + list(s.recycled) + list(s.demolished)
    placed += [t for f in s.factories for _, t in f.tiles]
    for tile in placed:
        found[tile] = found.get(tile, 0) + 1
    expected = _expected_tiles(game)
    if found != expected:
        counted, wanted = Counter(found), Counter(expected)
        return f"tiles counted {dict(counted - wanted)} too many and {dict(wanted - counted)} too few"
    if unseen != s.stack + s.extras or min(s.stack, s.extras) < 0:
        return f"{unseen} unseen tiles for a Stack of {s.stack} and {s.extras} Extras"
    return None


def one_tile_per_spot(game: Any, s: MechanicaState) -> str | None:
    if len(s.shop) != len(game.data.prices) or not all(isinstance(t, str) for t in s.shop):
        return (
            f"the Shop has {len(s.shop)} spots holding {s.shop}, not one tile or none in each of "
            f"{len(game.data.prices)}"
        )
    return None


def bots_conserved(game: Any, s: MechanicaState) -> str | None:
    in_play: dict[str, int] = {}  # a plain dict: a Counter costs more than the counting of a few bots
    for model in [m for f in s.factories for _, _, m in f.bots] + list(s.placing):
        in_play[model] = in_play.get(model, 0) + 1
    bad = [
        f"{model.name}: {s.supply[i]} in the supply and {in_play.get(model.name, 0)} in play, not {model.supply}"
        for i, model in enumerate(game.data.models)
        if s.supply[i] + in_play.get(model.name, 0) != model.supply
    ]
    return _first(bad)


def money_accounted(game: Any, before: MechanicaState, action: Any, after: MechanicaState) -> str | None:
    """Money comes from sales (into the Wallet), blueprints and wrapped bots (into the Vault); it leaves
    only as the price of what is bought."""
    mover = None if before.pending else before.player
    for p, (b, a) in enumerate(zip(before.factories, after.factories)):
        change = a.wallet - b.wallet
        expected = _wallet_change(game, b, action) if p == mover else 0
        if change != expected:
            return f"player {p}'s Wallet changed by {change} on {action}, not {expected}"
        vault = a.vault - b.vault
        if p == mover and isinstance(action, Complete) and vault != game.rules.blueprint[action.card].payout:
            return f"player {p}'s Vault changed by {vault} on {action}"
    return None


def _wallet_change(game: Any, factory: Factory, action: Any) -> int:
    """What `action` puts into (or takes from) the Wallet of the player taking it, whose factory was `factory`."""
    rules = game.rules
    if isinstance(action, Sell):
        return rules.value[action.model]
    if isinstance(action, (Install, Recycle)):
        return -game.data.prices[action.spot]
    if isinstance(action, BuyFork):
        return -game.data.fork_price
    if isinstance(action, BuyTruck):
        truck = rules.truck[action.kind]
        return -(truck.price if dict(factory.trucks)[action.square] == SMALL else truck.upgrade_price)
    return 0


def phases_in_order(game: Any, before: MechanicaState, action: Any, after: MechanicaState) -> str | None:
    """MEC-T0: within one turn the steps only go forward."""
    same_turn = (
        (before.phase, before.player, before.workday)
        == (after.phase, after.player, after.workday)
        == (
            TURN,
            before.player,
            before.workday,
        )
    )
    if same_turn and before.turns == after.turns and STEPS.index(after.step) < STEPS.index(before.step):
        return f"the turn went back from {before.step} to {after.step}"
    return None


def blueprints_once(game: Any, s: MechanicaState) -> str | None:
    seen = (
        Counter(s.completions)
        if game.options.blueprint_once is BlueprintOnce.PER_PLAYER
        else Counter(c for _, c in s.completions)
    )
    return _first([f"{what} completed {n} times" for what, n in seen.items() if n > 1])


def equal_turns_at_the_end(game: Any, s: MechanicaState) -> str | None:
    if s.phase == OVER and len(set(s.turns)) > 1:
        return f"the game ended with turns {s.turns}"
    return None


def end_rule(game: Any, s: MechanicaState) -> str | None:
    """MEC-E1, MEC-O1: the game is over only when no improvement is left to buy."""
    if s.phase == OVER and improvements_left(game.rules, s):
        return "the game ended with improvements left to buy"
    return None


def turns_within_bound(game: Any, s: MechanicaState) -> str | None:
    """MEC-F03's termination: no game takes more turns than the Shop's rank at setup allows."""
    bound = _bound(game)
    if sum(s.turns) > bound:
        return f"{sum(s.turns)} turns taken, more than the bound of {bound}"
    return None


def shop_rank_never_rises(game: Any, before: MechanicaState, action: Any, after: MechanicaState) -> str | None:
    """No step raises the Shop's rank (the proof shows that every turn lowers it while improvements are left).
    The rank is a function of the Stack, the Extras and which Shop spots are filled, so a step that
    leaves all three as they were leaves it too."""
    if (before.stack, before.extras, before.shop) == (after.stack, after.extras, after.shop):
        return None
    ranks = [rank_at(INT_OPS, game, x.stack, x.extras, [bool(t) for t in x.shop]) for x in (before, after)]
    return None if ranks[1] <= ranks[0] else f"{action} took the Shop's rank from {ranks[0]} to {ranks[1]}"


def _at_workday_end(options: MechanicaOptions) -> bool:
    return options.game_end is GameEnd.END_OF_WORKDAY


PROPERTIES = (
    StateProperty(
        "wallet-never-negative",
        ("MEC-T2", "MEC-A2", "MEC-A3"),
        "no Wallet holds less than 0",
        wallet_never_negative,
        reads=("factories",),
    ),
    TransitionProperty("vault-never-decreases", ("MEC-B2",), "money never leaves a Vault", vault_never_decreases),
    StateProperty(
        "trucks-within-capacity",
        ("MEC-A3", "MEC-W3"),
        "no Truck holds more bots than it can",
        trucks_within_capacity,
        reads=("factories",),
    ),
    StateProperty(
        "holes-within-capacity",
        ("MEC-W3", "MEC-T6", "MEC-T7"),
        "no hole holds more bots than it can",
        holes_within_capacity,
        reads=("factories",),
    ),
    StateProperty(
        "tiles-in-one-place",
        ("MEC-S2", "MEC-T6", "MEC-T10", "MEC-T12"),
        "every improvement tile is in exactly one place",
        tiles_in_one_place,
        reads=("shop", "recycled", "demolished", "factories", "unseen", "stack", "extras"),
    ),
    StateProperty(
        "one-tile-per-shop-spot",
        ("MEC-S3", "MEC-T8"),
        "each Shop spot holds at most one tile",
        one_tile_per_spot,
        reads=("shop",),
    ),
    StateProperty(
        "bots-conserved",
        ("MEC-T1", "MEC-T7", "MEC-W6", "MEC-B1"),
        "bots are in the supply or in play, never both",
        bots_conserved,
        reads=("factories", "placing", "supply"),
    ),
    TransitionProperty(
        "money-accounted",
        ("MEC-T1", "MEC-T2", "MEC-B1"),
        "money moves only as sales, prices and payouts",
        money_accounted,
    ),
    TransitionProperty("phases-in-order", ("MEC-T0",), "a turn's steps come in order", phases_in_order),
    StateProperty(
        "blueprints-once",
        ("MEC-B4",),
        "no blueprint is completed twice where the option forbids it",
        blueprints_once,
        reads=("completions",),
    ),
    StateProperty(
        "equal-turns-at-the-end",
        ("MEC-W7", "MEC-E1"),
        "every player has had as many turns as the others when the game ends",
        equal_turns_at_the_end,
        _at_workday_end,
        reads=("phase", "turns"),
    ),
    StateProperty(
        "turns-within-bound",
        ("MEC-O1", "MEC-E1"),
        "no game is longer than the Shop's rank allows",
        turns_within_bound,
        reads=("turns",),
    ),
    TransitionProperty(
        "shop-rank-never-rises", ("MEC-T8", "MEC-T9"), "no step raises the Shop's rank", shop_rank_never_rises
    ),
    StateProperty("end-rule", ("MEC-O1", "MEC-E1"), "the game ends only with no improvement left to buy", end_rule),
)
