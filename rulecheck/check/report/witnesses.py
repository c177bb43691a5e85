"""Issue traces saved as they are found: one file per issue, in a folder the user names.

Models: the `--traces DIR` folder of fuzzing and exploration. Each distinct issue (its key:
kind and subject) gets the file `issue-N.json`, N counting issues in the order they were
first seen; a later, shorter trace of the same issue (a shrunk one) replaces it. Every file
is written whole or not at all, so an interrupted run leaves each issue found so far in a
complete trace.

A trace that cannot be written (a symbolic link planted in its place, a full disk) is not
raised into the search that found it, which calls `save` from inside its own run (fuzzing's
inside Hypothesis, which would take the error for a failing example of its own): the first
such error is kept, no later trace is written, and `check` raises it once the search is over.

Leaves out: which issues are found (search/fuzz.py, search/explore.py) and proofs' witnesses (named by
property, written by the command).
"""

from __future__ import annotations

from pathlib import Path

from rulecheck.check.watch.generic import Found
from rulecheck.core.errors import OutputError


class IssueTraces:
    """The trace files of one run's issues, in `folder` (created when missing)."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self._numbers: dict[tuple[str, str], int] = {}
        self._failed: OutputError | None = None

    def save(self, found: Found) -> None:
        """Write the issue's trace to its file, the first time it is seen or over an earlier one;
        nothing once a write failed."""
        if self._failed is not None:
            return
        number = self._numbers.setdefault(found.issue.key, len(self._numbers) + 1)
        try:
            found.trace.save(self.folder / f"issue-{number}.json")
        except OutputError as exc:
            self._failed = exc

    def path(self, found: Found) -> Path | None:
        """The file the issue's trace was written to (None: not written, or a write failed)."""
        number = self._numbers.get(found.issue.key)
        return None if number is None or self._failed is not None else self.folder / f"issue-{number}.json"

    def check(self) -> None:
        """The first OutputError a trace's write raised, if one did."""
        if self._failed is not None:
            raise self._failed
