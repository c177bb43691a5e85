"""Scenarios: every shipped edge case passes and a changed answer fails with its difference;
`--sweep` lists the answers of readings that differ with the option values that give them; a
finding's witness becomes a scenario file in one command, and that file, checked, shows the
finding's point; broken scenario files are refused by file, line and field, never a traceback."""

import json
import shutil
from fractions import Fraction
from pathlib import Path

import networkx as nx
import pytest

from rulecheck.check.positions.ask import absorption, flatten
from rulecheck.check.positions.scenario import line_of, load_scenario, parse_scenario
from rulecheck.check.search.fuzz import fuzz
from rulecheck.cli import main
from rulecheck.core.errors import ScenarioError
from rulecheck.registry import DECLARATIONS, declaration, make_game

ROOT = Path(__file__).resolve().parents[1]
SUITES = ROOT / "scenarios"
FORTIFY = SUITES / "globetrotter" / "01-fortify-next-to-enemy-fortification.toml"


def cases_of(game: str) -> Path:
    """The folder of the game's scenario files, as its declaration names it."""
    return ROOT / declaration(game).tests().scenarios


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("game", sorted(DECLARATIONS))
def test_every_shipped_case_passes_and_each_game_ships_fifteen(capsys, game):
    cases = sorted(cases_of(game).glob("*.toml"))
    assert len(cases) >= 15
    code, out, _ = run(capsys, "scenario", "check", cases_of(game), "--json")
    data = json.loads(out)
    assert code == 0, [c for c in data["cases"] if not c["passed"]]
    assert {c["case"] for c in data["cases"]} == {str(p) for p in cases} and data["failed"] == 0


def changed_legal(text: str) -> str:
    """The case with the last action of its first `legal` list dropped."""
    head, _, rest = text.partition("legal = [")
    listed, _, tail = rest.partition("]")
    actions = [a.strip() for a in listed.split(",") if a.strip()]
    return f"{head}legal = [{', '.join(actions[:-1])}]{tail}"


@pytest.mark.parametrize("game", sorted(DECLARATIONS))
def test_changing_one_expected_answer_fails_the_check_and_shows_the_difference(capsys, tmp_path, game):
    case = next(p for p in sorted(cases_of(game).glob("*.toml")) if "\nlegal = [" in p.read_text())
    broken = tmp_path / case.name
    broken.write_text(changed_legal(case.read_text()))
    for data_file in cases_of(game).glob("*.json"):
        shutil.copy(data_file, tmp_path)
    code, out, _ = run(capsys, "scenario", "check", broken)
    assert code == 1
    assert f"FAIL  {broken}\n" in out and "legal but not expected: " in out
    assert out.splitlines()[-1].endswith(" passed, 1 failed, in 1 scenario file")  # only the reading that changed


def test_a_sweep_lists_both_answers_of_a_fortify_beside_an_enemy_fortification(capsys):
    code, out, _ = run(capsys, "legal", "globetrotter", "--from", FORTIFY, "--sweep", "--json")
    assert code == 0
    data = json.loads(out)
    [adjacency] = [d for d in data["sweep"]["differ"] if d["option"] == "fortify_adjacency"]
    answers = {tuple(a["values"]): a["answer"] for a in adjacency["answers"]}
    assert len(answers) == 2 and all(isinstance(a, list) for a in answers.values())
    first, second = answers.values()
    assert set(first) != set(second)
    option = declaration("globetrotter").game.option_space.get("fortify_adjacency")
    assert sorted(v for values in answers for v in values) == sorted(option.values)
    assert "fortify_adjacency" not in data["sweep"]["same"]
    code, text, _ = run(capsys, "legal", "globetrotter", "--from", FORTIFY, "--sweep")
    assert "fortify_adjacency changes the answer here:" in text and "no difference here: " in text


def test_every_witness_of_a_report_becomes_a_scenario_whose_check_shows_its_last_step(capsys, tmp_path, smoke_campaign):
    game = "globot-time-force"
    out, _ = smoke_campaign(game)
    found = sorted((out / "witnesses").glob("*.json"))
    assert found
    for witness in found:
        scenario = tmp_path / f"{witness.stem}.toml"
        code, _, err = run(capsys, "scenario", "new", game, "--from", witness, "--out", scenario)
        assert code == 0, err
        code, out_text, _ = run(capsys, "scenario", "check", scenario)
        assert code == 0, out_text
        steps = json.loads(witness.read_text())["steps"]
        if steps:
            assert load_scenario(scenario).expected[0].answer.action == steps[-1]["action"]


@pytest.mark.parametrize("game", sorted(DECLARATIONS))
def test_a_witness_found_by_fuzzing_becomes_a_scenario_that_checks(capsys, tmp_path, game):
    report = fuzz(make_game(game), declaration(game).properties, 3, 1, 300)  # a seed whose games find something
    assert report.found
    for number, found in enumerate(report.found):
        trace, scenario = tmp_path / f"{number}.json", tmp_path / f"{number}.toml"
        found.trace.save(trace)
        assert run(capsys, "scenario", "new", game, "--from", trace, "--out", scenario, "--sweep")[0] == 0
        code, out, _ = run(capsys, "scenario", "check", scenario)
        assert code == 0, out
        assert load_scenario(scenario).expected[0].answer.action == found.trace.actions[-1]


HEADER = 'format = "rulecheck-scenario"\nformat_version = 1\ngame = "mechanica"\n'


@pytest.mark.parametrize(
    "text, words",
    [
        ("format = 1\n", "format: must be a str"),
        ('format = "other"\nformat_version = 1\n', "not a rulecheck-scenario file"),
        (HEADER + "colour = 3\n[position]\n", ":4: colour: unknown key"),
        (HEADER + '[position]\n[options]\nno_such = "x"\n', "options: unknown option 'no_such'"),
        (HEADER + "players = 40\n[position]\n", "players: mechanica is for"),
        (HEADER, "position: a scenario needs a [position] table"),
        (HEADER + '[position]\n[expect]\nlegal = "pass"\n', ":6: expect.legal: must be an array of action texts"),
        (HEADER + '[position]\n[expect]\naction = "x"\n', "expect: expects `legal`, or `action`"),
        (
            HEADER + '[position]\n[expect]\naction = "x"\n[[expect.outcomes]]\nprobability = "half"\n',
            ":8: expect.outcomes[0].probability: 'half' is not a fraction",
        ),
        (HEADER + 'data = "missing.toml"\n[position]\n', "data: "),
        ('format = "rulecheck-scenario"\nformat_version = 1\ngame = "chess"\n[position]\n', "game: unknown game"),
    ],
    ids=[
        "format not text",
        "another format",
        "unknown key",
        "unknown option",
        "players out of range",
        "no position",
        "legal not a list",
        "action alone",
        "probability not a fraction",
        "data file missing",
        "unknown game",
    ],
)
def test_a_broken_scenario_file_is_refused_by_line_and_field(tmp_path, text, words):
    path = tmp_path / "case.toml"
    path.write_text(text)
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    message = str(caught.value)
    assert message.startswith(str(path)) and words in message and "\n" not in message


def test_line_of_finds_keys_tables_and_array_entries():
    text = "[position]\nround = 2\n[[position.players]]\nmoney = 1\n[[position.players]]\nmoney = 5\n"
    assert line_of(text, ("position", "round")) == 2
    assert line_of(text, ("position", "players", 1, "money")) == 6
    assert line_of(text, ("position", "players", 0)) == 3
    assert line_of(text, ("elsewhere",)) is None


def test_chance_that_loops_is_solved_exactly():
    """A tie re-rolled: from s, 1/2 to a win, 1/6 to a loss, 1/3 back to s: 3/4 and 1/4."""
    graph = nx.DiGraph()
    graph.add_edge("s", "win", p=Fraction(1, 2))
    graph.add_edge("s", "loss", p=Fraction(1, 6))
    graph.add_edge("s", "tie", p=Fraction(1, 3))
    graph.add_edge("tie", "s", p=Fraction(1))
    assert absorption(graph, "s", {"win", "loss"}) == {"win": Fraction(3, 4), "loss": Fraction(1, 4)}


def test_a_written_position_flattens_to_dotted_leaves():
    document = {"round": 2, "players": [{"money": 1, "hand": ["a", "b"]}], "shop": {"row": []}}
    assert flatten(document) == {"round": 2, "players.0.money": 1, "players.0.hand": ["a", "b"], "shop.row": []}


def test_exploring_from_a_scenario_gives_witnesses_that_replay_from_its_position(capsys, tmp_path):
    case = SUITES / "globot-time-force" / "02-energy-at-cap.toml"
    code, out, _ = run(capsys, "explore", "globot-time-force", "--from", case, "--states", 500, "--traces", tmp_path)
    assert code == 0, out
    [witness] = sorted(tmp_path.glob("issue-*.json"))[:1]
    trace = json.loads(witness.read_text())
    assert "start" in trace and trace["steps"]
    code, out, err = run(capsys, "replay", witness)
    assert code == 0 and "every state as recorded" in out, err
    code, out, err = run(capsys, "scenario", "new", "globot-time-force", "--from", witness, "--step", 0)
    assert code == 0 and parse_scenario(out, "<printed>").state == load_scenario(case).state


def test_a_scenario_from_a_trace_with_a_data_set_names_the_data_file_from_its_own_folder(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sets").mkdir()
    (tmp_path / "cases").mkdir()
    data = declaration("globot-time-force").game.data_format.default
    shutil.copy(data, tmp_path / "sets" / "deck.toml")
    assert run(capsys, "play", "globot-time-force", "--data", "sets/deck.toml", "--out", "sets/game.json")[0] == 0
    code, _, err = run(
        capsys, "scenario", "new", "globot-time-force", "--from", "sets/game.json", "--out", "cases/a.toml"
    )
    assert code == 0, err
    assert 'data = "../sets/deck.toml"' in (tmp_path / "cases" / "a.toml").read_text()
    monkeypatch.chdir(ROOT)
    code, out, _ = run(capsys, "scenario", "check", tmp_path / "cases" / "a.toml")
    assert code == 0, out
