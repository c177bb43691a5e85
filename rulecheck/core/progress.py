"""How far a long job has got, told to whoever shows it.

Models: a `Progress` callback, `progress(done, total)`: `done` units of the job are finished
out of `total` (None when the job cannot know its size beforehand, such as a search bounded
only by depth). A job calls it as it goes, `done` never falling, and last with its final
count; `no_progress` is the callback that does nothing, the default of every job that takes
one. The library knows nothing of terminals: the command decides whether and how to show it
(rulecheck/cli/progress.py).

A job made of parts tells each part's progress as part of the whole (`part`).

Leaves out: descriptions, timing and estimates (the command's bar measures those).
"""

from __future__ import annotations

from collections.abc import Callable

Progress = Callable[[int, int | None], None]
"""progress(done, total): `done` units finished of `total` (None: not known)."""


def no_progress(done: int, total: int | None) -> None:
    """The callback that shows nothing."""


def part(progress: Progress, before: int, total: int) -> Progress:
    """The callback of one part of a job of `total` units, after `before` units of other parts:
    `done` units of the part are `before + done` of the whole job."""

    def told(done: int, _: int | None) -> None:
        progress(before + done, total)

    return told
