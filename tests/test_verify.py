"""`rulecheck verify` on a small campaign: the report, its replay commands, and the same results
from local processes and from a Dask cluster as from a serial run."""

import json
import shlex

import pytest

from rulecheck.check.verify import Budget, Task, verify
from rulecheck.cli import main

TINY = Budget(
    "tiny",
    games=3,
    variant_games=1,
    max_steps=300,
    variant_steps=300,
    explore_states=300,
    reading_seeds=2,
    witness_games=0,
    self_checks=1,
    variant_players=1,
    proof_players=1,
)
SWEPT = ("fortify_adjacency", "shooting")
SLOW_TABLES = ("earliest-build",)  # tested in test_globetrotter_numbers


def small(task: Task) -> bool:
    """Two players; every option but two left at its default; the fast tables."""
    return task.players == 2 and all(name in SWEPT for name, _ in task.variant) and task.subject not in SLOW_TABLES


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    verdict = verify(out, TINY, games=["globetrotter"], select=small)
    return out, verdict


def test_the_report_holds_audited_and_new_findings_with_every_required_field(report):
    out, verdict = report
    assert verdict.defects == ()
    data = json.loads((out / "findings.json").read_text())
    ids = {f["id"] for f in data["findings"]}
    assert {"GT-F01", "GT-F02", "GT-F10", "GT-F11", "GT-F12"} <= ids
    for finding in data["findings"]:
        assert {"id", "game", "kind", "title", "clauses", "options", "witness", "replay"} <= set(finding)
    new = [f for f in data["findings"] if not f["audited"]]
    assert new and all(int(f["id"][4:]) > 15 for f in new)
    assert {f["kind"] for f in new} >= {"non-termination", "dead rule"}
    markdown = (out / "findings.md").read_text()
    assert "## GT-F11 (globetrotter, ambiguity): Fortify adjacency" in markdown and "## Summary" in markdown


def test_fortify_adjacency_is_found_by_a_proof_and_by_a_reading_under_the_rover_value(report):
    out, _ = report
    data = json.loads((out / "findings.json").read_text())
    [adjacency] = [f for f in data["findings"] if f["id"] == "GT-F11"]
    checks = {e["check"]: e for e in adjacency["evidence"]}
    assert {"players": 2, "fortify_adjacency": "rover"} in checks["broken invariant"]["options"]
    assert "reading that matters" in checks


SHOWS = {
    "replay": lambda item, out: item["subject"] in out or item["check"] in out,
    "compare": lambda item, out: "differ" in out,
    "table": lambda item, out: item["title"] in out,
    "contradictions": lambda item, out: "CONTRADICTION" in out and item["subject"] is not None,
    "fuzz": lambda item, out: item["subject"] in out.split("never:")[1],
    "prove": lambda item, out: "refuted" in out,
}


def test_every_replay_command_as_printed_shows_its_evidence(report, capsys):
    out, _ = report
    data = json.loads((out / "findings.json").read_text())
    for finding in data["findings"]:
        for item in finding["evidence"]:
            program, command, *args = shlex.split(item["replay"])
            assert program == "rulecheck"
            capsys.readouterr()
            code = main([command, *args])
            shown = capsys.readouterr().out
            assert code in (0, 1), item["replay"]
            assert SHOWS[command](item, shown), f"{finding['id']}: {item['replay']} does not show {item['title']}"


def test_local_processes_give_the_serial_report(report, tmp_path):
    out, _ = report
    verify(tmp_path, TINY, games=["globetrotter"], select=small, workers=2)
    assert (tmp_path / "findings.json").read_text() == (out / "findings.json").read_text().replace(
        str(out), str(tmp_path)
    )


def test_a_dask_cluster_gives_the_serial_report(report, tmp_path):
    distributed = pytest.importorskip("distributed")
    out, _ = report
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        verify(tmp_path, TINY, games=["globetrotter"], select=small, dask=cluster.scheduler_address)
    assert (tmp_path / "findings.json").read_text() == (out / "findings.json").read_text().replace(
        str(out), str(tmp_path)
    )
