"""The engine protocol: how rulecheck drives another implementation of a game, message by message.

Models: a request is a JSON object with a sequence number `id` and an `op`; the engine
answers each request, in order, with one JSON object carrying the same `id` and either the
fields of that op or `error` (a message). The ops (docs/suites.md gives every field):

    new_game  {game, game_version, players, options, data, start}  -> {ok: true}
    state     {}                -> {to_move, state}   (state: the canonical JSON object)
    legal     {}                -> {actions: [text, ...], ids?: [int, ...]}
    chance    {}                -> {outcomes: [[text, "p/q"], ...], ids?: [int, ...]}
    apply     {action}          -> {ok: true}
    returns   {}                -> {returns: ["p/q", ...]}
    quit      {}                -> no answer needed; the engine exits

An engine is a process speaking the protocol on its standard input and output, one JSON
object a line (`ProcessEngine`, with a time limit on every answer), or a Python object in
this process whose `handle(request)` returns the answer (`InProcessEngine`, given as
`module:attribute`, a callable that makes one). `EngineError` says what the engine did
wrong (no answer in time, exited, wrote something that is not a JSON object, answered
another request, refused one); after one that leaves the engine's state unknown, `restart`
gives a fresh engine for the next trace.

Leaves out: what the answers should be (replay.py compares them with a suite), and our own
engine's side (reference.py).
"""

from __future__ import annotations

import collections
import importlib
import os
import queue
import re
import shlex
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import Any, Final, Protocol

from rulecheck.core.codec import canonical_json
from rulecheck.core.errors import RulecheckError
from rulecheck.core.untrusted import MAX_LINE_BYTES, clip, parse_json_line

PROTOCOL_VERSION: Final = 1
REFERENCE: Final = "rulecheck.suite.reference:ReferenceEngine"
"""rulecheck's own engine, in this process (what `suite verify` replays a suite on)."""
DEFAULT_TIMEOUT: Final = 10.0
"""Seconds an engine may take to answer one request."""
STARTUP: Final = 60.0
"""Seconds a process engine may take to answer its first request, which includes starting up."""
STDERR_KEPT: Final = 5
"""The last lines of a process engine's standard error that are kept, to quote when it exits."""
LAST_WORDS: Final = 240
"""The most characters of those lines an error message quotes (the last line first)."""
IN_PROCESS: Final = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_]\w*")
"""An engine given as `module:attribute`, run in this process; anything else is a command."""


class EngineError(RulecheckError):
    """The engine broke the protocol or refused a request; `broken` when its state is now unknown."""

    def __init__(self, message: str, *, broken: bool) -> None:
        super().__init__(message)
        self.broken = broken


class _NotJson(RulecheckError):
    """An engine's answer that is not JSON."""


class Engine(Protocol):
    """An engine that replay.py drives: one request at a time, one answer each."""

    name: str

    def request(self, op: str, **fields: Any) -> dict[str, Any]:
        """The engine's answer to `op`; EngineError if it breaks the protocol or refuses."""

    def restart(self) -> None:
        """A fresh engine, after an EngineError left this one's state unknown."""

    def close(self) -> None: ...


class Handler(Protocol):
    def handle(self, request: dict[str, Any]) -> dict[str, Any]: ...


def _checked(answer: Any, op: str, number: int) -> dict[str, Any]:
    """The answer to request `number`; EngineError if it is not an object answering it or says `error`."""
    if not isinstance(answer, dict):
        raise EngineError(f"answered {op} with {type(answer).__name__}, not a JSON object", broken=True)
    if answer.get("id") != number:
        raise EngineError(f"answered request {clip(repr(answer.get('id')), 40)} to {op} #{number}", broken=True)
    if "error" in answer:
        raise EngineError(f"refused {op}: {clip(str(answer['error']))}", broken=False)
    return answer


class InProcessEngine:
    """An engine in this process: an object made by a callable, answering through `handle`."""

    def __init__(self, make: Callable[[], Handler], name: str) -> None:
        self.name = name
        self._make = make
        self._handler: Handler = make()
        self._number = 0

    def request(self, op: str, **fields: Any) -> dict[str, Any]:
        self._number += 1
        try:
            answer = self._handler.handle({"id": self._number, "op": op, **fields})
        except Exception as exc:  # the engine's own failure, reported as its answer
            raise EngineError(f"raised {type(exc).__name__} on {op}: {clip(str(exc))}", broken=True) from exc
        return _checked(answer, op, self._number)

    def restart(self) -> None:
        self._handler = self._make()

    def close(self) -> None:
        pass


class ProcessEngine:
    """An engine in another process, started from a command line, answering on its standard output."""

    def __init__(self, command: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.name = command
        try:
            self._argv = shlex.split(command)
        except ValueError as exc:  # an unclosed quote
            raise EngineError(f"cannot read the engine command {clip(repr(command))}: {exc}", broken=True) from None
        if not self._argv:
            raise EngineError("the engine command is empty", broken=True)
        self._timeout = timeout
        self._number = 0
        self._start()

    def _start(self) -> None:
        try:
            self._process = subprocess.Popen(
                self._argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,  # a Ctrl-C reaches rulecheck, which stops the engine itself
            )
        except OSError as exc:
            raise EngineError(f"cannot start {clip(self.name)}: {exc.strerror or exc}", broken=True) from None
        self._started = False
        """Whether the process has answered once (its first answer may take STARTUP seconds)."""
        self._answers: queue.Queue[bytes | None] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_KEPT)
        threading.Thread(target=self._read_answers, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read_answers(self) -> None:
        stream = self._process.stdout
        assert stream is not None
        while line := stream.readline(MAX_LINE_BYTES + 1):
            self._answers.put(line)
        self._answers.put(None)

    def _read_stderr(self) -> None:
        stream = self._process.stderr
        assert stream is not None
        for line in stream:
            self._stderr.append(line.decode("utf-8", "replace").rstrip())

    def _exited(self, op: str) -> EngineError:
        try:
            status = self._process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            status = None
        said = f"; its last words: {self._last_words()}" if self._stderr else ""
        how = "closed its output" if status is None else f"exited with status {status}"
        return EngineError(f"{how} instead of answering {op}{said}", broken=True)

    def _last_words(self) -> str:
        """The end of what the engine wrote on standard error: its last lines, the last one whole."""
        words = clip(self._stderr[-1], LAST_WORDS)
        for line in reversed(list(self._stderr)[:-1]):
            if len(words) + len(line) + 3 > LAST_WORDS:
                break
            words = f"{line} | {words}"
        return words

    def request(self, op: str, **fields: Any) -> dict[str, Any]:
        self._number += 1
        message = canonical_json({"id": self._number, "op": op, **fields}) + "\n"
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write(message.encode("ascii"))
            stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._exited(op) from None
        timeout = self._timeout if self._started else max(self._timeout, STARTUP)
        try:
            line = self._answers.get(timeout=timeout)
        except queue.Empty:
            raise EngineError(f"gave no answer to {op} within {timeout:g} s", broken=True) from None
        self._started = True
        if line is None:
            raise self._exited(op)
        if len(line.rstrip(b"\r\n")) > MAX_LINE_BYTES:
            raise EngineError(f"answered {op} with a line longer than {MAX_LINE_BYTES:,} bytes", broken=True)
        try:
            answer = parse_json_line(line.rstrip(b"\r\n"), "answer", self._number, _NotJson)
        except _NotJson as exc:
            raise EngineError(f"answered {op} with something that is not JSON ({exc})", broken=True) from None
        return _checked(answer, op, self._number)

    def restart(self) -> None:
        self._stop()
        self._start()

    def close(self) -> None:
        stdin = self._process.stdin
        if self._process.poll() is None and stdin is not None:
            try:
                stdin.write(b'{"id":0,"op":"quit"}\n')
                stdin.flush()
                self._process.wait(timeout=1)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self._stop()

    def _stop(self) -> None:
        if self._process.poll() is None:
            try:
                os.killpg(self._process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self._process.wait()
        for stream in (self._process.stdin, self._process.stdout, self._process.stderr):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass


def open_engine(spec: str, timeout: float = DEFAULT_TIMEOUT) -> Engine:
    """The engine `spec` names: `module:attribute` (a callable that makes a handler) in this
    process, the module looked for in the current folder too, as `python -m` does; anything
    else a command line started as a process."""
    if IN_PROCESS.fullmatch(spec):
        module, _, attribute = spec.partition(":")
        if os.getcwd() not in sys.path:  # as `python -m` finds it: a module in the current folder
            sys.path.insert(0, os.getcwd())
        try:
            make = getattr(importlib.import_module(module), attribute)
        except (ImportError, AttributeError) as exc:
            raise EngineError(f"no engine {spec}: {exc}", broken=True) from None
        if not callable(make):
            raise EngineError(f"no engine {spec}: {attribute} is not callable", broken=True)
        return InProcessEngine(make, spec)
    return ProcessEngine(spec, timeout)
