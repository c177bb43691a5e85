"""Readings that matter: two option values of one game that play differently from the same state.

Models: two builds of one game (`base` and `variant`, the same game and players under
different options) walked side by side along the base's actions. Both apply the same
action from the same state, so until they part their states are equal; at each state
the walk compares, in this order:
- the initial states (step 0, `initial state`), since an option may change the setup;
- who moves (`mover`): a player, chance, or nobody once the game is over;
- the choices there (`legal actions`, by text), or at a chance node the outcomes with
  their exact probabilities (`chance outcomes`);
- the next state after the trace's action (`outcome`), by canonical encoding. At the
  last state, where the trace has no action, every legal action's next state is
  compared instead, so a witness that ends where the readings part still shows it.
The first difference is the finding, with the number of actions leading to that state, told
in the game's words (positions/describe.py): the actions one reading allows and the other does not, by
who may take them, and the parts of the written position where two states part, or where
chance follows, the exact odds of each position it leads to under each reading.
Games of the base supply witnesses: random games (playthrough.random_game), undirected games of
clause-directed play shared by every reading of a game, and games directed toward the
clauses the option reads (play/pursuit.py); each is walked once, and from the states of a
clause-directed game where those clauses are touched a breadth-first search compares the
readings at every state nearby (lockstep). The witness trace is cut at the state where the
readings part.

Leaves out: differences off the walked lines of play (a reading that matters only in
states neither kind of game reaches is not found), which option of several caused a
difference, and any knowledge of a particular game: only the Game protocol and the game's
position format are used.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from itertools import accumulate
from typing import Any, Final

import attrs

from rulecheck.check.play.playthrough import random_game
from rulecheck.check.play.pursuit import Pursuit, pursue
from rulecheck.check.positions.ask import flatten
from rulecheck.check.positions.describe import LINE, mover_text, odds_text, value_text, written
from rulecheck.check.positions.scenario import ABSENT
from rulecheck.core.errors import RulecheckError
from rulecheck.core.game import CHANCE, Game
from rulecheck.core.notation import Action
from rulecheck.core.trace import Trace, record

INITIAL_STATE: Final = "initial state"
MOVER: Final = "mover"
LEGAL_ACTIONS: Final = "legal actions"
CHANCE_OUTCOMES: Final = "chance outcomes"
OUTCOME: Final = "outcome"

SHOWN: Final = 10
"""At most this many actions are named on each side of a detail line; the rest are counted."""


class IncomparableGames(RulecheckError, ValueError):
    """Two games that are not readings of one game: another game or another player count."""


@attrs.frozen
class Divergence:
    """Where two readings first part along a line of play."""

    step: int
    """How many actions of the trace lead to the state where the readings part (0: the initial state)."""
    what: str
    """INITIAL_STATE, MOVER, LEGAL_ACTIONS, CHANCE_OUTCOMES or OUTCOME."""
    action: str | None
    """For OUTCOME, the action whose next states differ; else None."""
    detail: str
    """One readable line naming each reading's side of the difference."""

    def to_data(self) -> dict[str, Any]:
        return attrs.asdict(self)

    def __str__(self) -> str:
        verb = "differ" if self.what.endswith("s") else "differs"
        return f"{self.what} {verb}: {self.detail}"


@attrs.frozen
class Labels:
    """How a detail line names the two readings: by the option values that differ."""

    base: str
    variant: str


def changed_options(base: Game[Any, Any], variant: Game[Any, Any]) -> tuple[str, ...]:
    """The names of the options whose values differ, in name order; IncomparableGames unless both are
    the same game for the same players."""
    if (base.name, base.players) != (variant.name, variant.players):
        raise IncomparableGames(
            f"cannot compare {base.name} for {base.players} players with {variant.name} for {variant.players}"
        )
    return tuple(name for name in base.options.text if base.options.text[name] != variant.options.text[name])


def reading_labels(base: Game[Any, Any], variant: Game[Any, Any]) -> Labels:
    """The two readings named by the option values that differ (`base` and `variant` when none do)."""
    changed = changed_options(base, variant)
    if not changed:
        return Labels("base", "variant")
    return Labels(
        ",".join(f"{name}={base.options.text[name]}" for name in changed),
        ",".join(f"{name}={variant.options.text[name]}" for name in changed),
    )


def _listed(items: Iterable[str]) -> str:
    names = sorted(items)
    more = f" and {len(names) - SHOWN} more" if len(names) > SHOWN else ""
    return ", ".join(names[:SHOWN]) + more


def _choices_apart(labels: Labels, who: str, choices: set[str], other_choices: set[str]) -> str:
    """How the variant's choices differ from the base's, in the mover's words: `under X player 0
    may also fortify T13`, `under X player 0 may not fortify T13, which Y allows`; at a chance
    node, the outcomes only one reading has."""
    gained, lost = other_choices - choices, choices - other_choices
    if who == "chance":
        parts = [f"only under {labels.base}: {_listed(lost)}" if lost else ""]
        parts.append(f"only under {labels.variant}: {_listed(gained)}" if gained else "")
        return "chance outcomes " + "; ".join(p for p in parts if p)
    parts = [f"under {labels.variant} {who} may also {_listed(gained)}" if gained else ""]
    parts.append(f"under {labels.variant} {who} may not {_listed(lost)}, which {labels.base} allows" if lost else "")
    return "; ".join(p for p in parts if p)


def _choices(game: Game[Any, Any], state: Any) -> set[str]:
    """The legal action texts, or at a chance node each outcome's text with its probability."""
    if game.to_move(state) == CHANCE:
        return {f"{game.action_text(o)} ({p})" for o, p in game.chance_outcomes(state)}
    return {game.action_text(a) for a in game.legal_actions(state)}


def _compare_choices(
    base: Game[Any, Any], variant: Game[Any, Any], state: Any, other: Any, labels: Labels, step: int
) -> Divergence | None:
    """A difference in who moves or what they may do at `state` (the base's) and `other` (the variant's)."""
    mover, other_mover = base.to_move(state), variant.to_move(other)
    if mover != other_mover:
        detail = f"under {labels.base}: {mover_text(mover)}; under {labels.variant}: {mover_text(other_mover)}"
        return Divergence(step, MOVER, None, detail)
    choices, other_choices = _choices(base, state), _choices(variant, other)
    if choices == other_choices:
        return None
    what = CHANCE_OUTCOMES if mover == CHANCE else LEGAL_ACTIONS
    return Divergence(step, what, None, _choices_apart(labels, mover_text(mover), choices, other_choices))


def _compare_next(
    base: Game[Any, Any],
    variant: Game[Any, Any],
    state: Any,
    action: Action,
    after: Any,
    other_after: Any,
    labels: Labels,
) -> str | None:
    """The detail of a difference between the next states after `action` from `state`, else None.
    Equal states (one engine's state type under both readings) have the same canonical JSON, so
    only unequal ones are encoded to compare."""
    if after == other_after or base.encode_state(after) == variant.encode_state(other_after):
        return None
    return f"after {base.action_text(action)}, {apart(labels, base, after, variant, other_after, state)}"


def apart(
    labels: Labels, base: Game[Any, Any], state: Any, variant: Game[Any, Any], other: Any, before: Any = None
) -> str:
    """Where two states part, in the words of the written position: `players.1.fortifications is
    T13 under X, none under Y`; where both are chance nodes reached from the state `before`, also
    the exact odds of each position chance leads to under each reading (when they fit a line
    each). Where the written positions agree (a part the position leaves to the options), the
    parts of the canonical JSON that differ."""
    parted = _leaves_apart(labels, written(base, state), written(variant, other))
    if before is not None and base.to_move(state) == CHANCE and variant.to_move(other) == CHANCE:
        odds, other_odds = odds_text(base, before, state), odds_text(variant, before, other)
        if not parted or max(len(odds), len(other_odds)) <= LINE:
            chance = f"chance then leads under {labels.base} to {odds}; under {labels.variant} to {other_odds}"
            return f"{parted}; {chance}" if parted else chance
    if parted:
        return parted
    encoded = flatten(json.loads(base.encode_state(state))), flatten(json.loads(variant.encode_state(other)))
    return f"in the state's JSON, which the written position leaves to the options: {_leaves_apart(labels, *encoded)}"


def _leaves_apart(labels: Labels, ours: dict[str, Any], theirs: dict[str, Any]) -> str:
    paths = sorted(p for p in ours.keys() | theirs.keys() if ours.get(p, ABSENT) != theirs.get(p, ABSENT))
    shown = [
        f"{p} is {value_text(ours.get(p, ABSENT))} under {labels.base}, {value_text(theirs.get(p, ABSENT))} "
        f"under {labels.variant}"
        for p in paths[:SHOWN]
    ]
    more = f" and {len(paths) - SHOWN} more parts" if len(paths) > SHOWN else ""
    return "; ".join(shown) + more


def _compare_every_outcome(
    base: Game[Any, Any], variant: Game[Any, Any], state: Any, other: Any, labels: Labels, step: int
) -> Divergence | None:
    """At a state where both readings offer the same actions: the first action, by text, whose next states differ."""
    for action in base.legal_actions(state):
        after, other_after = base.apply(state, action), variant.apply(other, action)
        detail = _compare_next(base, variant, state, action, after, other_after, labels)
        if detail is not None:
            return Divergence(step, OUTCOME, base.action_text(action), detail)
    return None


def _walk(
    base: Game[Any, Any], variant: Game[Any, Any], states: Iterator[Any], actions: Sequence[Action], start: str | None
) -> Divergence | None:
    """The first divergence along `actions`; `states` yields the base's states, the first one first
    (the initial state, or the state of canonical JSON `start`), and is advanced only as far as the
    walk goes."""
    labels = reading_labels(base, variant)
    state = next(states)
    other = variant.initial_state() if start is None else variant.decode_state(start)
    if base.encode_state(state) != variant.encode_state(other):
        return Divergence(0, INITIAL_STATE, None, apart(labels, base, state, variant, other))
    for step, action in enumerate(actions):
        found = _compare_choices(base, variant, state, other, labels, step)
        if found is not None:
            return found
        after, other_after = next(states), variant.apply(other, action)
        detail = _compare_next(base, variant, state, action, after, other_after, labels)
        if detail is not None:
            # Reported as the last state of a witness reports it: the first action, by text, that differs.
            found = _compare_every_outcome(base, variant, state, other, labels, step)
            return found or Divergence(step, OUTCOME, base.action_text(action), detail)
        state, other = after, other_after
    step = len(actions)
    return _compare_choices(base, variant, state, other, labels, step) or _compare_every_outcome(
        base, variant, state, other, labels, step
    )


def first_divergence(
    base: Game[Any, Any], variant: Game[Any, Any], actions: Sequence[Action], start: str | None = None
) -> Divergence | None:
    """Replay `actions` in both games from their initial states (or both from the state of canonical
    JSON `start`, a scenario's position, say); at each state compare who moves and
    the legal action texts (at a chance node, the outcomes with their exact probabilities), then the
    next state reached by the trace's action (by canonical encoding); at the last state, every legal
    action's next state. The first difference, else None. IllegalAction if the base rejects an action;
    IncomparableGames unless both are the same game for the same players."""
    first = base.initial_state() if start is None else base.decode_state(start)
    return _walk(base, variant, accumulate(actions, base.apply, initial=first), actions, start)


def lockstep(
    base: Game[Any, Any], variant: Game[Any, Any], root: Any, steps: int, states: int
) -> tuple[tuple[Action, ...], Divergence] | None:
    """Breadth-first search of the base from `root` (a state both readings reach alike, `steps`
    actions into a game), both readings compared at every state found (who moves, the choices,
    every action's next states), until `states` states have been compared. The first divergence
    with the actions from `root` to its state, else None."""
    labels = reading_labels(base, variant)
    queue: deque[tuple[Any, tuple[Action, ...]]] = deque([(root, ())])
    seen = {base.encode_state(root)}
    while queue and states > 0:
        state, path = queue.popleft()
        states -= 1
        step = steps + len(path)
        found = _compare_choices(base, variant, state, state, labels, step) or _compare_every_outcome(
            base, variant, state, state, labels, step
        )
        if found is not None:
            return path, found
        for action in base.legal_actions(state):
            after = base.apply(state, action)
            if (encoded := base.encode_state(after)) not in seen:
                seen.add(encoded)
                queue.append((after, (*path, action)))
    return None


NEAR_STATES: Final = 8
"""Of the states of a game where the option's clauses are touched, a lockstep search starts from
at most this many, evenly spread."""

_CORPUS: dict[tuple[str, int, int], Pursuit] = {}
"""Undirected games of clause-directed play, by the game's setup, seed and length: every option of
a game is compared along the same games, so a worker plays each once."""


def corpus_game(game: Game[Any, Any], seed: int, max_steps: int) -> Pursuit:
    """A game of clause-directed play with no target (novelty and favoured verbs lead it), kept for
    the other readings of the same game (at most a few dozen are kept)."""
    key = (json.dumps(game.setup, sort_keys=True), seed, max_steps)
    if key not in _CORPUS:
        if len(_CORPUS) >= 32:
            _CORPUS.pop(next(iter(_CORPUS)))
        _CORPUS[key] = pursue(game, (), seed, max_steps)
    return _CORPUS[key]


def _near(
    base: Game[Any, Any], variant: Game[Any, Any], pursuit: Pursuit, toward: frozenset[str], states: int
) -> tuple[Trace, Divergence] | None:
    """A lockstep search from the states of `pursuit` (walked without a divergence) where `toward`
    is touched."""
    played = pursuit.playthrough
    marked = [i for i, clauses in enumerate(pursuit.touched) if clauses & toward]
    chosen = marked[:: max(1, len(marked) // NEAR_STATES)][:NEAR_STATES]
    for index in chosen:
        found = lockstep(base, variant, played.states[index], index, states)
        if found is not None:
            path, divergence = found
            return record(base, (*played.actions[:index], *path)), divergence
    return None


def find_divergence(
    base: Game[Any, Any],
    variant: Game[Any, Any],
    seeds: Iterable[int],
    max_steps: int,
    toward: Iterable[str] = (),
    directed: int = 0,
    lockstep_states: int = 0,
) -> tuple[Trace, Divergence] | None:
    """Games of `base` until one shows a divergence, both readings compared at every state of each:
    per seed, a random game (playthrough.random_game); for the first `directed` seeds, also an undirected
    game of clause-directed play (shared by every reading of the game: corpus_game) and a game
    directed toward the clauses `toward` names (those the changed option reads). Where a game
    of clause-directed play touches those clauses, a lockstep search of `lockstep_states` states
    starts from up to NEAR_STATES of its states. The witness trace is recorded under `base`
    and holds exactly the actions leading to the state where the readings part. None if no game
    shows one."""
    targets = frozenset(toward)
    for rank, seed in enumerate(seeds):
        played = random_game(base, seed, max_steps)
        found = _walk(base, variant, iter(played.states), played.actions, None)
        if found is not None:
            return record(base, played.actions[: found.step]), found
        pursuits = [] if rank >= directed else [corpus_game(base, seed, max_steps)]
        if targets and rank < directed:
            pursuits.append(pursue(base, targets, seed, max_steps))
        for pursuit in pursuits:
            played = pursuit.playthrough
            found = _walk(base, variant, iter(played.states), played.actions, None)
            if found is not None:
                return record(base, played.actions[: found.step]), found
            if targets and lockstep_states:
                near = _near(base, variant, pursuit, targets, lockstep_states)
                if near is not None:
                    return near
    return None
