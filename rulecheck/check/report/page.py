"""findings.html: the findings report as one static page, with each witness's position drawn.

Models: the page a rule designer opens in a browser, with no server and nothing fetched: the
same findings, in the same order and words as findings.md (words.py), each finding's
rulebook sentences, each piece of evidence in plain words with where it was seen and the
command that shows it, a computed table as a table, and beside a witness the picture of the
position at its last step, set inline as SVG. Every text from the report is escaped.

Leaves out: drawing (the caller passes each witness's picture, or none where its game has no
pictures or matplotlib is missing), and the readings-searched and not-reproduced sections,
which findings.md holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any, Final

from rulecheck.check.report.words import FOUND, seen_under, witness_words

STYLE: Final = """
body { font-family: sans-serif; max-width: 72em; margin: 2em auto; line-height: 1.4; color: #222; }
h2 { border-top: 1px solid #ccc; padding-top: 1em; }
blockquote { border-left: 4px solid #d9c27a; margin: 0.5em 0; padding: 0.2em 1em; background: #faf7ec; }
code { background: #f2f2f2; padding: 0 0.2em; }
table { border-collapse: collapse; margin: 0.5em 0; }
td, th { border: 1px solid #ccc; padding: 0.1em 0.5em; }
figure { margin: 0.5em 0; }
figure svg { width: 36em; height: auto; }
.origin { color: #666; font-style: italic; }
"""


def _table(table: Mapping[str, Any]) -> str:
    head = "".join(f"<th>{escape(str(c))}</th>" for c in table["columns"])
    rows = "".join("<tr>" + "".join(f"<td>{escape(str(v))}</td>" for v in row) + "</tr>" for row in table["rows"])
    return f"<table><tr>{head}</tr>{rows}</table>"


def page(data: Mapping[str, Any], traces: Mapping[str, Any], pictures: Mapping[str, str]) -> str:
    """The page of the report `data`, whose witness traces are `traces` and the SVG of each
    witness's last position `pictures`, both by file."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8"><title>Findings</title>',
        f"<style>{STYLE}</style></head><body><h1>Findings</h1>",
    ]
    for entry in data["findings"]:
        origin = "from the audit" if entry["audited"] else "new: no audited finding lists it"
        title = f"{entry['id']} ({entry['game']}, {entry['kind']}): {entry['title']}"
        parts.append(f'<h2 id="{escape(entry["id"])}">{escape(title)}</h2><p class="origin">{origin}</p>')
        if entry.get("rulebook"):
            parts.append("<p>The rulebook says:</p>")
            for clause in entry["rulebook"]:
                where = f"line {', '.join(map(str, clause['lines']))}" if clause["lines"] else "no line states it"
                parts.append(
                    f"<blockquote><b>{escape(clause['id'])}</b> ({where}): {escape(clause['text'])}</blockquote>"
                )
        parts.append("<p>What the checks found:</p><ol>")
        for item in entry["evidence"]:
            words = FOUND.get(item["check"], item["check"])
            parts.append(f"<li><b>{escape(words)}</b> ({escape(item['check'])}): {escape(item['title'])}.")
            seen = seen_under(item["options"], data.get("tried", {}).get(entry["game"], []))
            parts.append(f"<br>Seen {escape(seen)}.")
            parts.append(f"<br>{escape(witness_words(item, traces))}Show it: <code>{escape(item['replay'])}</code>")
            if "table" in item["witness"]:
                parts.append(_table(item["witness"]["table"]))
            picture = pictures.get(item["witness"].get("file", ""))
            if picture is not None:
                parts.append(
                    f"<figure>{picture}<figcaption>The position at the witness's last step.</figcaption></figure>"
                )
            parts.append("</li>")
        parts.append("</ol>")
    parts.append("<h2>Summary</h2><table><tr><th>game</th><th>kind</th><th>findings</th></tr>")
    for game, counts in data.get("summary", {}).items():
        parts += [f"<tr><td>{escape(game)}</td><td>{escape(kind)}</td><td>{n}</td></tr>" for kind, n in counts.items()]
    parts.append("</table></body></html>")
    return "\n".join(parts) + "\n"
