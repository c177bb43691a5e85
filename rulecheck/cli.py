"""The `rulecheck` command: one entry point, a sub-command per job.

Models: argument parsing and presentation only. Every sub-command calls library code
and prints either readable text or, with `--json`, one JSON object. Errors that
rulecheck raises on purpose (bad options, illegal actions, broken files) become one
line on stderr and exit status 2; they never show a traceback.

Leaves out: any rule or check logic.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from importlib.metadata import version
from typing import Any

from rulecheck.core.errors import RulecheckError
from rulecheck.games import GAMES
from rulecheck.geometry.facts import board_facts
from rulecheck.geometry.planet import DEFAULT_REMOVAL, REMOVALS, label_order, planet

EXIT_USAGE = 2

BOARD_GAMES = ("globetrotter",)
"""Games whose board is a graph computed from geometry."""


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, sort_keys=True))


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
    elif not rows:
        print("no games are modelled yet")
    else:
        for row in rows:
            low, high = row["players"]
            print(f"{row['name']}  v{row['version']}  {low}-{high} players  "
                  f"{row['options']} options  {row['clauses']} clauses")
    return 0


def _format_facts(facts: dict[str, Any]) -> str:
    width = max(map(len, facts))
    return "\n".join(f"{key.ljust(width)}  {json.dumps(value)}" for key, value in facts.items())


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


def _verify(args: argparse.Namespace) -> int:
    """The main job. So far: the facts of every board reading."""
    for removal in REMOVALS:
        facts = board_facts(planet(removal))
        print(f"== globetrotter board, removal {removal}: {REMOVALS[removal].description}")
        print(_format_facts(facts))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rulecheck", description="Rules verification for board games.")
    parser.add_argument("--version", action="version", version=f"rulecheck {version('rulecheck')}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    games = commands.add_parser("games", help="list the modelled games")
    games.add_argument("--json", action="store_true", help="print one JSON object")
    games.set_defaults(run=_games)

    board = commands.add_parser("board", help="facts of a game's board graph")
    board.add_argument("game", choices=BOARD_GAMES)
    board.add_argument(
        "--removal", choices=tuple(REMOVALS), default=DEFAULT_REMOVAL, help="which faces around the bottom pentagon are removed"
    )
    board.add_argument("--adjacency", action="store_true", help="also list each space's neighbours")
    board.add_argument("--json", action="store_true", help="print one JSON object")
    board.set_defaults(run=_board)

    verify = commands.add_parser("verify", help="the main job: every check on every game")
    verify.set_defaults(run=_verify)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except RulecheckError as exc:
        print(f"rulecheck: {exc}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
