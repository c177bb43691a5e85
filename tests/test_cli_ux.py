"""What a newcomer meets first on the command line: a missing scenario path said to be missing,
folders of scenarios read to the bottom, the data set's cards listed, scenario answers that say
why, `apply` chained and its hidden draws grouped, and counts in agreeing words."""

import json
import shutil
from pathlib import Path

from rulecheck.cli import main
from rulecheck.core.words import counted

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "scenarios"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_missing_scenario_path_is_said_to_be_missing(capsys, tmp_path):
    missing = tmp_path / "no-such-folder"
    code, out, err = run(capsys, "scenario", "check", missing)
    assert (code, out) == (2, "")
    assert err == f"rulecheck: {missing}: not found\n"


def test_a_scenario_folder_is_read_to_the_bottom_and_its_data_sets_skipped(capsys, tmp_path):
    nested = tmp_path / "cases" / "deeper"
    nested.mkdir(parents=True)
    case = SCENARIOS / "mechanica" / "01-two-bots-one-hole.toml"
    shutil.copy(case, nested / case.name)
    shutil.copy(case, tmp_path / "cases" / "top.toml")
    data = ROOT / "rulecheck" / "games" / "mechanica" / "data" / "default.toml"
    shutil.copy(data, nested / "cards.toml")
    code, out, _ = run(capsys, "scenario", "check", tmp_path / "cases")
    assert code == 0, out
    assert f"pass  {nested / case.name}\n" in out and f"pass  {tmp_path / 'cases' / 'top.toml'}\n" in out
    assert f"skip  {nested / 'cards.toml'}  (no format key: not a scenario file)\n" in out
    assert out.splitlines()[-1].endswith(", in 2 scenario files")
    code, out, _ = run(capsys, "scenario", "check", tmp_path / "cases", "--json")
    data_read = json.loads(out)
    assert sorted(data_read["files"]) == sorted([str(nested / case.name), str(tmp_path / "cases" / "top.toml")])
    assert data_read["skipped"] == [str(nested / "cards.toml")]


def test_counted_words_agree_with_their_number():
    assert counted(1, "player") == "1 player"
    assert counted(0, "player") == "0 players"
    assert counted(2, "gear") == "2 gears"
    assert counted(3, "match", "matches") == "3 matches"
