"""What a newcomer meets first on the command line: a missing scenario path said to be missing,
folders of scenarios read to the bottom, the shipped scenarios reached by name from any folder,
the data set's cards (or a game's pieces) listed and named by key or name in a scenario, scenario
answers that say why, `apply` chained and its hidden draws grouped, and counts in agreeing words."""

import json
import re
import shutil
from fractions import Fraction
from pathlib import Path

from rulecheck.check.positions.effect_text import effect_lines
from rulecheck.check.positions.scenario import load_scenario
from rulecheck.cli import main
from rulecheck.core.trace import load_trace
from rulecheck.core.words import counted
from rulecheck.registry import DECLARATIONS, SHIPPED, declaration, make_game

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


def test_cards_lists_every_card_and_board_of_the_data_set_with_its_key_and_name(capsys, tmp_path):
    game = make_game("globot-time-force")
    code, out, _ = run(capsys, "cards", "globot-time-force", "--json")
    assert code == 0
    listed = json.loads(out)["components"]
    expected = [(c.key, c.name) for c in game.data.cards.values()]
    expected += [(a.key, a.name) for a in game.data.achievements.values()]
    assert [(c["key"], c["name"]) for c in listed] == expected
    assert {c["kind"] for c in listed} == {"card", "event", "achievement board"}
    code, out, _ = run(capsys, "cards", "globot-time-force")
    lines = out.splitlines()
    assert lines[0] == f"globot-time-force, its default data set: {len(expected)} entries"
    seed = next(line for line in lines if " seed-vault " in line)
    assert seed.split()[:4] == ["card", "seed-vault", "Seed", "Vault"] and "cost 3" in seed
    other = tmp_path / "cards.toml"
    default = declaration("globot-time-force").game.data_format.default
    other.write_text(default.read_text().replace('"Seed Vault"', '"Seed Silo"'))
    code, out, _ = run(capsys, "cards", "globot-time-force", "--data", other)
    assert code == 0 and f"the data set {other}:" in out and " seed-silo " in out and "Seed Vault" not in out


def test_components_lists_mechanica_s_tiles_blueprints_trucks_and_models(capsys):
    data = make_game("mechanica").data
    code, out, _ = run(capsys, "components", "mechanica", "--json")
    assert code == 0
    kinds: dict[str, list[str]] = {}
    for component in json.loads(out)["components"]:
        kinds.setdefault(component["kind"], []).append(component["key"])
    assert kinds == {
        "bot model": [m.name for m in data.models],
        "improvement": [i.name for i in data.improvements],
        "blueprint": [b.name for b in data.blueprints],
        "truck": [t.name for t in data.trucks],
    }


def test_a_scenario_names_a_card_or_board_by_its_key_or_its_name_and_a_wrong_one_gets_near_matches(capsys, tmp_path):
    by_name = tmp_path / "names.toml"
    by_key = tmp_path / "keys.toml"
    body = 'timeline = [{0}, "Null Courier"]\nachievements = {{ {1} = [], "Full Spectrum" = [], collector = [] }}\n'
    head = GTF_AT_THE_CAP.split("[position]")[0] + "[position]\n"
    by_name.write_text(head + body.format('"Seed Vault"', '"Green Thumb"'))
    by_key.write_text(head + body.format('"seed-vault"', "green-thumb"))
    assert load_scenario(by_name).state == load_scenario(by_key).state
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(head + body.format('"Null Curier"', "green-thumb"))
    code, _, err = run(capsys, "legal", "globot-time-force", "--from", wrong)
    assert code == 2
    assert "no card named 'Null Curier' (did you mean 'Null Courier' or 'Root Courier'?)" in err


AT_THE_CAP = SCENARIOS / "globot-time-force" / "02-energy-at-cap.toml"


def test_apply_chains_actions_printing_the_positions_after_each(capsys):
    code, out, _ = run(capsys, "apply", "globot-time-force", "--from", AT_THE_CAP, "tec", "gain 1 1 0 0", "--json")
    assert code == 0
    data = json.loads(out)
    assert [step["action"] for step in data["steps"]] == ["tec", "gain 1 1 0 0"] and data["not_applied"] == []
    [after_tec] = data["steps"][0]["outcomes"]
    assert after_tec["changed"] == {"players.0.energy_used": 0, "players.0.tec": 0}
    final = data["steps"][1]["outcomes"]
    assert sum(Fraction(o["probability"]) for o in final) == 1
    assert all(o["changed"]["players.0.energy_used"] == 1 for o in final)  # from the scenario's 12, through the TEC
    code, out, _ = run(capsys, "apply", "globot-time-force", "--from", AT_THE_CAP, "tec", "gain 1 1 0 0")
    assert out.splitlines()[0] == "tec: 1 outcome" and out.splitlines()[2] == "gain 1 1 0 0: 19 outcomes"


def test_a_chain_keeps_the_share_refused_apart_and_stops_where_every_position_refuses(capsys, tmp_path):
    case = tmp_path / "silver.toml"
    case.write_text(GTF_AT_THE_CAP.replace("GEARS", "{ silver = 1 }"))
    actions = ["dismiss gears", "gain 1 0 3 0", "tec", "reserve 0"]
    code, out, _ = run(capsys, "apply", "globot-time-force", "--from", case, *actions, "--json")
    assert code == 0
    data = json.loads(out)
    second = data["steps"][1]
    refused = sum(Fraction(r["probability"]) for r in second["refused"])
    assert 0 < refused < 1 and refused + sum(Fraction(o["probability"]) for o in second["outcomes"]) == 1
    assert {r["illegal"] for r in second["refused"]} == {"GTF-T2a"}
    assert any("[GTF-T10]" in r["reason"] for r in second["refused"])  # an event drawn into slot 1
    assert data["steps"][2]["illegal"] == "GTF-T3d" and data["not_applied"] == ["reserve 0"]
    code, out, _ = run(capsys, "apply", "globot-time-force", "--from", case, *actions)
    assert "  refused in 1/23 (0.04348) of the positions: illegal [GTF-T2a]: " in out
    assert out.splitlines()[-1] == "not applied, after a refusal: reserve 0"
    code, out, _ = run(capsys, "apply", "globot-time-force", "--from", case, "dismiss gears", "iom 1", "tec")
    lines = out.splitlines()
    at = lines.index("iom 1: refused in every position")
    shares = [line for line in lines[at + 1 :] if line.startswith("  refused in ")]
    assert len(shares) == 3 and any("holds no IoM [GTF-R4]" in line for line in shares)
    assert lines[-1] == "not applied, after a refusal: tec"


def test_outcomes_differing_only_in_the_card_drawn_are_one_line_with_their_count_and_probability(capsys):
    argv = ["apply", "globot-time-force", "--from", AT_THE_CAP, "gain 1 0 1 0"]
    code, out, _ = run(capsys, *argv, "--json")
    outcomes = json.loads(out)["outcomes"]
    assert len(outcomes) == 19 and len({json.dumps(o["changed"]["timeline"]) for o in outcomes}) == 19
    code, out, _ = run(capsys, *argv)
    assert code == 0
    assert out.splitlines() == [
        "gain 1 0 1 0: 19 outcomes",
        '  1: 19 outcomes differing only in timeline: players.0.gears.bronze = 2, players.0.tableau = ["Null Courier"],'
        ' timeline = ["Seed Vault", <one of 19>]',
    ]
    code, out, _ = run(capsys, *argv, "--every-outcome")
    assert len(out.splitlines()) == 20


def test_only_outcomes_that_differ_in_one_part_are_grouped():
    def outcome(probability: str, **changed):
        return {"probability": probability, "changed": changed}

    data = {
        "action": "roll",
        "outcomes": [
            outcome("1/4", die=1, phase="play"),
            outcome("1/4", die=2, phase="play"),
            outcome("1/4", die=3, phase="over"),
            outcome("1/4", die=4, phase="over", winner=0),
        ],
    }
    assert effect_lines(data) == [
        "roll: 4 outcomes",
        '  1/2 (0.5): 2 outcomes differing only in die: die = <one of 2 values>, phase = "play"',
        '  1/4 (0.25): die = 3, phase = "over"',
        '  1/4 (0.25): die = 4, phase = "over", winner = 0',
    ]
    assert len(effect_lines(data, grouped=False)) == 5


def test_replay_prints_a_few_issues_of_each_kind_and_counts_the_rest(capsys, tmp_path):
    game = tmp_path / "game.json"
    assert run(capsys, "play", "globetrotter", "--seed", 3, "--out", game)[0] == 0
    code, out, _ = run(capsys, "replay", game, "--json")
    cycles = [i for i in json.loads(out)["issues"] if i["kind"] == "non-termination"]
    assert len(cycles) > 3
    code, out, _ = run(capsys, "replay", game)
    lines = out.splitlines()
    assert sum(": non-termination: " in line for line in lines) == 3
    rest = cycles[3:]
    assert (
        f"... and {len(rest)} more non-termination issues, at steps {rest[0]['step']} to {rest[-1]['step']} "
        "(`rulecheck replay --json` lists each)" in lines
    )


def test_counts_in_command_output_agree_with_their_number(capsys, tmp_path):
    trace = tmp_path / "one.json"
    code, out, _ = run(capsys, "play", "globot-time-force", "--seed", 2, "--out", trace)
    assert out.startswith("globot-time-force, 1 player, seed 2: ")
    _, fuzzed, _ = run(capsys, "fuzz", "mechanica", "--games", 1, "--max-steps", 1)
    assert fuzzed.startswith("mechanica, 1 player, seed 0: 1 game, 1 step, 1 stopped at the step cap")
    _, explored, _ = run(capsys, "explore", "mechanica", "--states", 1)
    assert explored.startswith("mechanica, 1 player: 1 state, 0 edges,")
    plural_after_one = re.compile(r"(?<![\d.,/])1 (players|gears|steps|games|states|edges|traces|actions|outcomes)\b")
    for output in (out, fuzzed, explored):
        assert not plural_after_one.search(output), output


def test_fuzz_counts_a_long_witness_and_says_where_its_trace_is_and_wraps_a_short_one(capsys, tmp_path):
    argv = ["fuzz", "mechanica", "--games", 3, "--seed", 1, "--max-steps", 100]
    code, out, _ = run(capsys, *argv, "--traces", tmp_path / "traces")
    assert code == 0
    lines = out.splitlines()
    found = lines.index(next(line for line in lines if line.startswith("found rule gap: place S3 basic: ")))
    written = tmp_path / "traces" / "issue-2.json"  # issue 1: the solo rule gap (MEC-F12), at the first round's end
    steps = len(load_trace(written).actions)
    assert steps > 30
    expected = f"    witness: {steps} steps, not shrunk (--shrink-findings shrinks it); written to {written}"
    assert lines[found + 1] == expected
    assert all(len(line) <= 250 for line in lines[1:])
    code, out, _ = run(capsys, "explore", "globot-time-force", "--states", 3000)
    lines = out.splitlines()
    gap = next(i for i, line in enumerate(lines) if "[GTF-G3]" in line)
    assert lines[gap].endswith("[GTF-G3] (finding GTF-F22 in the report)")
    assert lines[gap + 1] == "    witness: 4 steps; --traces DIR writes it:"
    assert lines[gap + 2].startswith("      board ") and lines[gap + 2].endswith("; reveal market-day")


def test_contradictions_give_each_statement_of_a_core_with_its_wording(capsys):
    facts = declaration("globot-time-force").statement_set(make_game("globot-time-force"))
    worded = {s.id: s for s in facts.statements()}
    code, out, _ = run(capsys, "contradictions", "globot-time-force")
    assert code == 0
    lines = out.splitlines()
    heads = [i for i, line in enumerate(lines) if line.startswith("CONTRADICTION ")]
    assert heads
    for head in heads:
        core = lines[head].split(": ", 1)[1].split(" cannot all hold")[0].split(", ")
        for offset, name in enumerate(core, start=1):
            said = worded[name]
            assert lines[head + offset] == f"    {name} [{', '.join(said.clauses)}]: {said.text}"


def test_suite_export_says_why_it_holds_more_traces_than_asked_and_replay_x_where_it_stopped(capsys, tmp_path):
    suite = tmp_path / "mec.suite.jsonl"
    argv = ["suite", "export", "mechanica", "--players", 2, "--traces", 1, "--max-steps", 40, "--out", suite]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    lines = suite.read_text().splitlines()
    ids = [json.loads(line)["id"] for line in lines]
    clause_traces = sum(i.startswith("mechanica-clauses-") for i in ids)
    option_traces = sum(i.startswith("mechanica-option-") for i in ids)
    assert clause_traces == 1 and len(ids) > 1
    expected = f"  {len(ids)} traces, [0-9,]+ steps: 1 kept of the clause-directed games searched \\(--traces\\), "
    assert re.search(expected, out), out
    assert f", {option_traces} under the other option values, one each" in out
    broken = json.loads(lines[0])
    broken["steps"][1]["to_move"] = 9
    lines[0] = json.dumps(broken)
    suite.write_text("\n".join(lines) + "\n")
    code, out, _ = run(capsys, "suite", "verify", suite, "-x")
    assert code == 1
    assert out.splitlines()[-1].startswith(
        f"{suite}: stopped at trace 1 of {len(ids)}, the first that diverges: 0 of the 1 replayed agree with "
    )
    assert out.splitlines()[-1].endswith(f"; 1 diverge; {len(ids) - 1} not replayed")
    code, out, _ = run(capsys, "suite", "verify", suite, "-x", "--json")
    assert (json.loads(out)["replayed"], json.loads(out)["total"]) == (1, len(ids))


def test_a_mechanica_scenario_names_each_component_by_the_key_cards_lists_and_a_wrong_one_gets_near_matches(
    capsys, tmp_path
):
    code, out, _ = run(capsys, "components", "mechanica", "--json")
    assert code == 0
    keys: dict[str, list[str]] = {}
    for component in json.loads(out)["components"]:
        keys.setdefault(component["kind"], []).append(component["key"])
    tile, model, truck, plan = keys["improvement"][-1], keys["bot model"][-1], keys["truck"][-1], keys["blueprint"][0]
    head = 'format = "rulecheck-scenario"\nformat_version = 1\ngame = "mechanica"\nplayers = 1\n\n[position]\n'
    body = (
        f'shop = ["{tile}", "", "", ""]\nblueprint_stacks = [{{ face_up = "{plan}" }}]\n\n'
        f'[[position.players]]\ntrucks = {{ D2 = "{truck}" }}\nbots = {{ D2 = ["{model}"] }}\n'
    )
    by_key = tmp_path / "keys.toml"
    by_key.write_text(head + body)
    state = load_scenario(by_key).state
    assert state.shop[0] == tile and state.blueprints[0] == plan
    assert dict(state.factories[0].trucks)["D2"] == truck and (("D2", "in", model) in state.factories[0].bots)
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(head + body.replace(f'"{tile}"', f'"{tile[:-1]}"'))
    code, _, err = run(capsys, "legal", "mechanica", "--from", wrong)
    assert code == 2 and f"there is no improvement '{tile[:-1]}' (did you mean '{tile}'?)" in err, err


def test_cards_answers_for_every_game_and_lists_globetrotter_s_pieces_from_its_rules(capsys, tmp_path):
    from rulecheck.games.globetrotter.counters import BUILDING_HP, ROVER_HP, TREASURY_CAPACITY
    from rulecheck.games.globetrotter.state import BUILDING_KINDS

    for name, declared in DECLARATIONS.items():  # shipped ones, and any RULECHECK_EXTRA_GAMES adds
        code, out, err = run(capsys, "cards", name)
        if declared.components is None:
            assert (code, out) == (2, "") and f"{name} has no cards, components or pieces to list" in err
        else:
            assert code == 0 and out.startswith(f"{name}, ") and not err, (name, err)
    assert all(shipped.components is not None for shipped in SHIPPED)
    code, out, _ = run(capsys, "components", "globetrotter", "--json")
    listed = {c["key"]: c for c in json.loads(out)["components"]}
    assert set(listed) == {"rover", "fortification", *BUILDING_KINDS}
    assert {listed[k]["kind"] for k in BUILDING_KINDS} == {"building"}
    assert listed["space-port"]["name"] == "Space Port" and f"{ROVER_HP} hit points" in listed["rover"]["facts"]
    assert f"{BUILDING_HP} hit points" in listed["treasury"]["facts"] and f"up to {TREASURY_CAPACITY}" in out
    code, out, _ = run(capsys, "cards", "globetrotter")
    assert out.splitlines()[0] == "globetrotter, no data set; the pieces its rules place: 6 entries"
    code, _, err = run(capsys, "cards", "globetrotter", "--data", tmp_path / "cards.toml")
    assert code == 2 and "globetrotter takes no data file" in err
    scenario = SCENARIOS / "globetrotter" / "22-manufacture-onto-a-friendly-fortification.toml"
    by_name = tmp_path / "by-name.toml"
    by_name.write_text(scenario.read_text().replace('kind = "factory"', 'kind = "Factory"'))
    assert 'kind = "Factory"' in by_name.read_text()
    assert load_scenario(by_name).state == load_scenario(scenario).state


def test_a_path_under_scenarios_reaches_the_shipped_scenarios_from_a_folder_without_them(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shipped = SCENARIOS / "mechanica" / "03-shop-rotation.toml"
    code, out, _ = run(capsys, "legal", "mechanica", "--from", "scenarios/mechanica/03-shop-rotation.toml")
    assert code == 0 and out == run(capsys, "legal", "mechanica", "--from", shipped)[1]
    code, out, _ = run(capsys, "scenario", "check", "scenarios/mechanica")
    files = sorted((SCENARIOS / "mechanica").glob("*.toml"))
    assert code == 0 and f"in {len(files)} scenario files" in out
    assert all(f"pass  scenarios/mechanica/{path.name}" in out for path in files)
    code, _, err = run(capsys, "scenario", "check", "scenarios/no-such-game")
    assert code == 2 and "scenarios/no-such-game: not found" in err
    (tmp_path / "scenarios" / "mechanica").mkdir(parents=True)
    own = tmp_path / "scenarios" / "mechanica" / "03-shop-rotation.toml"
    own.write_text(shipped.read_text().replace('shop = ["", "upgrader", "", ""]', 'shop = ["", "upgrade", "", ""]'))
    code, _, err = run(capsys, "legal", "mechanica", "--from", "scenarios/mechanica/03-shop-rotation.toml")
    assert code == 2 and "did you mean 'upgrader'" in err  # a file that is there is read, not the shipped one


def test_cards_of_a_game_with_nothing_to_list_says_so(capsys, monkeypatch):
    from tests.fixtures.pig_declaration import PIG

    monkeypatch.setitem(DECLARATIONS, "pig", PIG)
    code, out, err = run(capsys, "cards", "pig")
    assert (code, out) == (
        2,
        "",
    ) and err == "rulecheck: pig has no cards, components or pieces to list: no data set, and none declared\n"
