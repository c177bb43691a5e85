"""The vocabulary of computed tables: the numbers a game's engine measures about its rulebook.

Models: a table as its name, a title, the clauses it speaks to, column names and rows of
plain values, and its JSON form (exact fractions written as text, such as "1/6").

Leaves out: computing any table (each game's tables.py) and presentation beyond rows of plain
values (cli.py lines the columns up; the findings report keeps the JSON form).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs


@attrs.frozen
class Table:
    name: str
    title: str
    clauses: tuple[str, ...]
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]

    def to_data(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "clauses": list(self.clauses),
            "columns": list(self.columns),
            "rows": [[_plain(v) for v in row] for row in self.rows],
        }


def _plain(value: Any) -> Any:
    return str(value) if isinstance(value, Fraction) else value
