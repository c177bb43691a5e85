"""Measured facts about the solid and a planet board: counts, degrees, distances, symmetry.

Models: what `rulecheck board` reports and what the tests check against the rulebook
and audit.md. Every figure is computed from the graph, none is stored.

Leaves out: shooting distance (its readings are the game's options, not the board's).
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any

import networkx as nx
from networkx.algorithms.isomorphism import GraphMatcher

from rulecheck.geometry.planet import Planet
from rulecheck.geometry.snub import Polyhedron


def automorphisms(graph: nx.Graph) -> list[dict[str, str]]:
    """Every automorphism of the graph (plain adjacency, no labels or kinds), as a node map."""
    return list(GraphMatcher(graph, graph).isomorphisms_iter())


def automorphism_count(graph: nx.Graph) -> int:
    """The size of the graph's automorphism group."""
    return len(automorphisms(graph))


def solid_facts(solid: Polyhedron) -> dict[str, Any]:
    """Vertex, edge and face counts of a polyhedron and its Euler characteristic."""
    sides = Counter(len(f) for f in solid.faces)
    return {
        "vertices": len(solid.vertices),
        "edges": len(solid.edges),
        "faces": len(solid.faces),
        "faces_by_sides": {str(k): sides[k] for k in sorted(sides)},
        "euler_characteristic": len(solid.vertices) - len(solid.edges) + len(solid.faces),
    }


def _count_map(values: list[int]) -> dict[str, int]:
    counts = Counter(values)
    return {str(k): counts[k] for k in sorted(counts)}


def board_facts(board: Planet) -> dict[str, Any]:
    """The facts `rulecheck board` prints: sizes, adjacency, distances and symmetry of one board."""
    graph = board.graph
    connected = nx.is_connected(graph)
    hqs = board.hq_spaces
    hq_distances = [
        int(nx.shortest_path_length(graph, a, b)) if nx.has_path(graph, a, b) else -1 for a, b in combinations(hqs, 2)
    ]
    return {
        "removal": board.removal,
        "spaces": len(graph),
        "hq_spaces": len(hqs),
        "triangle_spaces": len(board.triangle_spaces),
        "adjacencies": graph.number_of_edges(),
        "connected": connected,
        "diameter": nx.diameter(graph) if connected else None,
        "degree_counts": _count_map([int(d) for _, d in graph.degree]),
        "hq_neighbour_counts": _count_map([len(graph[h]) for h in hqs]),
        "hq_distance_pairs": _count_map(hq_distances),
        "isolated_spaces": sorted(s for s in graph if graph.degree(s) == 0),
        "dangling_spaces": sorted(s for s in graph if graph.degree(s) == 1),
        "automorphisms": automorphism_count(graph),
    }
