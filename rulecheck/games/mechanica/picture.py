"""An SVG drawing of one player's factory in a Mechanica state.

Models: the squares laid out by belt (row) and position along it (column), the belt segments as arrows
(fork exits dashed), each installed improvement's name, Forks, each Loading Dock square's truck and its
capacity, and the bots in every hole as discs coloured by model, with the Wallet and the Vault.

Leaves out: the Shop and the other players (one factory per picture).
"""

from __future__ import annotations

from collections import Counter
from html import escape
from typing import Any

from rulecheck.games.mechanica.data import BELT
from rulecheck.games.mechanica.state import MechanicaState

CELL = 110
COLOURS = ("#f4f4f4", "#f39c32", "#8e44ad", "#2e86c1", "#27ae60")


def _positions(layout: Any) -> dict[str, tuple[int, int]]:
    found: dict[str, tuple[int, int]] = {}
    for row, (_, path) in enumerate(layout.belts):
        for column, square in enumerate(path):
            found.setdefault(square, (column, row))
    return found


def picture(game: Any, state: MechanicaState, player: int) -> str:
    layout = game.data.layout
    rules = game.rules
    factory = state.factories[player]
    where = _positions(layout)
    width = (max(c for c, _ in where.values()) + 1) * CELL + 20
    height = (max(r for _, r in where.values()) + 1) * CELL + 60
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        'font-family="sans-serif" font-size="11">',
        '<defs><marker id="a" markerWidth="8" markerHeight="8" refX="8" refY="4" orient="auto">'
        '<path d="M0,0 L8,4 L0,8 z"/></marker></defs>',
        f'<text x="10" y="{height - 20}">player {player}: wallet {factory.wallet}, '
        f"vault {factory.vault}, workday {state.workday}</text>",
    ]

    def centre(square: str) -> tuple[int, int]:
        column, row = where[square]
        return 10 + column * CELL + CELL // 2, 10 + row * CELL + CELL // 2

    for source, target, kind in layout.graph.edges(data="kind"):
        (x1, y1), (x2, y2) = centre(source), centre(target)
        dash = "" if kind == BELT else ' stroke-dasharray="4,3"'
        out.append(
            f'<line x1="{x1 + 30}" y1="{y1}" x2="{x2 - 30}" y2="{y2}" stroke="#555"{dash} marker-end="url(#a)"/>'
        )
    tiles = dict(factory.tiles)
    trucks = dict(factory.trucks)
    bots = Counter((s, h, m) for s, h, m in factory.bots)
    for square in where:
        x, y = centre(square)
        fill = "#e8f4e8" if rules.is_start(square) else "#e8eef8" if rules.is_dock(square) else "#fafafa"
        out.append(f'<rect x="{x - 30}" y="{y - 30}" width="60" height="60" fill="{fill}" stroke="#333"/>')
        out.append(f'<text x="{x - 28}" y="{y - 18}">{escape(square)}</text>')
        label = tiles.get(square, "")
        if square in factory.forks:
            label = "fork"
        if rules.is_dock(square):
            label = f"{trucks[square]} ({rules.capacity[trucks[square]]})"
        out.append(f'<text x="{x - 28}" y="{y + 26}" font-size="8">{escape(label)}</text>')
        index = 0
        for (s, hole, model), count in sorted(bots.items()):
            if s != square:
                continue
            for _ in range(count):
                colour = COLOURS[rules.rank[model] % len(COLOURS)]
                cy = y - 4 if hole == "in" else y + 10
                out.append(
                    f'<circle cx="{x - 20 + 12 * index}" cy="{cy}" r="5" fill="{colour}" stroke="#000">'
                    f"<title>{escape(model)}</title></circle>"
                )
                index += 1
    out.append("</svg>")
    return "\n".join(out)
