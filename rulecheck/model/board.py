"""The vocabulary of boards: what `rulecheck board` shows of a game's board graph.

Models: a board as a title (which reading or data set it comes from), its networkx graph
(undirected for a planet, directed for a factory's belts), the facts a game computes about
it (sizes, degrees, distances, symmetry, cycles), and each node's neighbours in the game's
own order of labels.

Leaves out: building any board (each game's board module, from geometry or from data) and
drawing one (a game's picture of a state).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs
import networkx as nx


@attrs.frozen
class BoardView:
    title: str
    graph: nx.Graph
    facts: Mapping[str, Any]
    order: Callable[[Any], Any] = str
    """The sort key of node labels (T2 before T10, say)."""

    def adjacency(self) -> dict[str, list[str]]:
        """Each node's neighbours (successors, for a directed graph), in label order."""
        return {
            str(node): sorted(map(str, self.graph[node]), key=self.order) for node in sorted(self.graph, key=self.order)
        }
