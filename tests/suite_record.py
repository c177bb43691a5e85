"""Golden suites: each game's conformance suite, pinned under tests/suites/ and replayed by `make test`.

Models: for each registered game, the suite `rulecheck suite export` writes with the settings below
(seed, searched games, step cap) and the witnesses of a smoke-budget verify of that game (run here,
with copies of the finding-id ledgers, so the shipped ones are untouched), at the path its
declaration names (Tested.suite: `tests/suites/<game>.suite.jsonl` for a shipped game) with its
readable playthrough `<game>.suite.txt` beside it. The pytest plugin collects every trace of these
files as a test (tests/conftest.py adds how to regenerate to a failure), so a change to an
engine's behaviour fails `make test` at the first step that changed, and the playthrough's diff
shows what changed.

Regenerate with `python -m tests.suite_record [GAME ...]` (every game by default). It refuses to
overwrite a suite that the engine no longer plays as recorded while the game's version is the
one the suite records: a behaviour change comes with a bump of the game's version.

Leaves out: which traces a suite holds (rulecheck/suite/export.py).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from importlib import resources
from pathlib import Path

from rulecheck.check.campaign.verify import BUDGETS, verify
from rulecheck.registry import DECLARATIONS, declaration, game_class
from rulecheck.suite.export import export_suite
from rulecheck.suite.format import SUITE_SUFFIX, SuiteTrace, read_suite, save_suite
from rulecheck.suite.playthrough import save_playthrough
from rulecheck.suite.protocol import REFERENCE, open_engine
from rulecheck.suite.replay import replay_suite

ROOT = Path(__file__).resolve().parents[1]
SEED = 0
SEARCHED = 8
MAX_STEPS = 300


def suite_path(game: str) -> Path:
    """The golden suite of `game`, where its declaration puts it."""
    path = ROOT / declaration(game).tests().suite
    if not path.name.endswith(SUITE_SUFFIX):
        raise ValueError(f"{game}'s golden suite {path} is not named *{SUITE_SUFFIX}")
    return path


def recorded_versions(path: Path) -> set[int]:
    """The game versions the traces of the suite at `path` record."""
    return {trace.game_version for _, trace in read_suite(path) if isinstance(trace, SuiteTrace)}


def unbumped_change(game: str) -> str | None:
    """Why the suite of `game` may not be regenerated: the engine parts from it while its version
    is still the one the suite records; None when it may (no suite yet, a new version, or no change)."""
    path = suite_path(game)
    if not path.exists() or recorded_versions(path) != {game_class(game).version}:
        return None
    result = replay_suite(path, open_engine(REFERENCE))
    if result.passed:
        return None
    first = next(r for r in result.results if not r.passed)
    return (
        f"{game}'s behaviour changed, but its version is still {game_class(game).version}: bump the version "
        f"of its Game class, then regenerate. First change:\n{first.message(str(path))}"
    )


def record(game: str) -> Path:
    """Write the golden suite of `game` and its playthrough; ValueError for an unbumped change."""
    refusal = unbumped_change(game)
    if refusal:
        raise ValueError(refusal)
    with tempfile.TemporaryDirectory() as scratch:
        ledgers = Path(scratch) / "specs"
        shutil.copytree(str(resources.files("rulecheck.specs")), ledgers)
        report = Path(scratch) / "report"
        verify(report, BUDGETS["smoke"], workers=os.cpu_count() or 1, games=[game], ledgers=ledgers)
        exported = export_suite(game, searched=SEARCHED, seed=SEED, max_steps=MAX_STEPS, report=report)
    path = suite_path(game)
    path.parent.mkdir(parents=True, exist_ok=True)
    save_suite(path, list(exported.traces))
    save_playthrough(path, exported.traces)
    return path


def main(games: list[str]) -> None:
    for game in games or sorted(DECLARATIONS):
        try:
            path = record(game)
        except ValueError as exc:
            sys.exit(str(exc))
        print(f"wrote {path}")


if __name__ == "__main__":
    main(sys.argv[1:])
