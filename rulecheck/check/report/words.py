"""The words the findings report says each finding in: findings.md and findings.html alike.

Models: how each kind of evidence opens, in plain words; where a finding comes from (the audit,
a ledger, or this run only); where a clause is said in the rulebook; the rows of the summary
that opens the report (id, game, kind, the finding in one line, what to decide) and the words
that introduce the rules the budget did not reach; where a piece of evidence was seen, by
player count, against the settings the campaign tried (`at 2 players under every reading tried
(24) but removal=edge5`); and a witness trace's length, with the length of the game it was
shrunk from.

Leaves out: the layout of either document (findings.py, page.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from rulecheck.core.words import counted

FOUND: Final = {
    "self-loss": "A player can lose through their own action",
    "rule gap": "Play reaches a point where the rulebook is silent",
    "non-termination": "Play can go on for ever",
    "deadlock": "A player can be left with no legal action",
    "broken invariant": "Something the rulebook promises fails under some reading",
    "reading that matters": "Two readings of the rulebook play differently",
    "parts": "Two readings of the rulebook play differently",
    "dead rule": "A rule the checks did not see applied",
    "contradiction": "Statements of the rulebook cannot all hold",
    "computed table": "A number the rulebook implies, computed",
    "silent decision": "The rulebook does not decide this; the engine does",
}
"""How the report opens each kind of evidence, before the evidence's own words."""

UNREACHED: Final = (
    "Not findings: rules that no game of this budget applied, listed apart from the defects and given no id. "
    "A larger budget, or play that seeks a rule out, may reach them; a rule that can never apply is a finding "
    "of its own (a dead rule)."
)
"""What the report says before the rules the budget did not reach."""

SUMMARY_COLUMNS: Final = ("id", "game", "kind", "finding", "what to decide")

SHOWN_SETTINGS: Final = 4
"""A "seen under" summary names at most this many readings; more are counted."""


def origin(entry: Mapping[str, Any]) -> str:
    """Where a finding of the report's JSON comes from, and how long its id lasts."""
    if entry["audited"]:
        return "from the audit"
    if entry.get("provisional"):
        return (
            f"new: no audited finding lists it; {entry['id']} is this run's id only "
            "(rulecheck verify --ledgers DIR keeps new ids in DIR for good)"
        )
    return "new: no audited finding lists it; its id is kept in the ledger"


def said_where(clause: Mapping[str, Any]) -> str:
    """Where the rulebook says a clause of the report's JSON: `line 40, 41`, or that no line does."""
    return f"line {', '.join(map(str, clause['lines']))}" if clause["lines"] else "no line states it"


def summary_row(entry: Mapping[str, Any]) -> tuple[str, ...]:
    """A finding's row in the summary, after its id: game, kind, the finding in one line, and
    what to decide (the first decision, with how many more the finding lists)."""
    decide = entry.get("decide", [])
    more = f" (and {len(decide) - 1} more)" if len(decide) > 1 else ""
    return entry["game"], entry["kind"], entry["title"], (decide[0] + more) if decide else ""


def _reading(setting: Mapping[str, Any]) -> str:
    values = [f"{k}={v}" for k, v in setting.items() if k != "players"]
    return ", ".join(values) or "the defaults"


def _named(readings: Sequence[str]) -> str:
    more = f" and {len(readings) - SHOWN_SETTINGS} more" if len(readings) > SHOWN_SETTINGS else ""
    return ", ".join(readings[:SHOWN_SETTINGS]) + more


def seen_under(seen: Sequence[Mapping[str, Any]], tried: Sequence[Mapping[str, Any]]) -> str:
    """Where a piece of evidence was seen, by player count, against the readings the campaign
    tried at that count: `at 2 players under every reading tried (24)`, `... but removal=edge5`,
    or the readings named."""
    parts = []
    for players in sorted({s["players"] for s in seen}):
        at = f"at {players} player{'' if players == 1 else 's'}"
        here = [_reading(s) for s in seen if s["players"] == players]
        universe = [_reading(t) for t in tried if t["players"] == players]
        missing = [r for r in universe if r not in here]
        if len(universe) > 1 and not missing:
            parts.append(f"{at} under every reading tried ({len(universe)})")
        elif len(here) > SHOWN_SETTINGS and len(missing) <= SHOWN_SETTINGS and set(here) <= set(universe):
            parts.append(f"{at} under every reading tried ({len(universe)}) but {', '.join(missing)}")
        else:
            parts.append(f"{at} under {_named(here)}")
    return "; ".join(parts)


def steps_words(steps: int, shrunk_from: int | None) -> str:
    """A witness's number of steps in words: `22 steps, shrunk from 1461`; the shrinking is said
    only when the game it was shrunk from was longer."""
    shrunk = f", shrunk from {shrunk_from}" if shrunk_from and shrunk_from > steps else ""
    return f"{counted(steps, 'step')}{shrunk}"


def witness_length(trace: Mapping[str, Any]) -> str:
    """A witness trace's length in words: `a game of 22 steps, shrunk from 1461`, or `the initial state`."""
    steps = len(trace.get("steps", []))
    shrunk_from = (trace.get("shows") or {}).get("shrunk_from")
    return f"a game of {steps_words(steps, shrunk_from)}" if steps else "the initial state"


def witness_words(item: Mapping[str, Any], traces: Mapping[str, Any]) -> str:
    """`Witness: a game of N steps. ` for evidence whose witness is a trace, else nothing."""
    trace = traces.get(item["witness"].get("file", ""))
    return f"Witness: {witness_length(trace)}. " if trace is not None else ""
