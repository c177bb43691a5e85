"""`--help` is complete: every argument of every command has help text, every option with a default
states it, every repeatable option says so, `table --help` lists every game's tables, and the
README's synopsis names every option of every command (so the README cannot go stale)."""

import argparse
import re
from pathlib import Path

import pytest

from rulecheck.cli import build_parser
from rulecheck.registry import DECLARATIONS

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    """(command words, parser) for every command that runs something, sub-commands included."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from commands(sub, (*path, name))
            return
    yield path, parser


def arguments(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in parser._actions if not isinstance(a, (argparse._HelpAction, argparse._VersionAction))]


COMMANDS = list(commands(build_parser()))
ARGUMENTS = [
    pytest.param(
        parser, action, id=f"{' '.join(path)} {action.option_strings[-1] if action.option_strings else action.dest}"
    )
    for path, parser in COMMANDS
    for action in arguments(parser)
]


def synopsis() -> dict[tuple[str, ...], str]:
    """The README's synopsis: each `rulecheck COMMAND ...` entry with its continuation lines, by command words."""
    block = README.split("\n## The command\n", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    entries: list[str] = []
    for line in block.splitlines():
        if line.startswith("rulecheck "):
            entries.append(line)
        elif line.startswith(" ") and entries:
            entries[-1] += "\n" + line
    found = {}
    for path, _ in COMMANDS:
        prefix = f"rulecheck {' '.join(path)}"
        found[path] = next((e for e in entries if e == prefix or e.startswith((prefix + " ", prefix + "\n"))), "")
    return found


SYNOPSIS = synopsis()


def test_the_walk_sees_every_command():
    words = {" ".join(path) for path, _ in COMMANDS}
    assert {"table", "verify", "suite replay", "scenario new", "fuzz"} <= words
    assert len(ARGUMENTS) > 100


def test_every_help_page_prints():
    """argparse reads `%` in a help as a format: one unescaped broke `rulecheck --help` outright."""
    assert "balance" in build_parser().format_help()
    for path, parser in COMMANDS:
        assert parser.format_help(), path


@pytest.mark.parametrize(("parser", "action"), ARGUMENTS)
def test_every_argument_has_help(parser, action):
    assert action.help and action.help.strip()


@pytest.mark.parametrize(("parser", "action"), ARGUMENTS)
def test_every_option_with_a_value_states_its_default(parser, action):
    """An option that takes a value and may be left out says what holds then: `default`, with the
    value itself when it is a plain one."""
    if not action.option_strings or action.nargs == 0 or action.required:
        return
    assert "default" in action.help, action.help
    default = action.default
    if isinstance(default, bool) or default in (None, []):
        return
    shown = f"{default:g}" if isinstance(default, float) else str(default)
    assert re.search(rf"default:? {re.escape(shown)}\b", action.help), action.help


@pytest.mark.parametrize(("parser", "action"), ARGUMENTS)
def test_every_repeatable_option_says_it_repeats(parser, action):
    if isinstance(action, argparse._AppendAction):
        assert "repeat" in action.help, action.help


@pytest.mark.parametrize(("parser", "action"), ARGUMENTS)
def test_every_argument_is_in_the_readme_synopsis(parser, action):
    path = next(p for p, q in COMMANDS if q is parser)
    entry = SYNOPSIS[path]
    assert entry, f"the README's synopsis has no entry for `rulecheck {' '.join(path)}`"
    if action.option_strings:
        names = action.option_strings
    else:
        names = [(action.metavar or action.dest).upper()]
    assert any(re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", entry) for name in names), (names, entry)


def test_table_help_lists_every_table_of_every_game(capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["table", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    listed = {name: sorted(declared.tables) for name, declared in DECLARATIONS.items() if declared.tables}
    assert listed
    for name, tables in listed.items():
        assert f"{name}: {', '.join(tables)}" in shown, (name, shown)
