"""The statistics a balance report rests on, in pure Python.

Models: the Wilson score interval of a proportion (95% by default), the chi-square statistic of a
contingency table (homogeneity of two or more samples over the same categories) and of counts
against equal shares (goodness of fit), the chi-square distribution's upper tail (its p-value) by
the regularized incomplete gamma function, and Holm's step-down correction of several p-values.

Leaves out: what the samples are (figures.py) and exact tests for small counts (a chi-square
p-value is an approximation when expected counts fall below about 5; the report says how many
games it rests on).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Z_95 = 1.959963984540054
"""The standard normal quantile of 0.975: a two-sided 95% interval is the estimate +- Z_95 standard errors."""

_GAMMA_STEPS = 500
_GAMMA_EPSILON = 1e-15


def wilson(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a proportion observed as `successes` of `trials` (95% for the
    default `z`); (0, 1) when there are no trials."""
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes of {trials} trials")
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def chi_square_homogeneity(table: Sequence[Sequence[int]]) -> tuple[float, int]:
    """(statistic, degrees of freedom) of Pearson's chi-square test that the rows of `table`
    (samples; columns are the categories) come from one distribution. Columns and rows with no
    count at all are left out; with fewer than two of either, the statistic is 0 with 0 degrees."""
    rows = [list(row) for row in table if sum(row)]
    columns = [c for c in range(len(table[0]) if table else 0) if any(row[c] for row in rows)]
    if len(rows) < 2 or len(columns) < 2:
        return 0.0, 0
    total = sum(sum(row) for row in rows)
    statistic = 0.0
    for row in rows:
        for c in columns:
            expected = sum(row) * sum(r[c] for r in rows) / total
            statistic += (row[c] - expected) ** 2 / expected
    return statistic, (len(rows) - 1) * (len(columns) - 1)


def chi_square_equal_shares(counts: Sequence[int]) -> tuple[float, int]:
    """(statistic, degrees of freedom) of Pearson's goodness-of-fit test of `counts` against equal
    shares of their total; 0 with 0 degrees when there is nothing to share."""
    total = sum(counts)
    if total == 0 or len(counts) < 2:
        return 0.0, 0
    expected = total / len(counts)
    return sum((n - expected) ** 2 / expected for n in counts), len(counts) - 1


def chi_square_p(statistic: float, degrees: int) -> float:
    """The probability that a chi-square variable of `degrees` degrees of freedom is at least
    `statistic`: Q(degrees / 2, statistic / 2), the regularized upper incomplete gamma function.
    1 for no degrees of freedom (nothing was tested)."""
    if degrees <= 0 or statistic <= 0:
        return 1.0
    return _upper_gamma(degrees / 2, statistic / 2)


def _upper_gamma(a: float, x: float) -> float:
    """Q(a, x): by the series of P when x < a + 1, else by Lentz's continued fraction."""
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1 / a
        for n in range(1, _GAMMA_STEPS):
            term *= x / (a + n)
            total += term
            if abs(term) < abs(total) * _GAMMA_EPSILON:
                break
        return max(0.0, 1 - total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    fraction = d
    for n in range(1, _GAMMA_STEPS):
        an = -n * (n - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        fraction *= step
        if abs(step - 1) < _GAMMA_EPSILON:
            break
    return min(1.0, math.exp(log_front) * fraction)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given: the k-th smallest of m is
    multiplied by m - k + 1, kept at least the one before it and at most 1. A family of tests
    rejected where the adjusted value is below alpha keeps the chance of any false rejection
    under alpha."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [1.0] * len(p_values)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted
