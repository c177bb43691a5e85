"""A picture of a Globot Time Force position: the timeline, the energy track, the achievements
and the players' tableaux.

Models: a title saying what the picture is drawn for (a trace's step) and who moves, the stage
and the turn (with the turns in a row, a granted second turn, an end-game extra turn and the
skill effects waiting); the deck's and the discard pile's sizes; the
timeline's cards from slot 0 (the oldest) with each card's colours (a chip per colour: a code of
its name's first letters on a fill of its own), cost and printed VP; the energy track
0 to 12 with each player's marker on the energy they have used; each drawn achievement board with
its requirement and its token spaces' VP, a filled space in its player's colour; and each player's
tableau in the order gained, the reserved card, gears (with the coins), charge, IoM, TEC and
tokens in hand, placed and spent. With a player, only that player's tableau is drawn. A key
below explains each player's colour, the cards' edges, the energy marker and each colour's chip,
with the colour's full name.

Leaves out: the deck's and the discard pile's contents (the deck's order is hidden; the state's
JSON lists what is in each) and the cards' skills (the data set's text).
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from rulecheck.core.words import counted
from rulecheck.games.globot_time_force.counters import ENERGY_CAP
from rulecheck.games.globot_time_force.state import GTFState
from rulecheck.model.key import Entry, code, draw_key, fill, lay_out
from rulecheck.model.picture import Moment, mark, new_figure, player_colour, player_mark, title_words

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

CARD: Final = (1.6, 0.95)
"""A card's width and height, in inches."""
CHIP: Final = 0.36
"""Inches from one colour's chip on a card to the next."""
CHIPS_PER_ROW: Final = 4
CHIP_ROW: Final = 0.19
"""Inches from one row of a card's colour chips to the next."""
CODE_LETTERS: Final = 3
"""The fewest letters of a colour's code (its name's first letters, more where two would clash)."""
COLOUR_FILLS: Final = ("#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#a6761d", "#666666", "#2166ac")
"""The chip of each colour of the data's spectrum, in its order; a longer spectrum reuses them."""
MARKERS_PER_ROW: Final = 3
"""Energy markers side by side in one cell of the track, more on a second row."""
GAP: Final = 0.15
MARGIN: Final = 0.3
ENERGY_CELL: Final = 0.75
BOARD_WIDTH: Final = 1.9
HEADING: Final = 0.9
ROW: Final = 0.45
"""Inches for a section's title line."""
TIMELINE_EDGE: Final = "#555555"
RESERVED_EDGE: Final = "#999999"
WRAP: Final = 22
"""Characters on a line of a card's name."""


def _box(axes: Axes, x: float, y: float, width: float, height: float, fill: str, edge: str) -> None:
    axes.fill([x, x + width, x + width, x], [y, y, y + height, y + height], facecolor=fill, edgecolor=edge)


def colour_codes(spectrum: Sequence[str]) -> dict[str, str]:
    """Each colour's code: the fewest first letters of its name, CODE_LETTERS or more, that no
    other colour's code shares."""
    for letters in range(CODE_LETTERS, max(map(len, spectrum), default=0) + 1):
        codes = {colour: colour[:letters] for colour in spectrum}
        if len(set(codes.values())) == len(codes):
            return codes
    return {colour: colour for colour in spectrum}  # names that are prefixes of others: codes in full


def chips(spectrum: Sequence[str]) -> dict[str, tuple[str, str]]:
    """The code and the fill of each colour's chip, in the spectrum's order."""
    codes = colour_codes(spectrum)
    return {colour: (codes[colour], COLOUR_FILLS[n % len(COLOUR_FILLS)]) for n, colour in enumerate(spectrum)}


def _card(axes: Axes, x: float, y: float, card: Any, edge: str, gid: str, look: Mapping[str, tuple[str, str]]) -> None:
    """A card: its name, a chip of each of its colours (in the spectrum's order, as `look` writes
    them), its cost and VP."""
    width, height = CARD
    _box(axes, x, y, width, height, "#fbfbf3", edge)
    name = "\n".join(textwrap.wrap(card.name, WRAP)[:2])
    axes.text(x + width / 2, y + 0.06, name, ha="center", va="top", fontsize=8, gid=gid)
    colours = [colour for colour in look if colour in card.colours]
    for place, colour in enumerate(colours):
        row, column = divmod(place, CHIPS_PER_ROW)
        across = min(len(colours) - row * CHIPS_PER_ROW, CHIPS_PER_ROW)
        middle = x + width / 2 + (column - (across - 1) / 2) * CHIP
        text, fill = look[colour]
        mark(axes, middle, y + 0.44 + row * CHIP_ROW, text, fill, 7)
    if not colours:
        axes.text(x + width / 2, y + 0.44, "no colour", ha="center", va="center", fontsize=7, color="#444444")
    kind = "event" if card.event else f"cost {card.cost}, {card.vp} VP"
    axes.text(x + width / 2, y + height - 0.06, kind, ha="center", va="bottom", fontsize=7, color="#444444")


def _title(axes: Axes, y: float, text: str) -> None:
    axes.text(MARGIN, y + ROW / 2, text, va="center", fontsize=10, fontweight="bold")


def _heading(game: Any, state: GTFState, moment: Moment) -> str:
    words = [title_words("Globot Time Force", moment, game, state), f"stage {state.stage}"]
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
        row, column = divmod(index, MARKERS_PER_ROW)
        x = MARGIN + player.used * ENERGY_CELL + 0.17 + 0.21 * column
        player_mark(axes, x, y + 0.32 + 0.2 * row, str(index), index, 8, "circle", gid=f"energy-{index}-{player.used}")
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
        edge = player_colour(index) if where == "tableau" else RESERVED_EDGE
        _card(axes, x, y, game.data.cards[key], edge, f"{where}-{index}-{position}-{key}", chips(game.data.spectrum))
        if where == "reserved":
            axes.text(x + CARD[0] / 2, y + CARD[1] + 0.02, "reserved", ha="center", va="top", fontsize=7)
    if not cards:
        axes.text(MARGIN, y + 0.3, "no cards", fontsize=8, color="#444444")
    return y + CARD[1] + 0.25 + GAP


def _key(game: Any) -> list[Entry]:
    """What the picture's colours and codes mean: each player's colour, the edges of the cards,
    the energy markers, and each colour's chip with the colour's full name."""
    players = [fill(player_colour(seat), f"player {seat}") for seat in range(game.players)]
    look = chips(game.data.spectrum)
    return [
        *players,
        fill("white", "card in the timeline", TIMELINE_EDGE),
        fill("white", "card in a tableau (edge of its player's colour)", player_colour(0)),
        fill("white", "reserved card", RESERVED_EDGE),
        code("0", player_colour(0), "a player's energy marker (player 0's here)"),
        *(code(text, colour_fill, colour) for colour, (text, colour_fill) in look.items()),
    ]


def picture(game: Any, state: GTFState, player: int | None, moment: Moment) -> Figure:
    """The whole position, with every player's tableau, or only `player`'s."""
    shown = range(game.players) if player is None else [player]
    slots = max(len(state.timeline), game.players + 1)
    width = 2 * MARGIN + max(
        (ENERGY_CAP + 1) * ENERGY_CELL,
        slots * (CARD[0] + GAP),
        len(state.boards) * (BOARD_WIDTH + GAP),
        max(len(state.players[p].tableau) + len(state.players[p].reserved) for p in shown) * (CARD[0] + GAP),
    )
    figure = new_figure(width, 1.0)
    legend = lay_out(figure, _key(game), width - 2 * MARGIN)
    height = HEADING + (ROW + CARD[1] + GAP) + (ROW + 0.7 + GAP) + (ROW + 1.0 + GAP)
    height += len(shown) * (ROW + CARD[1] + 0.25 + GAP) + legend.height + 2 * MARGIN
    figure.set_size_inches(width, height)
    axes = figure.add_axes((0.0, 0.0, 1.0, 1.0))
    axes.set_xlim(0, width)
    axes.set_ylim(height, 0)
    axes.axis("off")
    axes.text(MARGIN, 0.3, _heading(game, state, moment), va="center", fontsize=11)
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
        x = MARGIN + slot * (CARD[0] + GAP)
        _card(axes, x, y, game.data.cards[key], TIMELINE_EDGE, f"timeline-{slot}-{key}", chips(game.data.spectrum))
    y += CARD[1] + GAP
    y = _energy(axes, y, state)
    y = _achievements(axes, y, game, state)
    for index in shown:
        y = _tableau(axes, y, game, state, index)
    draw_key(figure, legend, MARGIN, legend.height + MARGIN)
    return figure
