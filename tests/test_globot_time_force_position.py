"""Globot Time Force's position format: every reachable state written and read back is the same
state (through TOML too), an empty `[position]` is the documented defaults, the short forms
(`gears = 3`, a `deck` instead of the discard pile) mean what the docs say, and each impossible
position a rule designer could write is refused with the rule it breaks; and a turn that a
one-gap refill starts with a short timeline is told by the seat's index, as every report names
seats, with the count a full timeline holds."""

import random
from typing import Any

import pytest

from rulecheck.check.play.playthrough import random_game
from rulecheck.core.hidden import Pile
from rulecheck.games.globot_time_force.options import OPTIONS
from rulecheck.games.globot_time_force.position import DOCS, FORMAT, FORMAT_RULE, read, write
from rulecheck.games.globot_time_force.state import ACT, Pending
from rulecheck.registry import declaration, make_game
from tests.positions import Refused, fail, reads_back

READINGS = (
    {},
    {
        "tokens": "three-reservations",
        "tableau_limit": "forced-discard",
        "second_turn_refill": "one-gap",
        "extra_turn_choice": "optional",
        "timeline_actions": "discards",
    },
    {
        "tokens": "assistant",
        "tableau_limit": "scoring",
        "extra_turns": "all-at-once",
        "extra_turn_order": "consecutive",
        "gear_payment": "change",
        "charge": "expires",
        "passives": "mandatory",
        "gear_exchange": "on",
        "tokens_per_board": "one",
        "turn_end": "voluntary",
        "timeline_actions": "skill-effects",
    },
)


@pytest.mark.parametrize("options", READINGS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_every_reachable_state_reads_back_as_itself(players, options):
    game = make_game("globot-time-force", players, options)
    stages = set()
    for seed in range(15):
        for index, state in enumerate(random_game(game, seed, 3_000).states):
            reads_back(game, state, through_toml=index % 5 == 0)
            stages.add(state.stage)
    assert {"boards", "timeline", "act", "refill", "over"} <= stages


def test_states_under_random_readings_read_back_as_themselves():
    """Every option at a random value, 150 games: no reading's reachable state is refused."""
    rng = random.Random(11)
    for seed in range(150):
        options = {option.name: rng.choice(option.values) for option in OPTIONS.options}
        game = make_game("globot-time-force", rng.randint(1, 5), options)
        for state in random_game(game, seed, 3_000).states:
            assert read(game, write(game, state), fail) == state, (options, seed)


def test_the_format_is_declared_with_its_docs():
    assert declaration("globot-time-force").position_format() is FORMAT
    assert DOCS == "docs/globot-time-force.md#scenarios" == FORMAT.defaults == FORMAT_RULE


def test_an_empty_position_is_the_documented_defaults():
    game = make_game("globot-time-force", 2)
    state = read(game, {}, fail)
    assert state.stage == ACT and state.current == 0
    assert state.timeline == () and state.discards == ()
    assert state.deck == Pile.shuffled(game.data.deck_cards())
    assert state.boards == tuple(sorted(list(game.data.achievements)[:3])) and state.spaces == ((), (), ())
    assert state.in_row == 1 and not state.granted and not state.extra and state.triggered == -1
    assert state.fired == () and state.pending == () and state.refill == 0
    for me in state.players:
        assert (me.used, me.coins, me.charge, me.iom, me.tec) == (0, (0, 0, 0), 0, 0, 0)
        assert (me.tableau, me.reserved, me.fresh) == ((), (), 0)
        assert (me.tokens, me.placed, me.spent, me.declined) == (3, 0, 0, False)
    written = write(game, state)
    assert "pending" not in written and "end_triggered_by" not in written and "deck" not in written


def test_short_forms_and_derived_parts():
    game = make_game("globot-time-force", 2)
    state = read(
        game,
        {
            "deck": ["Minoru", "Monument"],
            "timeline": ["Seed Vault"],
            "achievements": {"Green Thumb": [0, 1], "Full Spectrum": [0], "Collector": []},
            "players": [{"gears": {"bronze": 2, "silver": 1, "gold": 1}, "reserved": ["Root Courier"]}, {"gears": 4}],
        },
        fail,
    )
    assert state.deck == Pile.shuffled(["minoru", "monument"])
    assert len(state.discards) == len(game.data.deck_cards()) - 4 and "seed-vault" in state.discards
    first, second = state.players
    assert first.coins == (2, 1, 1) and first.gears == 17
    assert second.coins == (4, 0, 0)  # a number below a silver's worth: coins of 1
    assert (first.tokens, first.placed, first.spent) == (0, 2, 0)  # one token locked on the reservation
    assert (second.tokens, second.placed, second.spent) == (2, 1, 0)
    under_assistant = read(make_game("globot-time-force", 2, {"tokens": "assistant"}), {"players": [{}]}, fail)
    assert under_assistant.players[0].tokens == 3
    refill = read(game, {"stage": "refill", "timeline": ["Seed Vault"]}, fail)
    assert refill.refill == 2
    one_gap = make_game("globot-time-force", 2, {"second_turn_refill": "one-gap"})
    assert read(one_gap, {"stage": "refill", "timeline": ["Seed Vault"]}, fail).refill == 2
    assert read(one_gap, {"stage": "refill", "timeline": ["Seed Vault"], "second_turn": True}, fail).refill == 1
    full = {"Green Thumb": [0, 1], "Full Spectrum": [0], "Collector": [0]}
    assert read(game, {"achievements": full}, fail).triggered == 0


def test_a_pending_forced_discard_and_the_waiting_effects():
    game = make_game("globot-time-force", 1, {"tableau_limit": "forced-discard"})
    eight = ["Seed Vault", "Seed Vault", "Root Courier", "Root Courier", "Entropy Sink", "Entropy Sink"]
    eight += ["Gear Smith", "Null Courier"]
    document = {"stage": "ending", "players": [{"tableau": eight}], "pending": [{"effect": "discard"}]}
    state = read(game, document, fail)
    assert state.pending == (Pending("", "discard", 1),)
    assert read(game, write(game, state), fail) == state
    waiting = [{"card": "Balance Keeper"}, {"card": "Balance Keeper", "effect": "gain-gears"}]
    document = {"players": [{"tableau": ["Seed Vault"]}], "discards": ["Balance Keeper"], "pending": waiting}
    state = read(make_game("globot-time-force", 1), document, fail)
    assert state.pending == (Pending("balance-keeper", "discard", 1), Pending("balance-keeper", "gain-gears", 3))


def refused(document: dict[str, Any], players: int = 2, **options: str) -> Refused:
    game = make_game("globot-time-force", players, options)
    with pytest.raises(Refused) as caught:
        read(game, document, fail)
    return caught.value


SEVEN = ["Seed Vault", "Seed Vault", "Root Courier", "Root Courier", "Entropy Sink", "Entropy Sink", "Gear Smith"]
BOARDS3 = {"Green Thumb": [0], "Full Spectrum": [0], "Collector": [0]}


@pytest.mark.parametrize(
    ("document", "options", "path", "rule", "words"),
    [
        # The format: unknown keys, wrong types.
        ({"energy": 3}, {}, ("energy",), FORMAT_RULE, "no such key"),
        ({"players": [{"energy": 3}]}, {}, ("players", 0, "energy"), FORMAT_RULE, "no such key"),
        ({"players": [{"energy_used": "11"}]}, {}, ("players", 0, "energy_used"), FORMAT_RULE, "whole number"),
        ({"players": [{"energy_used": True}]}, {}, ("players", 0, "energy_used"), FORMAT_RULE, "whole number"),
        ({"players": [{"gears": {"copper": 1}}]}, {}, ("players", 0, "gears", "copper"), FORMAT_RULE, "no such"),
        ({"timeline": "Seed Vault"}, {}, ("timeline",), FORMAT_RULE, "a list"),
        ({"second_turn": 1}, {}, ("second_turn",), FORMAT_RULE, "true or false"),
        ({"stage": "turn"}, {}, ("stage",), FORMAT_RULE, "no stage"),
        ({"pending": [{"card": "Balance Keeper", "effect": "explode"}]}, {}, ("pending", 0, "effect"), FORMAT_RULE, ""),
        # Energy, resources, players.
        ({"players": [{"energy_used": 13}]}, {}, ("players", 0, "energy_used"), "energy-in-range", "exceed 12"),
        ({"players": [{"energy_used": -1}]}, {}, ("players", 0, "energy_used"), "GTF-R5", "negative"),
        ({"players": [{"gears": -2}]}, {}, ("players", 0, "gears"), "GTF-R1", "negative"),
        (
            {"players": [{"gears": {"bronze": 99, "silver": 99, "gold": 99}}]},
            {},
            ("players", 0, "gears"),
            FORMAT_RULE,
            "at most 100,000",
        ),
        ({"players": [{"gears": 5}]}, {}, ("players", 0, "gears"), "GTF-R1", "{ bronze = 5 } (5 coins of 1) or"),
        ({"players": [{"gears": 17}]}, {}, ("players", 0, "gears"), "GTF-R1", "{ gold = 1, silver = 1, bronze = 2 }"),
        ({"players": [{"gears": 10**30}]}, {}, ("players", 0, "gears"), "GTF-R1", "does not say which coins"),
        ({"players": [{"charge": -1}]}, {}, ("players", 0, "charge"), "GTF-R7", "negative"),
        ({"players": [{}, {}, {}]}, {}, ("players",), "GTF-S1", "3 players in a game of 2"),
        ({"current": 2}, {}, ("current",), "GTF-S1", "no player 2"),
        # Cards.
        (
            {"timeline": ["Seed Vault"], "players": [{"tableau": ["Seed Vault", "Seed Vault"]}]},
            {},
            ("players", 0, "tableau", 1),
            "cards-in-one-place",
            "already at timeline[0], players[0].tableau[0]",
        ),
        (
            {"timeline": ["Monument"], "discards": ["Monument"]},
            {},
            ("discards", 0),
            "cards-in-one-place",
            "already at timeline[0]",
        ),
        ({"timeline": ["Seed Vaults"]}, {}, ("timeline", 0), "cards-in-one-place", "no card named"),
        ({"timeline": ["seed vault"]}, {}, ("timeline", 0), "cards-in-one-place", "did you mean 'Seed Vault'"),
        ({"deck": ["Minoru"], "discards": []}, {}, ("deck",), "cards-in-one-place", "cards in no place"),
        ({"timeline": ["Minoru", "Monument", "Seed Vault", "Gear Smith"]}, {}, ("timeline",), "GTF-S5", "of 3"),
        ({"players": [{"tableau": ["Temporal Storm"]}]}, {}, ("players", 0, "tableau", 0), "GTF-T10", "never"),
        ({"players": [{"reserved": ["Market Day"]}]}, {}, ("players", 0, "reserved", 0), "GTF-T10", "never"),
        ({"players": [{"tableau": [*SEVEN, "Minoru"]}]}, {}, ("players", 0, "tableau"), "GTF-T8", "up to 7"),
        (
            {"players": [{"tableau": [*SEVEN, "Minoru"]}]},
            {"tableau_limit": "forced-discard"},
            ("players", 0, "tableau"),
            "GTF-T8",
            "up to 7",
        ),
        ({"players": [{"reserved": ["Minoru", "Monument"]}]}, {}, ("players", 0, "reserved"), "GTF-T7", "at most 1"),
        ({"players": [{"reserved_this_turn": 1}]}, {}, ("players", 0, "reserved_this_turn"), "GTF-T7", "of 0"),
        # Tokens, boards, the end.
        ({"players": [{"tokens": 4}]}, {}, ("players", 0, "tokens"), "tokens-in-one-place", "a player has 3"),
        (
            {"players": [{"tokens": 3, "reserved": ["Minoru"]}]},
            {},
            ("players", 0, "tokens"),
            "tokens-in-one-place",
            "on a reservation",
        ),
        ({"players": [{"tokens": 2}]}, {}, ("players", 0, "tokens"), "GTF-E3", "discarded only"),
        (
            {"achievements": {"Green Thumb": [0, 0, 1], "Full Spectrum": [], "Collector": []}},
            {},
            ("achievements", "Green Thumb"),
            "GTF-E1",
            "2 token spaces",
        ),
        (
            {"achievements": {"Green Thumb": [0, 0], "Full Spectrum": [], "Collector": []}},
            {"tokens_per_board": "one"},
            ("achievements", "Green Thumb"),
            "GTF-E1",
            "two tokens",
        ),
        ({"achievements": {"Green Thumb": [], "Full Spectrum": []}}, {}, ("achievements",), "GTF-S7", "who draw 3"),
        ({"achievements": {"Green Thumbs": []}}, {}, ("achievements", "Green Thumbs"), "GTF-S7", "no achievement"),
        (
            {"achievements": {"Green Thumb": [2], "Full Spectrum": [], "Collector": []}},
            {},
            ("achievements", "Green Thumb", 0),
            "GTF-S1",
            "no player 2",
        ),
        (
            {"achievements": {"Green Thumb": [0], "Full Spectrum": [], "Collector": []}, "end_triggered_by": 0},
            {},
            ("end_triggered_by",),
            "GTF-E2",
            "not all 3",
        ),
        (
            {"achievements": {"Green Thumb": [0, 1], "Full Spectrum": [0, 1], "Collector": [0, 1]}},
            {},
            ("end_triggered_by",),
            "GTF-E2",
            "say who was first",
        ),
        ({"extra_turn": True}, {}, ("extra_turn",), "GTF-E3", "follow the end trigger"),
        ({"extra_turn": True, "achievements": BOARDS3}, {}, ("extra_turn",), "GTF-E3", "other players"),
        (
            {"extra_turn": True, "current": 1, "achievements": BOARDS3},
            {},
            ("players", 1, "tokens"),
            "GTF-E3",
            "discarded no token",
        ),
        (
            {"players": [{}, {"declined": True}], "achievements": BOARDS3},
            {},
            ("players", 1, "declined"),
            "GTF-E3",
            "extra_turn_choice=optional",
        ),
        ({"stage": "offer", "current": 1, "achievements": BOARDS3}, {}, ("stage",), "GTF-E3", "optional"),
        ({"stage": "over", "timeline": ["Minoru"]}, {}, ("stage",), "GTF-E4", "no player has a token"),
        # Waiting effects and stages.
        (
            {"pending": [{"card": "Seed Vault", "effect": "gain-from-timeline"}], "timeline": ["Minoru"]},
            {},
            ("pending", 0),
            "GTF-T4",
            "no skill of 'Seed Vault'",
        ),
        (
            {"pending": [{"card": "Seed Vault", "effect": "gain-iom"}]},
            {},
            ("pending", 0, "effect"),
            "GTF-T4",
            "resolves at once",
        ),
        (
            {"pending": [{"card": "Echo Loom", "effect": "gain-from-timeline"}]},
            {},
            ("pending", 0),
            "GTF-T4",
            "nothing to choose",
        ),
        ({"pending": [{"effect": "discard"}]}, {}, ("pending", 0, "card"), "GTF-T8", "forced discard"),
        (
            {
                "stage": "refill",
                "timeline": ["Minoru"],
                "pending": [{"card": "Echo Loom", "effect": "gain-from-timeline"}],
            },
            {},
            ("pending",),
            "GTF-T4",
            "only during a turn",
        ),
        ({"stage": "ending"}, {}, ("stage",), "GTF-T1", "none waits"),
        ({"refill": 1, "timeline": ["Minoru"]}, {}, ("refill",), "GTF-T12", "only once a turn is over"),
        (
            {"stage": "refill", "timeline": ["Minoru", "Monument", "Seed Vault"]},
            {},
            ("refill",),
            "GTF-T12",
            "nothing to draw",
        ),
        ({"stage": "refill", "timeline": ["Minoru"], "refill": 3}, {}, ("refill",), "GTF-T12", "3 cards to draw"),
        ({"stage": "timeline", "timeline": ["Minoru", "Monument", "Seed Vault"]}, {}, ("timeline",), "GTF-S5", "full"),
        ({"stage": "boards", "achievements": BOARDS3}, {}, ("achievements",), "GTF-S7", "all 3 boards"),
        ({"stage": "boards", "achievements": {}, "timeline": ["Minoru"]}, {}, ("timeline",), "GTF-S7", "after"),
        ({"stage": "timeline", "current": 1}, {}, ("stage",), "GTF-S5", "nobody has had a turn"),
        (
            {"second_turn_granted": True, "stage": "refill", "timeline": ["Minoru"]},
            {},
            ("second_turn_granted",),
            "GTF-T13",
            "during a turn",
        ),
        (
            {"passives_used": ["Seed Vault"], "players": [{"tableau": ["Seed Vault"]}]},
            {},
            ("passives_used", 0),
            "GTF-T3a",
            "no passive skill",
        ),
        ({"passives_used": ["Prism Choir"]}, {}, ("passives_used", 0), "GTF-T5", "once a turn"),
    ],
)
def test_an_impossible_position_is_refused_with_its_rule(document, options, path, rule, words):
    found = refused(document, **options)
    assert (found.path, found.rule) == (path, rule), found
    assert words in found.message, found


def test_a_turn_starting_with_a_short_timeline_is_told_by_seat_and_count_at_one_player():
    from rulecheck.properties.globot_time_force import full_timeline_at_turn_start

    from rulecheck.games.globot_time_force.actions import Reveal

    game = make_game("globot-time-force", 1, {"second_turn_refill": "one-gap"})
    before = read(game, {"stage": "refill", "timeline": [], "refill": 1, "second_turn": True}, fail)
    action = game.chance_outcomes(before)[0][0]
    assert isinstance(action, Reveal)
    after = game.apply(before, action)
    assert after.stage == ACT and len(after.timeline) == 1 and after.deck.size > 0
    assert full_timeline_at_turn_start(game, before, action, after) == (
        f"player 0's turn starts with 1 timeline card, not 2 (1 player and one), and {after.deck.size} in the deck"
    )
