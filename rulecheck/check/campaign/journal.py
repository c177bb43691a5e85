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

Each file also holds a digest of its content bound to its task and to its campaign: an
HMAC-SHA256, under a key drawn at random when the campaign starts and kept beside the entries
(`campaign.key`), of the task's key and the outcome's canonical JSON. An entry edited by hand,
written without the digest, or copied from another campaign's journal is refused by name (the
run stops; it is not run again in its place), so a forged outcome never reaches findings.md or
a ledger. The key guards against edits and mix-ups, not against someone who reads the key and
recomputes the digest: the journal is no signature.

Leaves out: which tasks a campaign runs (verify.py) and the partial files an interrupted write
leaves (hidden `.NAME.partial` files, which a resumed run removes).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
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
KEY_FILE: Final = "campaign.key"
"""The file in the journal's folder holding the campaign's key, 64 hex digits."""
_KEY = re.compile(r"[0-9a-f]{64}\n?")
_HEX = re.compile(r"[0-9a-f]{64}")

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
    key: bytes = attrs.field(repr=False)
    """The campaign's key, which each entry's digest is made with."""

    @classmethod
    def open(cls, out: Path, resume: bool) -> Journal:
        """The journal in `out`: emptied for a new campaign (with a new key), or read back to
        resume one; JournalError naming the entry whose digest does not match, or for a
        resumed campaign without a journal."""
        folder = out / FOLDER
        refuse_link(folder)
        if folder.exists() and not folder.is_dir():
            raise JournalError(f"{folder}: the journal's place holds a file")
        if resume and not folder.is_dir():
            raise JournalError(f"{out}: holds no campaign journal ({folder}); nothing to resume")
        folder.mkdir(parents=True, exist_ok=True)
        entries = []
        for path in sorted(folder.iterdir()):
            check_regular(path, path.lstat().st_mode, JournalError)  # not one of ours: neither removed nor read
            if not resume or path.name.endswith(PARTIAL_SUFFIX):
                path.unlink()
            elif path.suffix == ".json":
                entries.append(path)
        key = _campaign_key(folder, bool(entries))
        recorded = {path.stem: _read(path, key) for path in entries}
        assert key is not None, "without a key, every entry was refused"
        return cls(folder, recorded, key)

    def outcome(self, task: Task) -> Outcome | None:
        """The recorded outcome of `task`, if an earlier run finished it."""
        return self.recorded.get(task_key(task))

    def write(self, outcome: Outcome) -> None:
        """Record a finished task's outcome, whole or not at all."""
        key = task_key(outcome.task)
        content = _converter.unstructure(outcome)
        document = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "outcome": content,
            "digest": entry_digest(self.key, key, content),
        }
        write_whole(self.folder / f"{key}.json", json.dumps(document, sort_keys=True) + "\n")


def entry_digest(campaign_key: bytes, task: str, content: object) -> str:
    """The digest an entry carries: HMAC-SHA256 under the campaign's key of the task's key and
    the outcome's canonical JSON."""
    message = canonical_json({"task": task, "outcome": content}).encode("ascii")
    return hmac.new(campaign_key, message, hashlib.sha256).hexdigest()


def _campaign_key(folder: Path, entries: bool) -> bytes | None:
    """The campaign's key: the one kept in the folder, or a new one (written there) when the
    journal holds no entry; None when entries have no key to be checked with (each is then
    refused, after what else is wrong with it); JournalError for a key file that holds no key."""
    path = folder / KEY_FILE
    if not path.exists():
        if entries:
            return None
        key = secrets.token_hex(32)
        write_whole(path, key + "\n")
        return key.encode("ascii")
    text = read_text(path, JournalError, limit=100)
    if not _KEY.fullmatch(text):
        raise JournalError(f"{path}: not a campaign key (64 hex digits)")
    return text.strip().encode("ascii")


def _read(path: Path, campaign_key: bytes | None) -> Outcome:
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
    if campaign_key is None:
        raise JournalError(
            f"{path}: cannot be checked: the journal has no {KEY_FILE}; run without --resume to start anew"
        )
    digest = document.get("digest")
    if not (isinstance(digest, str) and _HEX.fullmatch(digest)) or not hmac.compare_digest(
        digest, entry_digest(campaign_key, path.stem, document["outcome"])
    ):
        raise JournalError(
            f"{path}: its digest does not match its outcome and task under this campaign's key "
            "(edited, or from another campaign): refused; run without --resume to start anew"
        )
    return outcome


def _reason(exc: Exception) -> str:
    if isinstance(exc, cattrs.BaseValidationError):
        notes = cattrs.transform_error(exc)
        return notes[0] if notes else str(exc)
    return str(exc)
