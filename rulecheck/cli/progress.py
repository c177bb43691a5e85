"""The command's progress bar: a long job's progress, with an estimate of the time left, on stderr.

Models: whether to show a bar (only when stderr is a terminal and the command was not asked
for `--json`: a log, a pipe or a JSON reader gets no bar), and the bar itself, a rich
progress display fed by the library's progress callback (rulecheck/core/progress.py): what
runs, how many units of how many, the time taken and, once the total is known, the time
left. When stdout is the terminal too, lines the command prints meanwhile show above the bar;
otherwise stdout is left alone.

Leaves out: what the units are (each job's own) and any output on stdout.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from rulecheck.core.progress import Progress as Callback
from rulecheck.core.progress import no_progress


def shows_bar(stream: TextIO, json: bool) -> bool:
    """Whether a bar goes to `stream`: it is a terminal and the output is not JSON."""
    return not json and stream.isatty()


@contextmanager
def progress_bar(what: str, json: bool = False, stream: TextIO | None = None) -> Iterator[Callback]:
    """A progress callback that draws a bar named `what` on `stream` (stderr) while the block runs,
    or no_progress where `shows_bar` says no bar goes there."""
    stream = sys.stderr if stream is None else stream
    if not shows_bar(stream, json):
        yield no_progress
        return
    display = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=Console(file=stream),
        redirect_stdout=sys.stdout.isatty(),
        redirect_stderr=False,
    )
    task = display.add_task(what, total=None)

    def update(done: int, total: int | None) -> None:
        display.update(task, completed=done, total=total)

    with display:
        yield update
