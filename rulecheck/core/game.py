"""The one protocol every game implements: a pure transition system.

Models: a game built from a player count, option values, a strictness flag and, for a
game whose rulebook leaves data out, a data set (rulecheck.core.data); its
declared traits (chance, information, dynamics, outcome); its initial state; who moves
in a state (a player index, CHANCE or TERMINAL); the sorted legal actions; the exact
chance outcomes at chance nodes; `apply`, which returns the next state or raises
IllegalAction naming the clause; who has lost; at a terminal state, each player's
return and the set of winners; bounds on the returns of a game of a given length; each
player's standing during play (a heuristic the policies that look ahead play toward); who
is to blame for a step; what a player observes; the integer id of every action; and the
symmetries that map states to equivalent ones, for exploration to merge. States are
immutable and hashable; actions have a canonical text notation and states a canonical JSON
encoding, both handled here for every game.

The public calls live here and are the same for every game: `legal_actions` sorts and
deduplicates once, `apply` rejects every action that is not legal (not a sample of
them) with the clause the game names (against the listing it keeps of the last states
listed, or one a search hands back with `remember_legal`), and `returns`, `winners` and the
numbering are derived from the game's declarations. A game implements small private hooks:
`_legal_actions` (a player's legal actions, in any order unless the class sets
`legal_actions_sorted`), `_chance_outcomes`, `_apply` (called only with a legal
action), `_illegal` (why an action is not legal), `_returns` and `action_domains`.

Leaves out: how a game decides anything (its subclass's rules), and who plays
(strategies live in rulecheck.check).

A subclass sets the class attributes `name`, `version` (bumped whenever behaviour
changes, so conformance suites can tell), `min_players`, `max_players`,
`campaign_players`, `traits`, `state_type`, `action_types`, `chance_action_types` and
`option_space`, and implements the abstract methods.
"""

from __future__ import annotations

import abc
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from operator import attrgetter
from pathlib import Path
from typing import Any, ClassVar, Final, Generic, TypeVar

from rulecheck.core.clauses import Catalogue, load_catalogue
from rulecheck.core.codec import decode, encode
from rulecheck.core.data import DataFormat, LoadedData
from rulecheck.core.errors import IllegalAction, OptionError, RuleGap, RulesDisagree
from rulecheck.core.notation import Action, Notation
from rulecheck.core.numbering import Domain, Numbering
from rulecheck.core.options import Options, OptionSpace
from rulecheck.core.traits import SCORES, WIN_LOSS, Traits

CHANCE: Final = -1
"""`to_move` of a chance node: the next action is an outcome from `chance_outcomes`."""
TERMINAL: Final = -2
"""`to_move` of a finished game: there are no legal actions."""

_NONE_LISTED: Final[tuple[Any, tuple[Any, ...]]] = (None, ())
"""The slot of a listing not yet made (no state is None)."""

Return = int | Fraction
"""A player's outcome at a terminal state: exact, never a float."""

S = TypeVar("S")
A = TypeVar("A", bound=Action)


_TEXT: Final = attrgetter("text")


def _sorted_by_text(actions: Iterable[A]) -> tuple[A, ...]:
    """Actions in canonical order (by their text), each once."""
    found = {a.text: a for a in actions}
    return tuple([found[text] for text in sorted(found)])


class Game(abc.ABC, Generic[S, A]):
    """A game under fixed players and options, as a transition system over immutable states."""

    name: ClassVar[str]
    version: ClassVar[int]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    campaign_players: ClassVar[tuple[int, ...]]
    """The player counts a verification campaign covers: one for each shape the game takes
    (a rule or a board that only some player counts have)."""
    traits: ClassVar[Traits]
    state_type: ClassVar[type]
    action_types: ClassVar[tuple[type[Action], ...]]
    """Every action class, chance outcomes included, in the order their ids are numbered."""
    chance_action_types: ClassVar[tuple[type[Action], ...]] = ()
    """The classes of `action_types` whose actions are chance outcomes."""
    option_space: ClassVar[OptionSpace]
    data_format: ClassVar[DataFormat[Any] | None] = None
    """The format of the data the rulebook leaves out (cards, layouts), for a game that has any;
    the game reads the value built from it as `self.data`."""
    legal_actions_sorted: ClassVar[bool] = False
    """True when `_legal_actions` already gives each action once, in canonical order; the
    shared API checker holds the game to it."""

    def __init__(
        self,
        players: int,
        options: Mapping[str, str] | None = None,
        *,
        strict: bool = False,
        data: str | Path | None = None,
    ) -> None:
        if not self.min_players <= players <= self.max_players:
            raise OptionError(f"{self.name} is for {self.min_players} to {self.max_players} players, not {players}")
        self.players = players
        self.options: Options = self.option_space.resolve(dict(options or {}))
        self.strict = strict
        if self.data_format is None and data is not None:
            raise OptionError(f"{self.name} takes no data file")
        self.loaded_data: LoadedData[Any] | None = None if self.data_format is None else self.data_format.load(data)
        """The data set this game plays with (the format's default unless `data` names a file)."""
        self._notation = Notation(self.action_types)
        self._numbered: tuple[Numbering, Numbering] | None = None
        """The player actions' and the chance outcomes' numberings, made on first use (`_numberings`)."""
        self._listed: tuple[Any, tuple[A, ...]] = _NONE_LISTED
        self._listed_before: tuple[Any, tuple[A, ...]] = _NONE_LISTED
        """The last two states whose legal actions were listed, each with them (`_listed` the newest):
        `apply` right after `legal_actions` on the same state object (random play, search) lists
        them once, and so does a look one step ahead (a state, then each state after it)."""
        self._prepare()

    def _prepare(self) -> None:
        """What a game builds once from its players, options and data (boards, rule tables);
        called at the end of construction. Nothing by default."""

    @classmethod
    def catalogue(cls) -> Catalogue:
        """The game's rule clauses, from specs/<name>.toml."""
        return load_catalogue(cls.name)

    @property
    def data(self) -> Any:
        """The value the game built from its data set; AttributeError for a game without data."""
        if self.loaded_data is None:
            raise AttributeError(f"{self.name} has no data set")
        return self.loaded_data.value

    @property
    def setup(self) -> dict[str, Any]:
        """What rebuilds this game: name, version, players, every option's value and, for a game
        with data, the data set's source and digest."""
        found = {
            "game": self.name,
            "version": self.version,
            "players": self.players,
            "options": dict(self.options.text),
        }
        if self.loaded_data is not None:
            found["data"] = self.loaded_data.to_data()
        return found

    # The transition system: the public calls, the same for every game.

    @abc.abstractmethod
    def initial_state(self) -> S: ...

    @abc.abstractmethod
    def to_move(self, state: S) -> int:
        """A player index (0-based), CHANCE or TERMINAL."""

    def is_terminal(self, state: S) -> bool:
        return self.to_move(state) == TERMINAL

    def legal_actions(self, state: S) -> tuple[A, ...]:
        """The legal actions sorted by their text, each once; at a chance node, the outcomes."""
        seen, known = self._listed
        if seen is state:
            return known
        seen, known = self._listed_before
        if seen is state:
            return known
        mover = self.to_move(state)
        legal: tuple[A, ...]
        if mover == TERMINAL:
            legal = ()
        elif mover == CHANCE:
            legal = _sorted_by_text(o for o, _ in self._chance_outcomes(state))
        elif self.legal_actions_sorted:
            legal = tuple(self._legal_actions(state, mover))
        else:
            legal = _sorted_by_text(self._legal_actions(state, mover))
        self._keep_listed(state, legal)
        return legal

    _legal = legal_actions
    """The legal actions in canonical order (sorted by text, so `apply` finds one by bisection): the
    kernel's `legal_actions` itself, which a game under test that overrides `legal_actions` leaves
    as it is (what `apply` checks against), named once here so that a call of it is one call."""

    def _keep_listed(self, state: S, legal: tuple[A, ...]) -> None:
        self._listed_before = self._listed
        self._listed = (state, legal)

    def remember_legal(self, state: S, legal: tuple[A, ...]) -> None:
        """Take `legal`, what `legal_actions(state)` returned for this very state object (sorted by
        text, unless a game under test breaks that promise: `apply` then finds an action by a scan),
        as the state's legal actions again, so that `apply` on the state checks its actions against them
        without listing them anew: a breadth-first search lists each state when it finds it and
        applies its actions much later, once the game keeps the listings of other states."""
        self._keep_listed(state, legal)

    def chance_outcomes(self, state: S) -> tuple[tuple[A, Fraction], ...]:
        """At a chance node, each outcome with its exact probability (summing to 1); else empty."""
        if self.to_move(state) != CHANCE:
            return ()
        return tuple(self._chance_outcomes(state))

    def apply(self, state: S, action: A) -> S:
        """The state after `action`; IllegalAction, naming the clause, if the rules forbid it.
        Every action is checked against the legal actions, so nothing illegal gets through."""
        legal = self._legal(state)
        at = bisect_left(legal, action.text, key=_TEXT)
        if at == len(legal) or ((found := legal[at]) is not action and found != action):
            if action not in legal:  # a listing handed to `remember_legal` may be in another order
                raise self._rejection(state, action)
        return self._apply(state, action)

    def _rejection(self, state: S, action: A) -> Exception:
        """Why `action` is not legal in `state`: the game's IllegalAction, or RulesDisagree when
        the game's own checks find nothing wrong with an action its legal actions leave out."""
        found = self._illegal(state, action)
        if found is None:
            return RulesDisagree(f"{self.name}: {str(action)!r} passes the rules' checks but is not a legal action")
        return found

    def losers(self, state: S) -> frozenset[int]:
        """The players who have lost in `state` (the self-loss check watches this set grow). Nobody
        by default: in a game of scores, nobody drops out during play."""
        return frozenset()

    def returns(self, state: S) -> tuple[Return, ...]:
        """Each player's exact outcome at a terminal state: under `win-loss`, 1 for a winner and
        -1 for a loser; under `scores`, the final scores. ValueError before the end."""
        if not self.is_terminal(state):
            raise ValueError(f"{self.name}: returns are defined at terminal states only")
        found = tuple(self._returns(state))
        if len(found) != self.players:
            raise ValueError(f"{self.name}: {len(found)} returns for {self.players} players")
        return found

    def return_bounds(self, max_steps: int) -> tuple[Return, Return]:
        """The least and the most any player's return can be in a game of at most `max_steps`
        steps: -1 and 1 under `win-loss`; a game of `scores` derives its own from its rules and
        data (ValueError for one that does not)."""
        if self.traits.outcome == WIN_LOSS:
            return -1, 1
        raise ValueError(f"{self.name}: derives no bounds on its scores")

    def progress(self, state: S) -> tuple[float, ...]:
        """Each player's standing in `state`, higher is better, for a player that plays toward it
        (the greedy policy, and the value of a playout a step cap cuts short) and for the measures
        of who leads during play (lead changes, decisiveness): a heuristic, no rule.
        By default the returns at a terminal state and 0 for everyone elsewhere; a game of scores
        gives its running scores, a win-loss game may give a heuristic its page documents."""
        if self.is_terminal(state):
            return tuple(float(r) for r in self.returns(state))
        return (0.0,) * self.players

    def winners(self, state: S) -> frozenset[int]:
        """The winners at a terminal state, a set since ties stand: under `win-loss` the players
        whose return is positive (none, when everyone loses); under `scores` every player with
        the highest score."""
        found = self.returns(state)
        if self.traits.outcome == WIN_LOSS:
            return frozenset(p for p, r in enumerate(found) if r > 0)
        assert self.traits.outcome == SCORES
        best = max(found)
        return frozenset(p for p, r in enumerate(found) if r == best)

    def blame(self, state: S, action: A) -> int | None:
        """The player responsible for the step `state --action-->`: the mover at a player node;
        at a chance node nobody, unless the game says whose action the chance follows from."""
        mover = self.to_move(state)
        return mover if mover >= 0 else None

    def observation(self, state: S, player: int) -> Any:
        """What `player` sees of `state`, hashable. Under perfect information, the whole state;
        a game with hidden parts returns only what that player may see."""
        return state

    def symmetries(self) -> tuple[Callable[[S], S], ...]:
        """Maps other than the identity that carry every state to an equivalent one: legal
        actions, chance and outcomes correspond. None by default; exploration merges the
        states each one relates."""
        return ()

    # The hooks a game implements.

    @abc.abstractmethod
    def _legal_actions(self, state: S, player: int) -> Iterable[A]:
        """The legal actions of `player`, who is to move in `state` (repeats and order do not matter
        unless `legal_actions_sorted` is set)."""

    @abc.abstractmethod
    def _chance_outcomes(self, state: S) -> Sequence[tuple[A, Fraction]]:
        """At a chance node (only there), each outcome with its exact probability."""

    @abc.abstractmethod
    def _apply(self, state: S, action: A) -> S:
        """The state after `action`, which is known to be legal in `state`."""

    @abc.abstractmethod
    def _illegal(self, state: S, action: A) -> IllegalAction | None:
        """Why `action` is not legal in `state`, naming the clause; None if the game's checks find
        nothing wrong with it (which, for an action not among the legal ones, is a defect)."""

    @abc.abstractmethod
    def _returns(self, state: S) -> Sequence[Return]:
        """Each player's return at the terminal `state`."""

    @abc.abstractmethod
    def action_domains(self) -> Mapping[type[Action], Sequence[Domain]]:
        """For each action class, the values each of its fields can take in this game (board
        spaces, piece kinds, die faces), from which the integer ids are numbered."""

    # Integer ids, for OpenSpiel and other engines; text stays the canonical notation.

    def _numberings(self) -> tuple[Numbering, Numbering]:
        """The numberings of player actions and of chance outcomes, made once and kept: every id
        asked for reads them."""
        if self._numbered is None:
            domains = self.action_domains()
            missing = set(self.action_types) - set(domains)
            if missing:
                raise ValueError(f"{self.name}: no domains for {sorted(c.__name__ for c in missing)}")
            chance = set(self.chance_action_types)
            self._numbered = (
                Numbering({c: domains[c] for c in self.action_types if c not in chance}),
                Numbering({c: domains[c] for c in self.action_types if c in chance}),
            )
        return self._numbered

    def num_distinct_actions(self) -> int:
        """How many player-action ids there are (legal somewhere or not)."""
        return self._numberings()[0].count

    def max_chance_outcomes(self) -> int:
        """How many chance-outcome ids there are."""
        return self._numberings()[1].count

    def action_id(self, action: A) -> int:
        """The integer id of a player action, or of a chance outcome among the outcome ids."""
        chance = type(action) in self.chance_action_types
        return self._numberings()[1 if chance else 0].id(action)

    def action_from_id(self, number: int, *, chance: bool = False) -> A:
        """The player action (or, with `chance`, the chance outcome) whose id is `number`."""
        return self._numberings()[1 if chance else 0].action(number)  # type: ignore[return-value]

    # Notation and encoding, the same for every game.

    def action_text(self, action: A) -> str:
        return str(action)

    def parse_action(self, text: str) -> A:
        return self._notation.parse(text)  # type: ignore[return-value]

    def encode_state(self, state: S) -> str:
        return encode(state)

    def decode_state(self, text: str) -> S:
        state: S = decode(self.state_type, text)
        return state

    # Rule gaps.

    def rule_gap(self, gap: str, detail: str, state: S) -> None:
        """Where the rules are silent and no option decides: raise in strict mode, else return
        so that the caller applies the documented default."""
        if self.strict:
            raise RuleGap(gap, detail, state)
