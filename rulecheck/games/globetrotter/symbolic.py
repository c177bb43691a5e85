"""Globetrotter's invariants as symbolic systems for the prover, built from counters.py.

Models: for each promised property the prover can prove, the variables it reads, the
initial condition (after setup), the invariant, and every step that changes those
variables, each step's guard and effect being the engine's own function from
counters.py called on Z3 terms (looked up on the module at proof time, so what is
proved is what the engine runs). Values a step reads but the property does not track
(the hit points a Repair sees, the points of another player's Treasury) are free
variables, bounded only by their own proved invariants.

The Fortification system is the exception: it is written over the real board graph
(one boolean per space and kind of piece), with the engine's Fortify guard
(counters.may_fortify) but with adjacency and occupancy encoded here, so its basis is
refinement: every step seen in play must match one of its steps.

Leaves out: multi-planet detail (every planet is the same board; the Fortification
system looks at planet a, and one opponent stands for all of them).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rulecheck.core.ops import Ops
from rulecheck.games.globetrotter import counters
from rulecheck.games.globetrotter.analysis import five_in_a_row_witness, rover_cap_witness
from rulecheck.games.globetrotter.context import Table
from rulecheck.games.globetrotter.game import Globetrotter
from rulecheck.games.globetrotter.options import (
    CapOrbit,
    DestroyingAction,
    DestructionRoll,
    RepairAtFull,
    SavedPointUse,
    TreasurySpend,
)
from rulecheck.games.globetrotter.state import FORTIFICATION, GlobetrotterState
from rulecheck.geometry.planet import label_order
from rulecheck.model.proof import BOOL, INT, Step, System, Valuation, unchanged

TURN_VARIABLES = (
    ("taken", INT),
    ("counted", INT),
    ("own_used", BOOL),
    ("stolen", INT),
    ("saved", INT),
    ("saved_now", INT),
    ("has_treasury", BOOL),
    ("loot", INT),
    ("same_kind", INT),
)


def _turn_steps(game: Globetrotter) -> tuple[Step, ...]:
    """How a player's turn counters and Treasury change (GT-A0, GT-T1..T6)."""
    stolen_first = game.options.treasury_spend is TreasurySpend.STOLEN_FIRST
    excluded = game.options.destroying_action is DestroyingAction.EXCLUDED
    next_turn = game.options.saved_point_use is SavedPointUse.NEXT_TURN
    cap = counters.TREASURY_CAPACITY

    def act(ops: Ops, v: Valuation, w: Valuation) -> Any:
        usable = counters.usable_saved(ops, v["saved"], v["saved_now"], next_turn)
        counted, own, stolen, usable_after = counters.spend_action(
            ops, v["counted"], v["own_used"], v["stolen"], usable, stolen_first
        )
        return ops.and_(
            counters.may_act(ops, v["counted"], v["own_used"], v["stolen"], usable),
            w["taken"] == v["taken"] + 1,
            w["counted"] == counted,
            w["own_used"] == own,
            w["stolen"] == stolen,
            w["saved"] == v["saved"] - (usable - usable_after),
            unchanged(ops, v, w, "saved_now", "has_treasury"),
        )

    def save(ops: Ops, v: Valuation, w: Valuation) -> Any:
        usable = counters.usable_saved(ops, v["saved"], v["saved_now"], next_turn)
        counted, own, stolen, _ = counters.spend_action(
            ops, v["counted"], v["own_used"], v["stolen"], usable, stolen_first
        )
        return ops.and_(
            v["has_treasury"],
            counters.can_save(ops, v["saved"], v["own_used"]),
            w["taken"] == v["taken"] + 1,
            w["counted"] == counted,
            w["own_used"] == own,
            w["stolen"] == stolen,
            w["saved"] == counters.saved_after_save(ops, v["saved"]),
            w["saved_now"] == v["saved_now"] + 1,
            unchanged(ops, v, w, "has_treasury"),
        )

    def theft(ops: Ops, v: Valuation, w: Valuation) -> Any:
        counted = v["counted"] - 1 if excluded else v["counted"]
        return ops.and_(
            v["own_used"],
            0 <= v["loot"],
            v["loot"] <= cap,  # the other Treasury keeps its own invariant
            w["counted"] == counted,
            w["stolen"] == counters.stolen_after_theft(ops, v["stolen"], counted, v["loot"]),
            unchanged(ops, v, w, "taken", "own_used", "saved", "saved_now", "has_treasury"),
        )

    def build_treasury(ops: Ops, v: Valuation, w: Valuation) -> Any:
        treasuries = ops.ite(v["has_treasury"], 1, 0)
        return ops.and_(
            v["same_kind"] >= 0,
            counters.may_build_kind(ops, v["same_kind"], True, treasuries),
            w["has_treasury"],
            w["saved"] == 0,
            unchanged(ops, v, w, "taken", "counted", "own_used", "stolen", "saved_now"),
        )

    def lose_treasury(ops: Ops, v: Valuation, w: Valuation) -> Any:
        return ops.and_(
            ops.not_(w["has_treasury"]),
            w["saved"] == 0,
            unchanged(ops, v, w, "taken", "counted", "own_used", "stolen", "saved_now"),
        )

    def new_turn(ops: Ops, v: Valuation, w: Valuation) -> Any:
        return ops.and_(
            w["taken"] == 0,
            w["counted"] == 0,
            ops.not_(w["own_used"]),
            w["stolen"] == 0,
            w["saved_now"] == 0,
            unchanged(ops, v, w, "saved", "has_treasury"),
        )

    return (
        Step("act", ("GT-A0", "GT-T3", "GT-T5"), act),
        Step("save", ("GT-T1", "GT-T2"), save),
        Step("destroy-a-treasury", ("GT-T4", "GT-T5"), theft),
        Step("build-treasury", ("GT-A11", "GT-T6"), build_treasury),
        Step("lose-treasury", ("GT-A14",), lose_treasury),
        Step("new-turn", ("GT-A0",), new_turn),
    )


def _turn_init(ops: Ops, v: Valuation) -> Any:
    return ops.and_(
        v["taken"] == 0,
        v["counted"] == 0,
        ops.not_(v["own_used"]),
        v["stolen"] == 0,
        v["saved"] == 0,
        v["saved_now"] == 0,
        ops.not_(v["has_treasury"]),
    )


def saved_points(game: Globetrotter) -> System:
    def invariant(ops: Ops, v: Valuation) -> Any:
        return ops.and_(
            0 <= v["saved"],
            v["saved"] <= counters.TREASURY_CAPACITY,
            ops.implies(ops.not_(v["has_treasury"]), v["saved"] == 0),
        )

    def lemma(ops: Ops, v: Valuation) -> Any:
        return 0 <= v["saved_now"]

    return System(
        "saved-points-in-range", ("GT-T2",), TURN_VARIABLES, _turn_init, invariant, _turn_steps(game), lemma=lemma
    )


def actions_in_a_row(game: Globetrotter) -> System:
    def claim(ops: Ops, v: Valuation) -> Any:
        return v["taken"] <= counters.ACTIONS_IN_A_ROW

    def lemma(ops: Ops, v: Valuation) -> Any:
        return ops.and_(
            v["taken"] == v["counted"],
            0 <= v["counted"],
            v["counted"] <= counters.ACTIONS_IN_A_ROW,
            0 <= v["stolen"],
            v["stolen"] <= counters.ACTIONS_IN_A_ROW - v["counted"],
            0 <= v["saved"],
            0 <= v["saved_now"],
            ops.implies(ops.not_(v["own_used"]), ops.and_(v["counted"] == 0, v["stolen"] == 0)),
        )

    return System(
        "at-most-4-actions-in-a-row",
        ("GT-T3", "GT-T4", "GT-T5"),
        TURN_VARIABLES,
        _turn_init,
        claim,
        _turn_steps(game),
        lemma=lemma,
        witness=lambda: five_in_a_row_witness(game),
    )


def build_points(game: Globetrotter) -> System:
    at_full = game.options.repair_at_full is RepairAtFull.LEGAL
    variables = (("points", INT), ("has_factory", BOOL), ("hp", INT), ("rovers", INT), ("buildings", INT))

    def with_factory(ops: Ops, v: Valuation, w: Valuation, guard: Any, points: Any) -> Any:
        return ops.and_(v["has_factory"], w["has_factory"], guard, w["points"] == points)

    steps = (
        Step(
            "turn-start",
            ("GT-F1",),
            lambda ops, v, w: with_factory(ops, v, w, True, counters.turn_start_points(ops, v["points"])),
        ),
        Step(
            "manufacture",
            ("GT-F2", "GT-F5"),
            lambda ops, v, w: with_factory(
                ops, v, w, counters.can_manufacture(ops, v["points"], v["rovers"], v["buildings"]), 0
            ),
        ),
        Step(
            "repair",
            ("GT-F3",),
            lambda ops, v, w: with_factory(
                ops,
                v,
                w,
                counters.can_repair(ops, v["hp"], v["points"], at_full),
                counters.after_repair_points(ops, v["points"]),
            ),
        ),
        Step(
            "build-factory",
            ("GT-A11",),
            lambda ops, v, w: ops.and_(
                counters.may_build_kind(ops, ops.ite(v["has_factory"], 1, 0), False, 0),
                w["has_factory"],
                w["points"] == 0,
            ),
        ),
        Step(
            "lose-factory",
            ("GT-A14", "GT-A8"),
            lambda ops, v, w: ops.and_(ops.not_(w["has_factory"]), w["points"] == 0),
        ),
    )

    def invariant(ops: Ops, v: Valuation) -> Any:
        return ops.and_(
            0 <= v["points"],
            v["points"] <= counters.FACTORY_CAPACITY,
            ops.implies(ops.not_(v["has_factory"]), v["points"] == 0),
        )

    return System(
        "build-points-in-range",
        ("GT-F1", "GT-F2", "GT-F3"),
        variables,
        lambda ops, v: ops.and_(v["has_factory"], v["points"] == 0),
        invariant,
        steps,
    )


def hit_points(game: Globetrotter, kind: str, most: int, repairable: bool) -> System:
    at_full = game.options.repair_at_full is RepairAtFull.LEGAL
    variables = (("hp", INT), ("alive", BOOL), ("amount", INT), ("points", INT))
    steps = [
        Step(
            "damage",
            ("GT-A5", "GT-A6", "GT-A8", "GT-D2", "GT-D5"),
            lambda ops, v, w: ops.and_(
                v["alive"],
                v["amount"] >= 1,
                w["hp"] == counters.damaged_hp(ops, v["hp"], v["amount"]),
                w["alive"] == (w["hp"] > 0),
            ),
        ),
        Step("create", ("GT-A8",), lambda ops, v, w: ops.and_(ops.not_(v["alive"]), w["alive"], w["hp"] == most)),
    ]
    if repairable:
        steps.append(
            Step(
                "repair",
                ("GT-F3",),
                lambda ops, v, w: ops.and_(
                    v["alive"],
                    counters.can_repair(ops, v["hp"], v["points"], at_full),
                    w["alive"],
                    w["hp"] == counters.repaired_hp(ops, v["hp"]),
                ),
            )
        )

    return System(
        f"hit-points-in-range ({kind})",
        ("GT-A8",),
        variables,
        lambda ops, v: ops.implies(v["alive"], v["hp"] == most),
        lambda ops, v: ops.implies(v["alive"], ops.and_(1 <= v["hp"], v["hp"] <= most)),
        tuple(steps),
    )


def fire_counters(game: Globetrotter) -> System:
    """A planet's fire counter, and its destruction roll after each firing (GT-D6, under
    `destruction_roll`): the 2d6 total is any of 2..12, and the planet is gone once destroyed."""
    or_equal = game.options.destruction_roll is DestructionRoll.LESS_OR_EQUAL

    def never_down(ops: Ops, v: Valuation, w: Valuation) -> Any:
        return w["fires"] >= v["fires"]

    def fire(ops: Ops, v: Valuation, w: Valuation) -> Any:
        return ops.and_(
            ops.not_(v["destroyed"]),
            w["fires"] == counters.fires_after_firing(ops, v["fires"]),
            unchanged(ops, v, w, "destroyed"),
        )

    def roll(ops: Ops, v: Valuation, w: Valuation) -> Any:
        return ops.and_(
            ops.not_(v["destroyed"]),
            2 <= v["total"],
            v["total"] <= 12,
            w["destroyed"] == counters.planet_destroyed(ops, v["total"], v["fires"], or_equal),
            unchanged(ops, v, w, "fires", "total"),
        )

    steps = (
        Step("fire", ("GT-D6",), fire, never_down),
        Step("destruction-roll", ("GT-D6",), roll, never_down),
        Step(
            "decommission-a-cannon",
            ("GT-A15",),
            lambda ops, v, w: unchanged(ops, v, w, "fires", "destroyed"),
            never_down,
        ),
    )
    return System(
        "fire-counters-never-decrease",
        ("GT-D6", "GT-A15"),
        (("fires", INT), ("total", INT), ("destroyed", BOOL)),
        lambda ops, v: ops.and_(v["fires"] == 0, ops.not_(v["destroyed"])),
        _nonnegative("fires"),
        steps,
    )


def one_building_per_type(game: Globetrotter, treasury: bool) -> System:
    """The count of one Building type: on one planet (GT-A11), or Treasuries anywhere (GT-T6)."""
    variables = (("count", INT), ("same_kind", INT), ("treasuries", INT))

    def build(ops: Ops, v: Valuation, w: Valuation) -> Any:
        if treasury:
            allowed = ops.and_(v["same_kind"] >= 0, counters.may_build_kind(ops, v["same_kind"], True, v["count"]))
        else:
            allowed = ops.and_(v["treasuries"] >= 0, counters.may_build_kind(ops, v["count"], False, v["treasuries"]))
        return ops.and_(allowed, w["count"] == v["count"] + 1)

    steps = (
        Step("build", ("GT-A10", "GT-A11", "GT-T6"), build),
        Step("lose", ("GT-A12", "GT-A8"), lambda ops, v, w: ops.and_(v["count"] >= 1, w["count"] == v["count"] - 1)),
    )
    name, clause = ("one-treasury-per-player", "GT-T6") if treasury else ("one-building-per-type-and-planet", "GT-A11")
    return System(
        name,
        (clause,),
        variables,
        lambda ops, v: ops.and_(0 <= v["count"], v["count"] <= 1),
        lambda ops, v: ops.and_(0 <= v["count"], v["count"] <= 1),
        steps,
    )


def _nonnegative(*names: str) -> Any:
    return lambda ops, v: ops.and_(*(v[n] >= 0 for n in names))


def rover_cap(game: Globetrotter) -> System:
    """Every Manufacture leaves no more Rovers, on the ground and in orbit together, than Buildings."""
    orbit_counts = game.options.cap_orbit is CapOrbit.COUNTS
    variables = (("ground", INT), ("orbit", INT), ("buildings", INT), ("points", INT), ("has_port", BOOL))
    moves = ("ground", "orbit")

    def manufacture(ops: Ops, v: Valuation, w: Valuation) -> Any:
        counted = v["ground"] + v["orbit"] if orbit_counts else v["ground"]
        return ops.and_(
            counters.can_manufacture(ops, v["points"], counted, v["buildings"]),
            w["ground"] == v["ground"] + 1,
            w["points"] == 0,
            unchanged(ops, v, w, "orbit", "buildings", "has_port"),
        )

    def changes(*kept: str) -> Any:
        return lambda extra: lambda ops, v, w: ops.and_(extra(ops, v, w), unchanged(ops, v, w, *kept))

    steps = (
        Step(
            "manufacture", ("GT-F2", "GT-F5"), manufacture, lambda ops, v, w: w["ground"] + w["orbit"] <= w["buildings"]
        ),
        Step(
            "turn-start",
            ("GT-F1",),
            changes("ground", "orbit", "buildings", "has_port")(
                lambda ops, v, w: w["points"] == counters.turn_start_points(ops, v["points"])
            ),
        ),
        Step(
            "enter-orbit",
            ("GT-SP1",),
            changes("buildings", "points", "has_port")(
                lambda ops, v, w: ops.and_(
                    v["has_port"], v["ground"] >= 1, w["ground"] == v["ground"] - 1, w["orbit"] == v["orbit"] + 1
                )
            ),
        ),
        Step(
            "descend",
            ("GT-SP2",),
            changes("buildings", "points", "has_port")(
                lambda ops, v, w: ops.and_(
                    v["orbit"] >= 1, w["orbit"] == v["orbit"] - 1, w["ground"] == v["ground"] + 1
                )
            ),
        ),
        Step(
            "build",
            ("GT-A10",),
            changes(*moves, "points")(
                lambda ops, v, w: ops.and_(
                    w["buildings"] == v["buildings"] + 1, ops.implies(v["has_port"], w["has_port"])
                )
            ),
        ),
        Step(
            "lose-a-rover",
            ("GT-A8",),
            changes("orbit", "buildings", "points", "has_port")(
                lambda ops, v, w: ops.and_(v["ground"] >= 1, w["ground"] == v["ground"] - 1)
            ),
        ),
    )

    return System(
        "manufacture-respects-rover-cap",
        ("GT-F5",),
        variables,
        lambda ops, v: ops.and_(
            v["ground"] == 1, v["orbit"] == 0, v["buildings"] == 1, v["points"] == 0, ops.not_(v["has_port"])
        ),
        _nonnegative("ground", "orbit", "buildings", "points"),
        steps,
        witness=lambda: rover_cap_witness(game),
    )


def fortifications_apart(game: Globetrotter) -> System:
    """No two Fortifications adjacent, over the real board graph: one boolean per space for each
    player's Fortifications and Rovers and for any other piece; a Fortify step of each player
    places one at the space numbered `at` (spaces in label order) when the engine's guard allows
    it there. Players are kept apart because under `space-own` whose Fortification stands next
    door decides."""
    graph = game.rules.boards.graph
    spaces = sorted(graph, key=label_order)
    index = {space: i for i, space in enumerate(spaces)}
    sides = tuple(f"p{player}" for player in range(game.players))
    kinds = ("fort", "rover")
    variables = (
        (("at", INT),)
        + tuple((f"{kind}_{side}_{s}", BOOL) for s in spaces for kind in kinds for side in sides)
        + tuple((f"other_{s}", BOOL) for s in spaces)
    )
    fort_names = [f"fort_{side}_{s}" for s in spaces for side in sides]
    reading = game.options.fortify_adjacency

    def fortify(who: str) -> Step:
        placements = [(f"fort_{side}_{s}", side == who, index[s]) for s in spaces for side in sides]
        """Each Fortification variable, whether it is `who`'s, and its space's number."""

        def relation(ops: Ops, v: Valuation, w: Valuation) -> Any:
            # made per space when first read: a step checked concretely reads the spaces round one only
            fort: Table[str, Any] = Table(lambda s: ops.or_(*(v[f"fort_{side}_{s}"] for side in sides)))
            allowed = []
            # With a concrete index (refinement) only that space's disjunct can hold.
            for space in [spaces[v["at"]]] if isinstance(v["at"], int) else spaces:
                near = list(graph[space])
                unoccupied = ops.not_(
                    ops.or_(fort[space], *(v[f"rover_{side}_{space}"] for side in sides), v[f"other_{space}"])
                )
                clear = ops.or_(
                    *(ops.and_(v[f"rover_{who}_{n}"], ops.not_(ops.or_(*(fort[m] for m in graph[n])))) for n in near)
                )
                guard = counters.may_fortify(
                    ops,
                    reading,
                    unoccupied,
                    ops.or_(*(v[f"rover_{who}_{n}"] for n in near)),
                    ops.or_(*(fort[n] for n in near)),
                    ops.or_(*(v[f"fort_{who}_{n}"] for n in near)),
                    clear,
                )
                allowed.append(ops.and_(v["at"] == index[space], guard))
            placed = [w[name] == ops.or_(v[name], ops.and_(mine, v["at"] == i)) for name, mine, i in placements]
            return ops.and_(ops.or_(*allowed), *placed)

        return Step(f"fortify-{who}", ("GT-A9",), relation)

    def remove(ops: Ops, v: Valuation, w: Valuation) -> Any:
        return ops.and_(*(ops.implies(w[n], v[n]) for n in fort_names))

    def other(ops: Ops, v: Valuation, w: Valuation) -> Any:
        return unchanged(ops, v, w, *fort_names)

    steps = (
        *(fortify(side) for side in sides),
        Step("fortifications-go", ("GT-A12", "GT-A8"), remove),
        Step("anything-else", ("GT-A1",), other),
    )

    def claim(ops: Ops, v: Valuation) -> Any:
        fort = {s: ops.or_(*(v[f"fort_{side}_{s}"] for side in sides)) for s in spaces}
        return ops.and_(*(ops.not_(ops.and_(fort[a], fort[b])) for a, b in graph.edges))

    def no_forts(ops: Ops, v: Valuation) -> Any:
        return ops.and_(*(ops.not_(v[n]) for n in fort_names))

    named = {
        s: ([(p, f"fort_{side}_{s}", f"rover_{side}_{s}") for p, side in enumerate(sides)], f"other_{s}")
        for s in spaces
    }
    """Each space's variables' names: per player, Fortification and Rover; any other piece."""
    empty = {name: False for name, sort in variables if sort == BOOL}

    def abstraction(game: Globetrotter, state: GlobetrotterState) -> Iterable[Valuation]:
        """Planet a: every space empty but those the state occupies there."""
        values: dict[str, Any] = dict(empty)
        for (planet, s), (rover, fort, building) in state.occupancy().items():
            if planet != 0:
                continue
            players, other_name = named[s]
            for player, fort_name, rover_name in players:
                values[fort_name] = fort is not None and fort.owner == player
                values[rover_name] = rover is not None and rover.owner == player
            values[other_name] = building is not None
        yield values

    def instances(v: Valuation, w: Valuation) -> Iterable[Valuation]:
        """A Fortify step can only have placed a Fortification where one appeared."""
        return [{"at": index[s]} for s in spaces if any(v[f"fort_{k}_{s}"] != w[f"fort_{k}_{s}"] for k in sides)]

    return System(
        "fortifications-never-adjacent",
        ("GT-A9",),
        variables,
        no_forts,
        claim,
        steps,
        basis="refinement",
        abstraction=abstraction,
        instances=instances,
        context=frozenset(n for n, _ in variables if n == "at" or not n.startswith("fort_")),
    )


def systems(game: Globetrotter) -> tuple[System, ...]:
    return (
        hit_points(game, "rover", counters.ROVER_HP, repairable=True),
        hit_points(game, "building", counters.BUILDING_HP, repairable=False),
        hit_points(game, FORTIFICATION, counters.FORTIFICATION_HP, repairable=False),
        build_points(game),
        saved_points(game),
        actions_in_a_row(game),
        fortifications_apart(game),
        one_building_per_type(game, treasury=True),
        one_building_per_type(game, treasury=False),
        rover_cap(game),
        fire_counters(game),
    )
