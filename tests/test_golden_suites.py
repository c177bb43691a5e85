"""The golden suites under tests/suites/: one for every game, at the game's version, covering every
option value; regenerating refuses a behaviour change that came without a version bump; and the
pytest plugin, run as an implementer runs it, gives one test per trace and shows the first
divergence of a wrong engine.

The golden suites' traces themselves are replayed as tests by the plugin (tests/suites/)."""

import os
import sys
from pathlib import Path

import pytest

from rulecheck.check.play.playthrough import random_game
from rulecheck.registry import DECLARATIONS, game_class, make_game
from rulecheck.suite.format import SuiteTrace, read_suite
from rulecheck.suite.playthrough import playthrough_path
from rulecheck.suite.record import record_trace
from tests import suite_record
from tests.fixtures.faulty_engine import FAULTY_PLAYERS
from tests.suite_record import suite_path, unbumped_change

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("game", sorted(DECLARATIONS))
def test_each_game_has_a_golden_suite_at_its_version(game):
    path = suite_path(game)
    assert path.exists(), f"no golden suite for {game}: run python -m tests.suite_record {game}"
    traces = [t for _, t in read_suite(path)]
    assert all(isinstance(t, SuiteTrace) for t in traces)
    versions = {t.game_version for t in traces}
    assert versions == {game_class(game).version}, (
        f"{path} is for version {versions}, the game is at {game_class(game).version}:"
        f" regenerate it with python -m tests.suite_record {game}"
    )
    covers = {c for t in traces for c in t.covers}
    options = game_class(game).option_space.options
    assert {f"option {o.name}={v}" for o in options for v in o.values if v != o.default} <= covers
    assert any(c.startswith("finding ") for c in covers), "the findings' witnesses are in the suite"
    assert any(t.end.returns is not None for t in traces), "some trace is a finished game, with returns"
    assert playthrough_path(path).exists()


def test_regenerating_refuses_a_behaviour_change_without_a_version_bump(monkeypatch, tmp_path):
    game = "mechanica"
    golden = suite_path(game).read_text().splitlines()
    small = tmp_path / f"{game}.suite.jsonl"
    small.write_text("\n".join(golden[:2]) + "\n")  # two of its golden traces stand for the suite
    monkeypatch.setattr(suite_record, "suite_path", lambda name: small)
    assert unbumped_change(game) is None, "the engine plays its golden suite as recorded"
    cls = game_class(game)
    original = cls.legal_actions

    def one_fewer(self, state):
        found = original(self, state)
        return found[:-1] if len(found) > 3 else found

    monkeypatch.setattr(cls, "legal_actions", one_fewer)
    refusal = unbumped_change(game)
    assert refusal is not None and refusal.startswith(
        f"mechanica's behaviour changed, but its version is still {cls.version}: bump the version"
    )
    assert "legal actions: the engine lacks" in refusal
    with pytest.raises(ValueError, match="behaviour changed"):
        suite_record.record(game)
    monkeypatch.setattr(cls, "version", cls.version + 1)
    assert unbumped_change(game) is None, "with the version bumped, the suite may be regenerated"


def test_the_plugin_makes_a_test_of_each_trace_and_shows_the_first_divergence(pytester, monkeypatch):
    traces = []
    for players, seed in ((FAULTY_PLAYERS, 1), (2, 2), (FAULTY_PLAYERS, 3)):
        game = make_game("globot-time-force", players)
        actions = random_game(game, seed, 40).actions
        traces.append(record_trace(game, actions, trace_id=f"gtf-{players}p-{seed}")[0])
    suite = pytester.path / "mine.suite.jsonl"
    suite.write_text("".join(t.line() + "\n" for t in traces) + "{truncated\n")
    monkeypatch.setenv("PYTHONPATH", str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    passing = pytester.runpytest(str(suite), "-v", "-p", "no:cacheprovider")
    passing.assert_outcomes(passed=3, failed=1)
    passing.stdout.fnmatch_lines(["*mine.suite.jsonl::gtf-3p-1 PASSED*", "*mine.suite.jsonl::line-4 FAILED*"])
    passing.stdout.fnmatch_lines(["*mine.suite.jsonl:4: a line, the line: suite: *not valid JSON*"])
    faulty = f"{sys.executable} -m tests.fixtures.faulty_engine drops-legal"
    wrong = pytester.runpytest(str(suite), "--rulecheck-engine", faulty, "-p", "no:cacheprovider")
    wrong.assert_outcomes(passed=1, failed=3)
    for trace in ("gtf-3p-1", "gtf-3p-3"):
        wrong.stdout.fnmatch_lines([f"*trace {trace}, step * legal actions: the engine lacks *"])
