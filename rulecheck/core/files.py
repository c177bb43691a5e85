"""Files written whole or not at all: traces, reports, ledgers and pictures.

Models: writing a text file through a hidden partial file beside it that then replaces the
target in one step, so a reader never sees half a file, and an interrupted run leaves the old
file (or none) in place; only a process killed outright (SIGKILL) can leave the partial file.

Leaves out: concurrent writers of one file (the last to finish wins) and creating folders.
"""

from __future__ import annotations

import os
from pathlib import Path

PARTIAL_SUFFIX = ".partial"
"""The suffix of the hidden file a write goes through (`.NAME.partial`); one is left behind
only by a process killed mid-write, and is never read as a result."""


def write_whole(path: Path, content: str | bytes) -> None:
    """Write `content` to `path` (text as UTF-8) whole or not at all."""
    partial = path.with_name(f".{path.name}{PARTIAL_SUFFIX}")
    try:
        if isinstance(content, bytes):
            partial.write_bytes(content)
        else:
            partial.write_text(content, encoding="utf-8")
        os.replace(partial, path)
    except BaseException:  # an error or a signal mid-write: no partial file stays behind
        partial.unlink(missing_ok=True)
        raise
