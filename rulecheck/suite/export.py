"""Choosing a suite's traces: every clause the search reaches, every value of every option, every witness.

Models: three groups of traces for one game, each recorded on our engine (record.py).
- Clauses: `searched` seeded clause-directed games (rulecheck/check/play/pursuit.py) under the chosen options,
  cycling through the game's campaign player counts (or the one count given), each steering
  toward the clauses no trace kept so far exercises. A game is kept, up to its last step that
  exercised something new, if it exercises a clause the suite lacks.
- A finished game: a seeded random game (rulecheck/check/play/playthrough.py) at the fewest players, played to its end
  (up to FINISHED_CAP actions, FINISHED_TRIES seeds), so that the suite checks returns.
- Player counts: unless one player count is chosen, a seeded random game (up to the step cap)
  at every player count the game allows that the search did not play.
- Options: for every value of every option other than the chosen one, a game under it at
  the fewest campaign players, steering toward the clauses the option reads; the trace ends
  OPTION_TAIL actions after the first step that exercises one of them (up to OPTION_TRIES
  games are tried), or is the last game tried, whole, saying that its clauses were not reached.
- Findings: with a `verify` report folder, every trace witness of a finding of this game,
  from the position and under the options it was found in. The report is untrusted input: a
  findings.json that is not shaped as verify writes one is refused naming the file and entry.
Each trace says why it is there (`covers`), and the export reports what the search did not
reach.

Leaves out: the file format (format.py) and the readable playthrough (playthrough.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import attrs

from rulecheck.check.play.playthrough import random_game
from rulecheck.check.play.pursuit import pursue
from rulecheck.core.data import DEFAULT_SOURCE
from rulecheck.core.errors import OptionError, TraceError
from rulecheck.core.game import Game
from rulecheck.core.notation import Action
from rulecheck.core.options import Option
from rulecheck.core.progress import Progress, no_progress, part
from rulecheck.core.trace import Trace, load_trace, replay
from rulecheck.core.untrusted import clip, load_document
from rulecheck.core.words import counted, noun
from rulecheck.registry import game_class, make_game
from rulecheck.suite.format import SuiteTrace
from rulecheck.suite.record import record_trace

FINISHED_CAP: Final = 5_000
"""The most actions of the random game played to its end."""
FINISHED_TRIES: Final = 3
"""Seeds tried for a random game that ends within FINISHED_CAP actions."""
OPTION_TAIL: Final = 40
"""Actions an option trace goes on for after its first step that exercises a clause the option
reads, so that what the reading changes there has steps to show in."""
OPTION_TRIES: Final = 3
"""Games tried under an option value before its trace is taken without reaching the option's clauses."""
FINDINGS_FORMAT: Final = "rulecheck-findings"
"""The format a verify report's findings.json says it is in (version 1), which `--findings` reads."""
DEFAULT_SEARCHED: Final = 12
TRACE_GROUPS: Final = {
    "clauses-": "kept of the clause-directed games searched (--traces)",
    "finished": "game played to its end",
    "players-": "at the other player counts",
    "option-": "under the other option values, one each",
    "finding-": "finding witnesses",
}
"""The groups of a suite's traces, by the part of the trace id that marks each, and what they are."""
DEFAULT_MAX_STEPS: Final = 400

Make = Callable[[int, Mapping[str, str]], Game[Any, Any]]
"""Builds the game at a player count with some options changed from the chosen ones."""


@attrs.frozen
class OptionTrace:
    option: str
    value: str
    reached: bool
    """Whether the trace exercises a clause the option reads."""


@attrs.frozen
class Export:
    """A suite's traces and what they cover."""

    game: str
    traces: tuple[SuiteTrace, ...]
    clauses: tuple[str, ...]
    """Every clause of the game's catalogue."""
    exercised: frozenset[str]
    """The clauses some trace of the suite exercises."""
    searched: int
    options: tuple[OptionTrace, ...]
    findings: tuple[str, ...]
    """The findings whose witnesses are in the suite."""

    def groups(self) -> str:
        """How many traces each group holds, and why: `--traces N` asks only for the clause search."""
        counts = {part: sum(t.id.startswith(f"{self.game}-{part}") for t in self.traces) for part in TRACE_GROUPS}
        return ", ".join(f"{counts[part]} {words}" for part, words in TRACE_GROUPS.items() if counts[part])

    def summary(self) -> list[str]:
        """What the suite covers, in a few lines."""
        kept = sum(t.id.startswith(f"{self.game}-clauses-") for t in self.traces)
        missing = [c for c in self.clauses if c not in self.exercised]
        reached = sum(o.reached for o in self.options)
        steps = sum(len(t.steps) for t in self.traces)
        lines = [
            f"{counted(len(self.traces), 'trace')}, {steps:,} {noun(steps, 'step')}: {self.groups()}",
            f"clauses: {len(self.clauses) - len(missing)} of {len(self.clauses)} exercised;"
            f" {kept} of {counted(self.searched, 'game')} searched kept",
            f"options: {len(self.options)} other {noun(len(self.options), 'value')}, {reached} reaching a clause"
            " the option reads",
            f"findings: {counted(len(self.findings), 'witness', 'witnesses')}"
            + (f" ({', '.join(self.findings)})" if self.findings else ""),
        ]
        if not any(t.end.returns is not None for t in self.traces):
            lines.append(f"no trace is a finished game: no random game tried ended within {FINISHED_CAP:,} actions")
        if missing:
            lines.append(f"not exercised within the search: {', '.join(missing)}")
        unreached = [f"{o.option}={o.value}" for o in self.options if not o.reached]
        if unreached:
            lines.append(f"option values whose clauses no game tried reached: {', '.join(unreached)}")
        return lines


def _recorded(
    game: Game[Any, Any],
    actions: Sequence[Action | str],
    trace_id: str,
    reasons: list[str],
    exercised: set[str],
    start: Any = None,
) -> SuiteTrace:
    """The trace of `actions`, covering `reasons` and every clause it is the first to exercise
    (`clause GT-A2`, added to `exercised`)."""
    trace, touched = record_trace(game, actions, trace_id=trace_id, start=start)
    first = sorted(set(touched) - exercised)
    exercised |= set(touched)
    return attrs.evolve(trace, covers=(*reasons, *(f"clause {c}" for c in first)))


def _clause_traces(
    make: Make,
    counts: tuple[int, ...],
    searched: int,
    seed: int,
    max_steps: int,
    exercised: set[str],
    progress: Progress,
) -> list[SuiteTrace]:
    """The clause-directed games that exercise a clause the suite lacks, each up to its last such
    step; `exercised` grows by what they exercise, and `progress` hears the games searched."""
    found: list[SuiteTrace] = []
    for index in range(searched):
        progress(index, searched)
        players = counts[index % len(counts)]
        game = make(players, {})
        pursuit = pursue(game, set(game.catalogue().ids) - exercised, seed * 1_000 + index, max_steps)
        new = [i for i, step in enumerate(pursuit.touched) if step - exercised]
        if not new:
            continue
        actions = pursuit.playthrough.actions[: new[-1] + 1]
        found.append(_recorded(game, actions, f"{game.name}-clauses-{index + 1:02d}", [], exercised))
    return found


def _finished_trace(make: Make, players: int, seed: int, exercised: set[str]) -> list[SuiteTrace]:
    """A random game played to its end, or none if no seed tried ends within FINISHED_CAP actions."""
    game = make(players, {})
    for attempt in range(FINISHED_TRIES):
        played = random_game(game, seed * 1_000 + attempt, FINISHED_CAP)
        if game.is_terminal(played.states[-1]):
            return [_recorded(game, played.actions, f"{game.name}-finished", ["returns"], exercised)]
    return []


def _player_count_traces(
    make: Make, counts: range, searched: tuple[int, ...], seed: int, max_steps: int, exercised: set[str]
) -> list[SuiteTrace]:
    """A random game at every player count of `counts` that the search did not play."""
    traces = []
    for players in (n for n in counts if n not in searched):
        game = make(players, {})
        played = random_game(game, seed * 1_000 + players, max_steps)
        traces.append(
            _recorded(game, played.actions, f"{game.name}-players-{players}", [f"players {players}"], exercised)
        )
    return traces


def _other_values(options: Sequence[Option], chosen: Mapping[str, str]) -> list[tuple[int, Option, str]]:
    """(option's number, option, value) for every value of every option but the chosen one."""
    return [
        (number, option, value)
        for number, option in enumerate(options)
        for value in option.values
        if value != chosen.get(option.name, option.default)
    ]


def _option_traces(
    make: Make,
    players: int,
    chosen: Mapping[str, str],
    seed: int,
    max_steps: int,
    exercised: set[str],
    progress: Progress,
) -> tuple[list[SuiteTrace], list[OptionTrace]]:
    """A trace under every other value of every option, and whether it reached the option's clauses;
    `progress` hears the values done of all. A value the game refuses at `players` (OptionError at
    setup, like Mechanica's solo=refused for one player) has no trace: it does not apply there."""
    traces, summary = [], []
    others = _other_values(make(players, {}).option_space.options, chosen)
    for done, (number, option, value) in enumerate(others):
        progress(done, len(others))
        try:
            game = make(players, {option.name: value})
        except OptionError:
            continue
        for attempt in range(OPTION_TRIES):
            pursuit = pursue(game, option.clauses, seed * 1_000_000 + number * 1_000 + attempt, max_steps)
            if pursuit.reached:
                break
        actions = pursuit.playthrough.actions
        reached = bool(pursuit.reached)
        if reached:
            actions = actions[: min(pursuit.reached.values()) + OPTION_TAIL]
        covers = [f"option {option.name}={value}"] + ([] if reached else ["its clauses not reached"])
        trace_id = _identifier(f"{game.name}-option-{option.name}-{value}")
        traces.append(_recorded(game, actions, trace_id, covers, exercised))
        summary.append(OptionTrace(option.name, value, reached))
    return traces, summary


def _identifier(text: str) -> str:
    """`text` as a trace id: characters other than letters, digits, `.`, `_` and `-` become `_`."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", text)[:100]


def witness_traces(report: Path, game_name: str) -> list[tuple[str, Trace]]:
    """(finding id, trace) for every trace witness of a finding of `game_name` in the verify report
    folder `report` (its findings.json and witnesses/), in the report's order; TraceError naming the
    file and the entry of a report that is not a findings report as verify writes one."""
    path = report / "findings.json"
    document = load_document(path, TraceError, kind="findings report")
    found = []
    for finding, named in _witness_files(document, path):
        trace = load_trace(report / "witnesses" / Path(named).name)
        if trace.game == game_name:
            found.append((finding, trace))
    return found


def _witness_files(document: dict[str, Any], path: Path) -> list[tuple[str, str]]:
    """(finding id, witness file name) for each piece of evidence with a file, checking the shape
    of what it reads on the way: the format, `findings` an array of objects each with a string
    `id`, its `evidence` an array of objects, a `witness` an object, its `file` a string."""

    def fail(where: str, message: str) -> TraceError:
        return TraceError(f"{path}: {where}: {message}")

    if (document.get("format"), document.get("format_version")) != (FINDINGS_FORMAT, 1):
        said = f"{clip(str(document.get('format')), 40)} version {clip(str(document.get('format_version')), 20)}"
        raise TraceError(f"{path}: not a {FINDINGS_FORMAT} report of version 1 (it says {said})")
    findings = document.get("findings")
    if not isinstance(findings, list):
        raise fail("findings", "must be an array of findings")
    files = []
    for index, finding in enumerate(findings):
        where = f"findings[{index}]"
        if not isinstance(finding, dict):
            raise fail(where, "must be an object (a finding)")
        if not isinstance(finding.get("id"), str):
            raise fail(f"{where}.id", "must be a string (the finding's id)")
        evidence = finding.get("evidence", [])
        if not isinstance(evidence, list):
            raise fail(f"{where}.evidence", "must be an array")
        for number, item in enumerate(evidence):
            at = f"{where}.evidence[{number}]"
            if not isinstance(item, dict):
                raise fail(at, "must be an object (a piece of evidence)")
            witness = item.get("witness", {})
            if not isinstance(witness, dict):
                raise fail(f"{at}.witness", "must be an object")
            if "file" in witness and not isinstance(witness["file"], str):
                raise fail(f"{at}.witness.file", "must be a string (a file in witnesses/)")
            if "file" in witness:
                files.append((finding["id"], witness["file"]))
    return files


def _witness_suite_traces(found: list[tuple[str, Trace]], exercised: set[str]) -> list[SuiteTrace]:
    traces = []
    for index, (finding, trace) in enumerate(found, start=1):
        source = None if trace.data is None or trace.data[0] == DEFAULT_SOURCE else trace.data[0]
        game = make_game(trace.game, trace.players, dict(trace.options), data=source)
        replay(game, trace)
        trace_id = _identifier(f"{game.name}-finding-{finding}-{index}")
        start = None if trace.start is None else trace.first_state(game)
        traces.append(_recorded(game, trace.actions, trace_id, [f"finding {finding}"], exercised, start))
    return traces


def export_suite(
    name: str,
    *,
    players: int | None = None,
    options: Mapping[str, str] | None = None,
    data: str | None = None,
    searched: int = DEFAULT_SEARCHED,
    seed: int = 0,
    max_steps: int = DEFAULT_MAX_STEPS,
    report: Path | None = None,
    progress: Progress = no_progress,
) -> Export:
    """The suite of the game `name` under `options` (the defaults elsewhere), with the data set in
    `data`, and the witnesses of the verify report folder `report` when given; `progress` hears
    the searched games and option values done of all (the few other games count for nothing)."""
    chosen = dict(options or {})
    cls = game_class(name)

    def make(count: int, changed: Mapping[str, str]) -> Game[Any, Any]:
        return make_game(name, count, chosen | dict(changed), data=data)

    counts = (players,) if players is not None else cls.campaign_players
    make(counts[0], {})  # options and data checked before any search
    found = [] if report is None else witness_traces(report, name)
    exercised: set[str] = set()
    others = len(_other_values(cls.option_space.options, chosen))
    total = searched + others
    traces = _clause_traces(make, counts, searched, seed, max_steps, exercised, part(progress, 0, total))
    traces += _finished_trace(make, min(counts), seed, exercised)
    if players is None:
        every = range(cls.min_players, cls.max_players + 1)
        traces += _player_count_traces(make, every, counts, seed, max_steps, exercised)
    option_traces, option_summary = _option_traces(
        make, min(counts), chosen, seed, max_steps, exercised, part(progress, searched, total)
    )
    progress(total, total)
    traces += option_traces + _witness_suite_traces(found, exercised)
    return Export(
        game=name,
        traces=tuple(traces),
        clauses=cls.catalogue().ids,
        exercised=frozenset(exercised),
        searched=searched,
        options=tuple(option_summary),
        findings=tuple(dict.fromkeys(f for f, _ in found)),
    )
