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
import sys
from collections.abc import Callable, Sequence
from importlib.metadata import version
from pathlib import Path
from typing import Any

from rulecheck.check.api import ApiViolation, check_play
from rulecheck.check.campaign import WITNESS_GAMES, prove_game
from rulecheck.check.contradictions import ask
from rulecheck.check.fuzz import fuzz
from rulecheck.check.play import random_game
from rulecheck.check.properties import failures, load_properties
from rulecheck.check.prove import PROVED
from rulecheck.core.errors import RulecheckError
from rulecheck.core.game import Game
from rulecheck.core.options import parse_assignments
from rulecheck.core.trace import load_trace, record, replay_steps
from rulecheck.games import GAMES, game_class, game_part, make_game
from rulecheck.geometry.facts import board_facts
from rulecheck.geometry.planet import DEFAULT_REMOVAL, REMOVALS, label_order, planet

EXIT_FAILED = 1
EXIT_USAGE = 2

BOARD_GAMES = ("globetrotter",)
"""Games whose board is a graph computed from geometry."""


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, sort_keys=True))


def _format_facts(facts: dict[str, Any]) -> str:
    width = max(map(len, facts))
    return "\n".join(f"{key.ljust(width)}  {json.dumps(value)}" for key, value in facts.items())


def _game(args: argparse.Namespace) -> Game[Any, Any]:
    return make_game(args.game, args.players, parse_assignments(args.set))


def _games(args: argparse.Namespace) -> int:
    rows = [
        {
            "name": cls.name,
            "version": cls.version,
            "players": [cls.min_players, cls.max_players],
            "options": len(cls.option_space.options),
            "clauses": len(cls.catalogue().clauses),
        }
        for _, cls in sorted(GAMES.items())
    ]
    if args.json:
        _print_json({"games": rows})
    else:
        for row in rows:
            low, high = row["players"]
            print(
                f"{row['name']}  v{row['version']}  {low}-{high} players  "
                f"{row['options']} options  {row['clauses']} clauses"
            )
    return 0


def _board(args: argparse.Namespace) -> int:
    board = planet(args.removal)
    facts = board_facts(board)
    if args.adjacency:
        facts["adjacency"] = {s: sorted(board.graph[s], key=label_order) for s in board.spaces}
    if args.json:
        _print_json(facts)
    else:
        print(f"{args.game} board, removal {args.removal}: {REMOVALS[args.removal].description}")
        print(_format_facts(facts))
    return 0


def _rules(args: argparse.Namespace) -> int:
    catalogue = game_class(args.game).catalogue()
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
    game = _game(args)
    played = random_game(game, args.seed)
    trace = record(game, played.actions)
    if args.out:
        trace.save(Path(args.out))
    if args.json:
        _print_json(trace.to_data())
    else:
        ended = "ended" if game.is_terminal(played.states[-1]) else "stopped at the step cap"
        print(f"{game.name}, {game.players} players, seed {args.seed}: {len(played.actions)} actions, {ended}")
        if args.out:
            print(f"trace written to {args.out}")
    return 0


def _replay(args: argparse.Namespace) -> int:
    trace = load_trace(Path(args.file))
    game = make_game(trace.game, trace.players, dict(trace.options))
    properties = load_properties(game.name)
    broken: list[dict[str, Any]] = []
    for step, (before, action, after) in enumerate(replay_steps(game, trace), start=1):
        for prop, message in failures(game, properties, before, action, after):
            promised = prop.applies(game.options)
            broken.append(
                {
                    "step": step,
                    "action": str(action),
                    "property": prop.name,
                    "clauses": list(prop.clauses),
                    "message": message,
                    "promised": promised,
                }
            )
    if args.json:
        _print_json({"steps": len(trace.actions), "replayed": True, "broken": broken})
    else:
        print(f"{args.file}: {len(trace.actions)} steps replayed, every state as recorded")
        for b in broken:
            note = "" if b["promised"] else " (not promised under these options)"
            print(
                f"step {b['step']} ({b['action']}): {b['property']} broken{note}: {b['message']} "
                f"[{', '.join(b['clauses'])}]"
            )
    return EXIT_FAILED if broken else 0


def _fuzz(args: argparse.Namespace) -> int:
    game = _game(args)
    report = fuzz(game, load_properties(game.name), args.games, args.seed)
    data = report.to_data()
    if args.traces:
        folder = Path(args.traces)
        folder.mkdir(parents=True, exist_ok=True)
        for index, violation in enumerate(report.violations, start=1):
            violation.trace.save(folder / f"violation-{index}.json")
    if args.json:
        _print_json(data)
    else:
        cov = data["coverage"]
        print(
            f"{game.name}, {game.players} players, seed {args.seed}: {report.games} games, {report.steps} steps, "
            f"{report.capped} stopped at the step cap"
        )
        print(f"clauses reached: {cov['covered']} of {cov['total']}; never: {', '.join(cov['never_reached']) or '-'}")
        for v in report.violations:
            print(f"VIOLATED {v.property} [{', '.join(v.clauses)}]: {v.message}")
            print(f"    {len(v.trace.actions)} steps: {'; '.join(v.trace.actions)}")
        if not report.violations:
            print("no property failed")
    return EXIT_FAILED if report.violations else 0


VERIFY_GAMES = 30
VERIFY_SELF_CHECKS = 3
VERIFY_SELF_CHECK_STEPS = 150


def _prove(args: argparse.Namespace) -> int:
    game = _game(args)
    proofs = prove_game(game, args.seed, args.witness_games)
    if args.traces:
        folder = Path(args.traces)
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


def _contradictions(args: argparse.Namespace) -> int:
    module = game_part(args.game, "statements", "statements of fact")
    answers = ask(module.variables(), module.statements(), module.QUESTIONS, module.describe)
    if args.json:
        _print_json(
            {
                "game": args.game,
                "statements": [
                    {"id": s.id, "clauses": list(s.clauses), "text": s.text, "reading": s.reading}
                    for s in module.statements()
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
    """The main job, so far: every board reading's facts; for every game the shared API check on
    a few random games, a fuzz campaign with every property, the proofs and the contradictions.
    Exit 1 if a self-check fails or a promised property is broken or not proved."""
    for removal in REMOVALS:
        print(f"== globetrotter board, removal {removal}: {REMOVALS[removal].description}")
        print(_format_facts(board_facts(planet(removal))))
    failed = False
    for name in sorted(GAMES):
        game = make_game(name)
        print(f"== {name}: API self-check on {VERIFY_SELF_CHECKS} random games")
        for seed in range(VERIFY_SELF_CHECKS):
            try:
                check_play(game, random_game(game, seed, VERIFY_SELF_CHECK_STEPS).actions)
            except ApiViolation as exc:
                print(f"FAILED (seed {seed}): {exc}")
                failed = True
        report = fuzz(game, load_properties(name), VERIFY_GAMES, seed=0)
        cov = report.to_data()["coverage"]
        print(
            f"== {name}: fuzz, {report.games} games, {report.steps} steps, "
            f"{len(report.violations)} broken properties, {cov['covered']}/{cov['total']} clauses reached"
        )
        for v in report.violations:
            print(f"FAILED {v.property} [{', '.join(v.clauses)}]: {v.message}")
            failed = True
        proofs = prove_game(game, witness_games=0)
        proved = sum(p.result.status == PROVED for p in proofs)
        print(f"== {name}: proofs, {proved} of {len(proofs)} invariants proved")
        for p in proofs:
            if p.promised and p.result.status != PROVED:
                print(f"FAILED {p.result.property}: {p.result.status}")
                failed = True
        module = game_part(name, "statements", "statements of fact")
        for answer in ask(module.variables(), module.statements(), module.QUESTIONS, module.describe):
            verdict = "consistent" if answer.consistent else f"CONTRADICTION ({', '.join(answer.core)})"
            print(f"== {name}: {answer.title}: {verdict}")
    return EXIT_FAILED if failed else 0


def _add_game_setup(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--players", type=int, default=None, help="number of players (the game's minimum by default)")
    parser.add_argument("--seed", type=int, default=0, help="random seed")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="choose an option's value")


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

    board = command("board", _board, "facts of a game's board graph")
    board.add_argument("game", choices=BOARD_GAMES)
    board.add_argument(
        "--removal",
        choices=tuple(REMOVALS),
        default=DEFAULT_REMOVAL,
        help="which faces around the bottom pentagon are removed",
    )
    board.add_argument("--adjacency", action="store_true", help="also list each space's neighbours")

    command("rules", _rules, "a game's rule clauses").add_argument("game", choices=sorted(GAMES))
    command("options", _options, "a game's options with defaults and values").add_argument(
        "game", choices=sorted(GAMES)
    )

    play = command("play", _play, "play one random game and record it as a trace")
    _add_game_setup(play)
    play.add_argument("--out", help="write the trace to this file")

    command("replay", _replay, "replay a trace file, checking every state and property").add_argument("file")

    fuzz_ = command("fuzz", _fuzz, "play random games with every property checked")
    _add_game_setup(fuzz_)
    fuzz_.add_argument("--games", type=int, default=100, help="how many games")
    fuzz_.add_argument("--traces", help="write each violation's shrunk trace to this folder")

    prove_ = command("prove", _prove, "prove each invariant with Z3, or refute it with a bounded run")
    _add_game_setup(prove_)
    prove_.add_argument(
        "--witness-games",
        type=int,
        default=WITNESS_GAMES,
        help="random games to search for a concrete trace of each refutation",
    )
    prove_.add_argument("--traces", help="write each refutation's concrete trace to this folder")

    command(
        "contradictions", _contradictions, "rulebook statements that cannot all hold, with unsat cores"
    ).add_argument("game", choices=sorted(GAMES))

    command("verify", _verify, "the main job: every check on every game", json_flag=False)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except RulecheckError as exc:
        print(f"rulecheck: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # the reader (say, `head`) stopped reading
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
