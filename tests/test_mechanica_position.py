"""Mechanica's position format: every reachable state written and read back is the same state
(through TOML too), an empty `[position]` is the documented defaults, and each impossible
position a rule designer could write is refused with the rule it breaks."""

import json
import tomllib

import attrs
import pytest
import tomli_w

from rulecheck.check.play.playthrough import random_game
from rulecheck.check.watch.property_checks import promised
from rulecheck.core.hidden import Pile
from rulecheck.games.mechanica.data import DATA_DIR
from rulecheck.games.mechanica.position import DOCS, read, write
from rulecheck.games.mechanica.state import IN, OUT, SELL, TURN, Factory
from rulecheck.model.properties import StateProperty
from rulecheck.registry import declaration, make_game
from tests.positions import Refused, fail, reads_back

READINGS = (
    {},
    {"game_end": "at-once", "hole_capacity": "unlimited", "truck_counts": "publisher"},
    {"shop_rotation": "until-full", "recycled_bots": "empty-hole", "crowded_hole": "all-to-supply"},
    {"blueprint_once": "once-in-all", "extras_small_games": "never"},
)


@pytest.mark.parametrize("options", READINGS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_reachable_state_reads_back_as_itself(players, options):
    game = make_game("mechanica", players, options)
    phases = set()
    for seed in range(3):
        for index, state in enumerate(random_game(game, seed, 2_500).states):
            reads_back(game, state, through_toml=index % 7 == 0)
            phases.add(state.phase)
    assert {"setup", "route", "turn", "place"} <= phases


def test_positions_read_back_under_another_data_set(tmp_path):
    """Squares, spots and names come from the data set: four belts, three price spots."""
    document = tomllib.loads((DATA_DIR / "default.toml").read_text())
    board = document["board"]
    board["start"].append("S4")
    board["floor"] += ["F41", "F42", "F43"]
    board["dock"].append("D4")
    board["belts"].append({"name": "lowest", "path": ["S4", "F41", "F42", "F43", "D4"]})
    document["shop"]["prices"] = [6, 4, 2]
    path = tmp_path / "four-belts.json"
    path.write_text(json.dumps(document))
    game = make_game("mechanica", 2, data=path)
    for seed in range(2):
        for state in random_game(game, seed, 1_500).states:
            assert read(game, write(game, state), fail) == state
    state = read(game, {"players": [{"forks": ["F42"], "bots": {"D4": ["plus"]}}]}, fail)
    assert state.shop == ("", "", "") and state.factories[0].forks == ("F42",)
    assert [d for d, _ in state.factories[0].trucks] == ["D1", "D2", "D3", "D4"]


def test_the_written_position_of_a_busy_state_holds_only_toml_values():
    game = make_game("mechanica", 3)
    states = random_game(game, 5, 2_000).states
    busy = max(states, key=lambda s: len(s.completions) + sum(len(f.bots) + len(f.tiles) for f in s.factories))
    document = write(game, busy)
    assert tomllib.loads(tomli_w.dumps(document)) == document
    assert read(game, document, fail) == busy


def test_an_empty_position_is_the_first_players_sell_step_with_starting_factories():
    game = make_game("mechanica", 3)
    state = read(game, {}, fail)
    data = game.data
    start = Factory(
        tiles=((data.start_square, data.start_fabricator),),
        trucks=(("D1", "small"), ("D2", "small"), ("D3", "small")),
        forks=(),
        bots=(),
        wallet=0,
        vault=0,
    )
    assert state.factories == (start,) * 3
    assert (state.phase, state.workday, state.player, state.step) == (TURN, 1, 0, SELL)
    assert state.turns == (0, 0, 0)
    assert state.shop == ("", "", "", "")
    assert (state.stack, state.extras, state.unseen.size) == (21, 6, 27)
    assert state.unseen == Pile.shuffled(t.name for t in data.improvements for _ in range(t.copies))
    assert state.blueprints == ("", "")
    assert [p.size for p in state.blueprint_stacks] == [7, 8]
    assert (state.sideways, state.completions, state.pending, state.placing, state.routes) == (False, (), (), (), ())
    assert state.supply == (24, 24, 24)
    assert state.trucks_left == (15, 7) and state.forks_left == 10
    assert (state.recycled, state.demolished, state.resume) == ((), (), "")
    for prop in promised(game, declaration("mechanica").properties):
        if isinstance(prop, StateProperty):
            assert prop.check(game, state) is None, prop.name


def test_defaults_fill_what_a_short_position_leaves_out():
    game = make_game("mechanica", 2)
    state = read(
        game,
        {
            "player": 1,
            "step": "buy",
            "workday": 3,
            "shop": ["duplicator"],
            "stack": 20,
            "players": [{"wallet": 4, "trucks": {"D2": "big"}, "bots": {"D2": ["plus", "basic"]}}],
            "blueprint_stacks": [{"face_up": "bp02", "under": ["bp01"]}],
        },
        fail,
    )
    assert state.turns == (3, 2)
    assert state.shop == ("duplicator", "", "", "")
    assert (state.stack, state.extras, state.unseen.size) == (20, 6, 26)
    assert state.factories[0].trucks == (("D1", "small"), ("D2", "big"), ("D3", "small"))
    assert state.factories[0].bots == (("D2", IN, "basic"), ("D2", IN, "plus"))
    assert state.factories[1].wallet == 0
    assert state.blueprints == ("bp02", "")
    assert state.blueprint_stacks[0].layers[-1] == (("bp01", 1),)
    assert state.blueprint_stacks[0].size == 6
    assert state.supply == (23, 23, 24)
    assert state.trucks_left == (14, 7)


def test_output_bots_and_fork_commits_are_read():
    game = make_game("mechanica", 2)
    state = read(
        game,
        {
            "phase": "route",
            "workday": 2,
            "player": 1,
            "routes": [{"player": 0, "square": "F12", "exit": "down"}],
            "players": [
                {"improvements": {"S2": "basic-fabricator", "F12": "duplicator"}, "output_bots": {"F12": ["plus"]}},
                {"forks": ["F22"], "fork_sides": {"F22": "up"}},
            ],
        },
        fail,
    )
    assert state.routes == ((0, "F12", "down"),)
    assert ("F12", OUT, "plus") in state.factories[0].bots
    assert state.factories[1].fork_sides == (("F22", "up"),)
    assert [str(a) for a in game.legal_actions(state)] == ["route F22 belt", "route F22 up"]


START = {"S2": "basic-fabricator"}
TILES = sorted(t.name for t in make_game("mechanica", 1).data.improvements for _ in range(t.copies))
REFUSED = [
    # (players, options, document, rule, the path's start)
    (1, {}, {"colour": "red"}, DOCS, ("colour",)),
    (1, {}, {"workday": "two"}, DOCS, ("workday",)),
    (1, {}, {"workday": True}, DOCS, ("workday",)),
    (1, {}, {"phase": "lunch"}, DOCS, ("phase",)),
    (1, {}, {"step": "rotate"}, "MEC-T0", ("step",)),
    (1, {}, {"player": 1}, "MEC-W7", ("player",)),
    (1, {}, {"workday": 0}, "MEC-W1", ("workday",)),
    (2, {}, {"players": [{}, {}, {}]}, "MEC-S1", ("players",)),
    (1, {}, {"players": [{"wallet": -1}]}, "wallet-never-negative", ("players", 0, "wallet")),
    (1, {}, {"players": [{"vault": -3}]}, "MEC-B2", ("players", 0, "vault")),
    (1, {}, {"players": [{"bots": {"F44": ["basic"]}}]}, "MEC-W3", ("players", 0, "bots", "F44")),
    (1, {}, {"players": [{"bots": {"F12": ["basic"]}}]}, "MEC-W3", ("players", 0, "bots", "F12")),
    (1, {}, {"players": [{"forks": ["F12"], "bots": {"F12": ["basic"]}}]}, "MEC-W3", ("players", 0, "bots")),
    (1, {}, {"players": [{"bots": {"S1": ["gold"]}}]}, "MEC-P1", ("players", 0, "bots", "S1", 0)),
    (1, {}, {"players": [{"bots": {"S1": "basic"}}]}, DOCS, ("players", 0, "bots", "S1")),
    (1, {}, {"players": [{"bots": {"S1": ["basic", "plus"]}}]}, "holes-within-capacity", ("players", 0, "bots")),
    (1, {}, {"players": [{"bots": {"D1": ["basic", "plus"]}}]}, "trucks-within-capacity", ("players", 0, "bots")),
    (1, {}, {"players": [{"output_bots": {"S1": ["basic"]}}]}, "MEC-W6", ("players", 0, "output_bots")),
    (1, {}, {"players": [{"output_bots": {"D1": ["basic"]}}]}, "MEC-W6", ("players", 0, "output_bots")),
    (
        1,
        {},
        {"players": [{"improvements": {**START, "F12": "gift-wrapper"}, "output_bots": {"F12": ["plus"]}}]},
        "MEC-W6",
        ("players", 0, "output_bots", "F12"),
    ),
    (
        1,
        {},
        {"players": [{"improvements": {**START, "F12": "upgrader"}, "output_bots": {"F12": ["plus", "plus"]}}]},
        "holes-within-capacity",
        ("players", 0, "output_bots", "F12"),
    ),
    (1, {}, {"players": [{"improvements": {**START, "F12": "rocket"}}]}, "MEC-C1", ("players", 0, "improvements")),
    (1, {}, {"players": [{"improvements": {"F12": "basic-fabricator"}}]}, "MEC-T4", ("players", 0, "improvements")),
    (1, {}, {"players": [{"improvements": {**START, "S1": "duplicator"}}]}, "MEC-T4", ("players", 0, "improvements")),
    (1, {}, {"players": [{"improvements": {**START, "D1": "upgrader"}}]}, "MEC-T4", ("players", 0, "improvements")),
    (1, {}, {"players": [{"improvements": {**START, "X9": "upgrader"}}]}, "MEC-T4", ("players", 0, "improvements")),
    (1, {}, {"players": [{"trucks": {"D1": "rocket"}}]}, "MEC-A3", ("players", 0, "trucks", "D1")),
    (1, {}, {"players": [{"trucks": {"F12": "big"}}]}, "MEC-A3", ("players", 0, "trucks", "F12")),
    (1, {}, {"players": [{"forks": ["S1"]}]}, "MEC-A2", ("players", 0, "forks", 0)),
    (1, {}, {"players": [{"forks": ["F12", "F12"]}]}, "MEC-A2", ("players", 0, "forks", 1)),
    (
        1,
        {},
        {"players": [{"improvements": {**START, "F12": "upgrader"}, "forks": ["F12"]}]},
        "MEC-T12",
        ("players", 0, "forks", 0),
    ),
    (
        4,
        {"fork_supply": "box"},
        {"players": [{"forks": ["F11", "F12", "F13"]}] * 3 + [{"forks": ["F31", "F32"]}]},
        "MEC-C1",
        ("players",),
    ),
    (
        4,
        {"truck_counts": "publisher"},
        {"players": [{"trucks": {"D1": "huge", "D2": "huge", "D3": "huge"}}] * 3},
        "MEC-P6",
        ("players",),
    ),
    (1, {}, {"shop": ["duplicator"] * 3, "recycled": ["duplicator"]}, "tiles-in-one-place", ("recycled", 0)),
    (1, {}, {"shop": ["", "", "", "", "upgrader"]}, "one-tile-per-shop-spot", ("shop",)),
    (1, {}, {"shop": [7]}, DOCS, ("shop", 0)),
    (1, {}, {"players": [{"improvements": {}}]}, "MEC-S1", ("players",)),
    (
        1,
        {"starting_fabricator": "printed"},
        {"players": [{"improvements": {}}]},
        "MEC-S1",
        ("players", 0, "improvements"),
    ),
    (1, {}, {"stack": 30}, "tiles-in-one-place", ("stack",)),
    (1, {}, {"stack": 20, "extras": 6}, "tiles-in-one-place", ("stack",)),
    (1, {}, {"stack": 19, "extras": 8}, "MEC-S2", ("extras",)),
    (1, {}, {"extras": -1}, "tiles-in-one-place", ("extras",)),
    (1, {}, {"blueprint_stacks": [{"face_up": "bp08"}]}, "MEC-S4", ("blueprint_stacks", 0, "face_up")),
    (1, {}, {"blueprint_stacks": [{"face_up": "bp99"}]}, "MEC-S4", ("blueprint_stacks", 0, "face_up")),
    (
        1,
        {},
        {"blueprint_stacks": [{"face_up": "bp01", "under": ["bp01"]}]},
        "MEC-S4",
        ("blueprint_stacks", 0, "under", 0),
    ),
    (1, {}, {"blueprint_stacks": [{"face_down": ["bp01"]}]}, "MEC-S4", ("blueprint_stacks", 0, "face_down")),
    (1, {}, {"blueprint_stacks": [{}, {}, {}]}, "MEC-S4", ("blueprint_stacks",)),
    (1, {}, {"completions": [{"player": 0, "blueprint": "bp77"}]}, "MEC-B1", ("completions", 0, "blueprint")),
    (1, {}, {"completions": [{"player": 3, "blueprint": "bp01"}]}, "MEC-B1", ("completions", 0, "player")),
    (1, {}, {"phase": "setup"}, "MEC-W1", ("pending",)),
    (1, {}, {"phase": "setup", "pending": ["deck:1"]}, DOCS, ("pending", 0)),
    (
        1,
        {},
        {"phase": "setup", "pending": ["bp:1"], "blueprint_stacks": [{"face_up": "bp01"}]},
        "MEC-E2",
        ("pending", 0),
    ),
    (1, {}, {"phase": "setup", "pending": ["stack:0"], "shop": ["upgrader"]}, "one-tile-per-shop-spot", ("pending", 0)),
    (1, {}, {"step": "made", "pending": ["stack:0"], "stack": 0, "recycled": TILES[:21]}, "MEC-T9", ("pending", 0)),
    (1, {}, {"step": "made", "pending": ["extras:0"], "extras": 0, "recycled": TILES[:6]}, "MEC-S6", ("pending", 0)),
    (1, {}, {"step": "buy", "pending": ["stack:0"]}, "MEC-T9", ("pending", 0)),
    (1, {}, {"phase": "route", "pending": ["stack:0"]}, "MEC-S2", ("pending", 0)),
    (1, {}, {"to_place": ["plus"]}, "MEC-T6", ("to_place",)),
    (1, {}, {"phase": "place"}, "MEC-T6", ("to_place",)),
    (1, {}, {"phase": "place", "step": "sell", "to_place": ["plus"]}, "MEC-T6", ("step",)),
    (
        1,
        {},
        {
            "phase": "place",
            "step": "buy",
            "to_place": ["plus"],
            "players": [{"bots": {s: ["basic"] for s in "S1 S2 S3".split()}}],
        },
        "MEC-T6",
        ("to_place",),
    ),
    (1, {}, {"phase": "route", "workday": 2}, "MEC-A2", ("player",)),
    (
        1,
        {},
        {"routes": [{"player": 0, "square": "F12", "exit": "down"}], "players": [{"forks": ["F12"]}]},
        "MEC-A2",
        ("routes",),
    ),
    (
        1,
        {},
        {"phase": "route", "routes": [{"player": 0, "square": "F13", "exit": "down"}], "players": [{"forks": ["F12"]}]},
        "MEC-A2",
        ("routes", 0, "square"),
    ),
    (
        1,
        {},
        {"phase": "route", "routes": [{"player": 0, "square": "F12", "exit": "up"}], "players": [{"forks": ["F12"]}]},
        "MEC-A2",
        ("routes", 0, "exit"),
    ),
    (
        2,
        {},
        {
            "phase": "route",
            "player": 1,
            "players": [{"forks": ["F12"]}, {"forks": ["F22"], "fork_sides": {"F22": "up"}}],
        },
        "MEC-A2",
        ("routes",),
    ),
    (1, {}, {"players": [{"forks": ["F22"]}]}, "MEC-A2", ("players", 0, "forks", 0)),
    (
        1,
        {},
        {"players": [{"forks": ["F12"], "fork_sides": {"F12": "down"}}]},
        "MEC-A2",
        ("players", 0, "fork_sides", "F12"),
    ),
    (1, {}, {"players": [{"fork_sides": {"F22": "up"}}]}, "MEC-A2", ("players", 0, "fork_sides", "F22")),
    (
        1,
        {},
        {"players": [{"forks": ["F22"], "fork_sides": {"F22": "left"}}]},
        "MEC-A2",
        ("players", 0, "fork_sides", "F22"),
    ),
    (
        1,
        {"fork_exits": "every-exit"},
        {"players": [{"forks": ["F22"], "fork_sides": {"F22": "up"}}]},
        "MEC-A2",
        ("players", 0, "fork_sides", "F22"),
    ),
]


@pytest.mark.parametrize(("players", "options", "document", "rule", "path"), REFUSED)
def test_an_impossible_position_is_refused_with_its_rule(players, options, document, rule, path):
    game = make_game("mechanica", players, options)
    with pytest.raises(Refused) as refused:
        read(game, document, fail)
    assert refused.value.rule == rule, refused.value
    assert refused.value.path[: len(path)] == path, refused.value


def test_a_misspelt_name_is_refused_with_the_name_it_is_close_to():
    game = make_game("mechanica", 1)
    with pytest.raises(Refused) as refused:
        read(game, {"shop": ["duplicater"]}, fail)
    assert "did you mean 'duplicator'?" in refused.value.message and refused.value.rule == "MEC-C1"


def test_a_starting_fabricator_may_be_demolished_but_not_lost():
    game = make_game("mechanica", 2)
    state = read(game, {"players": [{"improvements": {}}], "demolished": ["basic-fabricator"]}, fail)
    assert state.factories[0].tiles == () and state.unseen.size == 27
    moved = attrs.evolve(state, demolished=())
    with pytest.raises(Refused) as refused:
        read(game, write(game, moved), fail)
    assert refused.value.rule == "MEC-S1"
