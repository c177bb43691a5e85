"""Each registered game's page documents its state JSON field by field (docs/<game>.md for a shipped
game, "The state JSON, field by field"): the table's paths are exactly those the state class declares,
with its JSON types; random games at several player counts reach every path but those marked rare, and
nothing undocumented; a rare path is held by the scenario its row names; every order the table claims
holds in every state played; every clause the table cites exists; and the worked example's JSON and
digest are what the engine gives now."""

import inspect
import json
import re
from functools import cache
from pathlib import Path

import attrs
import pytest

from rulecheck.check.play.playthrough import random_game
from rulecheck.check.positions.scenario import load_scenario
from rulecheck.check.report.findings import load_audit, parse_ledger, specs_folder
from rulecheck.core.trace import digest
from rulecheck.registry import DECLARATIONS, declaration, make_game
from tests.docs_tables import ROOT, page_name, page_path
from tests.state_paths import (
    FIELDS_HEADING,
    LISTED,
    Row,
    declared_paths,
    field_table,
    order_broken,
    range_broken,
    section,
    seen_paths,
)

GAMES = sorted(DECLARATIONS)
"""Every registered game; each declares the random play that reaches its paths (Tested.field_play:
player counts, games per count and steps per game, a few seconds in all)."""


def page(game: str) -> str:
    return page_path(game).read_text(encoding="utf-8")


def rows(game: str) -> dict[str, Row]:
    table = field_table(page(game))
    paths = [row.path for row in table]
    assert len(set(paths)) == len(paths), f"{page_name(game)}: a path has two rows"
    return {row.path: row for row in table}


@cache
def played(game: str) -> tuple[dict[str, set[str]], list[str]]:
    """The paths (with their JSON types) every state of the random games holds, and each order or range claim
    a state breaks."""
    players, games, steps = declaration(game).tests().field_play
    ordered = [row for row in rows(game).values() if row.sort_keys() is not None]
    bounded = [row for row in rows(game).values() if row.range]
    seen: dict[str, set[str]] = {}
    broken: list[str] = []
    texts: set[str] = set()
    for count in players:
        built = make_game(game, count)
        for seed in range(games):
            for state in random_game(built, seed, steps).states:
                text = built.encode_state(state)
                if text in texts:
                    continue
                texts.add(text)
                data = json.loads(text)
                seen_paths(built.state_type, data, seen)
                broken += [
                    f"{row.path} ({row.order}): {array}" for row in ordered if (array := order_broken(data, row))
                ]
                broken += [
                    f"{row.path} ({row.range}, {count} players): {value}"
                    for row in bounded
                    if (value := range_broken(data, row, count)) is not None
                ]
    return seen, broken


@pytest.mark.parametrize("game", GAMES)
def test_the_table_is_the_state_class(game):
    declared = declared_paths(declaration(game).game.state_type)
    table = rows(game)
    assert sorted(set(declared) - set(table)) == [], f"{page_name(game)}: paths the state has but the table lacks"
    assert sorted(set(table) - set(declared)) == [], f"{page_name(game)}: paths the table has but the state lacks"
    wrong = {p: (sorted(r.types), sorted(declared[p])) for p, r in table.items() if r.types != declared[p]}
    assert wrong == {}, "documented type, declared type"
    assert list(table) == sorted(table, key=lambda p: re.split(r"[.\[]", p)), "rows in the JSON's key order"


@pytest.mark.parametrize("game", GAMES)
def test_random_play_reaches_every_path_but_the_rare_ones(game):
    seen, _ = played(game)
    table = rows(game)
    assert sorted(set(seen) - set(table)) == [], "paths random play reaches that the page does not document"
    unseen = sorted(p for p, row in table.items() if p not in seen and not row.rare)
    assert unseen == [], "documented paths random play never reaches (mark them Rare: with a scenario, or play more)"
    common = sorted(p for p, row in table.items() if p in seen and row.rare)
    assert common == [], "paths marked Rare: that random play reaches (drop the mark)"
    declared = declared_paths(declaration(game).game.state_type)
    assert {p: t for p, t in seen.items() if not t <= declared[p]} == {}, "values of an undeclared JSON type"


@pytest.mark.parametrize("game", GAMES)
def test_a_rare_path_is_held_by_its_scenario(game):
    for row in rows(game).values():
        if not row.rare:
            continue
        assert row.scenario(), f"{row.path}: a Rare: row names the scenario that holds it"
        folder = declaration(game).tests().scenarios
        assert row.scenario().startswith(f"{folder}/"), f"{row.path}: {row.scenario()} is not in {folder}"
        scenario = load_scenario(ROOT / row.scenario())
        states = [scenario.state]
        answer = scenario.expected[0].answer
        if answer.action is not None and answer.illegal is None:
            states.append(scenario.game.apply(scenario.state, scenario.game.parse_action(answer.action)))
        found: dict[str, set[str]] = {}
        for state in states:
            seen_paths(scenario.game.state_type, json.loads(scenario.game.encode_state(state)), found)
        assert row.path in found, f"{row.path}: not in {row.scenario()}"


@pytest.mark.parametrize("game", GAMES)
def test_every_order_and_range_the_table_claims_holds_in_play(game):
    _, broken = played(game)
    assert broken[:5] == []
    table = rows(game).values()
    assert any(row.sort_keys() for row in table), "the table claims some sort order by keys"
    assert sum(bool(LISTED.fullmatch(row.range)) for row in table) >= 20


@pytest.mark.parametrize("game", GAMES)
def test_every_clause_the_table_cites_exists(game):
    decl = declaration(game)
    known = set(decl.catalogue().ids) | {entry.id for entry in load_audit(decl.audit)}
    if decl.ledger is not None:
        text = specs_folder().joinpath(decl.ledger).read_text(encoding="utf-8")
        known |= {entry.id for entry in parse_ledger(text, decl.ledger)}
    package = Path(inspect.getfile(decl.game)).parent  # the folder of the game's engine
    for module in package.glob("*.py"):
        known |= set(re.findall(r"rule_gap\(\s*\"([A-Z]+-[A-Za-z0-9]+)\"", module.read_text(encoding="utf-8")))
    prefix = decl.catalogue().ids[0].split("-")[0]
    cited = set(re.findall(rf"\b{prefix}-[A-Z]+\d+[a-z]?\b", section(page(game), FIELDS_HEADING)))
    assert cited and sorted(cited - known) == []


WORKED = re.compile(
    r"With (\d+) players? under the default options(?: and the default data set)?, the state after the actions "
    r"(.*?) \(.*?has this canonical JSON.*?```json\n(.*?)\n```\n\nIts digest is `([0-9a-f]{16})`: the first 16 hex "
    r"digits of the SHA-256 of those (\d+) bytes",
    re.DOTALL,
)


@pytest.mark.parametrize("game", GAMES)
def test_the_worked_example_is_what_the_engine_gives(game):
    found = WORKED.search(section(page(game), FIELDS_HEADING))
    assert found, f"{page_name(game)}: no worked example in the form the test reads"
    players, actions, text, documented, size = found.groups()
    built = make_game(game, int(players))
    state = built.initial_state()
    for action in re.findall(r"`([^`]+)`", actions):
        state = built.apply(state, built.parse_action(action))
    assert built.encode_state(state) == text
    assert digest(text) == documented and len(text.encode("ascii")) == int(size)


def test_the_checks_see_what_they_are_for():
    """The readers catch what the tests above rely on them to catch: an undeclared type, an order broken, a
    value out of its range, a type the table names wrongly, a pair read by its items."""
    from rulecheck.games.globetrotter.state import StateRecord

    found: dict[str, set[str]] = {}
    data = {"rovers": [{"hp": 3, "owner": 0, "planet": 0, "space": 7}], "turn": {"arrived": [[1, 3]]}}
    seen_paths(StateRecord, data, found)
    assert found["rovers[].space"] == {"int"} and found["turn.arrived[][1]"] == {"int"}
    assert declared_paths(StateRecord)["rovers[].space"] == frozenset({"string", "null"})
    rovers = Row("rovers", frozenset({"array"}), "", "", "sorted by `planet`, `space` (`null` first), `hp`")
    assert rovers.sort_keys() == ("planet", "space", "hp")
    orbit_first = {"rovers": [{"planet": 0, "space": None, "hp": 3}, {"planet": 0, "space": "T1", "hp": 2}]}
    assert order_broken(orbit_first, rovers) is None
    assert order_broken({"rovers": orbit_first["rovers"][::-1]}, rovers) == orbit_first["rovers"][::-1]
    pairs = Row("turn.arrived", frozenset({"array"}), "", "", "sorted")
    assert order_broken({"turn": {"arrived": [[1, 3], [0, 2]]}}, pairs) == [[1, 3], [0, 2]]
    assert order_broken({"turn": None}, pairs) is None
    rolls = Row("rolls", frozenset({"array"}), "`players..players`", "", "")
    assert range_broken({"rolls": [0, 0]}, rolls, 2) is None and range_broken({"rolls": [0]}, rolls, 2) == [0]
    seat = Row("triggered", frozenset({"int"}), "`-1..players-1`", "", "")
    assert range_broken({"triggered": -1}, seat, 2) is None and range_broken({"triggered": 2}, seat, 2) == 2
    aim = Row("aim", frozenset({"string", "null"}), '`T1`, `""`, `null`', "", "")
    assert [range_broken({"aim": v}, aim, 2) for v in ("T1", "", None, "T2")] == [None, None, None, "T2"]
    assert range_broken({"aim": "T2"}, attrs.evolve(aim, range="a space of the board"), 2) is None
    with pytest.raises(AssertionError, match="a span bounds"):
        field_table(f"{FIELDS_HEADING}\n\n| `phase` | string | `0..3` | meaning | |\n")
    with pytest.raises(AssertionError, match="unknown JSON types"):
        field_table(f"{FIELDS_HEADING}\n\n| `rolls` | list | | meaning | |\n")
