"""Files written whole or not at all: traces, reports, ledgers and pictures.

Models: writing a text file through a hidden partial file beside it that then replaces the
target in one step, so a reader never sees half a file, and an interrupted run leaves the old
file (or none) in place.

Leaves out: concurrent writers of one file (the last to finish wins) and creating folders.
"""

from __future__ import annotations

import os
from pathlib import Path


def write_whole(path: Path, text: str) -> None:
    """Write `text` to `path` (UTF-8) whole or not at all."""
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)
