"""The registry of modelled games: each game declared once, by explicit imports.

Models: the declaration of every game (rulecheck/model/declaration.py), by name, and how to
build a game from a name, a player count and option values, with errors that list what is
allowed. The command and the checks reach every part of a game through its declaration
here; an import error inside a game's module surfaces with its own traceback.

A game is one unit: its declaration names every part of it, and what the project's per-game
tests read of it besides (GameDeclaration.tested), so registering it is one line, and every
test that runs per game iterates DECLARATIONS. A shipped game is one entry of SHIPPED. Any
other game (one written for the tests, say tests/fixtures/toy_game/) is registered for a run,
in every process of that run, by one entry of the environment variable RULECHECK_EXTRA_GAMES:
the dotted names of modules, separated by commas, each holding its game's declaration as
`DECLARATION`:

    RULECHECK_EXTRA_GAMES=tests.fixtures.toy_game python -m pytest tests/test_api_every_game.py

The variable is read once, when this module is imported: pytest-xdist's workers, verify's
spawned workers and the command run in a subprocess inherit it and so see the same games
(a test that adds a game with monkeypatch.setitem reaches its own process only). A module
named there that is missing fails with its import error; one without a declaration, or one
whose game's name is taken, is a SpecError. The variable is the operator's, as PYTHONPATH is:
no file or message rulecheck reads names a module to import.

Leaves out: the games and their parts (rulecheck/games/<game>/, properties/<game>.py and
specs/<game>.toml) and what is done with them (rulecheck/check/ and the command).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rulecheck.core.errors import OptionError, SpecError
from rulecheck.core.game import Game
from rulecheck.games.globetrotter import position as globetrotter_position
from rulecheck.games.globetrotter import statements as globetrotter_statements
from rulecheck.games.globetrotter.board import board_view as globetrotter_board
from rulecheck.games.globetrotter.components import listing as globetrotter_components
from rulecheck.games.globetrotter.game import Globetrotter
from rulecheck.games.globetrotter.picture import board_picture as globetrotter_map
from rulecheck.games.globetrotter.picture import picture as globetrotter_picture
from rulecheck.games.globetrotter.policy import plan as globetrotter_plan
from rulecheck.games.globetrotter.symbolic import systems as globetrotter_systems
from rulecheck.games.globetrotter.tables import TABLES as GLOBETROTTER_TABLES
from rulecheck.games.globetrotter.texts import CONTRACTS as GLOBETROTTER_TEXTS
from rulecheck.games.globot_time_force import position as globot_time_force_position
from rulecheck.games.globot_time_force.components import listing as globot_time_force_components
from rulecheck.games.globot_time_force.game import GlobotTimeForce
from rulecheck.games.globot_time_force.picture import picture as globot_time_force_picture
from rulecheck.games.globot_time_force.policy import plan as globot_time_force_plan
from rulecheck.games.globot_time_force.statements import statement_set as globot_time_force_statements
from rulecheck.games.globot_time_force.symbolic import systems as globot_time_force_systems
from rulecheck.games.globot_time_force.tables import TABLES as GLOBOT_TIME_FORCE_TABLES
from rulecheck.games.globot_time_force.texts import CONTRACTS as GLOBOT_TIME_FORCE_TEXTS
from rulecheck.games.mechanica import position as mechanica_position
from rulecheck.games.mechanica.board import board_view as mechanica_board
from rulecheck.games.mechanica.data import listing as mechanica_components
from rulecheck.games.mechanica.game import Mechanica
from rulecheck.games.mechanica.picture import picture as mechanica_picture
from rulecheck.games.mechanica.policy import plan as mechanica_plan
from rulecheck.games.mechanica.statements import statement_set as mechanica_statements
from rulecheck.games.mechanica.symbolic import systems as mechanica_systems
from rulecheck.games.mechanica.texts import CONTRACTS as MECHANICA_TEXTS
from rulecheck.model.declaration import GameDeclaration, Tested
from rulecheck.model.statements import StatementSet
from rulecheck.properties.globetrotter import PROPERTIES as GLOBETROTTER_PROPERTIES
from rulecheck.properties.globot_time_force import PROPERTIES as GLOBOT_TIME_FORCE_PROPERTIES
from rulecheck.properties.mechanica import PROPERTIES as MECHANICA_PROPERTIES

GLOBETROTTER = GameDeclaration(
    "globetrotter",
    Globetrotter,
    properties=GLOBETROTTER_PROPERTIES,
    texts=GLOBETROTTER_TEXTS,
    tables=GLOBETROTTER_TABLES,
    statements=lambda game: StatementSet(
        globetrotter_statements.variables,
        globetrotter_statements.statements,
        globetrotter_statements.QUESTIONS,
        globetrotter_statements.describe,
    ),
    systems=globetrotter_systems,
    board=globetrotter_board,
    board_picture=globetrotter_map,
    picture=globetrotter_picture,
    components=lambda game: globetrotter_components(),
    position=globetrotter_position.FORMAT,
    plan=globetrotter_plan,
    audit="globetrotter-audit.toml",
    ledger="globetrotter-ledger.toml",
    tested=Tested.shipped(
        "globetrotter",
        field_play=((2, 4, 6), 1, 250),
        replays=(2, ("shooting",)),
        slow_tables=("earliest-build",),
    ),
)

GLOBOT_TIME_FORCE = GameDeclaration(
    "globot-time-force",
    GlobotTimeForce,
    properties=GLOBOT_TIME_FORCE_PROPERTIES,
    texts=GLOBOT_TIME_FORCE_TEXTS,
    tables=GLOBOT_TIME_FORCE_TABLES,
    statements=globot_time_force_statements,
    systems=globot_time_force_systems,
    picture=globot_time_force_picture,
    position=globot_time_force_position.FORMAT,
    plan=globot_time_force_plan,
    components=lambda game: globot_time_force_components(game.data),
    audit="globot-time-force-audit.toml",
    ledger="globot-time-force-ledger.toml",
    tested=Tested.shipped(
        "globot-time-force",
        field_play=((1, 2, 3, 5), 2, 200),
        replays=(1, ("charge", "timeline_actions")),
    ),
)

MECHANICA = GameDeclaration(
    "mechanica",
    Mechanica,
    properties=MECHANICA_PROPERTIES,
    texts=MECHANICA_TEXTS,
    statements=mechanica_statements,
    systems=mechanica_systems,
    board=mechanica_board,
    picture=mechanica_picture,
    position=mechanica_position.FORMAT,
    plan=mechanica_plan,
    components=lambda game: mechanica_components(game.data),
    audit="mechanica-audit.toml",
    ledger="mechanica-ledger.toml",
    tested=Tested.shipped(
        "mechanica",
        field_play=((1, 2, 4), 1, 120),
        replays=(4, ("shop_rotation", "blueprint_once")),
    ),
)

SHIPPED: tuple[GameDeclaration, ...] = (GLOBETROTTER, GLOBOT_TIME_FORCE, MECHANICA)
"""The games rulecheck ships, each declared above."""

EXTRA_GAMES = "RULECHECK_EXTRA_GAMES"
"""The environment variable naming the modules of the games registered besides the shipped ones."""


def declared_in(module: str) -> GameDeclaration:
    """The declaration the module `module` (a dotted name) holds as `DECLARATION`."""
    found = getattr(importlib.import_module(module), "DECLARATION", None)
    if not isinstance(found, GameDeclaration):
        raise SpecError(f"{EXTRA_GAMES}: module {module!r} holds no GameDeclaration named DECLARATION")
    return found


def registered(extra: str) -> dict[str, GameDeclaration]:
    """The shipped games and those of the modules `extra` names (as RULECHECK_EXTRA_GAMES does), by name."""
    found: dict[str, GameDeclaration] = {}
    for declared in (*SHIPPED, *(declared_in(m.strip()) for m in extra.split(",") if m.strip())):
        if declared.name in found:
            raise SpecError(f"{EXTRA_GAMES}: two declarations of the game {declared.name!r}")
        found[declared.name] = declared
    return found


DECLARATIONS: dict[str, GameDeclaration] = registered(os.environ.get(EXTRA_GAMES, ""))
"""Every registered game by name: the shipped ones and those RULECHECK_EXTRA_GAMES names; a test
may add one for itself (monkeypatch.setitem)."""


def declaration(name: str) -> GameDeclaration:
    try:
        return DECLARATIONS[name]
    except KeyError:
        allowed = ", ".join(sorted(DECLARATIONS)) or "(none yet)"
        raise OptionError(f"unknown game {name!r}; games: {allowed}") from None


def game_class(name: str) -> type[Game[Any, Any]]:
    return declaration(name).game


def make_game(
    name: str,
    players: int | None = None,
    options: Mapping[str, str] | None = None,
    *,
    strict: bool = False,
    data: str | Path | None = None,
) -> Game[Any, Any]:
    """The game `name` for `players` (its minimum when None) under `options`, with the data set
    in the file `data` (the game's default data set when None)."""
    cls = game_class(name)
    return cls(cls.min_players if players is None else players, options, strict=strict, data=data)
