"""Clause coverage is counted per run: two campaigns on one threaded Dask worker each get their own counts.

The campaigns are explorations (no Hypothesis, which is not meant to run on two threads at once);
their counts on the worker must equal the counts of the same campaigns run one after the other here.
"""

import pytest

from rulecheck.check.running.parallel import run_tasks
from rulecheck.check.search.explore import explore
from rulecheck.registry import make_game

CAMPAIGNS = ((2, 2500), (3, 2000))
"""(players, states): two Globetrotter explorations whose clause counts differ."""


def explore_counts(campaign: tuple[int, int]) -> dict[str, int]:
    players, states = campaign
    report = explore(make_game("globetrotter", players), depth=None, states=states, symmetry=False)
    return dict(report.clause_counts)


@pytest.fixture(scope="module")
def threaded_worker():
    """One worker process running two tasks at a time on two threads."""
    import distributed

    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=True, dashboard_address=None) as c:
        yield c.scheduler_address


def test_two_campaigns_on_one_threaded_worker_keep_their_own_counts(threaded_worker):
    serial = [explore_counts(c) for c in CAMPAIGNS]
    assert serial[0] != serial[1]
    assert run_tasks(explore_counts, CAMPAIGNS, dask=threaded_worker) == serial
