"""The silent-decision finder (rulecheck/check/search/silent.py) and the text contracts it reads.

It must find, on its own, the decisions of the rulebooks' turn sentences that the engine takes
without an option: each pinned key is found under the defaults (decided without an option, or
by an option), or, once an option makes the literal reading the default, under the other value
of that option, which the table pins. A contract the engine satisfies gives no finding; a finding
that an option decides says so; a witness replays to the same finding; a contract quotes its
clause's rulebook line, and reads no option.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import json
import sys
import tomllib
from pathlib import Path

import pytest

from rulecheck.check.campaign.verify import NOT_SEARCHED, contract_coverage, option_verdicts
from rulecheck.check.positions.ask import flatten
from rulecheck.check.report.markdown import markdown
from rulecheck.check.search.silent import (
    WITHOUT,
    Silent,
    _replayed,
    contracts,
    corpus,
    find,
    finds,
    scenario_files,
    unaudited,
)
from rulecheck.cli import main
from rulecheck.model.texts import At, Choice, End, Forbid, Permit, Run, TextContract
from rulecheck.registry import DECLARATIONS, declaration, make_game

ROOT = Path(__file__).resolve().parents[1]
RULEBOOKS = ROOT.parent / "shared" / "rulebooks"
"""Where the project's rulebook texts lie beside the checkout (the scenarios cite them there)."""
SEEDS = range(4)
MAX_STEPS = 400

FOUND_ON_ITS_OWN = {
    "globetrotter": {
        "GT-F4:*": (None, "one turn's actions may go to different Rovers (L67)"),
    },
    "globot-time-force": {
        "GTF-T13:turns": (
            "consecutive_turns=granted-only",
            "a third consecutive turn in the end game (L126 against L130)",
        ),
        "GTF-R4:pay-iom": ("iom_reserved=timeline-only", "an IoM cannot pay for a reserved card (L110)"),
        "GTF-T3a:resolve": (None, "a passive skill resolves once a turn per card (L34)"),
        "GTF-E3:*": (
            "last_token_in_extra_turn=turn-goes-on",
            "the player acts on after placing the last token in an extra turn (L130)",
        ),
        "GTF-E4:end:token-on-a-reservation": (None, "a token locked on a reservation is ignored at the end (L130)"),
        "GTF-E4:end:token-in-hand": (None, "the game ends at once when the timeline runs out (L130)"),
        "GTF-T2c:reserve": (None, "reserving is allowed with 7 cards in the tableau (L104, L111)"),
    },
    "mechanica": {
        "MEC-A1:fork": ("anytime_while_placing=place-first", "only `place` while recycled bots are placed (L143)"),
        "MEC-A1:truck": ("anytime_while_placing=place-first", "only `place` while recycled bots are placed (L143)"),
        "MEC-A2:fork": ("fork_supply=box", "Forks run out after the 10 in the box (L151)"),
        "MEC-A3:truck": ("truck_counts=rulebook", "Huge Trucks run out after the box's count (L163)"),
        "MEC-A2:route": ("fork_exits=every-exit", "a Fork on the middle belt offers 3 exits (L149)"),
        "MEC-T6:place": (
            "recycled_order=printed-order",
            "the order recycled bots are placed in is fixed by the data (L117)",
        ),
        "MEC-T12:demolish": (None, "a Fork can never be demolished (L113)"),
    },
}
"""Each game's pinned keys: the option value (`name=value`) under which the finder must find the
key, where an option makes the literal reading the default (None: under the defaults), and the
decision in words."""


def _silent(name: str, option: str | None = None) -> list[Silent]:
    """The finder's findings in `name` under the defaults, or with one option (`name=value`)
    changed (kept once found: several tests read the same search)."""
    return _searched(name, option)


@functools.cache
def _searched(name: str, option: str | None) -> list[Silent]:
    game = make_game(name, 2, dict([option.split("=", 1)]) if option is not None else {})
    return find(game, corpus(game, SEEDS, MAX_STEPS, scenario_files(game)))


GAMES = sorted(DECLARATIONS)
"""Every registered game: one without text contracts (a test game) finds nothing, and says so."""


@pytest.fixture(scope="module", params=GAMES)
def found(request: pytest.FixtureRequest) -> tuple[str, list[Silent]]:
    return request.param, _silent(request.param)


@pytest.mark.parametrize("name", GAMES)
def test_the_finder_finds_the_silent_decisions_on_its_own(name: str) -> None:
    missing = []
    for key, (option, decision) in FOUND_ON_ITS_OWN.get(name, {}).items():
        seen = {f.candidate.subject: f.verdict for f in _silent(name, option)}
        if key not in seen:
            missing.append(f"{key} ({decision}) under {option or 'the defaults'}")
        elif option is None:
            assert seen[key] == WITHOUT or seen[key].startswith("decided by option "), seen[key]
    assert not missing, f"the finder no longer finds: {'; '.join(missing)}"


def _scenario_corpus(name: str, file: str):
    game = make_game(name, 2)
    return game, corpus(game, range(0), MAX_STEPS, [ROOT / "scenarios" / name / file])


def test_a_contract_the_engine_satisfies_gives_no_finding() -> None:
    game, walks = _scenario_corpus("globot-time-force", "18-last-token-in-an-extra-turn.toml")

    def dismiss(at: At) -> str | None:
        return "dismiss gears" if at.position.get("stage") == "act" and at.position.get("timeline") else None

    kept = TextContract(
        "GTF-T2e",
        116,
        "Dismiss the oldest card in the timeline and gain 3",
        permits=(Permit("dismiss", dismiss),),
        choices=(Choice("place", lambda text: text, at_most=1),),
        run=Run(99, lambda at: None, lambda at: True, "never broken"),
        ends=(End("anything", lambda at: True, "always"),),
    )
    assert find(game, walks, [kept]) == []


def test_a_contract_the_engine_breaks_is_found_with_the_refusal() -> None:
    game, walks = _scenario_corpus("globot-time-force", "18-last-token-in-an-extra-turn.toml")
    broken = TextContract(
        "GTF-T2a",
        104,
        "Players can gain cards on their turn by paying the cost depicted on cards in the timeline.",
        permits=(Permit("gain", lambda at: "gain 0 0 0 0" if at.position.get("stage") == "act" else None),),
    )
    [silent] = find(game, walks, [broken])
    assert silent.candidate.subject == "GTF-T2a:gain"
    assert silent.candidate.kind == "refused though the text permits it"
    assert "refused:" in silent.candidate.what and "[GTF-" in silent.candidate.what


def test_a_finding_an_option_decides_names_the_option() -> None:
    game, walks = _scenario_corpus("mechanica", "13-recycled-bot-holes.toml")
    three = TextContract(
        "MEC-T6",
        117,
        "in any of the holes in your Start Zone",
        choices=(Choice("place", lambda text: "all", at_least=lambda at: 3 if at.position["phase"] == "place" else 0),),
    )
    found = {f.candidate.subject: f for f in find(game, walks, [three])}
    assert ("hole_capacity", "unlimited") in found["MEC-T6:place"].decided_by
    assert found["MEC-T6:place"].verdict.startswith("decided by option ")


def test_a_forbid_flags_every_action_left_after_the_step() -> None:
    game, walks = _scenario_corpus("globot-time-force", "18-last-token-in-an-extra-turn.toml")
    [contract] = [c for c in contracts(game) if c.clause == "GTF-E3"]
    never = TextContract(
        contract.clause, contract.line, contract.quote, forbids=(Forbid(frozenset(), lambda at: False, ""),)
    )
    assert find(game, walks, [never]) == []
    # The default (no-other-actions) keeps L130's sentence; the other reading leaves the turn's actions.
    assert find(game, _scenario_corpus("globot-time-force", "18-last-token-in-an-extra-turn.toml")[1], [contract]) == []
    goes_on = make_game("globot-time-force", 2, {"last_token_in_extra_turn": "turn-goes-on"})
    path = ROOT / "scenarios" / "globot-time-force" / "18-last-token-in-an-extra-turn.toml"
    [silent] = find(goes_on, corpus(goes_on, range(0), MAX_STEPS, [path]), [contract])
    assert silent.witness["actions"] == ["place green-thumb"]
    assert ("last_token_in_extra_turn", "no-other-actions") in silent.decided_by


def test_a_witness_replays_to_the_same_finding(found: tuple[str, list[Silent]]) -> None:
    name, every = found
    assert bool(every) == bool(FOUND_ON_ITS_OWN.get(name)), name
    for silent in every:
        game = silent.candidate.walk.game
        candidate = silent.candidate
        document = tomllib.loads(silent.witness["position"])["position"]
        replayed = _replayed(game, document, silent.witness["actions"])
        assert replayed is not None, candidate.subject
        assert finds(replayed, candidate), candidate.subject


@pytest.mark.parametrize("name", GAMES)
def test_each_contract_names_a_clause_and_quotes_its_line(name: str) -> None:
    game = make_game(name, 2)
    catalogue = {c.id: c for c in game.catalogue().clauses}
    rulebook = RULEBOOKS / game.catalogue().rulebook
    lines = rulebook.read_text(encoding="utf-8").splitlines() if rulebook.is_file() else None
    for contract in contracts(game):
        assert contract.clause in catalogue, contract.clause
        assert contract.line in catalogue[contract.clause].lines, (contract.clause, contract.line)
        if lines is not None:
            assert contract.quote in lines[contract.line - 1], (contract.clause, contract.quote)
    assert set(unaudited(game)) == set(catalogue) - {c.clause for c in contracts(game)}


@pytest.mark.parametrize("name", GAMES)
def test_contracts_read_no_option_and_no_engine_part(name: str) -> None:
    game = make_game(name, 2)
    declared = declaration(name).texts
    if not declared:
        assert name not in FOUND_ON_ITS_OWN
        return
    module = next(m for m in list(sys.modules.values()) if getattr(m, "CONTRACTS", None) is declared)
    tree = ast.parse(inspect.getsource(module))
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert imported <= {"__future__", "typing", "collections.abc", "rulecheck.model.texts"}, imported
    names = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    names |= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert not names & {"options", "option_space", "rules", "state"}, names & {"options", "option_space", "rules"}
    written = {
        part
        for path in flatten(declaration(name).position_format().write(game, game.initial_state()))
        for part in path.split(".")
    }
    strings = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    options = {o.name for o in game.option_space.options}
    assert not (strings & options) - written, (strings & options) - written
    assert not any("=" in s and s.split("=")[0] in options for s in strings)


def test_verify_gives_every_option_value_a_verdict_with_its_built_positions() -> None:
    searched = {"game": "mechanica", "option": "game_end", "value": "at-once", "default": "end-of-workday"}
    searched |= {"verdict": "parts", "search": "2 players"}
    rows = option_verdicts([searched], ["mechanica"])
    values = {(o.name, v) for o in make_game("mechanica", 2).option_space.options for v in o.values if v != o.default}
    assert {(r["option"], r["value"]) for r in rows} == values
    by_value = {(r["option"], r["value"]): r for r in rows}
    assert by_value["game_end", "at-once"]["verdict"] == "parts"
    assert by_value["hole_capacity", "unlimited"]["verdict"] == NOT_SEARCHED
    assert "parts in built position 13-recycled-bot-holes.toml" in by_value["hole_capacity", "unlimited"]["built"]
    assert (
        "built" not in by_value["blueprint_once", "once-in-all"] or by_value["blueprint_once", "once-in-all"]["built"]
    )
    page = markdown({"findings": [], "readings": rows, "contracts": [contract_coverage("mechanica")]}, {})
    assert "parts in built position 13-recycled-bot-holes.toml" in page
    assert "## Text contracts" in page and "MEC-A2" in page and "MEC-W1" in page


ORBIT = """
format = "rulecheck-scenario"
format_version = 1
game = "globetrotter"
players = 2
title = "Into orbit with a saved point to spend"

[position]
[position.turn]
player = 0

[[position.players]]
rovers = { T1 = 3 }

[position.players.buildings]
P0 = { kind = "space-port" }
P3 = { kind = "treasury", points = 1 }
P6 = { kind = "factory", points = 1 }

[[position.players]]
rovers = { T55 = 3 }
buildings = { P9 = { kind = "factory", points = 1 } }
"""


def test_an_open_question_gets_the_engines_answer_on_a_built_position(tmp_path: Path) -> None:
    """GT L57-L58 leave open whether a Rover descends in the turn it went into orbit (item T6):
    no shipped scenario stands there, so the position is built here."""
    path = tmp_path / "orbit.toml"
    path.write_text(ORBIT, encoding="utf-8")
    game = make_game("globetrotter", 2)
    found = {f.candidate.subject: f for f in find(game, corpus(game, range(0), 50, [path]))}
    descend = found["GT-SP2:descend"]
    assert descend.witness["actions"] == ["orbit T1"]
    assert descend.candidate.answer == "allows" and "descend 3 " in descend.candidate.what
    assert descend.verdict == WITHOUT or descend.verdict.startswith("decided by option ")


def test_the_command_prints_findings_and_refuses_another_games_scenario(
    capsys: pytest.CaptureFixture[str],
) -> None:
    scenario = "scenarios/mechanica/34-demolish-a-fork.toml"
    assert main(["silent", "mechanica", "--scenario", scenario, "--json"]) == 0  # an option decides what it finds
    printed = json.loads(capsys.readouterr().out)
    verdicts = {f["subject"]: f["verdict"] for f in printed["silent_decisions"]}
    assert verdicts["MEC-T12:demolish"] == "decided by option fork_demolish=like-an-improvement"
    assert "MEC-W1" in printed["unaudited"]
    # A Fork on the middle belt offers L149's two exits by default (fork_exits=two): nothing to find there.
    main(["silent", "mechanica", "--scenario", "scenarios/mechanica/18-fork-middle-belt-exits.toml", "--json"])
    printed = json.loads(capsys.readouterr().out)
    assert "MEC-A2:route" not in {f["subject"] for f in printed["silent_decisions"]}
    undecided = "scenarios/globot-time-force/01-cap-two-energy-and-a-gear.toml"
    assert main(["silent", "globot-time-force", "--scenario", undecided]) == 1  # one no option decides
    assert "(decided without an option)" in capsys.readouterr().out
    other = "scenarios/globetrotter/01-fortify-next-to-enemy-fortification.toml"
    assert main(["silent", "mechanica", "--scenario", other]) == 2
    assert "a scenario of globetrotter, not of mechanica" in capsys.readouterr().err


def test_a_game_without_text_contracts_has_none_and_the_finder_says_so(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from rulecheck import registry
    from tests.fixtures.pig_declaration import PIG

    monkeypatch.setitem(registry.DECLARATIONS, "pig", PIG)
    game = make_game("pig", 2)
    assert contracts(game) == ()
    assert find(game, corpus(game, range(2), 20, [])) == []
    assert main(["silent", "pig", "--games", "1", "--max-steps", "20"]) == 0
    out = capsys.readouterr().out
    assert "pig declares no text contracts" in out
    assert set(unaudited(game)) == set(game.catalogue().ids)


def test_each_shipped_game_declares_its_text_contracts() -> None:
    for name in FOUND_ON_ITS_OWN:
        module = importlib.import_module(type(make_game(name, 2)).__module__.rpartition(".")[0] + ".texts")
        assert declaration(name).texts == module.CONTRACTS
