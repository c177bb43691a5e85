"""A picture of one player's factory in a Mechanica state, with the Shop.

Models: a title (the game, what the picture is drawn for (a trace's step) and who is to move;
whose factory it is, with the Wallet and the Vault, the phase, the workday and the turn's step;
the face-up blueprints); the squares laid out by belt
(row) and position along it (column), shaded by zone (Start Zone, Factory Floor, Loading Dock),
the belt segments as arrows and, from each square whose owner chooses its exit (a Fork, or an
improvement that sends bots up or down), its fork exits as dashed arrows; each square's name, each
installed improvement's name (broken into lines to fit its square, and where even then it is cut
short, in full in the key), Forks, each Loading Dock square's truck and its capacity, and the bots
in every hole as markers coloured by model (input holes above a square's middle as discs, output
holes below as squares); the Shop's spots with their prices and improvements, and how many tiles
the Stack and the Extras hold; and a key of the zones, the arrows, the models' colours, the holes'
markers and the names cut short.

Leaves out: the blueprint stacks' contents, the Recycler and the other players' factories (one
factory per picture; `--player` chooses whose, the player to move by default).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Final

from rulecheck.games.mechanica.data import BELT
from rulecheck.games.mechanica.state import IN, TURN, Factory, MechanicaState
from rulecheck.model.key import Entry, arrow, code, disc, draw_key, fill, lay_out
from rulecheck.model.picture import ELLIPSIS, Moment, fitted, new_figure, title_words

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

INCHES_PER_CELL: Final = 1.5
HALF: Final = 0.33
"""Half a square's side, in cells."""
LABEL_POINTS: Final = 7
"""The size of an improvement's, a Fork's or a truck's label on its square."""
MODEL_COLOURS: Final = ("#f4f4f4", "#f39c32", "#8e44ad", "#2e86c1", "#27ae60")
"""Bot models by rank; more models than colours reuse them in order."""
HOLE_MARKERS: Final = {IN: "o", "out": "s"}
"""The marker of a bot in an input hole and in an output hole."""
BOTS_PER_ROW: Final = 6
ZONE_FILLS: Final = {"start": "#e8f4e8", "dock": "#e8eef8", "floor": "#fafafa"}
ARROW_COLOUR: Final = "#555555"
CUT_COLOUR: Final = "#666666"
"""The colour of the key's sample of a name cut short."""
TITLE: Final = 0.75
"""Cells above the factory for the title's three lines."""
SHOP: Final = 1.05
"""Cells below the factory for the Shop: its line and its spots."""
MARGIN: Final = 0.15
"""Inches around the key."""


def _positions(layout: Any) -> dict[str, tuple[int, int]]:
    found: dict[str, tuple[int, int]] = {}
    for row, (_, path) in enumerate(layout.belts):
        for column, square in enumerate(path):
            found.setdefault(square, (column, row))
    return found


def _model_colour(rules: Any, model: str) -> str:
    return MODEL_COLOURS[rules.rank[model] % len(MODEL_COLOURS)]


def _title(game: Any, state: MechanicaState, player: int, moment: Moment) -> tuple[str, str, str]:
    step = f", turn step {state.step}" if state.phase == TURN else ""
    factory = state.factories[player]
    shown = [name for name in state.blueprints if name]
    blueprints = "; ".join(
        f"{name} ({', '.join(game.rules.blueprint[name].models)}: pays {game.rules.blueprint[name].payout})"
        for name in shown
    )
    return (
        title_words("Mechanica", moment, game, state),
        f"factory of player {player}: wallet {factory.wallet}, vault {factory.vault}; "
        f"phase {state.phase}, workday {state.workday}{step}",
        f"blueprints face up: {blueprints or 'none'}",
    )


class _Drawing:
    """One factory drawn on `axes`, in cells from the top left corner, row 0 at the top."""

    def __init__(self, game: Any, state: MechanicaState, player: int, figure: Figure, axes: Axes) -> None:
        self.rules = game.rules
        self.figure = figure
        self.layout = game.data.layout
        self.state = state
        self.factory: Factory = state.factories[player]
        self.axes = axes
        self.where = _positions(self.layout)
        self.cut: dict[str, str] = {}
        """Each label cut short to fit, and the name it stands for."""

    def centre(self, square: str) -> tuple[float, float]:
        column, row = self.where[square]
        return column + 0.5, TITLE + row + 0.5

    def label(self, name: str, width: float) -> str:
        """`name` fitted to `width` cells; one cut short is remembered for the key."""
        shown = fitted(self.figure, name, width * INCHES_PER_CELL, LABEL_POINTS)
        if ELLIPSIS in shown:
            self.cut[shown] = name
        return shown

    def arrows(self) -> None:
        switches = set(self.rules.switches(self.factory))
        for source, target, kind in self.layout.graph.edges(data="kind"):
            if kind != BELT and source not in switches:
                continue
            (x1, y1), (x2, y2) = self.centre(source), self.centre(target)
            self.axes.annotate(
                "",
                xy=(x2 - HALF, y2),
                xytext=(x1 + HALF, y1),
                arrowprops={"arrowstyle": "-|>", "color": ARROW_COLOUR, "linestyle": "-" if kind == BELT else "--"},
            )

    def squares(self) -> None:
        tiles = dict(self.factory.tiles)
        trucks = dict(self.factory.trucks)
        for square in self.where:
            x, y = self.centre(square)
            rules = self.rules
            zone = "start" if rules.is_start(square) else "dock" if rules.is_dock(square) else "floor"
            self._box(x - HALF, y - HALF, 2 * HALF, 2 * HALF, ZONE_FILLS[zone], f"box-{square}")
            self.axes.text(x - HALF + 0.03, y - HALF + 0.03, square, va="top", fontsize=9, gid=f"square-{square}")
            label = tiles.get(square, "")
            if square in self.factory.forks:
                label = " ".join(("fork", *(side for s, side in self.factory.fork_sides if s == square)))
            if rules.is_dock(square):
                label = f"{trucks[square]} ({rules.capacity[trucks[square]]})"
            if label:
                shown = self.label(label, 2 * HALF - 0.06)
                self.axes.text(
                    x, y + HALF - 0.03, shown, ha="center", va="bottom", fontsize=LABEL_POINTS, gid=f"label-{square}"
                )
            self._bots(square, x, y)

    def _box(self, x: float, y: float, width: float, height: float, colour: str, gid: str) -> None:
        xs, ys = [x, x + width, x + width, x], [y, y, y + height, y + height]
        (box,) = self.axes.fill(xs, ys, facecolor=colour, edgecolor="#333333")
        box.set_gid(gid)

    def _bots(self, square: str, x: float, y: float) -> None:
        """The bots in the square's holes: input holes' in rows upwards from just above its middle,
        output holes' in rows downwards from just below it, BOTS_PER_ROW to a row."""
        placed = Counter[str]()
        for (at, hole, model), count in sorted(Counter(self.factory.bots).items()):
            if at != square:
                continue
            for copy in range(count):
                row, column = divmod(placed[hole], BOTS_PER_ROW)
                self.axes.scatter(
                    [x - HALF + 0.08 + 0.1 * column],
                    [y - 0.05 - 0.09 * row if hole == IN else y + 0.1 + 0.09 * row],
                    s=50,
                    marker=HOLE_MARKERS[hole],
                    color=_model_colour(self.rules, model),
                    edgecolors="black",
                    zorder=3,
                    gid=f"bot-{square}-{hole}-{model}-{copy}",
                )
                placed[hole] += 1

    def shop(self, top: float) -> None:
        state = self.state
        self.axes.text(
            0.1,
            top + 0.15,
            f"Shop (cost of each spot, its improvement); Stack {state.stack} tiles, Extras {state.extras}",
            va="center",
            fontsize=10,
        )
        for spot, (price, name) in enumerate(zip(self.rules.data.prices, state.shop, strict=True)):
            x = spot + 0.5
            self._box(x - HALF - 0.1, top + 0.3, 2 * HALF + 0.2, 0.7, "#fdf6e3", f"shop-box-{spot}")
            self.axes.text(x, top + 0.35, f"cost {price}", ha="center", va="top", fontsize=8, gid=f"shop-{spot}")
            shown = self.label(name, 2 * HALF + 0.14) if name else "empty"
            gid = f"shop-label-{spot}"
            self.axes.text(x, top + 0.95, shown, ha="center", va="bottom", fontsize=LABEL_POINTS, gid=gid)


def _one_line(label: str) -> str:
    """A label of several lines on one: joined after a hyphen, with a space elsewhere."""
    return label.replace("-\n", "-").replace("\n", " ")


def _key(rules: Any, cut: dict[str, str]) -> list[Entry]:
    return [
        fill(ZONE_FILLS["start"], "Start Zone"),
        fill(ZONE_FILLS["floor"], "Factory Floor"),
        fill(ZONE_FILLS["dock"], "Loading Dock: its truck (capacity)"),
        arrow(ARROW_COLOUR, "-", "belt"),
        arrow(ARROW_COLOUR, "--", "fork exit, from a Fork or an improvement that sends bots up or down"),
        *(disc(_model_colour(rules, model), f"{model} bot") for model in rules.models),
        disc("white", "bot in an input hole", HOLE_MARKERS[IN]),
        disc("white", "bot in an output hole", HOLE_MARKERS["out"]),
        *(code(_one_line(short), CUT_COLOUR, name) for short, name in sorted(cut.items())),
    ]


def picture(game: Any, state: MechanicaState, player: int | None, moment: Moment) -> Figure:
    """Player `player`'s factory (the player to move's when None), the Shop, a title and a key."""
    if player is None:
        player = max(game.to_move(state), 0)
    where = _positions(game.data.layout)
    columns = max(max(c for c, _ in where.values()) + 1, len(game.data.prices))
    rows = max(r for _, r in where.values()) + 1
    width = columns * INCHES_PER_CELL
    figure = new_figure(width, (TITLE + rows + SHOP) * INCHES_PER_CELL)
    axes = figure.add_axes((0.0, 0.0, 1.0, 1.0))
    axes.axis("off")
    drawing = _Drawing(game, state, player, figure, axes)
    drawing.arrows()
    drawing.squares()
    drawing.shop(TITLE + rows)
    key = lay_out(figure, _key(game.rules, drawing.cut), width - 2 * MARGIN)
    below = key.height + 2 * MARGIN
    height = (TITLE + rows + SHOP) * INCHES_PER_CELL + below
    figure.set_size_inches(width, height)
    axes.set_xlim(0, columns)
    axes.set_ylim(height / INCHES_PER_CELL, 0)  # row 0 at the top; the key under the Shop
    for line, text in enumerate(_title(game, state, player, moment)):
        axes.text(0.1, 0.2 + 0.22 * line, text, va="center", fontsize=11 if line == 0 else 9)
    draw_key(figure, key, MARGIN, below - MARGIN)
    return figure
