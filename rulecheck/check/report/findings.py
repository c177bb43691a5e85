"""Findings: what the checks found about a rulebook, each with a witness anyone can replay.

Models: a piece of evidence (one check's result under one option set and player count:
its witness, a trace, a Z3 answer, a computed table or a coverage count, and the command
that shows it again), merged by key with every setting it was seen under; the audit's
findings of a game (specs/<game>-audit.toml: each id with the evidence keys that bear on
it); the game's ledgers of ids (each id once given to a key no audited finding lists, with
that key): the shipped one (specs/<game>-ledger.toml in the package), only ever read, and
the user's, in a folder the user names (`verify --ledgers DIR`), which must agree with the
shipped one and is the only ledger written; and the findings report, where evidence that
bears on an audited finding is filed under the audit's id, and every other key becomes a new
finding under its ledger id, or when no ledger has one, in order of key, under the next
number after the audit's and the ledgers' highest when a user's ledger will record it, else
under a provisional id of the run (MEC-N01), which no ledger records. The report is written
as findings.json, findings.md, findings.html and a witnesses/ folder, with the rules the
budget did not reach apart from the findings and without ids, and the user's ledger with its
new entries appended, each file whole or not at all.

Leaves out: running the checks (campaign/verify.py does), judging whether a finding is a flaw of
the rulebook (the reader does), what each finding asks the designer (campaign/decide.py), and
runs that write one ledger at the same time (the last to finish wins).
"""

from __future__ import annotations

import json
import re
import tomllib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Final

import attrs

from rulecheck.check.report.markdown import markdown
from rulecheck.check.report.page import page
from rulecheck.core.clauses import Clause, require
from rulecheck.core.errors import SpecError
from rulecheck.core.files import output_folder, write_whole

WITNESS: Final = "{witness}"
"""Stands in a replay command for the path of the witness file the report writes."""

WITNESSES: Final = "witnesses"
"""The report's folder of witness traces, inside the report's folder."""
REPORT_PARTS: Final = (WITNESSES, "findings.json", "findings.md", "findings.html")
"""What the report writes in its folder, none of which may be a symbolic link there."""

AUDIT_ID = re.compile(r"^(?P<prefix>[A-Z]+-F)(?P<number>\d+)$")
PROVISIONAL_ID = re.compile(r"^(?P<prefix>[A-Z]+-N)(?P<number>\d+)$")
"""A new finding's id in a run that keeps no ledger: numbered in that run only."""


@attrs.frozen
class Evidence:
    game: str
    check: str
    """The kind of check: a generic kind (watch/generic.py), "reading that matters", "dead rule",
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
    provisional: bool = False
    """A new finding whose id is this run's only (no ledger records it)."""
    decide: tuple[str, ...] = ()
    """What the rule designer should decide, in the rulebook's words: one line per distinct decision."""
    proposal: tuple[str, ...] = ()
    """The rewordings the clause data suggests (none where it suggests none)."""


@attrs.frozen
class LedgerEntry:
    """A finding id as the ledger records it: given once, to one evidence key, for good."""

    id: str
    key: str
    """The evidence key (Evidence.key) the id was first given to."""
    where: str = attrs.field(default="", eq=False)
    """The file and entry it was read from, for errors (empty for an entry not yet written)."""


@attrs.frozen
class Ledger:
    """A game's ledger as verify reads it: the shipped one, read-only, and the user's, which verify
    appends to when the user names its folder (`--ledgers DIR`)."""

    game: str
    file: str
    """The ledger's file name, as the game's declaration names it."""
    entries: tuple[LedgerEntry, ...]
    """Every entry in force: the shipped ledger's, then those of the user's ledger it lacks."""
    base: str | None
    """The text the written ledger extends: the user's ledger, or the shipped one where the user's
    is not there yet (None: neither is)."""
    target: Path | None
    """Where new ids are written: DIR/<file> under `--ledgers DIR`; None: nowhere, so a new key
    gets a provisional id, not a permanent one."""

    @property
    def ids(self) -> dict[str, str]:
        """Each recorded key's id."""
        return {entry.key: entry.id for entry in self.entries}


def _toml(text: str, source: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(f"{source}: not valid TOML: {exc}") from None


def parse_audit(text: str, source: str) -> tuple[AuditEntry, ...]:
    data = _toml(text, source)
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


def specs_folder() -> Traversable:
    """The package's specs folder (a plain folder when installed from source or a wheel)."""
    return resources.files("rulecheck.specs")


def load_audit(file: str | None) -> tuple[AuditEntry, ...]:
    """The audited findings in specs/<file>, the audit file a game declares (none without one)."""
    if file is None:
        return ()
    resource = specs_folder().joinpath(file)
    if not resource.is_file():
        raise SpecError(f"no audit file specs/{file}")
    return parse_audit(resource.read_text(encoding="utf-8"), f"specs/{file}")


def parse_ledger(text: str, source: str) -> tuple[LedgerEntry, ...]:
    """The entries of a ledger file, each an id like GT-F16 and a key CHECK:SUBJECT; `source`
    names the file in errors. An id or a key that repeats is an error."""
    data = _toml(text, source)
    if unknown := set(data) - {"finding"}:
        raise SpecError(f"{source}: unknown keys {sorted(unknown)}; a ledger holds only [[finding]] entries")
    entries = []
    for index, table in enumerate(require(data, "finding", list, source) if data else [], start=1):
        where = f"{source}: finding #{index}"
        if not isinstance(table, dict):
            raise SpecError(f"{where}: must be a table")
        if unknown := set(table) - {"id", "key"}:
            raise SpecError(f"{where}: unknown keys {sorted(unknown)}")
        entry = LedgerEntry(require(table, "id", str, where), require(table, "key", str, where), where)
        if not AUDIT_ID.match(entry.id):
            raise SpecError(f"{where}: id {entry.id!r} must look like GT-F16")
        if not re.fullmatch(r"[^:]+:.+", entry.key):
            raise SpecError(f"{where}: key {entry.key!r} must look like CHECK:SUBJECT")
        entries.append(entry)
    return _checked(entries)


def _checked(entries: Sequence[LedgerEntry]) -> tuple[LedgerEntry, ...]:
    """`entries`, once no id and no key appears twice among them."""
    ids: dict[str, LedgerEntry] = {}
    keys: dict[str, LedgerEntry] = {}
    for entry in entries:
        if (first := ids.setdefault(entry.id, entry)) is not entry:
            raise SpecError(f"{entry.where}: id {entry.id} repeats ({first.where} gives it to {first.key!r})")
        if (first := keys.setdefault(entry.key, entry)) is not entry:
            raise SpecError(
                f"{entry.where}: key {entry.key!r} is given two ids, {first.id} ({first.where}) and {entry.id}"
            )
    return tuple(entries)


def _prefix(game: str, audit: Sequence[AuditEntry]) -> str:
    """What every finding id of the game starts with: the audit's (GT-F), else from the game's name."""
    numbers = [m for e in audit if (m := AUDIT_ID.match(e.id))]
    return numbers[0]["prefix"] if numbers else f"{game[:2].upper()}-F"


def _read_ledger(resource: Traversable, source: str) -> tuple[str | None, tuple[LedgerEntry, ...]]:
    if not resource.is_file():
        return None, ()
    text = resource.read_text(encoding="utf-8")
    return text, parse_ledger(text, source)


def open_ledger(game: str, file: str, audit: Sequence[AuditEntry], shipped: Traversable, own: Path | None) -> Ledger:
    """The ledger `file` of `game`: the shipped one in `shipped` (the package's specs folder, only
    read), and with `own` (the folder `--ledgers` names) the user's there, which must agree with
    the shipped one and is where new ids are written; all checked against the audit."""
    base, entries = _read_ledger(shipped.joinpath(file), f"specs/{file}")
    target = None if own is None else own / file
    if target is not None:
        text, theirs = _read_ledger(target, str(target))
        base = text if text is not None else base
        entries = _checked((*entries, *(e for e in theirs if e not in entries)))
    prefix = _prefix(game, audit)
    audited = {e.id for e in audit}
    for entry in entries:
        if entry.id in audited:
            raise SpecError(f"{entry.where}: id {entry.id} is an audited finding's id")
        if not entry.id.startswith(prefix):
            raise SpecError(f"{entry.where}: id {entry.id} must start with {prefix}, as {game}'s finding ids do")
    return Ledger(game, file, entries, base, target)


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


def _number(finding_id: str) -> int:
    match = AUDIT_ID.match(finding_id) or PROVISIONAL_ID.match(finding_id)
    assert match is not None, finding_id
    return int(match["number"])


def provisional_id(prefix: str, number: int) -> str:
    """The provisional id of the `number`th new key of one run: MEC-N01 for the prefix MEC-F."""
    return f"{prefix[:-1]}N{number:02d}"


def assemble(
    game: str,
    evidence: Sequence[Evidence],
    audit: Sequence[AuditEntry],
    ledger: Mapping[str, str],
    permanent: bool = True,
) -> list[Finding]:
    """File the evidence under the audited findings it bears on, and each other key under a
    new finding of its own: its id in `ledger` (key -> id), or for a key the ledger lacks, in
    order of key, the next number after the highest of the audit and the ledger when new ids are
    `permanent` (they go into a ledger), else a provisional id of this run (MEC-N01, ...).
    Audited findings come first, in the audit's order, then the new ones in order of id, the
    provisional ones last."""
    owner = {key: entry.id for entry in audit for key in entry.evidence}
    filed: dict[str, list[Observed]] = {}
    for observed in observe(evidence):
        key = observed.evidence.key
        filed.setdefault(owner.get(key, key), []).append(observed)
    findings = [
        Finding(e.id, game, e.kind, e.title, e.clauses, True, tuple(filed[e.id])) for e in audit if e.id in filed
    ]
    prefix = _prefix(game, audit)
    next_number = max(map(_number, [*(e.id for e in audit), *ledger.values()]), default=0) + 1 if permanent else 1
    audited = {e.id for e in audit}
    ids = dict(ledger)
    new = []
    for key in sorted(k for k in filed if k not in audited):
        provisional = key not in ids and not permanent
        if key not in ids:
            ids[key] = provisional_id(prefix, next_number) if provisional else f"{prefix}{next_number:02d}"
            next_number += 1
        [observed] = filed[key]
        item = observed.evidence
        new.append(Finding(ids[key], game, item.check, item.title, item.clauses, False, (observed,), provisional))
    return findings + sorted(new, key=lambda f: (f.provisional, _number(f.id)))


def new_entries(findings: Iterable[Finding], ledger: Mapping[str, str]) -> tuple[LedgerEntry, ...]:
    """The permanent ids `findings` gave to keys `ledger` (key -> id) does not record yet, in order of id."""
    return tuple(
        LedgerEntry(f.id, key)
        for f in findings
        if not f.audited and not f.provisional and (key := f.evidence[0].evidence.key) not in ledger
    )


def ledger_header(game: str) -> str:
    """The comment that opens a new ledger file."""
    return (
        f"# The ledger of {game}'s finding ids: every id `rulecheck verify --ledgers DIR` has given to\n"
        "# evidence that no audited finding lists, with the evidence key (CHECK:SUBJECT) it was given to.\n"
        "# verify appends an entry for each new key (numbered after the highest id here, in the shipped\n"
        "# ledger and in the audit file) and reuses these ids in every later run, so an id never moves\n"
        "# between budgets, runs or machines. Keep the entries: an id is never given to another key. A key\n"
        "# the audit file comes to list is filed under the audit's id, and its id here is not given again.\n"
    )


def _entry_text(entry: LedgerEntry) -> str:
    return f"\n[[finding]]\nid = {json.dumps(entry.id)}\nkey = {json.dumps(entry.key)}\n"


def write_ledger(ledger: Ledger, added: Sequence[LedgerEntry]) -> bool:
    """Append `added` to the user's ledger, its target, written whole or not at all (a new file
    starts from the shipped ledger's text, or a header); nothing when there is no target or
    nothing to add. Whether it wrote."""
    if ledger.target is None or not added:
        return False
    text = ledger_header(ledger.game) if ledger.base is None else ledger.base.rstrip("\n") + "\n"
    write_whole(ledger.target, text + "".join(map(_entry_text, added)))
    return True


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


def _json(data: Any) -> str:
    return json.dumps(data, indent=2, sort_keys=True) + "\n"


def _rulebook(ids: Sequence[str], clauses: Mapping[str, Clause]) -> list[dict[str, Any]]:
    """The rulebook's sentences of the clauses `ids` that the catalogues hold, with their lines."""
    return [{"id": c.id, "lines": list(c.lines), "text": c.text} for i in ids if (c := clauses.get(i)) is not None]


def _witnessed(observed: Observed, path: Path, files: dict[Path, str]) -> dict[str, Any]:
    """`observed` as the report's JSON, its witness trace (if it is one) to be written to `path`."""
    if "trace" not in observed.evidence.witness:
        return _evidence_data(observed, None)
    files[path] = _json(observed.evidence.witness["trace"])
    return _evidence_data(observed, str(path))


def report_data(
    findings: Sequence[Finding], folder: Path, clauses: Mapping[str, Clause] = {}, unreached: Sequence[Evidence] = ()
) -> tuple[dict[str, Any], dict[Path, str]]:
    """The findings.json object, and the witness files it names (path -> content); `clauses`
    are the catalogues' clauses by id, whose sentences each finding quotes, and `unreached` the
    notes of the rules the budget did not reach, listed apart under "unreached", with no id."""
    files: dict[Path, str] = {}
    entries = []
    for finding in findings:
        items = [
            _witnessed(observed, folder / WITNESSES / f"{finding.id}-{index}.json", files)
            for index, observed in enumerate(finding.evidence, start=1)
        ]
        entries.append(
            {
                "id": finding.id,
                "game": finding.game,
                "kind": finding.kind,
                "title": finding.title,
                "clauses": list(finding.clauses),
                "rulebook": _rulebook(finding.clauses or finding.evidence[0].evidence.clauses, clauses),
                "audited": finding.audited,
                "provisional": finding.provisional,
                "decide": list(finding.decide),
                "proposal": list(finding.proposal),
                "options": [setting for item in items for setting in item["options"]],
                "witness": items[0]["witness"],
                "replay": items[0]["replay"],
                "evidence": items,
            }
        )
    notes = [
        {"game": o.evidence.game, "rulebook": _rulebook(o.evidence.clauses, clauses)}
        | _witnessed(o, folder / WITNESSES / f"unreached-{o.evidence.subject}.json", files)
        for o in observe(unreached)
    ]
    return {"format": "rulecheck-findings", "format_version": 1, "findings": entries, "unreached": notes}, files


def summary(findings: Iterable[Finding]) -> dict[str, dict[str, int]]:
    """Per game, the number of findings of each kind."""
    table: dict[str, Counter[str]] = {}
    for finding in findings:
        table.setdefault(finding.game, Counter())[finding.kind] += 1
    return {game: dict(sorted(counts.items())) for game, counts in sorted(table.items())}


def write_report(
    findings: Sequence[Finding],
    folder: Path,
    readings: Sequence[Mapping[str, Any]] = (),
    not_reproduced: Sequence[Mapping[str, Any]] = (),
    clauses: Mapping[str, Clause] = {},
    tried: Mapping[str, Sequence[Mapping[str, Any]]] = {},
    draw: Callable[[Mapping[str, Any]], str | None] = lambda trace: None,
    unreached: Sequence[Evidence] = (),
    contracts: Sequence[Mapping[str, Any]] = (),
    balance: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """Write findings.json, findings.md and the witness traces into `folder`; return the data.
    `readings` is the verdict of the reading check on each option value it searched,
    `not_reproduced` each audited finding no check produced evidence for, with what ran,
    `clauses` the catalogues' clauses by id, and `tried` each game's settings (players and
    option values) its campaign played, against which findings.md says where each piece of
    evidence was seen. findings.html is the same report as a page, with `draw(trace)` (the SVG
    of a witness trace's last position, or None) beside each witness. `unreached` are the notes
    of the rules the budget did not reach, which both list apart from the findings. `contracts`
    says, per game, which clauses the silent-decision finder has a text contract for and which
    it leaves unaudited; `balance` the balance section (who wins each game, the readings that
    change it)."""
    data, files = report_data(findings, folder, clauses, unreached)
    totals = summary(findings)
    data["summary"] = totals
    data["readings"] = [dict(r) for r in readings]
    data["not_reproduced"] = [dict(r) for r in not_reproduced]
    data["tried"] = {game: [dict(s) for s in settings] for game, settings in tried.items()}
    data["contracts"] = [dict(c) for c in contracts]
    data["balance"] = [dict(b) for b in balance]
    output_folder(folder, WITNESSES)
    for path, text in files.items():
        write_whole(path, text)
    write_whole(folder / "findings.json", _json(data))
    traces = {str(path): json.loads(text) for path, text in files.items()}
    write_whole(folder / "findings.md", markdown(data, totals, traces))
    pictures = {path: svg for path, trace in traces.items() if (svg := draw(trace)) is not None}
    write_whole(folder / "findings.html", page(data, traces, pictures))
    return data
