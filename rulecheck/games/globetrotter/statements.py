"""What the Globetrotter rulebook states about its planet, as constraints for Z3.

Models: one boolean per triangle of the real solid, true when that triangle is removed
with the bottom pentagon (P11), and the statements of L9 about it: the count (14), the
triangles left (66), that they "surround" the pentagon (each touches one of its
corners), and two readings the text implies: a description that does not depend on where
one starts around the pentagon (invariant under its 5-fold turn, computed as the board
automorphism fixing P11), and a playable board whose triangles keep their 3 neighbours.

Leaves out: statements about play; those are the prover's.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from types import MappingProxyType
from typing import Any

import networkx as nx

from rulecheck.geometry.facts import automorphisms
from rulecheck.geometry.planet import HQ, REMOVED_PENTAGON, TRIANGLE, labelled_faces
from rulecheck.model.statements import Question, Statement

STATED_REMOVED_TRIANGLES = 14  # L9: "its surrounding 14 triangles"
STATED_TRIANGLE_SPACES = 66  # L9: "66 triangle spaces"
TRIANGLE_NEIGHBOURS = 3


def _solid() -> nx.Graph:
    return labelled_faces()[1]


@cache
def _turn() -> Mapping[str, str]:
    """The 72° turn about the removed pentagon: the automorphism of the solid fixing it that moves
    T75 to T76 (found once: the search through the solid's automorphisms takes about a second)."""
    return MappingProxyType(
        next(
            g
            for g in automorphisms(nx.Graph(_solid()))
            if g[REMOVED_PENTAGON] == REMOVED_PENTAGON and g["T75"] == "T76"
        )
    )


def variables(context: Any) -> dict[str, Any]:
    """One Z3 boolean per triangle of the solid, in `context`: whether the board removes it."""
    import z3

    graph = _solid()
    return {t: z3.Bool(f"removed:{t}", context) for t in graph if graph.nodes[t]["kind"] == TRIANGLE}


def statements() -> tuple[Statement, ...]:
    import z3

    graph = _solid()
    corners = {f for f in graph if graph.nodes[f]["kind"] == TRIANGLE and graph.nodes[f]["ring"] in (1, 2)}
    turn = _turn()

    def count(v: dict[str, Any]) -> Any:
        return z3.Sum([z3.If(r, 1, 0) for r in v.values()]) == STATED_REMOVED_TRIANGLES

    def left(v: dict[str, Any]) -> Any:
        return len(v) - z3.Sum([z3.If(r, 1, 0) for r in v.values()]) == STATED_TRIANGLE_SPACES

    def surrounding(v: dict[str, Any]) -> Any:
        return z3.And(*(z3.Not(r) for t, r in v.items() if t not in corners))

    def symmetric(v: dict[str, Any]) -> Any:
        return z3.And(*(v[t] == v[turn[t]] for t in v))

    def regular(v: dict[str, Any]) -> Any:
        context = next(iter(v.values())).ctx

        def kept(n: str) -> Any:
            if n == REMOVED_PENTAGON:
                return z3.BoolVal(False, context)
            return z3.BoolVal(True, context) if graph.nodes[n]["kind"] == HQ else z3.Not(v[n])

        return z3.And(
            *(
                z3.Implies(z3.Not(r), z3.Sum([z3.If(kept(n), 1, 0) for n in graph[t]]) == TRIANGLE_NEIGHBOURS)
                for t, r in v.items()
            )
        )

    return (
        Statement("removes-14", ("GT-B2",), "the bottom pentagon's surrounding 14 triangles are not used", count),
        Statement("leaves-66", ("GT-B2",), "the playable board has 66 triangle spaces", left),
        Statement(
            "surrounding", ("GT-B2",), "each removed triangle touches a corner of the bottom pentagon", surrounding
        ),
        Statement(
            "symmetric",
            ("GT-B1", "GT-B2"),
            "reading: 'surrounding' names the same triangles wherever one starts around the pentagon",
            symmetric,
            reading=True,
        ),
        Statement(
            "three-neighbours",
            ("GT-B4",),
            "reading: every playable triangle keeps its 3 neighbours",
            regular,
            reading=True,
        ),
    )


QUESTIONS = (
    Question("as-stated", "14 surrounding triangles, as stated", ("removes-14", "leaves-66", "surrounding")),
    Question(
        "symmetric-14",
        "14 surrounding triangles, the same wherever one starts",
        ("removes-14", "leaves-66", "surrounding", "symmetric"),
    ),
    Question(
        "three-neighbours-14",
        "14 surrounding triangles, every playable triangle with 3 neighbours",
        ("removes-14", "leaves-66", "surrounding", "three-neighbours"),
    ),
)


def describe(model: Any, v: dict[str, Any]) -> dict[str, Any]:
    import z3

    removed = sorted(
        (t for t, r in v.items() if z3.is_true(model.eval(r, model_completion=True))), key=lambda t: int(t[1:])
    )
    return {"removed_triangles": removed}
