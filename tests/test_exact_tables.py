"""Computed tables keep their numbers exact: every table of every game holds no float, its JSON
writes each fraction as exact text and holds no float, the text shows each fraction with a decimal
beside it, and the numbers agree with computations made here from the rules alone."""

import json
from fractions import Fraction
from itertools import product

import pytest

from rulecheck.cli import main
from rulecheck.core.exact import readable
from rulecheck.games.globetrotter import analysis
from rulecheck.games.globetrotter import tables as globetrotter_tables
from rulecheck.games.globetrotter.counters import ROVER_HP
from rulecheck.model.tables import Table
from rulecheck.registry import DECLARATIONS, make_game

SLOW = {(game, name) for game, d in DECLARATIONS.items() if d.tested for name in d.tested.slow_tables}
"""Tables that search for minutes, as each game's declaration says (Tested.slow_tables);
test_earliest_build_json_holds_no_float covers the one there is."""

CHEAP = [
    (game, name) for game, d in sorted(DECLARATIONS.items()) for name in sorted(d.tables) if (game, name) not in SLOW
]


@pytest.fixture(scope="module")
def computed():
    return {(game, name): DECLARATIONS[game].table(name, make_game(game)) for game, name in CHEAP}


def floats(value, path="$"):
    """Every float anywhere in a JSON value, with its path."""
    if isinstance(value, float):
        return [path]
    if isinstance(value, dict):
        return [f for k, v in value.items() for f in floats(v, f"{path}.{k}")]
    if isinstance(value, list):
        return [f for i, v in enumerate(value) for f in floats(v, f"{path}[{i}]")]
    return []


def test_every_table_of_every_game_is_walked():
    assert set(CHEAP) | SLOW == {(g, n) for g, d in DECLARATIONS.items() for n in d.tables}
    assert SLOW <= {(g, n) for g, d in DECLARATIONS.items() for n in d.tables}


@pytest.mark.parametrize(("game", "name"), CHEAP)
def test_a_tables_json_holds_no_float_and_each_fraction_as_exact_text(computed, game, name):
    table = computed[(game, name)]
    data = json.loads(json.dumps(table.to_data()))
    assert floats(data) == []
    for row, written in zip(table.rows, data["rows"], strict=True):
        for value, cell in zip(row, written, strict=True):
            if isinstance(value, Fraction):
                assert isinstance(cell, str) and Fraction(cell) == value and cell == str(value)
            else:
                assert cell == value


@pytest.mark.parametrize(("game", "name"), CHEAP)
def test_the_table_command_json_holds_no_float(capsys, computed, monkeypatch, game, name):
    monkeypatch.setitem(DECLARATIONS[game].tables, name, lambda *_: computed[(game, name)])
    assert main(["table", game, name, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert floats(data) == [] and data["rows"] == computed[(game, name)].to_data()["rows"]


def test_earliest_build_json_holds_no_float(monkeypatch):
    """The table's own code, with the search (minutes) cut to a plan of as many actions as the
    opening's index, or none for the last: its cells are ints and None, never floats."""
    game = make_game("globetrotter")
    openings = analysis.opening_placements(game)
    starts = {analysis.far_opening(game, f, r): i for i, (f, r) in enumerate(openings)}

    def search(game, start, player, allowed, goal, max_depth):
        index = starts[start]
        return None if index == len(openings) - 1 else ("step",) * index

    monkeypatch.setattr(globetrotter_tables, "solo_search", search)
    table = globetrotter_tables.earliest_build()
    actions = [row[2] for row in table.rows]
    assert actions == [*range(len(openings) - 1), None]
    assert floats(table.to_data()) == []


def test_a_table_refuses_a_float():
    with pytest.raises(TypeError, match=r"table 'odds', row 1, column 2: 0.5 is a float"):
        Table("odds", "title", (), ("a", "b"), ((Fraction(1, 2), 0.5),))


def two_dice_below(total: int, or_equal: bool) -> Fraction:
    """P(2d6 < total), or <= total, counted over the 36 rolls."""
    hits = sum(1 for a, b in product(range(1, 7), repeat=2) if a + b < total or (or_equal and a + b == total))
    return Fraction(hits, 36)


def test_destruction_odds_agree_with_two_dice_and_survival_stays_exact(computed):
    """GT-D6: the k-th firing destroys the planet when 2d6 is less than (or at most) the fire
    count k; it still stands after k firings with the product of the chances it survived each."""
    table = computed[("globetrotter", "destruction-odds")]
    for reading, or_equal in (("less", False), ("less-or-equal", True)):
        destroys = table.column(f"{globetrotter_tables.DESTROYS} ({reading})")
        stands = table.column(f"{globetrotter_tables.STANDS} ({reading})")
        alive = Fraction(1)
        expected = Fraction(0)
        for row in table.rows[: globetrotter_tables.FIRINGS]:
            expected += alive
            chance = two_dice_below(row[0], or_equal)
            alive *= 1 - chance
            assert (row[destroys], row[stands]) == (chance, alive)
            assert isinstance(row[stands], (int, Fraction))
        assert table.rows[-1][0] == "expected firings" and table.rows[-1][destroys] == expected
    less = table.column(f"{globetrotter_tables.STANDS} (less)")
    late = {row[0]: row[less] for row in table.rows[10:12]}
    assert all(0 < late[k] < Fraction(1, 1000) for k in (11, 12)), late


def test_the_destruction_header_says_the_chance_is_conditional(computed):
    table = computed[("globetrotter", "destruction-odds")]
    assert "given it stood so far" in globetrotter_tables.DESTROYS
    assert "conditional" in table.title


def test_expected_shots_under_one_damage_a_hit_are_hit_points_over_the_chance(computed):
    """Each success removes one hit point, so the shots to destroy are a sum of geometric waits."""
    table = computed[("globetrotter", "shots-to-destroy")]
    ones = [(chance, shots) for damage, _, chance, shots in table.rows if damage == "one"]
    assert len(ones) == 2
    for chance, shots in ones:
        assert shots == ROVER_HP / chance


def test_the_table_text_shows_each_fraction_with_a_decimal_beside_it(capsys, computed, monkeypatch):
    table = computed[("globetrotter", "destruction-odds")]
    monkeypatch.setitem(DECLARATIONS["globetrotter"].tables, "destruction-odds", lambda *_: table)
    assert main(["table", "globetrotter", "destruction-odds"]) == 0
    out = capsys.readouterr().out
    small = table.rows[11][table.column(f"{globetrotter_tables.STANDS} (less)")]
    assert f"{small} ({float(small):.4g})" in out and "e-05)" in out
    assert "given it stood so far" in out.splitlines()[1]


@pytest.mark.parametrize(
    ("value", "shown"),
    [(Fraction(1, 6), "1/6 (0.1667)"), (Fraction(27, 4), "27/4 (6.75)"), (Fraction(3), "3"), (5, "5"), ("-", "-")],
)
def test_readable_puts_a_decimal_beside_a_fraction_only(value, shown):
    assert readable(value) == shown
