"""The `rulecheck` command: one entry point, a sub-command per job.

Models: argument parsing and presentation only. Every sub-command calls library code
and prints either readable text or, with `--json`, one JSON object. Errors that
rulecheck raises on purpose (bad options, illegal actions, broken files) become one
line on stderr and exit status 2, never a traceback; a failed property is exit 1.
Each group of commands has its module, which registers its own sub-commands: facts.py
(games, board, rules, options, cards), traces.py (play, replay, show, compare), searches.py
(fuzz, explore), analysis.py (prove, symbolic-compare, contradictions, table),
scenarios.py (legal, apply, scenario), suites.py (suite), campaign.py (verify) and balance.py
(balance).

Leaves out: any rule or check logic.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from importlib.metadata import version

from rulecheck.cli import analysis, balance, campaign, facts, scenarios, searches, silent, suites, traces
from rulecheck.cli.shared import EXIT_USAGE
from rulecheck.core.errors import RulecheckError
from rulecheck.core.untrusted import clip

ERROR_LINE = 1000
"""The most characters of an error's line on stderr (a message that quotes input is cut shorter)."""

GROUPS = (facts, traces, searches, analysis, silent, scenarios, suites, campaign, balance)
"""Each group of commands, in the order `rulecheck --help` lists them."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rulecheck", description="Rules verification for board games.")
    parser.add_argument("--version", action="version", version=f"rulecheck {version('rulecheck')}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for group in GROUPS:
        group.add_commands(commands)
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
