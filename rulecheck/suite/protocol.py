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
import select
import shlex
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from typing import IO, Any, Final, Protocol

import psutil

from rulecheck.core.codec import canonical_json
from rulecheck.core.errors import RulecheckError
from rulecheck.core.untrusted import MAX_LINE_BYTES, clip, parse_json_line

PROTOCOL_VERSION: Final = 1
REFERENCE: Final = "rulecheck.suite.reference:ReferenceEngine"
"""rulecheck's own engine, in this process (what `suite verify` replays a suite on)."""
DEFAULT_TIMEOUT: Final = 10.0
"""Seconds an engine may take to answer one request (its first answer includes its start)."""
ENGINE_MARK: Final = "RULECHECK_ENGINE"
"""The environment variable that marks every process of one process engine with its token."""
ANSWERS_KEPT: Final = 2
"""The most lines of an engine's output waiting to be read: an engine that floods waits for us."""
POLL_SECONDS: Final = 0.05
"""How often a pipe's reader looks whether it is to stop, while no output comes."""
EXIT_POLL_SECONDS: Final = 0.25
"""How often a request waiting for an answer looks whether the engine has exited."""
CHUNK_BYTES: Final = 1 << 16
QUIT_SECONDS: Final = 1.0
"""How long an engine has to exit on its own after `quit`, before it is killed."""
STDERR_KEPT: Final = 5
"""The last lines of a process engine's standard error that are kept, to quote when it exits."""
LAST_WORDS: Final = 240
"""The most characters of those lines an error message quotes (the last line first)."""
IN_PROCESS: Final = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_]\w*")
"""An engine given as `module:attribute`, run in this process; anything else is a command."""


TOO_LONG: Final = b"\0too long"
"""What a pipe's reader hands over, by identity, for a line longer than it takes."""


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


class _Pipe:
    """One output pipe of a process, read in a thread of its own as lines of at most `longest`
    bytes, each handed to `take`; EOF is handed over as None, and a line that runs longer as
    TOO_LONG (the rest of it is skipped when `take` returns True, else reading stops). Reading
    waits on `select` in short polls, so setting `stopped` ends the thread at once whatever the
    process does, and nothing ever blocks on the pipe."""

    def __init__(
        self, stream: IO[bytes], longest: int, take: Callable[[bytes | None], bool], stopped: threading.Event
    ) -> None:
        self._fd = stream.fileno()
        self._stream = stream
        self._longest = longest
        self._take = take
        self._stopped = stopped
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        pending = bytearray()
        skipping = False
        """Whether the rest of a line too long is being skipped."""
        while not self._stopped.is_set():
            if not select.select([self._fd], [], [], POLL_SECONDS)[0]:
                continue
            try:
                chunk = os.read(self._fd, CHUNK_BYTES)
            except OSError:
                chunk = b""
            if not chunk:
                self._take(None)
                return
            pending += chunk
            while (end := pending.find(b"\n")) >= 0:
                line = bytes(pending[:end])
                del pending[: end + 1]
                if not skipping and not self._take(line):
                    return
                skipping = False
            if len(pending) > self._longest and not skipping:
                if not self._take(TOO_LONG):
                    return
                skipping = True
            if skipping:
                pending.clear()

    def join(self) -> None:
        """Wait for the reading thread (it ends within POLL_SECONDS of `stopped`), then close the pipe."""
        self._thread.join()
        self._stream.close()


class ProcessEngine:
    """An engine in another process, started from a command line, answering on its standard output.

    The process starts in a session of its own, with ENGINE_MARK set in its environment to a token
    of this engine; stopping it kills its process group and every process that still carries the
    token (its children and theirs, even one that left the group or outlived its parent), so no
    process of an engine outlives a trace that restarted it or the replay that closed it."""

    def __init__(self, command: str, timeout: float = DEFAULT_TIMEOUT, start_timeout: float | None = None) -> None:
        self.name = command
        try:
            self._argv = shlex.split(command)
        except ValueError as exc:  # an unclosed quote
            raise EngineError(f"cannot read the engine command {clip(repr(command))}: {exc}", broken=True) from None
        if not self._argv:
            raise EngineError("the engine command is empty", broken=True)
        self._timeout = timeout
        self._start_timeout = timeout if start_timeout is None else start_timeout
        self._number = 0
        self._start()

    def _start(self) -> None:
        self._mark = uuid.uuid4().hex
        try:
            self._process = subprocess.Popen(
                self._argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                env={**os.environ, ENGINE_MARK: self._mark},
                start_new_session=True,  # a Ctrl-C reaches rulecheck, which stops the engine itself
            )
        except OSError as exc:
            raise EngineError(f"cannot start {clip(self.name)}: {exc.strerror or exc}", broken=True) from None
        assert self._process.stdout is not None and self._process.stderr is not None
        assert self._process.stdin is not None
        os.set_blocking(self._process.stdin.fileno(), False)  # written only by _write_within
        self._answers: queue.Queue[bytes | None] = queue.Queue(maxsize=ANSWERS_KEPT)
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_KEPT)
        self._stopped = threading.Event()
        self._answered = False
        """Whether the process has answered once (its first answer may take `start_timeout`)."""
        self._pipes = (
            _Pipe(self._process.stdout, MAX_LINE_BYTES, self._take_answer, self._stopped),
            _Pipe(self._process.stderr, LAST_WORDS, self._take_stderr, self._stopped),
        )

    def _take_answer(self, line: bytes | None) -> bool:
        """Queue one line of the engine's output for `request`, waiting while ANSWERS_KEPT lines
        wait already (an engine that floods is held back, not buffered); False once stopped."""
        while not self._stopped.is_set():
            try:
                self._answers.put(line, timeout=POLL_SECONDS)
                return True
            except queue.Full:
                continue
        return False

    def _take_stderr(self, line: bytes | None) -> bool:
        """Keep the last STDERR_KEPT lines the engine wrote on standard error (a line too long is
        skipped), to quote if it exits."""
        if line is not None and line is not TOO_LONG:
            self._stderr.append(clip(line.decode("utf-8", "replace").rstrip(), LAST_WORDS))
        return True

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
        seconds = self._timeout if self._answered else self._start_timeout
        try:
            _write_within(stdin, message.encode("ascii"), seconds)
        except (BrokenPipeError, OSError):
            raise self._exited(op) from None
        except TimeoutError:
            raise EngineError(f"took no request ({op}) within {seconds:g} s", broken=True) from None
        line = self._next_line(op, seconds)
        self._answered = True
        if line is None:
            raise self._exited(op)
        if line is TOO_LONG:
            raise EngineError(f"answered {op} with a line longer than {MAX_LINE_BYTES:,} bytes", broken=True)
        try:
            answer = parse_json_line(line.rstrip(b"\r"), "answer", self._number, _NotJson)
        except _NotJson as exc:
            raise EngineError(f"answered {op} with something that is not JSON ({exc})", broken=True) from None
        return _checked(answer, op, self._number)

    def _next_line(self, op: str, seconds: float) -> bytes | None:
        """The engine's next line of output within `seconds`, or None when it has exited without
        one (even while a child of its holds its output open); EngineError when time runs out."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                return self._answers.get(timeout=min(left, EXIT_POLL_SECONDS))
            except queue.Empty:
                if self._process.poll() is not None:  # what it wrote before exiting is read within a poll
                    try:
                        return self._answers.get(timeout=4 * POLL_SECONDS)
                    except queue.Empty:
                        return None
        raise EngineError(f"gave no answer to {op} within {seconds:g} s", broken=True)

    def restart(self) -> None:
        self._stop()
        self._start()

    def close(self) -> None:
        stdin = self._process.stdin
        if self._process.poll() is None and stdin is not None:
            try:
                _write_within(stdin, b'{"id":0,"op":"quit"}\n', QUIT_SECONDS)
                self._process.wait(timeout=QUIT_SECONDS)
            except (OSError, TimeoutError, subprocess.TimeoutExpired):
                pass
        self._stop()

    def _stop(self) -> None:
        """Kill the engine's process group and every process carrying its mark, then end the readers."""
        try:
            os.killpg(self._process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        for process in psutil.process_iter():
            try:
                if process.pid != os.getpid() and process.environ().get(ENGINE_MARK) == self._mark:
                    process.kill()
            except psutil.Error:  # gone, a zombie, or not ours to read
                continue
        self._process.wait()
        self._stopped.set()
        for pipe in self._pipes:
            pipe.join()
        if self._process.stdin is not None:
            try:
                self._process.stdin.close()
            except OSError:
                pass


def _write_within(stream: IO[bytes], data: bytes, seconds: float) -> None:
    """Write all of `data` to a pipe set non-blocking, waiting at most `seconds` for the reader to
    take it (TimeoutError otherwise): an engine that reads no more cannot block the replay."""
    fd = stream.fileno()
    deadline = time.monotonic() + seconds
    view = memoryview(data)
    while view:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([], [fd], [], left)[1]:
            raise TimeoutError
        try:
            view = view[os.write(fd, view) :]
        except BlockingIOError:
            continue


def open_engine(spec: str, timeout: float = DEFAULT_TIMEOUT, start_timeout: float | None = None) -> Engine:
    """The engine `spec` names: `module:attribute` (a callable that makes a handler) in this
    process, the module looked for in the current folder too, as `python -m` does; anything
    else a command line started as a process, which has `timeout` seconds for each answer and
    `start_timeout` (by default `timeout`) for its first, which includes its start."""
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
    return ProcessEngine(spec, timeout, start_timeout)
