"""The golden suites' traces are collected by rulecheck's pytest plugin; a failure here also says
how to bring a suite up to date after a deliberate change of behaviour."""

import pytest

HINT = (
    "The engine no longer plays this golden trace as recorded. If the change is deliberate, bump the "
    "game's version, then regenerate its suite: python -m tests.suite_record GAME (the diff of "
    "tests/suites/GAME.suite.txt shows what changed)."
)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed and call.when == "call" and item.path.name.endswith(".suite.jsonl"):
        report.sections.append(("golden suites", HINT))
