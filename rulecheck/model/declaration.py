"""A game's declaration: every part of one game that the checks and the command reach, in one value.

Models: a game's name and class, its clause catalogue (read when asked), the properties its
rulebook promises, its computed tables (each built when asked), its statements of fact for
the contradiction check, its proof systems, its board (for `rulecheck board`) and its map,
its pictures of states (matplotlib figures, which rulecheck/model/picture.py writes), its
position format for scenarios, the obvious plan a policy plays by, its audit file, its ledger
of finding ids (a game's data format is on its class), and what the project's per-game tests
read of it besides (Tested: its page, clause file, golden suite and scenarios in the source
tree, and how much of it they play).
A part a game does not have is None or empty; asking for a missing part that a command needs
raises SpecError saying "<game> has no <part>".

Leaves out: which games exist (rulecheck/registry.py declares them) and what is done with
the parts (rulecheck/check/ and the command).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from rulecheck.core.clauses import Catalogue
from rulecheck.core.errors import OptionError, SpecError
from rulecheck.core.game import Game
from rulecheck.core.progress import Progress, no_progress
from rulecheck.model.board import BoardView
from rulecheck.model.components import Component
from rulecheck.model.picture import Moment
from rulecheck.model.position import PositionFormat
from rulecheck.model.proof import System
from rulecheck.model.properties import Property
from rulecheck.model.statements import StatementSet
from rulecheck.model.tables import Table
from rulecheck.model.texts import TextContract

if TYPE_CHECKING:
    from matplotlib.figure import Figure


@attrs.frozen
class Tested:
    """What the project's per-game tests (tests/) read of a game besides its parts, so that a game
    the registry declares is checked by every one of them with no list of games kept in a test:
    where its files outside its package lie in the project's source tree (each a path from the
    project's root, with `/`), and how much of it the slower tests play. A game shipped with
    rulecheck has its files at the shipped places (`Tested.shipped`); a game written for the tests
    keeps them beside its engine."""

    page: str
    """Its page: generated sections of clauses, options and data (tests/docs_tables.py) and the
    state JSON's field table with its worked example (tests/test_docs_state_fields.py)."""
    clauses: str
    """The file its clause catalogue is read from, as its page names it."""
    options: str
    """The module of its option space, as its page names it."""
    suite: str
    """Its golden conformance suite (`*.suite.jsonl`, its playthrough `*.suite.txt` beside it),
    written by tests/suite_record.py and replayed by every test run."""
    scenarios: str
    """The folder of its scenario files (at least fifteen), each checked by `rulecheck scenario check`."""
    field_play: tuple[tuple[int, ...], int, int]
    """The random play whose states together hold every path of the state JSON but those the page
    marks rare: the player counts, the games per count and the steps per game."""
    replays: tuple[int, tuple[str, ...]]
    """The campaign whose findings' replays tests/test_readable_replays.py reads: its player count
    and the options it sweeps (every other option at its default)."""
    slow_tables: tuple[str, ...] = ()
    """Its computed tables that search for minutes: the tests that compute every table leave them
    out, and test each on its own."""

    @classmethod
    def shipped(
        cls,
        name: str,
        field_play: tuple[tuple[int, ...], int, int],
        replays: tuple[int, tuple[str, ...]],
        slow_tables: tuple[str, ...] = (),
    ) -> Tested:
        """The files of the game `name` where rulecheck ships them: docs/<name>.md, specs/<name>.toml,
        rulecheck/games/<package>/options.py, tests/suites/<name>.suite.jsonl and scenarios/<name>."""
        package = name.replace("-", "_")
        return cls(
            page=f"docs/{name}.md",
            clauses=f"specs/{name}.toml",
            options=f"rulecheck/games/{package}/options.py",
            suite=f"tests/suites/{name}.suite.jsonl",
            scenarios=f"scenarios/{name}",
            field_play=field_play,
            replays=replays,
            slow_tables=slow_tables,
        )


@attrs.frozen
class GameDeclaration:
    name: str
    game: type[Game[Any, Any]]
    properties: tuple[Property, ...] = ()
    """What the rulebook promises of every state and step (properties/<name>.py)."""
    tables: Mapping[str, Callable[[Any, Progress], Table]] = attrs.field(factory=dict)
    """Each computed table by name, `table(game, progress)` for a game of this class under its options
    and data, built only when asked (some take minutes, and tell `progress` how far they have got)."""
    statements: Callable[[Any], StatementSet] | None = None
    """`statements(game)`: the rulebook's statements of fact and the questions `rulecheck
    contradictions` asks, for a game of this class under its options and data."""
    systems: Callable[[Any], tuple[System, ...]] | None = None
    """`systems(game)`: the symbolic system of each property the prover handles, for a game of
    this class under its options."""
    board: Callable[[Any], BoardView] | None = None
    """`board(game)`: the board graph of a game of this class under its options and data, with
    its facts, for `rulecheck board`."""
    board_picture: Callable[[Any], Figure] | None = None
    """`board_picture(game)`: a map of the board of a game of this class under its options and
    data, every space labelled, for `rulecheck board --draw`."""
    picture: Callable[[Any, Any, int | None, Moment], Figure] | None = None
    """`picture(game, state, player, moment)`: a figure of a state, for `rulecheck show --draw` and
    `--frames`: of that player's part of it, or with None, of the part the game draws by default
    (the player to move's factory, say, or every player's); a game whose picture always shows
    every player refuses a player with an OptionError. Its title opens with the game's name,
    what it is drawn for (`moment`: a trace's step, or a position on its own) and who moves
    (rulecheck/model/picture.py's `title_words`); below it, a key."""
    texts: tuple[TextContract, ...] = ()
    """What the rulebook's sentences say, as text contracts for the silent-decision finder
    (rulecheck/games/<package>/texts.py's CONTRACTS); none for a game without them."""
    position: PositionFormat[Any] | None = None
    """How a position of this game is written in a scenario file, and read back."""
    components: Callable[[Any], tuple[Component, ...]] | None = None
    """`components(game)`: the cards or components of the data set a game of this class plays
    with, or for a game without a data set the pieces its rules place, for `rulecheck cards`;
    None for a game with neither."""
    audit: str | None = None
    """The file in specs/ that files the checks' evidence under the audit's findings
    (`<name>-audit.toml`), or None when the rulebook has no audit."""
    ledger: str | None = None
    """The file in specs/ that records the id `rulecheck verify` gave each evidence key the audit
    does not list, so that ids never move (`<name>-ledger.toml`; verify appends to it), or None
    when new findings are numbered afresh each run."""
    plan: Callable[[Any, Any, tuple[Any, ...]], Sequence[Any]] | None = None
    """`plan(game, state, legal)`: of the legal actions `legal` of the player to move in `state`, those
    the game's obvious plan takes (buy, build, reach achievements), never empty; the `plan` policy
    (rulecheck/check/play/policies.py) draws one of them. None for a game without one."""
    tested: Tested | None = None
    """What the project's per-game tests read of the game besides its parts; None for a game no
    per-game test reads (one a single test registers for itself)."""

    def __attrs_post_init__(self) -> None:
        if self.game.name != self.name:
            raise SpecError(f"the declaration of {self.name!r} names the class of {self.game.name!r}")

    def tests(self) -> Tested:
        """What the per-game tests read of the game; SpecError for a game that declares none."""
        if self.tested is None:
            raise SpecError(f"{self.name} declares nothing the per-game tests read (GameDeclaration.tested)")
        return self.tested

    def catalogue(self) -> Catalogue:
        """The rule clauses, read from specs/<name>.toml (through load_catalogue, by the class)."""
        return self.game.catalogue()

    def symbolic_systems(self, game: Game[Any, Any]) -> tuple[System, ...]:
        if self.systems is None:
            raise SpecError(f"{self.name} has no symbolic model")
        return self.systems(game)

    def statement_set(self, game: Game[Any, Any]) -> StatementSet:
        if self.statements is None:
            raise SpecError(f"{self.name} has no statements of fact")
        return self.statements(game)

    def component_list(self, game: Game[Any, Any]) -> tuple[Component, ...]:
        if self.components is None:
            raise SpecError(f"{self.name} has no cards, components or pieces to list: no data set, and none declared")
        return self.components(game)

    def position_format(self) -> PositionFormat[Any]:
        if self.position is None:
            raise SpecError(f"{self.name} has no position format for scenarios")
        return self.position

    def board_view(self, game: Game[Any, Any]) -> BoardView:
        if self.board is None:
            raise SpecError(f"{self.name} has no board")
        return self.board(game)

    def draw_board(self, game: Game[Any, Any]) -> Figure:
        if self.board_picture is None:
            raise SpecError(f"{self.name} has no board map")
        return self.board_picture(game)

    def draw(self, game: Game[Any, Any], state: Any, player: int | None = None, moment: Moment = Moment()) -> Figure:
        if self.picture is None:
            raise SpecError(f"{self.name} has no pictures")
        return self.picture(game, state, player, moment)

    def plan_choices(self, game: Game[Any, Any], state: Any, legal: tuple[Any, ...]) -> Sequence[Any]:
        if self.plan is None:
            raise SpecError(f"{self.name} has no plan policy (its declaration names no plan)")
        return self.plan(game, state, legal)

    def table(self, name: str, game: Game[Any, Any], progress: Progress = no_progress) -> Table:
        """The table `name` of `game`, computed now, telling `progress` how far it has got (a
        table that takes long, a search, tells it)."""
        if not self.tables:
            raise SpecError(f"{self.name} has no computed tables")
        if name not in self.tables:
            raise OptionError(f"{self.name} has no table {name!r}; tables: {', '.join(sorted(self.tables))}")
        return self.tables[name](game, progress)
