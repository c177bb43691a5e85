"""The conformance-suite commands: `suite export`, `suite verify` and `suite replay`.

Models: presentation of a suite's export (what its traces cover, what the search did not
reach), and of a replay's results: each trace that diverges with its first difference, as
it finishes, then a summary line; exit status 0 when every trace agrees, 1 when one does
not, 2 for a usage error (a suite file that cannot be read, an engine that cannot start),
128+n when signal n (SIGINT, SIGTERM) stopped it, after the summary of the traces replayed.

Leaves out: the suite machinery (rulecheck/suite/).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import attrs

from rulecheck.check.running.signals import Interrupted, interruptible
from rulecheck.cli.args import at_least, path_named, positive_seconds, writable_file
from rulecheck.cli.progress import progress_bar
from rulecheck.core.options import parse_assignments
from rulecheck.registry import DECLARATIONS
from rulecheck.suite.export import DEFAULT_MAX_STEPS, DEFAULT_SEARCHED, export_suite
from rulecheck.suite.format import SUITE_SUFFIX, save_suite
from rulecheck.suite.playthrough import playthrough_path, save_playthrough
from rulecheck.suite.protocol import DEFAULT_TIMEOUT, REFERENCE, Engine, open_engine
from rulecheck.suite.replay import COMPARED, SuiteResult, TraceResult, replay_suite


def run_export(args: argparse.Namespace) -> int:
    out = writable_file(args.out or f"{args.game}{SUITE_SUFFIX}")
    writable_file(str(playthrough_path(out)))  # the readable playthrough written beside it
    report = None if args.findings is None else Path(args.findings)
    try:
        with interruptible(), progress_bar(f"suite export {args.game}: games", args.json) as progress:
            exported = export_suite(
                args.game,
                players=args.players,
                options=parse_assignments(args.set),
                data=args.data,
                searched=args.traces,
                seed=args.seed,
                max_steps=args.max_steps,
                report=report,
                progress=progress,
            )
    except Interrupted as stop:
        print(f"rulecheck: stopped by {stop.name}: no suite written", file=sys.stderr)
        return stop.exit_status
    save_suite(out, list(exported.traces))
    readable = save_playthrough(out, exported.traces)
    if args.json:
        print(json.dumps({"suite": str(out), "playthrough": str(readable), "summary": exported.summary()}))
    else:
        print(f"wrote {out} and {readable}")
        for line in exported.summary():
            print(f"  {line}")
    return 0


def _replay(args: argparse.Namespace, engine: Engine) -> int:
    source = Path(args.suite)
    shown: list[dict[str, Any]] = []
    done: list[TraceResult] = []

    def report(result: TraceResult) -> None:
        done.append(result)
        if args.json:
            shown.append({"line": result.line, "trace": result.trace, "steps": result.steps} | _divergence(result))
        elif not result.passed:
            print(result.message(str(source)))

    try:
        with interruptible(), progress_bar(f"suite {args.suite_command}: traces", args.json) as progress:
            outcome = replay_suite(source, engine, frozenset(args.skip), report, args.exitfirst, progress)
    except Interrupted as stop:
        print(f"rulecheck: stopped by {stop.name}: {SuiteResult(str(source), engine.name, tuple(done)).summary()}")
        return stop.exit_status
    finally:
        engine.close()
    if args.json:
        counts = {"replayed": len(outcome.results), "total": outcome.total}
        print(
            json.dumps(
                {"suite": str(source), "engine": engine.name, "passed": outcome.passed, "traces": shown} | counts
            )
        )
    else:
        print(outcome.summary())
    return 0 if outcome.passed else 1


def _divergence(result: TraceResult) -> dict[str, Any]:
    if result.divergence is None:
        return {"divergence": None}
    return {"divergence": attrs.asdict(result.divergence)}


def run_verify(args: argparse.Namespace) -> int:
    return _replay(args, open_engine(REFERENCE))


def run_replay(args: argparse.Namespace) -> int:
    return _replay(args, open_engine(args.engine, args.timeout, args.start_timeout))


def _add_replay_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("suite", metavar="FILE", help="the suite (JSON lines, one trace a line)")
    parser.add_argument(
        "--skip",
        action="append",
        default=[],
        choices=COMPARED,
        help="leave this comparison out; repeat it for several (`state` for an engine without rulecheck's state "
        "encoding; default: compare everything)",
    )
    parser.add_argument(
        "-x", "--exitfirst", action="store_true", help="stop at the first trace that diverges (as pytest -x does)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def add_commands(commands: Any) -> None:
    """The `suite` command and its sub-commands, on the command's sub-parsers."""
    suite = commands.add_parser(
        "suite", help="conformance suites for other implementations", description="conformance suites"
    )
    jobs = suite.add_subparsers(dest="suite_command", required=True, metavar="COMMAND")
    export = jobs.add_parser(
        "export",
        help="write a suite covering every clause reached, every option value and the findings' witnesses",
    )
    export.add_argument("game", choices=sorted(DECLARATIONS), help="the game (`rulecheck games` lists them)")
    export.add_argument(
        "--traces",
        type=at_least(1),
        default=DEFAULT_SEARCHED,
        help="clause-directed games to search, each kept if it adds a clause; the suite holds more traces: a game "
        "played to its end, one at each other player count and one under each other option value, which the "
        f"summary counts apart (default: {DEFAULT_SEARCHED})",
    )
    export.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    export.add_argument(
        "--players",
        type=at_least(1),
        help="search at this player count only (default: the campaign's player counts, and a game at every other)",
    )
    export.add_argument(
        "--max-steps",
        type=at_least(1),
        default=DEFAULT_MAX_STEPS,
        help=f"stop a game after this many actions (default: {DEFAULT_MAX_STEPS})",
    )
    export.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an option's value; repeat it for several options (default: each option's default)",
    )
    export.add_argument(
        "--data", metavar="FILE", help="the data set to play with, for a game that has one (default: the shipped one)"
    )
    export.add_argument(
        "--findings",
        type=path_named,
        metavar="DIR",
        help="a verify report folder: add the trace witnesses of this game's findings (default: add none)",
    )
    export.add_argument("--out", type=path_named, metavar="FILE", help=f"the suite file (default: GAME{SUITE_SUFFIX})")
    export.add_argument("--json", action="store_true", help="print one JSON object")
    export.set_defaults(run=run_export)

    verify = jobs.add_parser("verify", help="replay every trace on rulecheck's engine and report the first mismatch")
    _add_replay_flags(verify)
    verify.set_defaults(run=run_verify)

    replay = jobs.add_parser("replay", help="drive another engine over the engine protocol through every trace")
    _add_replay_flags(replay)
    replay.add_argument(
        "--engine",
        required=True,
        metavar="COMMAND",
        help="the engine: a command line speaking the protocol on stdin and stdout, or module:attribute in process",
    )
    replay.add_argument(
        "--timeout",
        type=positive_seconds,
        default=DEFAULT_TIMEOUT,
        help=f"seconds the engine may take to answer one request (default: {DEFAULT_TIMEOUT:g})",
    )
    replay.add_argument(
        "--start-timeout",
        type=positive_seconds,
        default=None,
        metavar="S",
        help="seconds a process engine may take to give its first answer, which includes its start "
        "(default: the --timeout)",
    )
    replay.set_defaults(run=run_replay)
