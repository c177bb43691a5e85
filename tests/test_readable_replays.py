"""Every finding's replay, for the games other than Globetrotter (test_verify checks Globetrotter's on
its own campaign): it fits a screen, cites a clause, and shows the position at its witness's step."""

import json

import pytest

from rulecheck.check.campaign.jobs import Task
from rulecheck.check.campaign.verify import verify
from tests.readable_replays import every_replay_is_readable
from tests.test_verify import TINY

SWEPT = {"globot-time-force": ("charge", "timeline_actions"), "mechanica": ("shop_rotation", "blueprint_once")}
"""Two options swept per game: enough for readings that matter among the findings."""


def chosen(task: Task) -> bool:
    return task.players == 2 and all(name in SWEPT[task.game] for name, _ in task.variant)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out, specs = tmp_path_factory.mktemp("report"), tmp_path_factory.mktemp("specs")
    verify(out, TINY, games=sorted(SWEPT), select=chosen, ledgers=specs)
    return out


def test_every_findings_replay_cites_a_clause_shows_the_position_at_its_step_and_fits_a_screen(report, capsys):
    findings = json.loads((report / "findings.json").read_text())["findings"]
    assert {f["game"] for f in findings} == set(SWEPT)
    commands = {item["replay"].split()[1] for f in findings for item in f["evidence"] if "file" in item["witness"]}
    assert {"replay", "compare"} <= commands  # witnesses told as stories, and readings that part
    every_replay_is_readable(report, capsys)
