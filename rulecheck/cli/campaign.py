"""The main job's command: `verify`.

Models: presentation of a verify campaign: a line for each finished task, the findings report's
files with a summary per game and kind, the new findings whose ids are the run's only, the new
finding ids appended to the user's ledgers (`--ledgers`), and any engine self-check
that failed (exit 1); how many local processes run it, or a Dask cluster; and, when a signal
stops it, where its journal is and the command that finishes it. What it is given is checked
before the campaign touches its folder: a `--resume` folder that holds no journal, a
`--ledgers` folder that is not there, a Dask scheduler that cannot be reached.

Leaves out: the campaign itself (rulecheck/check/campaign/).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rulecheck.check.campaign.jobs import Outcome, Task
from rulecheck.check.campaign.journal import FOLDER
from rulecheck.check.campaign.verify import BUDGETS, Recorded, check_output, verify
from rulecheck.check.report.findings import Finding
from rulecheck.check.running.parallel import check_dask
from rulecheck.check.running.signals import Interrupted, interruptible
from rulecheck.cli.args import at_least, path_named, writable_folder
from rulecheck.cli.progress import progress_bar
from rulecheck.cli.shared import EXIT_FAILED, command
from rulecheck.core.errors import OptionError
from rulecheck.core.options import parse_assignments
from rulecheck.core.words import counted
from rulecheck.registry import DECLARATIONS

DEFAULT_OUT = "report"
"""The report folder of `rulecheck verify` when given neither --out nor --resume."""


DEFAULT_BUDGET = "quick"
"""The budget of `rulecheck verify` when given no --budget."""


def _verify(args: argparse.Namespace) -> int:
    """The main job: every check on every game, a findings report in `--out`. Exit 1 only when
    an engine self-check failed; findings are the output, not a failure. Each task's outcome is
    in the journal as it arrives; a signal stops the run, and `--resume DIR` finishes it."""
    if args.resume is not None and args.out is not None and Path(args.resume) != Path(args.out):
        raise OptionError(f"verify --out {args.out} --resume {args.resume}: the campaign resumed writes its own folder")
    workers = _workers(args)
    _check_folders(args)
    if args.dask is not None:
        check_dask(args.dask)  # before the campaign touches its folder
    out = writable_folder(args.resume or args.out or DEFAULT_OUT)
    check_output(out)
    ledgers = writable_folder(args.ledgers) if args.ledgers is not None else None
    start = time.perf_counter()

    try:
        with interruptible(), progress_bar("verify: tasks") as bar:

            def progress(done: int, total: int, task: Task, outcome: Outcome) -> None:
                bar(done, total)
                print(_task_line(done, total, time.perf_counter() - start, task, outcome), flush=True)

            verdict = verify(
                out,
                BUDGETS[args.budget],
                workers=workers,
                dask=args.dask,
                games=args.game or None,
                progress=progress,
                ledgers=ledgers,
                data=parse_assignments(args.data),
                resume=args.resume is not None,
            )
    except Interrupted as stop:
        print(
            f"rulecheck: stopped by {stop.name}: every finished task's outcome is in {out / FOLDER}; "
            f"rulecheck verify --resume {out} (with the same options) finishes the campaign",
            file=sys.stderr,
        )
        return stop.exit_status
    if verdict.resumed:
        print(f"\nthe outcomes of {counted(verdict.resumed, 'task')} were read back from {out / FOLDER}")
    files = f"{out / 'findings.md'}, {out / 'findings.html'} and {out / 'findings.json'}"
    print(f"\nfindings: {files}, {counted(len(verdict.findings), 'finding')}")
    width = max((len(kind) for counts in verdict.data["summary"].values() for kind in counts), default=4)
    for game, counts in verdict.data["summary"].items():
        for kind, count in counts.items():
            print(f"  {game}  {kind.ljust(width)}  {count}")
    if (provisional := _provisional_line(verdict.findings)) is not None:
        print(provisional)
    for recorded in verdict.ledgers:
        print(_ledger_line(recorded))
    for defect in verdict.defects:
        print(f"ENGINE SELF-CHECK FAILED: {defect}")
    return EXIT_FAILED if verdict.defects else 0


def _check_folders(args: argparse.Namespace) -> None:
    """OptionError unless `--resume` names a folder holding a campaign's journal and `--ledgers` a
    folder: neither falls back to a new campaign or to the package's ledgers."""
    if args.resume is not None:
        if not os.path.isdir(args.resume):
            raise OptionError(f"verify --resume {args.resume}: no such folder; nothing to resume")
        if not os.path.isdir(Path(args.resume) / FOLDER):
            raise OptionError(
                f"verify --resume {args.resume}: holds no campaign journal ({Path(args.resume) / FOLDER}); "
                "nothing to resume"
            )
    if args.ledgers is not None and not os.path.isdir(args.ledgers):
        raise OptionError(f"verify --ledgers {args.ledgers}: no such folder")


def _task_line(done: int, total: int, elapsed: float, task: Task, outcome: Outcome) -> str:
    """The log line of a finished task of `verify`."""
    found = f", {len(outcome.evidence)} evidence" if outcome.evidence else ""
    defects = f", {len(outcome.defects)} DEFECTS" if outcome.defects else ""
    return f"[{done:>{len(str(total))}}/{total} {elapsed:6.1f}s] {task} ({outcome.seconds:.1f}s{found}{defects})"


def _workers(args: argparse.Namespace) -> int:
    """The local processes of `verify`: --workers, or one per CPU; 1 under --dask, whose cluster's
    workers run the tasks (OptionError for --workers given with --dask)."""
    if args.dask is not None:
        if args.workers is not None:
            raise OptionError(
                f"verify --workers {args.workers} --dask {args.dask}: the Dask cluster's workers run the tasks; "
                "give one or the other"
            )
        return 1
    return args.workers if args.workers is not None else os.cpu_count() or 1


def _ledger_line(recorded: Recorded) -> str:
    count, ids = len(recorded.added), ", ".join(e.id for e in recorded.added)
    return f"ledger: {count} new finding id{'' if count == 1 else 's'} ({ids}) appended to {recorded.ledger.target}"


def _provisional_line(findings: Sequence[Finding]) -> str | None:
    """The line naming the new findings whose ids are this run's only, or None when there are none."""
    ids = [f.id for f in findings if f.provisional]
    if not ids:
        return None
    return (
        f"new findings: {', '.join(ids)} are this run's ids only; rulecheck verify --ledgers DIR gives new "
        "findings ids kept in DIR"
    )


def add_commands(commands: Any) -> None:
    """`verify`, on the command's sub-parsers."""
    verify_ = command(
        commands, "verify", _verify, "the main job: every check on every game, and the findings report", False
    )
    verify_.add_argument(
        "--out",
        type=path_named,
        metavar="DIR",
        help=f"folder for findings.json, findings.md, witnesses/ and the journal (default: {DEFAULT_OUT})",
    )
    verify_.add_argument(
        "--resume",
        type=path_named,
        metavar="DIR",
        help="finish the campaign an interrupted run left in DIR (its --out), running only the tasks its journal lacks "
        "(default: start a new campaign)",
    )
    verify_.add_argument(
        "--budget",
        choices=sorted(BUDGETS),
        default=DEFAULT_BUDGET,
        help=f"how much each check runs (default: {DEFAULT_BUDGET})",
    )
    verify_.add_argument(
        "--game",
        action="append",
        default=[],
        choices=sorted(DECLARATIONS),
        help="check only this game (repeat for several; default: every game)",
    )
    verify_.add_argument(
        "--ledgers",
        type=path_named,
        metavar="DIR",
        help="the folder of your finding-id ledgers, read with the shipped ones and appended to with the ids of "
        "new findings (default: none; the shipped ledgers are only read, and a new finding gets an id of this run "
        "only)",
    )
    verify_.add_argument(
        "--workers",
        type=at_least(1),
        default=None,
        metavar="N",
        help="run the tasks in this many local processes, 1 or more; not with --dask (default: one per CPU)",
    )
    verify_.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="run the tasks on the workers of the Dask scheduler at ADDRESS instead of local processes "
        "(default: local processes; needs rulecheck[dask])",
    )
    verify_.add_argument(
        "--data",
        action="append",
        default=[],
        metavar="GAME=FILE",
        help="play GAME with the data set in FILE; repeat it for several games (default: each game's shipped one)",
    )
