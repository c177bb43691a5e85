"""The vocabulary of computed tables: the numbers a game's engine measures about its rulebook.

Models: a table as its name, a title, the clauses it speaks to, column names and rows of
plain values (ints, Fractions, strings, booleans, None; never a float: a table's numbers are
exact), its JSON form (exact fractions written as text, such as "1/6"), and the
predicates that make it evidence. A table is evidence about the rulebook only where a
predicate computed over its rows holds, and the predicate says what it saw:
- `readings_differ`: rows that are one reading each give different numbers;
- `columns_differ`: two columns (two readings side by side) disagree in some row;
- `some_row`: a row shows a value the rules call impossible (a space with no neighbour).
A table none of whose predicates holds shows nothing, and files no finding.

Leaves out: computing any table (each game's tables.py) and presentation beyond rows of plain
values (the command lines the columns up, each fraction with a decimal beside it for reading,
rulecheck/core/exact.py; the findings report keeps the JSON form).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from rulecheck.core.exact import plain, readable


@attrs.frozen
class Predicate:
    """A test over a table: `test(table)` says what it saw when it holds, else None."""

    name: str
    test: Callable[[Table], str | None] = attrs.field(eq=False)


@attrs.frozen
class Table:
    name: str
    title: str
    clauses: tuple[str, ...]
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...] = attrs.field(validator=lambda table, _, rows: _exact(table.name, rows))
    predicates: tuple[Predicate, ...] = ()
    """What would make this table evidence; see `shows`."""

    def column(self, name: str) -> int:
        return self.columns.index(name)

    def shows(self) -> tuple[tuple[str, str], ...]:
        """Each predicate that holds, by name, with what it saw."""
        return tuple((p.name, seen) for p in self.predicates if (seen := p.test(self)) is not None)

    def to_data(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "clauses": list(self.clauses),
            "columns": list(self.columns),
            "rows": [[plain(v) for v in row] for row in self.rows],
        }


def _exact(name: str, rows: tuple[tuple[Any, ...], ...]) -> None:
    """TypeError naming the cell when a row holds a float: a table's numbers are exact (a bug in the
    code computing the table, not bad input)."""
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            if isinstance(value, float):
                raise TypeError(f"table {name!r}, row {r + 1}, column {c + 1}: {value!r} is a float, not exact")


def readings_differ(reading: str, within: Sequence[str] = ()) -> Predicate:
    """Holds when two rows with the same values in the columns `within` and different readings (the
    column `reading`) differ in some other column: the readings give different numbers."""

    def test(table: Table) -> str | None:
        keys = [table.column(c) for c in within]
        key_of = table.column(reading)
        values = [i for i in range(len(table.columns)) if i != key_of and i not in keys]
        groups: dict[tuple[Any, ...], list[tuple[Any, ...]]] = {}
        for row in table.rows:
            groups.setdefault(tuple(row[i] for i in keys), []).append(row)
        for group, rows in groups.items():
            first = rows[0]
            for row in rows[1:]:
                apart = [i for i in values if row[i] != first[i]]
                if apart:
                    column = table.columns[apart[0]]
                    where = "".join(f", {c}={g}" for c, g in zip(within, group))
                    return (
                        f"rows of different {reading} give different numbers{where}: {column} is "
                        f"{readable(first[apart[0]])} under {first[key_of]} and {readable(row[apart[0]])} under "
                        f"{row[key_of]} ({len(apart)} of {len(values)} columns differ)"
                    )
        return None

    return Predicate(f"readings of {reading} differ", test)


def columns_differ(a: str, b: str, key: str) -> Predicate:
    """Holds when the columns `a` and `b` disagree in some row (named by its column `key`)."""

    def test(table: Table) -> str | None:
        i, j, k = table.column(a), table.column(b), table.column(key)
        apart = [row for row in table.rows if row[i] != row[j]]
        if not apart:
            return None
        row = apart[0]
        return (
            f"{a} and {b} differ in {len(apart)} of {len(table.rows)} rows; first at {key}={readable(row[k])}: "
            f"{readable(row[i])} against {readable(row[j])}"
        )

    return Predicate(f"{a} against {b}", test)


def some_row(column: str, holds: Callable[[Any], bool], says: str, key: Sequence[str]) -> Predicate:
    """Holds when some row's value in `column` satisfies `holds`; `says` names what that shows, and
    each such row is named by its values in the columns `key`."""

    def test(table: Table) -> str | None:
        i, keys = table.column(column), [table.column(k) for k in key]
        rows = [row for row in table.rows if holds(row[i])]
        if not rows:
            return None
        listed = ", ".join(f"{'/'.join(str(row[k]) for k in keys)} ({readable(row[i])})" for row in rows)
        return f"{says}: {column} at {'/'.join(key)} {listed}"

    return Predicate(says, test)
