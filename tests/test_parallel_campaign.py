"""A campaign run in local processes and on a Dask cluster gives the report a serial run gives (a
lean campaign, apart from test_verify's so that parallel test workers share the load)."""

import pytest

from rulecheck.check.campaign.jobs import Task
from rulecheck.check.campaign.verify import verify
from tests.test_verify import TINY, small


def lean(task: Task) -> bool:
    """Fewer tasks than `small`, still of every job that files evidence but exploration: for
    comparing a parallel run with a serial one."""
    return small(task) and task.job != "explore" and all(name == "fortify_adjacency" for name, _ in task.variant)


@pytest.fixture(scope="module")
def lean_report(tmp_path_factory):
    """The serial report of the lean campaign; it holds findings of several kinds, a shrunk witness among them."""
    out, specs = tmp_path_factory.mktemp("lean"), tmp_path_factory.mktemp("lean-specs")
    verdict = verify(out, TINY, games=["globetrotter"], select=lean, ledgers=specs)
    assert len({f.kind for f in verdict.findings}) >= 3 and any(o.task.job == "shrink" for o in verdict.outcomes)
    return out, verdict, specs


def test_local_processes_give_the_serial_report(lean_report, tmp_path):
    out, _, _ = lean_report
    (specs := tmp_path / "specs").mkdir()
    verify(tmp_path, TINY, games=["globetrotter"], select=lean, workers=2, ledgers=specs)
    assert (tmp_path / "findings.json").read_text() == (out / "findings.json").read_text().replace(
        str(out), str(tmp_path)
    )


def test_a_dask_cluster_gives_the_serial_report(lean_report, tmp_path):
    distributed = pytest.importorskip("distributed")
    out, _, _ = lean_report
    (specs := tmp_path / "specs").mkdir()
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        verify(
            tmp_path,
            TINY,
            games=["globetrotter"],
            select=lean,
            dask=cluster.scheduler_address,
            ledgers=specs,
        )
    assert (tmp_path / "findings.json").read_text() == (out / "findings.json").read_text().replace(
        str(out), str(tmp_path)
    )
