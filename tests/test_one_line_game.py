"""A game is one unit: Toy Dice (tests/fixtures/toy_game/), registered for a run by one entry of
RULECHECK_EXTRA_GAMES and named by no test, is checked by every per-game test.

pytest runs in a subprocess with the toy registered, over the whole of tests/, keeping only the
tests whose ids name `toy-game`, and its JUnit report is read. A per-game test is a test function
parametrized for every shipped game (its ids name each of them, among every test that run
collected, tests/fixtures/collected.py): every one of them must have a case for the toy, and each must pass; so
must every trace of the toy's golden suite (tests/fixtures/toy_game/toy-game.suite.jsonl), which
the rulecheck plugin collects only while the toy is registered. The same reading fails without
the registration (every per-game test lacks its case) and with an engine that breaks the toy's
rules registered in its place (the API checker and the golden suite fail on it)."""

import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from xml.etree import ElementTree

import pytest

from rulecheck.registry import EXTRA_GAMES, SHIPPED
from tests.fixtures.collected import COLLECTED

ROOT = Path(__file__).resolve().parents[1]
TOY = "toy-game"
SOUND = "tests.fixtures.toy_game"
BROKEN = "tests.fixtures.toy_game.broken"
GOLDEN = "tests/fixtures/toy_game/toy-game.suite.jsonl"
LEFT_OUT = ["--ignore=tests/test_one_line_game.py"]
"""This file (it would run itself)."""


def pytest_run(extra: str, *args: str, collected: Path) -> subprocess.CompletedProcess[str]:
    """pytest in a subprocess at the project's root, with RULECHECK_EXTRA_GAMES set to `extra` (and
    nothing of a pytest-xdist worker this test may run in), writing the id of every test it
    collects to `collected`."""
    outer = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_XDIST", "PYTEST_CURRENT_TEST"))}
    env = {**outer, EXTRA_GAMES: extra, COLLECTED: str(collected)}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "tests.fixtures.collected", "-q", *args]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)


def reported(nodeid: str) -> str:
    """A test's id as a JUnit report names it: `tests.test_x::test_y[params]` for `tests/test_x.py::test_y[params]`."""
    *where, name = nodeid.split("::")
    return ".".join([where[0].removesuffix(".py").replace("/", "."), *where[1:]]) + "::" + name


def outcomes(extra: str, paths: list[str], tmp_path: Path) -> tuple[set[str], dict[str, str]]:
    """When `extra` is registered and `paths` are run: every test function parametrized for every
    shipped game (`file::function`, from all the tests collected), and the outcome (`passed`,
    `failed`, `error`, `skipped`) of every test whose id names the toy, by its id as the JUnit
    report names it."""
    report, collected = tmp_path / "toy.xml", tmp_path / "collected.txt"
    done = pytest_run(extra, *paths, *LEFT_OUT, "-k", TOY, f"--junitxml={report}", collected=collected)
    assert report.exists() and collected.exists(), done.stdout[-3000:] + done.stderr[-3000:]
    found = {}
    for case in ElementTree.parse(report).getroot().iter("testcase"):
        kind = next((child.tag for child in case if child.tag in ("failure", "error", "skipped")), "passed")
        found[f"{case.get('classname')}::{case.get('name')}"] = {"failure": "failed"}.get(kind, kind)
    return per_game_tests(collected.read_text().splitlines()), found


def per_game_tests(collected: list[str]) -> set[str]:
    """Every test function among the `collected` ids parametrized for every shipped game (`file::function`)."""
    params = defaultdict(list)
    for line in collected:
        if "::" in line and "[" in line:
            function, _, rest = line.partition("[")
            params[function].append(rest)
    names = [re.compile(rf"(^|[^a-z]){re.escape(d.name)}($|[^a-z])") for d in SHIPPED]
    return {f for f, found in params.items() if all(any(n.search(p) for p in found) for n in names)}


def unchecked(functions: set[str], results: dict[str, str], golden: bool) -> list[str]:
    """What the toy lacks: each per-game test with no case for it or a case that did not pass, and
    (when `golden`) its golden suite's traces not collected or not passed."""
    missing = []
    for function in sorted(functions):
        cases = {i: outcome for i, outcome in results.items() if i.partition("[")[0] == reported(function)}
        if not cases:
            missing.append(f"{function}: no case for {TOY}")
        missing += [f"{i}: {outcome}" for i, outcome in cases.items() if outcome != "passed"]
    if golden:
        traces = {i: outcome for i, outcome in results.items() if i.partition("::")[0] == reported(GOLDEN + "::")[:-2]}
        if not traces:
            missing.append(f"{GOLDEN}: no trace collected")
        missing += [f"{i}: {outcome}" for i, outcome in traces.items() if outcome != "passed"]
    return missing


def test_the_toy_registered_by_one_line_passes_every_per_game_test(tmp_path):
    functions, results = outcomes(SOUND, ["tests"], tmp_path)
    shown = {"test_api_every_game.py", "test_docs_tables.py", "test_golden_suites.py", "test_readable_replays.py"}
    assert shown <= {f.partition("::")[0].removeprefix("tests/") for f in functions}, "the per-game tests are found"
    assert unchecked(functions, results, golden=True) == []
    ran = {i.partition("::")[0] for i, outcome in results.items() if outcome == "passed"}
    assert ran >= {reported(f"tests/{name}::x")[:-3] for name in shown} | {reported(GOLDEN + "::x")[:-3]}


FEW = ["tests/test_api_every_game.py", "tests/test_docs_tables.py", "tests/fixtures/toy_game"]
"""Enough of the per-game tests to see the check fail: quick ones, and the golden suite."""


@pytest.mark.parametrize(
    "extra, lacking",
    [
        ("", r"no case for toy-game|no trace collected"),
        (BROKEN, r"test_random_games_pass_the_api_checker\[toy-game-.*: failed|toy-game\.suite\.jsonl::.*: failed"),
    ],
    ids=["toy-not-registered", "toy-engine-illegal"],
)
def test_the_check_fails_without_the_toy_or_with_an_engine_breaking_its_rules(tmp_path, extra, lacking):
    functions, results = outcomes(extra, FEW, tmp_path)
    assert len(functions) == 3, functions  # the API checker and the docs tables' two
    found = unchecked(functions, results, golden=True)
    assert found and all(re.search(lacking, line) for line in found), found
