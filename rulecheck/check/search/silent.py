"""Silent decisions: where the rulebook's text does not fix an outcome, or fixes another, and the
engine decides it anyway, with no option to read it otherwise.

Models: a game's text contracts (rulecheck/model/texts.py; each game's are its declaration's
`texts`) checked against the engine over a corpus of played positions: the scenario
positions shipped with rulecheck (under the game's options) with every one-step successor and a few
seeded random games from each, and seeded random games from the start. The detectors, one
function each: verb flips (an action the text permits that the engine refuses, or actions after a
step the text forbids them), choice bounds (more or fewer choices of one verb than the text
offers), positions the text rules out (`Never`), the engine's answer to a question the text
leaves open (`Open`: an option that changes the answer decides it), and over whole games,
turns in a row and the game's end. Each finding is attributed: the same check is re-run at the same place under every
other value of every option, one at a time; a value under which it vanishes decides it ("decided
by option X=v"), else it is "decided without an option". A clause with no contract is unaudited
(listed, so the gap shows). A witness is the written position the check starts from (a scenario
file's `[position]`) and the actions taken from it, and for a game played from the start its trace.

Leaves out: Z3 over the engine's guards against a text's guard, nouns without a rule and the
ownership of a step's effects (the brief's detectors E, F and C), clause-directed games (four
toward MEC-T11 never touched it, at ten times a random game's cost), and positions no corpus
game reaches.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Final

import attrs
import tomli_w

from rulecheck.check.play.playthrough import random_game
from rulecheck.check.positions.ask import flatten
from rulecheck.check.positions.scenario import SHIPPED, load_scenario, read_position, shipped_folder
from rulecheck.core.errors import IllegalAction, OptionError, RulecheckError
from rulecheck.core.game import CHANCE, TERMINAL, Game
from rulecheck.core.trace import record
from rulecheck.model.texts import At, TextContract
from rulecheck.registry import declaration, make_game

WITHOUT: Final = "decided without an option"
CONTINUATIONS: Final = 2
"""Seeded random games played on from each scenario position."""
CONTINUATION_STEPS: Final = 400
"""The step cap of a continuation where the budget's is lower: a
scenario's position is the corpus's way into the situations random play from the start rarely
reaches, so its games run on past a smoke budget's short cap."""


@attrs.frozen
class Walk:
    """States of one game in order, each with the action that led to it (None for the first), and
    where the walk starts: the initial state (`from_start`) or a scenario's position (`source`)."""

    game: Game[Any, Any] = attrs.field(eq=False)
    states: tuple[Any, ...]
    actions: tuple[str | None, ...]
    source: str
    """The scenario file the walk starts from, or `seed N` for a game from the start."""
    from_start: bool
    how: str = ""
    """How the walk goes on from its start, in words (`played on by seed 1`), if not by one step."""
    replay: str = ""
    """The command that searches this walk again (and so shows its findings)."""
    _written: dict[int, dict[str, Any]] = attrs.field(factory=dict, eq=False, repr=False)
    _legal: dict[int, list[str]] = attrs.field(factory=dict, eq=False, repr=False)

    def written(self, index: int) -> dict[str, Any]:
        """The written position of state `index`, flattened (kept once made)."""
        if index not in self._written:
            self._written[index] = _written(self.game, self.states[index])
        return self._written[index]

    def legal(self, index: int) -> list[str]:
        """The legal actions' texts at state `index` (kept once listed)."""
        if index not in self._legal:
            self._legal[index] = [self.game.action_text(a) for a in self.game.legal_actions(self.states[index])]
        return self._legal[index]

    def at(self, index: int) -> At:
        before = self.written(index - 1) if index else None
        data = None if self.game.loaded_data is None else self.game.loaded_data.value
        return At(self.written(index), self.game.players, data, before, self.actions[index])


def _written(game: Game[Any, Any], state: Any) -> dict[str, Any]:
    return flatten(declaration(game.name).position_format().write(game, state))


@attrs.frozen
class Candidate:
    """One silent decision found: `subject` is `<clause>:<verb or what>`; `index` the walk's state."""

    contract: TextContract = attrs.field(eq=False)
    subject: str
    kind: str
    what: str
    walk: Walk = attrs.field(eq=False)
    index: int
    start: int
    """The walk's state a replay of the finding starts from (the one before `index` for a step)."""
    answer: str = ""
    """For an open question, the engine's answer: the finding vanishes where another is given."""


@attrs.frozen
class Silent:
    """A candidate with its witness and its attribution."""

    candidate: Candidate
    decided_by: tuple[tuple[str, str], ...]
    """The option values under which the finding vanishes (none: decided without an option)."""
    witness: dict[str, Any]
    replay: str

    @property
    def verdict(self) -> str:
        if not self.decided_by:
            return WITHOUT
        return "decided by option " + ", ".join(f"{k}={v}" for k, v in self.decided_by)


def contracts(game: Game[Any, Any]) -> tuple[TextContract, ...]:
    """The game's text contracts, as its declaration gives them (none for a game without)."""
    return declaration(game.name).texts


def subjects(rules: Sequence[TextContract]) -> frozenset[str]:
    """Every subject a finding against `rules` can have (`<clause>:<what>`, as the detectors name
    them): a verb a contract permits, offers a choice of or asks about, `*` for a forbid, a
    `Never`'s name, `turns` for a run, `end:<name>` for an end."""
    found = set()
    for c in rules:
        named = [p.verb for p in c.permits] + [x.verb for x in c.choices] + [q.verb for q in c.open]
        named += ["*"] * bool(c.forbids) + [n.name for n in c.never] + ["turns"] * (c.run is not None)
        found |= {f"{c.clause}:{what}" for what in named + [f"end:{e.name}" for e in c.ends]}
    return frozenset(found)


def unaudited(game: Game[Any, Any]) -> tuple[str, ...]:
    """The game's clauses no text contract speaks for: the finder's coverage gap."""
    spoken = {c.clause for c in contracts(game)}
    return tuple(c for c in game.catalogue().ids if c not in spoken)


# Detectors: each yields candidates for the walk's states `indices`.


def _refusal(game: Game[Any, Any], state: Any, text: str) -> str:
    try:
        action = game.parse_action(text)
    except RulecheckError:
        return "the engine has no such action"
    try:
        game.apply(state, action)
    except IllegalAction as exc:
        return f"refused: {exc.reason} [{exc.clause}]"
    return "legal"


def _some_action_does(walk: Walk, index: int, effect: Callable[[At], bool]) -> bool:
    """Whether a legal action at state `index` leads to a position where `effect` holds."""
    game, state = walk.game, walk.states[index]
    data = None if game.loaded_data is None else game.loaded_data.value
    for action in game.legal_actions(state):
        after = _written(game, game.apply(state, action))
        if effect(At(after, game.players, data, walk.written(index), game.action_text(action))):
            return True
    return False


def _does(legal: str, offered: str) -> bool:
    """Whether the legal action's text is the offered one, or it with more words: a choice the
    sentence does not speak of (`fork F21 up` does `fork F21` where a Fork has a side)."""
    return legal == offered or legal.startswith(offered + " ")


def verb_flips(walk: Walk, rules: Sequence[TextContract], indices: Sequence[int]) -> Iterator[Candidate]:
    """A: an action a contract permits that the engine refuses, and actions the engine allows
    after a step that a contract forbids every action but some verbs after."""
    game = walk.game
    for index in indices:
        state = walk.states[index]
        if game.to_move(state) < 0:
            continue
        at, legal = walk.at(index), walk.legal(index)
        for contract in rules:
            for permit in contract.permits:
                offered = permit.offers(at)
                if offered is None:
                    continue
                if permit.effect is not None:
                    if not _some_action_does(walk, index, permit.effect):
                        what = f"the text permits {offered} here; no legal action of the engine does it"
                        yield _candidate(walk, contract, permit.verb, "refused though the text permits it", what, index)
                elif not any(_does(text, offered) for text in legal):
                    refused = _refusal(game, state, offered)
                    what = f"the text permits `{offered}` here; the engine: {refused}"
                    yield _candidate(walk, contract, permit.verb, "refused though the text permits it", what, index)
            for forbid in contract.forbids:
                if index and forbid.when(at):
                    allowed = sorted(a for a in legal if forbid.rules_out(at, a))
                    if allowed:
                        what = f"{forbid.what}, and the engine still allows {', '.join(allowed[:6])}"
                        yield _candidate(walk, contract, "*", "allowed though the text forbids it", what, index)


def choice_bounds(walk: Walk, rules: Sequence[TextContract], indices: Sequence[int]) -> Iterator[Candidate]:
    """B: more choices of a verb (per group) than a contract's `at_most`, or fewer than its `at_least`."""
    game = walk.game
    for index in indices:
        state = walk.states[index]
        if game.to_move(state) < 0:
            continue
        at, legal = None, walk.legal(index)
        for contract in rules:
            for choice in contract.choices:
                mine = [a for a in legal if a.split()[0] == choice.verb]
                groups: dict[str, list[str]] = {}
                for text in mine:
                    groups.setdefault(choice.group(text), []).append(text)
                for group, texts in sorted(groups.items()):
                    if choice.at_most is not None and len(texts) > choice.at_most:
                        what = f"{choice.what}: the text offers at most {choice.at_most}, the engine {', '.join(texts)}"
                        yield _candidate(walk, contract, choice.verb, "more choices than the text", what, index)
                if choice.at_least is not None:
                    at = at or walk.at(index)
                    least = choice.at_least(at)
                    if len(mine) < least:
                        what = f"{choice.what}: the text offers at least {least}, the engine {', '.join(mine)}"
                        yield _candidate(walk, contract, choice.verb, "fewer choices than the text", what, index)


def ruled_out(walk: Walk, rules: Sequence[TextContract], indices: Sequence[int]) -> Iterator[Candidate]:
    """A position a contract's `Never` rules out, reached by a step."""
    for index in indices:
        if not index or walk.game.to_move(walk.states[index]) == CHANCE:
            continue
        at = walk.at(index)
        for contract in rules:
            for never in contract.never:
                if never.holds(at):
                    what = f"{never.what}; the engine's step `{walk.actions[index]}` leaves it"
                    yield _candidate(walk, contract, never.name, "a position the text rules out", what, index)


def open_questions(walk: Walk, rules: Sequence[TextContract], indices: Sequence[int]) -> Iterator[Candidate]:
    """A question a contract says the text leaves open, reached: the engine's answer there
    (whether it allows an action of the question's verb)."""
    for index in indices:
        if walk.game.to_move(walk.states[index]) < 0:
            continue
        at = walk.at(index)
        for contract in rules:
            for question in contract.open:
                if question.when(at):
                    offered = [a for a in walk.legal(index) if a.split()[0] == question.verb]
                    offered = [a for a in offered if question.about is None or question.about(at, a)]
                    answer = f"allows {', '.join(offered[:4])}" if offered else f"allows no `{question.verb}`"
                    what = f"{question.what}; the engine {answer}"
                    kind = "decided where the text is open"
                    found = _candidate(walk, contract, question.verb, kind, what, index)
                    yield attrs.evolve(found, answer="allows" if offered else "refuses")


def turns_in_a_row(walk: Walk, rules: Sequence[TextContract], indices: Sequence[int]) -> Iterator[Candidate]:
    """D: more turns in a row by one player than a contract's `Run` allows, over the whole walk."""
    for contract in rules:
        run = contract.run
        if run is None:
            continue
        mover, count, first = None, 0, 0
        for index in range(1, len(walk.states)):
            at = walk.at(index)
            if not run.applies(at):
                break
            ended = run.ends_turn(at)
            if ended is None:
                continue
            if ended != mover:
                mover, count, first = ended, 0, index - 1
                while first and run.ends_turn(walk.at(first)) is None:
                    first -= 1
            count += 1
            if count > run.most and index in indices:
                what = f"{run.what}: player {mover} has taken {count} turns in a row"
                yield _candidate(
                    walk, contract, "turns", "more turns in a row than the text allows", what, index, first
                )
                break


def game_end(walk: Walk, rules: Sequence[TextContract], indices: Sequence[int]) -> Iterator[Candidate]:
    """D: a game the engine ends where a contract's `End` condition does not hold."""
    last = len(walk.states) - 1
    if last not in indices or walk.game.to_move(walk.states[last]) != TERMINAL or not last:
        return
    at = walk.at(last)
    for contract in rules:
        for end in contract.ends:
            if not end.holds(at):
                what = f"{end.what}; the engine ends the game after `{walk.actions[last]}`"
                yield _candidate(
                    walk, contract, f"end:{end.name}", "the game ended though the text goes on", what, last
                )


DETECTORS: Final[tuple[Callable[[Walk, Sequence[TextContract], Sequence[int]], Iterator[Candidate]], ...]] = (
    verb_flips,
    game_end,
    turns_in_a_row,
    choice_bounds,
    ruled_out,
    open_questions,
)


def _candidate(
    walk: Walk, contract: TextContract, what: str, kind: str, words: str, index: int, start: int | None = None
) -> Candidate:
    begin = index - 1 if start is None and index else index if start is None else start
    while begin and start is None and walk.game.to_move(walk.states[begin]) == CHANCE:
        begin -= 1
    return Candidate(contract, f"{contract.clause}:{what}", kind, words, walk, index, begin)


# The corpus.


def _walk(
    game: Game[Any, Any],
    states: Sequence[Any],
    actions: Sequence[Any],
    source: str,
    start: bool,
    how: str = "",
    replay: str = "",
) -> Walk:
    texts = (None, *(game.action_text(a) for a in actions))
    return Walk(game, tuple(states), texts, source, start, how, replay)


def scenario_walks(game: Game[Any, Any], path: Path, max_steps: int) -> Iterator[Walk]:
    """The scenario's position, each one-step successor (chance after it played by seed 0) and
    CONTINUATIONS seeded random games from it, under the options of `game`, when the file is of
    this game and sets no option of its own (a position impossible under them is left out)."""
    own = load_scenario(path).game
    if own.name != game.name or own.options.text != own.option_space.defaults().text:
        return
    try:
        scenario = load_scenario(path, dict(game.options.text))
    except RulecheckError:
        return
    played = scenario.game
    state, source = scenario.state, str(path)
    replay = f"rulecheck silent {game.name} --scenario {path} --max-steps {max_steps}"
    yield _walk(played, [state], [], source, False, replay=replay)
    if played.to_move(state) < 0:
        return
    for action in played.legal_actions(state):
        after = played.apply(state, action)
        rest = random_game(played, 0, 8, start=after) if played.to_move(after) == CHANCE else None
        stop = next((i for i, s in enumerate(rest.states) if played.to_move(s) != CHANCE), 0) if rest else 0
        states = [state, after, *(rest.states[1 : stop + 1] if rest else ())]
        yield _walk(played, states, [action, *(rest.actions[:stop] if rest else ())], source, False, replay=replay)
    for seed in range(CONTINUATIONS):
        game_on = random_game(played, seed, max(max_steps, CONTINUATION_STEPS), start=state)
        yield _walk(played, game_on.states, game_on.actions, source, False, f"played on by seed {seed}", replay)


def scenario_files(game: Game[Any, Any]) -> list[Path]:
    """The scenario files shipped for the game, each named as `scenarios/<game>/<file>` (which
    names the shipped file from any folder: scenario.py's scenario_path)."""
    folder = shipped_folder() / game.name
    return [Path(SHIPPED, game.name, path.name) for path in sorted(folder.glob("*.toml"))] if folder.is_dir() else []


def corpus(game: Game[Any, Any], seeds: range, max_steps: int, scenarios: Sequence[Path]) -> Iterator[Walk]:
    """The scenarios' walks, then a seeded random game from the start for each seed."""
    for path in scenarios:
        yield from scenario_walks(game, path, max_steps)
    for seed in seeds:
        played = random_game(game, seed, max_steps)
        replay = f"rulecheck silent {game.name} --players {game.players} --seed {seed} --games 1"
        replay += f" --max-steps {max_steps} --no-scenarios"
        yield _walk(game, played.states, played.actions, f"seed {seed}", True, replay=replay)


# Attribution and witnesses.


def _replayed(game: Game[Any, Any], document: dict[str, Any], actions: Sequence[str]) -> Walk | None:
    """The walk from a written position through `actions` under `game`; None where the position
    cannot be read under it or an action is refused (the check cannot be re-run there)."""
    try:
        state = read_position(game, document, "the witness", "")
    except RulecheckError:
        return None
    states, taken = [state], []
    for text in actions:
        try:
            action = game.parse_action(text)
            state = game.apply(state, action)
        except RulecheckError:
            return None
        states.append(state)
        taken.append(action)
    return _walk(game, states, taken, "the witness", False)


def finds(walk: Walk, candidate: Candidate) -> bool:
    """Whether `walk`, replayed from the candidate's start, ends in the same finding (the same
    subject, and for an open question the same answer)."""
    last = [candidate.index - candidate.start]
    found = (c for detect in DETECTORS for c in detect(walk, [candidate.contract], last))
    return any(c.subject == candidate.subject and c.answer == candidate.answer for c in found)


def attribute(candidate: Candidate) -> tuple[tuple[str, str], ...]:
    """The option values (one at a time, every other value of every option) under which the
    same check, from the same written position through the same actions, no longer finds it. A
    value the game refuses at its player count (OptionError at setup), like a position a value
    cannot read, leaves the finding's attribution inconclusive there: it is not counted."""
    walk, game = candidate.walk, candidate.walk.game
    document = declaration(game.name).position_format().write(game, walk.states[candidate.start])
    actions = [a for a in walk.actions[candidate.start + 1 : candidate.index + 1] if a is not None]
    vanished = []
    for option in game.option_space.options:
        for value in option.values:
            if value == game.options.text[option.name]:
                continue
            try:
                variant = make_game(game.name, game.players, dict(game.options.text) | {option.name: value})
            except OptionError:
                continue
            replayed = _replayed(variant, document, actions)
            if replayed is not None and not finds(replayed, candidate):
                vanished.append((option.name, value))
    return tuple(vanished)


def witness(candidate: Candidate) -> tuple[dict[str, Any], str]:
    """The witness (the written position the finding's check starts from, as a scenario file's
    `[position]`, and the actions from it; for a game from the start, its trace too) and the
    command that shows it again."""
    walk, game = candidate.walk, candidate.walk.game
    document = declaration(game.name).position_format().write(game, walk.states[candidate.start])
    actions = [a for a in walk.actions[candidate.start + 1 : candidate.index + 1] if a is not None]
    found: dict[str, Any] = {"position": tomli_w.dumps({"position": document}), "actions": actions}
    if walk.from_start:
        played = [game.parse_action(a) for a in walk.actions[1 : candidate.index + 1] if a is not None]
        return found | {"trace": record(game, played).to_data()}, walk.replay
    return found | {"scenario": walk.source}, walk.replay


def origin(candidate: Candidate) -> str:
    """Where the witness's position comes from, in words."""
    walk = candidate.walk
    if not candidate.start and not walk.from_start:
        return f"the position of {walk.source}"
    played = f"{walk.source}, {walk.how}" if walk.how else walk.source
    return f"the position after step {candidate.start} of {played}"


def find(game: Game[Any, Any], walks: Iterator[Walk], rules: Sequence[TextContract] | None = None) -> list[Silent]:
    """Every silent decision the walks show against `rules` (the game's contracts when None), one
    per subject (its first witness), attributed."""
    rules = contracts(game) if rules is None else rules
    if not rules:
        return []
    first: dict[str, Candidate] = {}
    for walk in walks:
        indices = range(len(walk.states))
        for detect in DETECTORS:
            for candidate in detect(walk, rules, indices):
                first.setdefault(candidate.subject, candidate)
    found = []
    for subject in sorted(first):
        candidate = first[subject]
        shown, replay = witness(candidate)
        found.append(Silent(candidate, attribute(candidate), shown, replay))
    return found
