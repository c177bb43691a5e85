"""Picture layout: in every registered game's picture of a state, at the start and at a seeded
mid-game position, at 2 and 4 players (or the counts the game allows), and in every board map, no
label overlaps another and every label lies inside the picture, by the extents matplotlib's Agg
renderer gives each drawn text (with the box drawn behind it, if any); every picture has a key,
drawn, and a title: a state's names its game, what it is drawn for (a trace's step, or a position
on its own) and who moves, a board map's its game and that it shows the board alone. A
registered game without pictures has its cases skipped, so the per-game check
(tests/test_one_line_game.py) counts them as missing. The checker is shown to find two
overlapping labels, and a label off the edge, on synthetic figures."""

from collections.abc import Iterator
from contextlib import contextmanager
from unittest import mock

import pytest

from rulecheck.check.play.playthrough import random_game
from rulecheck.model.key import KEY_GID
from rulecheck.model.picture import Moment, new_figure
from rulecheck.registry import DECLARATIONS, make_game

SEED = 5
MID_GAME_STEPS = 240
"""A seeded game is played for at most this many actions; the mid-game position is the one halfway
through what was played."""
WANTED_PLAYERS = (2, 4)


@contextmanager
def _recording() -> Iterator[list]:
    """The Text artists drawn inside the block, in drawing order (a text of an axes with its axis
    off, say, is never drawn and so never recorded)."""
    from matplotlib.text import Text

    drawn: list = []
    draw = Text.draw

    def record(self, renderer):
        if self.get_visible() and self.get_text().strip():
            drawn.append(self)
        return draw(self, renderer)

    with mock.patch.object(Text, "draw", record):
        yield drawn


def label_extents(figure):
    """(text, gid, extent in pixels) of every label the figure draws: its text's extent, widened to
    the box drawn behind it where it has one."""
    from matplotlib.transforms import Bbox

    with _recording() as drawn:
        figure.draw_without_rendering()
    renderer = figure.canvas.get_renderer()
    found = []
    for text in drawn:
        extent = text.get_window_extent(renderer)
        patch = text.get_bbox_patch()
        if patch is not None:
            extent = Bbox.union([extent, patch.get_window_extent(renderer)])
        found.append((text.get_text(), text.get_gid(), extent))
    return found


def layout_problems(figure, labels=None):
    """Each label not wholly inside the figure, and each pair of labels whose extents overlap
    (share an area, not only an edge); `labels` are the figure's label_extents, read afresh when None."""
    labels = label_extents(figure) if labels is None else labels
    inside = figure.bbox
    problems = [
        f"{text!r} (id {gid}) at {_where(extent)} reaches outside the picture"
        for text, gid, extent in labels
        if extent.x0 < inside.x0 or extent.y0 < inside.y0 or extent.x1 > inside.x1 or extent.y1 > inside.y1
    ]
    by_left = sorted(labels, key=lambda label: label[2].x0)
    for first, (text, gid, extent) in enumerate(by_left):
        for other, other_gid, other_extent in by_left[first + 1 :]:
            if other_extent.x0 >= extent.x1:
                break  # this and every label after it start right of this one's end
            if other_extent.y0 < extent.y1 and extent.y0 < other_extent.y1:
                problems.append(
                    f"{text!r} (id {gid}) at {_where(extent)} overlaps {other!r} (id {other_gid}) "
                    f"at {_where(other_extent)}"
                )
    return problems


def _where(extent):
    return f"x {extent.x0:.0f}-{extent.x1:.0f}, y {extent.y0:.0f}-{extent.y1:.0f} px"


def test_the_checker_finds_two_overlapping_labels():
    figure = new_figure(3, 2)
    figure.text(0.2, 0.5, "Fortification", fontsize=12, gid="first")
    figure.text(0.25, 0.52, "Factory", fontsize=12, gid="second")
    figure.text(0.2, 0.1, "apart", fontsize=12)
    problems = layout_problems(figure)
    assert len(problems) == 1 and "'Fortification' (id first)" in problems[0] and "'Factory' (id second)" in problems[0]


def test_the_checker_counts_the_box_behind_a_label_and_finds_a_label_off_the_edge():
    figure = new_figure(3, 2)
    axes = figure.add_axes((0, 0, 1, 1))
    axes.axis("off")  # its tick labels are never drawn, so never checked
    axes.text(0.3, 0.5, "R2", fontsize=10, bbox={"boxstyle": "round,pad=2"})
    axes.text(0.45, 0.5, "F1", fontsize=10)
    figure.text(0.95, 0.9, "too far right", fontsize=10)
    problems = layout_problems(figure)
    assert len(problems) == 2
    assert "'too far right'" in problems[0] and "outside the picture" in problems[0]
    assert "'R2'" in problems[1] and "'F1'" in problems[1]


def test_a_key_breaks_words_wider_than_its_width_into_lines_and_no_label_overlaps():
    from rulecheck.model.key import code, draw_key, fill, lay_out

    long = "a square whose words run on for far longer than the key is wide, as a careful key's words may"
    grey = "#666666"
    entries = [code("R3", grey, "Rover, 3 hit points"), fill("#f3dc8e", long), code("F2", grey, "Fortification")]
    figure = new_figure(3, 1)
    key = lay_out(figure, entries, 2.6)
    figure.set_size_inches(3, key.height + 0.4)
    draw_key(figure, key, 0.2, key.height + 0.2)
    assert layout_problems(figure) == []
    broken = key.placed[1].words
    assert broken.count("\n") >= 2 and broken.replace("\n", " ") == long
    assert [place.row for place in key.placed] == [0, 1, 2]  # R3 beside the title; the long words fill a row


def _player_counts(cls):
    """WANTED_PLAYERS, each brought within the counts the game allows."""
    return sorted({min(max(n, cls.min_players), cls.max_players) for n in WANTED_PLAYERS})


def _cases():
    for name, declared in sorted(DECLARATIONS.items()):
        for players in _player_counts(declared.game):
            for moment in ("start", "mid-game"):
                yield pytest.param(name, players, moment, id=f"{name}-{players}-{moment}")


TRACE = "seed-5.json"
"""The trace file a mid-game picture says it is drawn for."""


def _position(game, moment):
    """The state, and what its picture is drawn for: the start as a position on its own, the
    mid-game position as a step of a trace."""
    if moment == "start":
        return game.initial_state(), Moment()
    states = random_game(game, SEED, max_steps=MID_GAME_STEPS).states
    return states[len(states) // 2], Moment(len(states) // 2, TRACE)


def _title(words, name):
    """The drawn label that opens with the game's name."""
    found = [text for text in words if text.lower().startswith(name.replace("-", " ").lower())]
    assert len(found) == 1, f"not one title names {name}: {found}"
    return found[0]


def _has_a_key(figure, words):
    assert any(artist.get_gid() == KEY_GID for artist in figure.findobj()), "the picture has no key"
    assert "Key" in words, "the key's title is not drawn"


@pytest.mark.parametrize(("name", "players", "moment"), list(_cases()))
def test_no_label_overlaps_another_and_every_picture_has_a_title_and_a_key(name, players, moment):
    if DECLARATIONS[name].picture is None:
        pytest.skip(f"{name} declares no picture")
    game = make_game(name, players)
    state, drawn_for = _position(game, moment)
    figure = DECLARATIONS[name].draw(game, state, moment=drawn_for)
    labels = label_extents(figure)
    assert layout_problems(figure, labels) == []
    words = [text for text, _, _ in labels]
    title = _title(words, name)
    if moment == "start":
        assert "a position on its own, not a step of a trace" in title, title
    else:
        assert f"step {drawn_for.step} of {TRACE}" in title, title
    mover = game.to_move(state)
    who = "game over" if game.is_terminal(state) else "chance to move" if mover < 0 else f"player {mover} to move"
    assert who in title, f"the title {title!r} does not say who moves ({who})"
    _has_a_key(figure, words)


def _maps():
    for name, declared in sorted(DECLARATIONS.items()):
        if declared.board_picture is not None:
            for players in _player_counts(declared.game):
                yield pytest.param(name, players, id=f"{name}-{players}")


def test_some_game_draws_a_board_map():
    assert list(_maps()), "no game declares a board map: the map cases below check nothing"


@pytest.mark.parametrize(("name", "players"), list(_maps()))
def test_a_board_map_has_a_title_and_a_key_and_no_label_overlaps_another(name, players):
    figure = DECLARATIONS[name].draw_board(make_game(name, players))
    labels = label_extents(figure)
    assert layout_problems(figure, labels) == []
    words = [text for text, _, _ in labels]
    assert "the board alone, no position" in _title(words, name)
    _has_a_key(figure, words)


def test_a_title_keeps_the_start_and_end_of_a_long_trace_name():
    long = "a-trace-with-a-name-far-longer-than-any-title-has-room-for.json"
    words = Moment(7, long).words()
    assert words.startswith("step 7 of a-trace-with") and words.endswith("room-for.json") and "…" in words
    assert len(words) < len(f"step 7 of {long}")
