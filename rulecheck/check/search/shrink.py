"""Shrinking a witness: a shorter game that shows the same issue, for a person to follow.

Models: a game as its sequence of choices, each the index of the action taken among the
choices of its state (the legal actions, or at a chance node the outcomes, in canonical
order); a choice sequence is played by taking, at each state, the choice its index names
modulo how many there are, so every sequence plays a legal game. A game shows an issue
when the issue's key (kind and subject) first appears at one of its steps; the game is cut
there. Shrinking is delta debugging over the choices: remove chunks (halves, then quarters,
down to single choices) while the shorter sequence still shows the issue, then lower each
remaining choice to 0 (the first action in canonical order) where it still does. Each
attempt replays its game from the start, and the attempts stop when they have replayed
`budget` steps in all, so the result is the same on every machine. The clauses a witness
cites are those its issue names, or when it names none of the catalogue's (a self-loss, a
cycle, a deadlock, a gap's own id) also those the steps that show it exercised: the last
step, or every step of a cycle.

Leaves out: finding the issue in the first place (fuzz.py, explore.py), readings that part
(their witnesses are cut where the readings part, readings.py), and any claim that the
result is the shortest game: it is the shortest these deletions found within the budget.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from rulecheck.check.positions.ask import applied_clauses
from rulecheck.check.watch.generic import BROKEN_INVARIANT, CYCLE, Checks, Issue
from rulecheck.core.game import Game
from rulecheck.core.notation import Action
from rulecheck.core.trace import Shows, Trace, record
from rulecheck.model.properties import Property


@attrs.frozen
class Shrunk:
    """A witness after shrinking: its actions, the issue as the shorter game shows it, the
    clauses it cites, and the length of the game it was shrunk from."""

    actions: tuple[Action, ...]
    issue: Issue
    clauses: tuple[str, ...]
    shrunk_from: int

    def trace(self, game: Game[Any, Any]) -> Trace:
        """The shrunk game as a witness trace that says what it shows."""
        shows = Shows(self.issue.kind, self.issue.subject, self.issue.message, self.clauses, self.shrunk_from)
        return attrs.evolve(record(game, self.actions), shows=shows)


class _Player:
    """Plays choice sequences of one game, watching for one issue key, within a budget of steps."""

    def __init__(self, game: Game[Any, Any], properties: Sequence[Property], key: tuple[str, str], budget: int):
        kind = key[0]
        watched = tuple(properties) if kind == BROKEN_INVARIANT else ()
        self.checks = Checks(game, watched, frozenset({kind}))
        self.key = key
        self.budget = budget

    def shows(self, choices: Sequence[int]) -> list[int] | None:
        """The choices of the game `choices` plays, cut at the step where the issue first shows;
        None when it does not show (or the budget ran out)."""
        watch = self.checks.watch(self.checks.game.initial_state())
        taken: list[int] = []
        for choice in choices:
            if self.budget <= 0 or not watch.legal:
                return None
            self.budget -= 1
            index = choice % len(watch.legal)
            watch.step(watch.legal[index])
            if watch.steps < len(taken) + 1:  # an engine error ends the game
                return None
            taken.append(index)
            if any(issue.key == self.key for issue in watch.issues):
                return taken
        return None


def choices_of(game: Game[Any, Any], actions: Sequence[Action]) -> list[int]:
    """The index of each action among the choices of the state it was taken in."""
    state = game.initial_state()
    indices = []
    for action in actions:
        choices = game.legal_actions(state)
        indices.append(choices.index(action))
        state = game.apply(state, action)
    return indices


def _delete_chunks(player: _Player, best: list[int]) -> list[int]:
    chunk = len(best) // 2
    while chunk >= 1 and player.budget > 0:
        start, shrank = 0, False
        while start < len(best) and player.budget > 0:
            found = player.shows(best[:start] + best[start + chunk :])
            if found is not None and len(found) < len(best):
                best, shrank = found, True
            else:
                start += chunk
        if not shrank:
            chunk //= 2
    return best


def _lower(player: _Player, best: list[int]) -> list[int]:
    position = 0
    while position < len(best) and player.budget > 0:
        if best[position]:
            found = player.shows([*best[:position], 0, *best[position + 1 :]])
            if found is not None and len(found) <= len(best):
                best = found
        position += 1
    return best


def _play(game: Game[Any, Any], choices: Sequence[int]) -> list[Action]:
    state, actions = game.initial_state(), []
    for index in choices:
        action = game.legal_actions(state)[index]
        actions.append(action)
        state = game.apply(state, action)
    return actions


def _cited(
    game: Game[Any, Any], properties: Sequence[Property], actions: Sequence[Action], key: tuple[str, str]
) -> tuple[Issue, tuple[str, ...]]:
    """The issue with `key` at the last step of `actions`, and the clauses it cites: its own, or
    when none of them is in the catalogue (a self-loss, a cycle, a deadlock, a gap the rulebook
    leaves), also those applying the last action exercised (for a cycle, every action of it)."""
    watch = Checks(game, tuple(properties), frozenset({key[0]})).watch(game.initial_state())
    states: list[Any] = [watch.state]
    applied: list[tuple[str, ...]] = []
    for action in actions:
        applied.append(applied_clauses(game, watch.state, action))
        watch.step(action)
        states.append(watch.state)
    [issue] = [i for i in watch.issues if i.key == key]
    if set(issue.clauses) & set(game.catalogue().ids):
        return issue, issue.clauses
    first = states.index(states[-1]) if key[0] == CYCLE else len(actions) - 1
    exercised = sorted(set().union(*applied[first:]) - set(issue.clauses))
    return issue, (*issue.clauses, *exercised)


def shrink(
    game: Game[Any, Any], properties: Sequence[Property], actions: Sequence[Action], key: tuple[str, str], budget: int
) -> Shrunk:
    """A game no longer than `actions` (a game from the initial state whose last step shows the
    issue `key`) that shows the same issue at its last step, found by replaying at most
    `budget` steps in all."""
    player = _Player(game, properties, key, budget)
    best = choices_of(game, actions)
    best = _lower(player, _delete_chunks(player, best))
    shrunk = _play(game, best)
    issue, clauses = _cited(game, properties, shrunk, key)
    return Shrunk(tuple(shrunk), issue, clauses, len(actions))
