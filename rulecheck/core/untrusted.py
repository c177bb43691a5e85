"""Untrusted input: the one way rulecheck reads a file it did not write itself.

Models: the limits on what a reader takes from a file a user names (a trace, a data set,
a scenario, a conformance suite, a journal file): a regular file only (a folder, a FIFO, a
device or a socket is refused before it is opened for reading, and again, against a swap,
through the opened descriptor, so nothing blocks on a FIFO), the bytes in a file and in one
line of a JSON-lines file, the depth of nesting, the digits of an integer; strict UTF-8; JSON
without NaN, Infinity or a key given twice in one object; TOML; and documents that JSON
can hold (no TOML dates or times, no infinite or NaN floats). Every failure is raised as
the error class the reader gives (a RulecheckError subclass: TraceError, DataError), in
one line naming the file and, where known, the line and column; untrusted text in a
message is quoted and cut to a readable length (`shown`, `clip`).

Leaves out: what a document means (each reader checks its own fields and names the
entry and field) and the package's own spec files (specs/*.toml), which ship with
rulecheck and are trusted.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import stat
import tomllib
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

from rulecheck.core.errors import RulecheckError

MAX_FILE_BYTES = 64 * 2**20
"""The most bytes read from one file; a longer one (or an endless one, such as /dev/zero) is refused."""
MAX_LINE_BYTES = 16 * 2**20
"""The most bytes in one line of a JSON-lines file."""
MAX_DEPTH = 64
"""The most levels of nesting in a document (the top-level object is level 1)."""
MAX_INT_DIGITS = 40
"""The most decimal digits of an integer in a document or in action text."""
MAX_SHOWN = 120
"""The most characters of untrusted text quoted in a message."""
MAX_REASON = 240
"""The most characters of a reason that may repeat untrusted text (a schema's message, say)."""

Fail = type[RulecheckError]
"""The error a reader raises for its kind of file (TraceError, DataError)."""


def _cut(text: str, limit: int, escape: Callable[[str], str]) -> str:
    """`escape(text)`, cut to at most about `limit` characters with a note of the full length."""
    head = text[:limit]
    result = escape(head)
    while len(result) > limit + 2:  # escapes (\x00, \u2028) make some characters longer
        head = head[: min(len(head) * limit // len(result), len(head) - 1)]
        result = escape(head)
    if len(head) < len(text):
        result += f"... ({len(text):,} characters)"
    return result


def shown(text: str, limit: int = MAX_SHOWN) -> str:
    """Untrusted text quoted for a one-line message (`'move T1 T2'`), every character that is
    not printable escaped, and cut after `limit` characters: `'move T1 '... (50,000,000 characters)`."""
    return _cut(text, limit, repr)


def clip(text: str, limit: int = MAX_REASON) -> str:
    """A message that may repeat untrusted text, as one line: characters that are not printable
    (newlines among them) escaped, and cut after `limit` characters."""
    return _cut(text, limit, lambda head: "".join(c if c.isprintable() else repr(c)[1:-1] for c in head))


def _decoded(raw: bytes, where: str, error: Fail, first_line: int = 1) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = first_line + raw.count(b"\n", 0, exc.start)
        byte = exc.start - raw.rfind(b"\n", 0, exc.start)
        raise error(f"{where}:{line}: byte {byte} is not UTF-8 ({exc.reason})") from None


_KINDS = {
    stat.S_IFIFO: "a FIFO",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
    stat.S_IFLNK: "a symbolic link",
}
"""What a file that is neither a regular file nor a folder is, as a message names it."""


def check_regular(path: Path, mode: int, error: Fail) -> None:
    """`error` naming `path` and what it is unless `mode` (its `st_mode`) is a regular file's."""
    if stat.S_ISDIR(mode):
        raise error(f"{path}: is a folder, not a file")
    if not stat.S_ISREG(mode):
        raise error(f"{path}: is {_KINDS.get(stat.S_IFMT(mode), 'a special file')}, not a regular file")


def _open_regular(path: Path, error: Fail) -> BinaryIO:
    """The regular file `path` (a symbolic link followed), open for reading; `error` naming it
    otherwise. What `path` names is looked at before it is opened, so that no FIFO or device is
    opened at all, and opened without waiting (O_NONBLOCK: a FIFO does not wait for a writer),
    then looked at again through the descriptor, so that a file swapped in between is refused too."""
    try:
        check_regular(path, os.stat(path).st_mode, error)
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        check_regular(path, os.fstat(descriptor).st_mode, error)
        os.set_blocking(descriptor, True)
    except BaseException:
        os.close(descriptor)
        raise
    return open(descriptor, "rb")  # the caller closes it


def read_text(path: Path, error: Fail, *, limit: int = MAX_FILE_BYTES) -> str:
    """The text of the regular file `path`: at most `limit` bytes, read no further (so a huge
    file stops there), of strict UTF-8; a folder, a FIFO, a device, a socket, an unreadable
    file, a longer one or bytes that are not UTF-8 raise `error` naming the file (and the line
    and byte), before anything that is not a regular file is opened."""
    try:
        with _open_regular(path, error) as file:
            raw = file.read(limit + 1)
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror or exc}") from None
    if len(raw) > limit:
        raise error(f"{path}: longer than the limit of {limit:,} bytes")
    return _decoded(raw, str(path), error)


def _checked(document: Any, where: str, error: Fail) -> Any:
    """`document`, once nothing in it nests deeper than MAX_DEPTH or is an integer longer than
    MAX_INT_DIGITS, a float that is not finite or a value JSON cannot hold (a TOML date). The
    walk is iterative, so no depth of nesting overflows the stack."""
    pending = [(document, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, (dict, list)):
            if depth > MAX_DEPTH:
                raise error(f"{where}: nested deeper than {MAX_DEPTH} levels")
            pending.extend((item, depth + 1) for item in (value.values() if isinstance(value, dict) else value))
        elif isinstance(value, float) and not math.isfinite(value):
            raise error(f"{where}: the number {value} is not finite")
        elif isinstance(value, int) and abs(value) >= 10**MAX_INT_DIGITS:
            raise error(f"{where}: an integer longer than {MAX_INT_DIGITS} digits")
        elif value is not None and not isinstance(value, (str, int, float)):
            raise error(f"{where}: a {type(value).__name__}, which a JSON document cannot hold")
    return document


def _whole_number(where: str, error: Fail) -> Callable[[str], int]:
    """JSON's `parse_int`: refuses a long integer before Python converts it (which would take
    time quadratic in its digits and fails past 4,300 of them)."""

    def convert(digits: str) -> int:
        if len(digits.lstrip("-")) > MAX_INT_DIGITS:
            raise error(f"{where}: an integer longer than {MAX_INT_DIGITS} digits")
        return int(digits)

    return convert


def _unique_keys(where: str, error: Fail) -> Callable[[list[tuple[str, Any]]], dict[str, Any]]:
    """JSON's `object_pairs_hook`: refuses an object that gives a key twice."""

    def build(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        found = dict(pairs)
        if len(found) < len(pairs):
            twice = next(key for key, count in Counter(key for key, _ in pairs).items() if count > 1)
            raise error(f"{where}: the key {shown(twice)} appears twice in one object")
        return found

    return build


def parse_json(text: str, source: str, error: Fail, *, line: int | None = None) -> Any:
    """The JSON value `text` holds, within the limits above; `error` otherwise, naming `source`
    and the line and column (`line`: the line of a JSON-lines file `text` is)."""
    where = source if line is None else f"{source}:{line}"

    def bad_constant(name: str) -> Any:
        raise error(f"{where}: {name} is not a JSON number")

    try:
        document = json.loads(
            text,
            parse_int=_whole_number(where, error),
            parse_constant=bad_constant,
            object_pairs_hook=_unique_keys(where, error),
        )
    except json.JSONDecodeError as exc:
        at = f"{source}:{(line or 1) + exc.lineno - 1}:{exc.colno}"
        raise error(f"{at}: not valid JSON: {exc.msg}") from None
    except RecursionError:
        raise error(f"{where}: nested deeper than {MAX_DEPTH} levels") from None
    return _checked(document, where, error)


def parse_toml(text: str, source: str, error: Fail) -> dict[str, Any]:
    """The TOML document `text` holds, within the limits above; `error` otherwise, naming `source`."""
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{source}: not valid TOML: {clip(str(exc))}") from None
    except ValueError:  # an integer past Python's limit of 4,300 digits
        raise error(f"{source}: an integer longer than {MAX_INT_DIGITS} digits") from None
    except RecursionError:
        raise error(f"{source}: nested deeper than {MAX_DEPTH} levels") from None
    return _checked(document, source, error)


def load_document(path: Path, error: Fail, *, kind: str = "document") -> dict[str, Any]:
    """The one object in the file `path`: TOML for `.toml`, JSON for `.json`; `error` naming the
    file otherwise (`kind` names such a file in the message: "a data file is .toml or .json")."""
    if path.suffix not in (".toml", ".json"):
        raise error(f"{path}: a {kind} is .toml or .json, not {path.suffix or 'without a suffix'}")
    text = read_text(path, error)
    document = parse_toml(text, str(path), error) if path.suffix == ".toml" else parse_json(text, str(path), error)
    if not isinstance(document, dict):
        raise error(f"{path}: a {kind} holds one object")
    return document


def json_lines(path: Path, error: Fail) -> Iterator[tuple[int, Any]]:
    """The line number and JSON value of each line of the JSON-lines file `path` that is not
    blank, read one line at a time: each line at most MAX_LINE_BYTES, the file at most
    MAX_FILE_BYTES; `error` naming `FILE:LINE` otherwise, at the first bad line."""
    for number, raw in raw_lines(path, error):
        yield number, parse_json_line(raw, str(path), number, error)


def raw_lines(path: Path, error: Fail) -> Iterator[tuple[int, bytes]]:
    """The line number and bytes (end of line removed) of each line of `path` that is not blank,
    within the limits of `json_lines`; for a reader that goes on past a bad line, parsing each
    with `parse_json_line`."""
    try:
        with _open_regular(path, error) as file:
            yield from _lines(file, str(path), error)
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror or exc}") from None


def parse_json_line(raw: bytes, source: str, number: int, error: Fail) -> Any:
    """The JSON value of line `number` of `source`, its bytes `raw`: strict UTF-8 and JSON as
    `parse_json` reads it; `error` naming `FILE:LINE` otherwise."""
    return parse_json(_decoded(raw, source, error, number), source, error, line=number)


def _lines(file: BinaryIO, source: str, error: Fail) -> Iterator[tuple[int, bytes]]:
    total = 0
    for number in itertools.count(1):
        raw = file.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        total += len(raw)
        if len(raw.rstrip(b"\r\n")) > MAX_LINE_BYTES:
            raise error(f"{source}:{number}: longer than the limit of {MAX_LINE_BYTES:,} bytes")
        if total > MAX_FILE_BYTES:
            raise error(f"{source}: longer than the limit of {MAX_FILE_BYTES:,} bytes")
        line = raw.rstrip(b"\r\n")
        if line.strip(b" \t\r"):  # JSON's whitespace
            yield number, line
