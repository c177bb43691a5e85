"""Globetrotter against its own properties (the shared API checker runs in tests/test_api_every_game.py)."""

import re
from pathlib import Path

import attrs
import pytest

from rulecheck.check.search.fuzz import fuzz
from rulecheck.check.watch.generic import BROKEN_INVARIANT, ENGINE_ERROR
from rulecheck.check.watch.property_checks import failures, promised
from rulecheck.games.globetrotter import Globetrotter
from rulecheck.games.globetrotter.analysis import far_opening, hand_turn_to
from rulecheck.games.globetrotter.state import FACTORY, TREASURY, Building, Fortification, Rover, Turn
from rulecheck.model.properties import StateProperty
from rulecheck.registry import declaration

PROPERTIES = declaration("globetrotter").properties
ROOT = Path(__file__).resolve().parents[1]

SETUPS = [
    (2, {}),
    (3, {"shooter": "any-piece", "cover": "targets-own"}),
    (4, {"damage": "die-value", "drill_hits": "rover-first", "planet_adjacency": "line"}),
    (6, {"loss_check": "start-of-turn", "game_end": "first-loss", "treasury_spend": "saved-first"}),
]


def _name(setup):
    players, options = setup
    return f"{players}p-" + ("-".join(f"{k}={v}" for k, v in options.items()) or "defaults")


@pytest.mark.parametrize("setup", SETUPS, ids=_name)
def test_fuzzing_finds_no_broken_promise(setup):
    game = Globetrotter(*setup)
    report = fuzz(game, PROPERTIES, games=6, seed=0, kinds=frozenset({BROKEN_INVARIANT, ENGINE_ERROR}))
    assert report.games == 6
    assert report.violations == ()
    assert report.steps > 0


def test_fortify_rover_reading_breaks_the_no_adjacent_fortifications_promise():
    """The property is promised only under the default reading; under `rover` fuzzing finds
    Fortifications side by side, with a short trace that replays."""
    game = Globetrotter(2, {"fortify_adjacency": "rover"})
    prop = next(p for p in PROPERTIES if p.name == "fortifications-never-adjacent")
    assert prop not in promised(game, PROPERTIES)
    report = fuzz(game, [prop], games=100, seed=0, kinds=frozenset({BROKEN_INVARIANT}), shrink_findings=True)
    assert report.violations == ()  # the rulebook does not promise it under this reading
    [found] = [f for f in report.findings if f.issue.kind == BROKEN_INVARIANT]
    assert found.issue.subject == "fortifications-never-adjacent" and not found.issue.promised
    trace = found.trace
    assert trace.actions[-1].startswith("fortify")


# Every property can fail: a state corrupted in the way it forbids.


@pytest.fixture(scope="module")
def game():
    return Globetrotter(2)


@pytest.fixture(scope="module")
def state(game):
    return hand_turn_to(far_opening(game, "P0", "T1"), 0)


def _factory(state, **changes):
    factory = state.buildings_of(0, FACTORY)[0]
    return state.with_pieces(buildings=[attrs.evolve(b, **changes) if b == factory else b for b in state.buildings])


CORRUPTIONS = {
    "hit-points-in-range": lambda s: s.with_pieces(rovers=[attrs.evolve(r, hp=4) for r in s.rovers]),
    "build-points-in-range": lambda s: _factory(s, points=6),
    "saved-points-in-range": lambda s: s.with_pieces(
        buildings=s.buildings + (Building(0, "P1", 0, TREASURY, 5, 4, "idle", None),)
    ),
    "points-only-in-factories-and-treasuries": lambda s: s.with_pieces(
        buildings=s.buildings + (Building(0, "P1", 0, "space-port", 5, 1, "idle", None),)
    ),
    "stolen-points-fit-the-cap": lambda s: attrs.evolve(s, turn=Turn(0, 2, 2, True, 3)),
    "one-building-per-type-and-planet": lambda s: s.with_pieces(
        buildings=s.buildings + (Building(0, "P1", 0, FACTORY, 5, 0, "idle", None),)
    ),
    "one-treasury-per-player": lambda s: s.with_pieces(
        buildings=s.buildings
        + (Building(0, "P1", 0, TREASURY, 5, 0, "idle", None), Building(0, "P2", 0, TREASURY, 5, 0, "idle", None))
    ),
    "spaces-hold-compatible-pieces": lambda s: s.with_pieces(rovers=s.rovers + (Rover(0, "P0", 0, 3),)),
    "buildings-on-hq-spaces": lambda s: s.with_pieces(
        buildings=s.buildings + (Building(0, "T30", 0, "space-port", 5, 0, "idle", None),)
    ),
    "fortifications-never-adjacent": lambda s: s.with_pieces(
        fortifications=(Fortification(0, "T2", 0, 1), Fortification(0, "T12", 1, 1))
    ),
    "cannon-aim-consistent": lambda s: s.with_pieces(
        buildings=s.buildings + (Building(0, "P1", 0, "drill-cannon", 5, 0, "ready", "T40"),)
    ),
    "nothing-on-destroyed-planets": lambda s: attrs.evolve(s, planets=(attrs.evolve(s.planets[0], destroyed=True),)),
    "losses-and-game-end": lambda s: s.with_pieces(
        rovers=[r for r in s.rovers if r.owner == 0], buildings=s.buildings_of(0)
    ),
}


@pytest.mark.parametrize("name", sorted(CORRUPTIONS))
def test_each_state_property_catches_its_corruption(game, state, name):
    prop = next(p for p in PROPERTIES if p.name == name)
    assert isinstance(prop, StateProperty)
    assert prop.check(game, state) is None
    bad = CORRUPTIONS[name](state)
    assert prop.check(game, bad)


def test_every_state_property_has_a_corruption_test():
    assert {p.name for p in PROPERTIES if isinstance(p, StateProperty)} == set(CORRUPTIONS)


def test_transition_properties_catch_bad_steps(game, state):
    by_name = {p.name: p for p in PROPERTIES}
    cooled = attrs.evolve(state, planets=(attrs.evolve(state.planets[0], fires=2),))
    assert by_name["fire-counters-never-decrease"].check(game, cooled, None, state)
    lost = attrs.evolve(state, lost=(0,))
    assert by_name["lost-players-stay-out"].check(game, lost, None, state)  # came back
    assert by_name["lost-players-stay-out"].check(game, lost, None, lost)  # acted while lost
    saved = state.with_pieces(buildings=state.buildings + (Building(0, "P1", 0, TREASURY, 5, 0, "idle", None),))
    more = saved.with_pieces(
        buildings=[attrs.evolve(b, points=2) if b.kind == TREASURY else b for b in saved.buildings]
    )
    assert by_name["saved-points-only-by-saving"].check(game, saved, "move T1 T2", more)
    fortified = state.with_pieces(fortifications=(Fortification(0, "T2", 0, 1),))
    decommission = game.parse_action("decommission T2")
    assert by_name["decommission-removes-the-piece"].check(game, fortified, decommission, fortified)
    assert by_name["decommission-removes-the-piece"].check(game, fortified, decommission, state) is None
    manufacture = game.parse_action("manufacture P0 T2")
    second = state.with_pieces(rovers=state.rovers + (Rover(0, "T2", 0, 3),))  # 2 Rovers, 1 Building
    assert by_name["manufacture-respects-rover-cap"].check(game, state, manufacture, second) == (
        "Manufacture left 2 Rovers against 1 Buildings"
    )
    assert by_name["manufacture-respects-rover-cap"].check(game, state, manufacture, state) is None
    fourth = attrs.evolve(state, turn=Turn(0, 4, 3, True, 1))
    assert by_name["at-most-4-actions-in-a-row"].check(game, fourth, "move T1 T2", state)
    assert by_name["at-most-4-actions-in-a-row"].check(game, state, "move T1 T2", state) is None
    assert not failures(game, PROPERTIES, state, None, state)


def test_every_clause_the_code_names_is_in_the_catalogue():
    ids = set(Globetrotter.catalogue().ids)
    sources = [*(ROOT / "rulecheck" / "games" / "globetrotter").glob("*.py"), ROOT / "properties" / "globetrotter.py"]
    named = set()
    for path in sources:
        named |= set(re.findall(r'"(GT-[A-Z]+\d+)"', path.read_text()))
    gaps = {"GT-F06", "GT-F13"}  # rule-gap ids name findings, not clauses
    assert named - gaps <= ids
    for option in Globetrotter.option_space.options:
        assert set(option.clauses) <= ids


def test_the_model_page_names_every_option():
    page = (ROOT / "docs" / "globetrotter.md").read_text()
    for option in Globetrotter.option_space.options:
        assert f"`{option.name}`" in page
