"""Pictures of Globetrotter: the planet's map with every space's label, and a position on it.

Models: the board of a game's `removal` reading on the chart of rulecheck/geometry/chart.py (the
planet seen from above the top HQ P0, rings around the centre, labels increasing clockwise), HQ
pentagons shaded apart from the triangles, the removed faces left out, with a title saying the
board's reading and a key of the fills; and, for a state, one such map per planet with each
piece in its owner's colour on its space: a Rover as `R` and its hit points, a Fortification as
`F` and its hit points, a Building as its type, hit points, build points (Factory) or saved
points (Treasury) and readiness (Drill Cannon), and an arrow from each aimed Drill Cannon to the
space it aims at; each planet's orbiting Rovers, Drill Cannon firings and destruction under its
map; a title above: what the picture is drawn for (a trace's step) and who moves, then the
phase, whose turn it is, the turn's actions taken, the chance events waiting and who has lost;
and a key below that explains each player's colour, each fill, each piece's code (R, F, a
Building's words and their hp, bp and pt) and the aim's arrow.

Leaves out: the setup rolls (they are in the state's JSON, `rulecheck show`), the removed
pentagon P11 (the chart cannot show it, and no board keeps it) and the seats' places at the table.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, Final

from rulecheck.core.errors import OptionError
from rulecheck.core.words import counted
from rulecheck.games.globetrotter.board import PLANET_LETTERS
from rulecheck.games.globetrotter.state import (
    AIMED,
    DRILL_CANNON,
    FACTORY,
    IDLE,
    READY,
    SPACE_PORT,
    TREASURY,
    Building,
    GlobetrotterState,
)
from rulecheck.geometry.chart import chart
from rulecheck.geometry.planet import HQ, REMOVALS, Planet, planet
from rulecheck.model.key import Entry, arrow, code, draw_key, fill, lay_out
from rulecheck.model.picture import Moment, new_figure, player_colour, player_mark, title_words

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

MAP_INCHES: Final = 10.0
"""The width and height of one planet's map: a 9-point label fits in the smallest triangle."""
HEADER: Final = 1.1
"""Inches above the map for its three lines of title."""
MARGIN: Final = 0.05
"""Radians of the chart left blank around the board's outermost corners."""
LABEL_POINTS: Final = 9
PIECE_POINTS: Final = 8
HQ_FILL: Final = "#f3dc8e"
TRIANGLE_FILL: Final = "#ffffff"
BUILDING_NAMES: Final = {DRILL_CANNON: "Cannon", FACTORY: "Factory", SPACE_PORT: "Port", TREASURY: "Treasury"}
KEY_PIECE: Final = "#666666"
"""The colour of the key's samples of pieces, which are drawn in their owner's colour."""
TITLE: Final = 0.6
"""Inches above a position's maps for its title."""
ORBIT: Final = 0.5
"""Inches under the maps for each planet's line (orbit, firings)."""
KEY_MARGIN: Final = 0.2
"""Inches around the key."""
PIECE_STEP: Final = 0.095
"""Radians between the lines of text on one space: its label, then a line per piece."""


def _map_axes(figure: Figure, rect: tuple[float, float, float, float], board: Planet) -> Axes:
    """Axes for one planet's map, as wide as the board's spaces reach on the chart."""
    places = chart()
    rim = MARGIN + max(abs(v) for space in board.graph for corner in places[space].outline for v in corner)
    axes = figure.add_axes(rect)
    axes.set_xlim(-rim, rim)
    axes.set_ylim(-rim, rim)
    axes.set_aspect("equal")
    axes.axis("off")
    return axes


def _draw_planet(axes: Axes, board: Planet, lines: dict[str, int] | None = None) -> None:
    """Every space of the board on the chart, filled by kind and labelled. `lines` is how many
    lines of pieces stand on a space; its label moves up to make room for them."""
    places = chart()
    for label in board.spaces:
        face = places[label]
        hq = board.graph.nodes[label]["kind"] == HQ
        xs, ys = zip(*face.outline, strict=True)
        axes.fill(xs, ys, facecolor=HQ_FILL if hq else TRIANGLE_FILL, edgecolor="#555555", linewidth=0.8, zorder=1)
        x, y = face.centre
        axes.text(
            x,
            y + (lines or {}).get(label, 0) * PIECE_STEP / 2,
            label,
            ha="center",
            va="center",
            fontsize=LABEL_POINTS,
            fontweight="bold" if hq else "normal",
            zorder=3,
            gid=f"space-{label}",
        )


def _board_key() -> list[Entry]:
    """What the map's fills and labels mean."""
    return [
        fill(HQ_FILL, "HQ pentagon, its label P and a number, in bold"),
        fill(TRIANGLE_FILL, "triangle, its label T and a number"),
    ]


def board_picture(game: Any) -> Figure:
    """The map of the planet under the game's `removal` reading, every space labelled, a title
    above and a key below."""
    removal = game.options.removal.value
    board = planet(removal)
    figure = new_figure(MAP_INCHES, MAP_INCHES)
    key = lay_out(figure, _board_key(), MAP_INCHES - 2 * KEY_MARGIN)
    below = key.height + 2 * KEY_MARGIN
    height = HEADER + MAP_INCHES + below
    figure.set_size_inches(MAP_INCHES, height)
    axes = _map_axes(figure, (0.0, below / height, 1.0, MAP_INCHES / height), board)
    _draw_planet(axes, board)
    lines = (
        f"Globetrotter planet, removal {removal}: the board alone, no position; {len(board.graph)} spaces, "
        f"{len(board.hq_spaces)} HQ pentagons and {len(board.triangle_spaces)} triangles",
        "Seen from above P0, in rings around it; within a ring, labels increase clockwise from the top.",
        f"Removed, not drawn: {REMOVALS[removal].description.removesuffix(' (default)')}.",
    )
    for line, text in enumerate(lines):
        figure.text(0.5, 1 - (0.2 + 0.3 * line) / height, text, ha="center", va="top", fontsize=11 if line == 0 else 9)
    draw_key(figure, key, KEY_MARGIN, below - KEY_MARGIN)
    return figure


def _building_text(building: Building) -> str:
    words = [BUILDING_NAMES[building.kind], f"{building.hp}hp"]
    if building.kind == FACTORY:
        words.append(f"{building.points}bp")
    elif building.kind == TREASURY:
        words.append(f"{building.points}pt")
    elif building.kind == DRILL_CANNON:
        words.append(building.readiness)
    return " ".join(words)


def _pieces(state: GlobetrotterState, index: int) -> dict[str, list[tuple[int, str, str]]]:
    """The (owner, text, kind) of every piece on each space of planet `index`, Building first."""
    found: dict[str, list[tuple[int, str, str]]] = {}
    for (at, space), (rover, fortification, building) in state.occupancy().items():
        if at != index:
            continue
        here = found.setdefault(space, [])
        if building is not None:
            here.append((building.owner, _building_text(building), "building"))
        if fortification is not None:
            here.append((fortification.owner, f"F{fortification.hp}", "fortification"))
        if rover is not None:
            here.append((rover.owner, f"R{rover.hp}", "rover"))
    return found


def _id(token: str) -> str:
    """A space's token as it appears in an SVG id (which cannot hold a colon): `b-T14`."""
    return token.replace(":", "-")


def _draw_pieces(axes: Axes, pieces: dict[str, list[tuple[int, str, str]]], token: Callable[[str], str]) -> None:
    """Each piece's text on its space, below the space's label; its SVG id names its kind and space."""
    places = chart()
    for space, here in pieces.items():
        x, y = places[space].centre
        top = y + len(here) * PIECE_STEP / 2
        for line, (owner, text, kind) in enumerate(here, start=1):
            player_mark(
                axes, x, top - line * PIECE_STEP, text, owner, PIECE_POINTS, zorder=4, gid=f"{kind}-{_id(token(space))}"
            )


def _draw_aims(axes: Axes, state: GlobetrotterState, index: int, token: Callable[[str], str]) -> None:
    """An arrow from each aimed Drill Cannon on planet `index` to the space it aims at; its SVG id
    names both spaces."""
    places = chart()
    for cannon in state.buildings:
        if cannon.planet == index and cannon.kind == DRILL_CANNON and cannon.aim is not None:
            arrow = axes.annotate(
                "",
                xy=places[cannon.aim].centre,
                xytext=places[cannon.space].centre,
                arrowprops={
                    "arrowstyle": "-|>",
                    "color": player_colour(cannon.owner),
                    "alpha": 0.7,
                    "linewidth": 2,
                    "shrinkA": 14,
                    "shrinkB": 8,
                },
                zorder=2,
            )
            assert arrow.arrow_patch is not None  # an annotation made with arrowprops has one
            arrow.arrow_patch.set_gid(f"aim-{_id(token(cannon.space))}-{_id(token(cannon.aim))}")


def _orbit_line(state: GlobetrotterState, index: int, letter: str) -> str:
    rovers = [r for r in state.rovers if r.planet == index and r.space is None]
    listed = ", ".join(f"player {r.owner} R{r.hp}" for r in rovers) or "none"
    planet_state = state.planets[index]
    fate = "destroyed" if planet_state.destroyed else f"Drill Cannon firings {planet_state.fires}"
    return f"planet {letter}: {fate}; in orbit: {listed}"


def _heading(game: Any, state: GlobetrotterState, moment: Moment) -> str:
    words = [title_words("Globetrotter", moment, game, state), f"phase {state.phase}"]
    if state.turn is not None:
        taken = state.turn.taken
        words.append(f"player {state.turn.player}'s turn, {counted(taken, 'action')} taken")
    if state.pending:
        words.append("chance waiting: " + ", ".join(p.kind for p in state.pending))
    if state.lost:
        words.append("lost: " + ", ".join(f"player {p}" for p in state.lost))
    return "; ".join(words)


def _key(game: Any, state: GlobetrotterState) -> list[Entry]:
    """What the picture's fills, codes and arrows mean, each player's colour first."""
    owners = [
        fill(player_colour(seat), f"player {seat}'s pieces" + (" (lost)" if seat in state.lost else ""))
        for seat in range(game.players)
    ]
    return [
        *owners,
        *_board_key(),
        code("R3", KEY_PIECE, "Rover, 3 hit points"),
        code("F2", KEY_PIECE, "Fortification, 2 hit points"),
        code("Factory 3hp 2bp", KEY_PIECE, "Factory: hit points (hp), build points (bp)"),
        code("Treasury 2hp 4pt", KEY_PIECE, "Treasury: hit points, saved points (pt)"),
        code("Cannon 2hp aimed", KEY_PIECE, f"Drill Cannon: hit points, readiness ({IDLE}, {READY}, {AIMED})"),
        code("Port 2hp", KEY_PIECE, "Space Port: hit points"),
        arrow(KEY_PIECE, "-", "an aimed Drill Cannon to the space it aims at"),
    ]


def picture(game: Any, state: GlobetrotterState, player: int | None, moment: Moment) -> Figure:
    """The position on every planet's map, every player's pieces in their colour, the title above
    and the key below."""
    if player is not None:
        raise OptionError("a Globetrotter picture shows every player's pieces: draw it without choosing a player")
    boards = game.rules.boards
    count = boards.count
    width = MAP_INCHES * count
    figure = new_figure(width, MAP_INCHES)
    key = lay_out(figure, _key(game, state), width - 2 * KEY_MARGIN)
    below = key.height + 2 * KEY_MARGIN
    height = TITLE + MAP_INCHES + ORBIT + below
    figure.set_size_inches(width, height)
    bottom, orbit = (ORBIT + below) / height, (below + ORBIT / 2) / height
    for index in range(count):
        letter = PLANET_LETTERS[index]
        axes = _map_axes(figure, (index / count, bottom, 1 / count, MAP_INCHES / height), boards.board)
        pieces = _pieces(state, index)
        _draw_planet(axes, boards.board, {space: len(here) for space, here in pieces.items()})
        token = partial(boards.token, index)
        _draw_pieces(axes, pieces, token)
        _draw_aims(axes, state, index, token)
        line = _orbit_line(state, index, letter)
        figure.text((index + 0.5) / count, orbit, line, ha="center", va="center", fontsize=10)
    figure.text(0.5, 1 - TITLE / 2 / height, _heading(game, state, moment), ha="center", va="center", fontsize=11)
    draw_key(figure, key, KEY_MARGIN, below - KEY_MARGIN)
    return figure
