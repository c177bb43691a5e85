"""A campaign run in local processes and on a Dask cluster gives the report a serial run gives (a
lean campaign of Globot Time Force, whose findings are of six kinds and include a shrunk witness)."""

import pytest

from rulecheck.check.campaign.jobs import Task
from rulecheck.check.campaign.verify import verify
from tests.test_verify import TINY

GAME = "globot-time-force"
"""The game of the lean campaign: its tasks are the quickest of the three games' to run."""


def lean(task: Task) -> bool:
    """Every job that files evidence but exploration, at one player, with every option but two
    left at its default: for comparing a parallel run with a serial one."""
    return (
        task.players == 1
        and task.job != "explore"
        and all(n in ("charge", "timeline_actions") for n, _ in task.variant)
    )


@pytest.fixture(scope="module")
def lean_report(tmp_path_factory):
    """The serial report of the lean campaign; it holds findings of several kinds, a shrunk witness among them."""
    out, specs = tmp_path_factory.mktemp("lean"), tmp_path_factory.mktemp("lean-specs")
    verdict = verify(out, TINY, games=[GAME], select=lean, ledgers=specs)
    assert len({f.kind for f in verdict.findings}) >= 3 and any(o.task.job == "shrink" for o in verdict.outcomes)
    return out, verdict, specs


def test_local_processes_give_the_serial_report(lean_report, tmp_path):
    out, _, _ = lean_report
    (specs := tmp_path / "specs").mkdir()
    verify(tmp_path, TINY, games=[GAME], select=lean, workers=2, ledgers=specs)
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
            games=[GAME],
            select=lean,
            dask=cluster.scheduler_address,
            ledgers=specs,
        )
    assert (tmp_path / "findings.json").read_text() == (out / "findings.json").read_text().replace(
        str(out), str(tmp_path)
    )
