"""What the Globot Time Force rulebook states about its tokens and colours, as constraints for Z3.

Models: two groups of statements. Tokens (GTF-F01): each player has 3 tokens that "can be
used to reserve cards" (L53), reserves only 1 card at a time (L111), and triggers the end by
placing the third token on an achievement (L124, L130); with the readings that every token is
in one place (hand, achievement, reservation, spent) and that a reservation holds a token
(tokens=pool), and the premise that a reservation is still held when the end is triggered.
Colours (GTF-F16): Minoru "counts as radiant and null" (L178), a card counts as the colours it
depicts, which are fullospectrum colours (L176, L178), and the reading of L180 that "null" is
the absence of colour; and the data set's own spectrum, for the question asked of the data.

Leaves out: statements about play; those are the prover's (symbolic.py).
"""

from __future__ import annotations

from typing import Any

from rulecheck.games.globot_time_force.counters import TOKENS
from rulecheck.games.globot_time_force.game import GlobotTimeForce
from rulecheck.model.statements import Question, Statement, StatementSet

STATED_TOKENS = TOKENS  # L53: "3 player tokens"
STATED_RESERVATIONS = 1  # L111: "Players may only reserve 1 card at a time"
STATED_MINORU = ("radiant", "null")  # L178: "Minoru counts as radiant and null"
NULL = "null"
TOKEN_NAMES = ("tokens", "reservations_at_once", "hand", "placed", "locked", "spent", "reserved")


def _colours(game: GlobotTimeForce) -> tuple[str, ...]:
    return tuple(sorted(set(game.data.spectrum) | set(STATED_MINORU)))


def statement_set(game: GlobotTimeForce) -> StatementSet:
    colours = _colours(game)
    spectrum = set(game.data.spectrum)

    def variables(context: Any) -> dict[str, Any]:
        import z3

        found = {name: z3.Int(name, context) for name in TOKEN_NAMES}
        for colour in colours:
            found[f"spectrum:{colour}"] = z3.Bool(f"spectrum:{colour}", context)
            found[f"minoru:{colour}"] = z3.Bool(f"minoru:{colour}", context)
        return found

    def statements() -> tuple[Statement, ...]:
        import z3

        def held(v: dict[str, Any]) -> Any:
            return z3.And(*(v[n] >= 0 for n in TOKEN_NAMES))

        return (
            Statement(
                "three-tokens", ("GTF-S2",), "each player has 3 tokens (L53)", lambda v: v["tokens"] == STATED_TOKENS
            ),
            Statement(
                "tokens-reserve",
                ("GTF-S2",),
                "the 3 tokens 'can be used to reserve cards': each can hold a reservation (L53)",
                lambda v: v["reservations_at_once"] == v["tokens"],
            ),
            Statement(
                "one-at-a-time",
                ("GTF-T7",),
                "a player reserves only 1 card at a time (L111)",
                lambda v: v["reservations_at_once"] == STATED_RESERVATIONS,
            ),
            Statement(
                "third-token-triggers",
                ("GTF-E1", "GTF-E2"),
                "the end is triggered when a player has placed all their tokens on achievements (L37, L124)",
                lambda v: v["placed"] == v["tokens"],
            ),
            Statement(
                "tokens-in-one-place",
                ("GTF-S2",),
                "reading: every token is in hand, on an achievement, on a reservation or spent",
                lambda v: z3.And(held(v), v["hand"] + v["placed"] + v["locked"] + v["spent"] == v["tokens"]),
                reading=True,
            ),
            Statement(
                "reservation-holds-token",
                ("GTF-S2", "GTF-T7"),
                "reading (tokens=pool): a reserved card holds one of the tokens until it is paid",
                lambda v: v["locked"] == v["reserved"],
                reading=True,
            ),
            Statement(
                "reserved-at-trigger",
                ("GTF-T7",),
                "reading: a reserved card is still unpaid when the end is triggered",
                lambda v: v["reserved"] >= 1,
                reading=True,
            ),
            Statement(
                "minoru-radiant-null",
                ("GTF-C1",),
                "Minoru counts as radiant and null (L178)",
                lambda v: z3.And(*(v[f"minoru:{c}"] for c in STATED_MINORU)),
            ),
            Statement(
                "counts-as-depicted",
                ("GTF-C1", "GTF-C3"),
                "a card counts as the colours it depicts, colours of the fullospectrum (L176, L178)",
                lambda v: z3.And(*(z3.Implies(v[f"minoru:{c}"], v[f"spectrum:{c}"]) for c in colours)),
            ),
            Statement(
                "null-is-no-colour",
                ("GTF-C2",),
                "reading: 'null' is the absence of colour of L180, not a colour of the spectrum",
                lambda v: z3.Not(v[f"spectrum:{NULL}"]),
                reading=True,
            ),
            Statement(
                "data-spectrum",
                ("GTF-C1",),
                f"reading: the spectrum is the data set's ({', '.join(game.data.spectrum)})",
                lambda v: z3.And(*(v[f"spectrum:{c}"] == (c in spectrum) for c in colours)),
                reading=True,
            ),
        )

    def describe(model: Any, v: dict[str, Any]) -> dict[str, Any]:
        import z3

        def true(name: str) -> bool:
            return bool(z3.is_true(model.eval(v[name], model_completion=True)))

        return {
            "tokens": {n: model.eval(v[n], model_completion=True).as_long() for n in TOKEN_NAMES},
            "spectrum": [c for c in colours if true(f"spectrum:{c}")],
            "minoru": [c for c in colours if true(f"minoru:{c}")],
        }

    return StatementSet(variables, statements, QUESTIONS, describe)


QUESTIONS = (
    Question(
        "tokens-as-stated",
        "3 tokens that reserve cards, and 1 reservation at a time",
        ("three-tokens", "tokens-reserve", "one-at-a-time"),
    ),
    Question(
        "trigger-with-reservation",
        "the end triggered while a reservation holds a token",
        (
            "three-tokens",
            "third-token-triggers",
            "tokens-in-one-place",
            "reservation-holds-token",
            "reserved-at-trigger",
        ),
    ),
    Question(
        "trigger-with-reservation-assistant",
        "the end triggered while a card is reserved with a separate assistant",
        ("three-tokens", "third-token-triggers", "tokens-in-one-place", "reserved-at-trigger"),
    ),
    Question(
        "null-colour",
        "Minoru counts as null, a colour, while null is no colour",
        ("minoru-radiant-null", "counts-as-depicted", "null-is-no-colour"),
    ),
    Question(
        "null-colour-in-data",
        "Minoru's radiant and null among the data set's spectrum",
        ("minoru-radiant-null", "counts-as-depicted", "data-spectrum"),
    ),
)
