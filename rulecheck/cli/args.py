"""The command's checks of its own values, made before any work starts.

Models: argparse `type=` functions for whole numbers with a least value and for paths that
are not empty (an error at parse time says what is allowed), and checks that an output file
or folder can be written where it is named (and a file is not a symbolic link), which a
command makes first, so that no game is played, and no campaign run, for a result that could
not be saved.

Leaves out: values only a game or a trace can judge (player counts, option values, steps of
a trace; the commands check those) and creating anything: a check leaves no file behind.
"""

from __future__ import annotations

import argparse
import math
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from rulecheck.core.errors import OutputError
from rulecheck.core.files import partial_path, refuse_link


def at_least(least: int) -> Callable[[str], int]:
    """An argparse type: a whole number `least` or more; argparse.ArgumentTypeError otherwise."""

    def parse(text: str) -> int:
        try:
            value: int | None = int(text)
        except ValueError:
            value = None
        if value is None or value < least:
            raise argparse.ArgumentTypeError(f"must be a whole number {least} or more, not {text!r}")
        return value

    return parse


def positive_seconds(text: str) -> float:
    """An argparse type: a finite number of seconds above 0; argparse.ArgumentTypeError otherwise."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0, not {text!r}")
    return value


def path_named(text: str) -> str:
    """An argparse type: a path that is not empty (an empty one names no file: `--out ''` would
    write nothing, or in the current folder); argparse.ArgumentTypeError otherwise."""
    if not text:
        raise argparse.ArgumentTypeError("must be a path, not an empty path")
    return text


def writable_file(path: str) -> Path:
    """`path`, once a file can be written there: it is not a folder, neither it nor the partial
    file a write goes through is a symbolic link, and its folder exists and this process can
    write in it; OutputError otherwise."""
    if os.path.isdir(path):
        raise OutputError(f"{path}: is a folder, not a file")
    refuse_link(Path(path))
    refuse_link(partial_path(Path(path)))
    folder = Path(path).parent
    if not os.path.isdir(folder):
        missing = "is not a folder" if os.path.lexists(folder) else "does not exist"
        raise OutputError(f"{path}: the folder {folder} {missing}")
    _check_writable(folder, path)
    return Path(path)


def writable_folder(path: str) -> Path:
    """`path`, once a folder can be written there: it is not a file, and it or the nearest of
    its parents that exists is a folder this process can write in; OutputError otherwise."""
    if os.path.lexists(path) and not os.path.isdir(path):
        raise OutputError(f"{path}: is a file, not a folder")
    target = Path(path)
    existing = next(p for p in (target, *target.parents) if os.path.lexists(p))
    if not os.path.isdir(existing):
        raise OutputError(f"{path}: {existing} is a file, not a folder")
    _check_writable(existing, path)
    return target


def _check_writable(folder: Path, path: str) -> None:
    """OutputError naming `path` unless a file can be made in `folder` (tried, then removed)."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        raise OutputError(f"{path}: cannot write in {folder}: {exc.strerror}") from None
