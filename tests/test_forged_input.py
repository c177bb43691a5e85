"""Forged and wrong input on the newer surfaces (issue REL2): a suite whose start position breaks
a promise of the rules, whose finished game lost its returns or whose traces share an id; a
campaign journal edited by hand; a `--resume` or `--ledgers` folder that is not there; a
malformed findings.json; a Dask scheduler that cannot be reached; a broken scenario file; option
assignments with whitespace. Each is refused with one line naming the problem and where (exit
status 2 on the command line), or reported as a failure of the trace it spoils: never a silent
success."""

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import attrs
import pytest

from rulecheck.check.campaign.journal import FOLDER, Journal, JournalError, task_key
from rulecheck.check.campaign.verify import BUDGETS, verify
from rulecheck.check.play.playthrough import random_game
from rulecheck.check.running import parallel
from rulecheck.cli import main
from rulecheck.core.errors import OptionError
from rulecheck.core.options import parse_assignments
from rulecheck.registry import make_game
from rulecheck.suite.export import witness_traces
from rulecheck.suite.format import save_suite
from rulecheck.suite.protocol import REFERENCE, open_engine
from rulecheck.suite.record import record_trace
from rulecheck.suite.replay import replay_suite


def _one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    return lines[0]


# Suites.


def _mechanica_trace(trace_id: str, steps: int = 6, start=None):
    game = make_game("mechanica", 2)
    first = game.initial_state() if start is None else start
    actions = []
    state = first
    played = random_game(game, 5, steps).actions if start is None else ()
    for action in played:
        actions.append(action)
        state = game.apply(state, game.parse_action(action) if isinstance(action, str) else action)
    if start is not None:
        for _ in range(steps):
            if game.is_terminal(state):
                break
            moves = game.legal_actions(state) if game.to_move(state) >= 0 else [game.chance_outcomes(state)[0][0]]
            actions.append(moves[0])
            state = game.apply(state, moves[0])
    return record_trace(game, actions, trace_id=trace_id, start=start)[0]


def _verify(tmp_path, lines):
    path = tmp_path / "forged.suite.jsonl"
    path.write_text("".join(line + "\n" for line in lines))
    result = replay_suite(path, open_engine(REFERENCE))
    return path, result, [r.message(str(path)) for r in result.results]


def test_a_suite_start_that_breaks_a_promised_property_is_a_failure_of_its_trace(tmp_path, capsys):
    game = make_game("mechanica", 2)
    state = game.initial_state()
    broke = attrs.evolve(state, factories=(attrs.evolve(state.factories[0], wallet=-1000), *state.factories[1:]))
    forged = _mechanica_trace("broke-start", start=broke)
    later = state
    for action in random_game(game, 5, 8).actions:
        later = game.apply(later, game.parse_action(action) if isinstance(action, str) else action)
    honest = _mechanica_trace("honest", start=later)  # a start other than the initial state, as the game left it
    assert honest.start is not None
    path, result, messages = _verify(tmp_path, [honest.line(), forged.line()])
    assert result.results[0].passed and not result.results[1].passed
    assert messages[1].startswith(f"{path}:2: trace broke-start, the line: suite: start: ")
    assert "player 0's Wallet holds -1000" in messages[1], messages[1]
    assert main(["suite", "verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}:2: trace broke-start" in out and "1 diverge" in out


def test_a_suite_start_that_is_no_state_of_the_game_is_a_failure_of_its_trace(tmp_path):
    trace = json.loads(_mechanica_trace("honest").line())
    trace["start"] = trace["steps"][0]["state"] | {"workday": "monday"}
    trace["steps"][0]["state"] = trace["start"]
    path, result, messages = _verify(tmp_path, [json.dumps(trace)])
    assert not result.passed
    assert messages[0].startswith(f"{path}:1: trace honest, the line: suite: start: "), messages[0]


def test_a_suite_start_other_than_the_first_recorded_state_is_refused(tmp_path):
    trace = json.loads(_mechanica_trace("honest").line())
    trace["start"] = trace["steps"][1]["state"]
    path, result, messages = _verify(tmp_path, [json.dumps(trace)])
    assert not result.passed
    assert messages[0] == (
        f"{path}:1: trace honest, the line: suite: start: differs from the state recorded at step 1"
    ), messages[0]


def test_a_finished_trace_whose_returns_were_removed_is_a_failure(tmp_path):
    game = make_game("globot-time-force", 2)
    whole = record_trace(game, random_game(game, 3, 3000).actions, trace_id="whole")[0]
    assert whole.end.returns is not None
    data = json.loads(whole.line())
    data["end"]["returns"] = None
    path, result, messages = _verify(tmp_path, [json.dumps(data)])
    assert not result.passed
    assert messages[0] == (
        f"{path}:1: trace whole, the line: suite: end: the game is over (to_move -2) but the returns are null"
    ), messages[0]
    data["end"]["returns"] = ["1"]
    path, result, messages = _verify(tmp_path, [json.dumps(data)])
    assert messages[0] == f"{path}:1: trace whole, the line: suite: end: 1 returns for 2 players", messages[0]


def test_two_traces_with_one_id_are_a_failure_naming_both_lines(tmp_path):
    first = _mechanica_trace("twin")
    second = _mechanica_trace("twin", steps=3)
    path, result, messages = _verify(tmp_path, [first.line(), second.line()])
    assert result.results[0].passed and not result.passed
    assert messages[1] == f"{path}:2: trace twin, the line: suite: id: 'twin' is also the id of line 1", messages[1]
    save_suite(tmp_path / "same.suite.jsonl", [first, first])
    assert main(["suite", "verify", str(tmp_path / "same.suite.jsonl")]) == 1


# The campaign journal.

JOURNAL_GAME = "globot-time-force"


@pytest.fixture
def campaign_copy(smoke_campaign, tmp_path):
    """A copy of a smoke campaign's folder (the shared one stays as it was), its findings.json removed."""
    out, verdict = smoke_campaign(JOURNAL_GAME)
    copy = tmp_path / "campaign"
    shutil.copytree(out, copy)
    (copy / "findings.json").unlink()
    return copy, verdict


def _resume(folder, tmp_path):
    ledgers = tmp_path / "ledgers"
    ledgers.mkdir(exist_ok=True)
    return main(
        ["verify", "--resume", str(folder), "--game", JOURNAL_GAME, "--budget", "smoke", "--ledgers", str(ledgers)]
    )


def test_a_hand_edited_journal_outcome_is_refused_naming_the_entry(campaign_copy, tmp_path, capsys):
    copy, verdict = campaign_copy
    outcome = next(o for o in verdict.outcomes if o.evidence)
    entry = copy / FOLDER / f"{task_key(outcome.task)}.json"
    document = json.loads(entry.read_text())
    document["outcome"]["evidence"][0]["title"] = "FORGED: a finding nobody found"
    entry.write_text(json.dumps(document, sort_keys=True) + "\n")
    capsys.readouterr()
    assert _resume(copy, tmp_path) == 2
    err = _one_line(capsys.readouterr().err)
    assert str(entry) in err and "digest" in err, err
    assert not (copy / "findings.json").exists()
    assert "FORGED" not in (copy / "findings.md").read_text()


def test_a_journal_entry_from_another_campaign_is_refused(campaign_copy, tmp_path):
    copy, verdict = campaign_copy
    outcome = verdict.outcomes[0]
    other = Journal.open(tmp_path / "other", resume=False)
    other.write(outcome)
    name = f"{task_key(outcome.task)}.json"
    shutil.copyfile(tmp_path / "other" / FOLDER / name, copy / FOLDER / name)
    with pytest.raises(JournalError, match="digest") as caught:
        Journal.open(copy, resume=True)
    assert str(copy / FOLDER / name) in str(caught.value) and "\n" not in str(caught.value)


def test_an_entry_without_its_digest_is_refused(campaign_copy):
    copy, verdict = campaign_copy
    entry = copy / FOLDER / f"{task_key(verdict.outcomes[1].task)}.json"
    document = json.loads(entry.read_text())
    document.pop("digest", None)
    entry.write_text(json.dumps(document, sort_keys=True) + "\n")
    with pytest.raises(JournalError, match="digest") as caught:
        Journal.open(copy, resume=True)
    assert str(entry) in str(caught.value)


def test_the_untouched_journal_resumes_to_the_same_report(campaign_copy, tmp_path, smoke_campaign):
    copy, verdict = campaign_copy
    out, _ = smoke_campaign(JOURNAL_GAME)
    assert _resume(copy, tmp_path) == 0
    expected = (out / "findings.json").read_text().replace(str(out), str(copy))
    assert (copy / "findings.json").read_text() == expected


# Folders named on the command line.


def test_resume_of_a_folder_that_does_not_exist_is_refused(tmp_path, capsys):
    missing = tmp_path / "no-such-campaign"
    assert main(["verify", "--resume", str(missing), "--game", JOURNAL_GAME, "--budget", "smoke"]) == 2
    err = _one_line(capsys.readouterr().err)
    assert str(missing) in err and "no such folder" in err, err
    assert not missing.exists()


def test_resume_of_a_folder_without_a_journal_is_refused(tmp_path, capsys):
    assert main(["verify", "--resume", str(tmp_path), "--game", JOURNAL_GAME, "--budget", "smoke"]) == 2
    err = _one_line(capsys.readouterr().err)
    assert str(tmp_path) in err and "no campaign journal" in err, err
    assert not (tmp_path / FOLDER).exists() and not (tmp_path / "findings.json").exists()
    with pytest.raises(JournalError, match="no campaign journal"):
        Journal.open(tmp_path, resume=True)


def test_ledgers_naming_a_missing_folder_is_refused(tmp_path, capsys):
    missing = tmp_path / "no-such-ledgers"
    out = tmp_path / "out"
    argv = ["verify", "--out", str(out), "--game", JOURNAL_GAME, "--budget", "smoke", "--ledgers", str(missing)]
    assert main(argv) == 2
    err = _one_line(capsys.readouterr().err)
    assert str(missing) in err and "no such folder" in err, err
    assert not out.exists()
    with pytest.raises(OptionError, match="is not a folder"):
        verify(out, BUDGETS["smoke"], games=[JOURNAL_GAME], ledgers=missing)
    assert not out.exists()


# A findings report read by `suite export --findings`.


@pytest.mark.parametrize(
    "document, words",
    [
        ({"findings": [1]}, "not a rulecheck-findings report of version 1 (it says None version None)"),
        ({"format": "rulecheck-findings", "format_version": 1, "findings": [1]}, "findings[0]: must be an object"),
        ({"format": "rulecheck-findings", "format_version": 1, "findings": {}}, "findings: must be an array"),
        ({"format": "rulecheck-findings", "format_version": 1, "findings": [{"id": 7}]}, "findings[0].id: must be"),
        (
            {"format": "rulecheck-findings", "format_version": 1, "findings": [{"id": "F", "evidence": [3]}]},
            "findings[0].evidence[0]: must be an object",
        ),
        (
            {
                "format": "rulecheck-findings",
                "format_version": 1,
                "findings": [{"id": "F", "evidence": [{"witness": {"file": 5}}]}],
            },
            "findings[0].evidence[0].witness.file: must be",
        ),
        ({"format": "other", "findings": []}, "not a rulecheck-findings report"),
    ],
    ids=[
        "no format",
        "a number for a finding",
        "findings not a list",
        "id a number",
        "evidence a number",
        "file a number",
        "another format",
    ],
)
def test_a_malformed_findings_report_is_refused_naming_the_file_and_entry(tmp_path, capsys, document, words):
    report = tmp_path / "report"
    report.mkdir()
    (report / "findings.json").write_text(json.dumps(document))
    argv = ["suite", "export", "mechanica", "--traces", "1", "--max-steps", "5", "--findings", str(report)]
    assert main([*argv, "--out", str(tmp_path / "m.suite.jsonl")]) == 2
    err = _one_line(capsys.readouterr().err)
    assert f"{report / 'findings.json'}: " in err and words in err, err
    assert not (tmp_path / "m.suite.jsonl").exists()


def test_a_report_verify_wrote_passes_the_same_checks(smoke_campaign):
    out, _ = smoke_campaign(JOURNAL_GAME)
    report = json.loads((out / "findings.json").read_text())
    evidence = [(f["id"], e["witness"]) for f in report["findings"] for e in f["evidence"]]
    files = [(finding, witness["file"]) for finding, witness in evidence if "file" in witness]
    found = witness_traces(out, JOURNAL_GAME)
    assert found and len(found) == len(files)
    assert [finding for finding, _ in found] == [finding for finding, _ in files]


# A Dask scheduler that cannot be reached.


@pytest.mark.parametrize("address", ["garbage", "http://host:1", "tcp://[::1"])
def test_verify_with_a_dask_address_that_is_no_address_ends_at_once_in_one_line(tmp_path, address):
    out = tmp_path / "out"
    argv = ["verify", "--dask", address, "--game", "mechanica", "--budget", "smoke", "--out", str(out)]
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "rulecheck.cli", *argv], capture_output=True, text=True, timeout=40, cwd=tmp_path
    )
    assert time.monotonic() - started < 20
    assert done.returncode == 2, done.stderr
    err = _one_line(done.stderr)
    assert err.startswith(f"rulecheck: cannot connect to a Dask scheduler at {address!r}: "), err
    assert not out.exists(), "nothing is written before the scheduler is reached"


def test_a_dask_scheduler_that_does_not_answer_is_an_option_error_within_the_connect_timeout(monkeypatch):
    monkeypatch.setattr(parallel, "DASK_CONNECT_SECONDS", 1.0)
    started = time.monotonic()
    with pytest.raises(OptionError, match=r"cannot connect to a Dask scheduler at 'tcp://127.0.0.1:1': "):
        parallel.check_dask("tcp://127.0.0.1:1")
    assert time.monotonic() - started < 10


# Scenario files and option assignments.

ROOT = Path(__file__).resolve().parents[1]
SCENARIO_HEAD = 'format = "rulecheck-scenario"\nformat_version = 1\n'


def test_scenario_check_of_a_broken_file_exits_2_and_still_checks_the_others(tmp_path, capsys):
    broken = tmp_path / "a-broken.toml"
    broken.write_text(SCENARIO_HEAD + 'game = "globetrotter"\nplayers = 2\nsurprise = 1\n\n[position]\n')
    fine = tmp_path / "b-fine.toml"
    shutil.copyfile(ROOT / "scenarios" / "globetrotter" / "01-fortify-next-to-enemy-fortification.toml", fine)
    code = main(["scenario", "check", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 2, out
    assert f"FAIL  {broken}\n" in out and f"{broken}:5: surprise: unknown key" in out
    assert f"pass  {fine}" in out  # the other file is checked all the same
    assert out.splitlines()[-1].endswith(" failed, 1 broken, in 2 scenario files"), out
    assert main(["scenario", "check", str(broken), "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["broken"] == 1


def test_a_bad_data_line_of_a_scenario_is_blamed_on_data(tmp_path, capsys):
    scenario = tmp_path / "s.toml"
    scenario.write_text(SCENARIO_HEAD + 'game = "globetrotter"\nplayers = 2\ndata = "deck.toml"\n\n[position]\n')
    assert main(["legal", "globetrotter", "--from", str(scenario)]) == 2
    err = _one_line(capsys.readouterr().err)
    assert err == f"rulecheck: {scenario}:5: data: globetrotter takes no data file", err


def test_a_player_count_out_of_range_is_still_blamed_on_players(tmp_path, capsys):
    scenario = tmp_path / "s.toml"
    scenario.write_text(SCENARIO_HEAD + 'game = "globetrotter"\nplayers = 9\n\n[position]\n')
    assert main(["legal", "globetrotter", "--from", str(scenario)]) == 2
    err = _one_line(capsys.readouterr().err)
    assert err == f"rulecheck: {scenario}:4: players: globetrotter is for 2 to 6 players, not 9", err


@pytest.mark.parametrize(
    "assignment", [" shooting = W0 ", "shooting =W0", "shooting= W0", "shooting=W0\t", " shooting=W0"]
)
def test_whitespace_around_an_option_name_or_value_is_refused(capsys, tmp_path, assignment):
    with pytest.raises(OptionError, match="whitespace"):
        parse_assignments([assignment])
    out = tmp_path / "g.json"
    assert main(["play", "globetrotter", "--set", assignment, "--out", str(out)]) == 2
    err = _one_line(capsys.readouterr().err)
    assert repr(assignment) in err and "whitespace" in err, err
    assert not out.exists()


# A data set larger than the game can use.

GTF_DATA = ROOT / "rulecheck" / "games" / "globot_time_force" / "data" / "illustrative.toml"


def _gtf_data(tmp_path, copies: int = 1, fillers: int = 0):
    text = GTF_DATA.read_text().replace('card = "M Natsuwa"\ncopies = 1', f'card = "M Natsuwa"\ncopies = {copies}', 1)
    cards = "".join(
        f'\n[[cards]]\nname = "Filler {i}"\ncost = 3\nvp = 1\ncolours = ["globotics"]\n' for i in range(fillers)
    )
    deck = "".join(f'\n[[deck]]\ncard = "Filler {i}"\ncopies = 1\n' for i in range(fillers))
    split = text.index("[[deck]]")
    path = tmp_path / "big.toml"
    path.write_text(text[:split] + cards + "\n" + text[split:] + deck)
    return path


@pytest.mark.parametrize(
    "copies, fillers, where",
    [(10**12, 0, "deck[2].copies"), (1001, 0, "deck[2].copies"), (1, 1000, "deck")],
    ids=["a trillion copies", "1,001 copies of one card", "a thousand more cards"],
)
def test_a_deck_larger_than_the_game_can_use_is_refused_at_once(tmp_path, capsys, copies, fillers, where):
    data = _gtf_data(tmp_path, copies, fillers)
    out = tmp_path / "game.json"
    started = time.monotonic()
    assert main(["play", "globot-time-force", "--data", str(data), "--out", str(out)]) == 2
    assert time.monotonic() - started < 30
    err = _one_line(capsys.readouterr().err)
    assert str(data) in err and f"{where}: " in err and "at most 1,000" in err, err
    assert not out.exists()


def test_a_deck_at_the_limit_plays(tmp_path, capsys):
    data = _gtf_data(tmp_path, 1000 - 24, 0)  # the shipped deck holds 25 cards
    assert main(["play", "globot-time-force", "--data", str(data), "--out", str(tmp_path / "g.json")]) == 0
