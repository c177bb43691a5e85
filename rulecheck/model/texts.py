"""What a rulebook sentence says, as data the silent-decision finder reads: text contracts.

Models: a contract per clause (`TextContract`), written from the clause's rulebook sentence and
quoting it: the actions the sentence makes available (`Permit`), the actions it rules out after
some step (`Forbid`), how many choices of one verb it offers (`Choice`), how many turns in a row a
player may take (`Run`), what no step may leave (`Never`), when the game may end (`End`), and the
questions it leaves open (`Open`: the finder reports the engine's answer and whether an option
changes it). Every predicate reads only what a rule designer sees (`At`): the game's written
position (its position writer's output, flattened to dotted paths such as `players.0.wallet`),
the position before the last step and the action text of that step, the player count and the
game's data. A contract never names an option and never reads engine internals.

Leaves out: the search that checks contracts against the engine (rulecheck/check/search/silent.py)
and each game's contracts (rulecheck/games/<game>/texts.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

Position = Mapping[str, Any]
"""A written position's leaves by dotted path, as rulecheck/check/positions/ask.py flattens it."""


@attrs.frozen
class At:
    """One moment of play as the text sees it: the written position, the game's data and player
    count, and, when a step led here, the position before it and the action taken (its text)."""

    position: Position
    players: int
    data: Any
    before: Position | None = None
    action: str | None = None

    @property
    def verb(self) -> str | None:
        """The first word of the last action's text (`place`, `fork`), None before any step."""
        return None if self.action is None else self.action.split()[0]

    def player(self, number: int, part: str, default: Any = None) -> Any:
        """A leaf of one player's part of the position: `player(0, "wallet")`."""
        return self.position.get(f"players.{number}.{part}", default)

    def grouped(self, prefix: str) -> dict[str, Any]:
        """The leaves under `prefix.` by the rest of their path: `grouped("players.0.bots")`."""
        start = f"{prefix}."
        return {path[len(start) :]: value for path, value in self.position.items() if path.startswith(start)}


@attrs.frozen
class Permit:
    """The text makes an action of `verb` available: `offers` gives one such action's text where
    the sentence allows it (None where the sentence does not speak). With `effect`, the action is
    told by what it does, not by its text (for a move the engine's notation may name otherwise or
    lack): `offers` then says it in words, and the text is kept where some legal action leads to
    a position (the `At` after it, with the position before) where `effect` holds. Without it, a
    legal action whose text is the offered one with more words (a choice the sentence does not
    speak of, such as a Fork's side) does it too."""

    verb: str
    offers: Callable[[At], str | None]
    effect: Callable[[At], bool] | None = None


@attrs.frozen
class Forbid:
    """Once `when` holds, the text rules out every action of the verbs `verbs` (all verbs when
    None) but those of the verbs `still` and those `but` keeps (given the action's text)."""

    still: frozenset[str]
    when: Callable[[At], bool]
    what: str
    """The situation in words (`the last token was placed in an extra turn`)."""
    verbs: frozenset[str] | None = None
    but: Callable[[At, str], bool] | None = None

    def rules_out(self, at: At, action: str) -> bool:
        """Whether the text rules out `action` (its text) where `when` holds."""
        verb = action.split()[0]
        spoken = self.verbs is None or verb in self.verbs
        return spoken and verb not in self.still and not (self.but is not None and self.but(at, action))


@attrs.frozen
class Choice:
    """How many legal actions of `verb`, grouped by `group` (of the action's text), the text
    offers: at most `at_most` per group, and at least `at_least(at)` in all where given."""

    verb: str
    group: Callable[[str], str]
    at_most: int | None = None
    at_least: Callable[[At], int] | None = None
    what: str = ""


@attrs.frozen
class Run:
    """A player takes at most `most` turns in a row: `ends_turn` names the player whose turn a
    step ends (None for a step inside a turn); `applies` says where the sentence speaks."""

    most: int
    ends_turn: Callable[[At], int | None]
    applies: Callable[[At], bool]
    what: str


@attrs.frozen
class Never:
    """The text rules out a position where `holds` is true after a step (`what` says it in words)."""

    name: str
    holds: Callable[[At], bool]
    what: str


@attrs.frozen
class End:
    """The game may be over only where `holds` is true (`name`: the condition, in a few words)."""

    name: str
    holds: Callable[[At], bool]
    what: str


@attrs.frozen
class Open:
    """Where `when` holds, the sentence leaves open whether an action of `verb` (of those `about`
    keeps, given the action's text, when given) may be taken (`what` asks it in words): the finder
    reports the engine's answer (it allows or refuses one) and whether any option changes it."""

    verb: str
    when: Callable[[At], bool]
    what: str
    about: Callable[[At, str], bool] | None = None


@attrs.frozen
class TextContract:
    """What one clause's sentence says, with the sentence quoted from its rulebook line."""

    clause: str
    line: int
    quote: str
    """Words of rulebook line `line`, as written there."""
    permits: tuple[Permit, ...] = ()
    forbids: tuple[Forbid, ...] = ()
    choices: tuple[Choice, ...] = ()
    never: tuple[Never, ...] = ()
    open: tuple[Open, ...] = ()
    run: Run | None = None
    ends: tuple[End, ...] = ()
