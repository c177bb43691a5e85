"""The commands that print what a game is: `games`, `board`, `rules`, `options` and `cards`.

Models: presentation of the games registered (each one's version, players, options, clauses
and traits), a board graph's facts or its map, a game's rule clauses, its options with
their defaults and values, and the cards or components of its data set, or for a game without
one the pieces its rules place (`cards`, also called `components`), each with its key and name.

Leaves out: the games themselves (rulecheck/registry.py declares them).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

import attrs

from rulecheck.cli.args import path_named, writable_file
from rulecheck.cli.shared import add_data, add_game, add_game_setup, command, game_from, print_json
from rulecheck.core.errors import OptionError
from rulecheck.core.words import counted
from rulecheck.model.picture import picture_path, save_picture
from rulecheck.registry import DECLARATIONS, declaration, game_class, make_game


def _format_facts(facts: dict[str, Any]) -> str:
    width = max(map(len, facts))
    return "\n".join(f"{key.ljust(width)}  {json.dumps(value)}" for key, value in facts.items())


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
        print_json({"games": rows})
    else:
        for row in rows:
            low, high = row["players"]
            traits = row["traits"]
            print(
                f"{row['name']}  v{row['version']}  {low}-{high} players  "
                f"{counted(row['options'], 'option')}  {counted(row['clauses'], 'clause')}  "
                f"({traits['chance']} chance, {traits['information']} information, {traits['dynamics']}, "
                f"{traits['outcome']})"
            )
    return 0


def _board(args: argparse.Namespace) -> int:
    """The board graph's facts; with --draw, a map of it, every space labelled."""
    target = picture_path(writable_file(args.draw)) if args.draw is not None else None
    if target is not None and (args.json or args.adjacency):
        raise OptionError("--draw writes a map of the board; --json and --adjacency print its facts: give one")
    game = game_from(args)
    if target is not None:
        save_picture(declaration(args.game).draw_board(game), target)
        print(f"{args.game} board map written to {target}")
        return 0
    view = declaration(args.game).board_view(game)
    facts = dict(view.facts)
    if args.adjacency:
        facts["adjacency"] = view.adjacency()
    if args.json:
        print_json(facts)
    else:
        print(f"{args.game} board, {view.title}")
        print(_format_facts(facts))
    return 0


def _rules(args: argparse.Namespace) -> int:
    catalogue = declaration(args.game).catalogue()
    if args.json:
        print_json(
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
        print_json(
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


def _cards(args: argparse.Namespace) -> int:
    """The data set's cards or components (a game without one: its pieces), each with its kind,
    key, name (where it differs from the key) and facts, in columns."""
    game = make_game(args.game, data=args.data)
    listed = declaration(args.game).component_list(game)
    source = "default" if args.data is None else args.data
    if args.json:
        print_json({"game": args.game, "data": source, "components": [c.to_data() for c in listed]})
        return 0
    named = any(c.name != c.key for c in listed)
    if game.loaded_data is None:
        which = "no data set; the pieces its rules place"
    else:
        which = "its default data set" if args.data is None else f"the data set {args.data}"
    print(f"{args.game}, {which}: {counted(len(listed), 'entry', 'entries')}")
    print("a scenario file names each by its key (as actions and traces write it)" + (" or its name" if named else ""))
    rows = [(c.kind, c.key, c.name if named else "", c.facts) for c in listed]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths) if width) + "  " + row[3])
    return 0


def add_commands(commands: Any) -> None:
    """`games`, `board`, `rules`, `options` and `cards`, on the command's sub-parsers."""
    command(commands, "games", _games, "list the modelled games")

    board = command(commands, "board", _board, "facts of a game's board graph under its options and data")
    add_game_setup(board, seed=False, games=[name for name, d in DECLARATIONS.items() if d.board is not None])
    board.add_argument("--adjacency", action="store_true", help="also list each node's neighbours")
    board.add_argument(
        "--draw",
        type=path_named,
        metavar="FILE.png|FILE.svg",
        help="write a map of the board, every space labelled, as PNG or SVG by the suffix (globetrotter; "
        "default: print the board's facts)",
    )

    add_game(command(commands, "rules", _rules, "a game's rule clauses"))
    add_game(command(commands, "options", _options, "a game's options with defaults and values"))
    cards = command(
        commands,
        "cards",
        _cards,
        "the cards, components or pieces of a game, with their keys and names",
        aliases=["components"],
    )
    add_game(cards)  # every game: one with nothing to list says so
    add_data(cards)
