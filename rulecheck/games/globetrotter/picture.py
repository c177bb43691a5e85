"""Pictures of Globetrotter: the planet's map with every space's label, and a position on it.

Models: the board of a game's `removal` reading on the chart of rulecheck/geometry/chart.py (the
planet seen from above the top HQ P0, rings around the centre, labels increasing clockwise), HQ
pentagons shaded apart from the triangles, the removed faces left out; and, for a
state, one such map per planet with each piece in its owner's colour on its space: a Rover as
`R` and its hit points, a Fortification as `F` and its hit points, a Building as its type, hit
points, build points (Factory) or saved points (Treasury) and readiness (Drill Cannon), and an
arrow from each aimed Drill Cannon to the space it aims at; each planet's orbiting Rovers, Drill
Cannon firings and destruction under its map; the phase, whose turn it is, the turn's actions
taken, the chance events waiting and who has lost, above.

Leaves out: the setup rolls (they are in the state's JSON, `rulecheck show`), the removed
pentagon P11 (the chart cannot show it, and no board keeps it) and the seats' places at the table.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, Final

from rulecheck.core.errors import OptionError
from rulecheck.games.globetrotter.board import PLANET_LETTERS
from rulecheck.games.globetrotter.state import (
    DRILL_CANNON,
    FACTORY,
    SPACE_PORT,
    TREASURY,
    Building,
    GlobetrotterState,
)
from rulecheck.geometry.chart import chart
from rulecheck.geometry.planet import HQ, REMOVALS, Planet, planet
from rulecheck.model.picture import new_figure, player_colour, player_mark

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


def board_picture(game: Any) -> Figure:
    """The map of the planet under the game's `removal` reading, every space labelled."""
    removal = game.options.removal.value
    board = planet(removal)
    height = MAP_INCHES + HEADER
    figure = new_figure(MAP_INCHES, height)
    axes = _map_axes(figure, (0.0, 0.0, 1.0, MAP_INCHES / height), board)
    _draw_planet(axes, board)
    lines = (
        f"Globetrotter planet, removal {removal}: {len(board.graph)} spaces, "
        f"{len(board.hq_spaces)} HQ pentagons (shaded) and {len(board.triangle_spaces)} triangles",
        "Seen from above P0, in rings around it; within a ring, labels increase clockwise from the top.",
        f"Removed, not drawn: {REMOVALS[removal].description.removesuffix(' (default)')}.",
    )
    for line, text in enumerate(lines):
        figure.text(0.5, 1 - (0.2 + 0.3 * line) / height, text, ha="center", va="top", fontsize=11 if line == 0 else 9)
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


def _heading(game: Any, state: GlobetrotterState) -> str:
    mover = game.to_move(state)
    who = "chance to move" if mover < 0 and state.pending else "game over" if mover < 0 else f"player {mover} to move"
    words = [f"Globetrotter, phase {state.phase}: {who}"]
    if state.turn is not None:
        words.append(f"player {state.turn.player}'s turn, {state.turn.taken} actions taken")
    if state.pending:
        words.append("chance waiting: " + ", ".join(p.kind for p in state.pending))
    if state.lost:
        words.append("lost: " + ", ".join(f"player {p}" for p in state.lost))
    return "; ".join(words)


def picture(game: Any, state: GlobetrotterState, player: int | None) -> Figure:
    """The position on every planet's map, every player's pieces in their colour."""
    if player is not None:
        raise OptionError("a Globetrotter picture shows every player's pieces: draw it without choosing a player")
    boards = game.rules.boards
    count = boards.count
    top, bottom = 1.0, 0.6
    figure = new_figure(MAP_INCHES * count, MAP_INCHES + top + bottom)
    height = MAP_INCHES + top + bottom
    for index in range(count):
        letter = PLANET_LETTERS[index]
        axes = _map_axes(figure, (index / count, bottom / height, 1 / count, MAP_INCHES / height), boards.board)
        pieces = _pieces(state, index)
        _draw_planet(axes, boards.board, {space: len(here) for space, here in pieces.items()})
        token = partial(boards.token, index)
        _draw_pieces(axes, pieces, token)
        _draw_aims(axes, state, index, token)
        figure.text((index + 0.5) / count, 0.3 / height, _orbit_line(state, index, letter), ha="center", fontsize=10)
    figure.text(0.5, 1 - 0.3 / height, _heading(game, state), ha="center", va="top", fontsize=11)
    for seat in range(game.players):
        label = f"player {seat}" + (" (lost)" if seat in state.lost else "")
        player_mark(figure, (seat + 0.5) / game.players, 1 - 0.7 / height, label, seat, 10, va="top")
    return figure
