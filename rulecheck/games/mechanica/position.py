"""Mechanica positions written by hand: the `[position]` of a scenario file, read and written.

Models: a position as a rule designer writes it (docs/mechanica.md#scenarios): the phase of the
workday (draws due, the fork commits, a turn, placing recycled bots, the end), the workday,
whose turn and its step; the players in seat order, each with her factory written by the board's
square names (`S2`, `F12`, `D1`): the improvement on each square, the truck on each Loading Dock
square, Forks, the bots in the holes of each square (Start Zone holes, Trucks and improvements'
input holes) and in improvements' output holes, Wallet, Vault and turns taken; the Shop's spots
from the 7-cost spot on; the Stack and Extras counts; the Recycler and demolished tiles; each
Blueprint Stack (face up, face down, put underneath); sideways and the completions so far; and the
bookkeeping of a turn in progress (draws due, recycled bots to place, the workday's fork
commits). Improvements, blueprints, trucks and bot models are named as the data set names them;
every key may be left out and takes the default the docs give. `read` refuses, naming the clause
or property, a position the rules make impossible: a square the board does not have, an
improvement on a square of the wrong zone, bots where no hole is or more than a hole or Truck
holds, more tiles, Forks or Trucks than the box holds, a starting Fabricator gone from the game, a
Stack and Extras that do not add up to the unseen tiles, a blueprint in the wrong stack or in two
places, draws due that cannot be drawn, and phases and bookkeeping no play stops at. `write` is
the reverse: every part of the state, so that reading it back gives the same state.

Leaves out: keys for what the rest determines: the unseen improvement tiles (every tile in no
other place; the Stack and the Extras are counts of them, and their order is unknown), the bot
supply (the box's bots less those in play, below 0 when stand-ins are in use, MEC-F08), the
Trucks and Forks left in the box (the box's count less those installed) and what the placing of
recycled bots interrupted (the Buy step in the Buy step, else the end of the turn).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, cast

from rulecheck.core.hidden import Pile
from rulecheck.core.untrusted import shown
from rulecheck.games.mechanica.data import DOCK, FLOOR, SMALL, START
from rulecheck.games.mechanica.game import Mechanica
from rulecheck.games.mechanica.options import GameEnd, TruckCounts
from rulecheck.games.mechanica.rules import Rules
from rulecheck.games.mechanica.state import (
    BUY,
    EXTRAS,
    IN,
    MADE,
    OUT,
    OVER,
    PLACE,
    ROUTE,
    SELL,
    SETUP,
    STACK,
    STEPS,
    TURN,
    Factory,
    MechanicaState,
)
from rulecheck.model.position import DocumentReader, Fail, Path, PositionFormat, described

DOCS: Final = "docs/mechanica.md#scenarios"
FORMAT_RULE: Final = DOCS
"""The `rule` of a document the format does not describe (an unknown key, a wrong type)."""

PHASES: Final = (SETUP, ROUTE, TURN, PLACE, OVER)
KEYS: Final = (
    "phase",
    "workday",
    "player",
    "step",
    "players",
    "shop",
    "stack",
    "extras",
    "recycled",
    "demolished",
    "blueprint_stacks",
    "sideways",
    "completions",
    "pending",
    "to_place",
    "routes",
)
PLAYER_KEYS: Final = (
    "wallet",
    "vault",
    "turns",
    "improvements",
    "trucks",
    "forks",
    "fork_sides",
    "bots",
    "output_bots",
)
BLUEPRINT_KEYS: Final = ("face_up", "face_down", "under")
STACKS: Final = 2


def _rules(game: Mechanica) -> Rules:
    return cast(Rules, getattr(game, "rules"))


# Writing.


def write(game: Mechanica, state: MechanicaState) -> dict[str, Any]:
    """The position of `state` with every part written out (see the module docstring)."""
    rules = _rules(game)
    stacks = []
    for number, (pile, card) in enumerate(zip(state.blueprint_stacks, state.blueprints, strict=True), start=1):
        stacks.append(_write_stack(pile, card, number))
    return {
        "phase": state.phase,
        "workday": state.workday,
        "player": state.player,
        "step": state.step,
        "players": [_write_factory(rules, f, turns) for f, turns in zip(state.factories, state.turns, strict=True)],
        "shop": list(state.shop),
        "stack": state.stack,
        "extras": state.extras,
        "recycled": list(state.recycled),
        "demolished": list(state.demolished),
        "blueprint_stacks": stacks,
        "sideways": state.sideways,
        "completions": [{"player": p, "blueprint": card} for p, card in state.completions],
        "pending": list(state.pending),
        "to_place": list(state.placing),
        "routes": [{"player": p, "square": square, "exit": exit} for p, square, exit in state.routes],
    }


def _write_stack(pile: Pile, card: str, number: int) -> dict[str, Any]:
    found: dict[str, Any] = {}
    if card:
        found["face_up"] = card
    layers = [sorted(Counter(dict(layer)).elements()) for layer in pile.layers]
    for layer in layers[1:]:
        if len(layer) != 1:
            raise ValueError(f"Blueprint Stack {number} has a layer of {len(layer)} cards below its top")
    found["face_down"] = layers[0] if layers else []
    found["under"] = [layer[0] for layer in layers[1:]]
    return found


def _write_factory(rules: Rules, factory: Factory, turns: int) -> dict[str, Any]:
    order = {square: index for index, square in enumerate(rules.start + rules.floor + rules.dock)}

    def by_square(pairs: Iterable[tuple[str, Any]]) -> dict[str, Any]:
        return dict(sorted(pairs, key=lambda pair: order[pair[0]]))

    held: dict[tuple[str, str], list[str]] = {}
    for square, hole, model in factory.bots:
        held.setdefault((square, hole), []).append(model)
    return {
        "wallet": factory.wallet,
        "vault": factory.vault,
        "turns": turns,
        "improvements": by_square(factory.tiles),
        "trucks": by_square(factory.trucks),
        "forks": list(factory.forks),
        "fork_sides": by_square(factory.fork_sides),
        "bots": by_square((s, sorted(models)) for (s, hole), models in held.items() if hole == IN),
        "output_bots": by_square((s, sorted(models)) for (s, hole), models in held.items() if hole == OUT),
    }


# Reading: the shapes of values.


class _Reader(DocumentReader):
    """The document's values, type-checked, and the data set's names."""

    def __init__(self, game: Mechanica, fail: Fail) -> None:
        super().__init__(fail, FORMAT_RULE, game.players)
        self.game = game
        self.rules = _rules(game)

    def square(self, value: Any, path: Path, rule: str) -> str:
        return self.choice(value, path, self.rules.squares, "square", rule)

    def model(self, value: Any, path: Path) -> str:
        return self.choice(value, path, self.rules.models, "bot model", "MEC-P1")

    def models(self, table: Mapping[str, Any], key: str, path: Path) -> tuple[str, ...]:
        return tuple(self.model(v, [*path, key, i]) for i, v in enumerate(self.items(table, key, path)))

    def tile(self, value: Any, path: Path) -> str:
        return self.choice(value, path, self.rules.tile_names, "improvement", "MEC-C1")

    def tiles(self, table: Mapping[str, Any], key: str, path: Path) -> tuple[str, ...]:
        return tuple(self.tile(v, [*path, key, i]) for i, v in enumerate(self.items(table, key, path)))


# Reading: the position.


def read(game: Mechanica, document: Mapping[str, Any], fail: Fail) -> MechanicaState:
    """The state `document` describes, every part left out at its default (the docs' Scenarios)."""
    r = _Reader(game, fail)
    rules = r.rules
    data = rules.data
    top = r.table(document, (), KEYS)

    phase = r.choice(top.get("phase", TURN), ("phase",), PHASES, "phase", FORMAT_RULE)
    workday = r.count(top, "workday", (), "MEC-W1", 1)
    if workday == 0 and phase != SETUP:
        fail(("workday",), f"workday 0 is the setup, before the first workday: the phase is {SETUP}", "MEC-W1")
    player = r.seat(top.get("player", 0), ("player",), "MEC-W7")
    step = r.choice(top.get("step", SELL), ("step",), STEPS, "step", "MEC-T0")

    listed = r.items(top, "players", ())
    if len(listed) > game.players:
        fail(("players",), f"{len(listed)} players' factories in a {game.players}-player game", "MEC-S1")
    default_turns = _default_turns(game, phase, workday, player)
    factories = []
    turns = []
    for p in range(game.players):
        entry = listed[p] if p < len(listed) else {}
        factory, taken = _read_factory(r, entry, ("players", p), default_turns[p])
        factories.append(factory)
        turns.append(taken)
    _check_box(r, factories)

    spots = len(data.prices)
    shop_items = r.items(top, "shop", ())
    if len(shop_items) > spots:
        fail(
            ("shop",),
            f"{len(shop_items)} spots listed; the Shop has {spots} (prices {data.prices})",
            "one-tile-per-shop-spot",
        )
    shop = tuple("" if r.text(v, ("shop", i)) == "" else r.tile(v, ("shop", i)) for i, v in enumerate(shop_items))
    shop += ("",) * (spots - len(shop_items))
    recycled = r.tiles(top, "recycled", ())
    demolished = r.tiles(top, "demolished", ())
    unseen = _unseen(r, game, factories, shop, recycled, demolished)
    recycled, demolished = tuple(sorted(recycled)), tuple(sorted(demolished))
    stack, extras = _stack_and_extras(r, top, unseen.size)

    stacks, shown_cards = _read_blueprints(r, top)
    sideways = r.boolean(top, "sideways", ())
    completions = []
    for i, entry in enumerate(r.items(top, "completions", ())):
        at = ("completions", i)
        t = r.table(entry, at, ("player", "blueprint"))
        if "player" not in t or "blueprint" not in t:
            fail(at, "a completion names its player and its blueprint", FORMAT_RULE)
        who = r.seat(t["player"], (*at, "player"), "MEC-B1")
        card = r.choice(t["blueprint"], (*at, "blueprint"), rules.blueprint_names, "blueprint", "MEC-B1")
        completions.append((who, card))

    pending = _read_pending(r, top, phase, step, shop, stack, extras, stacks, shown_cards)
    placing = r.models(top, "to_place", ())
    state = MechanicaState(
        phase=phase,
        factories=tuple(factories),
        unseen=unseen,
        stack=stack,
        extras=extras,
        shop=shop,
        recycled=recycled,
        demolished=demolished,
        blueprint_stacks=(stacks[0], stacks[1]),
        blueprints=(shown_cards[0], shown_cards[1]),
        sideways=sideways,
        completions=tuple(completions),
        supply=_supply(rules, factories, placing),
        trucks_left=_trucks_left(rules, factories),
        forks_left=data.fork_count - sum(len(f.forks) for f in factories),
        workday=workday,
        player=player,
        step=step,
        turns=tuple(turns),
        pending=pending,
        placing=placing,
        resume=_resume(phase, step, placing),
        routes=_read_routes(r, top, phase, player, factories),
    )
    _check_phase(r, state)
    return state


def _default_turns(game: Mechanica, phase: str, workday: int, player: int) -> list[int]:
    """Turns taken: every player's of the workdays before, and this workday's of those who have played."""
    if phase == SETUP or (phase == OVER and game.options.game_end is GameEnd.END_OF_WORKDAY):
        return [workday] * game.players
    if phase == ROUTE:
        return [workday - 1] * game.players
    return [workday - 1 + (p < player) for p in range(game.players)]


def _resume(phase: str, step: str, placing: Sequence[str]) -> str:
    """What the placing of recycled bots interrupted: the Buy step, or the end of the turn."""
    if phase in (PLACE, OVER) and placing:
        return "buy" if step == BUY else "rotate"
    return ""


def _read_factory(r: _Reader, entry: Any, path: Path, default_turns: int) -> tuple[Factory, int]:
    rules = r.rules
    data = rules.data
    t = r.table(entry, path, PLAYER_KEYS)
    wallet = r.count(t, "wallet", path, "wallet-never-negative")
    vault = r.count(t, "vault", path, "MEC-B2")
    turns = r.count(t, "turns", path, "MEC-W7", default_turns)

    tiles: dict[str, str] = {data.start_square: data.start_fabricator}
    given = r.mapping(t, "improvements", path)
    if given is not None:
        tiles = {}
        for square, name in given.items():
            at = [*path, "improvements", square]
            r.square(square, at, "MEC-T4")
            tile = r.tile(name, at)
            zone = rules.improvement[tile].zone
            if rules.zone[square] == DOCK:
                r.fail(at, f"{square} is a Loading Dock square: Trucks go there (the key `trucks`)", "MEC-T4")
            if rules.zone[square] != zone:
                where = "Start Zone" if zone == START else "Factory Floor"
                r.fail(at, f"{shown(tile)} goes on a {where} square, not on {square}", "MEC-T4")
            tiles[square] = tile

    if rules.printed_tile is not None and rules.printed_tile not in tiles.items():
        r.fail(
            [*path, "improvements"],
            f"the starting {shown(data.start_fabricator)} on {data.start_square} is part of the board "
            "(starting_fabricator=printed): it is never demolished",
            "MEC-S1",
        )

    trucks = {square: SMALL for square in rules.dock}
    given = r.mapping(t, "trucks", path)
    kinds = (SMALL, *sorted(rules.truck))
    for square, kind in (given or {}).items():
        at = [*path, "trucks", square]
        r.square(square, at, "MEC-A3")
        if rules.zone[square] != DOCK:
            r.fail(at, f"{square} is not a Loading Dock square: a truck stands on one", "MEC-A3")
        trucks[square] = r.choice(kind, at, kinds, "truck", "MEC-A3")

    forks: list[str] = []
    for i, square in enumerate(r.items(t, "forks", path)):
        at = [*path, "forks", i]
        r.square(square, at, "MEC-A2")
        if rules.zone[square] != FLOOR:
            r.fail(at, f"{square} is not a Factory Floor square: a Fork goes on one", "MEC-A2")
        if square in tiles:
            r.fail(at, f"{square} holds {shown(tiles[square])}: a Fork goes on a free square", "MEC-T12")
        if square in forks:
            r.fail(at, f"{square} holds a Fork already", "MEC-A2")
        forks.append(square)
    sides = _read_fork_sides(r, t, path, forks)

    bots = _read_bots(r, t, path, tiles, trucks, set(forks))
    factory = Factory(
        tiles=tuple(sorted(tiles.items())),
        trucks=tuple(sorted(trucks.items())),
        forks=tuple(sorted(forks)),
        bots=tuple(sorted(bots)),
        wallet=wallet,
        vault=vault,
        fork_sides=tuple(sorted(sides.items())),
    )
    return factory, turns


def _read_fork_sides(r: _Reader, t: Mapping[str, Any], path: Path, forks: Sequence[str]) -> dict[str, str]:
    """MEC-A2 under `fork_exits=two`: the side each Fork on a square with three exits points to; the
    Forks elsewhere have none."""
    sides: dict[str, str] = {}
    for square, side in (r.mapping(t, "fork_sides", path) or {}).items():
        at = [*path, "fork_sides", square]
        if square not in forks:
            r.fail(at, f"{square} holds no Fork (the key `forks`)", "MEC-A2")
        choices = r.rules.fork_sides[square]
        if not choices:
            r.fail(at, f"a Fork on {square} takes every exit of its square (fork_exits); it has no side", "MEC-A2")
        sides[square] = r.choice(side, at, choices, "side", "MEC-A2")
    for i, square in enumerate(forks):
        if r.rules.fork_sides[square] and square not in sides:
            r.fail(
                [*path, "forks", i],
                f"a Fork on {square} has two of its three exits (fork_exits=two): give its side in `fork_sides`, "
                f"{' or '.join(r.rules.fork_sides[square])}",
                "MEC-A2",
            )
    return sides


def _read_bots(
    r: _Reader, t: Mapping[str, Any], path: Path, tiles: Mapping[str, str], trucks: Mapping[str, str], forks: set[str]
) -> list[tuple[str, str, str]]:
    rules = r.rules
    bots: list[tuple[str, str, str]] = []
    for key, hole in (("bots", IN), ("output_bots", OUT)):
        for square, models in (r.mapping(t, key, path) or {}).items():
            at = [*path, key, square]
            r.square(square, at, "MEC-W3")
            if not isinstance(models, list):
                r.fail(at, f"a list of bot models is expected, not {described(models)}", FORMAT_RULE)
            held = [r.model(m, [*at, i]) for i, m in enumerate(models)]
            zone = rules.zone[square]
            capacity, rule = _capacity(r, at, square, zone, hole, tiles, trucks, forks)
            if len(held) > capacity:
                r.fail(at, f"{len(held)} bots where {capacity} fit", rule)
            bots += [(square, hole, m) for m in held]
    return bots


def _capacity(
    r: _Reader,
    at: Path,
    square: str,
    zone: str,
    hole: str,
    tiles: Mapping[str, str],
    trucks: Mapping[str, str],
    forks: set[str],
) -> tuple[int, str]:
    """How many bots the holes of `hole` on `square` hold, and the property a position breaks with more."""
    rules = r.rules
    if hole == OUT and zone != FLOOR:
        where = "a Start Zone hole" if zone == START else "a Truck"
        r.fail(at, f"{square} is {where}; only an improvement on the Factory Floor has output holes", "MEC-W6")
    if zone == START:
        return rules.hole, "holes-within-capacity"
    if zone == DOCK:
        return rules.capacity[trucks[square]], "trucks-within-capacity"
    if square in forks:
        r.fail(at, f"{square} holds a Fork, which has no hole: bots ride through it", "MEC-W3")
    if square not in tiles:
        r.fail(at, f"{square} holds no improvement: bots ride over it, and stop only in holes", "MEC-W3")
    improvement = rules.improvement[tiles[square]]
    if hole == OUT and improvement.outputs == 0:
        r.fail(at, f"{shown(improvement.name)} has no output holes", "MEC-W6")
    return rules.tile_capacity(improvement, hole), "holes-within-capacity"


def _check_box(r: _Reader, factories: Sequence[Factory]) -> None:
    """No more Forks and Trucks installed than the box holds, unless they are always buyable."""
    rules = r.rules
    forks = sum(len(f.forks) for f in factories)
    if forks > rules.data.fork_count and not rules.forks_always:
        r.fail(("players",), f"{forks} Forks installed; the box holds {rules.data.fork_count}", "MEC-C1")
    source = r.game.options.truck_counts
    for truck, left in zip(rules.data.trucks, _trucks_left(rules, factories), strict=True):
        if left < 0 and not rules.trucks_always:
            held = dict(truck.counts)[source.value]
            rule = "MEC-P6" if source is TruckCounts.PUBLISHER else "MEC-C1"
            r.fail(
                ("players",),
                f"{held - left} {truck.name} trucks installed; the box holds {held} (truck_counts={source})",
                rule,
            )


def _trucks_left(rules: Rules, factories: Sequence[Factory]) -> tuple[int, ...]:
    installed = Counter(kind for f in factories for _, kind in f.trucks)
    return tuple(n - installed[t.name] for t, n in zip(rules.data.trucks, rules.truck_counts, strict=True))


def _supply(rules: Rules, factories: Sequence[Factory], placing: Sequence[str]) -> tuple[int, ...]:
    in_play = Counter(m for f in factories for _, _, m in f.bots) + Counter(placing)
    return tuple(m.supply - in_play[m.name] for m in rules.data.models)


def _unseen(
    r: _Reader,
    game: Mechanica,
    factories: Sequence[Factory],
    shop: Sequence[str],
    recycled: Sequence[str],
    demolished: Sequence[str],
) -> Pile:
    """The tiles in no other place; every tile of the box once, and each starting Fabricator on its
    owner's board or demolished."""
    rules = r.rules
    data = rules.data
    shuffled = Counter({i.name: i.copies for i in data.improvements})
    expected = shuffled + Counter({data.start_fabricator: game.players})
    placed: Counter[str] = Counter()
    places: list[tuple[Path, str]] = [(("shop", i), t) for i, t in enumerate(shop) if t]
    places += [(("recycled", i), t) for i, t in enumerate(recycled)]
    places += [(("demolished", i), t) for i, t in enumerate(demolished)]
    for p, f in enumerate(factories):
        places += [(("players", p, "improvements", s), t) for s, t in f.tiles]
    for at, tile in places:
        placed[tile] += 1
        if placed[tile] > expected[tile]:
            extra = f" and the {game.players} starting ones" if tile == data.start_fabricator else ""
            r.fail(at, f"one {shown(tile)} too many: the box holds {shuffled[tile]}{extra}", "tiles-in-one-place")
    unseen = expected - placed
    fabricator = data.start_fabricator
    spare = unseen[fabricator] + Counter(shop)[fabricator] + Counter(recycled)[fabricator]
    if spare > shuffled[fabricator]:
        r.fail(
            ("players",),
            f"{spare} {shown(fabricator)} tiles would be unseen, in the Shop or recycled, of the "
            f"{shuffled[fabricator]} shuffled: each player's starting one is on her board or demolished",
            "MEC-S1",
        )
    return Pile.shuffled(unseen.elements())


def _stack_and_extras(r: _Reader, top: Mapping[str, Any], unseen: int) -> tuple[int, int]:
    """The Stack and the Extras, which together are the unseen tiles."""
    extras_default = min(r.rules.data.extras, unseen)
    if "stack" in top and "extras" not in top:
        stack = r.count(top, "stack", (), "tiles-in-one-place")
        extras = unseen - stack
    else:
        extras = r.count(top, "extras", (), "tiles-in-one-place", extras_default)
        stack = r.count(top, "stack", (), "tiles-in-one-place", unseen - extras)
    if stack < 0 or extras < 0 or stack + extras != unseen:
        key = "stack" if "stack" in top else "extras"
        r.fail(
            (key,),
            f"a Stack of {stack} and {extras} Extras, but {unseen} tiles are in no other place "
            "(not in the Shop, a factory, the Recycler or demolished)",
            "tiles-in-one-place",
        )
    data = r.rules.data
    if extras > data.extras:
        r.fail(("extras",), f"{extras} Extras; the setup makes {data.extras}, and none is ever added", "MEC-S2")
    if stack > data.tiles - data.extras:
        r.fail(("stack",), f"a Stack of {stack}; the setup makes {data.tiles - data.extras}", "MEC-S2")
    return stack, extras


def _read_blueprints(r: _Reader, top: Mapping[str, Any]) -> tuple[list[Pile], list[str]]:
    """Each Blueprint Stack's face-down cards as a pile (shuffled on top, then those put underneath,
    in order) and its face-up card ('' for none)."""
    rules = r.rules
    listed = r.items(top, "blueprint_stacks", ())
    if len(listed) > STACKS:
        r.fail(("blueprint_stacks",), f"{len(listed)} Blueprint Stacks; the game has {STACKS}", "MEC-S4")
    piles: list[Pile] = []
    shown_cards: list[str] = []
    for n in range(STACKS):
        at: tuple[str | int, ...] = ("blueprint_stacks", n)
        entry = r.table(listed[n] if n < len(listed) else {}, at, BLUEPRINT_KEYS)
        own = sorted(b.name for b in rules.data.blueprints if b.stack == n + 1)
        seen: dict[str, Path] = {}

        def card(value: Any, where: Path) -> str:
            name = r.choice(value, where, rules.blueprint_names, "blueprint", "MEC-S4")
            if rules.blueprint[name].stack != n + 1:
                r.fail(where, f"{name} belongs to Blueprint Stack {rules.blueprint[name].stack}", "MEC-S4")
            if name in seen:
                r.fail(where, f"{name} is in two places (see {'.'.join(map(str, seen[name]))})", "MEC-S4")
            seen[name] = where
            return name

        face_up = card(entry["face_up"], (*at, "face_up")) if "face_up" in entry else ""
        under = [card(v, (*at, "under", i)) for i, v in enumerate(r.items(entry, "under", at))]
        if "face_down" in entry:
            face_down = [card(v, (*at, "face_down", i)) for i, v in enumerate(r.items(entry, "face_down", at))]
            missing = [name for name in own if name not in seen]
            if missing:
                r.fail(
                    (*at, "face_down"),
                    f"{', '.join(missing)} of Blueprint Stack {n + 1} in no place (face up, face down or under)",
                    "MEC-S4",
                )
        else:
            face_down = [name for name in own if name not in seen]
        pile = Pile.shuffled(face_down)
        for name in under:
            pile = pile.put_bottom([name])
        piles.append(pile)
        shown_cards.append(face_up)
    return piles, shown_cards


def _read_pending(
    r: _Reader,
    top: Mapping[str, Any],
    phase: str,
    step: str,
    shop: Sequence[str],
    stack: int,
    extras: int,
    piles: Sequence[Pile],
    shown_cards: Sequence[str],
) -> tuple[str, ...]:
    """The draws due, in order: `stack:SPOT` or `extras:SPOT` (a tile into a Shop spot), `bp:N` (a
    blueprint turned up on Blueprint Stack N)."""
    due: list[str] = []
    left = {STACK: stack, EXTRAS: extras}
    spots: set[int] = set()
    for i, value in enumerate(r.items(top, "pending", ())):
        at = ("pending", i)
        text = r.text(value, at)
        source, _, number = text.partition(":")
        if source not in (STACK, EXTRAS, "bp") or not re.fullmatch(r"[0-9]{1,3}", number):
            r.fail(at, f"{shown(text)} is not a draw: stack:SPOT, extras:SPOT or bp:STACK", FORMAT_RULE)
        index = int(number)
        if phase not in (SETUP, TURN):
            r.fail(at, f"no draw is due in the {phase} phase", "MEC-S2")
        if source == "bp":
            if phase != SETUP or not 1 <= index <= STACKS:
                r.fail(at, "a blueprint is turned up at setup and between workdays, on stack 1 or 2", "MEC-E2")
            if shown_cards[index - 1]:
                r.fail(at, f"Blueprint Stack {index} has {shown_cards[index - 1]} face up already", "MEC-E2")
            if not piles[index - 1].size or text in due:
                r.fail(at, f"Blueprint Stack {index} has no face-down card for this draw", "MEC-S4")
        else:
            if index >= len(shop) or shop[index] or index in spots:
                r.fail(at, f"Shop spot {index} is not an empty spot to draw into", "one-tile-per-shop-spot")
            left[source] -= 1
            if left[source] < 0:
                rule = "MEC-T9" if source == STACK else "MEC-S6"
                r.fail(at, f"no tile is left in the {'Stack' if source == STACK else 'Extras'} to draw", rule)
            if phase == TURN and (step != MADE or index != 0 or due):
                r.fail(at, "in a turn, one improvement is drawn into the 7-cost spot (0) as the Shop rotates", "MEC-T9")
            spots.add(index)
        due.append(text)
    return tuple(due)


def _read_routes(
    r: _Reader, top: Mapping[str, Any], phase: str, player: int, factories: Sequence[Factory]
) -> tuple[tuple[int, str, str], ...]:
    """This workday's fork commits so far: every switch of the players before `player`, some of hers."""
    rules = r.rules
    listed = r.items(top, "routes", ())
    if listed and phase != ROUTE:
        r.fail(("routes",), f"exits are committed at the start of a workday ({ROUTE}), not in {phase}", "MEC-A2")
    routes: list[tuple[int, str, str]] = []
    for i, entry in enumerate(listed):
        at = ("routes", i)
        t = r.table(entry, at, ("player", "square", "exit"))
        if set(t) != {"player", "square", "exit"}:
            r.fail(at, "a commit names its player, square and exit", FORMAT_RULE)
        who = r.seat(t["player"], (*at, "player"), "MEC-A2")
        switches = rules.switches(factories[who])
        if not switches:
            r.fail((*at, "square"), f"player {who} has no switch (a Fork, or an improvement that sends bots)", "MEC-A2")
        square = r.choice(t["square"], (*at, "square"), switches, f"switch of player {who}", "MEC-A2")
        exit = r.choice(t["exit"], (*at, "exit"), rules.exit_names(square), f"exit from {square}", "MEC-A2")
        if who > player:
            r.fail((*at, "player"), f"player {who} commits after player {player}, who commits now", "MEC-A2")
        if any(p == who and s == square for p, s, _ in routes):
            r.fail((*at, "square"), f"player {who} has committed {square} already", "MEC-A2")
        routes.append((who, square, exit))
    if phase == ROUTE:
        done = {(p, s) for p, s, _ in routes}
        for p in range(player):
            missing = [s for s in rules.switches(factories[p]) if (p, s) not in done]
            if missing:
                r.fail(("routes",), f"player {p} commits before player {player} but has not for {missing[0]}", "MEC-A2")
        if all((player, s) in done for s in rules.switches(factories[player])):
            r.fail(("player",), f"player {player} has no switch left to commit an exit for", "MEC-A2")
    return tuple(routes)


def _check_phase(r: _Reader, state: MechanicaState) -> None:
    """The bookkeeping a phase has, and only it: draws due between workdays and as the Shop rotates,
    recycled bots to place in the placing phase (or while the rotation draws)."""
    fail = r.fail
    if state.phase == SETUP and not state.pending:
        fail(("pending",), "before a workday the position waits only for draws (at setup, after a refresh)", "MEC-W1")
    if state.placing and state.phase == TURN and not state.pending:
        fail(("to_place",), f"recycled bots are placed in the {PLACE} phase, before anything else", "MEC-T6")
    if state.placing and state.phase in (SETUP, ROUTE):
        fail(("to_place",), "recycled bots wait only in a turn", "MEC-T6")
    if state.phase == PLACE:
        if not state.placing:
            fail(("to_place",), f"the {PLACE} phase needs recycled bots to place", "MEC-T6")
        if state.step not in (BUY, MADE):
            fail(("step",), "bots are recycled in the Buy step or as the Shop rotates (after Make Bots)", "MEC-T6")
        factory = state.factories[state.player]
        held = Counter(s for s, _, _ in factory.bots)
        limit = 1 if r.rules.empty_holes_only else r.rules.hole
        if all(held[s] >= limit for s in r.rules.start):
            fail(("to_place",), "no Start Zone hole of the player has room for a recycled bot", "MEC-T6")


FORMAT: Final = PositionFormat(read=read, write=write, defaults=DOCS)
