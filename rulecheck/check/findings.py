"""Findings: what the checks found about a rulebook, each with a witness anyone can replay.

Models: a piece of evidence (one check's result under one option set and player count:
its witness, a trace, a Z3 answer, a computed table or a coverage count, and the command
that shows it again), merged by key with every setting it was seen under; the audit's
findings of a game (specs/<game>-audit.toml: each id with the evidence keys that bear on
it); and the findings report, where evidence that bears on an audited finding is filed
under the audit's id and every other key becomes a new finding, numbered on from the
audit's ids in order of key. The report is written as findings.json, findings.md and a
witnesses/ folder, each file whole or not at all.

Leaves out: running the checks (verify.py does) and judging whether a finding is a flaw
of the rulebook (the reader does).
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections import Counter
from collections.abc import Iterable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, Final

import attrs

from rulecheck.core.clauses import require
from rulecheck.core.errors import SpecError

WITNESS: Final = "{witness}"
"""Stands in a replay command for the path of the witness file the report writes."""

AUDIT_ID = re.compile(r"^(?P<prefix>[A-Z]+-F)(?P<number>\d+)$")


@attrs.frozen
class Evidence:
    game: str
    check: str
    """The kind of check: a generic kind (generic.py), "reading that matters", "dead rule",
    "contradiction" or "computed table"."""
    subject: str
    title: str
    clauses: tuple[str, ...]
    players: int
    variant: tuple[tuple[str, str], ...]
    """The option values, other than the defaults, under which it was seen (none: the defaults)."""
    witness: dict[str, Any]
    """One of {"trace": ...}, {"z3": ...}, {"table": ...}, {"coverage": ...}."""
    replay: str
    """The command that shows it; WITNESS stands for the witness file's path."""

    @property
    def key(self) -> str:
        return f"{self.check}:{self.subject}"


@attrs.frozen
class AuditEntry:
    id: str
    kind: str
    title: str
    clauses: tuple[str, ...]
    evidence: tuple[str, ...]
    """Evidence keys (Evidence.key) that bear on this finding."""


@attrs.frozen
class Observed:
    """A piece of evidence, and every setting (player count and options) its check showed it under."""

    evidence: Evidence
    under: tuple[dict[str, Any], ...]


@attrs.frozen
class Finding:
    id: str
    game: str
    kind: str
    title: str
    clauses: tuple[str, ...]
    audited: bool
    evidence: tuple[Observed, ...]


def parse_audit(text: str, source: str) -> tuple[AuditEntry, ...]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(f"{source}: not valid TOML: {exc}") from None
    entries = []
    for index, table in enumerate(require(data, "finding", list, source), start=1):
        where = f"{source}: finding #{index}"
        if not isinstance(table, dict):
            raise SpecError(f"{where}: must be a table")
        if unknown := set(table) - {"id", "kind", "title", "clauses", "evidence"}:
            raise SpecError(f"{where}: unknown keys {sorted(unknown)}")
        entry_id = require(table, "id", str, where)
        if not AUDIT_ID.match(entry_id):
            raise SpecError(f"{where}: id {entry_id!r} must look like GT-F01")
        lists = [require(table, key, list, where) for key in ("clauses", "evidence")]
        if not all(isinstance(item, str) for items in lists for item in items):
            raise SpecError(f"{where}: clauses and evidence must be lists of strings")
        entries.append(
            AuditEntry(
                entry_id, require(table, "kind", str, where), require(table, "title", str, where), *map(tuple, lists)
            )
        )
    if len({e.id for e in entries}) != len(entries):
        raise SpecError(f"{source}: finding ids repeat")
    return tuple(entries)


def load_audit(file: str | None) -> tuple[AuditEntry, ...]:
    """The audited findings in specs/<file>, the audit file a game declares (none without one)."""
    if file is None:
        return ()
    resource = resources.files("rulecheck.specs").joinpath(file)
    if not resource.is_file():
        raise SpecError(f"no audit file specs/{file}")
    return parse_audit(resource.read_text(encoding="utf-8"), f"specs/{file}")


def _setting(item: Evidence) -> dict[str, Any]:
    return {"players": item.players, **dict(item.variant)}


def observe(evidence: Sequence[Evidence]) -> list[Observed]:
    """One Observed per evidence key: the first piece of evidence as its witness, with every
    setting any piece of that key was seen under."""
    first: dict[str, Evidence] = {}
    under: dict[str, list[dict[str, Any]]] = {}
    for item in evidence:
        first.setdefault(item.key, item)
        if (setting := _setting(item)) not in under.setdefault(item.key, []):
            under[item.key].append(setting)
    return [Observed(item, tuple(under[key])) for key, item in first.items()]


def assemble(game: str, evidence: Sequence[Evidence], audit: Sequence[AuditEntry]) -> list[Finding]:
    """File the evidence under the audited findings it bears on, and each other key under a
    new finding of its own; new ids continue the audit's numbering in order of key."""
    owner = {key: entry.id for entry in audit for key in entry.evidence}
    filed: dict[str, list[Observed]] = {}
    for observed in observe(evidence):
        key = observed.evidence.key
        filed.setdefault(owner.get(key, key), []).append(observed)
    findings = [
        Finding(e.id, game, e.kind, e.title, e.clauses, True, tuple(filed[e.id])) for e in audit if e.id in filed
    ]
    numbers = [m for e in audit if (m := AUDIT_ID.match(e.id))]
    prefix = numbers[0]["prefix"] if numbers else f"{game[:2].upper()}-F"
    next_number = max((int(m["number"]) for m in numbers), default=0) + 1
    audited = {e.id for e in audit}
    for offset, key in enumerate(sorted(k for k in filed if k not in audited)):
        [observed] = filed[key]
        item = observed.evidence
        findings.append(
            Finding(
                f"{prefix}{next_number + offset:02d}", game, item.check, item.title, item.clauses, False, (observed,)
            )
        )
    return findings


def _evidence_data(observed: Observed, witness_path: str | None) -> dict[str, Any]:
    item = observed.evidence
    return {
        "check": item.check,
        "subject": item.subject,
        "title": item.title,
        "clauses": list(item.clauses),
        "options": list(observed.under),
        "witness": {"file": witness_path} if witness_path else item.witness,
        "replay": item.replay.replace(WITNESS, witness_path) if witness_path else item.replay,
    }


def _write(path: Path, text: str) -> None:
    """Write `text` to `path` whole or not at all."""
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)


def _json(data: Any) -> str:
    return json.dumps(data, indent=2, sort_keys=True) + "\n"


def report_data(findings: Sequence[Finding], folder: Path) -> tuple[dict[str, Any], dict[Path, str]]:
    """The findings.json object, and the witness files it names (path -> content)."""
    files: dict[Path, str] = {}
    entries = []
    for finding in findings:
        items = []
        for index, observed in enumerate(finding.evidence, start=1):
            path = None
            if "trace" in observed.evidence.witness:
                path = folder / "witnesses" / f"{finding.id}-{index}.json"
                files[path] = _json(observed.evidence.witness["trace"])
            items.append(_evidence_data(observed, str(path) if path else None))
        entries.append(
            {
                "id": finding.id,
                "game": finding.game,
                "kind": finding.kind,
                "title": finding.title,
                "clauses": list(finding.clauses),
                "audited": finding.audited,
                "options": [setting for item in items for setting in item["options"]],
                "witness": items[0]["witness"],
                "replay": items[0]["replay"],
                "evidence": items,
            }
        )
    return {"format": "rulecheck-findings", "format_version": 1, "findings": entries}, files


def summary(findings: Iterable[Finding]) -> dict[str, dict[str, int]]:
    """Per game, the number of findings of each kind."""
    table: dict[str, Counter[str]] = {}
    for finding in findings:
        table.setdefault(finding.game, Counter())[finding.kind] += 1
    return {game: dict(sorted(counts.items())) for game, counts in sorted(table.items())}


def markdown(data: dict[str, Any], totals: dict[str, dict[str, int]]) -> str:
    lines = ["# Findings", ""]
    for entry in data["findings"]:
        lines += [f"## {entry['id']} ({entry['game']}, {entry['kind']}): {entry['title']}", ""]
        if entry["clauses"]:
            lines += [f"Clauses: {', '.join(entry['clauses'])}.", ""]
        for item in entry["evidence"]:
            settings = "; ".join(", ".join(f"{k}={v}" for k, v in o.items()) for o in item["options"])
            lines.append(f"- {item['check']}: {item['title']} (seen under: {settings})")
            lines.append(f"  - replay: `{item['replay']}`")
            if "table" in item["witness"]:
                lines += _table_lines(item["witness"]["table"])
        lines.append("")
    lines += ["## Summary", "", "| game | kind | findings |", "| --- | --- | --- |"]
    lines += [f"| {game} | {kind} | {n} |" for game, counts in totals.items() for kind, n in counts.items()]
    return "\n".join(lines) + "\n"


def _table_lines(table: dict[str, Any]) -> list[str]:
    columns = table["columns"]
    rows = [
        "    | " + " | ".join(columns) + " |",
        "    | " + " | ".join("---" for _ in columns) + " |",
    ]
    rows += ["    | " + " | ".join(str(v) for v in row) + " |" for row in table["rows"]]
    return ["", *rows, ""]


def write_report(findings: Sequence[Finding], folder: Path) -> dict[str, Any]:
    """Write findings.json, findings.md and the witness traces into `folder`; return the data."""
    data, files = report_data(findings, folder)
    totals = summary(findings)
    data["summary"] = totals
    (folder / "witnesses").mkdir(parents=True, exist_ok=True)
    for path, text in files.items():
        _write(path, text)
    _write(folder / "findings.json", _json(data))
    _write(folder / "findings.md", markdown(data, totals))
    return data
