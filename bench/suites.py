"""Conformance suites: traces exported per second, and traces (and steps) replayed per second.

For each game, `rulecheck suite export` through its API (rulecheck.suite.export's
`export_suite`, `searched` clause-directed games, seed 0) into a temporary file, timed in CPU
time; then that file replayed on our own engine in this process (rulecheck.suite.replay's
`replay_suite` over the protocol's in-process reference engine, what `rulecheck suite verify`
does), timed the same way. Every trace must replay without a divergence: the count that did
not is reported.

Leaves out: replay over a process engine (its pipe's cost is the other engine's to judge) and
the readable playthrough file.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from bench import games as chosen
from bench.table import row, section
from rulecheck.suite.export import export_suite
from rulecheck.suite.format import save_suite
from rulecheck.suite.protocol import REFERENCE, open_engine
from rulecheck.suite.replay import replay_suite


def measure(searched: int, games: list[str] | None = None) -> dict[str, Any]:
    result: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="bench-suite-") as folder:
        for name in chosen.names(games):
            start = time.process_time()
            exported = export_suite(name, searched=searched, seed=0)
            export_seconds = time.process_time() - start
            path = Path(folder) / f"{name}.suite.jsonl"
            save_suite(path, list(exported.traces))
            engine = open_engine(REFERENCE)
            start = time.process_time()
            try:
                replayed = replay_suite(path, engine)
            finally:
                engine.close()
            replay_seconds = time.process_time() - start
            traces = len(exported.traces)
            steps = sum(len(t.steps) for t in exported.traces)
            replayed_steps = sum(r.steps for r in replayed.results)
            result[name] = {
                "searched": searched,
                "traces": traces,
                "steps": steps,
                "export_seconds": round(export_seconds, 3),
                "export_traces_per_second": round(traces / export_seconds, 2),
                "replayed": len(replayed.results),
                "replayed_steps": replayed_steps,
                "diverged": sum(1 for r in replayed.results if not r.passed),
                "replay_seconds": round(replay_seconds, 3),
                "replay_traces_per_second": round(len(replayed.results) / replay_seconds, 2),
                "replay_steps_per_second": round(replayed_steps / replay_seconds),
            }
    return result


def report(result: dict[str, Any]) -> None:
    section("conformance suites: export (clause-directed search) and replay on our own engine")
    for name, r in result.items():
        row(
            name,
            f"suite export, {r['traces']} traces, {r['steps']} steps",
            f"{r['export_traces_per_second']} traces/s",
            f"{r['searched']} games searched",
        )
        row(
            name,
            f"suite replay, {r['replayed']} traces, {r['diverged']} diverged",
            f"{r['replay_traces_per_second']} traces/s",
            f"{r['replay_steps_per_second']} steps/s",
        )
