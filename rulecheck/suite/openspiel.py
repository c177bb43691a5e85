"""OpenSpiel interop, an optional extra: every registered game as a pyspiel Python game.

Models: for each game of the registry, a pyspiel game `python_rulecheck_<name>` (dashes as
underscores) with four parameters, since the rules have none of OpenSpiel's kind:
- `players`: the player count (default the game's minimum);
- `options`: option values, `key=value,key=value` (in an OpenSpiel game string, whose syntax
  takes `=` and `,` for itself, `key:value;key:value`; the game keeps the second form, so its
  string loads again); default none;
- `max_game_length` (default DEFAULT_MAX_GAME_LENGTH): when the history (player actions and
  chance outcomes alike) reaches it and the game has not ended, the wrapper ends it;
- `max_chance_run` (default DEFAULT_MAX_CHANCE_RUN): when that many chance outcomes have come
  in a row and another is due, the wrapper ends the game.
A game the wrapper ends is truncated: terminal, with every return 0. No rule ends it (a
Globetrotter roll-off may tie for ever, and the rules bound no game's length); the
truncation makes OpenSpiel's bounds true: `max_game_length` bounds the history, so also the
decisions OpenSpiel counts.
Actions are the kernel's integer ids, player actions and chance outcomes numbered apart as
OpenSpiel numbers them (`action_id`, `action_from_id`), and sorted; an action's string is its
canonical text. Chance outcomes carry the exact probabilities as floats. Returns are the exact
returns as floats at a terminal state, 0 before. Utility bounds (`utility_bounds`): -1 and 1 for
win-loss games; for games of scores, bounds derived from the rules and the data set for a game
of at most `max_game_length` steps (the derivation of each is at its function). General-sum
(win-loss games can end with every player at -1, or several at 1), rewards at the end only,
sequential (Mechanica's simultaneous commits are taken one at a time in seat order, as the
kernel writes them). Perfect information: the state string is the canonical JSON of the
state (a truncated state's is prefixed with TRUNCATED), the observation string the same, and
the information state string the history (perfect recall). A game that hides something from
everyone alike (Globot Time Force: the deck's order) keeps no hidden part in its states, so
every player sees the whole state: perfect information in OpenSpiel's sense, the hidden
order being chance. Nothing is registered on import: `register`, `register_all` or
`load_game` do it (a process that loads a game string or a serialized state registers first).

Leaves out: observation and information-state tensors; games whose players observe
different things (a game that overrides `Game.observation`: registering one raises; a game
of scores whose class derives no bounds raises when it is loaded); data sets other than the game's default; undo;
rewards during play.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final

from rulecheck.core.errors import OptionError
from rulecheck.core.game import CHANCE, TERMINAL, Game, Return
from rulecheck.core.options import parse_assignments
from rulecheck.core.traits import EXPLICIT_CHANCE
from rulecheck.core.untrusted import shown
from rulecheck.registry import DECLARATIONS, game_class

EXTRA: Final = "pip install 'rulecheck[openspiel]'"
"""How to install what this module needs."""

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - the test extra installs open-spiel
    raise ImportError(f"rulecheck.suite.openspiel needs open-spiel, which is not installed: {EXTRA}") from exc

PREFIX: Final = "python_rulecheck_"
DEFAULT_MAX_GAME_LENGTH: Final = 10_000
"""The default `max_game_length`: above the length of most random games of every game here
(random six-player Globetrotter games sometimes run longer)."""
DEFAULT_MAX_CHANCE_RUN: Final = 100
"""The default `max_chance_run`: far above any run seen (setups draw fewer than 20 in a row)."""
TRUNCATED: Final = "truncated: "
"""The start of a truncated state's string, before the canonical JSON of the state."""


# Names and parameters.


def game_name(name: str) -> str:
    """The pyspiel short name of the rulecheck game `name`."""
    return PREFIX + name.replace("-", "_")


def parse_options(text: str) -> dict[str, str]:
    """`key=value,key=value` (or `key:value;key:value`) as a dict, blanks around a separator
    ignored (`a=b, c=d`); OptionError when malformed."""
    chosen: list[str] = []
    for item in (part.strip() for part in text.replace(";", ",").split(",")):
        if not item:
            continue
        if "=" not in item and ":" in item:
            item = item.replace(":", "=", 1)
        chosen.append(item)
    try:
        return parse_assignments(chosen)
    except OptionError as exc:
        raise OptionError(f"options {shown(text)}: {exc} (write key=value,key=value or key:value;key:value)") from None


def options_text(options: Mapping[str, str]) -> str:
    """Option values as the `options` parameter keeps them: `key:value;key:value`, by key."""
    return ";".join(f"{key}:{value}" for key, value in sorted(options.items()))


def parameter_specification(cls: type[Game[Any, Any]]) -> dict[str, int | str]:
    """The pyspiel parameters of a game class, with their defaults."""
    return {
        "players": cls.min_players,
        "options": "",
        "max_game_length": DEFAULT_MAX_GAME_LENGTH,
        "max_chance_run": DEFAULT_MAX_CHANCE_RUN,
    }


def _positive(params: Mapping[str, Any], key: str) -> int:
    value = params[key]
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise OptionError(f"{key} must be a positive integer, not {shown(str(value))}")
    return value


# Utility bounds.


def utility_bounds(game: Game[Any, Any], max_steps: int) -> tuple[Return, Return]:
    """The least and the most any player's return can be in a game of at most `max_steps`
    steps, a truncated game's 0 included (the game's `return_bounds`, widened to 0)."""
    low, high = game.return_bounds(max_steps)
    return min(low, 0), max(high, 0)


# The game and its states.


class _Node:
    """One kernel state with what the wrapper reads of it, worked out once: states are
    immutable, so clones share a node (deepcopy gives the node itself) and pickling keeps
    only the state."""

    __slots__ = ("state", "mover", "text", "legal", "outcomes")

    def __init__(self, state: Any) -> None:
        self.state = state
        self.mover: int | None = None
        self.text: str | None = None
        self.legal: list[int] | None = None
        self.outcomes: list[tuple[int, float]] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Node:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Node, (self.state,))


class RulecheckGame(pyspiel.Game):
    """A rulecheck game under pyspiel parameters (see the module docstring); `register` makes
    one subclass for each game, naming it in `rules_name`."""

    rules_name: ClassVar[str]

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        cls = game_class(self.rules_name)
        given = {**parameter_specification(cls), **(params or {})}
        options = parse_options(str(given["options"]))
        self.rules: Game[Any, Any] = cls(_positive(given, "players"), options)
        self.max_steps = _positive(given, "max_game_length")
        self.max_chance_run = _positive(given, "max_chance_run")
        low, high = utility_bounds(self.rules, self.max_steps)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.rules.num_distinct_actions(),
            max_chance_outcomes=self.rules.max_chance_outcomes(),
            num_players=self.rules.players,
            min_utility=float(low),
            max_utility=float(high),
            utility_sum=None,
            max_game_length=self.max_steps,
        )
        kept = {**given, "options": options_text(options)}
        super().__init__(game_type(cls), info, kept)
        self.initial_node = _Node(self.rules.initial_state())

    def new_initial_state(self) -> RulecheckState:
        return RulecheckState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer(iig_obs_type, params)


class RulecheckState(pyspiel.State):
    """A kernel state, the steps taken and the chance outcomes in a row (for the truncation)."""

    def __init__(self, game: RulecheckGame) -> None:
        super().__init__(game)
        self._node = game.initial_node
        self._steps = 0
        self._chance_run = 0

    # What the wrapper adds.

    @property
    def rules_state(self) -> Any:
        """The kernel's state."""
        return self._node.state

    def _game(self) -> Game[Any, Any]:
        rules: Game[Any, Any] = self.get_game().rules
        return rules

    def _mover(self) -> int:
        node = self._node
        if node.mover is None:
            node.mover = self._game().to_move(node.state)
        return node.mover

    def is_truncated(self) -> bool:
        """Whether the wrapper has ended a game the rules have not: the history has reached
        max_game_length, or another chance outcome is due after max_chance_run in a row."""
        mover = self._mover()
        if mover == TERMINAL:
            return False
        game = self.get_game()
        return self._steps >= game.max_steps or (mover == CHANCE and self._chance_run >= game.max_chance_run)

    # pyspiel's State.

    def current_player(self) -> int:
        mover = self._mover()
        if mover == TERMINAL or self.is_truncated():
            return int(pyspiel.PlayerId.TERMINAL)
        return int(pyspiel.PlayerId.CHANCE) if mover == CHANCE else mover

    def is_terminal(self) -> bool:
        return self._mover() == TERMINAL or self.is_truncated()

    def _legal_actions(self, player: int) -> list[int]:
        node = self._node
        if node.legal is None:
            game = self._game()
            node.legal = sorted(game.action_id(a) for a in game.legal_actions(node.state))
        return node.legal

    def chance_outcomes(self) -> list[tuple[int, float]]:
        node = self._node
        if node.outcomes is None:
            game = self._game()
            node.outcomes = sorted((game.action_id(o), float(p)) for o, p in game.chance_outcomes(node.state))
        return node.outcomes

    def _apply_action(self, action: int) -> None:
        if self.is_truncated():
            raise ValueError(f"{self._game().name}: the game was truncated; no action applies")
        game = self._game()
        chance = self._mover() == CHANCE
        self._node = _Node(game.apply(self._node.state, game.action_from_id(action, chance=chance)))
        self._steps += 1
        self._chance_run = self._chance_run + 1 if chance else 0

    def _action_to_string(self, player: int, action: int) -> str:
        game = self._game()
        return game.action_text(game.action_from_id(action, chance=player == int(pyspiel.PlayerId.CHANCE)))

    def returns(self) -> list[float]:
        game = self._game()
        if self._mover() != TERMINAL:
            return [0.0] * game.players
        found: tuple[Return, ...] = game.returns(self._node.state)
        return [float(r) for r in found]

    def __str__(self) -> str:
        node = self._node
        if node.text is None:
            node.text = self._game().encode_state(node.state)
        return TRUNCATED + node.text if self.is_truncated() else node.text


def state_at(game: RulecheckGame, rules_state: Any) -> RulecheckState:
    """A state of the pyspiel `game` standing at the kernel's `rules_state` (of a game of the same
    rules, players and options), with no history: a search started there (OpenSpiel's MCTS, as a
    policy) counts its steps toward max_game_length from it."""
    found = RulecheckState(game)
    found._node = _Node(rules_state)
    return found


class Observer:
    """pyspiel's Python observer of a public game: strings only. With public information and
    no perfect recall, the state's string; with perfect recall, the history; without public
    information, nothing (no player has private information)."""

    def __init__(self, iig_obs_type: Any = None, params: Any = None) -> None:
        if params:
            raise ValueError(f"rulecheck's observer takes no parameters, not {params!r}")
        self.iig_obs_type = iig_obs_type
        self.tensor = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state: RulecheckState, player: int) -> None:
        """No tensor to fill."""

    def string_from(self, state: RulecheckState, player: int) -> str:
        kind = self.iig_obs_type
        if kind is not None and not kind.public_info:
            return ""
        if kind is not None and kind.perfect_recall:
            history: str = state.history_str()
            return history
        return str(state)


# Registration.

_TYPES: dict[str, Any] = {}
"""Each game's pyspiel GameType, by rulecheck name."""
_CLASSES: dict[str, type[RulecheckGame]] = {}
"""Each registered game's class, by pyspiel name."""


def game_type(cls: type[Game[Any, Any]]) -> Any:
    """The pyspiel GameType of a game class (one object per class)."""
    found = _TYPES.get(cls.name)
    if found is None:
        if cls.observation is not Game.observation:
            raise ValueError(f"{cls.name}: players observe different things, which this wrapper does not model")
        chance = cls.traits.chance == EXPLICIT_CHANCE
        found = _TYPES[cls.name] = pyspiel.GameType(
            short_name=game_name(cls.name),
            long_name=f"Python rulecheck {cls.name}",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=(
                pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if chance else pyspiel.GameType.ChanceMode.DETERMINISTIC
            ),
            information=pyspiel.GameType.Information.PERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.GENERAL_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=cls.max_players,
            min_num_players=cls.min_players,
            provides_information_state_string=True,
            provides_information_state_tensor=False,
            provides_observation_string=True,
            provides_observation_tensor=False,
            parameter_specification=parameter_specification(cls),
        )
    return found


def register(name: str) -> str:
    """Register the rulecheck game `name` with pyspiel (once) and return its pyspiel name."""
    cls = game_class(name)
    kind = game_type(cls)
    short = game_name(cls.name)
    if short not in pyspiel.registered_names():
        # A class, not a closure: pyspiel holds the factory until the process exits, after the
        # interpreter has finalized, and dropping a functools.partial there aborts the process
        # (open-spiel 2.0.2); dropping a class does not.
        _CLASSES[short] = type(f"RulecheckGame_{short}", (RulecheckGame,), {"rules_name": cls.name})
        pyspiel.register_game(kind, _CLASSES[short])
    return short


def register_all() -> tuple[str, ...]:
    """Register every game of the registry; their pyspiel names."""
    return tuple(register(name) for name in sorted(DECLARATIONS))


def load_game(name: str, **params: Any) -> Any:
    """The pyspiel game of the rulecheck game `name` under `params` (registering it first)."""
    return pyspiel.load_game(register(name), params)
