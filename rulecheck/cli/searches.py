"""The commands that search a game's play for issues: `fuzz` and `explore`.

Models: presentation of a fuzzing or exploration run (its size, the clauses it reached, each
issue with its witness), each issue's trace saved to `--traces DIR` as it is found, the start
of an exploration (the initial state, where a trace ends, or a scenario's position), and the
exit status: 1 when a promised property failed, 128 plus the signal's number when a signal
stopped the run.

Leaves out: fuzzing and exploring (rulecheck/check/search/).
"""

from __future__ import annotations

import argparse
import signal
import sys
import textwrap
from pathlib import Path
from typing import Any

from rulecheck.check.play.playthrough import DEFAULT_MAX_STEPS
from rulecheck.check.report.witnesses import IssueTraces
from rulecheck.check.running.signals import interruptible
from rulecheck.check.search.explore import ExploreError, explore
from rulecheck.check.search.fuzz import fuzz
from rulecheck.check.watch.generic import IssueReport
from rulecheck.cli.args import at_least, path_named, writable_folder
from rulecheck.cli.progress import progress_bar
from rulecheck.cli.scenarios import SCENARIO_SUFFIX, load
from rulecheck.cli.shared import (
    EXIT_FAILED,
    add_game_setup,
    command,
    finding_ids,
    game_from,
    issue_line,
    print_json,
    trace_game,
)
from rulecheck.core.errors import TraceError
from rulecheck.core.game import Game
from rulecheck.core.notation import Action
from rulecheck.core.trace import load_trace, replay
from rulecheck.core.words import counted
from rulecheck.registry import declaration

SPELLED_STEPS = 30
"""The most steps of a witness `fuzz` and `explore` print; a longer one is only counted."""
WIDTH = 100
"""The width a witness's actions are wrapped to."""
FUZZ_GAMES = 100
"""The games of `rulecheck fuzz` when given no --games."""


EXPLORE_STATES = 20000
"""The state limit of `rulecheck explore` when given neither --depth nor --states."""


def _print_issues(report: IssueReport, game: str, traces: IssueTraces | None, shrunk: bool = True) -> None:
    """The clauses a fuzz or explore run reached, and each issue, under the finding id the report
    gives it where the audit or ledger names one, with its witness's length (and whether it was
    shrunk) and where its trace was written; a short witness's actions too (`shrunk`: whether
    findings were shrunk, as violations always are)."""
    cov = report.issues_data()["coverage"]
    print(f"clauses reached: {cov['covered']} of {cov['total']}; never: {', '.join(cov['never_reached']) or '-'}")
    ids = finding_ids(game)
    for found in report.found:
        known = ids.get(found.issue.key)
        named = known is None or known in (found.issue.subject, *found.issue.clauses)
        finding = "" if named else f" (finding {known} in the report)"
        print(f"{'VIOLATED' if found.is_violation else 'found'} {issue_line(found.issue)}{finding}")
        actions = found.trace.actions
        length = counted(len(actions), "step") + (
            "" if shrunk or found.is_violation else ", not shrunk (--shrink-findings shrinks it)"
        )
        where = traces.path(found) if traces is not None else None
        saved = f"written to {where}" if where is not None else "--traces DIR writes it"
        if len(actions) > SPELLED_STEPS:
            print(f"    witness: {length}; {saved}")
            continue
        print(f"    witness: {length}; {saved}:")
        print(textwrap.fill("; ".join(actions), WIDTH, initial_indent=" " * 6, subsequent_indent=" " * 6))
    if not report.violations:
        print("no promised property failed")


def _issue_traces(args: argparse.Namespace) -> IssueTraces | None:
    """The `--traces` folder, checked before any work, where each issue's trace goes as it is found."""
    return IssueTraces(writable_folder(args.traces)) if args.traces is not None else None


def _finish(report: IssueReport, traces: IssueTraces | None) -> None:
    """Save each issue's final trace (a shrunk one over the first) and say whether a signal stopped the run."""
    if traces is not None:
        for found in report.found:
            traces.save(found)
        traces.check()  # a trace that could not be written: one line, exit 2
    if report.interrupted is not None:
        kept = f"; the traces of the issues found are in {traces.folder}" if traces is not None else ""
        print(f"rulecheck: stopped by {report.interrupted}: what ran is reported{kept}", file=sys.stderr)


def _exit_status(report: IssueReport) -> int:
    """128 plus the signal's number for a run a signal stopped (as a shell reports it), else 1
    when a promised property failed, else 0."""
    if report.interrupted is not None:
        return 128 + signal.Signals[report.interrupted]
    return EXIT_FAILED if report.violations else 0


def _fuzz(args: argparse.Namespace) -> int:
    traces = _issue_traces(args)
    game = game_from(args)
    with interruptible(), progress_bar(f"fuzz {game.name}: games", args.json) as progress:
        report = fuzz(
            game,
            declaration(game.name).properties,
            args.games,
            args.seed,
            args.max_steps,
            shrink_findings=args.shrink_findings,
            on_found=None if traces is None else traces.save,
            progress=progress,
        )
    _finish(report, traces)
    data = report.to_data()
    if args.json:
        print_json(data)
    else:
        print(
            f"{game.name}, {counted(game.players, 'player')}, seed {args.seed}: {counted(report.games, 'game')}, "
            f"{counted(report.steps, 'step')}, {report.capped} stopped at the step cap; played in all: "
            f"{counted(report.played_games, 'game')}, {counted(report.played_steps, 'step')}"
        )
        _print_issues(report, game.name, traces, shrunk=args.shrink_findings)
    return _exit_status(report)


def _explore_start(args: argparse.Namespace) -> tuple[Game[Any, Any], list[Action], Any]:
    """The game to explore, the actions to its start state and the state they start from (None:
    the initial state): nothing, the trace of --from, or the position of a scenario file."""
    if args.start is None:
        return game_from(args), [], None
    if args.players is not None or args.set:
        raise ExploreError("explore --from: the file sets the players and options; give no --players or --set")
    if Path(args.start).suffix == SCENARIO_SUFFIX:
        scenario = load(args.start, args.game)
        return scenario.game, [], scenario.state
    trace = load_trace(Path(args.start))
    if trace.game != args.game:
        raise TraceError(f"{args.start}: a trace of {trace.game}, not {args.game}")
    game = trace_game(trace, args)
    replay(game, trace)
    return game, [game.parse_action(text) for text in trace.actions], trace.first_state(game)


def _explore(args: argparse.Namespace) -> int:
    traces = _issue_traces(args)
    game, start, origin = _explore_start(args)
    states = EXPLORE_STATES if args.depth is None and args.states is None else args.states
    with interruptible(), progress_bar(f"explore {game.name}: states", args.json) as progress:
        report = explore(
            game,
            start,
            depth=args.depth,
            states=states,
            properties=declaration(game.name).properties,
            symmetry=not args.no_symmetry,
            on_found=None if traces is None else traces.save,
            origin=origin,
            progress=progress,
        )
    _finish(report, traces)
    data = report.to_data()
    if args.json:
        print_json(data)
    else:
        where = f" from step {len(start)} of {args.start}" if args.start else ""
        print(
            f"{game.name}, {counted(game.players, 'player')}{where}: {counted(report.states, 'state')}, "
            f"{counted(report.edges, 'edge')}, "
            f"depth {report.depth} reached, {'exhaustive' if report.exhaustive else 'not exhaustive'}"
        )
        print(
            f"{report.states_per_second:.0f} states/s over {report.seconds:.1f} s, "
            f"symmetry {'on' if report.symmetry else 'off'}; states by depth: {' '.join(map(str, report.levels))}"
        )
        _print_issues(report, game.name, traces)
    return _exit_status(report)


def add_commands(commands: Any) -> None:
    """`fuzz` and `explore`, on the command's sub-parsers."""
    fuzz_ = command(commands, "fuzz", _fuzz, "play random games with every property checked")
    add_game_setup(fuzz_)
    fuzz_.add_argument(
        "--games", type=at_least(1), default=FUZZ_GAMES, help=f"how many games, 1 or more (default: {FUZZ_GAMES})"
    )
    fuzz_.add_argument(
        "--max-steps",
        type=at_least(1),
        default=DEFAULT_MAX_STEPS,
        help=f"stop a game after this many actions, 1 or more (default: {DEFAULT_MAX_STEPS})",
    )
    fuzz_.add_argument(
        "--traces", type=path_named, metavar="DIR", help="write each issue's trace to this folder (default: write none)"
    )
    fuzz_.add_argument(
        "--shrink-findings",
        action="store_true",
        help="shrink every finding's trace as violations are shrunk (can take minutes per finding)",
    )

    explore_ = command(
        commands, "explore", _explore, "search every state breadth-first, to a depth or a number of states"
    )
    add_game_setup(explore_, seed=False)
    explore_.add_argument(
        "--depth",
        type=at_least(0),
        default=None,
        help="stop after this many levels, 0 for the start state alone (default: no depth limit)",
    )
    explore_.add_argument(
        "--states",
        type=at_least(1),
        default=None,
        help=f"stop at this many states, 1 or more (default: {EXPLORE_STATES} without --depth, else no state limit)",
    )
    explore_.add_argument(
        "--from",
        dest="start",
        metavar="FILE",
        help="start where this trace ends, or at this scenario's position (FILE.toml), with its players and options "
        "(default: the initial state)",
    )
    explore_.add_argument("--no-symmetry", action="store_true", help="do not merge states the game's symmetries relate")
    explore_.add_argument(
        "--traces",
        type=path_named,
        metavar="DIR",
        help="write each issue's witness trace to this folder (default: write none)",
    )
