"""findings.md: the findings report as a Markdown document, for a rule designer.

Models: the document's parts in order: a summary table (id, game, kind, the finding in one line,
what to decide), each id linked to its finding; each finding with the rulebook's sentences
involved, what each check found in plain words, where it was seen against the readings tried,
the command that shows it again, what the designer should decide and any rewording proposed;
then, apart from the findings, the rules the budget did not reach (no ids); the audited
findings not reproduced; the readings searched; the balance section (who wins each game, with
intervals, and the readings that change it); and the counts per game and kind. The words
are words.py's, shared with findings.html.

Leaves out: the report's data (findings.py builds it) and the page (page.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulecheck.check.report.words import (
    FOUND,
    SUMMARY_COLUMNS,
    UNREACHED,
    origin,
    said_where,
    seen_under,
    summary_row,
    witness_words,
)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(map(_cell, cells)) + " |"


def _head(columns: Sequence[str]) -> list[str]:
    return [_row(columns), _row(["---"] * len(columns))]


def _summary(findings: Sequence[Mapping[str, Any]]) -> list[str]:
    lines = ["## Summary", "", *_head(SUMMARY_COLUMNS)]
    lines += [_row([f"[{e['id']}](#{e['id']})", *summary_row(e)]) for e in findings]
    return [*lines, ""]


def _finding(entry: Mapping[str, Any], tried: Sequence[Mapping[str, Any]], traces: Mapping[str, Any]) -> list[str]:
    heading = f"## {entry['id']} ({entry['game']}, {entry['kind']}): {entry['title']}"
    lines = [f'<a id="{entry["id"]}"></a>', "", heading, "", f"*{origin(entry)}*", ""]
    if entry.get("rulebook"):
        lines += ["The rulebook says:", ""]
        lines += [f"> **{c['id']}** ({said_where(c)}): {c['text']}  " for c in entry["rulebook"]]
        lines.append("")
    lines += ["What the checks found:", ""]
    for number, item in enumerate(entry["evidence"], start=1):
        opening = FOUND.get(item["check"], item["check"])
        lines.append(f"{number}. **{opening}** ({item['check']}): {item['title']}.")
        lines.append(f"   Seen {seen_under(item['options'], tried)}.")
        lines.append(f"   {witness_words(item, traces)}Show it: `{item['replay']}`")
        if "table" in item["witness"]:
            lines += _table_lines(item["witness"]["table"])
    if entry.get("decide"):
        lines += ["", "To decide:", "", *(f"- {line}." for line in entry["decide"])]
    if entry.get("proposal"):
        lines += ["", "Proposed wording:", "", *(f"- {line}." for line in entry["proposal"])]
    return [*lines, ""]


def _unreached(notes: Sequence[Mapping[str, Any]], traces: Mapping[str, Any]) -> list[str]:
    lines = ["## Not reached within this budget", "", UNREACHED, ""]
    lines += _head(("rule", "game", "the rulebook says", "what the checks did"))
    for note in notes:
        said = "; ".join(f"{c['text']} ({said_where(c)})" for c in note["rulebook"])
        did = f"{note['title']}. {witness_words(note, traces)}Show it: `{note['replay']}`"
        lines.append(_row([note["subject"], note["game"], said, did]))
    return [*lines, ""]


def markdown(data: Mapping[str, Any], totals: Mapping[str, Mapping[str, int]], traces: Mapping[str, Any] = {}) -> str:
    """findings.md of the report `data`, whose counts per game and kind are `totals`; `traces`
    holds the witness traces by file name."""
    findings, notes = data["findings"], data.get("unreached", [])
    apart = f"; {len(notes)} rules not reached within this budget are listed apart, after them" if notes else ""
    lines = ["# Findings", "", f"{len(findings)} findings, each with what the rule designer should decide{apart}.", ""]
    lines += _summary(findings)
    tried = data.get("tried", {})
    for entry in findings:
        lines += _finding(entry, tried.get(entry["game"], []), traces)
    if notes:
        lines += _unreached(notes, traces)
    if data.get("not_reproduced"):
        lines += ["## Not reproduced", "", "Audited findings that no check of this run produced evidence for.", ""]
        for entry in data["not_reproduced"]:
            lines += [f"### {entry['id']} ({entry['game']}, {entry['kind']}): {entry['title']}", ""]
            lines += [f"- {key}: {ran} ({entry['budget']} budget)" for key, ran in entry["searched"].items()]
            lines.append("")
    if data.get("readings"):
        lines += ["## Readings searched", "", *_head(("game", "option", "value", "default", "verdict", "search"))]
        for r in data["readings"]:
            where = f", after {r['after']} actions" if "after" in r else ""
            verdict = r["verdict"] + (f" ({r['what']}{where})" if "what" in r else "")
            verdict += "".join(f"; {built}" for built in r.get("built", ()))
            lines.append(_row([r["game"], r["option"], r["value"], r["default"], verdict, r["search"]]))
        lines.append("")
    if data.get("contracts"):
        lines += [
            "## Text contracts",
            "",
            "The clauses the silent-decision finder checks the engine against, and those it leaves unaudited.",
            "",
        ]
        lines += _head(("game", "with a contract", "unaudited"))
        for c in data["contracts"]:
            lines.append(_row([c["game"], ", ".join(c["audited"]) or "none", ", ".join(c["unaudited"]) or "none"]))
        lines.append("")
    if data.get("balance"):
        lines += _balance(data["balance"])
    lines += ["## Counts", "", *_head(("game", "kind", "findings"))]
    lines += [_row([game, kind, str(n)]) for game, counts in totals.items() for kind, n in counts.items()]
    return "\n".join(lines) + "\n"


def _seats(figures: Mapping[str, Any]) -> str:
    """Each seat's games won alone with its 95% interval."""
    return "; ".join(
        f"seat {p} {s['wins']} ({100 * s['rate']:.1f}%, 95% {100 * s['low']:.1f}-{100 * s['high']:.1f}%)"
        for p, s in enumerate(figures["seats"])
    )


def _balance(entries: Sequence[Mapping[str, Any]]) -> list[str]:
    """The balance section: who wins each game under random play, and the readings that change it."""
    lines = ["## Balance", ""]
    for entry in entries:
        figures = entry["figures"]
        lines += [
            f"### {entry['game']}, {entry['players']} players ({entry['games']} games, policy {entry['policy']})",
            "",
            f"- seat advantage ({entry['interval']}): {_seats(figures)}; seats equal: p = {figures['seat_p']:.3g} "
            "(chi-square goodness of fit)",
            f"- outcomes: {', '.join(f'{k} {n}' for k, n in figures['outcomes'].items())}; length mean "
            f"{figures['length_mean']:.1f} steps, longest {figures['longest']}",
        ]
        changed = entry["changes_who_wins"]
        if entry["readings_compared"]:
            lines.append(
                f"- readings that change who wins: {len(changed)} of {entry['readings_compared']} compared "
                f"({entry['test']}, below {entry['alpha']})"
            )
        lines += [
            f"  - {r['option']}={r['value']}: {_seats(r['figures'])}; p = {r['p']:.3g}, adjusted {r['adjusted_p']:.3g}"
            for r in changed
        ]
        lines.append("")
    return lines


def _table_lines(table: Mapping[str, Any]) -> list[str]:
    columns = table["columns"]
    rows = ["   " + _row(columns), "   " + _row(["---"] * len(columns))]
    rows += ["   " + _row([str(v) for v in row]) for row in table["rows"]]
    return ["", *rows, ""]
