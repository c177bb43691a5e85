"""Pictures: the Globetrotter map labels every space of the board exactly once and the map in docs/
is the one the code draws; every game's picture of a position shows its pieces, read back from the
SVG's text and ids, with no label over another in a crowded position; a Mechanica improvement's
name too long for its square is fitted to it and named in full in the key; --frames draws every
step; bad paths and a missing matplotlib are clear errors."""

import re
import sys
from collections import Counter
from xml.etree import ElementTree

import attrs
import pytest

from rulecheck.check.play.playthrough import random_game
from rulecheck.cli import main
from rulecheck.core.trace import record
from rulecheck.games.globetrotter.state import (
    AIMED,
    DRILL_CANNON,
    FACTORY,
    IDLE,
    PLAY,
    Building,
    Fortification,
    Rover,
)
from rulecheck.geometry.planet import planet
from rulecheck.registry import DECLARATIONS, make_game
from tests.test_layers import ROOT
from tests.test_picture_layout import label_extents, layout_problems

SVG = "{http://www.w3.org/2000/svg}"
DOCS_MAP = ROOT / "docs" / "img" / "globetrotter-board.svg"
REGENERATE = "rulecheck board globetrotter --draw docs/img/globetrotter-board.svg"
LABEL = re.compile(r"[PT][0-9]+")


def run(capsys, *argv):
    code = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return code, out, err


def texts(path):
    """Every <text> of an SVG file as (text, x, y), in document order."""
    root = ElementTree.parse(path).getroot()
    return [(t.text or "", float(t.get("x", 0)), float(t.get("y", 0))) for t in root.iter(f"{SVG}text")]


def groups(path):
    """The text inside each element with an id (the gid matplotlib gives an artist), by id."""
    root = ElementTree.parse(path).getroot()
    return {g.get("id"): " ".join(t.text or "" for t in g.iter(f"{SVG}text")) for g in root.iter() if g.get("id")}


def _labels(path):
    return Counter(text for text, _, _ in texts(path) if LABEL.fullmatch(text))


@pytest.mark.parametrize("removal", ["ring15", "edge5"])
def test_the_map_labels_every_space_of_the_board_exactly_once(capsys, tmp_path, removal):
    out = tmp_path / "map.svg"
    code, printed, _ = run(capsys, "board", "globetrotter", "--set", f"removal={removal}", "--draw", out)
    assert code == 0 and str(out) in printed
    board = planet(removal).graph
    assert _labels(out) == Counter(board)
    spaces = {name: text for name, text in groups(out).items() if name.startswith("space-")}
    assert spaces == {f"space-{space}": space for space in board}


def test_the_map_in_the_docs_is_the_one_the_code_draws(capsys, tmp_path):
    out = tmp_path / "map.svg"
    assert run(capsys, "board", "globetrotter", "--draw", out)[0] == 0
    drawn = [(text, round(x), round(y)) for text, x, y in texts(out)]
    checked_in = [(text, round(x), round(y)) for text, x, y in texts(DOCS_MAP)]
    assert checked_in == drawn, f"{DOCS_MAP.name} is stale: regenerate it with `{REGENERATE}`"
    assert _labels(DOCS_MAP) == Counter(planet("ring15").graph)


def _in_play(game, seed=0):
    state = game.initial_state()
    for action in random_game(game, seed, max_steps=60).actions:
        state = game.apply(state, action)
        if state.phase == PLAY and not state.pending:
            return state
    raise AssertionError("setup did not end in 60 steps")


def _trace_of(game, state, folder):
    path = folder / "position.json"
    record(game, [], start=state).save(path)
    return path


def test_a_globetrotter_picture_shows_every_piece_its_hit_points_and_the_cannons_aim(capsys, tmp_path):
    game = make_game("globetrotter")
    state = _in_play(game).with_pieces(
        rovers=[Rover(0, "T14", 0, 3), Rover(0, None, 1, 2)],
        fortifications=[Fortification(0, "T15", 1, 2)],
        buildings=[
            Building(0, "P3", 0, FACTORY, 3, 2, IDLE, None),
            Building(0, "P2", 1, DRILL_CANNON, 2, 0, AIMED, "T40"),
        ],
    )
    out = tmp_path / "position.svg"
    code, _, _ = run(capsys, "show", _trace_of(game, state, tmp_path), "--step", "0", "--draw", out)
    assert code == 0
    found = groups(out)
    assert found["rover-T14"] == "R3" and found["fortification-T15"] == "F2"
    assert found["building-P3"] == "Factory 3hp 2bp" and found["building-P2"] == "Cannon 2hp aimed"
    assert "aim-P2-T40" in found and not any(name.startswith("aim-") and name != "aim-P2-T40" for name in found)
    assert sum(1 for name in found if name.startswith(("rover-", "fortification-", "building-"))) == 4
    assert any("in orbit: player 1 R2" in text for text, _, _ in texts(out))
    assert _labels(out) == Counter(planet("ring15").graph)
    assert layout_problems(DECLARATIONS["globetrotter"].draw(game, state)) == []
    code, _, err = run(capsys, "show", _trace_of(game, state, tmp_path), "--step", "0", "--draw", out, "--player", "0")
    assert code == 2 and "every player's pieces" in err


def test_a_globetrotter_picture_of_two_planets_names_spaces_by_planet(capsys, tmp_path):
    game = make_game("globetrotter", 4)
    state = _in_play(game).with_pieces(rovers=[Rover(1, "T3", 2, 1)], fortifications=[], buildings=[])
    out = tmp_path / "position.svg"
    assert run(capsys, "show", _trace_of(game, state, tmp_path), "--step", "0", "--draw", out)[0] == 0
    assert groups(out)["rover-b-T3"] == "R1"
    assert _labels(out) == Counter(planet("ring15").graph) + Counter(planet("ring15").graph)


def test_a_globot_time_force_picture_shows_the_timeline_tableaux_and_energy_track(capsys, tmp_path):
    game = make_game("globot-time-force", 3)
    actions = random_game(game, 3, max_steps=30).actions
    trace = tmp_path / "game.json"
    record(game, actions).save(trace)
    state = game.initial_state()
    for action in actions:
        state = game.apply(state, action)
    assert state.timeline and any(p.tableau for p in state.players)
    out = tmp_path / "position.svg"
    assert run(capsys, "show", trace, "--step", len(actions), "--draw", out)[0] == 0
    found = groups(out)
    name = {key: card.name for key, card in game.data.cards.items()}
    for slot, key in enumerate(state.timeline):
        assert found[f"timeline-{slot}-{key}"] == name[key]
    for index, player in enumerate(state.players):
        assert found[f"energy-{index}-{player.used}"] == str(index)
        for position, key in enumerate(player.tableau):
            assert found[f"tableau-{index}-{position}-{key}"] == name[key]
    for key in state.boards:
        assert found[f"board-{key}"] == game.data.achievements[key].name
    assert layout_problems(DECLARATIONS["globot-time-force"].draw(game, state)) == []
    assert run(capsys, "show", trace, "--step", len(actions), "--draw", out, "--player", "1")[0] == 0
    only = {n.split("-")[1] for n in groups(out) if n.startswith(("tableau-", "reserved-"))}
    assert only <= {"1"} and (only or not state.players[1].tableau + state.players[1].reserved)


def test_a_mechanica_picture_draws_one_factory_with_its_bots_and_trucks(capsys, tmp_path):
    from rulecheck.games.mechanica.actions import Draw, Reveal

    game = make_game("mechanica", 2)
    state = game.initial_state()
    for action in (Draw("upgrader"), Draw("duplicator"), Reveal("bp01"), Reveal("bp08")):
        state = game.apply(state, action)
    factory = attrs.evolve(state.factories[1], tiles=(("F12", "duplicator"),), bots=(("F12", "out", "plus"),) * 2)
    state = attrs.evolve(state, factories=(state.factories[0], factory))
    out = tmp_path / "factory.svg"
    trace = _trace_of(game, state, tmp_path)
    assert run(capsys, "show", trace, "--step", "0", "--draw", out, "--player", "1")[0] == 0
    found = groups(out)
    assert {n for n in found if n.startswith("bot-")} == {"bot-F12-out-plus-0", "bot-F12-out-plus-1"}
    words = [text for text, _, _ in texts(out)]
    assert "duplicator" in words and any(w.startswith("factory of player 1: wallet") for w in words)
    assert any(w.startswith("Mechanica, step 0 of position.json: player 0 to move") for w in words), words[:5]
    assert sum(1 for w in words if w.startswith("small")) == len(game.data.layout.dock)
    assert {n for n in found if n.startswith("square-")} == {f"square-{s}" for s in game.data.layout.graph}
    assert run(capsys, "show", trace, "--step", "0", "--draw", out)[0] == 0
    assert not any(n.startswith("bot-F12") for n in groups(out))  # player 0's factory: the player to move


def _by_id(figure):
    return {artist.get_gid(): artist for artist in figure.findobj() if artist.get_gid()}


def test_a_long_improvement_name_is_fitted_to_its_square_and_named_in_full_in_the_key(tmp_path):
    from rulecheck.games.mechanica.game import Mechanica

    long_name = "overactive-hyperthreaded-fabricator-of-the-deluxe-edition"
    data = tmp_path / "long.toml"
    default = (ROOT / "rulecheck" / "games" / "mechanica" / "data" / "default.toml").read_text(encoding="utf-8")
    data.write_text(default.replace("overactive-fabricator", long_name), encoding="utf-8")
    game = Mechanica(2, data=data)
    state = game.initial_state()
    tiles = (("F12", long_name), ("F22", "advanced-fabricator"))
    bots = (("F12", "in", "basic"), ("F12", "out", "plus"), ("F12", "out", "plus"))
    factory = attrs.evolve(state.factories[0], tiles=tiles, bots=bots, forks=("F13",))
    state = attrs.evolve(state, factories=(factory, state.factories[1]))
    figure = DECLARATIONS["mechanica"].draw(game, state, 0)
    assert layout_problems(figure) == []
    found = _by_id(figure)
    renderer = figure.canvas.get_renderer()
    for square in ("F12", "F22", "F13", "D1"):
        label, box = found[f"label-{square}"], found[f"box-{square}"]
        assert box.get_window_extent(renderer).contains(*label.get_window_extent(renderer).min)
        assert box.get_window_extent(renderer).contains(*label.get_window_extent(renderer).max)
    assert found["label-F22"].get_text() == "advanced-\nfabricator"  # broken after its hyphen, not cut
    shown = found["label-F12"].get_text()
    assert shown.endswith("…") and long_name.startswith(shown.replace("\n", "").removesuffix("…"))
    words = [text for text, _, _ in label_extents(figure)]
    on_one_line = shown.replace("-\n", "-").replace("\n", " ")
    assert long_name in words and on_one_line in words  # the key: the cut label, then the name in full


def test_frames_draw_every_step_of_a_trace_as_png(capsys, tmp_path):
    game = make_game("mechanica", 2)
    trace = tmp_path / "game.json"
    record(game, random_game(game, 1, max_steps=2).actions).save(trace)
    folder = tmp_path / "frames" / "new"
    code, out, _ = run(capsys, "show", trace, "--frames", folder)
    assert code == 0 and "3 pictures" in out
    assert sorted(p.name for p in folder.iterdir()) == ["step-000.png", "step-001.png", "step-002.png"]
    assert all(p.read_bytes().startswith(b"\x89PNG\r\n\x1a\n") for p in folder.iterdir())


def test_frame_names_sort_in_step_order_however_long_the_trace():
    from rulecheck.model.picture import frame_name

    assert [frame_name(k, 12) for k in (0, 7, 12)] == ["step-000.png", "step-007.png", "step-012.png"]
    names = [frame_name(k, 1234) for k in (9, 10, 999, 1000)]
    assert names == ["step-0009.png", "step-0010.png", "step-0999.png", "step-1000.png"] == sorted(names)


def test_a_game_without_pictures_says_so_and_nothing_is_written(capsys, tmp_path, monkeypatch):
    from rulecheck import registry
    from tests.fixtures.pig_declaration import PIG

    monkeypatch.setitem(registry.DECLARATIONS, "pig", PIG)
    trace = tmp_path / "pig.json"
    assert run(capsys, "play", "pig", "--seed", "1", "--out", trace)[0] == 0
    for argv in (("--step", "1", "--draw", tmp_path / "x.svg"), ("--frames", tmp_path / "frames")):
        code, _, err = run(capsys, "show", trace, *argv)
        assert code == 2 and "pig has no pictures" in err
    assert [p.name for p in tmp_path.iterdir()] == ["pig.json"]


def test_without_matplotlib_drawing_names_the_extra_to_install(capsys, tmp_path, monkeypatch):
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    out = tmp_path / "map.png"
    code, _, err = run(capsys, "board", "globetrotter", "--draw", out)
    assert code == 2 and "matplotlib" in err and "pip install 'rulecheck[draw]'" in err
    assert not out.exists()
