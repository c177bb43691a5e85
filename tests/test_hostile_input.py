"""Hostile input: every reader of untrusted input, fuzzed with Hypothesis (traces, data files,
scenario files, option strings, action notation, JSON lines, conformance suites) on random input
and on mutations of valid input.
Every input loads or raises a RulecheckError whose message is one line of at most a few
hundred characters: never another exception, a hang or unbounded memory. How many inputs
each reader was tried with is recorded (`record_property("inputs", ...)`) and printed at the
end of the run (tests/conftest.py)."""

import itertools
import json
import os
import socket
import stat
import threading
import tomllib
from pathlib import Path

import pytest
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st

from rulecheck import cli
from rulecheck.check.play.playthrough import random_game
from rulecheck.check.positions.scenario import load_scenario
from rulecheck.core.errors import DataError, RulecheckError, TraceError
from rulecheck.core.options import parse_assignments
from rulecheck.core.trace import load_trace, parse_trace, record, replay
from rulecheck.core.untrusted import json_lines, raw_lines, read_text
from rulecheck.registry import DECLARATIONS, declaration, make_game
from rulecheck.suite.format import BadLine, read_suite
from rulecheck.suite.protocol import REFERENCE, open_engine
from rulecheck.suite.record import record_trace
from rulecheck.suite.replay import replay_trace

MAX_MESSAGE = 500
"""The longest message allowed, beyond the file path it names."""
GAMES = sorted(DECLARATIONS)
DATA_GAMES = [name for name in GAMES if DECLARATIONS[name].game.data_format is not None]

SPECIALS = [
    *'"\\{}[],:=#.-+ \t\n\r',
    "\x00",
    "\xa0",
    "\u2028",
    "\ud800",
    "²",
    "NaN",
    "Infinity",
    "-0",
    "1e999",
    "9" * 50,
    "[" * 100,
    '"a": 1, "a": 2',
    "1979-05-27",
    "'''",
    "[[cards]]",
    "true",
    "null",
]
"""Pieces that reach the corners of JSON, TOML and the notation."""

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """`text` after a few edits: a slice deleted, repeated or replaced, or a piece inserted."""
    for _ in range(draw(st.integers(1, 4))):
        start = draw(st.integers(0, len(text)))
        end = draw(st.integers(start, min(len(text), start + 30)))
        piece = draw(st.sampled_from(SPECIALS) | st.text(max_size=4))
        edit = draw(st.sampled_from(["delete", "repeat", "replace", "insert"]))
        middle = {"delete": "", "repeat": text[start:end] * 3, "replace": piece, "insert": piece + text[start:end]}
        text = text[:start] + middle[edit] + text[end:]
    return text


def _paths(value, path=()):
    yield path
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in children:
        yield from _paths(child, (*path, key))


@st.composite
def edited(draw: st.DrawFn, document: dict) -> dict:
    """`document` with one value (or the whole) replaced by a random JSON value, or a key removed."""
    copy = json.loads(json.dumps(document))
    path = draw(st.sampled_from(list(_paths(copy))))
    if not path:
        return draw(JSON_VALUES)
    parent = copy
    for key in path[:-1]:
        parent = parent[key]
    if isinstance(parent, dict) and draw(st.booleans()):
        del parent[path[-1]]
    else:
        parent[path[-1]] = draw(JSON_VALUES)
    return copy


def refused_cleanly(call, *args, path: str = ""):
    """Call the reader: it returns, or raises a RulecheckError whose message is one short line."""
    try:
        return call(*args)
    except RulecheckError as exc:
        message = str(exc)
        assert message and len(message.splitlines()) == 1, message
        assert len(message) <= len(path) + MAX_MESSAGE, message
        return None


def fuzz(strategy, reader, examples: int) -> int:
    """Feed `examples` inputs drawn from `strategy` to `reader`; how many were tried."""
    tried = itertools.count()

    @settings(max_examples=examples)
    @given(strategy)
    def run(value):
        next(tried)
        reader(value)

    run()
    return next(tried)


def record_tried(record_property, reader: str, count: int) -> None:
    record_property("inputs", (reader, count))


# Valid input to mutate: a short real game of each game, recorded.


def _trace(name: str):
    game = make_game(name)
    return record(game, random_game(game, seed=7, max_steps=15).actions)


TRACES = {name: _trace(name) for name in GAMES}
TRACE_TEXTS = [json.dumps(trace.to_data(), indent=1) for trace in TRACES.values()]
ACTION_TEXTS = {name: sorted(set(trace.actions)) for name, trace in TRACES.items()}


# Traces


def parsed_and_replayed(text: str) -> None:
    """Parse a trace and, if it parses and names a game, replay it there as `rulecheck replay` does."""
    trace = refused_cleanly(parse_trace, text)
    if trace is not None and trace.game in DECLARATIONS:
        game = refused_cleanly(make_game, trace.game, trace.players, dict(trace.options))
        if game is not None:
            refused_cleanly(replay, game, trace)


def test_parse_trace_and_replay_on_random_and_mutated_text(record_property):
    strategy = st.text() | st.sampled_from(TRACE_TEXTS).flatmap(mutated) | JSON_VALUES.map(json.dumps)
    record_tried(record_property, "parse_trace", fuzz(strategy, parsed_and_replayed, 300))


def test_parse_trace_and_replay_on_edited_traces(record_property):
    strategy = st.sampled_from([trace.to_data() for trace in TRACES.values()]).flatmap(edited).map(json.dumps)
    record_tried(record_property, "parse_trace", fuzz(strategy, parsed_and_replayed, 200))


def test_load_trace_on_random_and_mutated_bytes(record_property, tmp_path):
    names = (tmp_path / f"trace-{n}.json" for n in itertools.count())
    as_bytes = st.sampled_from(TRACE_TEXTS).flatmap(mutated).map(lambda t: t.encode("utf-8", "surrogatepass"))

    def load(content: bytes) -> None:
        path = next(names)
        path.write_bytes(content)
        refused_cleanly(load_trace, path, path=str(path))

    record_tried(record_property, "load_trace", fuzz(st.binary() | as_bytes, load, 200))


# Data files


def _document(name: str) -> dict:
    return tomllib.loads(DECLARATIONS[name].game.data_format.default.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", DATA_GAMES)
def test_data_files_on_random_and_mutated_text(record_property, tmp_path, name):
    data_format = DECLARATIONS[name].game.data_format
    toml_text = data_format.default.read_text(encoding="utf-8")
    json_text = json.dumps(_document(name), indent=1)
    files = itertools.count()
    strategy = st.tuples(
        st.sampled_from([".toml", ".json"]),
        st.text() | st.sampled_from([toml_text, json_text]).flatmap(mutated),
    )

    def load(drawn: tuple[str, str]) -> None:
        suffix, text = drawn
        path = tmp_path / f"data-{next(files)}{suffix}"  # a new file each time: loads are cached by file
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        refused_cleanly(data_format.load, path, path=str(path))

    record_tried(record_property, f"data file ({name})", fuzz(strategy, load, 150))


@pytest.mark.parametrize("name", DATA_GAMES)
def test_data_files_on_edited_documents(record_property, tmp_path, name):
    data_format = DECLARATIONS[name].game.data_format
    files = itertools.count()

    def load(document) -> None:
        path = tmp_path / f"data-{next(files)}.json"
        path.write_text(json.dumps(document))
        refused_cleanly(data_format.load, path, path=str(path))

    record_tried(record_property, f"data file ({name})", fuzz(edited(_document(name)), load, 150))


# Option strings


@pytest.mark.parametrize("name", GAMES)
def test_option_strings(record_property, name):
    space = DECLARATIONS[name].game.option_space
    valid = [f"{option.name}={value}" for option in space.options for value in option.values]
    assignment = st.text(max_size=60) | st.sampled_from(valid).flatmap(mutated)

    def resolve(assignments: list[str]) -> None:
        chosen = refused_cleanly(parse_assignments, assignments)
        if chosen is not None:
            refused_cleanly(space.resolve, chosen)

    record_tried(record_property, "option strings", fuzz(st.lists(assignment, max_size=4), resolve, 150))
    # a search once found this one: a long unknown name beside Globetrotter's many options
    longest = max((o.name for o in space.options), key=len)
    resolve([f"{longest * 6}=x"])


# Action notation


@pytest.mark.parametrize("name", GAMES)
def test_action_notation(record_property, name):
    game = make_game(name)
    strategy = st.text() | st.sampled_from(ACTION_TEXTS[name]).flatmap(mutated)

    def parse(text: str) -> None:
        action = refused_cleanly(game.parse_action, text)
        assert action is None or action.text == text  # only canonical text parses

    record_tried(record_property, "action notation", fuzz(strategy, parse, 250))


# JSON lines


def test_json_lines(record_property, tmp_path):
    steps = "\n".join(json.dumps(step) for step in TRACES[GAMES[0]].to_data()["steps"])
    names = (tmp_path / f"lines-{n}.jsonl" for n in itertools.count())
    strategy = st.binary() | st.sampled_from([steps]).flatmap(mutated).map(lambda t: t.encode("utf-8", "surrogatepass"))

    def read(content: bytes) -> None:
        path = next(names)
        path.write_bytes(content)
        refused_cleanly(lambda: list(json_lines(path, DataError)), path=str(path))

    record_tried(record_property, "json_lines", fuzz(strategy, read, 200))


def test_the_readers_raise_their_own_errors(tmp_path):
    """The checks above accept any RulecheckError; each reader raises its own kind."""
    with pytest.raises(TraceError):
        parse_trace("{")
    with pytest.raises(DataError):
        DECLARATIONS[DATA_GAMES[0]].game.data_format.load(tmp_path)


# Scenario files: mutations of each game's shipped cases (in the folder its declaration names), and
# their positions edited.

ROOT = Path(__file__).resolve().parents[1]


def _cases(name: str) -> list[str]:
    folder = ROOT / declaration(name).tests().scenarios
    return [path.read_text(encoding="utf-8") for path in sorted(folder.glob("*.toml"))]


@pytest.mark.parametrize("name", GAMES)
def test_scenario_files_on_random_and_mutated_text(record_property, tmp_path, name):
    files = itertools.count()

    def load(text: str) -> None:
        path = tmp_path / f"case-{next(files)}.toml"
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        refused_cleanly(load_scenario, path, path=str(path))

    strategy = st.text() | st.sampled_from(_cases(name)).flatmap(mutated)
    record_tried(record_property, f"scenario file ({name})", fuzz(strategy, load, 150))


@pytest.mark.parametrize("name", GAMES)
def test_scenario_positions_on_edited_documents(record_property, tmp_path, name):
    files = itertools.count()
    documents = [tomllib.loads(text) for text in _cases(name)]

    def load(document: object) -> None:
        if not isinstance(document, dict):  # TOML's top level is a table: no such file can be written
            return
        document = {key: value for key, value in document.items() if value is not None}
        path = tmp_path / f"case-{next(files)}.toml"
        try:
            path.write_text(tomli_w.dumps(document))
        except (TypeError, ValueError):  # a value TOML cannot hold (null, say): nothing to read
            return
        refused_cleanly(load_scenario, path, path=str(path))

    strategy = st.sampled_from(documents).flatmap(edited)
    record_tried(record_property, f"scenario position ({name})", fuzz(strategy, load, 150))


# Conformance suites


def _suite_line(name: str) -> str:
    game = make_game(name)
    return record_trace(game, random_game(game, seed=7, max_steps=8).actions, trace_id=f"{name}-7")[0].line()


SUITE_LINES = {name: _suite_line(name) for name in GAMES}


def read_and_replayed(path: Path) -> None:
    """Read a suite file as `suite verify` does and replay each trace on our engine: every line
    is a trace or a bad line with a short reason, and our engine answers without raising."""
    lines = refused_cleanly(lambda: list(read_suite(path)), path=str(path))
    for number, item in lines or ():
        if isinstance(item, BadLine):
            reason = item.message(str(path))
            assert len(reason.splitlines()) == 1 and len(reason) <= len(str(path)) + MAX_MESSAGE, reason
            continue
        divergence = replay_trace(open_engine(REFERENCE), item)
        assert divergence is None or "raised" not in divergence.detail, divergence


@pytest.mark.parametrize("name", GAMES)
def test_suite_files_on_random_and_mutated_lines(record_property, tmp_path, name):
    names = (tmp_path / f"suite-{n}.suite.jsonl" for n in itertools.count())
    line = st.sampled_from([SUITE_LINES[name]]).flatmap(mutated).map(lambda t: t.encode("utf-8", "surrogatepass"))

    def read(content: bytes) -> None:
        path = next(names)
        path.write_bytes(content)
        read_and_replayed(path)

    record_tried(record_property, f"suite file ({name})", fuzz(st.binary() | line, read, 40))


@pytest.mark.parametrize("name", GAMES)
def test_suite_files_on_edited_traces(record_property, tmp_path, name):
    names = (tmp_path / f"suite-{n}.suite.jsonl" for n in itertools.count())

    def read(document: dict) -> None:
        path = next(names)
        path.write_text(json.dumps(document) + "\n" + SUITE_LINES[name] + "\n")
        read_and_replayed(path)

    record_tried(record_property, f"suite file ({name})", fuzz(edited(json.loads(SUITE_LINES[name])), read, 80))


# Files that are not regular files: a FIFO (which blocks its reader until a writer comes, for
# ever when none does), a device or a socket, named wherever a user names a file to read, is
# refused at once, by name, before it is opened for reading.

BLOCKED_SECONDS = 15
"""How long a command may take to refuse a FIFO before the test counts it as blocked on it."""

REPORTED = "reported"
"""A command that checks many files (cases, traces) and reports a bad one as its failure, on stdout
and in its exit status (not 0), rather than stopping at it."""

NOT_REGULAR = {
    "legal --from": (("legal", "globot-time-force", "--from", "{fifo}.toml"), "{fifo}.toml"),
    "apply --from": (("apply", "globot-time-force", "--from", "{fifo}.toml", "tec"), "{fifo}.toml"),
    "scenario new --from": (("scenario", "new", "globetrotter", "--from", "{fifo}.json"), "{fifo}.json"),
    "scenario check": (("scenario", "check", "{fifo}.toml"), "{fifo}.toml", REPORTED),
    "a scenario's data line": (("legal", "globot-time-force", "--from", "{scenario}"), "{fifo}.toml"),
    "play --data": (("play", "globot-time-force", "--data", "{fifo}.toml"), "{fifo}.toml"),
    "replay": (("replay", "{fifo}.json"), "{fifo}.json"),
    "show": (("show", "{fifo}.json", "--step", "0"), "{fifo}.json"),
    "explore --from": (("explore", "globetrotter", "--from", "{fifo}.json"), "{fifo}.json"),
    "suite verify": (("suite", "verify", "{fifo}.suite.jsonl"), "{fifo}.suite.jsonl"),
    "a suite line's data.source": (("suite", "verify", "{suite}"), "{fifo}.toml", REPORTED),
    "suite export --findings": (
        ("suite", "export", "globetrotter", "--findings", "{report}", "--out", "{out}/x.suite.jsonl"),
        "{report}/findings.json",
    ),
    "verify --data": (
        ("verify", "--game", "globot-time-force", "--budget", "smoke", "--data", "globot-time-force={fifo}.toml")
        + ("--out", "{out}/report"),
        "{fifo}.toml",
    ),
    "a journal file": (
        ("verify", "--game", "globot-time-force", "--budget", "smoke", "--resume", "{resumed}"),
        "{resumed}/journal/0123.json",
    ),
}
"""Each way a user names a file to read: the command, the FIFO it names first and, for a command
that reports each case or trace (REPORTED), that it reports the refusal as that one's failure."""


def _fifos(folder: Path) -> dict[str, Path]:
    """A FIFO under every name a case reads (`fifo` with each suffix), and the files that name one."""
    fifo = folder / "fifo"
    for suffix in (".toml", ".json", ".suite.jsonl"):
        os.mkfifo(f"{fifo}{suffix}")
    case = ROOT / declaration("globot-time-force").tests().scenarios / "02-energy-at-cap.toml"
    scenario = folder / "with-data.toml"
    scenario.write_text(case.read_text().replace("players = 1\n", 'players = 1\ndata = "fifo.toml"\n', 1))
    line = json.loads(SUITE_LINES["globot-time-force"])
    line["data"] = {"source": f"{fifo}.toml", "digest": "0" * 16}
    suite = folder / "data.suite.jsonl"
    suite.write_text(json.dumps(line) + "\n")
    report = folder / "report"
    report.mkdir()
    os.mkfifo(report / "findings.json")
    resumed = folder / "resumed"
    (resumed / "journal").mkdir(parents=True)
    os.mkfifo(resumed / "journal" / "0123.json")
    out = folder / "out"
    out.mkdir()
    return {"fifo": fifo, "scenario": scenario, "suite": suite, "report": report, "resumed": resumed, "out": out}


def _release(folder: Path) -> None:
    """Open every FIFO under `folder` for writing and close it, so that a reader blocked on one
    reads its end (opening fails at once where no reader waits)."""
    for path in folder.rglob("*"):
        if stat.S_ISFIFO(path.lstat().st_mode):
            try:
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                pass


def at_once(call, folder: Path) -> list:
    """Call `call` in a thread: what it returned or raised (in a list), or a failure of the test
    when it is still blocked after BLOCKED_SECONDS, once every FIFO under `folder` let it go on (so
    that no thread outlives the test)."""
    done: list = []

    def run() -> None:
        try:
            done.append(call())
        except Exception as exc:  # noqa: BLE001 - handed to the test, which checks what it is
            done.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(BLOCKED_SECONDS)
    blocked = thread.is_alive()
    while thread.is_alive():
        _release(folder)
        thread.join(0.1)
    assert not blocked, f"blocked on a FIFO for {BLOCKED_SECONDS} s"
    return done


@pytest.mark.parametrize("case", NOT_REGULAR.values(), ids=NOT_REGULAR.keys())
def test_a_fifo_is_refused_at_once_wherever_a_file_is_read(capsys, tmp_path, case):
    argv, named, *reported = case
    paths = _fifos(tmp_path)
    before = sorted(tmp_path.rglob("*"))
    done = at_once(lambda: cli.main([a.format(**paths) for a in argv]), tmp_path)
    out, err = capsys.readouterr()
    refusal = f"{named.format(**paths)}: is a FIFO, not a regular file"
    if reported:
        assert done[0] in (1, 2) and refusal in out and "Traceback" not in err, (out, err)
    else:
        [line] = err.strip().splitlines()
        assert done == [2] and refusal in line, line
    assert sorted(tmp_path.rglob("*")) == before


@pytest.mark.parametrize("reader", ["read_text", "raw_lines"])
def test_the_readers_refuse_every_kind_of_file_that_is_not_regular(tmp_path, reader):
    read = {"read_text": read_text, "raw_lines": lambda path, error: list(raw_lines(path, error))}[reader]
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "link").symlink_to(tmp_path / "fifo")
    with socket.socket(socket.AF_UNIX) as listening:
        listening.bind(str(tmp_path / "socket"))
        kinds = {
            tmp_path / "fifo": "is a FIFO, not a regular file",
            tmp_path / "link": "is a FIFO, not a regular file",
            tmp_path / "socket": "is a socket, not a regular file",
            Path("/dev/null"): "is a character device, not a regular file",
            tmp_path: "is a folder, not a file",
        }
        for path, words in kinds.items():
            [refused] = at_once(lambda: read(path, DataError), tmp_path)  # noqa: B023 - called at once
            assert isinstance(refused, DataError) and str(refused) == f"{path}: {words}", refused
