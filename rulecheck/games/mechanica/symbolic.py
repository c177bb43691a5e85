"""Mechanica's invariants as symbolic systems for the prover, built from money.py.

Models: for each promised property the prover handles, the variables it reads, the initial condition (from
the data set), the claim, and every step that changes those variables, each step's guard and effect being
the engine's own function from money.py called on Z3 terms: the Wallet never negative (MEC-T2, MEC-T1), the
Vault never decreasing (MEC-B2), a Truck never over capacity (MEC-F08 under `crowded_hole`), every tile in
one place (MEC-S2, MEC-T9), and the game's length: the Shop's ranking function (money.shop_rank) falls
every turn an improvement is left, so the number of turns is at most a bound that Z3 computes from the
data set (the rank at setup, maximised by an Optimize query, plus a workday's other turns), and the game
ends only at the end of a workday under the default (equal turns, MEC-F03). Values a step reads but does
not track (a price, a sale value, a payout) are free variables bounded by what the data set allows.

Leaves out: which bots and squares (the factory run); the tile system counts tiles, not their types; the
length system models one rotation a turn (under `shop_rotation=until-full` a turn draws more, which only
makes the rank fall faster, and is not modelled).
"""

from __future__ import annotations

from typing import Any

from rulecheck.core.ops import INT_OPS, Ops, Z3Ops
from rulecheck.games.mechanica import money
from rulecheck.games.mechanica.game import Mechanica
from rulecheck.model.proof import BOOL, INT, Step, System, Valuation, unchanged


def _one_of(ops: Ops, term: Any, values: set[int]) -> Any:
    return ops.or_(*(term == value for value in sorted(values)))


def wallet(game: Mechanica) -> System:
    data = game.data
    prices = (
        set(data.prices) | {data.fork_price} | {t.price for t in data.trucks} | {t.upgrade_price for t in data.trucks}
    )
    values = {m.value for m in data.models}
    variables = (("wallet", INT), ("price", INT), ("value", INT))

    def pay(ops: Ops, v: Valuation, w: Valuation) -> Any:
        return ops.and_(
            _one_of(ops, v["price"], prices),
            money.can_pay(ops, v["wallet"], v["price"]),
            w["wallet"] == money.paid(ops, v["wallet"], v["price"]),
        )

    def sell(ops: Ops, v: Valuation, w: Valuation) -> Any:
        return ops.and_(_one_of(ops, v["value"], values), w["wallet"] == money.sold(ops, v["wallet"], v["value"]))

    return System(
        "wallet-never-negative",
        ("MEC-T1", "MEC-T2", "MEC-A2", "MEC-A3"),
        variables,
        lambda ops, v: v["wallet"] == data.start_wallet,
        lambda ops, v: v["wallet"] >= 0,
        (Step("buy", ("MEC-T2", "MEC-A2", "MEC-A3"), pay), Step("sell", ("MEC-T1",), sell)),
    )


def vault(game: Mechanica) -> System:
    data = game.data
    amounts = {b.payout for b in data.blueprints} | {m.value for m in data.models}

    def put(ops: Ops, v: Valuation, w: Valuation) -> Any:
        return ops.and_(_one_of(ops, v["amount"], amounts), w["vault"] == money.vaulted(ops, v["vault"], v["amount"]))

    return System(
        "vault-never-decreases",
        ("MEC-B1", "MEC-B2", "MEC-W6"),
        (("vault", INT), ("amount", INT)),
        lambda ops, v: v["vault"] == 0,
        lambda ops, v: v["vault"] >= 0,
        (
            Step("blueprint-or-wrap", ("MEC-B1", "MEC-W6"), put, lambda ops, v, w: w["vault"] >= v["vault"]),
            Step("anything-else", ("MEC-B2",), lambda ops, v, w: unchanged(ops, v, w, "vault"), lambda ops, v, w: True),
        ),
    )


def trucks(game: Mechanica) -> System:
    rules = game.rules
    keep_some = rules.keep_some
    capacities = set(rules.capacity.values())

    def arrive(ops: Ops, v: Valuation, w: Valuation) -> Any:
        return ops.and_(
            v["arriving"] >= 0,
            w["held"] == v["held"] + money.kept(ops, v["held"], v["arriving"], v["capacity"], keep_some),
            unchanged(ops, v, w, "capacity"),
        )

    def leave(ops: Ops, v: Valuation, w: Valuation) -> Any:
        return ops.and_(v["held"] >= 1, w["held"] == v["held"] - 1, unchanged(ops, v, w, "capacity"))

    def replace(ops: Ops, v: Valuation, w: Valuation) -> Any:
        return ops.and_(
            _one_of(ops, w["capacity"], capacities), w["capacity"] > v["capacity"], unchanged(ops, v, w, "held")
        )

    return System(
        "trucks-within-capacity",
        ("MEC-A3", "MEC-W3"),
        (("held", INT), ("capacity", INT), ("arriving", INT)),
        lambda ops, v: ops.and_(v["held"] == 0, v["capacity"] == rules.capacity["small"]),
        lambda ops, v: ops.and_(0 <= v["held"], v["held"] <= v["capacity"]),
        (
            Step("run", ("MEC-W3",), arrive),
            Step("sell-or-blueprint", ("MEC-T1", "MEC-B1"), leave),
            Step("buy-truck", ("MEC-A3",), replace),
        ),
    )


def tiles(game: Mechanica) -> System:
    data = game.data
    rules = game.rules
    total = data.tiles
    variables = (("unseen", INT), ("stack", INT), ("extras", INT), ("shop", INT), ("gone", INT))

    def draw(ops: Ops, v: Valuation, w: Valuation) -> Any:
        from_stack, from_extras = money.draw_from(ops, v["stack"], v["extras"], rules.extras_after_stack)
        extra = ops.or_(from_extras, v["extras"] > 0) if rules.double_rotate else from_extras
        return ops.and_(
            ops.or_(from_stack, extra),
            v["shop"] < len(data.prices),  # a tile is drawn into the emptied 7-cost spot only
            w["unseen"] == v["unseen"] - 1,
            w["stack"] == ops.ite(from_stack, v["stack"] - 1, v["stack"]),
            w["extras"] == ops.ite(from_stack, v["extras"], v["extras"] - 1),
            w["shop"] == v["shop"] + 1,
            unchanged(ops, v, w, "gone"),
        )

    def leave_shop(ops: Ops, v: Valuation, w: Valuation) -> Any:
        return ops.and_(
            v["shop"] >= 1,
            w["shop"] == v["shop"] - 1,
            w["gone"] == v["gone"] + 1,
            unchanged(ops, v, w, "unseen", "stack", "extras"),
        )

    def claim(ops: Ops, v: Valuation) -> Any:
        return ops.and_(
            v["unseen"] == v["stack"] + v["extras"],
            v["unseen"] + v["shop"] + v["gone"] == total,
            v["stack"] >= 0,
            v["extras"] >= 0,
            v["shop"] >= 0,
            v["shop"] <= len(data.prices),
        )

    def init(ops: Ops, v: Valuation) -> Any:
        return ops.and_(
            v["stack"] == total - data.extras - 2,
            v["extras"] == data.extras,
            v["unseen"] == total - 2,
            v["shop"] == 2,
            v["gone"] == 0,
        )

    return System(
        "tiles-in-one-place",
        ("MEC-S2", "MEC-S3", "MEC-T9", "MEC-T10", "MEC-T11"),
        variables,
        init,
        claim,
        (Step("draw", ("MEC-T9", "MEC-T11", "MEC-S6"), draw), Step("buy-or-fall", ("MEC-T2", "MEC-T10"), leave_shop)),
    )


def _spots(game: Mechanica) -> int:
    return len(game.data.prices)


def _occupied(v: Valuation, spots: int) -> list[Any]:
    return [v[f"spot{i}"] for i in range(spots)]


def _usable_extras(ops: Ops, game: Mechanica, extras: Any) -> Any:
    return extras if game.rules.extras_after_stack or game.rules.double_rotate else 0


def rank_at(ops: Ops, game: Mechanica, stack: Any, extras: Any, occupied: list[Any]) -> Any:
    """The Shop's rank, counting the Extras only where they can still come out."""
    return money.shop_rank(ops, stack, _usable_extras(ops, game, extras), occupied)


def counted_bound(game: Mechanica) -> int:
    """`turn_bound` counted with the engine's ints: the rank at setup plus a workday's other turns."""
    data = game.data
    spots = [True, True] + [False] * (_spots(game) - 2)
    return int(rank_at(INT_OPS, game, data.tiles - data.extras - 2, data.extras, spots)) + game.players - 1


def turn_bound(game: Mechanica) -> int:
    """The most turns a game can take: the largest rank at setup, found by Z3 over the data set's
    initial condition, plus the other turns of the last workday."""
    ops = Z3Ops(fresh=True)
    z3 = ops.z3
    spots = _spots(game)
    v = {name: ops.int(name) for name in ("stack", "extras")} | {f"spot{i}": ops.bool(f"spot{i}") for i in range(spots)}
    best = z3.Optimize(ctx=ops.ctx)
    best.add(_length_init(ops, game, v, with_turns=False))
    rank = rank_at(ops, game, v["stack"], v["extras"], _occupied(v, spots))
    handle = best.maximize(rank)
    assert best.check() == z3.sat
    return int(handle.value().as_long()) + game.players - 1


def _length_init(ops: Ops, game: Mechanica, v: Valuation, with_turns: bool = True) -> Any:
    data = game.data
    occupied = [v[f"spot{i}"] for i in range(_spots(game))]
    facts = [
        v["stack"] == data.tiles - data.extras - 2,
        v["extras"] == data.extras,
        occupied[0],
        occupied[1],
        *(ops.not_(o) for o in occupied[2:]),
    ]
    if with_turns:
        facts += [v["turns"] == 0, v["seat"] == 0, ops.not_(v["over"])]
    return ops.and_(*facts)


def length(game: Mechanica, equal_turns: bool) -> System:
    """The game's length (equal_turns False: at most `turn_bound` turns) or its end (True: the game ends
    only when the last seat has played, so turns are equal)."""
    rules = game.rules
    spots = _spots(game)
    players = game.players
    bound = turn_bound(game)
    occupancy = tuple((f"spot{i}", BOOL) for i in range(spots))
    bought = tuple((f"bought{i}", BOOL) for i in range(spots))
    variables = (("stack", INT), ("extras", INT), ("turns", INT), ("seat", INT), ("over", BOOL), *occupancy, *bought)

    def left(ops: Ops, v: Valuation) -> Any:
        return money.improvements_left(ops, v["stack"], v["extras"], rules.extras_after_stack, _occupied(v, spots))

    def rank(ops: Ops, v: Valuation) -> Any:
        return rank_at(ops, game, v["stack"], v["extras"], _occupied(v, spots))

    def turn(ops: Ops, v: Valuation, w: Valuation) -> Any:
        """Buy any Shop tiles, rotate one spot, draw (MEC-T8, MEC-T9), maybe Double Rotate (MEC-T11); the
        seat moves on, and at the end of a workday the end is checked (MEC-E1)."""
        after_buying = [ops.and_(o, ops.not_(v[f"bought{i}"])) for i, o in enumerate(_occupied(v, spots))]
        rotated = [False, *after_buying[:-1]]
        from_stack, from_extras = money.draw_from(ops, v["stack"], v["extras"], rules.extras_after_stack)
        drawn = ops.or_(from_stack, from_extras)
        once = [drawn, *rotated[1:]]
        stack = ops.ite(from_stack, v["stack"] - 1, v["stack"])
        extras = ops.ite(from_extras, v["extras"] - 1, v["extras"])
        double = money.double_rotate_due(ops, once, rules.double_rotate, extras, rules.rotate_without_extras)
        extra_drawn = money.double_rotate_draws(ops, double, extras)
        final = [
            ops.ite(double, extra_drawn, once[0]),
            *(ops.ite(double, once[i - 1], once[i]) for i in range(1, spots)),
        ]
        extras = ops.ite(extra_drawn, extras - 1, extras)
        seat = ops.ite(v["seat"] + 1 == players, 0, v["seat"] + 1)
        ends = ops.and_(
            seat == 0, ops.not_(money.improvements_left(ops, stack, extras, rules.extras_after_stack, final))
        )
        return ops.and_(
            ops.not_(v["over"]),
            w["stack"] == stack,
            w["extras"] == extras,
            *(w[f"spot{i}"] == final[i] for i in range(spots)),
            w["turns"] == v["turns"] + 1,
            w["seat"] == seat,
            w["over"] == ends,
        )

    def at_once(ops: Ops, v: Valuation, w: Valuation) -> Any:
        """`game_end=at-once`: the game stops as soon as nothing is left (MEC-O1)."""
        after_buying = [ops.and_(o, ops.not_(v[f"bought{i}"])) for i, o in enumerate(_occupied(v, spots))]
        return ops.and_(
            ops.not_(v["over"]),
            ops.not_(money.improvements_left(ops, v["stack"], v["extras"], rules.extras_after_stack, after_buying)),
            *(w[f"spot{i}"] == after_buying[i] for i in range(spots)),
            w["over"],
            unchanged(ops, v, w, "stack", "extras", "turns", "seat"),
        )

    steps = [Step("turn", ("MEC-T8", "MEC-T9", "MEC-T11", "MEC-E1", "MEC-W8"), turn)]
    if rules.at_once:
        steps.append(Step("end-at-once", ("MEC-O1",), at_once))

    def lemma(ops: Ops, v: Valuation) -> Any:
        return ops.and_(
            0 <= v["seat"],
            v["seat"] < players,
            v["stack"] >= 0,
            v["extras"] >= 0,
            ops.implies(left(ops, v), v["turns"] + rank(ops, v) <= bound - players + 1),
            ops.implies(
                ops.and_(ops.not_(left(ops, v)), ops.not_(v["over"])),
                ops.and_(v["seat"] >= 1, v["turns"] - v["seat"] + 1 <= bound - players + 1),
            ),
            ops.implies(v["over"], v["turns"] <= bound),
            ops.implies(ops.not_(v["over"]), v["turns"] - v["seat"] <= bound - players + 1),
        )

    if equal_turns:
        return System(
            "equal-turns-at-the-end",
            ("MEC-W7", "MEC-E1", "MEC-O1"),
            variables,
            lambda ops, v: _length_init(ops, game, v),
            lambda ops, v: ops.implies(v["over"], v["seat"] == 0),
            tuple(steps),
            lemma=lambda ops, v: ops.and_(0 <= v["seat"], v["seat"] < players),
        )
    return System(
        "turns-within-bound",
        ("MEC-O1", "MEC-E1", "MEC-T8", "MEC-T9"),
        variables,
        lambda ops, v: _length_init(ops, game, v),
        lambda ops, v: v["turns"] <= bound,
        tuple(steps),
        lemma=lemma,
    )


def systems(game: Mechanica) -> tuple[System, ...]:
    return (wallet(game), vault(game), trucks(game), tiles(game), length(game, False), length(game, True))
