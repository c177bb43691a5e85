"""What the commands share: the exit statuses, the game a command names and the game a trace
was recorded in, JSON and an issue's line as printed, the arguments several commands take, and
the making of a sub-command.

Leaves out: any one command (each group of commands has its module, which registers them).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rulecheck.check.play.policies import OPENSPIEL_MCTS, Policy, policy_named
from rulecheck.check.report.findings import load_audit, parse_ledger, specs_folder
from rulecheck.check.watch.generic import BROKEN_INVARIANT, Issue
from rulecheck.core.data import DEFAULT_SOURCE
from rulecheck.core.errors import OptionError
from rulecheck.core.game import Game
from rulecheck.core.options import parse_assignments
from rulecheck.core.trace import Trace
from rulecheck.registry import DECLARATIONS, declaration, make_game

EXIT_FAILED = 1
EXIT_USAGE = 2


def print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, sort_keys=True))


def game_from(args: argparse.Namespace) -> Game[Any, Any]:
    """The game a command names, at `--players` under `--set` and `--data`."""
    return make_game(args.game, args.players, parse_assignments(args.set), data=args.data)


def trace_game(trace: Trace, args: argparse.Namespace, variant: Mapping[str, str] | None = None) -> Game[Any, Any]:
    """The game a trace was recorded in (with `variant` over its options): under `--data FILE`,
    or else the data file the trace names when it is still there, or else the default data
    (which a trace of the default data names as DEFAULT_SOURCE)."""
    data = args.data
    if data is None and trace.data is not None and trace.data[0] != DEFAULT_SOURCE and Path(trace.data[0]).is_file():
        data = trace.data[0]
    return make_game(trace.game, trace.players, dict(trace.options) | dict(variant or {}), data=data)


def issue_line(issue: Issue) -> str:
    clauses = f" [{', '.join(issue.clauses)}]" if issue.clauses else ""
    if issue.kind == BROKEN_INVARIANT:
        note = "" if issue.promised else " (not promised under these options)"
        return f"{issue.subject} broken{note}: {issue.message}{clauses}"
    return f"{issue.kind}: {issue.message}{clauses}"


def finding_ids(game: str) -> dict[tuple[str, str], str]:
    """The finding id the findings report gives each issue (kind, subject) that the game's audit
    or its shipped ledger names: the audit's id where it lists the issue, else the ledger's."""
    declared = declaration(game)
    ids: dict[tuple[str, str], str] = {}
    ledger = specs_folder().joinpath(declared.ledger) if declared.ledger is not None else None
    if ledger is not None and ledger.is_file():
        ids |= {_split(e.key): e.id for e in parse_ledger(ledger.read_text(encoding="utf-8"), f"specs/{ledger.name}")}
    ids |= {_split(key): entry.id for entry in load_audit(declared.audit) for key in entry.evidence}
    return ids


def _split(key: str) -> tuple[str, str]:
    """An evidence key CHECK:SUBJECT as (kind, subject)."""
    kind, _, subject = key.partition(":")
    return kind, subject


def add_data(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data",
        metavar="FILE",
        help="the data set (cards, layouts) to play with, for a game that has one (default: the game's shipped one)",
    )


def add_game_setup(parser: argparse.ArgumentParser, seed: bool = True, games: Iterable[str] | None = None) -> None:
    add_game(parser, games)
    parser.add_argument(
        "--players", type=int, default=None, metavar="N", help="number of players (default: the game's minimum)"
    )
    if seed:
        parser.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    add_set(parser, "choose an option's value")
    add_data(parser)


def add_game(parser: argparse.ArgumentParser, games: Iterable[str] | None = None) -> None:
    parser.add_argument(
        "game", choices=sorted(DECLARATIONS if games is None else games), help="the game (`rulecheck games` lists them)"
    )


def add_set(parser: argparse.ArgumentParser, what: str, default: str = "each option's default") -> None:
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=f"{what}; repeat it for several options (default: {default}; `rulecheck options GAME` lists them)",
    )


def command(
    commands: Any,
    name: str,
    run: Callable[[argparse.Namespace], int],
    help: str,
    json_flag: bool = True,
    aliases: Sequence[str] = (),
) -> Any:
    """The sub-command `name` (also called by each of `aliases`) on `commands` (the command's
    sub-parsers), which runs `run`, with `help` as its help and description, and `--json` unless
    `json_flag` is false. A help is plain text: a `%` in it is shown as written (argparse would
    read it as a format)."""
    sub = commands.add_parser(name, help=help.replace("%", "%%"), description=help, aliases=list(aliases))
    if json_flag:
        sub.add_argument("--json", action="store_true", help="print one JSON object")
    sub.set_defaults(run=run)
    return sub


def policy_from(text: str) -> Policy:
    """The policy `text` names on the command line (`policy_named`), OpenSpiel's MCTS among them:
    its module, which registers `openspiel-mcts:<playouts>`, is imported only when `text` names it,
    and an OptionError says how to install open-spiel when it is missing."""
    if text.partition(":")[0] == OPENSPIEL_MCTS:
        try:
            import rulecheck.suite.openspiel_mcts  # noqa: F401 - registers openspiel-mcts
        except ImportError as exc:
            raise OptionError(f"policy {text!r}: {exc}") from exc
    try:
        return policy_named(text)
    except ValueError as exc:
        raise OptionError(str(exc)) from exc
