"""Hypothesis profiles: derandomized in CI (CI=true), randomized on a developer's machine; a
smoke-budget campaign shared by the tests that read one; the longest test files collected first,
so that pytest-xdist's workers end together; and the golden suites replayed are
those of the registered games (rulecheck/registry.py), wherever each game's declaration puts
its suite: one under tests/ of a game the run does not register (a test game's,
registered only when RULECHECK_EXTRA_GAMES names it) is not collected, and a failure of a golden
trace says how to bring the suite up to date after a deliberate change of behaviour."""

import os
from collections import Counter
from pathlib import Path

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
    as it was), in the test's own process: pytest-xdist's workers already keep the cores busy."""
    from rulecheck.check.campaign.verify import BUDGETS, verify

    done = {}

    def campaign(game):
        if game not in done:
            out = tmp_path_factory.mktemp(f"smoke-{game}")
            done[game] = out, verify(out, BUDGETS["smoke"], games=[game], workers=1)
        return done[game]

    return campaign


TESTS = Path(__file__).resolve().parent

LONGEST_FIRST = (
    "test_interrupted_campaign.py",
    "test_verify.py",
    "test_silent.py",
    "test_guide_readonly.py",
    "test_readable_replays.py",
    "test_suite.py",
    "test_hostile_input.py",
    "test_forged_input.py",
    "test_one_line_game.py",
    "test_balance.py",
    "test_parallel_campaign.py",
)
"""The test files that take longest (from a minute and a half to 20 s each on two loaded cores), run before
the rest: pytest-xdist hands files to its workers in the order collected (a file to a worker,
not reordered by their number of tests: pyproject.toml's addopts), so that a long file does not
come last and leave one worker running it alone while the other idles. The other files follow
in their own order."""


def pytest_collection_modifyitems(items):
    """The files of LONGEST_FIRST first, in its order; every file's tests in their own order."""
    first = {name: position for position, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: first.get(item.path.name, len(first)) if item.path.parent == TESTS else len(first))


def golden_suites():
    """Each registered game's golden suite (the file its declaration names), by game."""
    from rulecheck.registry import DECLARATIONS

    return {TESTS.parent / d.tested.suite: name for name, d in DECLARATIONS.items() if d.tested is not None}


def pytest_ignore_collect(collection_path, config):
    """Leave out a golden suite under tests/ that is no registered game's (None: pytest decides)."""
    from rulecheck.suite.format import SUITE_SUFFIX

    if not collection_path.name.endswith(SUITE_SUFFIX) or TESTS not in collection_path.parents:
        return None
    return True if collection_path not in golden_suites() else None


HINT = (
    "The engine no longer plays this golden trace as recorded. If the change is deliberate, bump the "
    "game's version, then regenerate its suite: python -m tests.suite_record {game} (the diff of "
    "{playthrough} shows what changed)."
)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed and call.when == "call" and (game := golden_suites().get(item.path)) is not None:
        playthrough = item.path.with_suffix(".txt").relative_to(TESTS.parent)
        report.sections.append(("golden suites", HINT.format(game=game, playthrough=playthrough)))


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
