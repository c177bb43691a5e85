"""`rulecheck balance`: the table, the JSON (the library's figures, each seat's interval named),
the readings with their test, a policy per seat, and the plot."""

from __future__ import annotations

import json

from rulecheck import cli
from rulecheck.check.balance.games import Setup
from rulecheck.check.balance.run import balance

ARGS = ["balance", "globot-time-force", "--players", "2", "--games", "30", "--seed", "5"]


def test_the_json_is_the_runs_figures(capsys):
    assert cli.main([*ARGS, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    expected = balance(Setup("globot-time-force", 2), 30, 5)
    assert data["figures"]["seats"] == [s.to_data() for s in expected.figures.seats]
    assert data["figures"]["outcomes"]["seat 0 wins"] == expected.figures.seats[0].wins
    assert data["interval"] == "Wilson score interval, 95%"
    assert data["setup"]["policies"] == ["random"] and data["readings"] == []
    assert sum(data["figures"]["outcomes"].values()) == 30


def test_the_table_shows_each_seat_and_the_readings_with_their_test(capsys):
    assert cli.main([*ARGS, "--readings", "--policy", "random", "--policy", "random"]) == 0
    out = capsys.readouterr().out
    assert "seat 0: won alone" in out and "seat 1: won alone" in out and "Wilson 95%" in out
    assert "policies random, random" in out
    assert "chi-square test of homogeneity" in out and "Holm" in out
    assert out.count("adjusted") >= 10  # a line per other reading of the game's options


def test_the_plot_is_written(tmp_path, capsys):
    target = tmp_path / "balance.svg"
    assert cli.main([*ARGS, "--plot", str(target)]) == 0
    text = target.read_text(encoding="utf-8")
    assert text.startswith("<?xml") and "seat 1" in text
