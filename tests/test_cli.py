"""The `rulecheck` command line: output shapes, JSON keys and error handling."""

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from rulecheck.cli import main
from rulecheck.core.trace import load_trace, replay
from rulecheck.games.globetrotter import Globetrotter
from rulecheck.model.declaration import GameDeclaration
from rulecheck.registry import DECLARATIONS, make_game
from tests.fixtures.high_card_data import DATA, DataHighCard


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_console_script_reports_its_version():
    result = subprocess.run([sys.executable, "-m", "rulecheck.cli", "--version"], capture_output=True, text=True)
    assert result.returncode == 0
    assert result.stdout.startswith("rulecheck ")


def test_games_json_lists_every_registered_game(capsys, monkeypatch):
    from rulecheck import registry
    from tests.fixtures.pig_declaration import PIG

    monkeypatch.setitem(registry.DECLARATIONS, "pig", PIG)
    code, out, _ = run(capsys, "games", "--json")
    assert code == 0
    rows = {row["name"]: row for row in json.loads(out)["games"]}
    traits = {
        "chance": "explicit",
        "information": "perfect",
        "dynamics": "sequential",
        "outcome": "win-loss",
        "hidden": [],
        "commit_order": "",
    }
    assert rows["pig"] == {"name": "pig", "version": 1, "players": [2, 4], "options": 2, "clauses": 5, "traits": traits}
    spec = tomllib.loads((Path(__file__).parents[1] / "specs" / "globetrotter.toml").read_text())
    assert rows["globetrotter"]["players"] == [2, 6]
    assert rows["globetrotter"]["clauses"] == len(spec["clause"])


def test_board_json_has_the_promised_keys(capsys):
    code, out, _ = run(capsys, "board", "globetrotter", "--json")
    assert code == 0
    facts = json.loads(out)
    for key in (
        "spaces",
        "hq_spaces",
        "triangle_spaces",
        "adjacencies",
        "diameter",
        "connected",
        "hq_neighbour_counts",
        "automorphisms",
    ):
        assert key in facts
    assert (facts["spaces"], facts["hq_neighbour_counts"], facts["automorphisms"]) == (76, {"4": 5, "5": 6}, 5)


def test_board_removal_and_adjacency(capsys):
    code, out, _ = run(capsys, "board", "globetrotter", "--set", "removal=edge5", "--adjacency", "--json")
    facts = json.loads(out)
    assert facts["removal"] == "edge5"
    assert len(facts["adjacency"]) == 86
    assert sum(map(len, facts["adjacency"].values())) == 2 * facts["adjacencies"]
    assert facts["adjacency"]["P0"] == ["T1", "T3", "T5", "T7", "T9"]


def test_board_text_names_the_reading(capsys):
    code, out, _ = run(capsys, "board", "globetrotter", "--set", "removal=ring14-edge")
    assert code == 0
    assert "removal ring14-edge" in out
    assert 'isolated_spaces      ["T75"]' in out


def test_unknown_removal_is_a_usage_error_that_lists_the_allowed_ones(capsys):
    code, _, err = run(capsys, "board", "globetrotter", "--set", "removal=ring13")
    assert code == 2
    assert "ring13" in err and "ring15" in err


@pytest.mark.parametrize("own_ledgers", [True, False])
def test_verify_prints_progress_writes_the_report_and_only_a_named_ledger_and_exits_0(
    capsys, tmp_path, monkeypatch, own_ledgers
):
    """The command around the campaign (tests/test_verify.py checks the campaign itself): the
    shipped ledgers are only read; new ids go to the ledgers of `--ledgers DIR`, or without it are
    the run's own (GT-N01, ...), and nothing but the report is written."""
    from rulecheck.check.campaign import verify
    from tests.test_verify import TINY

    monkeypatch.setitem(verify.BUDGETS, "quick", TINY)
    for other in [name for name in DECLARATIONS if name != "globetrotter"]:
        monkeypatch.delitem(DECLARATIONS, other)
    real_tasks = verify.tasks_for
    monkeypatch.setattr(verify, "tasks_for", lambda game, budget, data: real_tasks(game, budget, data)[:4])
    monkeypatch.setattr(verify, "pursuit_tasks", lambda *args: [])  # nor the clauses those leave unexercised
    (specs := tmp_path / "specs").mkdir()
    (mine := tmp_path / "mine").mkdir()
    monkeypatch.setattr(verify, "specs_folder", lambda: specs)
    report = tmp_path / "report"
    given = ("--ledgers", str(mine)) if own_ledgers else ()
    code, out, _ = run(capsys, "verify", "--out", str(report), "--workers", "1", *given)
    assert code == 0
    assert "[1/4" in out and "[4/4" in out and "self-check globetrotter 2p defaults" in out
    assert f"findings: {report / 'findings.md'}" in out
    assert (report / "findings.json").is_file() and (report / "findings.md").is_file()
    new = [f["id"] for f in json.loads((report / "findings.json").read_text())["findings"] if not f["audited"]]
    assert new and not list(specs.iterdir()) and not list(report.glob("*ledger*"))
    if own_ledgers:
        ledger = mine / "globetrotter-ledger.toml"
        assert ledger.read_text().count("[[finding]]") == len(new) and new[0] == "GT-F16"
        count = f"{len(new)} new finding id{'' if len(new) == 1 else 's'}"
        assert f"ledger: {count} ({', '.join(new)}) appended to {ledger}" in out
    else:
        assert not list(mine.iterdir()) and new[0] == "GT-N01" and "ledger:" not in out
        assert f"new findings: {', '.join(new)} are this run's ids only" in out


@pytest.mark.parametrize(
    ("argv", "workers"),
    [((), os.cpu_count() or 1), (("--workers", "3"), 3), (("--dask", "tcp://127.0.0.1:8786"), 1)],
)
def test_verify_runs_one_local_process_per_cpu_unless_told_and_none_beside_a_dask_cluster(argv, workers):
    """--dask alone needs no --workers 1: the cluster's workers run the tasks (both together are a
    usage error, tests/test_cli_input.py)."""
    from rulecheck.cli import build_parser
    from rulecheck.cli.campaign import _workers

    assert _workers(build_parser().parse_args(["verify", *argv])) == workers


def test_rules_and_options_json(capsys):
    code, out, _ = run(capsys, "rules", "globetrotter", "--json")
    rules = json.loads(out)
    assert code == 0 and rules["clauses"][0] == {
        "id": "GT-B1",
        "lines": [9],
        "text": "A planet is a snub dodecahedron with 12 pentagonal and 80 triangular spaces.",
    }
    code, out, _ = run(capsys, "options", "globetrotter", "--json")
    options = {o["name"]: o for o in json.loads(out)["options"]}
    assert options["shooting"]["default"] == "W1"
    assert options["shooting"]["values"] == ["W1", "W0", "W2", "W3", "W4"]


def test_play_writes_a_trace_that_replays(capsys, tmp_path):
    path = tmp_path / "game.json"
    code, out, _ = run(capsys, "play", "globetrotter", "--seed", "5", "--out", str(path))
    assert code == 0 and "trace written" in out
    game = Globetrotter(2)
    final = replay(game, load_trace(path))
    assert game.is_terminal(final) and len(game.winners(final)) == 1
    [winner] = game.winners(final)
    assert f"the game is over: player {winner} won; returns " in out  # play says who won
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0 and "every state as recorded" in out and f"player {winner} won" in out


def test_play_json_is_the_trace(capsys):
    code, out, _ = run(
        capsys, "play", "globetrotter", "--seed", "2", "--players", "3", "--set", "shooting=W0", "--json"
    )
    trace = json.loads(out)
    assert trace["format"] == "rulecheck-trace" and trace["players"] == 3
    assert trace["options"]["shooting"] == "W0"


def test_an_illegal_action_in_a_trace_names_the_step_and_clause(capsys, tmp_path):
    path = tmp_path / "game.json"
    run(capsys, "play", "globetrotter", "--seed", "5", "--out", str(path))
    data = json.loads(path.read_text())
    data["steps"][1]["action"] = "die 7"
    path.write_text(json.dumps(data))
    code, out, err = run(capsys, "replay", str(path))
    assert code == 2
    assert err.startswith("rulecheck: step 2: illegal action 'die 7'")
    assert "[GT-S1]" in err and "Traceback" not in err


def test_a_malformed_trace_file_is_named(capsys, tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("{")
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2 and str(path) in err and "not valid JSON" in err


def test_replay_shows_a_broken_invariant(capsys, tmp_path):
    """Under fortify_adjacency=rover, fuzzing finds adjacent Fortifications; the shrunk trace
    replays from the command line and shows the broken invariant."""
    from rulecheck.check.search.fuzz import fuzz
    from rulecheck.check.watch.generic import BROKEN_INVARIANT
    from rulecheck.games.globetrotter import Globetrotter
    from rulecheck.registry import declaration

    game = Globetrotter(2, {"fortify_adjacency": "rover"})
    prop = next(p for p in declaration("globetrotter").properties if p.name == "fortifications-never-adjacent")
    report = fuzz(game, [prop], games=100, seed=0, kinds=frozenset({BROKEN_INVARIANT}), shrink_findings=True)
    path = tmp_path / "adjacent.json"
    report.found[0].trace.save(path)
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0  # a finding about the rulebook, as `prove` reports it: the options do not promise it
    last = len(report.found[0].trace.actions)
    assert f"step {last} (fortify" in out
    assert "fortifications-never-adjacent broken (not promised under these options)" in out


def test_replay_exits_1_when_a_promised_property_breaks(capsys, tmp_path, monkeypatch):
    """A property the options promise that fails on a replayed step is the engine's fault: exit 1."""
    import attrs

    from rulecheck import registry
    from rulecheck.model.properties import StateProperty

    path = tmp_path / "game.json"
    run(capsys, "play", "globetrotter", "--seed", "5", "--out", str(path))
    declared = registry.DECLARATIONS["globetrotter"]
    never = StateProperty(
        "never-a-second-step", ("GT-A0",), "fails everywhere", lambda game, state: "a test's property fails"
    )
    monkeypatch.setitem(registry.DECLARATIONS, "globetrotter", attrs.evolve(declared, properties=(never,)))
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 1 and "never-a-second-step broken: a test's property fails [GT-A0]" in out


def test_fuzz_json_reports_games_steps_violations_and_coverage(capsys):
    code, out, _ = run(capsys, "fuzz", "globetrotter", "--games", "3", "--seed", "4", "--json")
    report = json.loads(out)
    assert code == 0
    assert report["games"] == 3 and report["steps"] > 0 and report["violations"] == []
    coverage = report["coverage"]
    assert coverage["total"] == 55 and 0 < coverage["covered"] <= 55
    assert len(coverage["never_reached"]) == coverage["total"] - coverage["covered"]


def test_unknown_option_on_the_command_line(capsys):
    code, _, err = run(capsys, "fuzz", "globetrotter", "--set", "shooter=everyone")
    assert code == 2 and "allowed: rover, any-piece" in err


@pytest.mark.parametrize(
    "argv,missing",
    [(("table", "pig", "odds"), "computed tables"), (("contradictions", "pig"), "statements of fact")],
)
def test_a_part_a_game_does_not_declare_is_named(capsys, monkeypatch, argv, missing):
    from rulecheck import registry
    from tests.fixtures.pig_declaration import PIG

    monkeypatch.setitem(registry.DECLARATIONS, "pig", PIG)
    code, _, err = run(capsys, *argv)
    assert code == 2 and err == f"rulecheck: pig has no {missing}\n"


def test_play_and_replay_take_a_data_file_and_replay_refuses_other_data(capsys, tmp_path, monkeypatch):
    monkeypatch.setitem(DECLARATIONS, "high-card", GameDeclaration("high-card", DataHighCard))
    deck = tmp_path / "deck.toml"
    deck.write_text((DATA / "high-card.toml").read_text().replace("copies = 3", "copies = 5"))
    trace = tmp_path / "game.json"
    code, _, _ = run(capsys, "play", "high-card", "--players", "2", "--data", str(deck), "--out", str(trace))
    assert code == 0
    assert json.loads(trace.read_text())["data"]["source"] == str(deck)
    assert run(capsys, "replay", str(trace))[0] == 0
    code, _, err = run(capsys, "replay", str(trace), "--data", str(DATA / "high-card.toml"))
    assert code == 2
    assert "trace was recorded with data" in err


def test_show_prints_the_state_at_a_step_and_refuses_a_step_out_of_range(capsys, tmp_path):
    trace = tmp_path / "game.json"
    assert run(capsys, "play", "globetrotter", "--seed", "3", "--out", str(trace))[0] == 0
    steps = json.loads(trace.read_text())["steps"]
    code, out, _ = run(capsys, "show", str(trace), "--step", "0")
    assert code == 0 and json.loads(out) == json.loads(
        make_game("globetrotter").encode_state(make_game("globetrotter").initial_state())
    )
    code, out, _ = run(capsys, "show", str(trace), "--step", str(len(steps)))
    assert code == 0 and json.loads(out) == json.loads(trace.read_text())["final_state"]
    code, _, err = run(capsys, "show", str(trace), "--step", str(len(steps) + 1))
    assert code == 2 and f"the trace has steps 0 to {len(steps)}" in err
