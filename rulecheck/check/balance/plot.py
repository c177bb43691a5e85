"""The picture of a balance run (`rulecheck balance --plot`).

Models: per seat, the win rate (games won alone) with its Wilson 95% interval beside the equal
share 1 / players; and, for a run with readings, seat 0's win rate under each reading with its
interval beside the defaults', the readings that change who wins drawn in their own colour.
Drawn on a figure of model/picture.py, so matplotlib stays an optional extra.

Leaves out: the table and the JSON (the command's).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulecheck.check.balance.run import Balance
from rulecheck.model.picture import PLAYER_COLOURS, new_figure

if TYPE_CHECKING:
    from matplotlib.figure import Figure

SIGNIFICANT = "#d62728"
PLAIN = "#7f7f7f"
ROW_INCHES = 0.28


def balance_figure(run: Balance) -> Figure:
    """The seats' win rates, and with readings, seat 0's under each."""
    figures = run.figures
    readings = run.readings
    height = max(3.5, ROW_INCHES * (len(readings) + 4))
    figure = new_figure(11 if readings else 6, height)
    seats = figure.add_subplot(1, 2 if readings else 1, 1)
    for p, seat in enumerate(figures.seats):
        colour = PLAYER_COLOURS[p % len(PLAYER_COLOURS)]
        seats.bar(p, seat.rate, color=colour, alpha=0.7)
        seats.errorbar(p, seat.rate, yerr=[[seat.rate - seat.low], [seat.high - seat.rate]], color="black", capsize=4)
    seats.axhline(1 / figures.players, color=PLAIN, linestyle="--", label="equal share")
    seats.set_xticks(range(figures.players), [f"seat {p}" for p in range(figures.players)])
    seats.set_ylabel("games won alone (Wilson 95% interval)")
    seats.set_ylim(0, 1)
    seats.set_title(f"{run.setup.game}, {figures.players} players, {figures.games} games")
    seats.legend(loc="upper right")
    if readings:
        shown = figure.add_subplot(1, 2, 2)
        base = figures.seats[0]
        shown.axvspan(base.low, base.high, color=PLAIN, alpha=0.2, label="defaults (95%)")
        for row, reading in enumerate(readings):
            seat = reading.figures.seats[0]
            colour = SIGNIFICANT if reading.significant else PLAIN
            shown.errorbar(
                seat.rate, row, xerr=[[seat.rate - seat.low], [seat.high - seat.rate]], fmt="o", color=colour
            )
        shown.set_yticks(range(len(readings)), [f"{r.option}={r.value}" for r in readings], fontsize=7)
        shown.invert_yaxis()
        shown.set_xlim(0, 1)
        shown.set_xlabel("seat 0 won alone (95%); red: changes who wins")
        shown.legend(loc="lower right", fontsize=7)
    figure.tight_layout()
    return figure
