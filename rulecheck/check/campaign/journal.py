"""The journal of a campaign: every finished task's outcome, on disk as soon as it arrives.

Models: a folder beside the report holding one file per finished task, named by a digest of
the task and of what its result depends on (the task's fields, the game's behaviour version,
rulecheck's version), each written whole or not at all. A campaign that is interrupted (a
Ctrl-C, a SIGTERM, a killed machine) keeps every outcome that arrived; the next run with
`--resume` reads them back and runs only the tasks that have none, so its report is the one
an uninterrupted run gives. A file that does not read back as the outcome of its own task is
an error naming it, never silently run again or misread. Files hold JSON (through cattrs),
never pickles, since they are input to the next run. The journal's folder is never a
symbolic link: a link in its place is an error naming it, and nothing is removed or written
through it. It holds only regular files, as the journal writes them: a folder, a link or a
FIFO in it is someone else's, an error naming it, neither read nor removed.

Leaves out: which tasks a campaign runs (verify.py) and the partial files an interrupted write
leaves (hidden `.NAME.partial` files, which a resumed run removes).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from functools import cache
from importlib.metadata import version
from pathlib import Path
from typing import Final

import attrs
import cattrs

from rulecheck.check.campaign.jobs import Outcome, Task
from rulecheck.core.codec import canonical_json
from rulecheck.core.errors import RulecheckError
from rulecheck.core.files import PARTIAL_SUFFIX, refuse_link, write_whole
from rulecheck.core.untrusted import check_regular, parse_json, read_text
from rulecheck.registry import game_class

FOLDER: Final = "journal"
"""The journal's folder inside the report's folder."""

FORMAT: Final = "rulecheck-outcome"
FORMAT_VERSION: Final = 1

_converter = cattrs.Converter(forbid_extra_keys=True)


class JournalError(RulecheckError):
    """A journal file that is not the outcome of its own task, or a journal that cannot be kept."""


@cache
def _rulecheck_version() -> str:
    return version("rulecheck")  # read from the installed metadata: once, not per task


def task_key(task: Task) -> str:
    """What the task's outcome depends on, as a digest: the task, its game's version, rulecheck's."""
    identity = {
        "task": _converter.unstructure(task),
        "game_version": game_class(task.game).version,
        "rulecheck": _rulecheck_version(),
    }
    return hashlib.sha256(canonical_json(identity).encode("ascii")).hexdigest()[:20]


@attrs.frozen
class Journal:
    """The journal folder of one campaign, and the outcomes it held when opened."""

    folder: Path
    recorded: Mapping[str, Outcome]
    """Outcomes by task key."""

    @classmethod
    def open(cls, out: Path, resume: bool) -> Journal:
        """The journal in `out`: emptied for a new campaign, or read back to resume one."""
        folder = out / FOLDER
        refuse_link(folder)
        if folder.exists() and not folder.is_dir():
            raise JournalError(f"{folder}: the journal's place holds a file")
        folder.mkdir(parents=True, exist_ok=True)
        recorded: dict[str, Outcome] = {}
        for path in sorted(folder.iterdir()):
            check_regular(path, path.lstat().st_mode, JournalError)  # not one of ours: neither removed nor read
            if not resume or path.name.endswith(PARTIAL_SUFFIX):
                path.unlink()
            elif path.suffix == ".json":
                recorded[path.stem] = _read(path)
        return cls(folder, recorded)

    def outcome(self, task: Task) -> Outcome | None:
        """The recorded outcome of `task`, if an earlier run finished it."""
        return self.recorded.get(task_key(task))

    def write(self, outcome: Outcome) -> None:
        """Record a finished task's outcome, whole or not at all."""
        key = task_key(outcome.task)
        document = {"format": FORMAT, "format_version": FORMAT_VERSION, "outcome": _converter.unstructure(outcome)}
        write_whole(self.folder / f"{key}.json", json.dumps(document, sort_keys=True) + "\n")


def _read(path: Path) -> Outcome:
    document = parse_json(read_text(path, JournalError), str(path), JournalError)
    if not isinstance(document, dict) or (document.get("format"), document.get("format_version")) != (
        FORMAT,
        FORMAT_VERSION,
    ):
        raise JournalError(f"{path}: not a {FORMAT} file of version {FORMAT_VERSION}")
    try:
        outcome = _converter.structure(document.get("outcome"), Outcome)
    except (cattrs.BaseValidationError, TypeError, ValueError) as exc:
        raise JournalError(f"{path}: not an outcome: {_reason(exc)}") from None
    if task_key(outcome.task) != path.stem:
        raise JournalError(f"{path}: holds the outcome of another task ({outcome.task})")
    return outcome


def _reason(exc: Exception) -> str:
    if isinstance(exc, cattrs.BaseValidationError):
        notes = cattrs.transform_error(exc)
        return notes[0] if notes else str(exc)
    return str(exc)
