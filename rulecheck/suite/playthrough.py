"""A suite as a person reads it: each trace's setup and steps in plain text, beside the JSON lines.

Models: for every trace, a heading (id, why it is in the suite, the setup), then one line a
step: its number, who moves (or chance), how many actions were legal and the first of them,
or each chance outcome with its exact probability, and the action taken; at the end, who
would move next, or the returns of a finished game. Like OpenSpiel's playthrough files, it
is for reading a diff, not for replaying: the JSON lines are the suite.

Leaves out: states (they are in the JSON lines, and too long to read here).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Final

from rulecheck.core.exact import exact_text
from rulecheck.core.files import write_whole
from rulecheck.core.game import CHANCE, TERMINAL
from rulecheck.core.words import counted
from rulecheck.suite.format import SUITE_SUFFIX, SuiteTrace

PLAYTHROUGH_SUFFIX: Final = ".suite.txt"
SHOWN: Final = 6
"""The most legal actions or chance outcomes a step's line names."""


def _mover(to_move: int) -> str:
    return (
        "chance" if to_move == CHANCE else "nobody (the game is over)" if to_move == TERMINAL else f"player {to_move}"
    )


def trace_text(trace: SuiteTrace) -> list[str]:
    options = ", ".join(f"{k}={v}" for k, v in trace.options)
    lines = [
        f"## {trace.id}",
        f"covers: {', '.join(trace.covers) or 'nothing new'}",
        f"{trace.game} version {trace.game_version}, {counted(trace.players, 'player')}; {options}",
    ]
    if trace.data is not None:
        lines.append(f"data: {trace.data[0]} (digest {trace.data[1]})")
    if trace.start is not None:
        lines.append("starts from a recorded position, not the initial state")
    for number, step in enumerate(trace.steps, start=1):
        if step.chance:
            offered = [f"{text} {exact_text(p)}" for text, _, p in step.chance]
        else:
            offered = [text for text, _ in step.legal]
        more = f", ... ({len(offered)} in all)" if len(offered) > SHOWN else ""
        lines.append(f"{number:5d}  {_mover(step.to_move)}: {step.action}    [{', '.join(offered[:SHOWN])}{more}]")
    end = trace.end
    if end.returns is None:
        lines.append(f"stops before the end; {_mover(end.to_move)} to move")
    else:
        lines.append(f"game over; returns {', '.join(map(exact_text, end.returns))}")
    return lines


def playthrough(traces: Iterable[SuiteTrace]) -> str:
    """The readable text of a suite's traces."""
    return "\n\n".join("\n".join(trace_text(t)) for t in traces) + "\n"


def playthrough_path(suite: Path) -> Path:
    """The readable playthrough beside a suite file: `x.suite.jsonl` -> `x.suite.txt`."""
    name = suite.name.removesuffix(SUITE_SUFFIX).removesuffix(".jsonl")
    return suite.with_name(name + PLAYTHROUGH_SUFFIX)


def save_playthrough(suite: Path, traces: Iterable[SuiteTrace]) -> Path:
    """Write the playthrough of `traces` beside the suite file `suite` (whole or not at all); its path."""
    path = playthrough_path(suite)
    write_whole(path, playthrough(traces))
    return path
