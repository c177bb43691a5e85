"""The kernel's pieces on the Pig fixture: options, clauses, notation, encoding, traces, chance, ops."""

import json
from fractions import Fraction

import attrs
import pytest
import z3
from hypothesis import given
from hypothesis import strategies as st

from rulecheck.core.chance import distribution, settle
from rulecheck.core.clauses import coverage, load_catalogue, parse_catalogue, touch
from rulecheck.core.codec import decode, encode
from rulecheck.core.errors import (
    EncodingError,
    IllegalAction,
    NotationError,
    OptionError,
    RuleGap,
    SpecError,
    TraceError,
)
from rulecheck.core.game import CHANCE, TERMINAL
from rulecheck.core.ops import INT_OPS, MaskOps, Z3Ops
from rulecheck.core.options import Option, Options, OptionSpace, parse_assignments
from rulecheck.core.trace import load_trace, parse_trace, record, replay
from tests.fixtures.pig import SPEC_DIR, Face, Hold, One, Pig, PigOptions, PigState, Roll, Target, bank, can_hold


@pytest.fixture
def pig():
    return Pig(2)


# Options


def test_options_resolve_defaults_and_choices(pig):
    assert dict(pig.options.text) == {"one": "lose-turn", "target": "20"}
    assert dict(Pig(2, {"target": "10"}).options.text) == {"one": "lose-turn", "target": "10"}


def test_unknown_option_lists_the_options():
    with pytest.raises(OptionError, match=r"unknown option 'two' for pig; options: one, target"):
        Pig(2, {"two": "x"})


def test_unknown_value_lists_the_values():
    with pytest.raises(OptionError, match=r"no value 'lose-half'; allowed: lose-turn, lose-all"):
        Pig(2, {"one": "lose-half"})


def test_player_count_outside_the_game_is_an_error():
    with pytest.raises(OptionError, match="2 to 4 players, not 5"):
        Pig(5)


def test_option_default_must_be_allowed():
    with pytest.raises(OptionError, match="default"):
        Option("x", "c", ("a", "b"), (), "x")


def test_option_values_must_be_unique():
    with pytest.raises(OptionError, match="repeated"):
        Option("x", "a", ("a", "a"), (), "x")


def test_every_field_of_an_options_record_must_be_an_option_of_a_reading():
    @attrs.frozen
    class Loose(Options):
        plain: str = "a"

    with pytest.raises(OptionError, match=r"Loose.plain is not an option\(...\) of a Reading enum"):
        OptionSpace("g", Loose)


def test_options_resolve_into_a_typed_record_whose_text_is_the_values_written():
    resolved = Pig(2, {"one": "lose-all"}).options
    assert resolved.one is One.LOSE_ALL and resolved.target is Target.TWENTY
    assert resolved == PigOptions(one=One.LOSE_ALL) and hash(resolved) == hash(PigOptions(one=One.LOSE_ALL))
    assert dict(resolved.text) == {"one": "lose-all", "target": "20"}


def test_parse_assignments():
    assert parse_assignments(["a=b", "c=d"]) == {"a": "b", "c": "d"}
    with pytest.raises(OptionError, match="without whitespace around the name or value"):
        parse_assignments([" c = d "])  # nothing is trimmed (docs/guide.md)
    for bad in (["a"], ["=b"], ["a="]):
        with pytest.raises(OptionError, match="NAME=VALUE"):
            parse_assignments(bad)
    with pytest.raises(OptionError, match="twice"):
        parse_assignments(["a=b", "a=c"])


def test_every_option_reads_known_clauses():
    ids = set(Pig.catalogue().ids)
    for option in Pig.option_space.options:
        assert set(option.clauses) <= ids


# Clauses and coverage


def test_catalogue_loads_in_order():
    catalogue = load_catalogue("pig", SPEC_DIR)
    assert catalogue.ids == ("PIG-1", "PIG-2", "PIG-3", "PIG-4", "PIG-5")
    assert catalogue.get("PIG-4").text.startswith("A player may hold")
    with pytest.raises(SpecError, match="no clause 'PIG-9'"):
        catalogue.get("PIG-9")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("game = ", "not valid TOML"),
        ('rulebook = "r"\nclause = []', "missing key 'game'"),
        ('game = "g"\nrulebook = "r"\n[[clause]]\nid = "bad id"\nlines = []\ntext = "t"', "id must look like"),
        ('game = "g"\nrulebook = "r"\n[[clause]]\nid = "G-1"\nlines = [0]\ntext = "t"', "positive line numbers"),
        ('game = "g"\nrulebook = "r"\n[[clause]]\nid = "G-1"\nlines = []', "missing key 'text'"),
        (
            'game = "g"\nrulebook = "r"\n' + '[[clause]]\nid = "G-1"\nlines = []\ntext = "t"\n' * 2,
            "clause G-1: id repeats",
        ),
        ('game = "g"\nrulebook = "r"\n[[clause]]\nid = "G-1"\nlines = []\ntext = "t"\nnote = 1', "unknown keys"),
    ],
)
def test_broken_spec_files_name_the_problem_and_the_place(text, message):
    with pytest.raises(SpecError, match=message) as error:
        parse_catalogue(text, "specs/g.toml")
    assert str(error.value).startswith("specs/g.toml")


def test_missing_spec_file(tmp_path):
    with pytest.raises(SpecError, match="no spec file"):
        load_catalogue("nothing", tmp_path)


def test_coverage_counts_only_inside_a_block_and_nests(pig):
    touch("PIG-1")  # outside any block: not counted anywhere
    with coverage() as outer:
        touch("PIG-1")
        with coverage() as inner:
            pig.apply(pig.initial_state(), Roll())
        assert inner == {"PIG-1": 1}
    assert outer == {"PIG-1": 2}


# Notation


def test_notation_round_trips_and_rejects_bad_text(pig):
    for action in (Roll(), Hold(), Face(4)):
        assert pig.parse_action(str(action)) == action
    assert str(Face(4)) == "face 4"
    for text, message in [
        ("", "empty"),
        ("jump", "unknown verb 'jump'; verbs: face, hold, roll"),
        ("face", "takes 1 argument"),
        ("face 1 2", "takes 1 argument"),
        ("face x", "expected a whole number"),
        ("face 04", "not canonical"),
        ("roll 3", "takes 0 argument"),
    ]:
        with pytest.raises(NotationError, match=message):
            pig.parse_action(text)


# Encoding


def test_state_json_is_canonical_and_round_trips(pig):
    state = PigState(scores=(3, 0), player=1, turn_total=4, rolling=True, winner=None)
    text = encode(state)
    assert text == '{"player":1,"rolling":true,"scores":[3,0],"turn_total":4,"winner":null}'
    assert decode(PigState, text) == state
    assert pig.decode_state(pig.encode_state(state)) == state


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not JSON"),
        ('{"player":1}', "PigState has fields"),
        ('{"player":"1","rolling":true,"scores":[3,0],"turn_total":4,"winner":null}', r"at \.player: expected int"),
        ('{"player":1,"rolling":1,"scores":[3,0],"turn_total":4,"winner":null}', r"at \.rolling: expected bool"),
        ('{"player":1,"rolling":true,"scores":[3,"x"],"turn_total":4,"winner":null}', r"at \.scores\[1\]"),
    ],
)
def test_bad_state_json_names_the_path(text, message):
    with pytest.raises(EncodingError, match=message):
        decode(PigState, text)


# Transitions, gaps


def test_apply_names_the_clause_that_forbids_an_action(pig):
    with pytest.raises(IllegalAction, match=r"illegal action 'hold': nothing to bank \[PIG-4\]") as error:
        pig.apply(pig.initial_state(), Hold())
    assert error.value.clause == "PIG-4"


class CountingPig(Pig):
    """Pig that counts how often it lists a player's legal actions."""

    listings = 0

    def _legal_actions(self, state, player):
        self.listings += 1
        return super()._legal_actions(state, player)


def test_remembered_legal_actions_are_not_listed_again_and_apply_still_checks_against_them():
    game = CountingPig(2)
    state = game.apply(game.apply(game.initial_state(), Roll()), Face(3))
    legal = game.legal_actions(state)
    for other in (game.initial_state(), PigState((0, 0), 1, 0, False, None)):
        game.legal_actions(other)  # the game's memory of listings moves on
    game.remember_legal(state, legal)
    listed = game.listings
    assert [game.apply(state, action) for action in legal] == [Pig(2).apply(state, action) for action in legal]
    assert game.listings == listed
    with pytest.raises(IllegalAction, match="no die is being rolled"):
        game.apply(state, Face(2))  # not among the remembered actions: rejected, as without them


def test_rule_gap_raises_only_in_strict_mode():
    state = Pig(2).initial_state()
    assert Pig(2).rule_gap("PIG-G1", "silent", state) is None
    with pytest.raises(RuleGap, match="rule gap PIG-G1: silent") as error:
        Pig(2, strict=True).rule_gap("PIG-G1", "silent", state)
    assert error.value.state == state


# Traces


def test_trace_saves_loads_and_replays(pig, tmp_path):
    trace = record(pig, ["roll", "face 5", "hold", "roll", "face 1"])
    path = tmp_path / "game.json"
    trace.save(path)
    loaded = load_trace(path)
    assert loaded == trace
    final = replay(pig, loaded)
    assert final == PigState(scores=(5, 0), player=0, turn_total=0, rolling=False, winner=None)
    assert not list(tmp_path.glob("*.partial"))


def test_replay_names_the_step_that_differs(pig, tmp_path):
    data = record(pig, ["roll", "face 5", "hold"]).to_data()
    data["steps"][1]["digest"] = "0" * 16
    with pytest.raises(TraceError, match=r"step 2 \('face 5'\): state digest"):
        replay(pig, parse_trace(json.dumps(data)))


def test_replay_of_an_illegal_action_names_the_step_and_clause(pig):
    data = record(pig, ["roll", "face 5"]).to_data()
    data["steps"].append({"action": "face 3", "digest": "0" * 16})
    with pytest.raises(TraceError, match=r"step 3: illegal action 'face 3'.*\[PIG-1\]"):
        replay(pig, parse_trace(json.dumps(data)))


def test_replay_rejects_another_setup(pig):
    trace = record(Pig(2, {"target": "10"}), ["roll"])
    with pytest.raises(TraceError, match="trace is for"):
        replay(pig, trace)


def test_replay_checks_the_final_state(pig):
    data = record(pig, ["roll", "face 5"]).to_data()
    data["final_state"]["turn_total"] = 6
    with pytest.raises(TraceError, match="final state differs"):
        replay(pig, parse_trace(json.dumps(data)))


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.pop("steps"), "missing key 'steps'"),
        (lambda d: d.update(format="other"), "not a rulecheck-trace"),
        (lambda d: d.update(players="2"), "'players' must be int"),
        (lambda d: d["steps"].append({"action": 3, "digest": "x"}), "step 2: 'action' must be str"),
        (lambda d: d.update(options={"one": 1}), "must be strings"),
    ],
)
def test_malformed_trace_files_name_the_problem(pig, mutate, message):
    data = record(pig, ["roll"]).to_data()
    mutate(data)
    with pytest.raises(TraceError, match=message):
        parse_trace(json.dumps(data), "t.json")


def test_unreadable_trace_file(tmp_path):
    with pytest.raises(TraceError, match="cannot read"):
        load_trace(tmp_path / "missing.json")


# Exact chance


def test_roll_distribution_is_exact(pig):
    state = pig.initial_state()
    dist = distribution(pig, state, Roll(), measure=lambda s: s.turn_total)
    assert dist == {
        0: Fraction(1, 6),
        2: Fraction(1, 6),
        3: Fraction(1, 6),
        4: Fraction(1, 6),
        5: Fraction(1, 6),
        6: Fraction(1, 6),
    }
    assert sum(dist.values()) == 1


def test_settle_stops_at_player_states(pig):
    rolling = pig.apply(pig.initial_state(), Roll())
    assert pig.to_move(rolling) == CHANCE
    settled = settle(pig, rolling)
    assert all(pig.to_move(s) != CHANCE for s in settled)
    assert len(settled) == 6


def test_lose_all_option_changes_the_distribution():
    game = Pig(2, {"one": "lose-all"})
    state = PigState(scores=(7, 0), player=0, turn_total=0, rolling=False, winner=None)
    dist = distribution(game, state, Roll(), measure=lambda s: s.scores[0])
    assert dist == {0: Fraction(1, 6), 7: Fraction(5, 6)}


def test_winning_probability_within_two_rolls_is_exact():
    game = Pig(2, {"target": "10"})
    near = PigState(scores=(4, 0), player=0, turn_total=0, rolling=False, winner=None)
    after_one = distribution(game, near, Roll())
    # Roll twice and hold: win when the two faces (both above 1) sum to at least 6.
    p_win = Fraction(0)
    for state, p in after_one.items():
        if game.to_move(state) == 0:
            second = distribution(game, state, Roll())
            for s2, q in second.items():
                if game.to_move(s2) == 0 and s2.scores[0] + s2.turn_total >= 10:
                    p_win += p * q
    two_faces = [(a, b) for a in range(2, 7) for b in range(2, 7)]
    assert p_win == Fraction(sum(a + b >= 6 for a, b in two_faces), 36)


# ops: one function, two kinds of value


def test_counter_rules_run_on_ints_and_on_z3_terms():
    assert bank(INT_OPS, 3, 4) == 7
    assert can_hold(INT_OPS, 0) is False
    ops = Z3Ops()
    score, turn = z3.Ints("score turn")
    solver = z3.Solver()
    # Proved by Z3 about the very functions the engine runs: banking never lowers a score.
    solver.add(can_hold(ops, turn), score >= 0, z3.Not(bank(ops, score, turn) > score))
    assert solver.check() == z3.unsat


def _as_python(value):
    if isinstance(value, z3.ExprRef):
        value = z3.simplify(value)
        return z3.is_true(value) if z3.is_bool(value) else value.as_long()
    return value


@pytest.mark.parametrize("ops", [INT_OPS, Z3Ops()], ids=["int", "z3"])
def test_ops_compute_the_same_values(ops):
    x = z3.Int("x") if isinstance(ops, Z3Ops) else None
    cases = [
        (ops.ite(True, 1, 2), 1),
        (ops.min(3, 5), 3),
        (ops.max(3, 5), 5),
        (ops.and_(True, False), False),
        (ops.or_(True, False), True),
        (ops.not_(True), False),
        (ops.implies(False, False), True),
        (ops.implies(True, False), False),
    ]
    for got, expected in cases:
        assert _as_python(got) == expected
    if x is not None:
        assert z3.is_expr(ops.min(x, 5))


PLACES = 7
"""The universe of the mask tests: sets of 7 places."""


def _at(mask, place):
    return bool(mask >> place & 1)


@given(st.lists(st.integers(0, 2**PLACES - 1), min_size=3, max_size=3))
def test_mask_ops_give_at_every_place_what_int_ops_give_there(masks):
    """A boolean guard on sets of places is the guard at each place: every connective, and a guard
    built of them, computed on masks, holds at exactly the places where INT_OPS says it holds."""
    ops = MaskOps(PLACES)
    a, b, c = masks

    def guard(o, x, y, z):
        return o.and_(o.or_(x, o.not_(y)), o.implies(z, x), o.ite(y, z, o.not_(x)))

    for place in range(PLACES):
        x, y, z = (_at(m, place) for m in masks)
        assert _at(ops.and_(a, b, c), place) == INT_OPS.and_(x, y, z)
        assert _at(ops.or_(a, b, c), place) == INT_OPS.or_(x, y, z)
        assert _at(ops.not_(a), place) == INT_OPS.not_(x)
        assert _at(ops.implies(a, b), place) == INT_OPS.implies(x, y)
        assert _at(ops.ite(a, b, c), place) == INT_OPS.ite(x, y, z)
        assert _at(guard(ops, a, b, c), place) == guard(INT_OPS, x, y, z)
    assert ops.and_(a, b, c) >> PLACES == 0 and ops.not_(a) >> PLACES == 0, "results stay within the places"
    with pytest.raises(TypeError, match="boolean guards only"):
        ops.min(a, b)


def test_terminal_state_is_terminal():
    game = Pig(2, {"target": "10"})
    state = PigState(scores=(0, 0), player=0, turn_total=12, rolling=False, winner=None)
    done = game.apply(state, Hold())
    assert game.to_move(done) == TERMINAL
    assert game.legal_actions(done) == ()


def test_errors_survive_pickling_so_workers_can_send_them_back():
    import pickle

    for error in (IllegalAction("GT-A1", "no such space", "move T1 T99"), RuleGap("GT-F06", "silent", None)):
        copy = pickle.loads(pickle.dumps(error))
        assert type(copy) is type(error) and str(copy) == str(error)
