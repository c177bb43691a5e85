"""The generated sections of each registered game's page (docs/<game>.md for a shipped game; the page
its declaration names, GameDeclaration.tested): every clause with its rulebook lines, every option with
the clauses it reads, and the data set with the source of each entry.

Each section sits between `<!-- generated: NAME -->` and `<!-- end generated: NAME -->` on the page and
is rendered from what the code reads: the clause catalogue (specs/<game>.toml), the option space
(rulecheck/games/<game>/options.py), the audit and ledger files that name the findings an option's
readings bear on, and the game's default data set (its header notes, its provenance and every entry's
`source`). `python -m tests.docs_tables --update` rewrites the sections; tests/test_docs_tables.py fails
when a page differs from what this renders now.

Leaves out: the rest of each page, which is written by hand.
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from rulecheck.check.campaign.jobs import READING
from rulecheck.check.report.findings import load_audit, parse_ledger, specs_folder
from rulecheck.core.clauses import Catalogue, Clause
from rulecheck.core.data import entry_name
from rulecheck.core.options import Option
from rulecheck.registry import DECLARATIONS, declaration

ROOT = Path(__file__).resolve().parents[1]
UPDATE = "python -m tests.docs_tables --update"
SOURCE_KINDS = ("publisher", "rulebook", "assumption")
"""How a data entry's `source` says where each of its facts comes from."""


def page_name(game: str) -> str:
    """The game's page, from the project's root (`docs/mechanica.md`), as its declaration names it."""
    return declaration(game).tests().page


def page_path(game: str) -> Path:
    return ROOT / page_name(game)


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def lines_text(lines: Sequence[int]) -> str:
    """Rulebook line numbers as `L13, L137-L139`; `none` for a clause with no line."""
    if not lines:
        return "none"
    runs: list[list[int]] = []
    for line in sorted(lines):
        if runs and line == runs[-1][-1] + 1:
            runs[-1].append(line)
        else:
            runs.append([line])
    return ", ".join(f"L{run[0]}" if len(run) == 1 else f"L{run[0]}-L{run[-1]}" for run in runs)


def clauses(game: str) -> str:
    catalogue, file = declaration(game).catalogue(), declaration(game).tests().clauses
    rows = [f"| `{c.id}` | {lines_text(c.lines)} | {_cell(c.text)} |" for c in catalogue.clauses]
    return "\n".join(
        [
            f"{len(catalogue.clauses)} clauses from `{file}`, in its order; the lines are those of "
            f"`{catalogue.rulebook}` as `cat -n` numbers them (`none`: a clause no line states, such as one "
            "the text implies or a fact from elsewhere, which its text names).",
            "",
            "| clause | rulebook lines | text |",
            "|---|---|---|",
            *rows,
        ]
    )


def _findings(game: str) -> dict[str, list[str]]:
    """For each option, the finding ids whose evidence is that its readings matter (audit, then ledger)."""
    decl = declaration(game)
    found: dict[str, list[str]] = {}
    keys = [(key, entry.id) for entry in load_audit(decl.audit) for key in entry.evidence]
    if decl.ledger is not None:
        ledger = specs_folder().joinpath(decl.ledger)
        keys += [(e.key, e.id) for e in parse_ledger(ledger.read_text(encoding="utf-8"), f"specs/{decl.ledger}")]
    for key, finding in keys:
        check, _, subject = key.partition(":")
        if check == READING and finding not in found.setdefault(subject, []):
            found[subject].append(finding)
    return found


def _reads(clause: Clause) -> str:
    return f"  - `{clause.id}` ({lines_text(clause.lines)}): {' '.join(clause.text.split())}"


def _option(option: Option, catalogue: Catalogue, findings: Sequence[str]) -> list[str]:
    others = [f"`{v}`" for v in option.values if v != option.default]
    bears = f" Findings: {', '.join(findings)}." if findings else ""
    head = (
        f"- `{option.name}`: default `{option.default}`; other values {', '.join(others)}. "
        f"{option.description[0].upper()}{option.description[1:]}.{bears} It reads:"
    )
    return [head, *(_reads(catalogue.get(clause)) for clause in option.clauses)]


def options(game: str) -> str:
    decl = declaration(game)
    space, catalogue, findings = decl.game.option_space, decl.catalogue(), _findings(game)
    lines = [
        f"{len(space.options)} options from `{decl.tests().options}` "
        f"(`rulecheck options {game}`), each with its default (the most literal reading), its other values, "
        "what it decides, the findings its readings bear on (the audit's ids, or the ledger's for a finding "
        "the audit does not list) and the sentences it reads: each clause with its rulebook lines.",
        "",
    ]
    for option in space.options:
        lines += _option(option, catalogue, findings.get(option.name, []))
    return "\n".join(lines)


def _sourced(node: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], str]]:
    """(path, source) of every entry of a data document that says its source, in document order."""
    if isinstance(node, Mapping):
        if isinstance(node.get("source"), str):
            yield path, node["source"]
        for key, value in node.items():
            yield from _sourced(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _sourced(value, (*path, index))


def source_parts(source: str) -> dict[str, str]:
    """A `source` split into what comes from the publisher, the rulebook and what is assumed; a part of
    no named kind (`globot-time-force.txt L95-L98`) is the rulebook's when it names a line."""
    parts: dict[str, list[str]] = {}
    for part in (p.strip() for p in source.split(";")):
        kind, _, rest = part.partition(" ")
        kind, text = kind.rstrip(":"), rest.strip()
        if kind not in SOURCE_KINDS:
            if not re.search(r"\bL\d+", part):
                raise ValueError(f"a source part names no kind ({', '.join(SOURCE_KINDS)}) and no line: {part!r}")
            kind, text = "rulebook", part
        parts.setdefault(kind, []).append(text)
    return {kind: "; ".join(texts) for kind, texts in parts.items()}


def _header(text: str) -> list[str]:
    """The comment lines at the top of a TOML file, without their `#`."""
    found = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        found.append(line[1:].strip())
    return found


def data(game: str) -> str:
    data_format = declaration(game).game.data_format
    if data_format is None:
        return f"`{game}` reads no data set: its rulebook gives every number and component it needs."
    file = data_format.default.relative_to(ROOT).as_posix()
    text = data_format.default.read_text(encoding="utf-8")
    document = tomllib.loads(text)
    lines = [
        f"The default data set is `{file}` (format: `{data_format.schema.relative_to(ROOT).as_posix()}`; "
        "another one with `--data FILE`). Its own notes:",
        "",
        *(f"> {line}" if line else ">" for line in _header(text)),
        "",
        f"Its provenance: {document['provenance']}",
    ]
    counts = [f"{len(v)} `{k}`" for k, v in document.items() if isinstance(v, list) and v and isinstance(v[0], dict)]
    if counts:
        lines += ["", f"It holds {', '.join(counts)}."]
    sourced = list(_sourced(document))
    if sourced:
        lines += [
            "",
            "Where each entry that says so comes from, in the file's order:",
            "",
            "| entry | publisher | rulebook | assumption (illustrative) |",
            "|---|---|---|---|",
        ]
        for path, source in sourced:
            parts = source_parts(source)
            cells = [_cell(parts.get(kind, "")) for kind in SOURCE_KINDS]
            lines.append(f"| `{_cell(entry_name(document, path))}` | {' | '.join(cells)} |")
    return "\n".join(lines)


SECTIONS: dict[str, Callable[[str], str]] = {"clauses": clauses, "options": options, "data": data}
"""Each generated section by name, rendered for a game."""
MARKED = re.compile(r"(<!-- generated: (\w+) -->\n)(.*?)(<!-- end generated: \2 -->)", re.DOTALL)


def rendered(game: str, page: str) -> str:
    """The page with each generated section rendered anew; ValueError if one is missing or unknown."""
    names = [m.group(2) for m in MARKED.finditer(page)]
    if sorted(names) != sorted(SECTIONS):
        raise ValueError(f"{page_name(game)} has generated sections {names}; it needs each of {sorted(SECTIONS)} once")
    return MARKED.sub(lambda m: f"{m.group(1)}{SECTIONS[m.group(2)](game)}\n{m.group(4)}", page)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.docs_tables", description=__doc__.split("\n\n")[0])
    parser.add_argument("--update", action="store_true", help="rewrite the pages (else list those out of date)")
    args = parser.parse_args(argv)
    stale = []
    for game in sorted(DECLARATIONS):
        path, name = page_path(game), page_name(game)
        page = path.read_text(encoding="utf-8")
        try:
            new = rendered(game, page)
        except ValueError as exc:
            print(exc, file=sys.stderr)
            return 2
        if new != page:
            stale.append(name)
            if args.update:
                path.write_text(new, encoding="utf-8")
    verb = "updated" if args.update else "out of date (run " + UPDATE + ")"
    print(f"{verb}: {', '.join(stale)}" if stale else "every page is up to date")
    return 1 if stale and not args.update else 0


if __name__ == "__main__":
    sys.exit(main())
