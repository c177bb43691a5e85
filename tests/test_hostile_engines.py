"""A fuzzer of the engine protocol: `rulecheck suite replay` against engines that turn hostile at a
step their seed picks (tests/fixtures/hostile_engine.py: garbage, a line cut short, another
request's id, floods, an endless line, answers too late or never, exits, children that hold the
output open or are left behind). Every run ends within `--timeout` plus 5 s of the engine
turning (within `--start-timeout` plus 5 s of its start, for one that never answers: it gets a
short start timeout of its own, as it would wait out any), reports in one line what the engine
did, and leaves no process of the engine behind (psutil)."""

import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psutil
import pytest

from rulecheck.check.play.playthrough import random_game
from rulecheck.core.untrusted import MAX_LINE_BYTES
from rulecheck.registry import make_game
from rulecheck.suite.format import save_suite
from rulecheck.suite.record import record_trace
from tests.fixtures.hostile_engine import MODES

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 2
START_TIMEOUT = 20
"""Room for a fresh Python engine to start on a loaded machine."""
SILENT_START_TIMEOUT = 4
"""The start timeout of the engine that never answers, which waits it out whatever it is."""
SLACK = 5
RUNS = [(mode, seed) for seed, mode in enumerate(MODES)]
EXPECTED = {
    "garbage": "not JSON",
    "cut-short": f"within {TIMEOUT} s",
    "wrong-id": "answered request",
    "flood-lines": "answered request",
    "endless-line": f"a line longer than {MAX_LINE_BYTES:,} bytes",
    "late": f"within {TIMEOUT} s",
    "silent": f"gave no answer to new_game within {SILENT_START_TIMEOUT} s",
    "exits": "exited with status 3",
    "child-holds-stdout": "exited with status 0",
}
"""What the report says of each engine that breaks the protocol (child-left-behind answers well)."""


@pytest.fixture(scope="module")
def one_trace(tmp_path_factory):
    game = make_game("globot-time-force", 2)
    trace = record_trace(game, random_game(game, 4, 20).actions, trace_id="gtf-2p")[0]
    path = tmp_path_factory.mktemp("hostile") / "one.suite.jsonl"
    save_suite(path, [trace])
    return path


def _replay(suite: Path, mode: str, seed: int, log: Path) -> tuple[int, str, float]:
    engine = f"{sys.executable} -m tests.fixtures.hostile_engine {mode} {seed}"
    command = [sys.executable, "-m", "rulecheck.cli", "suite", "replay", str(suite), "--engine", engine]
    start_timeout = SILENT_START_TIMEOUT if mode == "silent" else START_TIMEOUT
    command += ["--timeout", str(TIMEOUT), "--start-timeout", str(start_timeout)]
    env = {**os.environ, "HOSTILE_LOG": str(log), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300, cwd=ROOT)
    return done.returncode, done.stdout + done.stderr, time.monotonic()


def _left(pids: list[int]) -> list[int]:
    alive = []
    for pid in pids:
        try:
            if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                alive.append(pid)
        except psutil.NoSuchProcess:
            continue
    return alive


def test_every_hostile_engine_ends_its_replay_in_time_in_one_line_with_nothing_left(one_trace, tmp_path):
    logs = {run: tmp_path / f"{run[0]}-{run[1]}.log" for run in RUNS}
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = dict(zip(RUNS, pool.map(lambda run: _replay(one_trace, *run, logs[run]), RUNS)))
    problems = []
    for (mode, seed), (status, out, ended) in results.items():
        turned = [json.loads(line) for line in logs[mode, seed].read_text().splitlines()]
        where = f"{mode} (seed {seed})"
        if not turned:
            problems.append(f"{where}: the engine never turned hostile: {out}")
            continue
        allowed = (SILENT_START_TIMEOUT if mode == "silent" else TIMEOUT) + SLACK
        if ended - turned[0]["at"] > allowed:
            problems.append(f"{where}: ended {ended - turned[0]['at']:.1f} s after turning, over {allowed} s")
        left = _left([pid for entry in turned for pid in entry["children"]])
        if left:
            problems.append(f"{where}: processes left behind: {left}")
        if mode == "child-left-behind":
            if status != 0 or "1 of 1 traces agree" not in out:
                problems.append(f"{where}: a faithful engine with a stray child should pass: {out}")
            continue
        reports = [line for line in out.splitlines() if "trace gtf-2p" in line]
        if status != 1 or len(reports) != 1 or EXPECTED[mode] not in reports[0] or "Traceback" in out:
            problems.append(f"{where}: exit {status}, expected one line saying {EXPECTED[mode]!r}: {out[:600]}")
    assert problems == [], "\n".join(problems)
