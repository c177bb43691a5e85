"""What the Mechanica rulebook states about the Extras, as constraints for Z3 (MEC-F01).

Models: the player count, whether a player buys every improvement in the Shop in one turn (L103 "as many
as you can afford", affordable by the data set's starting Wallet and the sale of a full Loading Dock of the
dearest bots), the Shop's spots after the rotation that follows (the emptied Shop turns, the Stack's next
tile goes into the 7-cost spot), whether Double Rotate is then due (money.double_rotate_due, the engine's
own guard), and whether an Extra comes into play. The statements: L50 (1-3 players: no Extras), L137-139
(Double Rotate, 2-3 players: an Extra comes out), L103 (buy all you can afford) and the player count.
Also where the starting Basic Fabricators come from: L38 and L212 shuffle all the improvements into
the Extras and the Stack, L36 gives each player a Fabricator at setup, and the publisher counts the
Basic Fabricator among the 9 types of 3 tiles.

Leaves out: everything else about play; the prover and the fuzzer cover that.
"""

from __future__ import annotations

from typing import Any

from rulecheck.core.ops import Z3Ops
from rulecheck.games.mechanica import money
from rulecheck.model.statements import Question, Statement, StatementSet


def statement_set(game: Any) -> StatementSet:
    data = game.data
    rules = game.rules
    spots = len(data.prices)
    best_sale = max(m.value for m in data.models) * sum(rules.capacity["small"] for _ in rules.dock)
    setup_prices = data.prices[0] + data.prices[1]

    def variables(context: Any) -> dict[str, Any]:
        import z3

        return {
            "players": z3.Int("players", context),
            "wallet": z3.Int("wallet", context),
            "buys_all": z3.Bool("buys_all", context),
            "extra_used": z3.Bool("extra_used", context),
            "shuffled": z3.Int("shuffled", context),
            "start_from_tiles": z3.Bool("start_from_tiles", context),
        }

    def statements() -> tuple[Statement, ...]:
        import z3

        def due(v: dict[str, Any]) -> Any:
            ops = Z3Ops()
            ops.ctx = v["players"].ctx  # the engine's guard, built in the context `ask` gave the variables
            occupied = [z3.BoolVal(True, ops.ctx)] + [z3.Not(v["buys_all"])] * (spots - 1)
            small_game = z3.And(2 <= v["players"], v["players"] <= 3)
            extras = z3.IntVal(data.extras, ops.ctx)
            return money.double_rotate_due(ops, occupied, small_game, extras, rules.rotate_without_extras)

        return (
            Statement(
                "setup-no-extras",
                ("MEC-S6",),
                "L50: in a 1-3 player game the Extras are not used",
                lambda v: z3.Implies(v["players"] <= 3, z3.Not(v["extra_used"])),
            ),
            Statement(
                "double-rotate",
                ("MEC-T11",),
                "L137-139: 2-3 players, the only improvement after rotating in the 7-cost spot: an Extra comes out",
                lambda v: z3.Implies(due(v), v["extra_used"]),
            ),
            Statement(
                "buy-what-you-afford",
                ("MEC-T2", "MEC-S1", "MEC-T1"),
                "L103: a player may buy as many improvements as the Wallet pays for; at the first turn the Shop "
                "holds the 7-cost and 5-cost improvements and the Wallet the start money and a full dock's sales",
                lambda v: z3.And(
                    v["wallet"] >= 0,
                    v["wallet"] <= data.start_wallet + best_sale,
                    z3.Implies(v["wallet"] >= setup_prices, v["buys_all"]),
                    z3.Implies(v["buys_all"], v["wallet"] >= setup_prices),
                    v["wallet"] == data.start_wallet + best_sale,
                ),
            ),
            Statement(
                "two-players", ("MEC-S6", "MEC-T11"), "a 2-player game", lambda v: v["players"] == 2, reading=True
            ),
            Statement("four-players", ("MEC-S6",), "a 4-player game", lambda v: v["players"] == 4, reading=True),
            Statement(
                "all-tiles-shuffled",
                ("MEC-S2", "MEC-P4"),
                "L38, L212: all the improvements are shuffled, 6 into the Extras and the other 21 into the Stack; "
                "the publisher: 9 types of 3 copies",
                lambda v: v["shuffled"] == (data.tiles - data.extras) + data.extras,
            ),
            Statement(
                "a-fabricator-each",
                ("MEC-S1", "MEC-P3"),
                "L36: each player starts with a bot on her own Basic Fabricator; a tile is in one place only",
                lambda v: v["shuffled"] + z3.If(v["start_from_tiles"], v["players"], 0) <= data.tiles,
            ),
            Statement(
                "starting-fabricator-is-a-tile",
                ("MEC-S1", "MEC-P4"),
                "reading: the starting Basic Fabricators are among the 27 improvement tiles (Basic Fabricator is "
                "one of the 9 types of 3)",
                lambda v: v["start_from_tiles"],
                reading=True,
            ),
        )

    questions = (
        Question(
            "extras-in-2-players",
            "a 2-player game where a player buys the whole Shop",
            ("setup-no-extras", "double-rotate", "buy-what-you-afford", "two-players"),
        ),
        Question(
            "extras-in-4-players",
            "a 4-player game where a player buys the whole Shop",
            ("setup-no-extras", "double-rotate", "buy-what-you-afford", "four-players"),
        ),
        Question(
            "starting-fabricators",
            "a 2-player game whose starting Fabricators are improvement tiles",
            ("all-tiles-shuffled", "a-fabricator-each", "starting-fabricator-is-a-tile", "two-players"),
        ),
        Question(
            "starting-fabricators-apart",
            "a 2-player game whose starting Fabricators are not among the shuffled tiles",
            ("all-tiles-shuffled", "a-fabricator-each", "two-players"),
        ),
    )

    def describe(model: Any, v: dict[str, Any]) -> dict[str, Any]:
        import z3

        return {
            name: (
                z3.is_true(model.eval(term, model_completion=True))
                if z3.is_bool(term)
                else model.eval(term, model_completion=True).as_long()
            )
            for name, term in v.items()
        }

    return StatementSet(variables, statements, questions, describe)
