"""Files written whole or not at all, and only where they are named: traces, reports, ledgers and
pictures.

Models: writing a file through a hidden partial file beside it (in the output folder itself)
that then replaces the target in one step, so a reader never sees half a file, and an
interrupted run leaves the old file (or none) in place; only a process killed outright
(SIGKILL) can leave the partial file. The partial file is made by the write itself
(O_CREAT | O_EXCL) and never through a symbolic link (O_NOFOLLOW), so a link planted in its
place cannot send the bytes elsewhere: a stale partial file (a regular file a killed run left)
is removed first, anything else there is refused. The parts of an output (its files and
sub-folders, which rulecheck names) are never symbolic links: one is refused with an
OutputError naming it, before anything is written or removed through it.

Leaves out: concurrent writers of one file (the last to finish wins, or the second is refused),
a folder of the output swapped for a link between the check and the write (folders are checked
by name, not held open), and the output a user names itself (`--out DIR` may be a link the user
made; the parts inside it may not).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from rulecheck.core.errors import OutputError

PARTIAL_SUFFIX = ".partial"
"""The suffix of the hidden file a write goes through (`.NAME.partial`); one is left behind
only by a process killed mid-write, and is never read as a result."""

_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
"""How a partial file is made: a new file, by this write, not through a link."""


def partial_path(path: Path) -> Path:
    """The hidden partial file a write of `path` goes through: `.NAME.partial` beside it."""
    return path.with_name(f".{path.name}{PARTIAL_SUFFIX}")


def refuse_link(path: Path) -> None:
    """OutputError naming `path` when it is a symbolic link: no output is written through one."""
    if path.is_symlink():
        raise OutputError(f"{path}: is a symbolic link; rulecheck writes no output through one")


def output_folder(folder: Path, name: str) -> Path:
    """The sub-folder `name` of the output folder `folder`, made when missing (with `folder`);
    OutputError naming it when it is a symbolic link or not a folder."""
    path = folder / name
    refuse_link(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise OutputError(f"{path}: is a file, not a folder") from None
    except OSError as exc:
        raise OutputError(f"{path}: cannot make the folder: {exc.strerror or exc}") from None
    return path


def write_whole(path: Path, content: str | bytes) -> None:
    """Write `content` to `path` (text as UTF-8) whole or not at all; OutputError naming the file
    when `path` or its partial file is a symbolic link, or it cannot be written."""
    refuse_link(path)
    data = content if isinstance(content, bytes) else content.encode("utf-8")
    partial = partial_path(path)
    descriptor = _created(partial)
    try:
        with open(descriptor, "wb") as file:
            file.write(data)
        os.replace(partial, path)  # a link swapped in at `path` meanwhile is replaced, not followed
    except BaseException as exc:  # an error or a signal mid-write: no partial file stays behind
        partial.unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None
        raise


def _created(partial: Path) -> int:
    """The new file `partial`, open for writing: a stale partial file is removed first; anything
    else in its place (a link, a folder, a FIFO) is refused."""
    for _ in range(2):
        try:
            return os.open(partial, _CREATE, 0o666)
        except FileExistsError:
            pass
        except OSError as exc:  # ELOOP: a link made after the check below; EACCES, ENOSPC, ...
            raise OutputError(f"{partial}: cannot write: {exc.strerror or exc}") from None
        try:
            mode = partial.lstat().st_mode
        except FileNotFoundError:
            continue
        if stat.S_ISLNK(mode):
            raise OutputError(f"{partial}: is a symbolic link; rulecheck writes no output through one")
        if not stat.S_ISREG(mode):
            raise OutputError(f"{partial}: is not a file, so not a partial file rulecheck left")
        partial.unlink(missing_ok=True)  # a killed run's
    raise OutputError(f"{partial}: made again by another writer of {partial.name}")
