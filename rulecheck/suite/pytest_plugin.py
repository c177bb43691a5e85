"""A pytest plugin: every trace of a suite file as a test of an engine, failing at its first divergence.

Models: pytest collects each file named `*.suite.jsonl` that it is given (or finds under its
test paths) as one test per trace, named by the trace's id; a line of the file that holds no
trace is a test that fails with what is wrong with it. Each test replays its trace on the
engine of `--rulecheck-engine` (a command speaking the engine protocol, or `module:attribute`;
rulecheck's own engine by default), started once per session and restarted after it breaks,
and fails with the trace, the step, what differed and the state there. Installed with
rulecheck as the `pytest11` entry point `rulecheck-suite`:

    pytest my-game.suite.jsonl --rulecheck-engine 'node my-engine.js'

Leaves out: the replay itself (replay.py) and the engine protocol (protocol.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulecheck.suite.format import SUITE_SUFFIX, BadLine, SuiteTrace, read_suite
from rulecheck.suite.protocol import DEFAULT_TIMEOUT, REFERENCE, Engine, open_engine
from rulecheck.suite.replay import COMPARED, line_result

_ENGINE = pytest.StashKey[Engine]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("rulecheck", "rulecheck conformance suites (*.suite.jsonl)")
    group.addoption(
        "--rulecheck-engine",
        default=REFERENCE,
        metavar="COMMAND",
        help="the engine the suites' traces replay on: a command line or module:attribute (default: rulecheck's own)",
    )
    group.addoption(
        "--rulecheck-timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        help=f"seconds the engine may take to answer one request (default {DEFAULT_TIMEOUT:g})",
    )
    group.addoption(
        "--rulecheck-skip",
        action="append",
        default=[],
        choices=COMPARED,
        help="leave this comparison out (repeatable)",
    )


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.name.endswith(SUITE_SUFFIX):
        suite: SuiteFile = SuiteFile.from_parent(parent, path=file_path)
        return suite
    return None


def pytest_unconfigure(config: pytest.Config) -> None:
    engine = config.stash.get(_ENGINE, None)
    if engine is not None:
        engine.close()


def _engine(config: pytest.Config) -> Engine:
    """The session's engine, started at the first test that needs it."""
    if _ENGINE not in config.stash:
        config.stash[_ENGINE] = open_engine(config.getoption("rulecheck_engine"), config.getoption("rulecheck_timeout"))
    return config.stash[_ENGINE]


class SuiteFile(pytest.File):
    """A suite file: one test per line."""

    def collect(self) -> Iterator[pytest.Item]:
        for number, item in read_suite(self.path):
            name = item.id if isinstance(item, SuiteTrace) else f"line-{number}"
            yield TraceTest.from_parent(self, name=name, line=number, trace=item)


class TraceDiverged(Exception):
    """A trace's replay found a difference (or the line held no trace)."""


class TraceTest(pytest.Item):
    """One trace of a suite, replayed on the session's engine."""

    def __init__(self, *, line: int, trace: SuiteTrace | BadLine, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.line = line
        self.trace = trace

    def runtest(self) -> None:
        skip = frozenset(self.config.getoption("rulecheck_skip"))
        result = line_result(_engine(self.config), self.line, self.trace, skip)
        if not result.passed:
            raise TraceDiverged(result.message(str(self.path)))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, TraceDiverged):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo, style))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.line - 1, f"trace {self.name}"
