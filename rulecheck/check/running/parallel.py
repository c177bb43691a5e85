"""Running a campaign's independent tasks: in this process, in local processes, or on a Dask cluster.

Models: a campaign as a function applied to a sequence of tasks that carry their own seeds,
so where a task runs does not change its result. Results come back in task order, the
same as a serial run; progress is reported in the calling process as each result arrives,
in whatever order they arrive. A task that raises stops the run with its own error. A run
that stops early (a task's error, a Ctrl-C, a SIGTERM turned into an exception by signals.py)
terminates its local workers there and then instead of waiting for their tasks, and a worker
whose parent process is gone (killed with SIGKILL, say) exits within a fraction of a second,
so no worker outlives the run. Several runs may share local processes (local_workers: a
campaign's rounds), which then stop when the last run is done. Workers ignore SIGINT: a Ctrl-C
in a terminal reaches every process of the group, and the parent alone decides what it means.

A Dask address is checked before any client is made (check_dask, which the command also
calls before the campaign starts): one that is not an address, or where no scheduler answers
within DASK_CONNECT_SECONDS, is an OptionError at once.

Leaves out: splitting a campaign into tasks and merging their results (the callers do
that), retries, and starting or sizing a Dask cluster (run_tasks connects to one that runs).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import closing, contextmanager
from typing import Final, TypeVar

from rulecheck.core.errors import OptionError

T = TypeVar("T")
R = TypeVar("R")

Progress = Callable[[int, int, T, R], None]
Arrivals = Generator[tuple[int, R], None, None]
"""Pairs of task index and result, in the order the results arrive."""

# Spawn, not fork: the caller may hold threads (Hypothesis, z3's native library, a Dask
# client) whose locks a forked child would inherit in whatever state they were in. Spawned
# workers start a clean interpreter, the same on Linux, macOS and Windows; each one imports
# z3 and Hypothesis once, a cost paid per worker, not per task.
START_METHOD = "spawn"

ORPHAN_CHECK_SECONDS: Final = 0.2
"""How often a worker checks that the process that started it still runs."""

STOP_SECONDS: Final = 5.0
"""How long a terminated worker is given to exit before it is killed."""

DASK_CONNECT_SECONDS: Final = 10.0
"""How long a Dask scheduler is given to answer a connection before the run is refused."""


def run_tasks(
    function: Callable[[T], R],
    tasks: Sequence[T],
    *,
    workers: int = 1,
    dask: str | None = None,
    progress: Progress[T, R] | None = None,
    pool: Workers | None = None,
) -> list[R]:
    """`function` applied to every task, in task order: here when `workers` is 1, in `workers`
    local processes (those of `pool`, which earlier runs may have started, when it is given), or
    on the Dask cluster whose scheduler is at the address `dask`. For processes and Dask,
    `function` must be a module-level function and the tasks picklable.
    `progress(done, total, task, result)` is called here as each result arrives."""
    if workers < 1:
        raise OptionError(f"workers must be at least 1, not {workers}")
    if dask is not None and workers != 1:
        raise OptionError(f"workers={workers} and dask={dask!r} together: the Dask cluster's workers run the tasks")
    if dask is not None:
        return _collect(_on_dask(function, tasks, dask), tasks, progress)
    if workers == 1 or not tasks:
        return _collect(((index, function(task)) for index, task in enumerate(tasks)), tasks, progress)
    if pool is not None:
        return _collect(_in_processes(function, tasks, pool, owned=False), tasks, progress)
    return _collect(_in_processes(function, tasks, Workers(min(workers, len(tasks))), owned=True), tasks, progress)


def _collect(arrivals: Arrivals[R], tasks: Sequence[T], progress: Progress[T, R] | None) -> list[R]:
    """The results of `arrivals` in task order. Closing `arrivals` when done, or when `progress`
    raises, shuts down its processes or client there and then."""
    results: dict[int, R] = {}
    with closing(arrivals):
        for index, result in arrivals:
            results[index] = result
            if progress is not None:
                progress(len(results), len(tasks), tasks[index], result)
    return [results[index] for index in range(len(tasks))]


class Workers:
    """Local worker processes, started as tasks are handed to them (up to `count`, as the pool
    needs them) and stopped by `close`: a campaign's rounds share them (local_workers), so each
    worker imports the checks once per campaign rather than once per round."""

    def __init__(self, count: int) -> None:
        self._before = set(multiprocessing.active_children())
        self.pool = ProcessPoolExecutor(
            max_workers=count,
            mp_context=multiprocessing.get_context(START_METHOD),
            initializer=_start_worker,
            initargs=(os.getpid(),),
        )
        self._closed = False

    def close(self, finished: bool) -> None:
        """Let the workers exit once idle when every run `finished`; else terminate them there and
        then instead of waiting for their tasks. Only the first call does anything."""
        if self._closed:
            return
        self._closed = True
        # The pool's own thread, which shutdown forgets when it does not wait (a private attribute:
        # the executor offers no other handle on it).
        manager: threading.Thread | None = getattr(self.pool, "_executor_manager_thread", None)
        self.pool.shutdown(wait=finished, cancel_futures=True)
        if not finished:
            _stop([child for child in multiprocessing.active_children() if child not in self._before])
            if manager is not None:
                # The pool's own thread ends here, once its workers are gone, rather than race the
                # interpreter's exit for its wake-up pipe (which can print a traceback at exit).
                manager.join(STOP_SECONDS)


@contextmanager
def local_workers(workers: int) -> Iterator[Workers | None]:
    """Up to `workers` local processes for every run_tasks inside the block (its `pool`), stopped
    when the block ends: waited for when it ends normally, terminated when it ends by an
    exception (a task's error, a Ctrl-C, a SIGTERM). None for fewer than 2 (tasks run here, or
    run_tasks refuses the number)."""
    if workers < 2:
        yield None
        return
    shared = Workers(workers)
    finished = False
    try:
        yield shared
        finished = True
    finally:
        shared.close(finished)


def _in_processes(function: Callable[[T], R], tasks: Sequence[T], workers: Workers, owned: bool) -> Arrivals[R]:
    """The results of `tasks` on `workers`, as they arrive; `workers` are closed when this run
    stops early, or at its end when it `owned` them."""
    finished = False
    try:
        futures = {workers.pool.submit(function, task): index for index, task in enumerate(tasks)}
        for future in as_completed(futures):
            yield futures[future], future.result()
        finished = True
    finally:
        if owned or not finished:
            workers.close(finished)


def _start_worker(parent: int) -> None:
    """In each worker, first: leave SIGINT to the parent, and exit when the parent is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_when_orphaned, args=(parent,), daemon=True).start()


def _exit_when_orphaned(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(ORPHAN_CHECK_SECONDS)
    os._exit(1)


def _stop(children: Sequence[multiprocessing.process.BaseProcess]) -> None:
    """Terminate the workers, and kill any that has not exited within STOP_SECONDS."""
    for child in children:
        child.terminate()
    deadline = time.monotonic() + STOP_SECONDS
    for child in children:
        child.join(max(0.0, deadline - time.monotonic()))
        if child.is_alive():
            child.kill()
            child.join()


def check_dask(address: str) -> None:
    """OptionError, at once, unless `address` is a Dask scheduler's address that answers within
    DASK_CONNECT_SECONDS: one that is no address (`garbage`, an unknown scheme) or that nothing
    answers at is refused before a client is made, since a client that failed to start waits a
    minute in its finalizer before it gives up."""
    try:
        import distributed
    except ModuleNotFoundError as exc:
        raise OptionError(f"dask={address!r} needs distributed: pip install 'rulecheck[dask]'") from exc

    async def probe() -> None:
        comm = await distributed.comm.connect(address, timeout=DASK_CONNECT_SECONDS)
        await comm.close()

    try:
        asyncio.run(probe())
    except (OSError, ValueError, TypeError) as exc:  # unreachable, or not an address
        raise OptionError(f"cannot connect to a Dask scheduler at {address!r}: {exc}") from None


def _on_dask(function: Callable[[T], R], tasks: Sequence[T], address: str) -> Arrivals[R]:
    check_dask(address)
    import distributed

    try:
        client = distributed.Client(address, set_as_default=False, timeout=DASK_CONNECT_SECONDS)
    except (OSError, ValueError) as exc:  # gone since the check
        raise OptionError(f"cannot connect to a Dask scheduler at {address!r}: {exc}") from exc
    with client:
        futures = client.map(function, tasks, pure=False)
        index = {future.key: position for position, future in enumerate(futures)}
        for future, result in distributed.as_completed(futures, loop=client.loop, with_results=True):
            yield index[future.key], result
