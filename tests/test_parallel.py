"""run_tasks: a campaign's results, in task order, are the same here, in local processes and on Dask.

The task functions live at module level so that spawned processes and Dask workers can import
them by name (tests is a package: tests.test_parallel); distributed is imported only where a test
needs it, so that those processes import less.
"""

import sys

import pytest

from rulecheck.check.running.parallel import run_tasks
from rulecheck.check.search.fuzz import fuzz
from rulecheck.core.errors import OptionError
from rulecheck.registry import declaration, make_game

SEEDS = (0, 1, 2, 3)


def small_fuzz(seed: int) -> tuple[int, dict]:
    """A small fuzz campaign; the seed comes back with the report so that the order shows."""
    properties = declaration("globetrotter").properties
    report = fuzz(make_game("globetrotter"), properties, games=2, seed=seed, max_steps=200)
    return seed, report.to_data()


def fail_on_three(task: int) -> int:
    if task == 3:
        raise ValueError("task 3 fails on purpose")
    return task


@pytest.fixture(scope="module")
def serial():
    return [small_fuzz(seed) for seed in SEEDS]


@pytest.fixture(scope="module")
def cluster():
    """One worker process with one thread: tasks and results cross a process boundary over tcp."""
    import distributed

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as c:
        yield c.scheduler_address


class ProgressLog:
    """A progress callback that keeps its calls."""

    def __init__(self):
        self.calls = []

    def __call__(self, done, total, task, result):
        self.calls.append((done, total, task, result))

    def assert_once_per_task(self, tasks, results):
        """Called once per result as it arrived: done counts up to the total, each task with its result."""
        total = len(tasks)
        assert [(done, n) for done, n, _, _ in self.calls] == [(done, total) for done in range(1, total + 1)]
        assert sorted((tasks.index(task), result) for _, _, task, result in self.calls) == list(enumerate(results))


@pytest.mark.parametrize("workers", [1, 2])
def test_local_runs_match_the_serial_campaign_in_task_order(workers, serial):
    progress = ProgressLog()
    assert run_tasks(small_fuzz, SEEDS, workers=workers, progress=progress) == serial
    progress.assert_once_per_task(SEEDS, serial)


def test_a_dask_cluster_matches_the_serial_campaign_in_task_order(cluster, serial):
    progress = ProgressLog()
    assert run_tasks(small_fuzz, SEEDS, dask=cluster, progress=progress) == serial
    progress.assert_once_per_task(SEEDS, serial)


def test_no_tasks_give_no_results():
    progress = ProgressLog()
    assert run_tasks(fail_on_three, [], workers=2, progress=progress) == []
    assert progress.calls == []


@pytest.mark.parametrize("workers", [1, 2])
def test_a_task_that_raises_stops_the_run_with_its_error(workers):
    with pytest.raises(ValueError, match="task 3 fails on purpose"):
        run_tasks(fail_on_three, [1, 2, 3, 4], workers=workers)


def test_a_task_that_raises_on_dask_stops_the_run_with_its_error(cluster):
    with pytest.raises(ValueError, match="task 3 fails on purpose"):
        run_tasks(fail_on_three, [1, 2, 3, 4], dask=cluster)


@pytest.mark.parametrize("workers", [0, -1])
def test_workers_below_one_are_refused(workers):
    with pytest.raises(OptionError, match="workers must be at least 1"):
        run_tasks(fail_on_three, [1], workers=workers)


def test_workers_and_dask_together_are_refused():
    with pytest.raises(OptionError, match="together"):
        run_tasks(fail_on_three, [1], workers=2, dask="tcp://127.0.0.1:8786")


def test_an_address_that_is_not_one_is_refused():
    with pytest.raises(OptionError, match="cannot connect to a Dask scheduler at 'nowhere'"):
        run_tasks(fail_on_three, [1], dask="nowhere")


def test_dask_without_distributed_says_which_extra_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(OptionError, match=r"pip install 'rulecheck\[dask\]'"):
        run_tasks(fail_on_three, [1], dask="tcp://127.0.0.1:8786")
