"""Bounded exhaustive exploration: a breadth-first search of a game's states, every edge checked.

Models: the search from one start state (the initial state, or the state a list of
actions reaches from it or from a given state, such as a scenario's position) to a depth
in levels or a count of distinct states, whichever comes first, and whether it ran out of
states before either (exhaustive). Chance nodes are expanded like the others: each
outcome is an edge. Every edge and every new state
gets the generic checks (watch/generic.py): broken invariants, deadlocks, self-losses, rule
gaps (through a strict twin; the search goes on from the lenient game's state) and
engine errors; a state reached again is not checked again, but the edge to it is
(transition properties, self-loss, rule gap). Each discovered state keeps its parent
and the action from it, so every issue comes with a replayable trace, and breadth-first
order makes it a shortest one.
Each distinct issue (kind, subject) is reported once. An engine error's trace stops
before the action that raised, which its message names.

States are merged by key: the state itself, as two states are equal exactly when their
canonical encodings are (the shared API checker holds every game to it), so no state is
encoded. With `symmetry` and a game that has symmetries (maps that, with the identity,
form a group), a state reached is merged with a known one when it or one of its images
is that one, so each class of equivalent states is searched once, from the first of its
members reached; a new state thus costs one image per symmetry. At a chance node the key
also holds the player who acted last and the verb of their action, which the self-loss
check blames for what the dice do.

Non-termination is a cycle of player steps among the discovered states: after the
search, the graph of player-step edges is searched depth first for one, and its witness
walks to the cycle's shallowest state and around the cycle until a state recurs (under
symmetry the walk may go round more than once before the very state recurs). A cycle
through a chance node is not reported: it repeats forever only with probability 0.

Each issue's witness goes to `on_found` as soon as it is seen, so a caller can save it before
the search ends; a search stopped by a signal (signals.Interrupted) reports what it found so
far, marked as interrupted and not exhaustive.

Leaves out: random runs (fuzz), proofs (prove), probabilities of reaching a state, and
states beyond the limits (an issue there is not seen; `exhaustive` says whether any
could be).
"""

from __future__ import annotations

import gc
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from typing import Any

import attrs

from rulecheck.check.running.signals import Interrupted
from rulecheck.check.running.signals import check as check_signals
from rulecheck.check.watch.generic import (
    CYCLE,
    KINDS,
    Checks,
    Found,
    Issue,
    IssueReport,
    apply_step,
    broken_invariants,
    cycle,
    engine_error,
    legal_step,
    self_loss,
    state_issues,
)
from rulecheck.core.clauses import coverage
from rulecheck.core.errors import RulecheckError
from rulecheck.core.game import CHANCE, Game
from rulecheck.core.notation import Action
from rulecheck.core.progress import Progress, no_progress
from rulecheck.core.trace import record
from rulecheck.model.properties import Property

Key = tuple[Any, int | None, str | None]
"""A state, with the last actor and their verb at a chance node."""


class ExploreError(RulecheckError, ValueError):
    """Limits that allow no search, or a symmetry under which a found cycle has no real walk."""


@attrs.frozen
class ExploreReport(IssueReport):
    setup: dict[str, Any]
    start_steps: int
    """Actions from the initial state to the start state; every witness trace begins with them."""
    limits: tuple[int | None, int | None]
    """The depth and state count the search was given."""
    states: int
    """Distinct states discovered (classes of equivalent states, under symmetry)."""
    edges: int
    depth: int
    """The deepest level reached."""
    levels: tuple[int, ...]
    """How many states were first reached at each level, the start state's 0 first."""
    exhaustive: bool
    """Whether every discovered state was expanded: no state is reachable beyond the ones found."""
    seconds: float
    symmetry: bool
    """Whether states were merged under the game's symmetries."""
    found: tuple[Found, ...]
    clause_counts: dict[str, int]
    clause_ids: tuple[str, ...]
    interrupted: str | None = None
    """The signal that stopped the search before its limits, if one did."""

    @property
    def states_per_second(self) -> float:
        return self.states / self.seconds if self.seconds else 0.0

    def to_data(self) -> dict[str, Any]:
        return {
            "setup": self.setup,
            "start_steps": self.start_steps,
            "limits": {"depth": self.limits[0], "states": self.limits[1]},
            "states": self.states,
            "edges": self.edges,
            "depth": self.depth,
            "levels": list(self.levels),
            "exhaustive": self.exhaustive,
            "seconds": round(self.seconds, 3),
            "states_per_second": round(self.states_per_second, 1),
            "symmetry": self.symmetry,
            "interrupted": self.interrupted,
            **self.issues_data(),
        }


@attrs.define
class _Node:
    """A discovered state waiting in the frontier, with what expanding it needs (never changed:
    not frozen, as a frozen class costs more to make, once for each state)."""

    index: int
    state: Any
    depth: int
    legal: tuple[Action, ...]
    strict: bool
    """Whether the strict twin listed `legal` (the listing shows no rule gap): it takes them again
    when the state is expanded, instead of listing them anew."""
    cause: Action | None
    """The last player action on the path here."""


def _reach(game: Game[Any, Any], actions: Sequence[Action], origin: Any) -> tuple[Any, int | None, Action | None]:
    """The state `actions` reach from `origin` (None: the initial state), the player to blame for
    the last step and the last player action on the way (None before anyone acts)."""
    state, actor, cause = game.initial_state() if origin is None else origin, None, None
    for action in actions:
        actor = game.blame(state, action)
        if game.to_move(state) != CHANCE:
            cause = action
        state = game.apply(state, action)
    return state, actor, cause


def first_cycle(steps: Sequence[tuple[int, int]]) -> list[int] | None:
    """The nodes round the first cycle that a depth-first search of the graph of `steps` (edges
    between numbered nodes) meets, from the node the search was in when it met the cycle's first
    node again, or None for a graph without one. The search tries the nodes in the order they
    first appear in `steps`, and the successors of each in the order of its edges: the cycle
    networkx's find_cycle reports for the same graph, found without building one."""
    successors: dict[int, dict[int, None]] = {}
    for tail, head in steps:
        successors.setdefault(tail, {})[head] = None
        successors.setdefault(head, {})
    finished: set[int] = set()
    for root in successors:
        if root in finished:
            continue
        path = {root: None}
        """The nodes from the root to the one searched now, in order (a dict: a set that keeps it)."""
        untried = [iter(successors[root])]
        while untried:
            for head in untried[-1]:
                if head in path:
                    nodes = list(path)
                    return nodes[nodes.index(head) :]
                if head not in finished:
                    path[head] = None
                    untried.append(iter(successors[head]))
                    break
            else:
                untried.pop()
                finished.add(path.popitem()[0])
    return None


class _Search:
    """The mutable record of one breadth-first search."""

    def __init__(
        self,
        checks: Checks,
        start: Sequence[Action],
        maps: Sequence[Callable[[Any], Any]],
        on_found: Callable[[Found], None] | None,
        origin: Any,
    ) -> None:
        self.checks = checks
        self.on_found = on_found
        self.origin = origin
        """The state the start actions are played from (None: the initial state)."""
        self.game = checks.game
        self.start = tuple(start)
        self.maps = tuple(maps)
        self.index: dict[Key, int] = {}
        self.keys: list[Key] = []
        self.parents: list[tuple[int, Action] | None] = []
        self.depths: list[int] = []
        self.player_steps: list[tuple[int, int]] = []
        """Every player step between discovered states, by their numbers (a graph for the cycle
        search once the search ends)."""
        self.shown: dict[tuple[str, str], tuple[Issue, list[Action]]] = {}
        """Each issue seen, by key, with the actions after the start that show it."""
        self.transition_properties = checks.transition_properties
        self.cycles = CYCLE in checks.kinds
        """Whether the search looks for a cycle of player steps (and keeps `player_steps` for it)."""
        self.edges = 0
        self.stopped = False
        """Whether a state budget stopped the search inside a state's expansion."""

    def key(self, state: Any, actor: int | None, cause: Action | None) -> Key:
        if cause is not None and self.game.to_move(state) == CHANCE:
            return (state, actor, cause.verb)
        return (state, None, None)

    def known(self, key: Key) -> int | None:
        """The number of the discovered state `key` names, itself or, under symmetry, by an image."""
        found = self.index.get(key)
        if found is None and self.maps:
            state, actor, verb = key
            for image in self.maps:
                found = self.index.get((image(state), actor, verb))
                if found is not None:
                    break
        return found

    def path(self, index: int, then: Action | None = None) -> list[Action]:
        """The actions from the start state to the state numbered `index`, and `then` if given."""
        actions = [] if then is None else [then]
        link = self.parents[index]
        while link is not None:
            index, action = link
            actions.append(action)
            link = self.parents[index]
        return actions[::-1]

    def report(self, issues: Sequence[Issue], witness: Callable[[], list[Action]]) -> None:
        """Note each issue not seen yet, with `witness()`, the actions after the start that show it."""
        if not issues:
            return
        for issue in self.checks.keep(issues):
            if issue.key not in self.shown:
                self.shown[issue.key] = (issue, witness())
                if self.on_found is not None:
                    self.on_found(self.trace(issue, self.shown[issue.key][1]))

    def trace(self, issue: Issue, actions: list[Action]) -> Found:
        """An issue with its witness, `actions` after the start, as a trace from the initial state."""
        return Found(issue, record(self.game, [*self.start, *actions], start=self.origin))

    def found(self) -> tuple[Found, ...]:
        """Each issue seen, with its witness as a trace from the initial state."""
        return tuple(self.trace(issue, actions) for issue, actions in self.shown.values())

    def discover(
        self, key: Key, state: Any, parent: tuple[int, Action] | None, depth: int, cause: Action | None
    ) -> _Node:
        """Number the state `key` names, reached from `parent` (its number and the action from it)
        at `depth`, and list its legal actions. The caller has entered the key in `index` with
        its number, the number of states known before it."""
        index = len(self.keys)
        self.keys.append(key)
        self.parents.append(parent)
        self.depths.append(depth)
        legal, gaps = legal_step(self.checks, state)
        if gaps:
            self.report(gaps, partial(self.path, index))
        return _Node(index, state, depth, legal, not gaps, cause)

    def begin(self, state: Any, actor: int | None, cause: Action | None) -> _Node:
        """Discover the start state, reached by `cause`, the last player action on the way."""
        key = self.key(state, actor, cause)
        self.index[key] = 0
        node = self.discover(key, state, None, 0, cause)
        self.report(state_issues(self.checks, None, None, state, node.legal, None, None), list)
        return node

    def expand(self, node: _Node, budget: int | None) -> list[_Node]:
        """The states first reached from `node`, every edge checked; once `budget` states are
        known, the expansion stops and `stopped` is set. A state reached is looked up and, when
        new, numbered in one go (one hash of its key; under symmetry, after its images)."""
        game, state, checks, index, keys = self.game, node.state, self.checks, self.index, self.keys
        chance = game.to_move(state) == CHANCE
        player_steps = self.player_steps if not chance and self.cycles else None
        transition, maps, depth = self.transition_properties, self.maps, node.depth + 1
        children = []
        for action, stepped in self.steps(node):
            number = len(keys)
            if budget is not None and number >= budget:
                self.stopped = True
                break
            self.edges += 1
            if isinstance(stepped, Exception):
                self.report([engine_error(action, stepped)], partial(self.path, node.index))
                continue
            after, issues = stepped
            actor, cause = game.blame(state, action), node.cause if chance else action
            key = self.key(after, actor, cause)
            if maps:
                known = self.known(key)
                if known is None:
                    index[key] = known = number
            else:
                known = index.setdefault(key, number)
            if known == number:
                child = self.discover(key, after, (node.index, action), depth, cause)
                issues += state_issues(checks, state, action, after, child.legal, actor, cause)
                children.append(child)
            else:
                issues += broken_invariants(game, transition, state, action, after)
                issues += self_loss(game, state, after, actor, cause)
            if issues:
                self.report(issues, partial(self.path, node.index, action))
            if player_steps is not None:
                player_steps.append((node.index, known))
        return children

    def steps(self, node: _Node) -> list[tuple[Action, tuple[Any, list[Issue]] | Exception]]:
        """Each legal action of `node` with the state after it and the rule gap it shows, or what
        applying it raised. All are applied before any state after them is looked at, so the
        game lists the node's legal actions (which `apply` checks against) once, or, if it listed
        them when the node was found, takes them again."""
        if node.strict:
            self.checks.strict.remember_legal(node.state, node.legal)
        found: list[tuple[Action, tuple[Any, list[Issue]] | Exception]] = []
        for action in node.legal:
            try:
                found.append((action, apply_step(self.checks, node.state, action)))
            except Exception as exc:  # noqa: BLE001 - an engine that raises on a legal action is a finding
                found.append((action, exc))
        return found

    def report_cycle(self) -> None:
        """One cycle of player steps, if the discovered states hold any."""
        ring = first_cycle(self.player_steps)
        if ring is None:
            return
        first = min(range(len(ring)), key=lambda i: self.depths[ring[i]])
        actions, earlier = self.walk(ring[first:] + ring[:first])
        self.report([cycle(len(self.start) + earlier, len(self.start) + len(actions))], lambda: actions)

    def walk(self, ring: list[int]) -> tuple[list[Action], int]:
        """The actions from the start state to ring[0] and round the ring until a state recurs,
        and after how many of them the recurring state was first reached."""
        actions = self.path(ring[0])
        state = self.game.initial_state() if self.origin is None else self.origin
        for action in [*self.start, *actions]:
            state = self.game.apply(state, action)
        seen = {state: len(actions)}
        step = 0
        while True:
            step += 1
            state, action = self.step_towards(state, self.keys[ring[step % len(ring)]])
            actions.append(action)
            if state in seen:
                return actions, seen[state]
            seen[state] = len(actions)

    def step_towards(self, state: Any, target: Key) -> tuple[Any, Action]:
        """A player step from `state` to a state of key `target`, with its action."""
        mover = self.game.to_move(state)
        for action in self.game.legal_actions(state):
            try:
                after = self.game.apply(state, action)
            except Exception:  # noqa: BLE001 - reported as an engine error already
                continue
            if self.known(self.key(after, mover, action)) == self.index[target]:
                return after, action
        raise ExploreError(
            f"{self.game.name}: no action leads from state {self.game.encode_state(state)[:60]}... to the next "
            "state of a cycle among equivalent states: a symmetry of the game does not preserve its actions"
        )


SETTLE_FIRST = 1000
"""States found before the first move of what is alive out of the collector's walks."""


@contextmanager
def _kept_from_collection() -> Iterator[Callable[[int], None]]:
    """A search keeps every state it finds until it ends, and the cyclic garbage collector walks
    each of them again at every full collection, which costs more the larger the search. Yields
    `settle(found)`, which, each time the states found double, moves everything alive to the
    collector's permanent generation (`gc.freeze`), so collections walk only what is newer; at
    the end all of it moves back (`gc.unfreeze`). A frozen object is still freed when its last
    reference goes; only a reference cycle among frozen objects that becomes garbage waits for
    the search to end. A process that froze objects of its own is left alone, as unfreezing
    cannot tell its objects from ours."""
    if gc.get_freeze_count():
        yield lambda found: None
        return
    due = SETTLE_FIRST

    def settle(found: int) -> None:
        nonlocal due
        if found >= due:
            gc.freeze()
            due = 2 * found

    try:
        yield settle
    finally:
        gc.unfreeze()


def explore(
    game: Game[Any, Any],
    start_actions: Sequence[Action] = (),
    *,
    depth: int | None,
    states: int | None,
    properties: Sequence[Property] = (),
    kinds: frozenset[str] = KINDS,
    symmetry: bool = True,
    on_found: Callable[[Found], None] | None = None,
    origin: Any = None,
    progress: Progress = no_progress,
) -> ExploreReport:
    """Search `game` breadth-first from the state `start_actions` reach from `origin` (a state, a
    scenario's position say; None: the initial state), to `depth` levels or
    `states` distinct states, whichever comes first (None: no limit), checking `properties` and
    watching for issues of `kinds`, each issue's witness handed to `on_found` when first seen;
    with `symmetry`, states equivalent under the game's symmetries are searched once. `progress` hears
    the distinct states known after each expansion, out of `states` (None without a state limit), and
    at the end of a search no signal stopped, the states found out of the same."""
    if (depth is not None and depth < 0) or (states is not None and states < 1):
        raise ExploreError(f"explore needs a depth of 0 or more and 1 state or more, not {depth} and {states}")
    maps = game.symmetries() if symmetry else ()
    search = _Search(Checks(game, tuple(properties), kinds), start_actions, maps, on_found, origin)
    start = _reach(game, start_actions, origin)
    began = time.perf_counter()
    cut = False
    interrupted = None
    with coverage() as counts, _kept_from_collection() as settle:
        frontier = deque([search.begin(*start)])
        try:
            while frontier and not search.stopped:
                check_signals()
                node = frontier.popleft()
                if node.legal and depth is not None and node.depth >= depth:
                    cut = True
                    break
                frontier.extend(search.expand(node, states))
                settle(len(search.keys))
                progress(len(search.keys), states)
        except Interrupted as stop:
            interrupted = stop.name
    if CYCLE in kinds and interrupted is None:
        search.report_cycle()
    if interrupted is None:  # the job is done: the bar full
        progress(len(search.keys), len(search.keys))
    seconds = time.perf_counter() - began
    return ExploreReport(
        setup=game.setup,
        start_steps=len(search.start),
        limits=(depth, states),
        states=len(search.keys),
        edges=search.edges,
        depth=search.depths[-1],
        levels=tuple(Counter(search.depths)[level] for level in range(search.depths[-1] + 1)),
        exhaustive=not (cut or search.stopped or interrupted),
        seconds=seconds,
        symmetry=bool(maps),
        found=search.found(),
        clause_counts=dict(counts),
        clause_ids=game.catalogue().ids,
        interrupted=interrupted,
    )
