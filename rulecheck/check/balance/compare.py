"""Readings compared: which option values change who wins.

Models: the readings of a game beside a setup's own (every other value of every option, one
option changed at a time), and each one's figures set against the setup's: Pearson's chi-square
test of homogeneity of the outcome distribution (a seat winning alone, a draw, everyone losing,
a timeout; categories no game of either fell in left out), its p-value, and Holm's correction
for the number of readings compared; a reading changes who wins when its adjusted p-value is
below ALPHA.

Leaves out: playing the games (games.py) and why a reading matters in the rulebook (the
campaign's readings and findings).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import attrs

from rulecheck.check.balance.figures import Figures
from rulecheck.check.balance.statistics import chi_square_homogeneity, chi_square_p, holm
from rulecheck.core.game import Game

ALPHA: Final = 0.05
"""The family-wise error rate under which a difference counts as significant."""
TEST: Final = "Pearson's chi-square test of homogeneity of the outcome distribution, Holm-corrected"


def other_readings(game: Game[Any, Any]) -> list[tuple[str, str]]:
    """(option, value) for every value of every option of `game` other than the one it plays under."""
    return [
        (option.name, value)
        for option in game.option_space.options
        for value in option.values
        if value != game.options.text[option.name]
    ]


@attrs.frozen
class Compared:
    """One reading's figures against the base's: the test's statistic, degrees of freedom,
    p-value and Holm-adjusted p-value, and whether it changes who wins."""

    option: str
    value: str
    figures: Figures
    statistic: float
    degrees: int
    p: float
    adjusted: float

    @property
    def significant(self) -> bool:
        return self.adjusted < ALPHA

    def to_data(self) -> dict[str, Any]:
        return {
            "option": self.option,
            "value": self.value,
            "figures": self.figures.to_data(),
            "statistic": self.statistic,
            "degrees": self.degrees,
            "p": self.p,
            "adjusted_p": self.adjusted,
            "significant": self.significant,
        }


def compared(base: Figures, readings: Sequence[tuple[tuple[str, str], Figures]]) -> list[Compared]:
    """Each reading's figures against `base`, Holm-corrected over all of them."""
    tests = [chi_square_homogeneity((base.outcomes, figures.outcomes)) for _, figures in readings]
    p_values = [chi_square_p(statistic, degrees) for statistic, degrees in tests]
    return [
        Compared(option, value, figures, statistic, degrees, p, adjusted)
        for ((option, value), figures), (statistic, degrees), p, adjusted in zip(
            readings, tests, p_values, holm(p_values)
        )
    ]
