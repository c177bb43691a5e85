"""The `rulecheck` command: one entry point, a sub-command per job.

Models: argument parsing and presentation only. Every sub-command calls library code
and prints either readable text or, with `--json`, one JSON object. Errors that
rulecheck raises on purpose (bad options, illegal actions, broken files) become one
line on stderr and exit status 2, never a traceback; a failed property is exit 1.

Leaves out: any rule or check logic.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from importlib.metadata import version
from itertools import islice
from pathlib import Path
from typing import Any

import attrs

from rulecheck.check.campaign.jobs import Outcome, Task
from rulecheck.check.campaign.journal import FOLDER
from rulecheck.check.campaign.verify import BUDGETS, Recorded, verify
from rulecheck.check.play.playthrough import DEFAULT_MAX_STEPS, random_game
from rulecheck.check.positions.describe import clause_line, ending, mover_text, position_lines
from rulecheck.check.proofs.contradictions import ask
from rulecheck.check.proofs.game_proofs import WITNESS_GAMES, prove_game
from rulecheck.check.proofs.prove import PROVED
from rulecheck.check.proofs.symbolic_readings import DEPTH, divergences
from rulecheck.check.report.walkthrough import Walkthrough, walk
from rulecheck.check.report.witnesses import IssueTraces
from rulecheck.check.running.signals import Interrupted, interruptible
from rulecheck.check.search.explore import ExploreError, explore
from rulecheck.check.search.fuzz import fuzz
from rulecheck.check.search.readings import changed_options, first_divergence, reading_labels
from rulecheck.check.watch.generic import BROKEN_INVARIANT, Issue, IssueReport
from rulecheck.cli import scenarios, suites
from rulecheck.cli.args import at_least, writable_file, writable_folder
from rulecheck.cli.progress import progress_bar
from rulecheck.cli.scenarios import SCENARIO_SUFFIX
from rulecheck.core.data import DEFAULT_SOURCE
from rulecheck.core.errors import OptionError, RulecheckError, TraceError
from rulecheck.core.exact import readable
from rulecheck.core.game import Game
from rulecheck.core.notation import Action
from rulecheck.core.options import parse_assignments
from rulecheck.core.trace import Trace, load_trace, record, replay, replay_steps
from rulecheck.core.untrusted import clip
from rulecheck.model.picture import frame_name, picture_path, save_picture
from rulecheck.registry import DECLARATIONS, declaration, game_class, make_game

EXIT_FAILED = 1
EXIT_USAGE = 2
ERROR_LINE = 1000
"""The most characters of an error's line on stderr (a message that quotes input is cut shorter)."""


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, sort_keys=True))


def _format_facts(facts: dict[str, Any]) -> str:
    width = max(map(len, facts))
    return "\n".join(f"{key.ljust(width)}  {json.dumps(value)}" for key, value in facts.items())


def _game(args: argparse.Namespace) -> Game[Any, Any]:
    return make_game(args.game, args.players, parse_assignments(args.set), data=args.data)


def _trace_game(trace: Trace, args: argparse.Namespace, variant: Mapping[str, str] | None = None) -> Game[Any, Any]:
    """The game a trace was recorded in (with `variant` over its options): under `--data FILE`,
    or else the data file the trace names when it is still there, or else the default data
    (which a trace of the default data names as DEFAULT_SOURCE)."""
    data = args.data
    if data is None and trace.data is not None and trace.data[0] != DEFAULT_SOURCE and Path(trace.data[0]).is_file():
        data = trace.data[0]
    return make_game(trace.game, trace.players, dict(trace.options) | dict(variant or {}), data=data)


def _games(args: argparse.Namespace) -> int:
    rows: list[dict[str, Any]] = []
    for _, declared in sorted(DECLARATIONS.items()):
        cls = declared.game
        rows.append(
            {
                "name": cls.name,
                "version": cls.version,
                "players": [cls.min_players, cls.max_players],
                "options": len(cls.option_space.options),
                "clauses": len(declared.catalogue().clauses),
                "traits": attrs.asdict(cls.traits),
            }
        )
    if args.json:
        _print_json({"games": rows})
    else:
        for row in rows:
            low, high = row["players"]
            traits = row["traits"]
            print(
                f"{row['name']}  v{row['version']}  {low}-{high} players  "
                f"{row['options']} options  {row['clauses']} clauses  "
                f"({traits['chance']} chance, {traits['information']} information, {traits['dynamics']}, "
                f"{traits['outcome']})"
            )
    return 0


def _board(args: argparse.Namespace) -> int:
    """The board graph's facts; with --draw, a map of it, every space labelled."""
    target = picture_path(writable_file(args.draw)) if args.draw else None
    if target is not None and (args.json or args.adjacency):
        raise OptionError("--draw writes a map of the board; --json and --adjacency print its facts: give one")
    game = _game(args)
    if target is not None:
        save_picture(declaration(args.game).draw_board(game), target)
        print(f"{args.game} board map written to {target}")
        return 0
    view = declaration(args.game).board_view(game)
    facts = dict(view.facts)
    if args.adjacency:
        facts["adjacency"] = view.adjacency()
    if args.json:
        _print_json(facts)
    else:
        print(f"{args.game} board, {view.title}")
        print(_format_facts(facts))
    return 0


def _rules(args: argparse.Namespace) -> int:
    catalogue = declaration(args.game).catalogue()
    if args.json:
        _print_json(
            {
                "game": catalogue.game,
                "rulebook": catalogue.rulebook,
                "clauses": [{"id": c.id, "text": c.text, "lines": list(c.lines)} for c in catalogue.clauses],
            }
        )
    else:
        for c in catalogue.clauses:
            where = f"L{','.join(map(str, c.lines))}" if c.lines else "implicit"
            print(f"{c.id:7} {where:12} {c.text}")
    return 0


def _options(args: argparse.Namespace) -> int:
    space = game_class(args.game).option_space
    if args.json:
        _print_json(
            {
                "game": space.game,
                "options": [
                    {
                        "name": o.name,
                        "default": o.default,
                        "values": list(o.values),
                        "clauses": list(o.clauses),
                        "description": o.description,
                    }
                    for o in space.options
                ],
            }
        )
    else:
        for o in space.options:
            others = [v for v in o.values if v != o.default]
            print(f"{o.name} = {o.default}  (also: {', '.join(others)})  [{', '.join(o.clauses)}]")
            print(f"    {o.description}")
    return 0


def _play(args: argparse.Namespace) -> int:
    out = writable_file(args.out) if args.out else None
    game = _game(args)
    played = random_game(game, args.seed)
    trace = record(game, played.actions)
    if out is not None:
        trace.save(out)
    if args.json:
        _print_json(trace.to_data())
    else:
        ended = "ended" if game.is_terminal(played.states[-1]) else "stopped at the step cap"
        print(f"{game.name}, {game.players} players, seed {args.seed}: {len(played.actions)} actions, {ended}")
        print(ending(game, played.states[-1]))
        if args.out:
            print(f"trace written to {args.out}")
    return 0


SHOWN_STEPS = 12
"""The most steps of a witness `rulecheck replay` prints (the last ones: they lead to what it shows)."""


def _replay(args: argparse.Namespace) -> int:
    """Replay a trace with every check watching. A witness (a trace that says what it shows) is
    told as a story: its last steps and what each changed, what it shows at its last step, the
    clauses involved and the position there. Exit 1 when the engine is at fault (a promised
    property broke, or the engine raised) or a witness no longer shows its issue."""
    trace = load_trace(Path(args.file))
    game = _trace_game(trace, args)
    walked = walk(game, trace)
    defects = [issue for _, issue in walked.issues if issue.is_defect]
    lost = walked.shows is not None and walked.shown is None
    if args.json:
        _print_json({"file": args.file, "setup": game.setup} | walked.to_data())
    elif walked.shows is not None:
        _tell_witness(args.file, game, walked)
    else:
        print(f"{args.file}: {len(trace.actions)} steps replayed, every state as recorded")
        for step, issue in walked.issues:
            at = walked.steps[step - 1].action if step else "initial state"
            print(f"step {step} ({at}): {_issue_line(issue)}")
        if walked.steps:
            print(f"clauses the last step exercised: {', '.join(walked.steps[-1].clauses) or 'none'}")
        _print_position(len(walked.steps), walked.position)
        print(walked.standing)
    return EXIT_FAILED if defects or lost else 0


def _state_at(game: Game[Any, Any], trace: Trace, step: int) -> Any:
    """The state after `step` actions of `trace` (0: the state it starts from), each step checked."""
    state = trace.first_state(game)
    for _, _, state in islice(replay_steps(game, trace), step):
        pass
    return state


def _print_position(step: int, lines: Sequence[str], reading: str = "") -> None:
    """The position after `step`, one part a line (`reading` names the reading it is under)."""
    print(f"the position after step {step}{reading}:")
    for line in lines:
        print(f"  {line}")


def _tell_witness(file: str, game: Game[Any, Any], walked: Walkthrough) -> None:
    shows = walked.shows
    assert shows is not None
    options = ", ".join(f"{k}={v}" for k, v in game.options.items() if v != game.option_space.get(k).default)
    print(f"{file}: {game.name} v{game.version}, {game.players} players, {options or 'default options'}")
    shrunk = f", shrunk from {shows.shrunk_from}" if shows.shrunk_from and shows.shrunk_from > len(walked.steps) else ""
    print(f"a witness of a {shows.kind} ({shows.subject}): {len(walked.steps)} steps{shrunk}")
    hidden = max(0, len(walked.steps) - SHOWN_STEPS)
    if hidden:
        shown = f"`rulecheck show {shlex.quote(file)} --step K` prints the position after any step"
        print(f"  (steps 1 to {hidden} not shown: {shown})")
    for step in walked.steps[hidden:]:
        print(f"  {step.number:>4}  {mover_text(step.mover):9} {step.action}: {step.effect}")
    last = len(walked.steps)
    if walked.shown is None:
        print(f"at step {last} it NO LONGER SHOWS: {shows.kind}: {shows.message}")
    else:
        print(f"at step {last} it shows: {_issue_line(walked.shown)}")
    print("clauses involved:")
    for clause in walked.cited:
        print(f"  {clause_line(clause)}")
    _print_position(last, walked.position)
    print(walked.standing)
    if declaration(game.name).picture is not None:
        print(f"to draw it: rulecheck show {shlex.quote(file)} --step {last} --draw position.png")
    others = walked.others
    if others:
        kinds = Counter(issue.kind for _, issue in others)
        listed = ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items()))
        print(f"other issues on the way: {listed} (`rulecheck replay --json` lists them)")


def _show(args: argparse.Namespace) -> int:
    """The state after step K of a trace (0: the initial state), as canonical JSON; with --draw, a
    picture of it; with --frames, a picture of every step."""
    target = picture_path(writable_file(args.draw)) if args.draw else None
    if args.frames is not None and args.draw:
        raise OptionError("--draw FILE pictures one step (--step K); --frames DIR pictures every step: give one")
    frames = writable_folder(args.frames) if args.frames is not None else None
    trace = load_trace(Path(args.file))
    game = _trace_game(trace, args)
    if args.step is not None and args.step > len(trace.actions):
        raise TraceError(f"{args.file}: --step {args.step}: the trace has steps 0 to {len(trace.actions)}")
    if args.player is not None and args.player >= game.players:
        raise OptionError(f"--player {args.player}: the game has players 0 to {game.players - 1}")
    declared = declaration(game.name)
    state = trace.first_state(game)
    if frames is not None:
        first = declared.draw(game, state, args.player)  # a game without pictures stops here, before the folder is made
        frames.mkdir(parents=True, exist_ok=True)
        save_picture(first, frames / frame_name(0, len(trace.actions)))
        for step, (_, _, state) in enumerate(replay_steps(game, trace), start=1):
            save_picture(declared.draw(game, state, args.player), frames / frame_name(step, len(trace.actions)))
        print(f"{args.file}: {len(trace.actions) + 1} pictures, steps 0 to {len(trace.actions)}, written to {frames}")
        return 0
    state = _state_at(game, trace, args.step)
    if target is not None:
        save_picture(declared.draw(game, state, args.player), target)
        print(f"step {args.step} of {args.file}: picture written to {target}")
    else:
        _print_json(json.loads(game.encode_state(state)))
    return 0


def _print_issues(report: IssueReport, spell_out: bool) -> None:
    """The clauses a fuzz or explore run reached, and each issue with its witness (every action
    of it when `spell_out`, else its length)."""
    cov = report.issues_data()["coverage"]
    print(f"clauses reached: {cov['covered']} of {cov['total']}; never: {', '.join(cov['never_reached']) or '-'}")
    for found in report.found:
        print(f"{'VIOLATED' if found.is_violation else 'found'} {_issue_line(found.issue)}")
        actions = found.trace.actions
        print(f"    {len(actions)} steps: {'; '.join(actions)}" if spell_out else f"    witness: {len(actions)} steps")
    if not report.violations:
        print("no promised property failed")


def _issue_line(issue: Issue) -> str:
    clauses = f" [{', '.join(issue.clauses)}]" if issue.clauses else ""
    if issue.kind == BROKEN_INVARIANT:
        note = "" if issue.promised else " (not promised under these options)"
        return f"{issue.subject} broken{note}: {issue.message}{clauses}"
    return f"{issue.kind}: {issue.message}{clauses}"


def _compare(args: argparse.Namespace) -> int:
    trace = load_trace(Path(args.file))
    base = _trace_game(trace, args)
    variant = _variant(trace, args, base)
    changed = changed_options(base, variant)
    replay(base, trace)
    found = first_divergence(base, variant, [base.parse_action(text) for text in trace.actions], trace.start)
    cited = [clause for name in changed for clause in base.option_space.get(name).clauses]
    catalogue = base.catalogue()
    if args.json:
        _print_json(
            {
                "trace": args.file,
                "base": {name: base.options[name] for name in changed},
                "variant": {name: variant.options[name] for name in changed},
                "divergence": None if found is None else found.to_data(),
                "clauses": cited,
            }
        )
    elif found is None:
        print(f"no difference along the {len(trace.actions)} steps")
    else:
        where = f"after {trace.actions[found.step - 1]}" if found.step else "the initial state"
        print(f"at step {found.step} ({where}): {found}")
        print("clauses the option reads:")
        for clause_id in cited:
            print(f"  {clause_line(catalogue.get(clause_id))}")
        lines = position_lines(base, _state_at(base, trace, found.step))
        _print_position(found.step, lines, f", under {reading_labels(base, variant).base}")
    return 0


def _variant(trace: Trace, args: argparse.Namespace, base: Game[Any, Any]) -> Game[Any, Any]:
    """The game of `compare --set` over the trace's; OptionError for a value the trace already has
    (the variant would be the base, and compare would find no difference by construction)."""
    chosen = parse_assignments(args.set)
    variant = _trace_game(trace, args, chosen)
    for name, value in chosen.items():
        if variant.options[name] == base.options[name]:
            raise OptionError(
                f"compare --set {name}={value}: the trace already has {name}={base.options[name]}; give another value"
            )
    return variant


def _issue_traces(args: argparse.Namespace) -> IssueTraces | None:
    """The `--traces` folder, checked before any work, where each issue's trace goes as it is found."""
    return IssueTraces(writable_folder(args.traces)) if args.traces else None


def _finish(report: IssueReport, traces: IssueTraces | None) -> None:
    """Save each issue's final trace (a shrunk one over the first) and say whether a signal stopped the run."""
    if traces is not None:
        for found in report.found:
            traces.save(found)
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
    game = _game(args)
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
        _print_json(data)
    else:
        print(
            f"{game.name}, {game.players} players, seed {args.seed}: {report.games} games, {report.steps} steps, "
            f"{report.capped} stopped at the step cap; played in all: {report.played_games} games, "
            f"{report.played_steps} steps"
        )
        _print_issues(report, spell_out=True)
    return _exit_status(report)


DEFAULT_OUT = "report"
"""The report folder of `rulecheck verify` when given neither --out nor --resume."""

FUZZ_GAMES = 100
"""The games of `rulecheck fuzz` when given no --games."""

DEFAULT_BUDGET = "quick"
"""The budget of `rulecheck verify` when given no --budget."""

EXPLORE_STATES = 20000
"""The state limit of `rulecheck explore` when given neither --depth nor --states."""


def _explore_start(args: argparse.Namespace) -> tuple[Game[Any, Any], list[Action], Any]:
    """The game to explore, the actions to its start state and the state they start from (None:
    the initial state): nothing, the trace of --from, or the position of a scenario file."""
    if args.start is None:
        return _game(args), [], None
    if args.players is not None or args.set:
        raise ExploreError("explore --from: the file sets the players and options; give no --players or --set")
    if Path(args.start).suffix == SCENARIO_SUFFIX:
        scenario = scenarios.load(args.start, args.game)
        return scenario.game, [], scenario.state
    trace = load_trace(Path(args.start))
    if trace.game != args.game:
        raise TraceError(f"{args.start}: a trace of {trace.game}, not {args.game}")
    game = _trace_game(trace, args)
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
        _print_json(data)
    else:
        where = f" from step {len(start)} of {args.start}" if args.start else ""
        print(
            f"{game.name}, {game.players} players{where}: {report.states} states, {report.edges} edges, "
            f"depth {report.depth} reached, {'exhaustive' if report.exhaustive else 'not exhaustive'}"
        )
        print(
            f"{report.states_per_second:.0f} states/s over {report.seconds:.1f} s, "
            f"symmetry {'on' if report.symmetry else 'off'}; states by depth: {' '.join(map(str, report.levels))}"
        )
        _print_issues(report, spell_out=False)
    return _exit_status(report)


def _prove(args: argparse.Namespace) -> int:
    folder = writable_folder(args.traces) if args.traces else None
    game = _game(args)
    with progress_bar(f"prove {game.name}: systems", args.json) as progress:
        proofs = prove_game(game, args.seed, args.witness_games, progress)
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
        for proof in proofs:
            if proof.witness is not None:
                proof.witness.save(folder / f"{proof.result.property.replace(' ', '-')}.json")
    if args.json:
        _print_json({"setup": game.setup, "results": [p.to_data() for p in proofs]})
    else:
        for p in proofs:
            r = p.result
            note = "" if p.promised else "  (not promised under these options)"
            print(f"{r.status:8} {r.seconds:6.3f}s  {r.basis:10}  {r.property} [{', '.join(r.clauses)}]{note}")
            if r.counterexample is not None:
                print(f"    induction fails at step {r.counterexample['step']}")
            if r.run is not None:
                print(f"    reachable in {len(r.run) - 1} steps: {' -> '.join(s['step'] for s in r.run)}")
            if p.witness is not None:
                print(f"    concrete trace: {len(p.witness.actions)} actions")
            for mismatch in p.refinement_mismatches[:3]:
                print(f"    refinement mismatch: {mismatch}")
    failed = [p for p in proofs if p.promised and p.result.status != PROVED]
    return EXIT_FAILED if failed else 0


def _symbolic_compare(args: argparse.Namespace) -> int:
    """Where the engine's guards and effects part between the game's options and those with
    `--variant` applied over them, by Z3 on each symbolic system both declare."""
    base = _game(args)
    variant = make_game(base.name, base.players, dict(base.options) | parse_assignments(args.variant), data=args.data)
    declared = declaration(base.name)
    found = divergences(declared.symbolic_systems(base), declared.symbolic_systems(variant))
    labels = reading_labels(base, variant)
    if args.json:
        _print_json(
            {"setup": base.setup, "variant": dict(variant.options), "divergences": [d.to_data() for d in found]}
        )
    else:
        for parted in found:
            print(f"parts: {parted.describe(labels.base, labels.variant)} [{', '.join(parted.clauses)}]")
            print(f"    run: {' -> '.join(step['step'] for step in parted.run)}")
        if not found:
            print(f"no symbolic system parts {labels.base} from {labels.variant} within {DEPTH} steps")
    return 0


def _contradictions(args: argparse.Namespace) -> int:
    facts = declaration(args.game).statement_set(_game(args))
    answers = ask(facts)
    if args.json:
        _print_json(
            {
                "game": args.game,
                "statements": [
                    {"id": s.id, "clauses": list(s.clauses), "text": s.text, "reading": s.reading}
                    for s in facts.statements()
                ],
                "answers": [a.to_data() for a in answers],
            }
        )
    else:
        for a in answers:
            if a.consistent:
                print(f"consistent    {a.title}; witness: {json.dumps(a.witness)}")
            else:
                print(f"CONTRADICTION {a.title}: {', '.join(a.core)} cannot all hold [{', '.join(a.clauses)}]")
    return 0


def _verify(args: argparse.Namespace) -> int:
    """The main job: every check on every game, a findings report in `--out`. Exit 1 only when
    an engine self-check failed; findings are the output, not a failure. Each task's outcome is
    in the journal as it arrives; a signal stops the run, and `--resume DIR` finishes it."""
    if args.resume is not None and args.out is not None and Path(args.resume) != Path(args.out):
        raise OptionError(f"verify --out {args.out} --resume {args.resume}: the campaign resumed writes its own folder")
    workers = _workers(args)
    out = writable_folder(args.resume or args.out or DEFAULT_OUT)
    ledgers = writable_folder(args.ledgers) if args.ledgers else None
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
        print(f"\n{verdict.resumed} tasks' outcomes were read back from {out / FOLDER}")
    files = f"{out / 'findings.md'}, {out / 'findings.html'} and {out / 'findings.json'}"
    print(f"\nfindings: {files}, {len(verdict.findings)} findings")
    width = max((len(kind) for counts in verdict.data["summary"].values() for kind in counts), default=4)
    for game, counts in verdict.data["summary"].items():
        for kind, count in counts.items():
            print(f"  {game}  {kind.ljust(width)}  {count}")
    for recorded in verdict.ledgers:
        print(_ledger_line(recorded, out))
    for defect in verdict.defects:
        print(f"ENGINE SELF-CHECK FAILED: {defect}")
    return EXIT_FAILED if verdict.defects else 0


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


def _ledger_line(recorded: Recorded, out: Path) -> str:
    ledger = recorded.ledger
    ids = f" ({', '.join(e.id for e in recorded.added)})" if recorded.added else ""
    new = f"{len(recorded.added)} new finding id{'' if len(recorded.added) == 1 else 's'}{ids}"
    if not ledger.beside_report:
        return f"ledger: {new} appended to {ledger.target}"
    return (
        f"ledger: specs/{ledger.file} is read-only here, so the updated ledger ({new}) is {ledger.target}; "
        f"verify --out {out} reads it again, and copying it over specs/{ledger.file} keeps the ids for good"
    )


def _table_names() -> str:
    """Each game's tables by name, for `table --help`."""
    listed = [f"{name}: {', '.join(sorted(d.tables))}" for name, d in sorted(DECLARATIONS.items()) if d.tables]
    return "; ".join(listed)


def _table(args: argparse.Namespace) -> int:
    game = _game(args)
    with progress_bar(f"table {args.game} {args.name}", args.json) as progress:
        table = declaration(args.game).table(args.name, game, progress)
    if args.json:
        _print_json(table.to_data() | {"shows": [{"predicate": name, "seen": seen} for name, seen in table.shows()]})
    else:
        print(f"{table.title} [{', '.join(table.clauses)}]")
        rows = [table.columns, *(tuple(map(readable, row)) for row in table.rows)]
        widths = [max(len(str(row[i])) for row in rows) for i in range(len(table.columns))]
        for row in rows:
            print("  ".join(str(v).ljust(w) for v, w in zip(row, widths)).rstrip())
        for name, seen in table.shows():
            print(f"shows ({name}): {seen}")
    return 0


def _add_data(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data",
        metavar="FILE",
        help="the data set (cards, layouts) to play with, for a game that has one (default: the game's shipped one)",
    )


def _add_game_setup(parser: argparse.ArgumentParser, seed: bool = True, games: Iterable[str] | None = None) -> None:
    _add_game(parser, games)
    parser.add_argument(
        "--players", type=int, default=None, metavar="N", help="number of players (default: the game's minimum)"
    )
    if seed:
        parser.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    _add_set(parser, "choose an option's value")
    _add_data(parser)


def _add_game(parser: argparse.ArgumentParser, games: Iterable[str] | None = None) -> None:
    parser.add_argument(
        "game", choices=sorted(DECLARATIONS if games is None else games), help="the game (`rulecheck games` lists them)"
    )


def _add_set(parser: argparse.ArgumentParser, what: str, default: str = "each option's default") -> None:
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=f"{what}; repeat it for several options (default: {default}; `rulecheck options GAME` lists them)",
    )


def _add_scenario(parser: argparse.ArgumentParser) -> None:
    _add_game(parser)
    parser.add_argument("--from", dest="start", metavar="FILE.toml", required=True, help="the scenario file")
    _add_set(parser, "an option value over the file's", default="the file's options")
    parser.add_argument(
        "--sweep", action="store_true", help="the answer under every value of every option, and which make a difference"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rulecheck", description="Rules verification for board games.")
    parser.add_argument("--version", action="version", version=f"rulecheck {version('rulecheck')}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, run: Callable[[argparse.Namespace], int], help: str, json_flag: bool = True) -> Any:
        sub = commands.add_parser(name, help=help, description=help)
        if json_flag:
            sub.add_argument("--json", action="store_true", help="print one JSON object")
        sub.set_defaults(run=run)
        return sub

    command("games", _games, "list the modelled games")

    board = command("board", _board, "facts of a game's board graph under its options and data")
    _add_game_setup(board, seed=False, games=[name for name, d in DECLARATIONS.items() if d.board is not None])
    board.add_argument("--adjacency", action="store_true", help="also list each node's neighbours")
    board.add_argument(
        "--draw",
        metavar="FILE.png|FILE.svg",
        help="write a map of the board, every space labelled, as PNG or SVG by the suffix (globetrotter; "
        "default: print the board's facts)",
    )

    _add_game(command("rules", _rules, "a game's rule clauses"))
    _add_game(command("options", _options, "a game's options with defaults and values"))

    play = command("play", _play, "play one random game and record it as a trace")
    _add_game_setup(play)
    play.add_argument("--out", metavar="FILE", help="write the trace to this file (default: write none)")

    replay_ = command("replay", _replay, "replay a trace file, checking every state and property")
    replay_.add_argument("file", help="the trace file (JSON, as play --out or a finding's witness writes it)")
    _add_data(replay_)

    show = command(
        "show", _show, "the state at one step of a trace, or a picture of it (--draw, --frames)", json_flag=False
    )
    show.add_argument("file", help="the trace file")
    steps = show.add_mutually_exclusive_group(required=True)
    steps.add_argument(
        "--step",
        type=at_least(0),
        help="how many actions into the trace (0: the initial state); this or --frames, no default",
    )
    steps.add_argument(
        "--frames",
        metavar="DIR",
        help="write a picture of every step into DIR (step-000.png, ...); this or --step, no default",
    )
    show.add_argument(
        "--draw",
        metavar="FILE.png|FILE.svg",
        help="write a picture of the state at --step K, PNG or SVG by the suffix (default: print the state as JSON)",
    )
    show.add_argument(
        "--player",
        type=at_least(0),
        default=None,
        help="whose part to draw, from 0, in a game that pictures one player's part (default: the player to move)",
    )
    _add_data(show)

    compare = command("compare", _compare, "the first state along a trace where other option values play differently")
    compare.add_argument("file", help="the trace file")
    compare.add_argument(
        "--set",
        action="append",
        required=True,
        metavar="NAME=VALUE",
        help="an option value of the variant, other than the trace's (repeat it for several options)",
    )
    _add_data(compare)

    fuzz_ = command("fuzz", _fuzz, "play random games with every property checked")
    _add_game_setup(fuzz_)
    fuzz_.add_argument(
        "--games", type=at_least(1), default=FUZZ_GAMES, help=f"how many games, 1 or more (default: {FUZZ_GAMES})"
    )
    fuzz_.add_argument(
        "--max-steps",
        type=at_least(1),
        default=DEFAULT_MAX_STEPS,
        help=f"stop a game after this many actions, 1 or more (default: {DEFAULT_MAX_STEPS})",
    )
    fuzz_.add_argument("--traces", metavar="DIR", help="write each issue's trace to this folder (default: write none)")
    fuzz_.add_argument(
        "--shrink-findings",
        action="store_true",
        help="shrink every finding's trace as violations are shrunk (can take minutes per finding)",
    )

    explore_ = command("explore", _explore, "search every state breadth-first, to a depth or a number of states")
    _add_game_setup(explore_, seed=False)
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
        "--traces", metavar="DIR", help="write each issue's witness trace to this folder (default: write none)"
    )

    prove_ = command("prove", _prove, "prove each invariant with Z3, or refute it with a bounded run")
    _add_game_setup(prove_)
    prove_.add_argument(
        "--witness-games",
        type=at_least(0),
        default=WITNESS_GAMES,
        help="random games to search for each refutation's concrete trace when its symbolic system has none, "
        f"0 to search none (default: {WITNESS_GAMES})",
    )
    prove_.add_argument(
        "--traces", metavar="DIR", help="write each refutation's concrete trace to this folder (default: write none)"
    )

    symbolic = command(
        "symbolic-compare",
        _symbolic_compare,
        "where the engine's guards and effects part between two readings, by Z3 on the symbolic systems",
    )
    _add_game_setup(symbolic, seed=False)
    symbolic.add_argument(
        "--variant",
        action="append",
        required=True,
        metavar="NAME=VALUE",
        help="an option value of the other reading (repeat it for several options)",
    )

    contradictions = command(
        "contradictions", _contradictions, "rulebook statements that cannot all hold, with unsat cores"
    )
    _add_game_setup(contradictions, seed=False)

    table = command("table", _table, "a table the engine computes about a rulebook (odds, counts, searches)")
    _add_game_setup(table, seed=False)
    table.add_argument("name", help=f"the table: {_table_names()}")

    legal_ = command("legal", scenarios.run_legal, "the legal actions in a scenario's position, with their clauses")
    _add_scenario(legal_)
    apply_ = command("apply", scenarios.run_apply, "what one action does in a scenario's position: clause or outcomes")
    _add_scenario(apply_)
    apply_.add_argument("action", help="the action, in canonical notation (quote it: 'move T1 T2')")

    scenario = commands.add_parser(
        "scenario", help="edge-case suites of scenario files", description="edge-case suites"
    )
    cases = scenario.add_subparsers(dest="scenario_command", required=True, metavar="COMMAND")
    check_ = cases.add_parser("check", help="check every case of scenario files and folders against its answers")
    check_.add_argument(
        "targets", nargs="+", metavar="FILE_OR_FOLDER", help="scenario files, or folders whose scenario files to check"
    )
    check_.add_argument("--json", action="store_true", help="print one JSON object")
    check_.set_defaults(run=scenarios.run_check)
    new = cases.add_parser("new", help="write the position at a step of a trace as a scenario file")
    _add_game(new)
    new.add_argument(
        "--from", dest="start", metavar="TRACE", required=True, help="the trace (a finding's witness, say)"
    )
    new.add_argument(
        "--step",
        type=at_least(0),
        help="how many actions into the trace (default: the position before its last action)",
    )
    new.add_argument("--out", metavar="FILE.toml", help="write it to this file (default: print it)")
    new.add_argument(
        "--sweep", action="store_true", help="also expect the answer under each option value that changes it"
    )
    new.set_defaults(run=scenarios.run_new)

    suites.add_commands(commands)

    verify_ = command("verify", _verify, "the main job: every check on every game, and the findings report", False)
    verify_.add_argument(
        "--out",
        metavar="DIR",
        help=f"folder for findings.json, findings.md, witnesses/ and the journal (default: {DEFAULT_OUT})",
    )
    verify_.add_argument(
        "--resume",
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
        metavar="DIR",
        help="the folder of the finding-id ledgers to read and append to (default: the package's specs folder)",
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
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except RulecheckError as exc:
        print(f"rulecheck: {clip(str(exc), ERROR_LINE)}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # the reader (say, `head`) stopped reading
        sys.stderr.close()
        return 0
