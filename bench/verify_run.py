"""A `rulecheck verify` campaign per game, in seconds: what `rulecheck verify GAME --budget B` does.

Each game's campaign runs on its own through the API (rulecheck.check.campaign.verify's `verify`, one
worker) into a temporary report folder, with the ledgers copied from the package's specs folder
to a temporary folder, so the run writes nothing into the project. The figure is the CPU seconds
of this process (one worker runs every task here, so a busy machine does not inflate it), with
the wall-clock seconds beside it, and the tasks it ran and the findings and engine defects it
reported.

Leaves out: more than one worker, Dask, and the report's pictures' cost apart from the rest.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from bench import games as chosen
from bench.table import row, section
from rulecheck.check.campaign.verify import BUDGETS, verify
from rulecheck.check.report.findings import specs_folder
from rulecheck.registry import declaration


def run(name: str, budget: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bench-verify-") as folder:
        ledgers = Path(folder) / "ledgers"
        ledgers.mkdir()
        ledger = declaration(name).ledger
        if ledger is not None:
            shutil.copyfile(str(specs_folder().joinpath(ledger)), ledgers / ledger)
        start, cpu = time.perf_counter(), time.process_time()
        verdict = verify(Path(folder) / "report", BUDGETS[budget], games=[name], ledgers=ledgers)
        seconds, wall = time.process_time() - cpu, time.perf_counter() - start
    return {
        "budget": budget,
        "seconds": round(seconds, 2),
        "wall_seconds": round(wall, 2),
        "tasks": len(verdict.outcomes),
        "findings": len(verdict.findings),
        "defects": len(verdict.defects),
    }


def measure(budget: str, games: list[str] | None = None) -> dict[str, Any]:
    return {name: run(name, budget) for name in chosen.names(games)}


def report(result: dict[str, Any]) -> None:
    section("rulecheck verify, one worker")
    for name, r in result.items():
        row(
            name,
            f"verify --budget {r['budget']}, {r['tasks']} tasks",
            f"{r['seconds']} s CPU ({r['wall_seconds']} s wall)",
            f"{r['findings']} findings, {r['defects']} defects",
        )
