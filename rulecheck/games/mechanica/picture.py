"""A picture of one player's factory in a Mechanica state.

Models: the squares laid out by belt (row) and position along it (column), shaded by zone (Start
Zone, Factory Floor, Loading Dock), the belt segments as arrows (fork exits dashed), each square's
name, each installed improvement's name, Forks, each Loading Dock square's truck and its capacity,
and the bots in every hole as discs coloured by model (input holes above, output holes below, a
key of the models' colours under the factory), with the Wallet, the Vault and the workday.

Leaves out: the Shop, the blueprints and the other players (one factory per picture; `--player`
chooses whose, the player to move by default).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Final

from rulecheck.games.mechanica.data import BELT
from rulecheck.games.mechanica.state import IN, MechanicaState
from rulecheck.model.picture import new_figure

if TYPE_CHECKING:
    from matplotlib.figure import Figure

INCHES_PER_CELL: Final = 1.25
HALF: Final = 0.3
"""Half a square's side, in cells."""
MODEL_COLOURS: Final = ("#f4f4f4", "#f39c32", "#8e44ad", "#2e86c1", "#27ae60")
"""Bot models by rank; more models than colours reuse them in order."""
ZONE_FILLS: Final = {"start": "#e8f4e8", "dock": "#e8eef8", "floor": "#fafafa"}
FOOTER: Final = 0.9
"""Cells below the factory for the key and the Wallet line."""


def _positions(layout: Any) -> dict[str, tuple[int, int]]:
    found: dict[str, tuple[int, int]] = {}
    for row, (_, path) in enumerate(layout.belts):
        for column, square in enumerate(path):
            found.setdefault(square, (column, row))
    return found


def _model_colour(rules: Any, model: str) -> str:
    return MODEL_COLOURS[rules.rank[model] % len(MODEL_COLOURS)]


def picture(game: Any, state: MechanicaState, player: int | None) -> Figure:
    """Player `player`'s factory (the player to move's when None)."""
    if player is None:
        player = max(game.to_move(state), 0)
    layout = game.data.layout
    rules = game.rules
    factory = state.factories[player]
    where = _positions(layout)
    columns = max(c for c, _ in where.values()) + 1
    rows = max(r for _, r in where.values()) + 1
    figure = new_figure(columns * INCHES_PER_CELL, (rows + FOOTER) * INCHES_PER_CELL)
    axes = figure.add_axes((0.0, 0.0, 1.0, 1.0))
    axes.set_xlim(0, columns)
    axes.set_ylim(rows + FOOTER, 0)  # row 0 at the top
    axes.axis("off")

    def centre(square: str) -> tuple[float, float]:
        column, row = where[square]
        return column + 0.5, row + 0.5

    for source, target, kind in layout.graph.edges(data="kind"):
        (x1, y1), (x2, y2) = centre(source), centre(target)
        axes.annotate(
            "",
            xy=(x2 - HALF, y2),
            xytext=(x1 + HALF, y1),
            arrowprops={"arrowstyle": "-|>", "color": "#555555", "linestyle": "-" if kind == BELT else "--"},
        )
    tiles = dict(factory.tiles)
    trucks = dict(factory.trucks)
    bots = Counter(factory.bots)
    for square in where:
        x, y = centre(square)
        zone = "start" if rules.is_start(square) else "dock" if rules.is_dock(square) else "floor"
        axes.fill(
            [x - HALF, x + HALF, x + HALF, x - HALF],
            [y - HALF, y - HALF, y + HALF, y + HALF],
            facecolor=ZONE_FILLS[zone],
            edgecolor="#333333",
        )
        axes.text(x - HALF + 0.03, y - HALF + 0.03, square, ha="left", va="top", fontsize=9, gid=f"square-{square}")
        label = tiles.get(square, "")
        if square in factory.forks:
            label = "fork"
        if rules.is_dock(square):
            label = f"{trucks[square]} ({rules.capacity[trucks[square]]})"
        if label:
            axes.text(x, y + HALF - 0.03, label, ha="center", va="bottom", fontsize=7)
        index = 0
        for (at, hole, model), count in sorted(bots.items()):
            if at != square:
                continue
            for copy in range(count):
                axes.scatter(
                    [x - HALF + 0.08 + 0.1 * index],
                    [y - 0.05 if hole == IN else y + 0.1],
                    s=50,
                    color=_model_colour(rules, model),
                    edgecolors="black",
                    zorder=3,
                    gid=f"bot-{square}-{hole}-{model}-{copy}",
                )
                index += 1
    for rank, model in enumerate(rules.models):
        x = 0.2 + rank * columns / max(len(rules.models), 1)
        axes.scatter([x], [rows + 0.25], s=50, color=_model_colour(rules, model), edgecolors="black")
        axes.text(x + 0.12, rows + 0.25, model, va="center", fontsize=9)
    axes.text(
        0.1,
        rows + 0.65,
        f"player {player}: wallet {factory.wallet}, vault {factory.vault}, workday {state.workday}",
        va="center",
        fontsize=10,
    )
    return figure
