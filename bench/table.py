"""The benchmark's one table: a row per figure, with its anchor and its target beside it.

Each measurement's `report` prints its rows through `row`, under a section line from `section`;
the columns are the game, what is measured, the figure, the anchor (the peer it is compared
with) and the target with its verdict.

Leaves out: the figures (each measurement's module) and the targets (targets.py).
"""

from __future__ import annotations

GAME = 18
WHAT = 40
FIGURE = 30
ANCHOR = 30


def header() -> None:
    print(
        f"{'game'.ljust(GAME)} {'measure'.ljust(WHAT)} {'figure'.ljust(FIGURE)} {'anchor'.ljust(ANCHOR)} target",
        flush=True,
    )
    print("-" * (GAME + WHAT + FIGURE + ANCHOR + 24), flush=True)


def section(title: str) -> None:
    print(f"== {title}", flush=True)


def row(game: str, what: str, figure: str, anchor: str = "", target: str = "") -> None:
    print(
        f"{game.ljust(GAME)} {what.ljust(WHAT)} {figure.ljust(FIGURE)} {anchor.ljust(ANCHOR)} {target}".rstrip(),
        flush=True,
    )


def note(text: str) -> None:
    print(f"   {text}", flush=True)
