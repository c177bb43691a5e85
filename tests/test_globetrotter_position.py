"""Globetrotter's position format: every reachable state written and read back is the same state
(through TOML too), rare parts included (stolen points, Rovers waiting in orbit, the turn's Rover,
destroyed planets, every kind of pending roll, the end of the game); an empty `[position]` and a
short one take the documented defaults; and each impossible position a rule designer could
write is refused with the rule it breaks, at the entry that breaks it."""

import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulecheck.check.play.playthrough import random_game
from rulecheck.games.globetrotter.position import DOCS, FORMAT, read, write
from rulecheck.games.globetrotter.state import (
    AIMED,
    FACTORY,
    IDLE,
    PLAY,
    Building,
    GlobetrotterState,
    PlanetState,
    Rover,
    Turn,
)
from rulecheck.model.properties import StateProperty
from rulecheck.registry import declaration, make_game
from tests.positions import Refused, fail, reads_back

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "scenarios" / "globetrotter"


READINGS = (
    {},
    {"destroying_action": "excluded", "fortify_adjacency": "rover", "shooter": "any-piece"},
    {"loss_check": "start-of-turn", "removal": "edge5", "game_end": "first-loss", "setup_ties": "seat-order"},
    {
        "rovers_per_turn": "one",
        "descend_after_orbit": "next-turn",
        "lost_pieces": "removed",
        "planet_treasuries": "lost",
        "saved_point_use": "same-turn",
    },
)


@pytest.mark.parametrize("options", READINGS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_reachable_state_reads_back_as_itself(players: int, options: dict[str, str]) -> None:
    game = make_game("globetrotter", players, options)
    for seed in range(2):
        for index, state in enumerate(random_game(game, seed, 300).states):
            reads_back(game, state, through_toml=index % 25 == 0)


THEFT = {  # player 0 shoots player 1's Treasury (1 hit point, 3 points) with the turn's own action
    "players": [
        {"rovers": {"T1": 3}, "buildings": {"P0": {"kind": "treasury", "points": 1}}},
        {"rovers": {"T55": 3}, "buildings": {"P1": {"kind": "treasury", "hp": 1, "points": 3}}},
    ]
}
TRANSFER = {  # four players: player 0's orbiting Rover moves to planet b's orbit, a saved point to spend
    "players": [
        {"rovers": {"a:T1": 3}, "orbit": {"a": [3]}, "buildings": {"a:P0": {"kind": "treasury", "points": 1}}},
        {"rovers": {"a:T55": 3}},
        {"rovers": {"b:T55": 3}},
        {"rovers": {"b:T1": 3}},
    ]
}
DOOMED = {  # the thirteenth firing on planet a always destroys it; player 0 plays on from planet b
    "planets": {"a": {"fires": 12}},
    "players": [
        {"rovers": {"a:T1": 3, "b:T2": 3}, "buildings": {"a:P0": {"kind": "drill-cannon", "aim": "a:T40"}}},
        {"rovers": {"a:T55": 3}},
        {"rovers": {"b:T55": 3}},
        {"rovers": {"b:T1": 3}},
    ],
}
LAST_PLANET = {  # two players, one planet: the thirteenth firing ends the game, everyone losing
    "planets": {"a": {"fires": 12}},
    "players": [
        {"rovers": {"T1": 3}, "buildings": {"P0": {"kind": "drill-cannon", "aim": "T40"}}},
        {"rovers": {"T55": 3}},
    ],
}
SELF_AIMED = {  # a Drill Cannon with 1 hit point fires at its own space: the explosion roll follows
    "players": [
        {"rovers": {"T1": 3}, "buildings": {"P0": {"kind": "drill-cannon", "hp": 1, "aim": "P0"}}},
        {"rovers": {"T55": 3}},
    ]
}
INTO_ORBIT = {  # player 0's Rover beside their Space Port goes into orbit, a saved point to spend
    "players": [
        {
            "rovers": {"T1": 3},
            "buildings": {"P0": "space-port", "P9": "factory", "P3": {"kind": "treasury", "points": 1}},
        },
        {"rovers": {"T55": 3}},
    ]
}
WAITING_IN_ORBIT = {"descend_after_orbit": "next-turn", "rovers_per_turn": "one"}
RARE_STARTS = (
    (2, WAITING_IN_ORBIT, INTO_ORBIT, ("orbit T1",)),
    (2, {"destroying_action": "excluded"}, THEFT, ("shoot T1 P1 building", "die 6")),
    (2, {}, THEFT, ("shoot T1 P1 building", "die 6")),
    (4, {}, TRANSFER, ("transfer 3 a b",)),
    (4, {"descend_after_transfer": "same-turn"}, TRANSFER, ("transfer 3 a b",)),
    (4, {}, DOOMED, ("fire a:P0",)),
    (2, {}, LAST_PLANET, ("fire P0",)),
    (2, {}, SELF_AIMED, ("fire P0",)),
)


def test_rare_parts_of_a_state_read_back_too() -> None:
    seen: set[str] = set()
    for players, options, document, forced in RARE_STARTS:
        game = make_game("globetrotter", players, options)
        start = read(game, document, fail)
        for action in forced:
            start = game.apply(start, game.parse_action(action))
        for seed in range(6):
            for state in random_game(game, seed, 120, start=start).states:
                reads_back(game, state, through_toml=True)
                seen |= {f"pending {p.kind}" for p in state.pending}
                seen |= {f"phase {state.phase}"}
                if state.turn is not None:
                    seen |= {"stolen"} if state.turn.stolen else set()
                    seen |= {"excluded"} if state.turn.excluded else set()
                    seen |= {"arrived"} if state.turn.arrived else set()
                    seen |= {"saved now"} if state.turn.saved_now else set()
                    seen |= {"turn's Rover"} if state.turn.rover is not None else set()
                seen |= {"destroyed"} if any(p.destroyed for p in state.planets) else set()
    wanted = {"stolen", "excluded", "arrived", "destroyed", "phase over", "saved now", "turn's Rover"}
    wanted |= {f"pending {k}" for k in ("to-hit", "damage", "drill-hits", "drill-damage", "explosion", "destruction")}
    assert wanted <= seen, wanted - seen


def test_setup_positions_read_back() -> None:
    for players in (2, 3, 5):
        game = make_game("globetrotter", players)
        phases = set()
        for seed in range(4):
            for state in random_game(game, seed, 6 * players).states:
                reads_back(game, state, through_toml=True)
                phases.add(state.phase)
        assert {"roll", "place-factory", "place-rover", "play"} <= phases


def scenario_runs() -> Iterator[tuple[str, int, dict[str, str], dict[str, Any]]]:
    for path in sorted(SCENARIOS.glob("*.toml")):
        case = tomllib.loads(path.read_text())
        base = case.get("options", {})
        for options in [base] + [{**base, **when["options"]} for when in case["expect"].get("when", [])]:
            yield path.name, case.get("players", 2), options, case["position"]


def test_every_scenario_position_is_possible_and_reads_back() -> None:
    properties = [p for p in declaration("globetrotter").properties if isinstance(p, StateProperty)]
    runs = list(scenario_runs())
    assert len({name for name, *_ in runs}) >= 15
    for name, players, options, position in runs:
        game = make_game("globetrotter", players, options)
        state = read(game, position, fail)
        broken = [(p.name, p.check(game, state)) for p in properties if p.applies(game.options)]
        assert not [b for b in broken if b[1]], (name, options, broken)
        reads_back(game, state, through_toml=True)


def test_the_format_is_registered_and_its_defaults_documented() -> None:
    assert declaration("globetrotter").position_format() is FORMAT
    assert FORMAT.defaults == DOCS == "docs/globetrotter.md#scenarios"
    docs = (ROOT / "docs" / "globetrotter.md").read_text()
    section = docs.split("## Scenarios", 1)[1]
    for key in ("phase", "contenders", "placing", "turn.player", "turn.actions", "turn.counted", "turn.stolen"):
        assert f"`{key}`" in section
    for key in ("saved_this_turn", "action_excluded", "arrived", "fires", "destroyed", "roll", "lost", "rovers"):
        assert key in section
    for key in ("orbit", "fortifications", "buildings", "pending", "readiness", "aim", "points", "hits", "needs"):
        assert key in section


def test_an_empty_position_is_play_with_nothing_on_the_board() -> None:
    game = make_game("globetrotter", 2, {"loss_check": "start-of-turn"})
    assert read(game, {}, fail) == GlobetrotterState(
        phase=PLAY,
        rolls=(0, 0),
        contenders=(),
        placing=(),
        turn=Turn(0, 0, 0, False, 0),
        rover_codes=(),
        fortification_codes=(),
        building_codes=(),
        planets=(PlanetState(0, False),),
        pending=(),
        lost=(),
    )
    with pytest.raises(Refused) as refused:  # losses are marked after every action: nobody could play on
        read(make_game("globetrotter", 2), {}, fail)
    assert refused.value.rule == "GT-E1" and refused.value.path == ("players", 0)


def test_a_short_position_takes_the_documented_defaults() -> None:
    game = make_game("globetrotter", 2)
    document = {
        "players": [
            {"rovers": ["T2"], "buildings": {"P0": "factory"}},
            {"rovers": {"T55": 2}, "orbit": [1, 3], "buildings": {"P9": {"kind": "drill-cannon", "aim": "T2"}}},
        ]
    }
    state = read(game, document, fail)
    assert state.turn == Turn(0, 0, 0, False, 0) and state.phase == PLAY and state.lost == ()
    assert state.rovers == (
        Rover(0, None, 1, 1),
        Rover(0, None, 1, 3),
        Rover(0, "T2", 0, 3),
        Rover(0, "T55", 1, 2),
    )
    assert state.buildings == (
        Building(0, "P0", 0, FACTORY, 5, 0, IDLE, None),
        Building(0, "P9", 1, "drill-cannon", 5, 0, AIMED, "T2"),
    )
    written = write(game, state)
    assert written["players"][1]["orbit"] == {"a": [1, 3]}
    assert written["players"][0]["buildings"] == {"P0": {"kind": "factory", "hp": 5, "points": 0}}
    assert written["turn"] == {"player": 0, "actions": 0, "stolen": 0, "saved_this_turn": 0}


ME = {"rovers": {"T2": 3}}
YOU = {"rovers": {"T55": 3}}
FOUR = [{"rovers": {"a:T1": 3}}, {"rovers": {"a:T55": 3}}, {"rovers": {"b:T1": 3}}, {"rovers": {"b:T55": 3}}]


def two(first: dict[str, Any], second: dict[str, Any] | None = None, **top: Any) -> dict[str, Any]:
    return {"players": [{**ME, **first}, {**YOU, **(second or {})}], **top}


IMPOSSIBLE = [
    # (why, players, options, document, rule, path)
    ("unknown key", 2, {}, {"colour": "red"}, DOCS, ("colour",)),
    ("unknown player key", 2, {}, two({"energy": 3}), DOCS, ("players", 0, "energy")),
    ("wrong type", 2, {}, two({"rovers": 3}), DOCS, ("players", 0, "rovers")),
    ("a boolean for a number", 2, {}, two({"rovers": {"T2": True}}), DOCS, ("players", 0, "rovers", "T2")),
    ("unknown phase", 2, {}, {"phase": "lunch"}, DOCS, ("phase",)),
    ("three seats for two", 2, {}, {"players": [ME, YOU, ME]}, DOCS, ("players", 2)),
    ("no such label", 2, {}, two({"rovers": {"T99": 3}}), "GT-B1", ("players", 0, "rovers", "T99")),
    ("a removed triangle", 2, {}, two({"rovers": {"T65": 3}}), "GT-B2", ("players", 0, "rovers", "T65")),
    (
        "the removed pentagon",
        2,
        {},
        two({"buildings": {"P11": "factory"}}),
        "GT-B2",
        ("players", 0, "buildings", "P11"),
    ),
    (
        "a bare label with two planets",
        4,
        {},
        {"players": [{"rovers": {"T14": 3}}]},
        DOCS,
        ("players", 0, "rovers", "T14"),
    ),
    (
        "a planet letter with one planet",
        2,
        {},
        two({"rovers": {"b:T14": 3}}),
        "GT-M1",
        ("players", 0, "rovers", "b:T14"),
    ),
    ("two Rovers on a space", 2, {}, two({}, {"rovers": {"T2": 3}}), "GT-A2", ("players", 1, "rovers", "T2")),
    ("a Rover on a Building", 2, {}, two({"rovers": {"P0": 3}}, {"buildings": {"P0": "factory"}}), "GT-A2", ()),
    ("a Rover on an enemy Fortification", 2, {}, two({}, {"fortifications": ["T2"]}), "GT-A3", ()),
    (
        "one Fortification twice",
        2,
        {},
        two({"fortifications": ["T1", "T1"]}),
        "GT-A9",
        ("players", 0, "fortifications", 1),
    ),
    (
        "a Fortification on a Building",
        2,
        {},
        two({"buildings": {"P0": "factory"}, "fortifications": ["P0"]}),
        "GT-A10",
        ("players", 0, "buildings", "P0"),
    ),
    ("a Building off an HQ", 2, {}, two({"buildings": {"T1": "factory"}}), "GT-B3", ("players", 0, "buildings", "T1")),
    (
        "no such Building type",
        2,
        {},
        two({"buildings": {"P0": "castle"}}),
        "GT-A11",
        ("players", 0, "buildings", "P0", "kind"),
    ),
    (
        "two Factories on a planet",
        2,
        {},
        two({"buildings": {"P0": "factory", "P1": "factory"}}),
        "GT-A11",
        ("players", 0, "buildings", "P1"),
    ),
    (
        "two Treasuries on two planets",
        4,
        {},
        {"players": [{**FOUR[0], "buildings": {"a:P0": "treasury", "b:P0": "treasury"}}, *FOUR[1:]]},
        "GT-T6",
        ("players", 0, "buildings", "b:P0"),
    ),
    ("a Rover with 4 hit points", 2, {}, two({"rovers": {"T2": 4}}), "GT-A8", ("players", 0, "rovers", "T2")),
    ("an orbiting Rover with none", 2, {}, two({"orbit": {"a": [0]}}), "GT-A8", ("players", 0, "orbit", "a", 0)),
    ("a Building with 6 hit points", 2, {}, two({"buildings": {"P0": {"kind": "factory", "hp": 6}}}), "GT-A8", ()),
    ("6 build points", 2, {}, two({"buildings": {"P0": {"kind": "factory", "points": 6}}}), "GT-F1", ()),
    ("4 saved points", 2, {}, two({"buildings": {"P0": {"kind": "treasury", "points": 4}}}), "GT-T2", ()),
    ("points in a Space Port", 2, {}, two({"buildings": {"P0": {"kind": "space-port", "points": 1}}}), "GT-F1", ()),
    ("Fortifications side by side", 2, {}, two({"fortifications": ["T1"]}, {"fortifications": ["T11"]}), "GT-A9", ()),
    (
        "own Fortifications side by side, space-own",
        2,
        {"fortify_adjacency": "space-own"},
        two({"fortifications": ["T1", "T11"]}),
        "GT-A9",
        ("players", 0, "fortifications"),
    ),
    (
        "an aimed cannon without an aim",
        2,
        {},
        two({"buildings": {"P0": {"kind": "drill-cannon", "readiness": "aimed"}}}),
        "GT-D1",
        (),
    ),
    (
        "a ready cannon with an aim",
        2,
        {},
        two({"buildings": {"P0": {"kind": "drill-cannon", "readiness": "ready", "aim": "T1"}}}),
        "GT-D1",
        (),
    ),
    (
        "a cannon aimed at another planet",
        4,
        {},
        {"players": [{**FOUR[0], "buildings": {"a:P0": {"kind": "drill-cannon", "aim": "b:T3"}}}, *FOUR[1:]]},
        "GT-D1",
        ("players", 0, "buildings", "a:P0", "aim"),
    ),
    ("a Factory that aims", 2, {}, two({"buildings": {"P0": {"kind": "factory", "aim": "T1"}}}), "GT-D1", ()),
    (
        "a piece on a destroyed planet",
        4,
        {},
        {"planets": {"b": {"fires": 5, "destroyed": True}}, "players": FOUR},
        "GT-D6",
        ("players", 2, "rovers", "b:T1"),
    ),
    (
        "a planet destroyed before its third firing",
        2,
        {},
        two({}, planets={"a": {"fires": 2, "destroyed": True}}),
        "GT-D6",
        (),
    ),
    ("no such planet", 2, {}, two({}, planets={"b": {"fires": 1}}), "GT-M1", ("planets", "b")),
    (
        "five counted actions",
        2,
        {},
        two({"buildings": {"P0": {"kind": "treasury", "points": 3}}}, turn={"actions": 5}),
        "GT-T5",
        (),
    ),
    (
        "more stolen points than the cap leaves",
        2,
        {},
        two({}, turn={"actions": 1, "stolen": 4}),
        "GT-T5",
        ("turn", "stolen"),
    ),
    ("stolen before any action", 2, {}, two({}, turn={"stolen": 2}), "GT-T4", ("turn", "stolen")),
    (
        "counted apart under counts",
        2,
        {},
        two({}, turn={"actions": 2, "counted": 1, "stolen": 1}),
        "GT-T5",
        ("turn", "counted"),
    ),
    ("two points saved in one turn", 2, {}, two({}, turn={"actions": 1, "saved_this_turn": 2}), "GT-T1", ()),
    ("arrivals on one planet", 2, {}, two({}, turn={"arrived": {"a": [3]}}), "GT-SP3", ("turn", "arrived")),
    (
        "a turn's Rover under rovers_per_turn=any",
        2,
        {},
        two({}, turn={"actions": 1, "stolen": 1, "rover": "T2"}),
        "GT-F4",
        ("turn", "rover"),
    ),
    (
        "a turn's Rover before any action",
        2,
        {"rovers_per_turn": "one"},
        two({}, turn={"rover": "T2"}),
        "GT-F4",
        ("turn", "rover"),
    ),
    (
        "a turn's Rover that is not there",
        2,
        {"rovers_per_turn": "one"},
        two({}, turn={"actions": 1, "stolen": 1, "rover": "T40"}),
        "GT-F4",
        ("turn", "rover"),
    ),
    (
        "a loser holding pieces under lost_pieces=removed",
        3,
        {"lost_pieces": "removed"},
        {"players": [ME, YOU, {"lost": True, "fortifications": ["T30"]}]},
        "GT-E1",
        ("players", 2),
    ),
    ("no action left", 2, {}, two({}, turn={"actions": 1}), "GT-A0", ("turn",)),
    ("a mover who has lost", 3, {}, {"players": [{"lost": True}, YOU, ME]}, "GT-E1", ("turn", "player")),
    ("a player with nothing who plays on", 3, {}, {"players": [ME, YOU]}, "GT-E1", ("players", 2)),
    ("a game that is over", 2, {}, {"players": [ME, {"lost": True}]}, "GT-E3", ("phase",)),
    ("a game over too soon", 2, {}, {"phase": "over", "players": [ME, YOU]}, "GT-E3", ("phase",)),
    ("a turn outside play", 2, {}, {"phase": "over", "turn": {"player": 1}}, "GT-A0", ("turn",)),
    ("choosing the order with three players", 3, {}, {"phase": "choose"}, "GT-S1", ("phase",)),
    ("a d6 showing 7", 2, {}, {"phase": "roll", "players": [{"roll": 7}]}, "GT-S1", ("players", 0, "roll")),
    ("a roll-off round already settled", 2, {}, {"phase": "roll", "players": [{"roll": 3}, {"roll": 5}]}, "GT-S1", ()),
    (
        "a roll of a player not rolling",
        3,
        {},
        {"phase": "roll", "contenders": [0, 1], "players": [{}, {}, {"roll": 2}]},
        "GT-S1",
        (),
    ),
    ("pieces before placing", 2, {}, {"phase": "roll", "players": [ME]}, "GT-S2", ("players", 0)),
    (
        "a Fortification during setup",
        2,
        {},
        {
            "phase": "place-factory",
            "placing": [1],
            "players": [{"rovers": ["T1"], "buildings": {"P0": "factory"}, "fortifications": ["T3"]}],
        },
        "GT-S2",
        (),
    ),
    (
        "a placed Rover away from its Factory",
        2,
        {},
        {"phase": "place-factory", "placing": [1], "players": [{"rovers": ["T2"], "buildings": {"P0": "factory"}}]},
        "GT-S2",
        ("players", 0, "rovers"),
    ),
    ("a Rover to place beside no Factory", 2, {}, {"phase": "place-rover", "placing": [0, 1]}, "GT-S2", ("players", 0)),
    (
        "a roll to hit a Fortification",
        2,
        {},
        two(
            {},
            {"fortifications": ["T1"]},
            turn={"actions": 1},
            pending=[{"roll": "to-hit", "space": "T1", "target": "fortification"}],
        ),
        "GT-A6",
        (),
    ),
    (
        "a damage roll for nothing",
        2,
        {},
        two({}, turn={"actions": 1}, pending=[{"roll": "damage", "space": "T40"}]),
        "GT-A4",
        (),
    ),
    (
        "a roll before any action",
        2,
        {},
        two({}, pending=[{"roll": "destruction", "planet": "a"}]),
        "GT-A0",
        ("pending",),
    ),
    ("an unknown roll", 2, {}, two({}, turn={"actions": 1}, pending=[{"roll": "coin"}]), DOCS, ("pending", 0, "roll")),
    (
        "seven drill hits",
        2,
        {},
        two({}, turn={"actions": 1}, pending=[{"roll": "drill-damage", "space": "T40", "hits": 7}]),
        "GT-D2",
        (),
    ),
]


@pytest.mark.parametrize(
    ("why", "players", "options", "document", "rule", "path"), IMPOSSIBLE, ids=[c[0] for c in IMPOSSIBLE]
)
def test_an_impossible_position_is_refused_with_its_rule(
    why: str, players: int, options: dict[str, str], document: dict[str, Any], rule: str, path: tuple[Any, ...]
) -> None:
    game = make_game("globetrotter", players, options)
    with pytest.raises(Refused) as refused:
        read(game, document, fail)
    assert refused.value.rule == rule, refused.value
    assert refused.value.path[: len(path)] == path, refused.value
    assert f"[{rule}]" in str(refused.value)


@pytest.mark.parametrize(
    ("options", "document"),
    [
        ({"fortify_adjacency": "space-own"}, two({"fortifications": ["T1"]}, {"fortifications": ["T11"]})),
        ({"fortify_adjacency": "rover"}, two({"fortifications": ["T1", "T11"]})),
        ({"removal": "edge5"}, two({"rovers": {"T65": 3}})),
        ({"loss_check": "start-of-turn"}, {"players": [ME]}),
        (
            {"destroying_action": "excluded"},
            two({}, turn={"actions": 2, "counted": 1, "stolen": 1, "action_excluded": True}),
        ),
    ],
    ids=[
        "enemy-adjacent-space-own",
        "own-adjacent-rover",
        "T65-under-edge5",
        "unmarked-loser-start-of-turn",
        "excluded",
    ],
)
def test_a_position_one_reading_forbids_is_read_under_another(
    options: dict[str, str], document: dict[str, Any]
) -> None:
    game = make_game("globetrotter", 2, options)
    reads_back(game, read(game, document, fail), through_toml=True)
