"""Mutation benchmark: how many mutants of each game's rules its own conformance suite catches.

`python -m bench.mutation [--game G] [--sample N] [--seed S] [--workers W] [--traces T] [--out DIR] [--json]`

Measures, for each game: a suite exported from the unmutated engine (`rulecheck suite export`),
then every mutant that cosmic-ray (8.7) makes of the game's rule modules, or a seeded random
sample of N of them, replayed through the engine protocol: the test of a mutant is
`rulecheck suite replay SUITE --exitfirst --engine 'python -m rulecheck.suite.reference'`, the replaying side
running the unmutated code and only the engine the mutated copy. A mutant is
- incompetent when the mutated copy cannot even be imported (checked for every mutant not
  surviving; a broken engine restarted for each trace can also outlive the time limit);
- a timeout when the replay outlives its time limit (3 times the unmutated replay, 30 s at
  least) or the engine leaves a request unanswered (the replay's own `--timeout`): killed too;
- killed when the replay exits non-zero otherwise (some trace diverges);
- survived when every trace still agrees.
The score is (killed + timeout) / (killed + timeout + survived). Each survivor is told with its
diff and whether the suite reaches its line: the lines the unmutated engine runs while replaying
the suite are traced (in this process) before mutating. The cosmic-ray sessions (one SQLite file
per game, holding only the mutants run) and the suites are kept with `--out`, where `cr-report
--show-diff --surviving-only DIR/GAME.sqlite` and `cr-rate` read them.

Nothing is mutated in the work tree: rulecheck/, specs/ and properties/ are copied into a
temporary folder (specs/ and properties/ inside the copy's rulecheck/, as the package maps
them), once for the replaying side and the export, and once for each worker, whose copy
cosmic-ray mutates in place and restores after each mutant; every command runs with
PYTHONPATH set to its copy and `-P`, so that the work tree is never on its path.

Leaves out: the modules that are not rules (NOT_RULES says which and why); mutants inside
annotations that are never evaluated (of function signatures and of module-level or local
names, under `from __future__ import annotations`), counted but never run, since nothing can
tell them apart from the original; and deciding which survivors are equivalent to the
original, which takes a person reading each diff (docs say how the last run's survivors
were classified).
"""

from __future__ import annotations

import argparse
import ast
import compileall
import contextlib
import difflib
import importlib
import json
import math
import os
import py_compile
import queue
import random
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from pathlib import Path
from types import FrameType
from typing import Any, Final

from cosmic_ray.commands import init as cosmic_ray_init
from cosmic_ray.mutating import apply_mutation
from cosmic_ray.plugins import get_operator
from cosmic_ray.testing import run_tests
from cosmic_ray.util import restore_contents
from cosmic_ray.work_db import use_db
from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkItem, WorkResult

from rulecheck.registry import DECLARATIONS

ROOT: Final = Path(__file__).resolve().parents[1]
"""The checkout this benchmark belongs to: what is copied and mutated (never in place)."""
GAMES: Final = {name: d.game.__module__.split(".")[2] for name, d in sorted(DECLARATIONS.items())}
"""Each game's name and the package of its modules under rulecheck/games/."""
NOT_RULES: Final[dict[str, str]] = {
    "__init__.py": "the package's docstring",
    "position.py": "positions as scenario files write them (a suite's start positions are the codec's JSON)",
    "statements.py": "what the rulebook's text states, as Z3 constraints for the findings",
    "symbolic.py": "the invariants as symbolic systems for the prover",
    "tables.py": "the computed tables of the findings report",
    "analysis.py": "searches and measurements behind the findings' tables",
    "symmetry.py": "the board's rotations, read by the model checker's symmetry reduction, never by the protocol",
    "picture.py": "the pictures of a board or a position (`rulecheck board --draw`, `rulecheck show --draw`)",
    "bounds.py": "bounds on the final scores, for OpenSpiel's utility bounds; no protocol request reads them",
    "components.py": "the data-set format: checks that reject a malformed data file, and typed values built from it",
    "data.py": "the data-set format: checks that reject a malformed data file, and typed values built from it",
}
"""Modules of a game package that are not its rules, by file name, with why."""
NOT_RULES_OF: Final[dict[str, dict[str, str]]] = {
    "mechanica": {"board.py": "the board graph as `rulecheck board` shows it"},
}
"""Further modules that are not rules in one package (globetrotter's board.py is its rules' board)."""
MIN_TIMEOUT: Final = 30.0
TIMEOUT_FACTOR: Final = 3.0
REQUEST_TIMEOUT: Final = 10.0
"""Seconds the replay lets the engine take over one request (the replay's own default)."""
HUNG: Final = "gave no answer to"
"""What the replay says of an engine that left a request unanswered in time."""
TIMEOUT_OUTPUT: Final = "timeout"
"""What cosmic-ray records as the output of a test command it stopped at its timeout."""
OUTCOMES: Final = ("killed", "timeout", "incompetent", "survived")


def _family(operator: str) -> str:
    """The kind of a cosmic-ray operator: `core/ReplaceComparisonOperator_Lt_LtE` -> `comparison`."""
    name = operator.split("/")[-1]
    for prefix, family in (
        ("ReplaceComparisonOperator", "comparison"),
        ("ReplaceBinaryOperator", "binary operator"),
        ("ReplaceUnaryOperator", "unary operator"),
        ("NumberReplacer", "number"),
        ("RemoveDecorator", "decorator removed"),
        ("ZeroIterationForLoop", "loop never run"),
        ("ExceptionReplacer", "exception handler"),
    ):
        if name.startswith(prefix):
            return family
    if "Break" in name or "Continue" in name:
        return "break/continue"
    return "boolean"


def rule_modules(package: str, root: Path = ROOT) -> tuple[list[str], dict[str, str]]:
    """The rule modules of `package` in the checkout (or copy) `root`, as paths relative to it, and the
    excluded ones with why."""
    excluded = NOT_RULES | NOT_RULES_OF.get(package, {})
    modules, left_out = [], {}
    for path in sorted((root / "rulecheck" / "games" / package).glob("*.py")):
        relative = path.relative_to(root).as_posix()
        if path.name in excluded:
            left_out[relative] = excluded[path.name]
        else:
            modules.append(relative)
    return modules, left_out


def copy_checkout(destination: Path) -> Path:
    """rulecheck/ at `destination`, with specs/ and properties/ inside it as the packages it imports them as."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "rulecheck", destination / "rulecheck", ignore=ignore)
    shutil.copytree(ROOT / "specs", destination / "rulecheck" / "specs", ignore=ignore)
    shutil.copytree(ROOT / "properties", destination / "rulecheck" / "properties", ignore=ignore)
    shutil.copy2(ROOT / "pyproject.toml", destination / "pyproject.toml")
    # Hash-checked bytecode: a mutant written in the same second as its pristine .pyc, with the
    # same size (`<` for `>`), would otherwise run the pristine code.
    compileall.compile_dir(
        destination / "rulecheck", quiet=1, invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH
    )
    return destination


def python(copy: Path, *arguments: str) -> list[str]:
    """A command line running this Python on the code in `copy` alone (not the current folder)."""
    return ["env", f"PYTHONPATH={copy}", sys.executable, "-P", *arguments]


def replay_command(judge: Path, engine: Path, suite: Path) -> str:
    """The test of a mutant: the suite replayed by the code in `judge` on the engine in `engine`."""
    engine_line = shlex.join(python(engine, "-m", "rulecheck.suite.reference"))
    return shlex.join(
        python(judge, "-m", "rulecheck.cli", "suite", "replay", str(suite))
        + ["--exitfirst", "--timeout", f"{REQUEST_TIMEOUT:g}", "--engine", engine_line]
    )


def importable(copy: Path, timeout: float) -> bool:
    """Whether every game's modules in `copy` import (the registry imports them all); an import that
    outlives `timeout` hangs rather than fails, and counts as importable."""
    try:
        probe = subprocess.run(
            python(copy, "-c", "import rulecheck.registry"),
            capture_output=True,
            env=os.environ | {"PYTHONDONTWRITEBYTECODE": "1"},
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return True
    return probe.returncode == 0


def export(judge: Path, game: str, suite: Path, traces: int | None) -> dict[str, Any]:
    """The suite of `game` from the unmutated code, written to `suite`: its summary and the time taken."""
    more = [] if traces is None else ["--traces", str(traces)]
    started = time.monotonic()
    done = subprocess.run(
        python(judge, "-m", "rulecheck.cli", "suite", "export", game, "--out", str(suite), "--json", *more),
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise SystemExit(f"exporting the {game} suite failed:\n{done.stderr}")
    return {"summary": json.loads(done.stdout)["summary"], "seconds": round(time.monotonic() - started, 1)}


@contextlib.contextmanager
def _traced(directory: Path, seen: set[tuple[str, int]]) -> Iterator[None]:
    wanted = str(directory)

    def lines(frame: FrameType, event: str, _: Any) -> Any:
        if event == "line":
            seen.add((frame.f_code.co_filename, frame.f_lineno))
        return lines

    def calls(frame: FrameType, event: str, _: Any) -> Any:
        return lines if frame.f_code.co_filename.startswith(wanted) else None

    sys.settrace(calls)
    try:
        yield
    finally:
        sys.settrace(None)


def reached_lines(game: str, suite: Path) -> set[tuple[str, int]]:
    """(module path relative to the checkout, line) of every line of the game's modules that runs while
    our engine, in this process, replays `suite` (lines run at import are not among them)."""
    from rulecheck.suite.protocol import InProcessEngine
    from rulecheck.suite.reference import ReferenceEngine
    from rulecheck.suite.replay import replay_suite

    package = importlib.import_module(f"rulecheck.games.{GAMES[game]}")
    directory = Path(str(package.__file__)).resolve().parent
    seen: set[tuple[str, int]] = set()
    with _traced(directory, seen):
        outcome = replay_suite(suite, InProcessEngine(ReferenceEngine, "reference"))
    if not outcome.passed:
        raise SystemExit(f"the unmutated engine does not replay its own {game} suite: {outcome.summary()}")
    prefix = directory.parents[2]
    return {(Path(name).resolve().relative_to(prefix).as_posix(), line) for name, line in seen}


def _spans(node: ast.AST | None) -> Iterator[tuple[int, int, int, int]]:
    if node is not None and hasattr(node, "end_lineno"):
        yield (node.lineno, node.col_offset, node.end_lineno or node.lineno, node.end_col_offset or 0)


class _Layout(ast.NodeVisitor):
    """Where a module's never-evaluated annotations are, and the lines inside function bodies."""

    def __init__(self) -> None:
        self.annotations: list[tuple[int, int, int, int]] = []
        self.body_lines: set[int] = set()
        self._in_class = False

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        arguments = node.args
        for argument in arguments.posonlyargs + arguments.args + arguments.kwonlyargs:
            self.annotations += _spans(argument.annotation)
        for argument in (arguments.vararg, arguments.kwarg):
            if argument is not None:
                self.annotations += _spans(argument.annotation)
        self.annotations += _spans(node.returns)
        self.body_lines |= set(range(node.body[0].lineno, (node.end_lineno or node.lineno) + 1))
        in_class, self._in_class = self._in_class, False
        self.generic_visit(node)
        self._in_class = in_class

    visit_FunctionDef = _function
    visit_AsyncFunctionDef = _function

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self.body_lines |= set(range(node.lineno, (node.end_lineno or node.lineno) + 1))
        self.generic_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        in_class, self._in_class = self._in_class, True
        self.generic_visit(node)
        self._in_class = in_class

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if not self._in_class:  # a class's field annotations are resolved by attrs.resolve_types
            self.annotations += _spans(node.annotation)
        self.generic_visit(node)


def layout(source: str) -> _Layout:
    """A module's never-evaluated annotations (none without `from __future__ import annotations`, where a
    mutant there may fail at import) and its lines inside function bodies."""
    tree = ast.parse(source)
    found = _Layout()
    found.visit(tree)
    postponed = any(
        isinstance(node, ast.ImportFrom)
        and node.module == "__future__"
        and any(a.name == "annotations" for a in node.names)
        for node in tree.body
    )
    if not postponed:
        found.annotations = []
    lines = source.splitlines()
    # ast's columns count UTF-8 bytes, cosmic-ray's (parso's) characters
    found.annotations = [
        (a, _characters(lines[a - 1], b), c, _characters(lines[c - 1], d)) for a, b, c, d in found.annotations
    ]
    return found


def _characters(line: str, offset: int) -> int:
    return len(line.encode("utf-8")[:offset].decode("utf-8", "replace"))


def _inside(position: tuple[int, int], span: tuple[int, int, int, int]) -> bool:
    return (span[0], span[1]) <= position < (span[2], span[3])


def mutants(
    judge: Path, modules: list[str], layouts: dict[str, _Layout], session: Path
) -> tuple[list[WorkItem], list[WorkItem]]:
    """Every mutant cosmic-ray makes of `modules` (paths relative to `judge`), sorted, as (to run,
    inside never-evaluated annotations); `session` is the scratch work DB cosmic-ray enumerates into."""
    with contextlib.chdir(judge), use_db(str(session)) as database:
        cosmic_ray_init([Path(m) for m in modules], database, {})
        items = sorted(database.work_items, key=_order)
    session.unlink()
    run, skipped = [], []
    for item in items:
        mutation = item.mutations[0]
        spans = layouts[Path(mutation.module_path).as_posix()].annotations
        (skipped if any(_inside(tuple(mutation.start_pos), s) for s in spans) else run).append(item)
    return run, skipped


def _order(item: WorkItem) -> tuple[str, str, int]:
    mutation = item.mutations[0]
    return (Path(mutation.module_path).as_posix(), mutation.operator_name, mutation.occurrence)


def _diff(original: str, mutated: str, module: str) -> str:
    lines = difflib.unified_diff(
        original.split("\n"), mutated.split("\n"), fromfile=f"a/{module}", tofile=f"b/{module}", lineterm=""
    )
    return "\n".join(["--- mutation diff ---", *lines])


_PARSE_LOCK = threading.Lock()


def run_mutant(item: WorkItem, copy: Path, command: str, timeout: float) -> tuple[WorkResult, str, float]:
    """The mutant `item` made in `copy` (and undone), tested with `command`: cosmic-ray's result, our
    outcome (one of OUTCOMES, or `no-test`) and the seconds taken."""
    started = time.monotonic()
    mutation = item.mutations[0]
    operator = get_operator(mutation.operator_name)(**mutation.operator_args)
    path = copy / mutation.module_path
    with restore_contents(path):
        with _PARSE_LOCK:  # parso's caches are shared between the worker threads
            original, mutated = apply_mutation(path, operator, mutation.occurrence)
        if mutated is None:
            return WorkResult(worker_outcome=WorkerOutcome.NO_TEST), "no-test", time.monotonic() - started
        test, output = run_tests(command, timeout)
        if test == TestOutcome.SURVIVED:
            outcome = "survived"
        elif not importable(copy, timeout):  # before timeouts: restarting a broken engine for each trace takes long
            outcome, test = "incompetent", TestOutcome.INCOMPETENT
        elif output == TIMEOUT_OUTPUT or HUNG in output:
            outcome = "timeout"
        else:
            outcome = "killed"
    result = WorkResult(
        worker_outcome=WorkerOutcome.NORMAL,
        output=output,
        test_outcome=test,
        diff=_diff(original, mutated, Path(mutation.module_path).as_posix()),
    )
    return result, outcome, time.monotonic() - started


def _changed(diff: str) -> list[str]:
    return [
        line
        for line in diff.splitlines()
        if line[:1] in "+-" and not line.startswith(("+++", "---")) and line[1:].strip()
    ]


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a proportion."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))


def measure_game(
    game: str,
    work: Path,
    judge: Path,
    copies: list[Path],
    sample: int,
    seed: int,
    traces: int | None,
    progress: Callable[[str], None],
) -> dict[str, Any]:
    """The mutation benchmark of one game, its files under `work`; `sample` 0 runs every mutant."""
    started = time.monotonic()
    modules, excluded = rule_modules(GAMES[game], judge)
    suite = work / f"{game}.suite.jsonl"
    progress(f"{game}: exporting the suite")
    exported = export(judge, game, suite, traces)
    progress(f"{game}: tracing the lines the suite reaches")
    reached = reached_lines(game, suite)
    baseline_started = time.monotonic()
    test, output = run_tests(replay_command(judge, copies[0], suite), 600)
    baseline = time.monotonic() - baseline_started
    if test != TestOutcome.SURVIVED:
        raise SystemExit(f"the unmutated {game} engine fails its own suite:\n{output}")
    timeout = max(MIN_TIMEOUT, TIMEOUT_FACTOR * baseline)
    layouts = {m: layout((judge / m).read_text("utf-8")) for m in modules}
    runnable, in_annotations = mutants(judge, modules, layouts, work / f"{game}.all.sqlite")
    chosen = runnable if sample <= 0 or sample >= len(runnable) else random.Random(seed).sample(runnable, sample)
    chosen.sort(key=_order)
    progress(f"{game}: {len(runnable) + len(in_annotations)} mutants, {len(chosen)} to run, timeout {timeout:.0f} s")

    free: queue.Queue[Path] = queue.Queue()
    for copy in copies:
        free.put(copy)

    def job(item: WorkItem) -> tuple[WorkResult, str, float]:
        copy = free.get()
        try:
            return run_mutant(item, copy, replay_command(judge, copy, suite), timeout)
        finally:
            free.put(copy)

    counts: Counter[str] = Counter()
    rows: list[dict[str, Any]] = []
    seconds = 0.0
    run_started = time.monotonic()
    with use_db(str(work / f"{game}.sqlite")) as database, ThreadPoolExecutor(len(copies)) as pool:
        database.clear()
        database.add_work_items(chosen)
        futures: dict[Future[tuple[WorkResult, str, float]], WorkItem] = {pool.submit(job, i): i for i in chosen}
        try:
            for done, future in enumerate(as_completed(futures), start=1):
                item = futures[future]
                result, outcome, taken = future.result()
                database.set_result(item.job_id, result)
                counts[outcome] += 1
                seconds += taken
                mutation = item.mutations[0]
                module = Path(mutation.module_path).as_posix()
                line = int(mutation.start_pos[0])
                rows.append(
                    {
                        "module": module,
                        "line": line,
                        "function": mutation.definition_name,
                        "operator": mutation.operator_name.split("/")[-1],
                        "kind": _family(mutation.operator_name),
                        "outcome": outcome,
                        "reached": (module, line) in reached if line in layouts[module].body_lines else "import",
                        "change": _changed(result.diff or ""),
                        "seconds": round(taken, 1),
                    }
                )
                if done % 10 == 0 or done == len(chosen):
                    elapsed = time.monotonic() - run_started
                    left = elapsed / done * (len(chosen) - done)
                    tally = ", ".join(f"{counts[o]} {o}" for o in OUTCOMES if counts[o])
                    progress(f"{game}: {done}/{len(chosen)} ({tally}); about {left / 60:.0f} min left")
        except KeyboardInterrupt:
            pool.shutdown(cancel_futures=True)
            raise
    rows.sort(key=lambda r: (r["module"], r["line"], r["operator"]))
    detected = counts["killed"] + counts["timeout"]
    judged = detected + counts["survived"]
    low, high = wilson(detected, judged)
    per_mutant = seconds / max(1, len(chosen))
    return {
        "game": game,
        "modules": modules,
        "excluded": excluded,
        "suite": exported["summary"],
        "export_seconds": exported["seconds"],
        "baseline_replay_seconds": round(baseline, 1),
        "timeout_seconds": round(timeout),
        "mutants": len(runnable) + len(in_annotations),
        "in_annotations": len(in_annotations),
        "runnable": len(runnable),
        "sampled": len(chosen),
        "seed": seed,
        "outcomes": {o: counts[o] for o in (*OUTCOMES, "no-test")},
        "score": round(detected / judged, 4) if judged else None,
        "score_interval": [round(low, 4), round(high, 4)],
        "survivors_reached": sum(r["outcome"] == "survived" and r["reached"] is True for r in rows),
        "survivors_not_reached": sum(r["outcome"] == "survived" and r["reached"] is False for r in rows),
        "survivors_import_time": sum(r["outcome"] == "survived" and r["reached"] == "import" for r in rows),
        "seconds_per_mutant": round(per_mutant, 2),
        "wall_seconds": round(time.monotonic() - started),
        "full_run_estimate_seconds": round(per_mutant * len(runnable) / len(copies)),
        "mutants_run": rows,
    }


def _table(title: str, rows: list[dict[str, Any]], key: str) -> list[str]:
    groups: dict[str, Counter[str]] = {}
    for row in rows:
        groups.setdefault(row[key], Counter())[row["outcome"]] += 1
    width = max([len(title), *map(len, groups)])
    lines = [f"  {title:<{width}}  {'run':>4} {'killed':>6} {'timeout':>7} {'incomp.':>7} {'survived':>8}  score"]
    for name, counts in sorted(groups.items()):
        detected = counts["killed"] + counts["timeout"]
        judged = detected + counts["survived"]
        score = f"{detected / judged:6.1%}" if judged else "     -"
        lines.append(
            f"  {name:<{width}}  {sum(counts.values()):>4} {counts['killed']:>6} {counts['timeout']:>7}"
            f" {counts['incompetent']:>7} {counts['survived']:>8}  {score}"
        )
    return lines


def _minutes(seconds: float) -> str:
    return f"{int(seconds // 3600)}h{int(seconds % 3600 // 60):02d}m" if seconds >= 3600 else f"{seconds / 60:.1f} min"


def report(result: dict[str, Any], survivors: bool) -> None:
    """One game's result as text: the counts, the score, tables by module and by kind of mutant."""
    o = result["outcomes"]
    print(f"== {result['game']}")
    print(f"suite: {'; '.join(result['suite'][:3])} (exported in {result['export_seconds']} s)")
    left_out = ", ".join(Path(m).name for m in result["excluded"])
    print(f"modules: {len(result['modules'])} rule modules; left out: {left_out}")
    print(
        f"mutants: {result['mutants']} in all, {result['in_annotations']} inside never-evaluated annotations (not run),"
        f" {result['sampled']} of the other {result['runnable']} run (seed {result['seed']})"
    )
    print(
        f"killed {o['killed']}, timeout {o['timeout']}, incompetent {o['incompetent']}, survived {o['survived']}"
        + (f", no mutation made {o['no-test']}" if o["no-test"] else "")
    )
    if result["score"] is not None:
        low, high = result["score_interval"]
        print(f"score {result['score']:.1%} of the mutants that import (95% interval {low:.1%} to {high:.1%})")
    print(
        f"survivors: {result['survivors_reached']} on lines the suite runs, {result['survivors_not_reached']} on lines"
        f" it never runs, {result['survivors_import_time']} on lines run at import"
    )
    rows = result["mutants_run"]
    for line in _table("module", [r | {"module": Path(r["module"]).name} for r in rows], "module"):
        print(line)
    for line in _table("kind of mutant", rows, "kind"):
        print(line)
    print(
        f"time: {_minutes(result['wall_seconds'])} in all; baseline replay {result['baseline_replay_seconds']} s,"
        f" timeout {result['timeout_seconds']} s, {result['seconds_per_mutant']} s a mutant;"
        f" all {result['runnable']} would take about {_minutes(result['full_run_estimate_seconds'])}"
    )
    if survivors:
        for row in rows:
            if row["outcome"] == "survived":
                where = {True: "reached", False: "NOT reached", "import": "at import"}[row["reached"]]
                function = f" in {row['function']}" if row.get("function") else ""
                print(f"  survivor {Path(row['module']).name}:{row['line']}{function} {row['operator']} ({where})")
                for change in row["change"]:
                    print(f"      {change.strip()[:150]}")
    print()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.mutation", description="mutants of each game's rules caught by its conformance suite"
    )
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="this game only (repeatable)")
    parser.add_argument("--sample", type=int, default=100, help="mutants run per game, drawn at random (0: all)")
    parser.add_argument("--seed", type=int, default=0, help="the sample's random seed (default 0)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="mutants tested at once")
    parser.add_argument("--traces", type=int, help="the export's --traces (default: the export's own)")
    parser.add_argument("--out", metavar="DIR", help="keep the suites and cosmic-ray sessions here")
    parser.add_argument("--survivors", action="store_true", help="print each survivor's change")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    games = args.game or list(GAMES)

    def progress(message: str) -> None:
        print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)

    with tempfile.TemporaryDirectory(prefix="rulecheck-mutation-") as scratch:
        base = Path(scratch)
        work = Path(args.out) if args.out else base / "work"
        work.mkdir(parents=True, exist_ok=True)
        progress(f"copying the checkout for the replaying side and {args.workers} workers into {base}")
        judge = copy_checkout(base / "judge")
        sys.path.insert(0, str(judge))  # the lines traced in this process are the copy's, as the work tree may move on
        copies = [copy_checkout(base / f"worker-{n}") for n in range(max(1, args.workers))]
        results = [measure_game(g, work, judge, copies, args.sample, args.seed, args.traces, progress) for g in games]
    if args.json:
        print(json.dumps({"games": results}, indent=2))
        return
    for result in results:
        report(result, args.survivors)


if __name__ == "__main__":
    main()
