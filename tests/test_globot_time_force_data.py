"""Globot Time Force's data format: the shipped illustrative set builds and exercises every skill kind
and effect; a malformed file is rejected naming the file, the entry and the field; the board
counts by player number are the rulebook's, read from the spec's clause."""

import re

import pytest

from rulecheck.core.errors import DataError
from rulecheck.games.globot_time_force.components import DATA_DIR, EFFECTS, SKILL_KINDS
from rulecheck.games.globot_time_force.game import GlobotTimeForce

DEFAULT = (DATA_DIR / "illustrative.toml").read_text()


def test_the_illustrative_set_says_so_and_uses_every_skill_kind_and_effect():
    data = GlobotTimeForce(2).data
    assert data.provenance.startswith("illustrative")
    skills = [s for c in data.cards.values() for s in c.skills]
    assert {s.kind for s in skills} == set(SKILL_KINDS)
    assert {e.effect for s in skills for e in s.effects} == set(EFFECTS)
    colours = [c.colours for c in data.cards.values() if not c.event]
    assert any(len(c) > 1 for c in colours) and any(not c for c in colours)
    assert any(c.event for c in data.cards.values())


def test_board_counts_are_the_rulebooks():
    text = GlobotTimeForce.catalogue().get("GTF-S7").text
    stated = {}
    for low, high, count in re.findall(r"(\d)(?:-(\d))? players?: (\d) Achievement boards", text):
        for players in range(int(low), int(high or low) + 1):
            stated[players] = int(count)
    assert sorted(stated) == list(range(1, 6))
    data = GlobotTimeForce(1).data
    assert {n: data.boards_by_players[n - 1] for n in stated} == stated
    assert "L95-L98" in data.boards_source
    for players in stated:
        game = GlobotTimeForce(players)
        state = game.initial_state()
        while game.to_move(state) == -1 and state.stage == "boards":
            state = game.apply(state, game.legal_actions(state)[0])
        assert len(state.boards) == stated[players]


@pytest.mark.parametrize(
    "change, where, message",
    [
        (
            ('name = "Seed Vault"\ncost = 3\n', 'name = "Seed Vault"\n'),
            'cards[3] "Seed Vault"',
            "'cost' is a required property",
        ),
        (
            (
                'kind = "discard", effects = [{ effect = "gain-iom" }]',
                'kind = "sometimes", effects = [{ effect = "gain-iom" }]',
            ),
            'cards[3] "Seed Vault".skills[0].kind',
            "'sometimes' is not one of",
        ),
        (
            ('name = "Seed Vault"\ncost = 3\n', 'name = "Seed Vault"\ncost = -3\n'),
            'cards[3] "Seed Vault".cost',
            "-3 is less than the minimum of 0",
        ),
        (
            ('name = "Root Courier"', 'name = "Seed Vault"'),
            'cards[4] "Seed Vault".name',
            "a second card named 'Seed Vault'",
        ),
        (('[[deck]]\ncard = "Monument"\ncopies = 1\n', ""), 'cards[17] "Monument".name', "'Monument' is in no deck"),
        (
            ('colours = ["biogenics"]', 'colours = ["null"]'),
            'cards[3] "Seed Vault".colours',
            "'null' is not a colour of the spectrum",
        ),
        (('card = "Minoru"', 'card = "Minor"'), "deck[0].card", "no card or event named 'Minor'"),
        (
            ("by_players = [3, 3, 4, 6, 7]", "by_players = [3, 3, 4, 6, 9]"),
            "achievement_boards.by_players[4]",
            "9 boards for 5 players",
        ),
        (
            ('provenance = "illustrative: invented for rulecheck, not the publisher\'s cards"\n', ""),
            "(the document)",
            "'provenance' is a required property",
        ),
    ],
)
def test_a_malformed_file_is_rejected_naming_file_entry_and_field(tmp_path, change, where, message):
    old, new = change
    assert old in DEFAULT
    path = tmp_path / "cards.toml"
    path.write_text(DEFAULT.replace(old, new, 1))
    with pytest.raises(DataError) as caught:
        GlobotTimeForce(2, data=path)
    text = str(caught.value)
    assert text.startswith(f"{path}: {where}: ")
    assert message in text


def test_a_score_effect_outside_a_score_skill_is_rejected(tmp_path):
    path = tmp_path / "cards.toml"
    path.write_text(DEFAULT.replace('effect = "gain-iom"', 'effect = "score-per-card"', 1))
    with pytest.raises(
        DataError,
        match=r'cards\[3\] "Seed Vault"\.skills\[0\]\.effects\[0\]\.effect: .*cannot be an effect of a discard skill',
    ):
        GlobotTimeForce(2, data=path)


def test_another_data_set_plays_and_is_named_in_the_setup(tmp_path):
    path = tmp_path / "other.json"
    import json
    import tomllib

    document = tomllib.loads(DEFAULT)
    document["provenance"] = "illustrative: a variant"
    path.write_text(json.dumps(document))
    game = GlobotTimeForce(3, data=path)
    assert game.setup["data"]["source"] == str(path.resolve())
    assert game.loaded_data.digest != GlobotTimeForce(3).loaded_data.digest
