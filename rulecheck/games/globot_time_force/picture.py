"""A picture of a Globot Time Force position: the timeline, the energy track, the achievements
and the players' tableaux.

Models: the stage and whose turn it is (with the turns in a row, a granted second turn, an
end-game extra turn and the skill effects waiting); the deck's and the discard pile's sizes; the
timeline's cards from slot 0 (the oldest) with each card's cost and printed VP; the energy track
0 to 12 with each player's marker on the energy they have used; each drawn achievement board with
its requirement and its token spaces' VP, a filled space in its player's colour; and each player's
tableau in the order gained, the reserved card, gears (with the coins), charge, IoM, TEC and
tokens in hand, placed and spent. With a player, only that player's tableau is drawn.

Leaves out: the deck's and the discard pile's contents (the deck's order is hidden; the state's
JSON lists what is in each) and the cards' skills (the data set's text).
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING, Any, Final

from rulecheck.core.words import counted
from rulecheck.games.globot_time_force.counters import ENERGY_CAP
from rulecheck.games.globot_time_force.state import GTFState
from rulecheck.model.picture import new_figure, player_colour, player_mark

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

CARD: Final = (1.6, 0.75)
"""A card's width and height, in inches."""
GAP: Final = 0.15
MARGIN: Final = 0.3
ENERGY_CELL: Final = 0.75
BOARD_WIDTH: Final = 1.9
HEADING: Final = 0.9
ROW: Final = 0.45
"""Inches for a section's title line."""
WRAP: Final = 22
"""Characters on a line of a card's name."""


def _box(axes: Axes, x: float, y: float, width: float, height: float, fill: str, edge: str) -> None:
    axes.fill([x, x + width, x + width, x], [y, y, y + height, y + height], facecolor=fill, edgecolor=edge)


def _card(axes: Axes, x: float, y: float, card: Any, edge: str, gid: str) -> None:
    width, height = CARD
    _box(axes, x, y, width, height, "#fbfbf3", edge)
    name = "\n".join(textwrap.wrap(card.name, WRAP)[:2])
    axes.text(x + width / 2, y + 0.08, name, ha="center", va="top", fontsize=8, gid=gid)
    colours = ", ".join(sorted(card.colours)) or "no colour"
    axes.text(x + width / 2, y + height / 2 + 0.04, colours, ha="center", va="center", fontsize=7, color="#444444")
    kind = "event" if card.event else f"cost {card.cost}, {card.vp} VP"
    axes.text(x + width / 2, y + height - 0.06, kind, ha="center", va="bottom", fontsize=7, color="#444444")


def _title(axes: Axes, y: float, text: str) -> None:
    axes.text(MARGIN, y + ROW / 2, text, va="center", fontsize=10, fontweight="bold")


def _heading(game: Any, state: GTFState) -> str:
    mover = game.to_move(state)
    who = "game over" if state.stage == "over" else "chance to move" if mover < 0 else f"player {mover} to move"
    words = [f"Globot Time Force, stage {state.stage}: {who}"]
    if state.in_row > 1:
        words.append(f"turn {state.in_row} in a row")
    if state.granted:
        words.append("a second turn granted")
    if state.extra:
        words.append("an end-game extra turn")
    if state.triggered >= 0:
        words.append(f"end triggered by player {state.triggered}")
    return "; ".join(words)


def _energy(axes: Axes, y: float, state: GTFState) -> float:
    """The energy track from 0 to ENERGY_CAP with each player's marker; the y below it."""
    _title(axes, y, "energy used")
    y += ROW
    for used in range(ENERGY_CAP + 1):
        x = MARGIN + used * ENERGY_CELL
        _box(axes, x, y, ENERGY_CELL, 0.7, "white", "#888888")
        axes.text(x + 0.08, y + 0.05, str(used), va="top", fontsize=8, color="#444444")
    for index, player in enumerate(state.players):
        x = MARGIN + player.used * ENERGY_CELL + 0.1 + 0.13 * index
        player_mark(axes, x, y + 0.45, str(index), index, 8, "circle", gid=f"energy-{index}-{player.used}")
    return y + 0.7 + GAP


def _achievements(axes: Axes, y: float, game: Any, state: GTFState) -> float:
    _title(axes, y, "achievements (VP of each token space, in filling order)")
    y += ROW
    for board, (key, taken) in enumerate(zip(state.boards, state.spaces, strict=True)):
        achievement = game.data.achievements[key]
        x = MARGIN + board * (BOARD_WIDTH + GAP)
        _box(axes, x, y, BOARD_WIDTH, 1.0, "#f2f2f2", "#888888")
        axes.text(
            x + BOARD_WIDTH / 2, y + 0.06, achievement.name, ha="center", va="top", fontsize=8, gid=f"board-{key}"
        )
        need = achievement.requires
        axes.text(
            x + BOARD_WIDTH / 2,
            y + 0.3,
            f"{need.kind}{' ' + need.colour if need.colour else ''} >= {need.at_least}",
            ha="center",
            va="top",
            fontsize=7,
        )
        for space, vp in enumerate(achievement.spaces):
            owner = taken[space] if space < len(taken) else None
            axes.text(
                x + 0.2 + space * 0.36,
                y + 0.75,
                str(vp),
                ha="center",
                va="center",
                fontsize=8,
                color="white" if owner is not None else "black",
                bbox={
                    "boxstyle": "square,pad=0.25",
                    "facecolor": "white" if owner is None else player_colour(owner),
                    "edgecolor": "#888888",
                },
                gid=f"token-{key}-{space}" + ("" if owner is None else f"-player-{owner}"),
            )
    return y + 1.0 + GAP


def _tableau(axes: Axes, y: float, game: Any, state: GTFState, index: int) -> float:
    player = state.players[index]
    bronze, silver, gold = player.coins
    _title(
        axes,
        y,
        f"player {index}: {counted(player.gears, 'gear')} ({bronze} bronze, {silver} silver, {gold} gold), charge "
        f"{player.charge}, IoM {player.iom}, TEC {player.tec}; tokens: {player.tokens} in hand, "
        f"{player.placed} placed, {player.spent} spent",
    )
    axes.plot([MARGIN - 0.12] * 2, [y + 0.08, y + ROW - 0.08], color=player_colour(index), linewidth=6)
    y += ROW
    cards = [(key, "tableau") for key in player.tableau] + [(key, "reserved") for key in player.reserved]
    for position, (key, where) in enumerate(cards):
        x = MARGIN + position * (CARD[0] + GAP)
        edge = player_colour(index) if where == "tableau" else "#999999"
        _card(axes, x, y, game.data.cards[key], edge, f"{where}-{index}-{position}-{key}")
        if where == "reserved":
            axes.text(x + CARD[0] / 2, y + CARD[1] + 0.02, "reserved", ha="center", va="top", fontsize=7)
    if not cards:
        axes.text(MARGIN, y + 0.3, "no cards", fontsize=8, color="#444444")
    return y + CARD[1] + 0.25 + GAP


def picture(game: Any, state: GTFState, player: int | None) -> Figure:
    """The whole position, with every player's tableau, or only `player`'s."""
    shown = range(game.players) if player is None else [player]
    slots = max(len(state.timeline), game.players + 1)
    width = 2 * MARGIN + max(
        (ENERGY_CAP + 1) * ENERGY_CELL,
        slots * (CARD[0] + GAP),
        len(state.boards) * (BOARD_WIDTH + GAP),
        max(len(state.players[p].tableau) + len(state.players[p].reserved) for p in shown) * (CARD[0] + GAP),
    )
    height = HEADING + (ROW + CARD[1] + GAP) + (ROW + 0.7 + GAP) + (ROW + 1.0 + GAP)
    height += len(shown) * (ROW + CARD[1] + 0.25 + GAP) + MARGIN
    figure = new_figure(width, height)
    axes = figure.add_axes((0.0, 0.0, 1.0, 1.0))
    axes.set_xlim(0, width)
    axes.set_ylim(height, 0)
    axes.axis("off")
    axes.text(MARGIN, 0.3, _heading(game, state), va="center", fontsize=11)
    axes.text(
        MARGIN,
        0.62,
        f"deck {state.deck.size} cards, discard pile {len(state.discards)} cards"
        + (f"; waiting: {', '.join(p.effect for p in state.pending)}" if state.pending else ""),
        va="center",
        fontsize=9,
    )
    y = HEADING
    _title(axes, y, "timeline (slot 0, the oldest, first)")
    y += ROW
    if not state.timeline:
        axes.text(MARGIN, y + 0.3, "empty", fontsize=8, color="#444444")
    for slot, key in enumerate(state.timeline):
        _card(axes, MARGIN + slot * (CARD[0] + GAP), y, game.data.cards[key], "#555555", f"timeline-{slot}-{key}")
    y += CARD[1] + GAP
    y = _energy(axes, y, state)
    y = _achievements(axes, y, game, state)
    for index in shown:
        y = _tableau(axes, y, game, state, index)
    return figure
