"""Hypothesis profiles: derandomized in CI (CI=true), randomized on a developer's machine; and no
test appends to the shipped finding-id ledgers (verify's default ledger folder is a copy)."""

import os
import shutil
from collections import Counter
from importlib import resources

import pytest
from hypothesis import HealthCheck, settings

pytest_plugins = ("pytester",)

settings.register_profile(
    "ci", derandomize=True, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(scope="session")
def smoke_campaign(tmp_path_factory):
    """`smoke_campaign(game)`: the folder and verdict of a smoke-budget verify of that game, run
    once per session, under pytest-xdist once per worker (tests that change the folder put it back
    as it was)."""
    from rulecheck.check.campaign.verify import BUDGETS, verify

    done = {}

    def campaign(game):
        if game not in done:
            out = tmp_path_factory.mktemp(f"smoke-{game}")
            done[game] = out, verify(out, BUDGETS["smoke"], games=[game], ledgers=tmp_path_factory.mktemp("specs"))
        return done[game]

    return campaign


@pytest.fixture(autouse=True)
def ledgers_copied(tmp_path_factory, monkeypatch):
    """verify's default ledger folder, for every test: a copy of the shipped ledgers."""
    from rulecheck.check.campaign import verify

    folder = tmp_path_factory.mktemp("specs")
    for item in resources.files("rulecheck.specs").iterdir():
        if item.name.endswith("-ledger.toml"):
            shutil.copyfile(str(item), folder / item.name)
    monkeypatch.setattr(verify, "specs_folder", lambda: folder)


TALLIES = {"inputs": "hostile inputs tried per reader", "faults": "faults injected per kind"}
"""What tests count with `record_property(KEY, (label, count))`, printed at the end of the run
under these headings (tests/test_hostile_input.py, tests/test_interrupted_campaign.py)."""


def pytest_terminal_summary(terminalreporter):
    for key, heading in TALLIES.items():
        tried: Counter[str] = Counter()
        for reports in terminalreporter.stats.values():
            for report in reports:
                if getattr(report, "when", None) == "call":
                    tried.update({value[0]: value[1] for name, value in report.user_properties if name == key})
        if tried:
            terminalreporter.write_sep("-", heading)
            for label, count in sorted(tried.items()):
                terminalreporter.write_line(f"{label}: {count:,}")
