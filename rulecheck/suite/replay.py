"""Replaying a suite against an engine, and the first place each trace diverges.

Models: for each trace of a suite, a new game from its setup (and start position), then at
every step the player to move and the state, the legal actions (or the chance outcomes and
their exact probabilities) and, where the engine gives them, their ids, compared with what
the suite recorded, and the recorded action applied; at the end the last state and the
returns. The first difference stops that trace, like a perft runner stopping at the first
wrong count, and is told in words: which actions one side has and the other lacks, which
fields of the state differ, which probabilities. A bad line of the suite, or an engine that
hangs, exits, writes something that is not JSON or answers out of order, ends its trace
with an error naming the trace and step, and the replay goes on with the next trace (with a
fresh engine when the old one's state is unknown). A trace's start position is held to
rulecheck's game before any engine sees it (`start_fault`): one that is no state of the game, or
breaks a property promised under the trace's options, ends its trace with an error naming the
line and trace, not replayed. `suite verify` is this replay against
our own engine (reference.py) in this process.

Leaves out: starting engines (protocol.py) and choosing traces (export.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from fractions import Fraction
from pathlib import Path
from typing import Any, Final

import attrs

from rulecheck.core.codec import canonical_json
from rulecheck.core.errors import RulecheckError
from rulecheck.core.exact import exact_text
from rulecheck.core.game import CHANCE
from rulecheck.core.progress import Progress, no_progress
from rulecheck.core.trace import digest
from rulecheck.core.untrusted import clip, raw_lines, shown
from rulecheck.core.words import counted, noun
from rulecheck.suite.format import BadLine, Step, SuiteError, SuiteTrace, exact_value, read_suite
from rulecheck.suite.protocol import Engine, EngineError
from rulecheck.suite.reference import setup_game, start_state

COMPARED: Final = ("to_move", "state", "legal", "ids", "chance", "returns")
"""What a replay compares; `skip` leaves some out (an engine without our state encoding skips `state`)."""
SHOWN_ITEMS: Final = 4
"""The most actions, outcomes or state fields one difference names."""
SHOWN_STATE: Final = 600
"""The most characters of a state a report quotes."""


@attrs.frozen
class Divergence:
    """Where a trace and the engine first part, and how."""

    step: int | None
    """The 1-based step; 0 for the setup (and for a line of the suite that holds no trace), None
    for the end of the trace."""
    what: str
    detail: str
    state: str | None = None
    """The suite's state at that point, canonical JSON."""


@attrs.frozen
class TraceResult:
    line: int
    trace: str | None
    """The trace's id (None for a line that names none)."""
    steps: int
    """Steps of the trace in all (0 for a bad line)."""
    divergence: Divergence | None
    """None when the engine agreed at every step."""

    @property
    def passed(self) -> bool:
        return self.divergence is None

    def message(self, source: str) -> str:
        """One paragraph: the trace, the step, what differed, and the state there."""
        named = f"trace {self.trace}" if self.trace else "a line"
        if self.divergence is None:
            return f"{source}:{self.line}: {named}: {counted(self.steps, 'step')}, every one as recorded"
        d = self.divergence
        where = "the end" if d.step is None else "the setup" if d.step == 0 else f"step {d.step} of {self.steps}"
        if d.what == "suite":
            where = "the line"
        text = f"{source}:{self.line}: {named}, {where}: {d.what}: {d.detail}"
        if d.state is not None:
            text += f"\n  state (digest {digest(d.state)}): {clip(d.state, SHOWN_STATE)}"
        return text


@attrs.frozen
class SuiteResult:
    source: str
    engine: str
    results: tuple[TraceResult, ...]
    total: int | None = None
    """The traces (lines) of the suite, of which `results` may be the first only (None: not counted)."""

    @property
    def passed(self) -> bool:
        return bool(self.results) and all(r.passed for r in self.results)

    def summary(self) -> str:
        """One line: how many traces agree and diverge, and, when replay stopped at the first that
        diverges before the suite's end, at which trace of how many."""
        failed = sum(not r.passed for r in self.results)
        steps = sum(r.steps for r in self.results if r.passed)
        done = len(self.results)
        agree = f"agree with {self.engine} ({steps:,} {noun(steps, 'step')}); {failed} diverge"
        if self.total is not None and done < self.total:
            return (
                f"{self.source}: stopped at trace {done} of {self.total}, the first that diverges: "
                f"{done - failed} of the {done} replayed {agree}; {self.total - done} not replayed"
            )
        return f"{self.source}: {done - failed} of {done} traces {agree}"


class _Diverged(Exception):
    def __init__(self, divergence: Divergence) -> None:
        self.divergence = divergence


def _listed(items: Iterable[str]) -> str:
    items = list(items)
    head = ", ".join(shown(i, 60) for i in items[:SHOWN_ITEMS])
    return head + (f" and {len(items) - SHOWN_ITEMS} more" if len(items) > SHOWN_ITEMS else "")


def _set_difference(recorded: list[str], answered: list[str], noun: str) -> str:
    answered_set, recorded_set = set(answered), set(recorded)
    lacks = [a for a in recorded if a not in answered_set]
    extra = [a for a in answered if a not in recorded_set]
    parts = []
    if lacks:
        parts.append(f"the engine lacks {_listed(lacks)} ({len(lacks)} of {len(recorded)} {noun})")
    if extra:
        parts.append(f"the engine also has {_listed(extra)}")
    if not parts:
        return f"the same {noun}, but the engine lists some twice ({len(answered)} for {len(recorded)})"
    return "; ".join(parts)


def state_difference(recorded: Any, answered: Any, path: str = "") -> list[str]:
    """The paths where two JSON values differ, with both values: `.turn.counted: 1 recorded, 2 from the engine`."""
    if isinstance(recorded, dict) and isinstance(answered, dict):
        found = []
        for key in sorted(set(recorded) | set(answered)):
            if key not in answered:
                found.append(f"{path}.{key}: missing from the engine's")
            elif key not in recorded:
                found.append(f"{path}.{key}: only in the engine's")
            else:
                found += state_difference(recorded[key], answered[key], f"{path}.{key}")
        return found
    if isinstance(recorded, list) and isinstance(answered, list) and len(recorded) == len(answered):
        return [d for i, (r, a) in enumerate(zip(recorded, answered)) for d in state_difference(r, a, f"{path}[{i}]")]
    if recorded == answered and type(recorded) is type(answered):
        return []
    both = f"{clip(canonical_json(recorded), 80)} recorded, {clip(canonical_json(answered), 80)} from the engine"
    return [f"{path or 'the state'}: {both}"]


class _Replay:
    """One trace replayed on one engine, raising _Diverged at the first difference."""

    def __init__(self, engine: Engine, trace: SuiteTrace, skip: frozenset[str]) -> None:
        self.engine = engine
        self.trace = trace
        self.skip = skip

    def ask(self, step: int | None, state: str | None, op: str, **fields: Any) -> dict[str, Any]:
        try:
            return self.engine.request(op, **fields)
        except EngineError as exc:
            raise _Diverged(Divergence(step, "engine", f"the engine {exc}", state)) from exc

    def field(self, answer: dict[str, Any], key: str, kind: type, step: int | None, state: str | None) -> Any:
        value = answer.get(key)
        if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
            raise _Diverged(Divergence(step, "engine", f"the engine's answer has no {kind.__name__} {key!r}", state))
        return value

    def run(self) -> None:
        trace = self.trace
        setup = trace.setup | {"start": None if trace.start is None else json.loads(trace.start)}
        self.ask(0, None, "new_game", **setup)
        for index, step in enumerate(trace.steps, start=1):
            self.position(index, step.to_move, step.state)
            if step.to_move == CHANCE:
                self.chance(index, step)
            else:
                self.legal(index, step)
            self.ask(index, step.state, "apply", action=step.action)
        self.position(None, trace.end.to_move, trace.end.state)
        if trace.end.returns is not None and "returns" not in self.skip:
            answer = self.ask(None, trace.end.state, "returns")
            returns = self.field(answer, "returns", list, None, trace.end.state)
            try:
                answered = [exact_value(r) if isinstance(r, str) else None for r in returns]
            except ValueError as exc:
                raise _Diverged(Divergence(None, "returns", f"the engine's returns: {exc}", trace.end.state)) from None
            if answered != list(trace.end.returns):
                recorded = ", ".join(map(exact_text, trace.end.returns))
                given = ", ".join("?" if r is None else exact_text(r) for r in answered)
                raise _Diverged(Divergence(None, "returns", f"{recorded} recorded, {given} from the engine"))

    def position(self, index: int | None, to_move: int, state: str) -> None:
        answer = self.ask(index, state, "state")
        if "to_move" not in self.skip:
            mover = self.field(answer, "to_move", int, index, state)
            if mover != to_move:
                raise _Diverged(
                    Divergence(index, "player to move", f"{to_move} recorded, {mover} from the engine", state)
                )
        if "state" not in self.skip:
            answered = self.field(answer, "state", dict, index, state)
            if canonical_json(answered) != state:
                differs = state_difference(json.loads(state), answered)
                more = f" (and {len(differs) - SHOWN_ITEMS} more)" if len(differs) > SHOWN_ITEMS else ""
                detail = "; ".join(differs[:SHOWN_ITEMS]) + more
                raise _Diverged(Divergence(index, "state", detail or "the same fields, encoded otherwise", state))

    def legal(self, index: int, step: Step) -> None:
        if "legal" in self.skip:
            return
        answer = self.ask(index, step.state, "legal")
        texts = [str(a) for a in self.field(answer, "actions", list, index, step.state)]
        recorded = [text for text, _ in step.legal]
        if sorted(texts) != recorded:
            detail = _set_difference(recorded, texts, "legal actions")
            raise _Diverged(Divergence(index, "legal actions", detail, step.state))
        self.ids(index, step, answer, dict(zip(texts, answer.get("ids") or ())), dict(step.legal))

    def chance(self, index: int, step: Step) -> None:
        if "chance" in self.skip:
            return
        answer = self.ask(index, step.state, "chance")
        outcomes = self.field(answer, "outcomes", list, index, step.state)
        answered: dict[str, Fraction | None] = {}
        for item in outcomes:
            if not (isinstance(item, list) and len(item) == 2 and all(isinstance(x, str) for x in item)):
                raise _Diverged(Divergence(index, "engine", "an outcome is not [text, probability]", step.state))
            try:
                answered[item[0]] = exact_value(item[1])
            except ValueError as exc:
                raise _Diverged(Divergence(index, "chance outcomes", f"the engine's {exc}", step.state)) from None
        recorded = {text: p for text, _, p in step.chance}
        if sorted(answered) != sorted(recorded) or len(answered) != len(outcomes):
            detail = _set_difference(sorted(recorded), [item[0] for item in outcomes], "chance outcomes")
            raise _Diverged(Divergence(index, "chance outcomes", detail, step.state))
        wrong = [t for t in sorted(recorded) if answered[t] != recorded[t]]
        if wrong:
            detail = "; ".join(
                f"{shown(t, 60)}: {exact_text(recorded[t])} recorded, {exact_text(answered[t] or 0)} from the engine"
                for t in wrong[:SHOWN_ITEMS]
            )
            raise _Diverged(Divergence(index, "chance probabilities", detail, step.state))
        texts = [item[0] for item in outcomes]
        self.ids(index, step, answer, dict(zip(texts, answer.get("ids") or ())), {t: n for t, n, _ in step.chance})

    def ids(
        self, index: int, step: Step, answer: dict[str, Any], answered: dict[str, Any], recorded: dict[str, int]
    ) -> None:
        """Where the engine gives ids, they must be the recorded ones."""
        if "ids" in self.skip or "ids" not in answer:
            return
        wrong = [t for t in sorted(recorded) if answered.get(t) != recorded[t]]
        if wrong:
            detail = "; ".join(
                f"{shown(t, 60)}: {recorded[t]} recorded, {answered.get(t)} from the engine"
                for t in wrong[:SHOWN_ITEMS]
            )
            raise _Diverged(Divergence(index, "action ids", detail, step.state))


def replay_trace(engine: Engine, trace: SuiteTrace, skip: frozenset[str] = frozenset()) -> Divergence | None:
    """The first divergence of `engine` from `trace`, or None; the engine is restarted when it broke."""
    try:
        _Replay(engine, trace, skip).run()
    except _Diverged as diverged:
        if diverged.divergence.what == "engine" and isinstance(diverged.__cause__, EngineError):
            if diverged.__cause__.broken:
                engine.restart()
        return diverged.divergence
    return None


def start_fault(trace: SuiteTrace) -> str | None:
    """What is wrong with the trace's start position, or None: a start must be a state of the
    game under the trace's setup, written as rulecheck writes it, holding every state property
    promised under its options (reference.start_state). Whatever engine replays the suite, the
    start is held to rulecheck's game, so a setup rulecheck cannot build leaves it unchecked and
    is a fault too."""
    if trace.start is None:
        return None
    try:
        game = setup_game(trace.setup)
    except RulecheckError as exc:
        return f"start: cannot be checked: {clip(str(exc))}"
    try:
        start_state(game, json.loads(trace.start))
    except RulecheckError as exc:
        return f"start: {clip(str(exc))}"
    return None


def line_result(engine: Engine, line: int, item: SuiteTrace | BadLine, skip: frozenset[str]) -> TraceResult:
    """The result of one line of a suite: its trace replayed on `engine`, or what is wrong with the
    line (a trace whose start is no honest position of its game is not replayed)."""
    if isinstance(item, BadLine):
        return TraceResult(line, item.trace, 0, Divergence(0, "suite", item.reason))
    fault = start_fault(item)
    if fault is not None:
        return TraceResult(line, item.id, len(item.steps), Divergence(0, "suite", fault))
    return TraceResult(line, item.id, len(item.steps), replay_trace(engine, item, skip))


def replay_suite(
    path: Path,
    engine: Engine,
    skip: frozenset[str] = frozenset(),
    on_result: Callable[[TraceResult], None] | None = None,
    exit_first: bool = False,
    progress: Progress = no_progress,
) -> SuiteResult:
    """Every trace of the suite at `path` replayed on `engine` (with `exit_first`, up to the first
    that diverges); `progress` hears the lines replayed of the file's lines, as each is."""
    results = []
    total = sum(1 for _ in raw_lines(path, SuiteError))
    for number, item in read_suite(path):
        result = line_result(engine, number, item, skip)
        results.append(result)
        progress(len(results), total)
        if on_result is not None:
            on_result(result)
        if exit_first and not result.passed:
            break
    return SuiteResult(str(path), engine.name, tuple(results), total)
