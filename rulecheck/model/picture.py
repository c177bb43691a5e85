"""Pictures: a game draws a matplotlib figure, and this module makes the figure and writes it.

Models: the one way rulecheck draws (a board's map for `rulecheck board --draw`, a state for
`rulecheck show --draw` and `--frames`): a game's picture function gets a blank figure from
`new_figure`, draws on it, and `save_picture` writes it to a .png or an .svg file chosen by the
suffix, whole or not at all. matplotlib is an optional extra (`pip install 'rulecheck[draw]'`),
imported only when a picture is drawn; without it, drawing is an ExtraMissing error naming the
extra. Figures render on the Agg canvas (no screen). SVG keeps its text as <text> elements
(svg.fonttype none: a label can be searched for and read back) and both formats leave out the
date, so drawing the same picture twice writes the same file. Also what a picture of a state is
drawn for (a Moment: a step of a trace or a witness, or a position on its own) and who moves
there, the words every game's title opens with; the colour of each player,
shared by every game's pictures, a mark (bold white text on a box of a colour: a piece, a code),
a label's size as the renderer sets it and a label fitted to a width (broken into lines, cut
short with an ellipsis where it still does not fit), and the file names of a trace's pictures
(`--frames`).

Leaves out: what any picture shows (each game's picture module) and fonts: SVG text is set in
the viewer's sans-serif font.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import attrs

from rulecheck.core.errors import ExtraMissing, OutputError
from rulecheck.core.files import write_whole
from rulecheck.core.game import CHANCE, TERMINAL

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.text import Text

SUFFIXES: Final = (".png", ".svg")
"""The file types a picture is written as, by the file's suffix."""
DPI: Final = 100
"""Pixels per inch of a PNG: a 10-point label is 14 pixels high."""
INSTALL: Final = "pip install 'rulecheck[draw]'"
PLAYER_COLOURS: Final = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b")
"""Player 0's colour first; a game with more players than colours reuses them in order."""
MARK_PAD: Final = 0.15
"""The padding of a mark's box around its text, in font sizes."""
ELLIPSIS: Final = "…"
"""What ends a label cut short to fit (`fitted`)."""
FRAME_DIGITS: Final = 3
"""The fewest digits of a frame's step number (step-007.png), more for a longer trace."""
_METADATA: Final = {".png": {"Software": None}, ".svg": {"Date": None}}
SOURCE_CHARACTERS: Final = 40
"""The most characters of a Moment's source a title writes; a longer one keeps its start and end."""
ON_ITS_OWN: Final = "a position on its own, not a step of a trace"
"""What a title says of a state drawn without a trace (a Moment with no step)."""


@attrs.frozen
class Moment:
    """What a picture of a state is drawn for, as its title says: step `step` of `source` (a
    trace file, a witness), or with no step, a position on its own."""

    step: int | None = None
    source: str = ""

    def words(self) -> str:
        """`step 263 of MEC-F03-1.json`, `step 4`, or ON_ITS_OWN."""
        if self.step is None:
            return ON_ITS_OWN
        source = self.source
        if len(source) > SOURCE_CHARACTERS:
            half = (SOURCE_CHARACTERS - 1) // 2
            source = source[:half] + ELLIPSIS + source[-half:]
        return f"step {self.step}" + (f" of {source}" if source else "")


def mover_words(game: Any, state: Any) -> str:
    """Who moves in `state`: `player 1 to move`, `chance to move` or `game over`."""
    mover = game.to_move(state)
    return "game over" if mover == TERMINAL else "chance to move" if mover == CHANCE else f"player {mover} to move"


def title_words(name: str, moment: Moment, game: Any, state: Any) -> str:
    """The line a picture of a state opens its title with: the game's name, what it is drawn
    for and who moves (`Mechanica, step 263 of MEC-F03-1.json: player 0 to move`)."""
    return f"{name}, {moment.words()}: {mover_words(game, state)}"


def picture_path(path: Path) -> Path:
    """`path`, once its suffix names a file type a picture can be written as; OutputError otherwise."""
    if path.suffix.lower() not in SUFFIXES:
        found = repr(path.suffix) if path.suffix else "no suffix"
        raise OutputError(f"{path}: a picture is written as {' or '.join(SUFFIXES)}, by the file's suffix, not {found}")
    return path


def frame_name(step: int, last: int) -> str:
    """The file name of the picture of step `step` of a trace whose last step is `last`, as PNG;
    names of one trace's steps sort in step order."""
    return f"step-{step:0{max(FRAME_DIGITS, len(str(last)))}}.png"


def player_colour(player: int) -> str:
    return PLAYER_COLOURS[player % len(PLAYER_COLOURS)]


def mark(
    target: Axes | Figure, x: float, y: float, text: str, colour: str, size: float, shape: str = "round", **place: Any
) -> Text:
    """`text` in bold white on a `shape` (a matplotlib box style) of `colour`, centred on x, y
    unless `place` says otherwise (other keyword arguments of `text`, such as `gid`)."""
    style = {"ha": "center", "va": "center", **place}
    return target.text(
        x,
        y,
        text,
        fontsize=size,
        color="white",
        fontweight="bold",
        bbox={"boxstyle": f"{shape},pad={MARK_PAD}", "facecolor": colour, "edgecolor": "none"},
        **style,
    )


def player_mark(
    target: Axes | Figure, x: float, y: float, text: str, player: int, size: float, shape: str = "round", **place: Any
) -> Text:
    """A mark (`mark`) of `text` on the player's colour."""
    return mark(target, x, y, text, player_colour(player), size, shape, **place)


def text_size(figure: Figure, text: str, points: float, bold: bool = False) -> tuple[float, float]:
    """The width and height in inches of `text` at `points`, as the figure's renderer sets it (the
    extents a layout check reads). The same text at the same size and resolution always measures
    the same under the same fonts, so each is measured once in a process (pictures repeat their
    labels, and measuring is most of the cost of laying them out; nothing here changes matplotlib's
    font settings between pictures)."""
    key = (text, points, bold, figure.dpi)
    if key not in _MEASURED:
        renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]  # Agg's canvas has one
        probe = figure.text(0, 0, text, fontsize=points, fontweight="bold" if bold else "normal")
        extent = probe.get_window_extent(renderer)
        probe.remove()
        _MEASURED[key] = extent.width / figure.dpi, extent.height / figure.dpi
    return _MEASURED[key]


_MEASURED: dict[tuple[str, float, bool, float], tuple[float, float]] = {}
"""text_size's measures, by text, points, boldness and dots per inch."""


def fitted(figure: Figure, text: str, width: float, points: float, lines: int = 2) -> str:
    """`text` in at most `lines` lines no wider than `width` inches at `points`: broken at its
    spaces and after its hyphens, and a line still too wide, or the last line when more would be
    needed, cut short with an ellipsis (…)."""

    def fits(line: str) -> bool:
        return text_size(figure, line, points)[0] <= width

    broken: list[str] = []
    for piece in re.findall(r"[^\s-]+-*|-+", text):
        joined = broken[-1] + ("" if broken[-1].endswith("-") else " ") + piece if broken else piece
        if broken and fits(joined):
            broken[-1] = joined
        else:
            broken.append(piece)
    kept = broken[:lines]
    if len(broken) > lines:
        kept[-1] = " ".join(broken[lines - 1 :]).replace("- ", "-")
    return "\n".join(_cut(line, fits) for line in kept)


def _cut(line: str, fits: Callable[[str], bool]) -> str:
    """`line`, or its longest start that fits with an ellipsis after it."""
    if fits(line):
        return line
    end = len(line) - 1
    while end > 1 and not fits(line[:end] + ELLIPSIS):
        end -= 1
    return line[:end] + ELLIPSIS


def new_figure(width: float, height: float) -> Figure:
    """A blank figure `width` by `height` inches on the Agg canvas; ExtraMissing without matplotlib."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise ExtraMissing(f"drawing a picture needs matplotlib, which is not installed: {INSTALL}") from None
    figure = Figure(figsize=(width, height))
    FigureCanvasAgg(figure)
    return figure


def _rendered(figure: Figure, suffix: str) -> bytes:
    import matplotlib

    buffer = io.BytesIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "rulecheck"}):
        figure.savefig(buffer, format=suffix[1:], dpi=DPI, metadata=_METADATA[suffix])
    return buffer.getvalue()


def save_picture(figure: Figure, path: Path) -> None:
    """Write `figure` to `path`, as PNG or SVG by its suffix (picture_path), whole or not at all."""
    write_whole(path, _rendered(figure, picture_path(path).suffix.lower()))


def svg_text(figure: Figure) -> str:
    """`figure` as an <svg> element, to set inside a page (without the XML prolog a file has)."""
    text = _rendered(figure, ".svg").decode("utf-8")
    return text[text.index("<svg") :]
