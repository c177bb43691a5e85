"""Mechanica's factory board as `rulecheck board` shows it: the graph the data set's belts describe.

Models: the directed graph of squares (Start Zone, Factory Floor, Loading Dock) and belt segments with
the fork exits to the belts above and below (data.py derives it from the belts), with its facts: squares
by zone, belts, edges by kind, the longest ride (the graph has no cycle, which data.py checks).

Leaves out: drawing a factory with its bots (picture.py).
"""

from __future__ import annotations

from typing import Any

import networkx as nx

from rulecheck.games.mechanica.data import DOCK, FLOOR, START
from rulecheck.model.board import BoardView


def board_view(game: Any) -> BoardView:
    layout = game.data.layout
    graph: Any = layout.graph
    kinds: dict[str, int] = {}
    for edge in graph.edges(data="kind"):
        kinds[str(edge[2])] = kinds.get(str(edge[2]), 0) + 1
    facts = {
        "squares": graph.number_of_nodes(),
        "start zone": len(layout.start),
        "factory floor": len(layout.floor),
        "loading dock": len(layout.dock),
        "belts": len(layout.belts),
        "edges by kind": dict(sorted(kinds.items())),
        "acyclic": nx.is_directed_acyclic_graph(graph),
        "longest ride": nx.dag_longest_path_length(graph),
    }
    order = {s: i for i, s in enumerate(layout.start + layout.floor + layout.dock)}
    return BoardView(
        f"Mechanica factory board ({game.loaded_data.source})", graph, facts, order=lambda s: order.get(s, 0)
    )


ZONES = (START, FLOOR, DOCK)
