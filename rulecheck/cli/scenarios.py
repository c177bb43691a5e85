"""The scenario commands: `legal`, `apply`, `scenario check` and `scenario new`.

Models: presentation of what the rules allow in a scenario's position (the legal actions, or
what one action or a chain of them does, after each), under its own options or, with
`--sweep`, under every value of every option (the options whose values change the answer,
each value with its answer, then the options that make no difference here); the pass or fail
of each case of the files and folders named (folders read with their sub-folders, TOML files
without a `format` key skipped and listed), with its difference (exit 1 when a case fails, 2
when a file is broken, after every file was checked; a path that is not there is refused
first); the scenario file for the position a trace reaches at one of its steps; and these
commands' arguments.

Leaves out: reading scenario files (rulecheck/check/positions/scenario.py) and asking
(rulecheck/check/positions/ask.py).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from itertools import islice
from pathlib import Path
from typing import Any

from rulecheck.check.positions.ask import (
    Swept,
    Verdict,
    chain_data,
    check,
    effect_data,
    expectation,
    legal,
    legal_texts,
    sweep,
)
from rulecheck.check.positions.describe import mover_text
from rulecheck.check.positions.effect_text import effect_lines
from rulecheck.check.positions.scenario import (
    Scenario,
    load_scenario,
    names_a_format,
    parse_scenario,
    scenario_path,
    scenario_text,
)
from rulecheck.cli.args import at_least, path_named, writable_file
from rulecheck.cli.shared import EXIT_FAILED, EXIT_USAGE, add_game, add_set, command
from rulecheck.core.data import DEFAULT_SOURCE
from rulecheck.core.errors import RulecheckError, ScenarioError, TraceError
from rulecheck.core.files import write_whole
from rulecheck.core.options import parse_assignments
from rulecheck.core.trace import load_trace, replay_steps
from rulecheck.core.untrusted import clip
from rulecheck.core.words import counted
from rulecheck.registry import make_game

SCENARIO_SUFFIX = ".toml"


def load(path: str, game: str, assignments: Sequence[str] = ()) -> Scenario:
    """The scenario in `path`, which must be one of `game`, with `--set` values over its options."""
    scenario = load_scenario(Path(path), parse_assignments(assignments))
    if scenario.game.name != game:
        raise ScenarioError(f"{path}: a scenario of {scenario.game.name}, not {game}")
    return scenario


def _scenario(args: argparse.Namespace) -> Scenario:
    return load(args.start, args.game, args.set)


def _print(data: Any) -> None:
    print(json.dumps(data, indent=2, sort_keys=True))


def _print_sweep(found: Sequence[Swept], show: Callable[[Any], list[str]]) -> None:
    for swept in found:
        if swept.differs:
            print(f"{swept.option} changes the answer here:")
            for values, answer in swept.answers:
                print(f"  under {', '.join(f'{swept.option}={v}' for v in values)}:")
                for line in show(answer):
                    print(f"    {line}")
    same = [swept.option for swept in found if not swept.differs]
    print(f"no difference here: {', '.join(same) or '-'}")


def _sweep_data(found: Sequence[Swept]) -> dict[str, Any]:
    return {
        "differ": [
            {"option": s.option, "answers": [{"values": list(v), "answer": a} for v, a in s.answers]}
            for s in found
            if s.differs
        ],
        "same": [s.option for s in found if not s.differs],
    }


def run_legal(args: argparse.Namespace) -> int:
    """The legal actions in a scenario's position, each with its clauses; --sweep: under every
    reading, said as what the mover may also or may no longer do under each other value."""
    scenario = _scenario(args)
    if args.sweep:
        found, texts = sweep(scenario, legal_texts), legal_texts(scenario)
        if args.json:
            _print({"scenario": args.start, "legal": texts, "sweep": _sweep_data(found)})
        else:
            who = mover_text(scenario.game.to_move(scenario.state))
            print(
                f"{args.start}: {counted(len(texts), 'legal action')} under its options: {', '.join(texts) or 'none'}"
            )
            _print_sweep(found, lambda answer: _legal_apart(who, texts, answer))
        return 0
    allowed = legal(scenario)
    if args.json:
        _print({"scenario": args.start, "legal": [a.to_data() for a in allowed]})
    else:
        for item in allowed:
            print(f"{item.action}  [{', '.join(item.clauses)}]" if item.clauses else item.action)
        if not allowed:
            print("no legal action")
    return 0


def _legal_apart(who: str, texts: Sequence[str], answer: Any) -> list[str]:
    """A swept answer against the file's own: what `who` may also do, and may no longer do."""
    if not isinstance(answer, list):
        return [answer]
    gained = [a for a in answer if a not in texts]
    lost = [a for a in texts if a not in answer]
    lines = [f"{who} may also {', '.join(gained)}"] if gained else []
    lines += [f"{who} may no longer {', '.join(lost)}"] if lost else []
    return lines or ["the same actions as under the file's options"]


def run_apply(args: argparse.Namespace) -> int:
    """What the actions do in turn in a scenario's position (after each, the positions reached so
    far); --sweep: under every reading."""
    scenario = _scenario(args)
    found = chain_data(scenario, args.actions)
    swept = sweep(scenario, effect_data(args.actions)) if args.sweep else None
    if args.json:
        if swept is None:
            _print({"scenario": args.start} | found)
        else:
            _print({"scenario": args.start, "effect": found, "sweep": _sweep_data(swept)})
        return 0
    for line in effect_lines(found, grouped=not args.every_outcome):
        print(line)
    if swept is not None:
        _print_sweep(swept, lambda answer: [answer] if isinstance(answer, str) else effect_lines(answer))
    return 0


def scenario_files(targets: Sequence[str]) -> tuple[list[Path], list[Path]]:
    """The scenario files named, and those in the folders named and their sub-folders, each
    folder's in order of path; and the `*.toml` files of those folders that are not scenario files
    (no `format` key: a data set beside its scenarios), which are skipped. A path under
    `scenarios/` that is not there names the shipped scenarios (scenario_path); each file is
    named under the path as given. ScenarioError for a path that is not there, or when no
    scenario file is found."""
    files: list[Path] = []
    skipped: list[Path] = []
    for target in map(Path, targets):
        real = scenario_path(target)
        if real.is_dir():
            found = [target / path.relative_to(real) for path in sorted(real.rglob(f"*{SCENARIO_SUFFIX}"))]
            files += [path for path in found if names_a_format(path)]
            skipped += [path for path in found if not names_a_format(path)]
        elif real.exists():
            files.append(target)
        else:
            raise ScenarioError(f"{target}: not found")
    if not files:
        raise ScenarioError(f"no scenario file in {', '.join(targets)}")
    return files, skipped


def run_check(args: argparse.Namespace) -> int:
    """Every case of the files and folders named against its expected answers: exit 1 if one
    fails, 2 if a file is broken (it cannot be read as a scenario, or expects nothing); every
    file is checked either way."""
    results: list[dict[str, Any]] = []
    files, skipped = scenario_files(args.targets)
    for path in files:
        try:
            scenario = load_scenario(path)
            verdicts: list[Verdict] = list(check(scenario))
            if not verdicts:
                raise ScenarioError(f"{path}: expects nothing: give it an [expect] table")
        except RulecheckError as exc:
            broken = {"passed": False, "broken": True, "difference": [clip(str(exc))]}
            results.append({"case": str(path), "options": {}} | broken)
            continue
        results += [
            {
                "case": str(path),
                "options": dict(v.options),
                "passed": v.passed,
                "broken": False,
                "difference": list(v.difference),
            }
            for v in verdicts
        ]
    broken = sum(r["broken"] for r in results)
    failed = sum(not r["passed"] for r in results) - broken
    passed = len(results) - failed - broken
    if args.json:
        read = {"files": [str(f) for f in files], "skipped": [str(f) for f in skipped]}
        _print({"cases": results, "passed": passed, "failed": failed, "broken": broken} | read)
    else:
        for result in results:
            under = " ".join(f"{k}={v}" for k, v in result["options"].items())
            print(f"{'pass' if result['passed'] else 'FAIL'}  {result['case']}{f'  under {under}' if under else ''}")
            for line in result["difference"]:
                print(f"      {line}")
        for path in skipped:
            print(f"skip  {path}  (no format key: not a scenario file)")
        tally = f"{passed} passed, {failed} failed" + (f", {broken} broken" if broken else "")
        print(f"{tally}, in {counted(len(files), 'scenario file')}")
    return EXIT_USAGE if broken else EXIT_FAILED if failed else 0


def run_new(args: argparse.Namespace) -> int:
    """The position at step K of a trace, as a scenario file to edit, with the answer there as its
    expected answer: by default the position before the trace's last action, expecting what that
    action does (a finding's witness shows its point at its last step); at the last step, the
    legal actions. With --sweep, also the answer under each option value that changes it."""
    out = writable_file(args.out) if args.out is not None else None
    trace = load_trace(Path(args.start))
    if trace.game != args.game:
        raise TraceError(f"{args.start}: a trace of {trace.game}, not {args.game}")
    step = max(len(trace.actions) - 1, 0) if args.step is None else args.step
    if step > len(trace.actions):
        raise TraceError(f"{args.start}: --step {step}: the trace has steps 0 to {len(trace.actions)}")
    data = None if trace.data is None or trace.data[0] == DEFAULT_SOURCE else trace.data[0]
    game = make_game(trace.game, trace.players, dict(trace.options), data=data)
    state = trace.first_state(game)
    for _, _, state in islice(replay_steps(game, trace), step):
        pass
    action = trace.actions[step] if step < len(trace.actions) else None
    title = f"Step {step} of {Path(args.start).name}" + (f", before {action}" if action else ", its end")
    question = f"What {action} does here" if action else "What may be done here"
    source = str(out) if out is not None else "<new scenario>"
    beside = None if data is None else os.path.relpath(data, Path(source).parent)  # a scenario names data beside it
    written = parse_scenario(scenario_text(game, state, title, question, beside), source)  # reads back as written
    expect = expectation(written, action, args.sweep)
    text = scenario_text(game, state, title, question, beside, expect)
    if out is None:
        sys.stdout.write(text)
    else:
        write_whole(out, text)
        print(f"step {step} of {args.start} written to {out} as a scenario")
    return 0


def _add_scenario_arguments(parser: argparse.ArgumentParser) -> None:
    add_game(parser)
    parser.add_argument("--from", dest="start", metavar="FILE.toml", required=True, help="the scenario file")
    add_set(parser, "an option value over the file's", default="the file's options")
    parser.add_argument(
        "--sweep", action="store_true", help="the answer under every value of every option, and which make a difference"
    )


def add_commands(commands: Any) -> None:
    """`legal`, `apply` and `scenario` with its sub-commands, on the command's sub-parsers."""
    legal_ = command(commands, "legal", run_legal, "the legal actions in a scenario's position, with their clauses")
    _add_scenario_arguments(legal_)
    apply_ = command(
        commands, "apply", run_apply, "what actions do in turn in a scenario's position: clause or outcomes"
    )
    _add_scenario_arguments(apply_)
    apply_.add_argument(
        "actions",
        nargs="+",
        metavar="ACTION",
        help="the action, in canonical notation (quote it: 'move T1 T2'); several are applied in turn, each in "
        "every position the one before led to, and the positions reached after each are printed",
    )
    apply_.add_argument(
        "--every-outcome",
        action="store_true",
        help="list every outcome on its own line (default: outcomes that differ in one part only, such as the "
        "card a refill drew, on one line with their count and total probability)",
    )

    scenario = commands.add_parser(
        "scenario", help="edge-case suites of scenario files", description="edge-case suites"
    )
    cases = scenario.add_subparsers(dest="scenario_command", required=True, metavar="COMMAND")
    check_ = cases.add_parser("check", help="check every case of scenario files and folders against its answers")
    check_.add_argument(
        "targets",
        nargs="+",
        metavar="FILE_OR_FOLDER",
        help="scenario files, or folders whose scenario files (sub-folders too) to check",
    )
    check_.add_argument("--json", action="store_true", help="print one JSON object")
    check_.set_defaults(run=run_check)
    new = cases.add_parser("new", help="write the position at a step of a trace as a scenario file")
    add_game(new)
    new.add_argument(
        "--from", dest="start", metavar="TRACE", required=True, help="the trace (a finding's witness, say)"
    )
    new.add_argument(
        "--step",
        type=at_least(0),
        help="how many actions into the trace (default: the position before its last action)",
    )
    new.add_argument("--out", type=path_named, metavar="FILE.toml", help="write it to this file (default: print it)")
    new.add_argument(
        "--sweep", action="store_true", help="also expect the answer under each option value that changes it"
    )
    new.set_defaults(run=run_new)
