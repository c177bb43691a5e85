"""Data sets: a game's data file is validated (schema, then the game's own checks) with errors
naming the file, the entry and the field; the loaded data is part of the game's setup and of its
traces, so a replay under other data is refused."""

import json
import re

import pytest

from rulecheck.check.play.playthrough import random_game
from rulecheck.core.errors import DataError, OptionError, TraceError
from rulecheck.core.trace import parse_trace, record, replay
from tests.fixtures.high_card import HighCard
from tests.fixtures.high_card_data import DATA, DataHighCard

DEFAULT = (DATA / "high-card.toml").read_text()


def write(tmp_path, text, name="deck.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_the_default_data_set_builds_the_deck_and_is_named_in_the_setup():
    game = DataHighCard(2)
    assert dict(game.data.copies) == {"one": 1, "two": 2, "three": 3}
    assert game.initial_state().deck.size == 6
    assert game.setup["data"] == {"source": "default", "digest": game.loaded_data.digest}
    named = DataHighCard(2, data=DATA / "high-card.toml")
    assert named.setup["data"] == {"source": str(DATA / "high-card.toml"), "digest": game.loaded_data.digest}
    assert re.fullmatch("[0-9a-f]{16}", game.loaded_data.digest)


def test_a_game_without_a_data_format_refuses_a_data_file():
    with pytest.raises(OptionError, match="high-card takes no data file"):
        HighCard(2, data=DATA / "high-card.toml")
    assert "data" not in HighCard(2).setup


def test_json_and_toml_of_one_document_have_one_digest(tmp_path):
    document = {
        "provenance": "same",
        "cards": [{"name": "one", "value": 1, "copies": 1}, {"name": "two", "value": 2, "copies": 2}],
    }
    as_json = write(tmp_path, json.dumps(document), "deck.json")
    as_toml = write(
        tmp_path,
        'provenance = "same"\n[[cards]]\nname = "one"\nvalue = 1\ncopies = 1\n'
        '[[cards]]\nname = "two"\nvalue = 2\ncopies = 2\n',
    )
    assert DataHighCard(2, data=as_json).loaded_data.digest == DataHighCard(2, data=as_toml).loaded_data.digest


@pytest.mark.parametrize(
    "change, where, message",
    [
        (("copies = 2\n", "copies = -2\n"), 'cards[1] "two".copies', "-2 is less than the minimum of 1"),
        (("value = 3\n", ""), 'cards[2] "three"', "'value' is a required property"),
        (("value = 3\n", 'value = 3\ncolour = "red"\n'), 'cards[2] "three"', "'colour' was unexpected"),
        (('name = "three"', 'name = "two"'), 'cards[2] "two".name', "a second card named 'two'"),
        (("value = 3\n", "value = 2\n"), 'cards[2] "three".value', "value 2 is another card's"),
        (('provenance = "A test', 'provenances = "A test'), "(the document)", "'provenance' is a required property"),
    ],
)
def test_a_malformed_data_file_is_rejected_naming_the_file_the_entry_and_the_field(tmp_path, change, where, message):
    old, new = change
    assert old in DEFAULT
    path = write(tmp_path, DEFAULT.replace(old, new, 1))
    with pytest.raises(DataError) as error:
        DataHighCard(2, data=path)
    text = str(error.value)
    assert text.startswith(f"{path.resolve()}: {where}: ")  # errors name the file in full
    assert message in text


@pytest.mark.parametrize(
    "name, text, message",
    [
        ("deck.toml", "cards = [", "not valid TOML"),
        ("deck.json", "{", "not valid JSON"),
        ("deck.yaml", "cards: []", "a data file is .toml or .json, not .yaml"),
        ("deck.json", "[]", "a data file holds one object"),
    ],
)
def test_an_unreadable_data_file_is_rejected_naming_the_file(tmp_path, name, text, message):
    path = write(tmp_path, text, name)
    with pytest.raises(DataError, match=re.escape(message)) as error:
        DataHighCard(2, data=path)
    assert str(path) in str(error.value)


def test_a_missing_data_file_is_named(tmp_path):
    with pytest.raises(DataError, match="cannot read high-card deck data"):
        DataHighCard(2, data=tmp_path / "absent.toml")


def test_an_edited_file_is_read_again(tmp_path):
    path = write(tmp_path, DEFAULT)
    first = DataHighCard(2, data=path).loaded_data.digest
    path.write_text(DEFAULT.replace("copies = 3", "copies = 4"))
    second = DataHighCard(2, data=path)
    assert second.loaded_data.digest != first and second.data.copies["three"] == 4


def test_a_trace_records_its_data_and_replays_only_under_the_same_data(tmp_path):
    game = DataHighCard(2)
    trace = record(game, random_game(game, 3).actions)
    data = trace.to_data()
    assert data["data"] == game.setup["data"]
    parsed = parse_trace(json.dumps(data))
    assert parsed.data == trace.data
    replay(DataHighCard(2), parsed)
    other = DataHighCard(2, data=write(tmp_path, DEFAULT.replace("copies = 3", "copies = 4")))
    with pytest.raises(TraceError, match="trace was recorded with data .* give --data FILE"):
        replay(other, parsed)
