"""Conformance suites: export then verify round-trips for every game; a replay reports the first
divergence of a wrong engine, names the trace and step of every fault (of the suite file or of the
engine) and goes on with the next trace; the file's lines follow the published JSON Schema."""

import json
import signal
import subprocess
import sys
import time
from fractions import Fraction

import jsonschema
import psutil
import pytest

from rulecheck.check.play.playthrough import random_game
from rulecheck.cli import main
from rulecheck.core.game import CHANCE
from rulecheck.registry import DECLARATIONS, game_class, make_game
from rulecheck.suite.export import export_suite
from rulecheck.suite.format import SuiteTrace, read_suite, save_suite, schema
from rulecheck.suite.protocol import REFERENCE, open_engine
from rulecheck.suite.record import record_trace
from rulecheck.suite.reference import ReferenceEngine
from rulecheck.suite.replay import replay_suite, state_difference
from tests.fixtures.faulty_engine import BROKEN_PROTOCOL, FAULTY_PLAYERS, WRONG_ANSWERS

FAULTY = f"{sys.executable} -m tests.fixtures.faulty_engine"


def _trace(name, players, seed, steps, trace_id):
    game = make_game(name, players)
    return record_trace(game, random_game(game, seed, steps).actions, trace_id=trace_id)[0]


@pytest.fixture(scope="module")
def small_suite(tmp_path_factory):
    """Four traces: a faulty engine goes wrong in the first and third (3 players), not in the others."""
    traces = [
        _trace("globetrotter", FAULTY_PLAYERS, 1, 30, "gt-3p"),
        _trace("globetrotter", 2, 2, 30, "gt-2p"),
        _trace("globot-time-force", FAULTY_PLAYERS, 3, 3000, "gtf-3p-whole"),
        _trace("globot-time-force", 2, 4, 40, "gtf-2p"),
    ]
    assert traces[2].end.returns is not None, "the third trace is a finished game, with returns"
    path = tmp_path_factory.mktemp("suite") / "small.suite.jsonl"
    save_suite(path, traces)
    return path


@pytest.mark.parametrize("name", sorted(DECLARATIONS))
def test_export_then_verify_round_trips(name, tmp_path):
    exported = export_suite(name, searched=2, max_steps=40)
    path = tmp_path / f"{name}.suite.jsonl"
    save_suite(path, list(exported.traces))
    result = replay_suite(path, open_engine(REFERENCE))
    assert result.passed, "\n".join(r.message(str(path)) for r in result.results if not r.passed)
    assert len(result.results) == len(exported.traces)
    options = game_class(name).option_space.options
    other_values = {f"option {o.name}={v}" for o in options for v in o.values if v != o.default}
    covered = {c for t in exported.traces for c in t.covers}
    assert other_values <= covered, "every other value of every option has a trace"
    clauses = {c.removeprefix("clause ") for c in covered if c.startswith("clause ")}
    assert clauses <= exported.exercised and exported.exercised <= set(exported.clauses)
    assert clauses, "the clause-directed games exercise clauses"


def test_an_option_value_refused_at_the_player_count_gets_no_trace():
    """Mechanica refuses a 1-player game under solo=refused: a 1-player suite skips that value, keeps the rest."""
    exported = export_suite("mechanica", players=1, searched=0, max_steps=10)
    swept = {(o.option, o.value) for o in exported.options}
    assert ("solo", "refused") not in swept
    options = game_class("mechanica").option_space.options
    assert swept == {(o.name, v) for o in options for v in o.values if v != o.default} - {("solo", "refused")}


def test_every_line_follows_the_schema_and_reads_back_as_written(small_suite):
    validator = jsonschema.Draft202012Validator(schema())
    lines = small_suite.read_text().splitlines()
    for line in lines:
        validator.validate(json.loads(line))
    traces = [trace for _, trace in read_suite(small_suite)]
    assert all(isinstance(t, SuiteTrace) for t in traces)
    assert [t.line() for t in traces] == lines


def test_a_step_records_the_position_and_what_may_be_done_there():
    game = make_game("globetrotter", 2)
    trace = _trace("globetrotter", 2, 5, 12, "t")
    state = game.initial_state()
    for step in trace.steps:
        assert step.state == game.encode_state(state) and step.to_move == game.to_move(state)
        if step.to_move == CHANCE:
            assert [(t, p) for t, _, p in step.chance] == sorted(
                (game.action_text(o), p) for o, p in game.chance_outcomes(state)
            )
            assert sum(p for _, _, p in step.chance) == 1
        else:
            assert [t for t, _ in step.legal] == [game.action_text(a) for a in game.legal_actions(state)]
            assert all(game.action_id(game.parse_action(t)) == n for t, n in step.legal)
        state = game.apply(state, game.parse_action(step.action))
    assert trace.end.state == game.encode_state(state) and trace.end.returns is None


def test_a_finished_trace_records_exact_returns(small_suite):
    traces = {t.id: t for _, t in read_suite(small_suite)}
    whole = traces["gtf-3p-whole"]
    game = make_game("globot-time-force", FAULTY_PLAYERS)
    state = game.initial_state()
    for step in whole.steps:
        state = game.apply(state, game.parse_action(step.action))
    assert whole.end.returns == tuple(Fraction(r) for r in game.returns(state))


@pytest.mark.parametrize(
    ("mode", "what"),
    [
        ("drops-legal", "legal actions: the engine lacks"),
        ("adds-legal", "legal actions: the engine also has 'pass'"),
        ("wrong-ids", "action ids:"),
        ("wrong-chance", "chance probabilities:"),
        ("wrong-state", "state: .faulty_field: only in the engine's"),
        ("wrong-to-move", "player to move:"),
        ("wrong-returns", "returns:"),
        ("refuses", "engine: the engine refused apply: this engine does not know that action"),
    ],
)
def test_a_wrong_engine_is_caught_at_its_first_divergence_and_the_replay_goes_on(small_suite, mode, what):
    assert mode in WRONG_ANSWERS
    result = replay_suite(small_suite, open_engine(f"tests.fixtures.faulty_engine:{mode.replace('-', '_')}"))
    verdicts = {r.trace: r for r in result.results}
    failed = sorted(t for t, r in verdicts.items() if not r.passed)
    expected = ["gtf-3p-whole"] if mode == "wrong-returns" else ["gt-3p", "gtf-3p-whole"]
    assert failed == expected
    for trace in failed:
        message = verdicts[trace].message(str(small_suite))
        assert f"trace {trace}" in message and what in message, message
        if mode != "wrong-returns":
            assert " step " in message and "state (digest " in message, message
    assert not result.passed and f"{4 - len(expected)} of 4 traces agree" in result.summary()


def test_the_reference_engine_passes_as_a_process_and_in_process(small_suite):
    for engine in (f"{sys.executable} -m rulecheck.suite.reference", REFERENCE):
        opened = open_engine(engine)
        try:
            result = replay_suite(small_suite, opened)
        finally:
            opened.close()
        assert result.passed and len(result.results) == 4, result.summary()


@pytest.mark.parametrize(
    ("mode", "what"),
    [
        ("hangs", "gave no answer to state within 1 s"),
        ("exits", "exited with status 3 instead of answering state; its last words: faulty engine: giving up"),
        ("garbage", "answered state with something that is not JSON"),
        ("out-of-order", "answered request"),
    ],
)
def test_an_engine_that_breaks_the_protocol_ends_its_trace_and_a_fresh_one_plays_the_next(small_suite, mode, what):
    assert mode in BROKEN_PROTOCOL
    engine = open_engine(f"{FAULTY} {mode}", timeout=1, start_timeout=60)
    try:
        result = replay_suite(small_suite, engine)
    finally:
        engine.close()
    verdicts = {r.trace: r for r in result.results}
    assert verdicts["gt-2p"].passed and verdicts["gtf-2p"].passed
    for trace in ("gt-3p", "gtf-3p-whole"):
        message = verdicts[trace].message(str(small_suite))
        assert f"trace {trace}, step 3 of" in message and what in message, message


def test_faults_of_the_suite_file_name_their_line_and_trace_and_the_rest_replays(small_suite, tmp_path):
    lines = small_suite.read_text().splitlines()
    wrong_version = json.loads(lines[1]) | {"game_version": 99}
    bad_action = json.loads(lines[3])
    player_step = next(i for i, step in enumerate(bad_action["steps"]) if "legal" in step)
    bad_action["steps"][player_step]["action"] = "fly T1 T2"
    old_format = json.loads(lines[0]) | {"format_version": 7}
    unequal_odds = json.loads(lines[0])
    unequal_odds["steps"][0]["chance"][0][2] = "1/2"
    path = tmp_path / "faulty.suite.jsonl"
    path.write_text(
        "\n".join(
            [
                lines[0],
                json.dumps(wrong_version),
                lines[2][: len(lines[2]) // 2],  # truncated
                json.dumps(bad_action),
                json.dumps(old_format),
                json.dumps(unequal_odds),
                '{"format": "rulecheck-suite", "format_version": 1, "id": "short"}',
            ]
        )
        + "\n"
    )
    result = replay_suite(path, open_engine(REFERENCE))
    messages = [r.message(str(path)) for r in result.results]
    assert result.results[0].passed
    assert messages[1] == (
        f"{path}:2: trace gt-2p, the setup: engine: the engine refused new_game: "
        f"this engine plays globetrotter version {game_class('globetrotter').version}, not version 99"
    )
    assert messages[2].startswith(f"{path}:3: a line, the line: suite: ") and "not valid JSON" in messages[2]
    assert messages[3] == (
        f"{path}:4: trace gtf-2p, the line: suite: step {player_step + 1}: 'fly T1 T2' with id "
        f"{bad_action['steps'][player_step]['action_id']} is not among its legal actions"
    )
    assert (
        "trace gt-3p" in messages[4]
        and "not a rulecheck-suite line of version 1 (it says rulecheck-suite version 7)" in messages[4]
    )
    assert "step 1: the chance probabilities sum to" in messages[5]
    assert (
        messages[6].startswith(f"{path}:7: trace short, the line: suite: ") and "is a required property" in messages[6]
    )
    assert len(result.results) == 7


def test_a_state_difference_names_each_field_that_differs():
    assert state_difference({"a": 1, "b": [1, 2], "c": {"d": True}}, {"a": 1, "b": [1, 3], "c": {}, "e": 0}) == [
        ".b[1]: 2 recorded, 3 from the engine",
        ".c.d: missing from the engine's",
        ".e: only in the engine's",
    ]


def test_the_commands_export_verify_and_replay(tmp_path, capsys, small_suite):
    out = tmp_path / "mec.suite.jsonl"
    assert main(["suite", "export", "mechanica", "--traces", "1", "--max-steps", "20", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"wrote {out} and {tmp_path / 'mec.suite.txt'}" in printed and "clauses:" in printed
    assert (tmp_path / "mec.suite.txt").read_text().startswith("## mechanica-clauses-01\n")
    assert main(["suite", "verify", str(out)]) == 0
    assert "traces agree with" in capsys.readouterr().out
    assert main(["suite", "replay", str(small_suite), "--engine", "tests.fixtures.faulty_engine:drops_legal"]) == 1
    printed = capsys.readouterr().out
    assert "trace gt-3p, step" in printed and printed.rstrip().endswith("2 diverge")
    assert main(["suite", "replay", str(small_suite), "--engine", "no_such_module:engine"]) == 2
    assert "no engine no_such_module:engine" in capsys.readouterr().err
    assert main(["suite", "replay", str(small_suite), "--engine", "no-such-engine --flag"]) == 2
    assert "cannot start no-such-engine --flag: No such file or directory" in capsys.readouterr().err
    assert main(["suite", "replay", str(small_suite), "--engine", "python -c 'unclosed"]) == 2
    assert "cannot read the engine command" in capsys.readouterr().err
    faulty = "tests.fixtures.faulty_engine:wrong_state"
    assert main(["suite", "replay", str(small_suite), "--engine", faulty, "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert [t["trace"] for t in report["traces"] if t["divergence"]] == ["gt-3p", "gtf-3p-whole"]
    assert report["traces"][0]["divergence"]["what"] == "state" and not report["passed"]


def test_a_suite_file_that_cannot_be_read_is_a_usage_error(tmp_path, capsys):
    assert main(["suite", "verify", str(tmp_path / "missing.suite.jsonl")]) == 2
    assert "missing.suite.jsonl: cannot read" in capsys.readouterr().err


def test_a_signal_stops_a_replay_with_what_ran_and_no_engine_left_behind(small_suite):
    command = [sys.executable, "-m", "rulecheck.cli", "suite", "replay", str(small_suite), "--timeout", "120"]
    run = subprocess.Popen([*command, "--engine", f"{FAULTY} hangs"], stdout=subprocess.PIPE, text=True)
    watched = psutil.Process(run.pid)
    deadline = time.monotonic() + 60
    while not watched.children() and time.monotonic() < deadline:  # the engine has started
        time.sleep(0.1)
    engines = watched.children()
    assert engines, "the engine process started"
    time.sleep(2)  # the first trace is waiting on the hung engine
    run.send_signal(signal.SIGINT)
    out, _ = run.communicate(timeout=60)
    assert run.returncode == 128 + signal.SIGINT
    assert out.startswith("rulecheck: stopped by SIGINT: ") and "0 of 0 traces agree" in out
    assert not any(p.is_running() and p.status() != psutil.STATUS_ZOMBIE for p in engines)


@pytest.mark.parametrize(
    ("request_", "error"),
    [
        ({"op": "new_game"}, "'options' must be an object, not null"),
        (
            {"op": "new_game", "game": "mechanica", "players": True, "options": {}},
            "'players' must be an integer, not true",
        ),
        ({"op": "new_game", "game": "chess", "players": 2, "options": {}}, "unknown game 'chess'; games: globetrotter"),
        ({"op": "new_game", "game": "mechanica", "players": 2, "options": {"x": 1}}, "option values are strings"),
        ({"op": "apply", "action": "pass"}, "no game yet: send new_game first"),
        ({"op": "fly"}, "unknown op 'fly'"),
        ({"id": 9}, "unknown op None"),
    ],
)
def test_the_reference_engine_answers_a_malformed_request_with_an_error(request_, error):
    answer = ReferenceEngine().handle({"id": 9} | request_)
    assert answer["id"] == 9 and error in answer["error"], answer
