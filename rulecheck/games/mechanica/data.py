"""Mechanica's data format: the components the rulebook leaves out, checked and built into typed data.

Models: bot models (sale value, supply), the starting position, the factory board (Start Zone,
Factory Floor and Loading Dock squares, the belts as paths of squares), the tile split (how many
Extras), the Shop's price spots, Trucks and Forks (prices, capacities, counts by source),
improvement types (zone, holes, exits, effect from a small vocabulary, recycling value, end
value, copies) and blueprints in their two stacks. The JSON Schema (data/schema.json) checks
shapes and ranges; `build` checks the rest (unique names, references between entries, the belt
layout) and names the file, entry and field of the first problem. The factory board becomes a
networkx DiGraph of squares and belt segments (board.py), derived from the belts, never typed in;
a layout whose belts and fork exits let a bot ride for ever is rejected with the cycle named.

Leaves out: what the entries mean in play (the rules), and which numbers are the real game's: the
default data set marks each entry's source (docs/mechanica.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import attrs
import networkx as nx

from rulecheck.core.data import DataFormat
from rulecheck.core.words import counted
from rulecheck.model.components import Component

DATA_DIR: Final = Path(__file__).parent / "data"
START: Final = "start"
FLOOR: Final = "floor"
DOCK: Final = "dock"
BELT: Final = "belt"
"""The exit along a square's own belt; a switch's other exits are UP and DOWN."""
UP: Final = "up"
DOWN: Final = "down"
CHOICE: Final = "choice"
EFFECTS: Final = ("make", "upgrade", "downgrade", "duplicate", "split", "wrap")
SMALL: Final = "small"
"""The starting truck on every Loading Dock square."""

Fail = Callable[[Sequence[str | int], str], Any]


@attrs.frozen
class Model:
    name: str
    value: int
    supply: int


@attrs.frozen
class Effect:
    kind: str
    model: str = ""
    """`make`: the model the Fabricator makes."""
    gift: str = ""
    """`make`: the model given to each other player as well (the Overactive Fabricator), or ''."""
    steps: int = 1
    """`upgrade`: how many models up."""


@attrs.frozen
class Improvement:
    name: str
    zone: str
    copies: int
    effect: Effect
    inputs: int
    outputs: int
    exits: str
    """`belt`: bots leaving it follow its square's belt; `choice`: the owner chooses, like a Fork."""
    recycle: tuple[str, ...]
    value: int


@attrs.frozen
class Truck:
    name: str
    price: int
    capacity: int
    counts: tuple[tuple[str, int], ...]
    """How many the box holds, by source (`rulebook`, `publisher`)."""
    upgrade_from: str
    upgrade_price: int


@attrs.frozen
class Blueprint:
    name: str
    stack: int
    models: tuple[str, ...]
    payout: int


@attrs.frozen
class Layout:
    """The factory board as the data describes it; board.py derives its graph."""

    start: tuple[str, ...]
    floor: tuple[str, ...]
    dock: tuple[str, ...]
    belts: tuple[tuple[str, tuple[str, ...]], ...]
    small_capacity: int
    graph: nx.DiGraph = attrs.field(eq=False, hash=False, repr=False)
    """Squares (attribute `zone`) and edges (attribute `kind`: BELT, UP, DOWN)."""

    def zone(self, square: str) -> str:
        return str(self.graph.nodes[square]["zone"])


@attrs.frozen
class MechanicaData:
    models: tuple[Model, ...]
    """From the lowest model to the highest."""
    start_wallet: int
    start_fabricator: str
    start_square: str
    start_bot: str
    layout: Layout
    extras: int
    prices: tuple[int, ...]
    trucks: tuple[Truck, ...]
    fork_price: int
    fork_count: int
    improvements: tuple[Improvement, ...]
    blueprints: tuple[Blueprint, ...]

    @property
    def tiles(self) -> int:
        return sum(i.copies for i in self.improvements)


def _unique(entries: Sequence[Mapping[str, Any]], where: Sequence[str], fail: Fail) -> None:
    seen: set[str] = set()
    for index, entry in enumerate(entries):
        if entry["name"] in seen:
            fail([*where, index, "name"], f"the name {entry['name']!r} is used twice")
        seen.add(entry["name"])


def _graph(board: Mapping[str, Any], fail: Fail) -> nx.DiGraph:
    """The squares and belt segments, with the fork exits each belt's neighbours give; every
    reference checked, every belt from the Start Zone to the Loading Dock, no cycle."""
    graph: Any = nx.DiGraph()
    for zone in (START, FLOOR, DOCK):
        for index, square in enumerate(board[zone]):
            if square in graph:
                fail(["board", zone, index], f"the square {square!r} is listed twice")
            graph.add_node(square, zone=zone)
    paths = [belt["path"] for belt in board["belts"]]
    _unique(board["belts"], ["board", "belts"], fail)
    for b, path in enumerate(paths):
        for k, square in enumerate(path):
            where: list[str | int] = ["board", "belts", b, "path", k]
            if square not in graph:
                fail(where, f"the belt runs to {square!r}, which is not a square of the board")
            zone = graph.nodes[square]["zone"]
            expected = START if k == 0 else DOCK if k == len(path) - 1 else FLOOR
            if zone != expected:
                fail(
                    where,
                    f"{square!r} is a {zone} square; a belt starts in the Start Zone, ends at the Loading Dock "
                    f"and crosses the Factory Floor between",
                )
            if k:
                before = path[k - 1]
                if any(graph.edges[before, t]["kind"] == BELT and t != square for t in graph.successors(before)):
                    fail(where, f"the belt out of {before!r} already leads elsewhere; belts may join but not part")
                graph.add_edge(before, square, kind=BELT)
    for b, path in enumerate(paths):
        for k, square in enumerate(path[:-1]):
            if graph.nodes[square]["zone"] != FLOOR:
                continue
            for other, kind in ((b - 1, UP), (b + 1, DOWN)):
                if (
                    0 <= other < len(paths)
                    and k + 1 < len(paths[other])
                    and not graph.has_edge(square, paths[other][k + 1])
                ):
                    graph.add_edge(square, paths[other][k + 1], kind=kind)
    try:
        cycle = nx.find_cycle(graph)
    except nx.NetworkXNoCycle:
        cycle = None
    if cycle is not None:
        ring = " -> ".join([str(u) for u, _ in cycle] + [str(cycle[0][0])])
        fail(["board", "belts"], f"a bot could ride for ever along the belts and fork exits: {ring}")
    for zone in (START, DOCK):
        for index, square in enumerate(board[zone]):
            if graph.degree(square) == 0:
                fail(["board", zone, index], f"no belt touches {square!r}")
    return graph


def build(document: Mapping[str, Any], fail: Fail) -> MechanicaData:
    for where in ("models", "improvements", "blueprints", "trucks"):
        _unique(document[where], [where], fail)
    models = tuple(Model(m["name"], m["value"], m["supply"]) for m in document["models"])
    known = {m.name for m in models}

    def model(where: Sequence[str | int], name: str) -> str:
        if name not in known:
            fail(where, f"unknown bot model {name!r}; models: {', '.join(sorted(known))}")
        return name

    board = document["board"]
    graph = _graph(board, fail)
    layout = Layout(
        tuple(board["start"]),
        tuple(board["floor"]),
        tuple(board["dock"]),
        tuple((b["name"], tuple(b["path"])) for b in board["belts"]),
        board["small_truck_capacity"],
        graph,
    )
    improvements = []
    for index, entry in enumerate(document["improvements"]):
        at: list[str | int] = ["improvements", index]
        spec = entry["effect"]
        kind = spec["kind"]
        if (kind == "make") != (entry["zone"] == START):
            fail([*at, "effect", "kind"], "Fabricators (zone start) make bots, and only they do")
        if kind == "make":
            model([*at, "effect", "model"], spec.get("model", ""))
        if "gift" in spec:
            if kind != "make":
                fail([*at, "effect", "gift"], "only a Fabricator gives bots to other players")
            model([*at, "effect", "gift"], spec["gift"])
        for r, name in enumerate(entry["recycle"]):
            model([*at, "recycle", r], name)
        inputs, outputs = entry.get("inputs", 0), entry.get("outputs", 0)
        if entry["zone"] == FLOOR and inputs < 1:
            fail([*at, "inputs"], "a Factory Floor improvement needs an input hole")
        if entry["zone"] == FLOOR and kind != "wrap" and outputs < 1:
            fail([*at, "outputs"], f"a {kind} improvement needs an output hole")
        if entry["zone"] == START and (inputs or outputs or "exits" in entry):
            fail(at, "a Fabricator has only its centre hole: no inputs, outputs or exits")
        effect = Effect(kind, spec.get("model", ""), spec.get("gift", ""), spec.get("steps", 1))
        exits = entry.get("exits", BELT)
        improvements.append(
            Improvement(
                entry["name"],
                entry["zone"],
                entry["copies"],
                effect,
                inputs,
                outputs,
                exits,
                tuple(entry["recycle"]),
                entry["value"],
            )
        )
    start = document["start"]
    fabricator = next((i for i in improvements if i.name == start["fabricator"]), None)
    if fabricator is None or fabricator.zone != START:
        fail(["start", "fabricator"], f"{start['fabricator']!r} is not a Fabricator of the improvements")
    if start["square"] not in layout.start:
        fail(["start", "square"], f"{start['square']!r} is not a Start Zone square")
    model(["start", "bot"], start["bot"])
    tiles = sum(i.copies for i in improvements)
    prices = tuple(document["shop"]["prices"])
    extras = document["tiles"]["extras"]
    if tiles - extras < 2:
        fail(["tiles", "extras"], f"{extras} Extras of {tiles} tiles leave fewer than 2 for the Shop at setup")
    trucks = []
    names = {t["name"] for t in document["trucks"]}
    for index, entry in enumerate(document["trucks"]):
        source = entry.get("upgrade_from", "")
        if source and source not in names:
            fail(["trucks", index, "upgrade_from"], f"no truck {source!r} to upgrade from")
        if source and "upgrade_price" not in entry:
            fail(["trucks", index, "upgrade_price"], "an upgrade needs its price")
        if entry["capacity"] <= board["small_truck_capacity"]:
            fail(["trucks", index, "capacity"], "a bought truck holds more than a Small Truck")
        counts = tuple(sorted(entry["counts"].items()))
        trucks.append(
            Truck(entry["name"], entry["price"], entry["capacity"], counts, source, entry.get("upgrade_price", 0))
        )
    blueprints = []
    for index, entry in enumerate(document["blueprints"]):
        for m, name in enumerate(entry["models"]):
            model(["blueprints", index, "models", m], name)
        blueprints.append(Blueprint(entry["name"], entry["stack"], tuple(entry["models"]), entry["payout"]))
    for stack in (1, 2):
        if not any(b.stack == stack for b in blueprints):
            fail(["blueprints"], f"Blueprint Stack {stack} is empty")
    return MechanicaData(
        models,
        start["wallet"],
        start["fabricator"],
        start["square"],
        start["bot"],
        layout,
        extras,
        prices,
        tuple(trucks),
        document["forks"]["price"],
        document["forks"]["count"],
        tuple(improvements),
        tuple(blueprints),
    )


def listing(data: MechanicaData) -> tuple[Component, ...]:
    """The data set's bot models, improvement tiles, blueprints and trucks, each with its facts,
    for `rulecheck components` (each is named by one key, which is also its name)."""
    found = [Component("bot model", m.name, m.name, f"sells for {m.value}, supply {m.supply}") for m in data.models]
    for tile in data.improvements:
        facts = f"{tile.zone}, {counted(tile.copies, 'copy', 'copies')}, {tile.effect.kind}, worth {tile.value}"
        found.append(Component("improvement", tile.name, tile.name, facts))
    for plan in data.blueprints:
        facts = f"stack {plan.stack}, {' + '.join(plan.models)}, pays {plan.payout}"
        found.append(Component("blueprint", plan.name, plan.name, facts))
    for truck in data.trucks:
        found.append(Component("truck", truck.name, truck.name, f"price {truck.price}, holds {truck.capacity}"))
    return tuple(found)


FORMAT: Final = DataFormat("mechanica", DATA_DIR / "schema.json", DATA_DIR / "default.toml", build)
