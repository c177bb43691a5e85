"""The commands on one game's trace: `play`, `replay`, `show` and `compare`.

Models: presentation of a random game recorded as a trace; a trace replayed with every check
watching, and a witness told as a story (its last steps, what it shows, the clauses involved,
the position there); the state at one step of a trace, as JSON or a picture; and the first
state along a trace where other option values play differently, in the game's words.

Leaves out: replaying and checking (rulecheck/check/report/walkthrough.py,
rulecheck/check/search/readings.py) and drawing (rulecheck/model/picture.py).
"""

from __future__ import annotations

import argparse
import json
import shlex
from collections import Counter
from collections.abc import Sequence
from itertools import islice
from pathlib import Path
from typing import Any

from rulecheck.check.play.playthrough import random_game
from rulecheck.check.positions.describe import clause_line, ending, mover_text, position_lines
from rulecheck.check.report.walkthrough import Walkthrough, walk
from rulecheck.check.report.words import steps_words
from rulecheck.check.search.readings import changed_options, first_divergence, reading_labels
from rulecheck.cli.args import at_least, path_named, writable_file, writable_folder
from rulecheck.cli.shared import (
    EXIT_FAILED,
    add_data,
    add_game_setup,
    command,
    game_from,
    issue_line,
    print_json,
    trace_game,
)
from rulecheck.core.errors import OptionError, TraceError
from rulecheck.core.game import Game
from rulecheck.core.options import parse_assignments
from rulecheck.core.trace import Trace, load_trace, record, replay, replay_steps
from rulecheck.core.words import counted, noun
from rulecheck.model.picture import Moment, frame_name, picture_path, save_picture
from rulecheck.registry import declaration


def _play(args: argparse.Namespace) -> int:
    out = writable_file(args.out) if args.out is not None else None
    game = game_from(args)
    played = random_game(game, args.seed)
    trace = record(game, played.actions)
    if out is not None:
        trace.save(out)
    if args.json:
        print_json(trace.to_data())
    else:
        ended = "ended" if game.is_terminal(played.states[-1]) else "stopped at the step cap"
        actions = counted(len(played.actions), "action")
        print(f"{game.name}, {counted(game.players, 'player')}, seed {args.seed}: {actions}, {ended}")
        print(ending(game, played.states[-1]))
        if args.out is not None:
            print(f"trace written to {args.out}")
    return 0


SHOWN_STEPS = 12
"""The most steps of a witness `rulecheck replay` prints (the last ones: they lead to what it shows)."""
SHOWN_ISSUES = 3
"""The most issues of one kind `rulecheck replay` prints of a trace that is not a witness (the first ones)."""


def _replay(args: argparse.Namespace) -> int:
    """Replay a trace with every check watching. A witness (a trace that says what it shows) is
    told as a story: its last steps and what each changed, what it shows at its last step, the
    clauses involved and the position there. Exit 1 when the engine is at fault (a promised
    property broke, or the engine raised) or a witness no longer shows its issue."""
    trace = load_trace(Path(args.file))
    game = trace_game(trace, args)
    walked = walk(game, trace)
    defects = [issue for _, issue in walked.issues if issue.is_defect]
    lost = walked.shows is not None and walked.shown is None
    if args.json:
        print_json({"file": args.file, "setup": game.setup} | walked.to_data())
    elif walked.shows is not None:
        _tell_witness(args.file, game, walked)
    else:
        print(f"{args.file}: {counted(len(trace.actions), 'step')} replayed, every state as recorded")
        _print_issues(walked)
        if walked.steps:
            print(f"clauses the last step exercised: {', '.join(walked.steps[-1].clauses) or 'none'}")
        _print_position(len(walked.steps), walked.position)
        print(walked.standing)
    return EXIT_FAILED if defects or lost else 0


def _print_issues(walked: Walkthrough) -> None:
    """The issues a replay met, in order of step, at most SHOWN_ISSUES of each kind; the rest of a
    kind counted on one line, with the steps they span."""
    by_kind = Counter(issue.kind for _, issue in walked.issues)
    shown: Counter[str] = Counter()
    for step, issue in walked.issues:
        shown[issue.kind] += 1
        if shown[issue.kind] <= SHOWN_ISSUES:
            at = walked.steps[step - 1].action if step else "initial state"
            print(f"step {step} ({at}): {issue_line(issue)}")
    for kind, count in by_kind.items():
        if count > SHOWN_ISSUES:
            steps = [step for step, issue in walked.issues if issue.kind == kind][SHOWN_ISSUES:]
            more = f"{count - SHOWN_ISSUES} more {noun(count - SHOWN_ISSUES, f'{kind} issue')}"
            print(f"... and {more}, at steps {steps[0]} to {steps[-1]} (`rulecheck replay --json` lists each)")


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
    options = ", ".join(f"{k}={v}" for k, v in game.options.text.items() if v != game.option_space.get(k).default)
    print(f"{file}: {game.name} v{game.version}, {counted(game.players, 'player')}, {options or 'default options'}")
    print(f"a witness of a {shows.kind} ({shows.subject}): {steps_words(len(walked.steps), shows.shrunk_from)}")
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
        print(f"at step {last} it shows: {issue_line(walked.shown)}")
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
    target = picture_path(writable_file(args.draw)) if args.draw is not None else None
    if args.frames is not None and args.draw:
        raise OptionError("--draw FILE pictures one step (--step K); --frames DIR pictures every step: give one")
    frames = writable_folder(args.frames) if args.frames is not None else None
    trace = load_trace(Path(args.file))
    game = trace_game(trace, args)
    if args.step is not None and args.step > len(trace.actions):
        raise TraceError(f"{args.file}: --step {args.step}: the trace has steps 0 to {len(trace.actions)}")
    if args.player is not None and args.player >= game.players:
        raise OptionError(f"--player {args.player}: the game has players 0 to {game.players - 1}")
    declared = declaration(game.name)
    state = trace.first_state(game)
    source = Path(args.file).name
    if frames is not None:
        # a game without pictures stops at the first, before the folder is made
        first = declared.draw(game, state, args.player, Moment(0, source))
        frames.mkdir(parents=True, exist_ok=True)
        save_picture(first, frames / frame_name(0, len(trace.actions)))
        for step, (_, _, state) in enumerate(replay_steps(game, trace), start=1):
            picture = declared.draw(game, state, args.player, Moment(step, source))
            save_picture(picture, frames / frame_name(step, len(trace.actions)))
        pictures = counted(len(trace.actions) + 1, "picture")
        print(f"{args.file}: {pictures}, steps 0 to {len(trace.actions)}, written to {frames}")
        return 0
    state = _state_at(game, trace, args.step)
    if target is not None:
        save_picture(declared.draw(game, state, args.player, Moment(args.step, source)), target)
        print(f"step {args.step} of {args.file}: picture written to {target}")
    else:
        print_json(json.loads(game.encode_state(state)))
    return 0


def _compare(args: argparse.Namespace) -> int:
    trace = load_trace(Path(args.file))
    base = trace_game(trace, args)
    variant = _variant(trace, args, base)
    changed = changed_options(base, variant)
    replay(base, trace)
    found = first_divergence(base, variant, [base.parse_action(text) for text in trace.actions], trace.start)
    cited = [clause for name in changed for clause in base.option_space.get(name).clauses]
    catalogue = base.catalogue()
    if args.json:
        print_json(
            {
                "trace": args.file,
                "base": {name: base.options.text[name] for name in changed},
                "variant": {name: variant.options.text[name] for name in changed},
                "divergence": None if found is None else found.to_data(),
                "clauses": cited,
            }
        )
    elif found is None:
        print(f"no difference along the {counted(len(trace.actions), 'step')}")
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
    variant = trace_game(trace, args, chosen)
    for name, value in chosen.items():
        if variant.options.text[name] == base.options.text[name]:
            raise OptionError(
                f"compare --set {name}={value}: the trace already has {name}={base.options.text[name]}; "
                "give another value"
            )
    return variant


def add_commands(commands: Any) -> None:
    """`play`, `replay`, `show` and `compare`, on the command's sub-parsers."""
    play = command(commands, "play", _play, "play one random game and record it as a trace")
    add_game_setup(play)
    play.add_argument(
        "--out", type=path_named, metavar="FILE", help="write the trace to this file (default: write none)"
    )

    replay_ = command(commands, "replay", _replay, "replay a trace file, checking every state and property")
    replay_.add_argument("file", help="the trace file (JSON, as play --out or a finding's witness writes it)")
    add_data(replay_)

    show = command(
        commands,
        "show",
        _show,
        "the state at one step of a trace, or a picture of it (--draw, --frames)",
        json_flag=False,
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
        type=path_named,
        metavar="DIR",
        help="write a picture of every step into DIR (step-000.png, ...); this or --step, no default",
    )
    show.add_argument(
        "--draw",
        type=path_named,
        metavar="FILE.png|FILE.svg",
        help="write a picture of the state at --step K, PNG or SVG by the suffix (default: print the state as JSON)",
    )
    show.add_argument(
        "--player",
        type=at_least(0),
        default=None,
        help="whose part to draw, from 0, in a game that pictures one player's part (default: the player to move)",
    )
    add_data(show)

    compare = command(
        commands, "compare", _compare, "the first state along a trace where other option values play differently"
    )
    compare.add_argument("file", help="the trace file")
    compare.add_argument(
        "--set",
        action="append",
        required=True,
        metavar="NAME=VALUE",
        help="an option value of the variant, other than the trace's (repeat it for several options)",
    )
    add_data(compare)
