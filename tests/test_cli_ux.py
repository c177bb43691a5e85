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


GTF_AT_THE_CAP = """format = "rulecheck-scenario"
format_version = 1
game = "globot-time-force"

[position]
timeline = ["Seed Vault", "Null Courier"]

[[position.players]]
energy_used = 12
gears = GEARS
"""


def test_gears_written_as_a_number_of_five_or_more_is_refused_saying_which_coins_to_write(capsys, tmp_path):
    case = tmp_path / "five.toml"
    case.write_text(GTF_AT_THE_CAP.replace("GEARS", "5"))
    code, _, err = run(capsys, "legal", "globot-time-force", "--from", case)
    assert code == 2
    assert "position.players[0].gears: gears = 5 does not say which coins" in err
    assert "gears = { bronze = 5 }" in err and "gears = { silver = 1 }" in err and err.rstrip().endswith("[GTF-R1]")


def test_a_refused_gain_says_why_in_the_rules_terms(capsys, tmp_path):
    case = tmp_path / "silver.toml"
    case.write_text(GTF_AT_THE_CAP.replace("GEARS", "{ silver = 1 }"))
    expected = {
        "gain 0 0 3 0": "3 gears cannot be paid from the coins held (1 silver) under gear_payment=exact: "
        "coins summing exactly to the gears paid [GTF-R1, GTF-R6]",
        "gain 0 0 4 0": "Seed Vault costs 3; 0 energy + 4 gears + 0 charge make 4 [GTF-R8]",
        "gain 0 0 0 3": "3 charge paid, 0 held [GTF-R7]",
        "gain 2 0 1 0": "the timeline has 2 cards: slot 2 holds none",
        "tec": "player 0 holds no TEC [GTF-R3]",
    }
    for action, reason in expected.items():
        code, out, _ = run(capsys, "apply", "globot-time-force", "--from", case, action)
        assert code == 0
        assert out.endswith(f"is not legal now: {reason}\n"), out
    code, out, _ = run(
        capsys, "apply", "globot-time-force", "--from", case, "gain 0 0 3 0", "--set", "gear_payment=change"
    )
    assert code == 0 and "illegal" not in out  # change given: the silver coin pays 3
