"""The one protocol every game implements: a pure transition system.

Models: a game built from a player count, option values and a strictness flag; its
initial state; who moves in a state (a player index, CHANCE or TERMINAL); the sorted
legal actions; the exact chance outcomes at chance nodes; `apply`, which returns
the next state or raises IllegalAction naming the clause; who has lost; and the
symmetries that map states to equivalent ones, for exploration to merge. States are
immutable and hashable; actions have a canonical text notation and states a canonical
JSON encoding, both handled here for every game.

Leaves out: how a game decides anything (its subclass's rules), and who plays
(strategies live in rulecheck.check).

A subclass sets the class attributes `name`, `version` (bumped whenever behaviour
changes, so conformance suites can tell), `min_players`, `max_players`,
`campaign_players`, `state_type`, `action_types` and `option_space`, and implements
the abstract methods.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import cached_property
from typing import Any, ClassVar, Final, Generic, TypeVar

from rulecheck.core.clauses import Catalogue, load_catalogue
from rulecheck.core.codec import decode, encode
from rulecheck.core.errors import OptionError, RuleGap
from rulecheck.core.notation import Action, Notation
from rulecheck.core.options import Options, OptionSpace

CHANCE: Final = -1
"""`to_move` of a chance node: the next action is an outcome from `chance_outcomes`."""
TERMINAL: Final = -2
"""`to_move` of a finished game: there are no legal actions."""

S = TypeVar("S")
A = TypeVar("A", bound=Action)


class Game(abc.ABC, Generic[S, A]):
    """A game under fixed players and options, as a transition system over immutable states."""

    name: ClassVar[str]
    version: ClassVar[int]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    campaign_players: ClassVar[tuple[int, ...]]
    """The player counts a verification campaign covers: one for each shape the game takes
    (a rule or a board that only some player counts have)."""
    state_type: ClassVar[type]
    action_types: ClassVar[tuple[type[Action], ...]]
    option_space: ClassVar[OptionSpace]

    def __init__(self, players: int, options: Mapping[str, str] | None = None, *, strict: bool = False) -> None:
        if not self.min_players <= players <= self.max_players:
            raise OptionError(f"{self.name} is for {self.min_players} to {self.max_players} players, not {players}")
        self.players = players
        self.options: Options = self.option_space.resolve(dict(options or {}))
        self.strict = strict
        self._notation = Notation(self.action_types)

    @classmethod
    def catalogue(cls) -> Catalogue:
        """The game's rule clauses, from specs/<name>.toml."""
        return load_catalogue(cls.name)

    @cached_property
    def setup(self) -> dict[str, Any]:
        """What rebuilds this game: name, version, players and every option's value."""
        return {"game": self.name, "version": self.version, "players": self.players, "options": dict(self.options)}

    # The transition system.

    @abc.abstractmethod
    def initial_state(self) -> S: ...

    @abc.abstractmethod
    def to_move(self, state: S) -> int:
        """A player index (0-based), CHANCE or TERMINAL."""

    @abc.abstractmethod
    def legal_actions(self, state: S) -> tuple[A, ...]:
        """The legal actions sorted by their text, each once; at a chance node, the outcomes."""

    @abc.abstractmethod
    def chance_outcomes(self, state: S) -> tuple[tuple[A, Fraction], ...]:
        """At a chance node, each outcome with its exact probability (summing to 1); else empty."""

    @abc.abstractmethod
    def apply(self, state: S, action: A) -> S:
        """The state after `action`; IllegalAction, naming the clause, if the rules forbid it."""

    @abc.abstractmethod
    def losers(self, state: S) -> frozenset[int]:
        """The players who have lost in `state` (the self-loss check watches this set grow)."""

    def is_terminal(self, state: S) -> bool:
        return self.to_move(state) == TERMINAL

    def symmetries(self) -> tuple[Callable[[S], S], ...]:
        """Maps other than the identity that carry every state to an equivalent one: legal
        actions, chance and outcomes correspond. None by default; exploration merges the
        states each one relates."""
        return ()

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
