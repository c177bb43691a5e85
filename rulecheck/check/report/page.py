"""findings.html: the findings report as one static page, with each witness's position drawn.

Models: the page a rule designer opens in a browser, with no server and nothing fetched: the
same findings, in the same order and words as findings.md (words.py), opening with the same
summary table, each id a link to its finding; each finding's rulebook sentences, each piece
of evidence in plain words with where it was seen and the command that shows it, a computed
table as a table, beside a witness the picture of the position at its last step, set inline
as SVG as wide as the text, and what to decide with any rewording proposed; then, apart, the
rules the budget did not reach. Every text from the report is escaped.

Leaves out: drawing (the caller passes each witness's picture, or none where its game has no
pictures or matplotlib is missing), and the readings-searched, not-reproduced and balance
sections, which findings.md holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any, Final

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

STYLE: Final = """
body { font-family: sans-serif; max-width: 72em; margin: 2em auto; line-height: 1.4; color: #222; }
h2 { border-top: 1px solid #ccc; padding-top: 1em; }
blockquote { border-left: 4px solid #d9c27a; margin: 0.5em 0; padding: 0.2em 1em; background: #faf7ec; }
code { background: #f2f2f2; padding: 0 0.2em; }
table { border-collapse: collapse; margin: 0.5em 0; }
td, th { border: 1px solid #ccc; padding: 0.1em 0.5em; }
figure { margin: 0.5em 0; }
figure svg { display: block; width: 100%; height: auto; }
.origin { color: #666; font-style: italic; }
.decide { background: #eef4fb; border-left: 4px solid #6b9bd1; padding: 0.2em 1em; }
"""


def _table(table: Mapping[str, Any]) -> str:
    head = "".join(f"<th>{escape(str(c))}</th>" for c in table["columns"])
    rows = "".join("<tr>" + "".join(f"<td>{escape(str(v))}</td>" for v in row) + "</tr>" for row in table["rows"])
    return f"<table><tr>{head}</tr>{rows}</table>"


def _row(cells: list[str], tag: str = "td") -> str:
    return "<tr>" + "".join(f"<{tag}>{cell}</{tag}>" for cell in cells) + "</tr>"


def _summary(findings: list[Mapping[str, Any]]) -> str:
    rows = [_row([escape(c) for c in SUMMARY_COLUMNS], "th")]
    rows += [
        _row([f'<a href="#{escape(e["id"])}">{escape(e["id"])}</a>', *map(escape, summary_row(e))]) for e in findings
    ]
    return f"<h2>Summary</h2><table>{''.join(rows)}</table>"


def _evidence(item: Mapping[str, Any], tried: Any, traces: Mapping[str, Any], pictures: Mapping[str, str]) -> str:
    words = FOUND.get(item["check"], item["check"])
    parts = [f"<li><b>{escape(words)}</b> ({escape(item['check'])}): {escape(item['title'])}."]
    parts.append(f"<br>Seen {escape(seen_under(item['options'], tried))}.")
    parts.append(f"<br>{escape(witness_words(item, traces))}Show it: <code>{escape(item['replay'])}</code>")
    if "table" in item["witness"]:
        parts.append(_table(item["witness"]["table"]))
    picture = pictures.get(item["witness"].get("file", ""))
    if picture is not None:
        parts.append(f"<figure>{picture}<figcaption>The position at the witness's last step.</figcaption></figure>")
    return "".join(parts) + "</li>"


def _finding(entry: Mapping[str, Any], tried: Any, traces: Mapping[str, Any], pictures: Mapping[str, str]) -> str:
    title = f"{entry['id']} ({entry['game']}, {entry['kind']}): {entry['title']}"
    parts = [f'<h2 id="{escape(entry["id"])}">{escape(title)}</h2><p class="origin">{escape(origin(entry))}</p>']
    if entry.get("rulebook"):
        parts.append("<p>The rulebook says:</p>")
        parts += [
            f"<blockquote><b>{escape(c['id'])}</b> ({said_where(c)}): {escape(c['text'])}</blockquote>"
            for c in entry["rulebook"]
        ]
    parts.append("<p>What the checks found:</p><ol>")
    parts += [_evidence(item, tried, traces, pictures) for item in entry["evidence"]]
    parts.append("</ol>")
    for heading, lines in (("To decide", entry.get("decide")), ("Proposed wording", entry.get("proposal"))):
        if lines:
            items = "".join(f"<li>{escape(line)}.</li>" for line in lines)
            parts.append(f'<div class="decide"><p><b>{heading}:</b></p><ul>{items}</ul></div>')
    return "\n".join(parts)


def _unreached(notes: list[Mapping[str, Any]], traces: Mapping[str, Any]) -> str:
    rows = [_row(["rule", "game", "the rulebook says", "what the checks did"], "th")]
    for note in notes:
        said = "; ".join(f"{c['text']} ({said_where(c)})" for c in note["rulebook"])
        did = f"{note['title']}. {witness_words(note, traces)}Show it: "
        cells = [escape(note["subject"]), escape(note["game"]), escape(said)]
        rows.append(_row([*cells, f"{escape(did)}<code>{escape(note['replay'])}</code>"]))
    heading = '<h2 id="unreached">Not reached within this budget</h2>'
    return f"{heading}<p>{escape(UNREACHED)}</p><table>{''.join(rows)}</table>"


def page(data: Mapping[str, Any], traces: Mapping[str, Any], pictures: Mapping[str, str]) -> str:
    """The page of the report `data`, whose witness traces are `traces` and the SVG of each
    witness's last position `pictures`, both by file."""
    findings, notes = data["findings"], data.get("unreached", [])
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8"><title>Findings</title>',
        f"<style>{STYLE}</style></head><body><h1>Findings</h1>",
        _summary(findings),
    ]
    tried = data.get("tried", {})
    parts += [_finding(entry, tried.get(entry["game"], []), traces, pictures) for entry in findings]
    if notes:
        parts.append(_unreached(notes, traces))
    parts.append("<h2>Counts</h2><table><tr><th>game</th><th>kind</th><th>findings</th></tr>")
    for game, counts in data.get("summary", {}).items():
        parts += [f"<tr><td>{escape(game)}</td><td>{escape(kind)}</td><td>{n}</td></tr>" for kind, n in counts.items()]
    parts.append("</table></body></html>")
    return "\n".join(parts) + "\n"
