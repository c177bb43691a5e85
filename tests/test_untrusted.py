"""Untrusted input (rulecheck.core.untrusted and the readers built on it): each limit and each
failure raises the reader's own error, in one line that names the file and where in it, with
untrusted text cut to a readable length; action text parses only when canonical."""

import json
import os
import threading
import time
from pathlib import Path

import pytest

from rulecheck.core import untrusted
from rulecheck.core.errors import DataError, NotationError, TraceError
from rulecheck.core.trace import load_trace, parse_trace, record, replay
from rulecheck.core.untrusted import (
    MAX_DEPTH,
    clip,
    json_lines,
    load_document,
    parse_json,
    parse_toml,
    read_text,
    shown,
)
from tests.fixtures.high_card_data import DataHighCard
from tests.fixtures.pig import Face, Pig


def raised(kind, call, *args):
    """The message of the error `call(*args)` raises, which must be exactly a `kind` and one line."""
    with pytest.raises(kind) as error:
        call(*args)
    assert type(error.value) is kind
    message = str(error.value)
    assert len(message.splitlines()) == 1
    return message


def pig_trace(**changes):
    data = record(Pig(2), ["roll", "face 5", "hold"]).to_data()
    data.update(changes)
    return json.dumps(data)


# Quoting and cutting


def test_shown_quotes_escapes_and_cuts_untrusted_text():
    assert shown("move T1 T2") == "'move T1 T2'"
    assert shown("a\nb\u2028c") == r"'a\nb\u2028c'"
    assert shown("move T1 T2 " * 10, limit=11) == "'move T1 T2 '... (110 characters)"
    assert len(shown("\x00" * 1000)) < 2 * untrusted.MAX_SHOWN  # escapes count against the limit


def test_clip_makes_one_line_of_a_message():
    assert clip("is not of type\n'integer'") == r"is not of type\n'integer'"
    assert clip("x" * 1000, limit=10) == "xxxxxxxxxx... (1,000 characters)"


# Files


def test_a_file_that_is_not_utf8_names_the_line_and_byte(tmp_path):
    path = tmp_path / "t.json"
    path.write_bytes(b'{"format": 1,\n "game": "\xffpig"}')
    message = raised(TraceError, load_trace, path)
    assert message.startswith(f"{path}:2: byte 11 is not UTF-8 (invalid start byte)")


def test_a_huge_file_is_read_only_to_the_limit(tmp_path):
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as file:
        file.truncate(2**40)  # a terabyte, sparse: reading it all would not end
    started = time.monotonic()
    message = raised(TraceError, lambda: read_text(huge, TraceError, limit=1000))
    assert time.monotonic() - started < 1
    assert message == f"{huge}: longer than the limit of 1,000 bytes"


def test_an_endless_device_is_refused_at_once():
    started = time.monotonic()
    message = raised(TraceError, lambda: read_text(Path("/dev/zero"), TraceError, limit=1000))
    assert time.monotonic() - started < 1
    assert message == "/dev/zero: is a character device, not a regular file"


def test_a_fifo_is_refused_even_while_a_writer_waits_on_it(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)

    def write_forever():
        try:
            with open(fifo, "wb") as sink:
                while True:
                    sink.write(b"[" * 4096)
        except BrokenPipeError:
            pass

    writer = threading.Thread(target=write_forever, daemon=True)
    writer.start()
    message = raised(DataError, lambda: read_text(fifo, DataError, limit=10_000))
    assert message == f"{fifo}: is a FIFO, not a regular file"
    deadline = time.monotonic() + 5
    while writer.is_alive() and time.monotonic() < deadline:  # a reader comes and goes: the writer's pipe breaks
        os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
        writer.join(timeout=0.1)
    assert not writer.is_alive()


def test_a_folder_and_a_missing_file_are_named(tmp_path):
    assert raised(TraceError, load_trace, tmp_path) == f"{tmp_path}: is a folder, not a file"
    missing = tmp_path / "missing.json"
    assert raised(TraceError, load_trace, missing) == f"{missing}: cannot read: No such file or directory"


# Documents


def test_deep_nesting_is_refused_without_overflowing_the_stack():
    deep = "[" * 100_000 + "]" * 100_000
    assert raised(TraceError, parse_trace, deep, "t.json") == f"t.json: nested deeper than {MAX_DEPTH} levels"
    just_over = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    assert "nested deeper than" in raised(TraceError, parse_json, just_over, "t.json", TraceError)
    assert parse_json("[" * MAX_DEPTH + "]" * MAX_DEPTH, "t.json", TraceError) is not None
    deep_toml = "a = " + "[" * 100_000 + "]" * 100_000
    assert "nested deeper than" in raised(DataError, parse_toml, deep_toml, "d.toml", DataError)


@pytest.mark.parametrize("digits", [41, 5_001])
def test_a_long_integer_is_refused(digits):
    number = "9" * digits
    assert raised(TraceError, parse_trace, f"[{number}]", "t.json") == "t.json: an integer longer than 40 digits"
    assert "longer than 40 digits" in raised(DataError, parse_toml, f"a = {number}", "d.toml", DataError)


def test_an_integer_of_40_digits_is_read():
    assert parse_json("[-" + "9" * 40 + "]", "t.json", TraceError) == [-int("9" * 40)]


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_json_constants_that_are_not_numbers_are_refused(constant):
    assert raised(TraceError, parse_json, f"[{constant}]", "t.json", TraceError) == (
        f"t.json: {constant} is not a JSON number"
    )


@pytest.mark.parametrize(
    ("call", "text", "message"),
    [
        (parse_json, "[1e999]", "d: the number inf is not finite"),
        (parse_toml, "a = nan", "d: the number nan is not finite"),
        (parse_toml, "a = 1979-05-27", "d: a date, which a JSON document cannot hold"),
        (parse_json, '{"a": 1, "a": 2}', "d: the key 'a' appears twice in one object"),
        (parse_json, '{\n  "a": [1,\n', "d:3:1: not valid JSON: Expecting value"),
        (parse_toml, "a = [", "d: not valid TOML: "),
    ],
)
def test_documents_json_cannot_hold_or_that_do_not_parse_are_refused(call, text, message):
    assert raised(DataError, call, text, "d", DataError).startswith(message)


def test_a_document_is_toml_or_json_and_one_object(tmp_path):
    yaml = tmp_path / "d.yaml"
    assert "a scenario is .toml or .json, not .yaml" in raised(
        DataError, lambda: load_document(yaml, DataError, kind="scenario")
    )
    listed = tmp_path / "d.json"
    listed.write_text("[1]")
    assert raised(DataError, load_document, listed, DataError) == f"{listed}: a document holds one object"
    toml = tmp_path / "d.toml"
    toml.write_text('a = 1\n[b]\nc = "d"\n')
    assert load_document(toml, DataError) == {"a": 1, "b": {"c": "d"}}


# JSON lines


def test_json_lines_gives_each_line_that_is_not_blank_with_its_number(tmp_path):
    path = tmp_path / "suite.jsonl"
    path.write_text('{"a": 1}\n\n  \r\n[2, 3]\r\n"x"')
    assert list(json_lines(path, DataError)) == [(1, {"a": 1}), (4, [2, 3]), (5, "x")]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"a": 1}\n[1, 2\n', ":2:6: not valid JSON: Expecting ',' delimiter"),
        (b'{"a": 1}\n\n["\xc3"]\n', ":3: byte 3 is not UTF-8"),
        (b"[1]\n[NaN]\n", ":2: NaN is not a JSON number"),
        (b"[1]\n" + b"[" * 1000 + b"\n", ":2: nested deeper than 64 levels"),
    ],
)
def test_json_lines_errors_name_the_file_and_line(tmp_path, content, message):
    path = tmp_path / "suite.jsonl"
    path.write_bytes(content)
    assert raised(DataError, lambda: list(json_lines(path, DataError))).startswith(f"{path}{message}")


def test_json_lines_bounds_each_line_and_the_file(tmp_path, monkeypatch):
    monkeypatch.setattr(untrusted, "MAX_LINE_BYTES", 10)
    monkeypatch.setattr(untrusted, "MAX_FILE_BYTES", 20)
    path = tmp_path / "suite.jsonl"
    path.write_bytes(b"[1]\n[" + b"1," * 10 + b"1]\n")
    assert raised(DataError, lambda: list(json_lines(path, DataError))) == (
        f"{path}:2: longer than the limit of 10 bytes"
    )
    path.write_bytes(b"[1, 2, 3]\n" * 3)
    assert raised(DataError, lambda: list(json_lines(path, DataError))) == f"{path}: longer than the limit of 20 bytes"
    assert raised(DataError, lambda: list(json_lines(tmp_path, DataError))) == f"{tmp_path}: is a folder, not a file"


# Traces


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"players": 0}, "t.json: 'players' must be from 1 to 64, not 0"),
        ({"players": 10**6}, "t.json: 'players' must be from 1 to 64, not 1000000"),
        ({"game": "pig" * 100}, "t.json: 'game' is 'pigpig"),
        ({"options": {"target": "1" * 101}}, "t.json: option 'target': names and values are at most 100 characters"),
        ({"steps": [{"action": "roll", "digest": "XYZ"}]}, "t.json: step 1: 'digest' must be 16 hex digits"),
        ({"steps": [{"action": "face 1" * 1000, "digest": "0" * 16}]}, "t.json: step 1: 'action' is 'face 1face"),
        ({"data": {"source": "deck.toml", "digest": "0"}}, "t.json: data: 'digest' must be 16 hex digits"),
    ],
)
def test_trace_fields_are_bounded_and_errors_name_the_step_and_field(changes, message):
    found = raised(TraceError, parse_trace, pig_trace(**changes), "t.json")
    assert found.startswith(message) and len(found) < 300


def test_a_wrong_game_version_names_that_field_in_one_short_line():
    trace = parse_trace(pig_trace(game_version=Pig.version + 1))
    message = raised(TraceError, replay, Pig(2), trace)
    assert message == f"the trace is for game_version {Pig.version + 1}; the game has game_version {Pig.version}"


def test_a_wrong_setup_names_each_differing_field():
    trace = record(Pig(3, {"target": "10"}), ["roll"])
    assert (
        raised(TraceError, replay, Pig(2), trace)
        == "the trace is for players 3, option target '10'; the game has players 2, option target '20'"
    )


# Action notation


def test_a_50_mb_action_text_is_cut_in_the_message():
    text = "face 1 " * 7_142_858
    message = raised(NotationError, Pig(2).parse_action, text)
    assert message.startswith("'face 1 face 1 ") and f"... ({len(text):,} characters)" in message
    assert "action text is at most 1,000 characters" in message and len(message) < 250


@pytest.mark.parametrize("text", ["face  4", " face 4", "face 4 ", "face\t4", "face\n4", "face\xa04", "face 04"])
def test_action_text_that_is_not_canonical_is_refused_with_the_canonical_spelling(text):
    assert raised(NotationError, Pig(2).parse_action, text) == f"{text!r}: not canonical; write 'face 4'"


@pytest.mark.parametrize("text", ["roll ", "\u2003roll", "roll\r\n"])
def test_whitespace_around_a_verb_alone_is_refused(text):
    assert raised(NotationError, Pig(2).parse_action, text) == f"{text!r}: not canonical; write 'roll'"


def test_minus_zero_is_spelled_zero():
    assert raised(NotationError, Pig(2).parse_action, "face -0") == "'face -0': not canonical; write 'face 0'"
    assert Pig(2).parse_action("face -3") == Face(-3)


@pytest.mark.parametrize("token", ["²", "４", "+4", "4.0", "0x4", "--4"])
def test_a_whole_number_is_ascii_digits(token):
    message = raised(NotationError, Pig(2).parse_action, f"face {token}")
    assert message == f"{f'face {token}'!r}: expected a whole number, got {token!r}"


def test_a_whole_number_has_at_most_40_digits():
    message = raised(NotationError, Pig(2).parse_action, "face " + "9" * 100)
    assert message.endswith(": a whole number of more than 40 digits") and len(message) < 250


# Data files


def test_a_data_file_echoes_a_long_name_cut(tmp_path):
    path = tmp_path / "deck.toml"
    name = "n" * 10_000
    path.write_text(f'provenance = "x"\n[[cards]]\nname = "{name}"\nvalue = 1\ncopies = -1\n')
    with pytest.raises(DataError) as error:
        DataHighCard(2, data=path)
    message = str(error.value)
    assert message.startswith(f"{path.resolve()}: cards[0] 'nnnn") and "(10,000 characters)" in message
    assert len(message.splitlines()) == 1 and len(message) < len(str(path.resolve())) + 600


def test_a_data_file_that_is_not_utf8_is_named(tmp_path):
    path = tmp_path / "deck.toml"
    path.write_bytes(b'provenance = "\xff"\n')
    with pytest.raises(DataError) as error:
        DataHighCard(2, data=path)
    assert (
        type(error.value) is DataError
        and str(error.value) == f"{path.resolve()}:1: byte 15 is not UTF-8 (invalid start byte)"
    )
