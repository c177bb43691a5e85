"""Stopping a long run cleanly on SIGINT and SIGTERM, and at once on a second one.

Models: while a campaign runs, the first SIGINT (Ctrl-C) or SIGTERM raises `Interrupted` in
the main thread, so the run unwinds the way an error does: its workers are terminated
(parallel.py), what it recorded stays on disk whole (each file is written whole or not at
all), and the command says how to resume. A second signal, while that unwinding is under way,
ends the process at once with the status a shell gives a process the signal killed. Long
loops also call `check()`, which raises Interrupted again once a signal has arrived: Python
drops an exception a signal handler raises inside a finaliser, so a raise alone can be lost.
Python reports such a dropped exception on stderr (sys.unraisablehook); within the block a
dropped Interrupted is not reported, as `check()` raises it again, so a stopped command's
stderr holds its own message only.

Leaves out: SIGKILL, which no process can catch (workers notice their parent is gone, and the
journal keeps every outcome that arrived before it), and threads other than the main one,
where signals cannot be handled (there the handlers are left as they are).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any, Final

STOPPING: Final = (signal.SIGINT, signal.SIGTERM)


class Interrupted(KeyboardInterrupt):
    """A run was asked to stop by a signal; `signal` is its number."""

    def __init__(self, signal_number: int) -> None:
        self.signal = signal_number
        super().__init__(f"stopped by {signal.Signals(signal_number).name}")

    @property
    def name(self) -> str:
        return signal.Signals(self.signal).name

    @property
    def exit_status(self) -> int:
        """What a shell reports for a process the signal ended: 128 plus its number."""
        return 128 + self.signal


_received: list[int] = []
"""The signals received within the current `interruptible` block, first one first."""


@contextmanager
def interruptible() -> Iterator[None]:
    """Within the block, the first SIGINT or SIGTERM raises Interrupted and a second exits at once."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handle(number: int, _frame: FrameType | None) -> None:
        if _received:
            os._exit(128 + number)
        _received.append(number)
        raise Interrupted(number)

    reporting = sys.unraisablehook

    def report(unraisable: Any) -> None:
        if not isinstance(unraisable.exc_value, Interrupted):
            reporting(unraisable)

    previous = {number: signal.signal(number, handle) for number in STOPPING}
    sys.unraisablehook = report
    try:
        yield
    finally:
        sys.unraisablehook = reporting
        for number, handler in previous.items():
            signal.signal(number, handler)
        _received.clear()


def check() -> None:
    """Raise Interrupted again if a signal has arrived within the block. The handler's exception
    is lost when the signal lands while a finaliser (`__del__`, a weakref callback) runs, which
    Python reports and ignores; a long loop calls this at each turn so that the run stops all
    the same, and a campaign calls it before it records an outcome, so that a task a signal cut
    short (a fuzz job that returned what it had) is never taken for a finished one."""
    if _received:
        raise Interrupted(_received[0])
