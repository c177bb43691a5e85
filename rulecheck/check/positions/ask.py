"""What the rules allow in a scenario's position: legal actions, an action's exact outcomes, and
how the answer changes with each option's value.

Models: the legal actions in a position, each with the clauses its effect exercises; what one
action does there (refused by a clause, or the exact distribution of the positions it leads to,
chance included, as far as the next decision by a player or the end, equal positions merged,
each with the parts of the written position it changes), and what a chain of actions does,
each applied in every position the one before led to (the share in which one is refused kept
apart, by reason); the sweep, which asks the same under
every other value of every option, one at a time, and groups values by the answer they give;
and the check of a case's expected answers against the computed ones, with a readable
difference. Chance that loops (a tie re-rolled) is solved exactly, as an absorbing Markov
chain over the chance positions it passes through.

Leaves out: reading scenario files (scenario.py) and presentation (effect_text.py, the command).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any, Final

import attrs
import networkx as nx

from rulecheck.check.positions.effect_text import changes_line
from rulecheck.check.positions.scenario import ABSENT, Answer, Reading, Scenario
from rulecheck.core.clauses import coverage
from rulecheck.core.errors import IllegalAction, RulecheckError, ScenarioError
from rulecheck.core.game import CHANCE, Game
from rulecheck.registry import declaration

CHANCE_STATES: Final = 2_000
"""The most chance positions an action's outcomes are followed through."""
LOOPING_STATES: Final = 60
"""The most chance positions in a loop of chance that is solved exactly."""


@attrs.frozen
class Allowed:
    """A legal action and the clauses applying it exercises."""

    action: str
    clauses: tuple[str, ...]

    def to_data(self) -> dict[str, Any]:
        return {"action": self.action, "clauses": list(self.clauses)}


@attrs.frozen
class Result:
    """One position an action leads to, with its exact probability and what it changes."""

    probability: Fraction
    changed: tuple[tuple[str, Any], ...]
    state: Any = attrs.field(eq=False, repr=False)

    def to_data(self) -> dict[str, Any]:
        return {
            "probability": str(self.probability),
            "decimal": float(self.probability),
            "changed": dict(self.changed),
        }


@attrs.frozen
class Refusal:
    """The share of the positions a chain of actions reached in which its next action is refused, and why."""

    probability: Fraction
    clause: str
    reason: str

    def to_data(self) -> dict[str, Any]:
        return {
            "probability": str(self.probability),
            "decimal": float(self.probability),
            "illegal": self.clause,
            "reason": self.reason,
        }


@attrs.frozen
class Effect:
    """What an action does in a position, or in each position the actions before it in a chain
    led to: refused by `clause` (in every one), or leading to `results`, the positions reached so
    far, each with what it changes from the scenario's position; `refused` lists the positions in
    which it was refused, by reason, where there are any beside results (or several reasons)."""

    action: str
    clause: str | None = None
    reason: str | None = None
    results: tuple[Result, ...] = ()
    refused: tuple[Refusal, ...] = ()

    def to_data(self) -> dict[str, Any]:
        if self.clause is not None:
            found: dict[str, Any] = {"action": self.action, "illegal": self.clause, "reason": self.reason}
        else:
            found = {"action": self.action, "outcomes": [r.to_data() for r in self.results]}
        return found | ({"refused": [r.to_data() for r in self.refused]} if self.refused else {})


def applied_clauses(game: Game[Any, Any], state: Any, action: Any) -> tuple[str, ...]:
    """The clauses applying `action` at `state` exercises, in order: its effect's own, since the
    legal actions `apply` checks it against are listed first, outside the count."""
    game.legal_actions(state)
    with coverage(isolated=True) as counts:
        game.apply(state, action)
    return tuple(sorted(counts))


def legal(scenario: Scenario) -> tuple[Allowed, ...]:
    """The legal actions in the scenario's position, in canonical order, each with its clauses."""
    game, state = scenario.game, scenario.state
    return tuple(Allowed(game.action_text(a), applied_clauses(game, state, a)) for a in game.legal_actions(state))


def effect(scenario: Scenario, text: str) -> Effect:
    """What the action `text` does in the scenario's position."""
    return effects(scenario, [text])[0]


def effects(scenario: Scenario, texts: Sequence[str]) -> tuple[Effect, ...]:
    """What the actions `texts` do in turn from the scenario's position, each applied in every
    position the one before led to (equal positions merged), up to the first refused in every one."""
    game = scenario.game
    write = declaration(game.name).position_format().write
    before = flatten(write(game, scenario.state))
    reached: list[tuple[Fraction, Any]] = [(Fraction(1), scenario.state)]
    found: list[Effect] = []
    for text in texts:
        action = game.parse_action(text)
        merged: dict[Any, tuple[Fraction, Any]] = {}
        refused: dict[tuple[str, str], Fraction] = {}
        for probability, state in reached:
            try:
                after = game.apply(state, action)
            except IllegalAction as exc:
                refused[exc.clause, exc.reason] = refused.get((exc.clause, exc.reason), Fraction(0)) + probability
                continue
            for chance, end in resolve_chance(game, after, scenario.source):
                key = game.encode_state(end)
                merged[key] = (merged.get(key, (Fraction(0), end))[0] + probability * chance, end)
        refusals = tuple(
            sorted((Refusal(p, *why) for why, p in refused.items()), key=lambda r: (-r.probability, r.clause, r.reason))
        )
        results = [Result(p, changes(before, flatten(write(game, end))), end) for p, end in merged.values()]
        if not results:
            first = refusals[0]
            found.append(Effect(text, first.clause, first.reason, refused=refusals if len(refusals) > 1 else ()))
            break
        results.sort(key=lambda r: (-r.probability, json.dumps(r.changed)))
        found.append(Effect(text, results=tuple(results), refused=refusals))
        reached = [(r.probability, r.state) for r in results]
    return tuple(found)


def chain_data(scenario: Scenario, texts: Sequence[str]) -> dict[str, Any]:
    """The answer of `apply` as data: one action's Effect, or for several, each one's in turn
    (`steps`) and the actions not applied after one refused in every position (`not_applied`)."""
    found = effects(scenario, texts)
    if len(texts) == 1:
        return found[0].to_data()
    return {"steps": [e.to_data() for e in found], "not_applied": list(texts[len(found) :])}


def resolve_chance(game: Game[Any, Any], start: Any, source: str) -> list[tuple[Fraction, Any]]:
    """The positions where a player decides (or the game ends) that chance leads to from `start`,
    each with its exact probability."""
    if game.to_move(start) != CHANCE:
        return [(Fraction(1), start)]
    graph: nx.DiGraph[str] = nx.DiGraph()
    states = {game.encode_state(start): start}
    pending = [game.encode_state(start)]
    chance_positions = 1
    while pending:
        key = pending.pop()
        for outcome, probability in game.chance_outcomes(states[key]):
            after = game.apply(states[key], outcome)
            target = game.encode_state(after)
            if target not in states:
                states[target] = after
                if game.to_move(after) == CHANCE:
                    pending.append(target)
                    chance_positions += 1
                    if chance_positions > CHANCE_STATES:
                        raise ScenarioError(f"{source}: chance goes on past {CHANCE_STATES:,} positions")
            weight = graph.edges[key, target]["p"] if graph.has_edge(key, target) else Fraction(0)
            graph.add_edge(key, target, p=weight + probability)
    reach = absorption(graph, game.encode_state(start), {k for k, s in states.items() if game.to_move(s) != CHANCE})
    return [(probability, states[key]) for key, probability in reach.items()]


def absorption(graph: nx.DiGraph[str], start: str, ends: set[str]) -> dict[str, Fraction]:
    """The exact probability of ending in each of `ends` from `start`, on a graph of chance
    positions whose edges carry probabilities: by order where it has no loop, else by solving
    the absorbing chain."""
    if nx.is_directed_acyclic_graph(graph):
        mass = {start: Fraction(1)}
        for node in nx.topological_sort(graph):
            for _, target, data in graph.out_edges(node, data=True):
                mass[target] = mass.get(target, Fraction(0)) + mass.get(node, Fraction(0)) * data["p"]
        return {node: mass[node] for node in sorted(ends) if mass.get(node)}
    transient = sorted(node for node in graph if node not in ends)
    if len(transient) > LOOPING_STATES:
        raise ScenarioError(
            f"chance loops through {len(transient)} positions, more than {LOOPING_STATES} solved exactly"
        )
    return _solve(graph, transient, start, sorted(ends))


def _solve(graph: nx.DiGraph[str], transient: list[str], start: str, ends: list[str]) -> dict[str, Fraction]:
    """Absorption probabilities by Gaussian elimination over fractions: (I - Q) B = R."""
    index = {node: i for i, node in enumerate(transient)}
    size = len(transient)
    rows = []
    for node in transient:
        row = [Fraction(int(i == index[node])) for i in range(size)] + [Fraction(0)] * len(ends)
        for _, target, data in graph.out_edges(node, data=True):
            if target in index:
                row[index[target]] -= data["p"]
            else:
                row[size + ends.index(target)] += data["p"]
        rows.append(row)
    for column in range(size):
        pivot = next(r for r in range(column, size) if rows[r][column] != 0)
        rows[column], rows[pivot] = rows[pivot], rows[column]
        lead = rows[column][column]
        rows[column] = [value / lead for value in rows[column]]
        for r in range(size):
            if r != column and rows[r][column] != 0:
                factor = rows[r][column]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[column])]
    solved = rows[index[start]][size:]
    return {end: solved[i] for i, end in enumerate(ends) if solved[i]}


_JSON_SCALARS: Final = frozenset({str, int, float, bool, type(None)})


def flatten(document: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """A written position's leaves by dotted path (`players.0.energy`): tables and arrays of
    tables are walked, anything else (an array of strings, say) is one leaf."""
    leaves: dict[str, Any] = {}
    _flatten_into(leaves, document, prefix)
    return leaves


def _flatten_into(leaves: dict[str, Any], document: Mapping[str, Any], prefix: str) -> None:
    for key, value in document.items():
        path = f"{prefix}{key}"
        kind = type(value)
        if kind in _JSON_SCALARS:  # most leaves, told apart without the Mapping check's cost
            leaves[path] = value
        elif kind is dict or isinstance(value, Mapping):
            _flatten_into(leaves, value, f"{path}.")
        elif (
            isinstance(value, (list, tuple)) and value and all(type(v) is dict or isinstance(v, Mapping) for v in value)
        ):
            for number, item in enumerate(value):
                _flatten_into(leaves, item, f"{path}.{number}.")
        else:
            leaves[path] = _as_json(value)


def _as_json(value: Any) -> Any:
    """A leaf that is not a plain scalar, as reading it back from JSON gives it (tuples as lists,
    an enum member as its value): leaves are compared with those of positions read from files.
    An array of plain scalars is copied directly (the silent-decision finder flattens every state
    it walks); anything else goes through the JSON round trip itself."""
    if type(value) in (list, tuple) and all(type(v) in _JSON_SCALARS for v in value):
        return list(value)
    return json.loads(json.dumps(value))


def changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    """The leaves of `after` that differ from `before`, and ABSENT for those it lacks."""
    changed = {path: value for path, value in after.items() if before.get(path, ABSENT) != value}
    changed |= {path: ABSENT for path in before if path not in after}
    return tuple(sorted(changed.items()))


@attrs.frozen
class Swept:
    """The answer under each value of one option: values grouped by the answer they give."""

    option: str
    answers: tuple[tuple[tuple[str, ...], Any], ...]
    """(values, answer) pairs; one pair when the option makes no difference here."""

    @property
    def differs(self) -> bool:
        return len(self.answers) > 1


def sweep(scenario: Scenario, ask: Callable[[Scenario], Any]) -> tuple[Swept, ...]:
    """`ask` under every value of every option, one option at a time over the scenario's options.
    A value under which the position is impossible answers with that error's message."""
    found = []
    for option in scenario.game.option_space.options:
        groups: dict[str, tuple[list[str], Any]] = {}
        for value in option.values:
            try:
                answer = ask(
                    scenario
                    if value == scenario.game.options.text[option.name]
                    else scenario.under({option.name: value})
                )
            except RulecheckError as exc:
                answer = f"impossible here: {exc}"
            key = json.dumps(answer, sort_keys=True, default=str)
            groups.setdefault(key, ([], answer))[0].append(value)
        found.append(Swept(option.name, tuple((tuple(values), answer) for values, answer in groups.values())))
    return tuple(found)


def legal_texts(scenario: Scenario) -> list[str]:
    """The legal actions in the scenario's position, as text in canonical order."""
    game = scenario.game
    return [game.action_text(action) for action in game.legal_actions(scenario.state)]


def effect_data(actions: Sequence[str]) -> Callable[[Scenario], dict[str, Any]]:
    return lambda scenario: chain_data(scenario, actions)


@attrs.frozen
class Verdict:
    """A case's expected answer under one reading, and the difference from the computed one (none: it passes)."""

    source: str
    options: tuple[tuple[str, str], ...]
    difference: tuple[str, ...]

    @property
    def passed(self) -> bool:
        return not self.difference


def check(scenario: Scenario) -> Iterator[Verdict]:
    """Each expected answer of the scenario against the computed one."""
    for reading in scenario.expected:
        under = scenario.under(dict(reading.options)) if reading.options else scenario
        yield Verdict(scenario.source, reading.options, tuple(_difference(under, reading)))


def _difference(scenario: Scenario, reading: Reading) -> Iterator[str]:
    answer: Answer = reading.answer
    if answer.legal is not None:
        actual = legal_texts(scenario)
        missing = [a for a in answer.legal if a not in actual]
        extra = [a for a in actual if a not in answer.legal]
        if missing:
            yield f"expected legal but not: {', '.join(missing)}"
        if extra:
            yield f"legal but not expected: {', '.join(extra)}"
        if not missing and not extra and list(answer.legal) != actual:
            yield f"the same actions, not in canonical order: {', '.join(actual)}"
        return
    assert answer.action is not None
    found = effect(scenario, answer.action)
    if answer.illegal is not None:
        if found.clause != answer.illegal:
            now = f"refused by {found.clause}" if found.clause else "legal"
            yield f"expected {answer.action} refused by {answer.illegal}; it is {now}"
        return
    if found.clause is not None:
        yield f"expected outcomes of {answer.action}; it is refused by {found.clause}: {found.reason}"
        return
    expected = {_outcome_key(p, changed): (p, changed) for p, changed in answer.outcomes or ()}
    computed = {_outcome_key(r.probability, r.changed): (r.probability, r.changed) for r in found.results}
    for key in sorted(set(expected) - set(computed)):
        yield f"expected outcome not found: {expected[key][0]}: {changes_line(expected[key][1])}"
    for key in sorted(set(computed) - set(expected)):
        yield f"outcome not expected: {computed[key][0]}: {changes_line(computed[key][1])}"


def _outcome_key(probability: Fraction, changed: tuple[tuple[str, Any], ...]) -> str:
    return json.dumps([str(probability), dict(changed)], sort_keys=True)


def answer(scenario: Scenario, action: str | None) -> dict[str, Any]:
    """The answer in the scenario's position as an `[expect]` table: the legal actions, or what
    `action` does (its clause, or its outcomes)."""
    if action is None:
        return {"legal": legal_texts(scenario)}
    found = effect(scenario, action)
    if found.clause is not None:
        return {"action": action, "illegal": found.clause}
    return {
        "action": action,
        "outcomes": [{"probability": str(r.probability), "changed": dict(r.changed)} for r in found.results],
    }


def expectation(scenario: Scenario, action: str | None, readings: bool) -> dict[str, Any]:
    """The `[expect]` table of the answer in the scenario's position; with `readings`, also an
    `[[expect.when]]` entry for every other option value that gives another answer."""
    table = answer(scenario, action)
    if not readings:
        return table
    when = [
        {"options": {swept.option: value}} | found
        for swept in sweep(scenario, lambda under: answer(under, action))
        for values, found in swept.answers
        if found != table and isinstance(found, dict)
        for value in values
    ]
    return table | ({"when": when} if when else {})
