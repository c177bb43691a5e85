"""A picture's key: a sample of each code, colour and line style a picture uses, beside the words
that explain it.

Models: five kinds of sample, drawn as the pictures draw them: a filled square (a zone, a kind of
space), an arrow or a line in a line style (a belt, a fork exit, a Drill Cannon's aim), a disc or
another marker (a bot of a model) and a code of text on a coloured box (a piece, a colour of a
card). A key is laid out before it is drawn, so that a picture can make room for it: after the
word "Key", entries run left to right in rows across the width the picture gives, an entry whose
words are wider than that width has them broken into lines (`fitted`), and every width is
measured with the figure's own renderer (the extents a layout check reads). It is drawn in inches
from the figure's lower left corner; its title's id (`gid`) is KEY_GID.

Leaves out: what the entries say and where the key goes (each game's picture module).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

import attrs

from rulecheck.model.picture import MARK_PAD, fitted, mark, text_size

if TYPE_CHECKING:
    from matplotlib.figure import Figure

KEY_GID: Final = "key"
"""The SVG id of a key's title: a picture with a key has an element of this id."""
POINTS: Final = 9
"""The size of a key's words and codes."""
SAMPLE: Final = 0.35
"""Inches of an arrow's sample (a square's or a disc's is as wide as a line is high)."""
GAP: Final = 0.08
"""Inches between a sample and its words."""
SPACE: Final = 0.3
"""Inches between one entry and the next on a row."""
ROW: Final = 0.08
"""Inches between rows."""

FILL: Final = "fill"
ARROW: Final = "arrow"
LINE: Final = "line"
DISC: Final = "disc"
CODE: Final = "code"


@attrs.frozen
class Entry:
    """One line of a key: a sample of kind FILL, ARROW, LINE, DISC or CODE in `colour`, and `words`."""

    kind: str
    colour: str
    words: str
    detail: str = ""
    """ARROW, LINE: the line style; DISC: the marker; CODE: the code's text."""
    edge: str = ""
    """FILL: the colour of the square's edge."""


def fill(colour: str, words: str, edge: str = "#555555") -> Entry:
    return Entry(FILL, colour, words, edge=edge)


def arrow(colour: str, style: str, words: str) -> Entry:
    """An arrow of a matplotlib line style (`-`, `--`)."""
    return Entry(ARROW, colour, words, style)


def line(colour: str, style: str, words: str) -> Entry:
    """A line of a matplotlib line style, without a head."""
    return Entry(LINE, colour, words, style)


def disc(colour: str, words: str, marker: str = "o") -> Entry:
    return Entry(DISC, colour, words, marker)


def code(text: str, colour: str, words: str) -> Entry:
    """`text` as a mark (rulecheck/model/picture.py) on `colour`, as the picture writes a code."""
    return Entry(CODE, colour, words, text)


@attrs.frozen
class Placed:
    entry: Entry
    words: str
    """The entry's words, wrapped to the key's width where they are wider."""
    x: float
    """Inches from the key's left edge to the sample's left edge."""
    sample: float
    """The sample's width, in inches."""
    row: int


@attrs.frozen
class Key:
    """A key laid out: each entry's place and each row's height, in inches."""

    placed: tuple[Placed, ...]
    rows: tuple[float, ...]

    @property
    def height(self) -> float:
        return sum(self.rows) + ROW * len(self.rows)


def _sample_width(figure: Figure, entry: Entry) -> float:
    if entry.kind == CODE:
        return text_size(figure, entry.detail, POINTS, bold=True)[0] + 2 * MARK_PAD * POINTS / 72
    return SAMPLE if entry.kind in (ARROW, LINE) else POINTS / 72 * 1.2


def lay_out(figure: Figure, entries: Sequence[Entry], width: float) -> Key:
    """The key of `entries` in rows across `width` inches, the title "Key" first on its first row."""
    title = text_size(figure, "Key", POINTS, bold=True)
    x, row = title[0] + SPACE, 0
    rows = [title[1]]
    placed = []
    for entry in entries:
        sample = _sample_width(figure, entry)
        words = fitted(figure, entry.words, width - sample - GAP, POINTS, lines=len(entry.words))
        words_width, words_height = text_size(figure, words, POINTS)
        if x > 0 and x + sample + GAP + words_width > width:
            x, row = 0.0, row + 1
            rows.append(0.0)
        placed.append(Placed(entry, words, x, sample, row))
        rows[row] = max(rows[row], words_height, title[1])
        x += sample + GAP + words_width + SPACE
    return Key(tuple(placed), tuple(rows))


def draw_key(figure: Figure, key: Key, left: float, top: float) -> None:
    """`key` with its top left corner `left`, `top` inches from the figure's lower left corner."""
    inches = figure.dpi_scale_trans
    middles = [top - sum(key.rows[:row]) - ROW * row - key.rows[row] / 2 for row in range(len(key.rows))]
    figure.text(left, middles[0], "Key", va="center", fontsize=POINTS, fontweight="bold", transform=inches, gid=KEY_GID)
    for place in key.placed:
        x, y = left + place.x, middles[place.row]
        _draw_sample(figure, place.entry, x, y, place.sample)
        figure.text(x + place.sample + GAP, y, place.words, va="center", fontsize=POINTS, transform=inches)


def _draw_sample(figure: Figure, entry: Entry, x: float, y: float, width: float) -> None:
    from matplotlib.lines import Line2D
    from matplotlib.patches import FancyArrowPatch, Rectangle

    inches = figure.dpi_scale_trans
    side = POINTS / 72
    if entry.kind == FILL:
        square = Rectangle((x + (width - side) / 2, y - side / 2), side, side, transform=inches)
        square.set(facecolor=entry.colour, edgecolor=entry.edge, linewidth=0.8)
        figure.add_artist(square)
    elif entry.kind == ARROW:
        figure.add_artist(
            FancyArrowPatch(
                (x, y),
                (x + width, y),
                arrowstyle="-|>",
                mutation_scale=10,
                color=entry.colour,
                linestyle=entry.detail,
                transform=inches,
            )
        )
    elif entry.kind == LINE:
        segment = Line2D([x, x + width], [y, y], color=entry.colour, transform=inches)
        segment.set(linestyle=entry.detail)
        figure.add_artist(segment)
    elif entry.kind == DISC:
        figure.add_artist(
            Line2D(
                [x + width / 2],
                [y],
                marker=entry.detail,
                markersize=7,
                markerfacecolor=entry.colour,
                markeredgecolor="black",
                linestyle="none",
                transform=inches,
            )
        )
    else:
        mark(figure, x + width / 2, y, entry.detail, entry.colour, POINTS, transform=inches)
