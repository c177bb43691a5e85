"""`python -m bench`: every benchmark in one run, printed as one table and written as one JSON file.

Run with `make bench`, which installs python-chess and open-spiel first. Each measurement is a
module of this package with `measure(...) -> dict` and `report(dict)`; MEASUREMENTS lists them
in the order of the table, each with its budget for a full run and for `--quick` (a run of well
under a minute, for development and the test). `--only` and `--skip` choose measurements;
`--quick` skips `verify` unless `--only` names it. Targets are in bench/targets.py.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import table
from rulecheck.suite.export import DEFAULT_SEARCHED

DEFAULT_JSON = "bench/results.json"
CAMPAIGN_GAME = "globot-time-force"
"""The game of the 10,000-game campaign by default: the fastest to fuzz."""
SMALL_CAMPAIGNS = {"globetrotter": [100, 300]}
"""Smaller campaigns of the slower games, beside the large one, so their growth shows too."""

Run = Callable[[Any, argparse.Namespace], dict[str, Any]]


def _games(args: argparse.Namespace) -> list[str] | None:
    return args.game


def _campaigns(args: argparse.Namespace) -> dict[str, list[int]]:
    if args.quick:
        return {args.campaign_game: [10, 30]}
    plan = {args.campaign_game: [1000, 3000, args.campaign_games]}
    for name, sizes in SMALL_CAMPAIGNS.items():
        if name != args.campaign_game and (args.game is None or name in args.game):
            plan[name] = sizes
    return plan


MEASUREMENTS: dict[str, Run] = {
    "play": lambda m, a: m.measure(a.seconds, _games(a)),
    "checked": lambda m, a: m.measure(a.seconds / 2, _games(a)),
    "hypothesis": lambda m, a: m.measure(a.seconds / 2, _games(a)),
    "stateful": lambda m, a: m.measure(3 if a.quick else 10, _games(a)),
    "openspiel": lambda m, a: m.measure(a.seconds / 2, _games(a)),
    "mcts": lambda m, a: m.measure(a.seconds / 4, _games(a)),
    "lengths": lambda m, a: m.measure(a.seconds / 4, _games(a)),
    "explore": lambda m, a: m.measure(500 if a.quick else 20_000, _games(a)),
    "proofs": lambda m, a: m.measure(1 if a.quick else 3, _games(a)),
    "suites": lambda m, a: m.measure(1 if a.quick else DEFAULT_SEARCHED, [CAMPAIGN_GAME] if a.quick else _games(a)),
    "verify": lambda m, a: m.measure(a.verify_budget, _games(a)),
    "memory": lambda m, a: m.measure(_campaigns(a)),
    "balance": lambda m, a: m.measure(20 if a.quick else 1000, _games(a)),
}
"""Each measurement by name (as --only and --skip name it), run on its module and the arguments."""
MODULES = {
    "hypothesis": "hypothesis_play",
    "openspiel": "openspiel_play",
    "verify": "verify_run",
}
"""The module of a measurement whose name is not its module's."""
QUICK_SKIPS = ("verify",)
"""Measurements --quick leaves out unless --only names them (each takes minutes even at its smallest)."""


def _names(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in MEASUREMENTS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown measurement {', '.join(unknown)}; known: {', '.join(MEASUREMENTS)}")
    return names


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bench", description="rulecheck benchmarks: one table, one JSON file")
    p.add_argument(
        "--seconds", type=float, default=None, help="CPU seconds of each side of the play race (20; quick 0.5)"
    )
    p.add_argument("--quick", action="store_true", help="small budgets: well under a minute; skips verify")
    p.add_argument("--only", type=_names, default=None, help=f"comma-separated, of: {', '.join(MEASUREMENTS)}")
    p.add_argument("--skip", type=_names, default=[], help="comma-separated measurements to leave out")
    p.add_argument("--game", action="append", default=None, help="measure this game only (repeatable)")
    p.add_argument(
        "--json", default=DEFAULT_JSON, metavar="PATH", help=f"where to write the JSON (- for stdout; {DEFAULT_JSON})"
    )
    p.add_argument("--verify-budget", default="quick", help="the verify campaign's budget (quick)")
    p.add_argument(
        "--campaign-game", default=CAMPAIGN_GAME, help=f"the game of the large fuzz campaign ({CAMPAIGN_GAME})"
    )
    p.add_argument("--campaign-games", type=int, default=10_000, help="games of the large fuzz campaign (10000)")
    return p


def chosen(args: argparse.Namespace) -> tuple[list[str], dict[str, str]]:
    """The measurements to run, in table order, and why each other one is left out."""
    left_out: dict[str, str] = {}
    run = []
    for name in MEASUREMENTS:
        if args.only is not None and name not in args.only:
            continue
        if name in args.skip:
            left_out[name] = "--skip"
        elif args.quick and args.only is None and name in QUICK_SKIPS:
            left_out[name] = "--quick (name it in --only to run it)"
        else:
            run.append(name)
    return run, left_out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parser().parse_args(argv)
    if args.seconds is None:
        args.seconds = 0.5 if args.quick else 20.0
    run, left_out = chosen(args)
    results: dict[str, Any] = {
        "meta": {
            "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "quick": args.quick,
            "seconds": args.seconds,
            "python": f"{platform.python_implementation()} {platform.python_version()}",
            "cpus": os.cpu_count(),
            "skipped": left_out,
        }
    }
    out = sys.stderr if args.json == "-" else sys.stdout
    with contextlib.redirect_stdout(out):  # the table goes to stderr when the JSON goes to stdout
        table.header()
        table.note(f"python: {results['meta']['python']}")
        for name in run:
            module = importlib.import_module(f"bench.{MODULES.get(name, name)}")
            started = time.perf_counter()
            results[name] = MEASUREMENTS[name](module, args)
            module.report(results[name])
            table.note(f"({name}: {time.perf_counter() - started:.1f} s)")
        for name, why in left_out.items():
            table.section(f"{name}: skipped ({why})")
    text = json.dumps(results, indent=2)
    if args.json == "-":
        print(text)
    else:
        Path(args.json).write_text(text + "\n", encoding="utf-8")
        print(f"wrote {args.json}")
    return results


if __name__ == "__main__":
    main()
