"""Exact numbers as text: a probability, an expectation or odds shown without rounding.

Models: an exact number (an int or a Fraction) written exactly, as `"1/6"` or `"-1"`
(`exact_text`, the form JSON output and suites use), and for a person, the exact form with
a decimal beside it for reading, as `"1/6 (0.1667)"` (`readable`): the decimal has
DIGITS significant digits, so a small chance such as 4379375/313456656384 reads as
`1.397e-05`, never as 0. An integer needs no decimal. `plain` is the value a JSON document
holds for a table cell: an exact number as text, other values (ints, strings, booleans,
None) as they are.

Leaves out: measured quantities (seconds, states per second), which are floats and are
shown as such where they are measured.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

DIGITS = 4
"""Significant digits of the decimal shown beside an exact fraction."""


def exact_text(value: int | Fraction) -> str:
    """`value` written exactly: an integer as itself, a fraction as p/q in lowest terms."""
    return str(Fraction(value))


def readable(value: Any) -> str:
    """A cell or value for a person: a fraction as `p/q (decimal)`, anything else as str()."""
    if isinstance(value, Fraction) and value.denominator != 1:
        return f"{value} ({float(value):.{DIGITS}g})"
    return str(value)


def plain(value: Any) -> Any:
    """A cell for JSON: a Fraction as its exact text, else `value` as it is."""
    return exact_text(value) if isinstance(value, Fraction) else value
