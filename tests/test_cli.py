"""The `rulecheck` command line: output shapes, JSON keys and error handling."""

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from rulecheck.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_console_script_reports_its_version():
    result = subprocess.run([sys.executable, "-m", "rulecheck.cli", "--version"], capture_output=True, text=True)
    assert result.returncode == 0
    assert result.stdout.startswith("rulecheck ")


def test_games_json_lists_every_registered_game(capsys, monkeypatch):
    from rulecheck import games
    from tests.fixtures.pig import Pig

    monkeypatch.setitem(games.GAMES, "pig", Pig)
    code, out, _ = run(capsys, "games", "--json")
    assert code == 0
    rows = {row["name"]: row for row in json.loads(out)["games"]}
    assert rows["pig"] == {"name": "pig", "version": 1, "players": [2, 4], "options": 2, "clauses": 5}
    spec = tomllib.loads((Path(__file__).parents[1] / "specs" / "globetrotter.toml").read_text())
    assert rows["globetrotter"]["players"] == [2, 6]
    assert rows["globetrotter"]["clauses"] == len(spec["clause"])


def test_board_json_has_the_promised_keys(capsys):
    code, out, _ = run(capsys, "board", "globetrotter", "--json")
    assert code == 0
    facts = json.loads(out)
    for key in ("spaces", "hq_spaces", "triangle_spaces", "adjacencies", "diameter", "connected",
                "hq_neighbour_counts", "automorphisms"):
        assert key in facts
    assert (facts["spaces"], facts["hq_neighbour_counts"], facts["automorphisms"]) == (76, {"4": 5, "5": 6}, 5)


def test_board_removal_and_adjacency(capsys):
    code, out, _ = run(capsys, "board", "globetrotter", "--removal", "edge5", "--adjacency", "--json")
    facts = json.loads(out)
    assert facts["removal"] == "edge5"
    assert len(facts["adjacency"]) == 86
    assert sum(map(len, facts["adjacency"].values())) == 2 * facts["adjacencies"]
    assert facts["adjacency"]["P0"] == ["T1", "T3", "T5", "T7", "T9"]


def test_board_text_names_the_reading(capsys):
    code, out, _ = run(capsys, "board", "globetrotter", "--removal", "ring14-edge")
    assert code == 0
    assert "removal ring14-edge" in out
    assert 'isolated_spaces      ["T75"]' in out


def test_unknown_removal_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["board", "globetrotter", "--removal", "ring13"])
    assert exit_.value.code == 2
    assert "invalid choice: 'ring13'" in capsys.readouterr().err


def test_verify_reports_every_board_reading(capsys):
    code, out, _ = run(capsys, "verify")
    assert code == 0
    for removal in ("ring15", "edge5", "ring14-edge", "ring14-hq", "ring14-snub"):
        assert f"removal {removal}" in out
