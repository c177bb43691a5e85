"""Readings that matter: option values of Globetrotter that play differently, with witness traces."""

import json
import re
from fractions import Fraction

import pytest

from rulecheck.check.play.playthrough import random_game
from rulecheck.check.positions.describe import position_lines
from rulecheck.check.search.readings import (
    LEGAL_ACTIONS,
    OUTCOME,
    IncomparableGames,
    find_divergence,
    first_divergence,
)
from rulecheck.cli import main
from rulecheck.core.trace import replay
from rulecheck.games.globetrotter import Globetrotter

MAX_STEPS = 3000


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def gained_and_lost(detail: str, variant: str, base: str) -> tuple[set[str], set[str]]:
    """A legal-actions detail line (`under V player 0 may also A, B; under V player 0 may not C,
    which B allows`) as the actions the variant allows and the base does not, and the reverse."""
    gained, lost = set(), set()
    for part in detail.split("; "):
        head, _, listed = part.partition(" may ")
        assert head.startswith(f"under {variant} player "), detail
        verb, _, names = listed.partition(" ")
        names = names.removesuffix(f", which {base} allows").split(" and ")[0]
        (gained if verb == "also" else lost).update(names.split(", "))
        assert verb in ("also", "not"), detail
    return gained, lost


@pytest.mark.parametrize("option, value", [("shooting", "W0"), ("removal", "edge5")])
def test_a_reading_that_matters_has_a_witness_ending_where_the_readings_part(option, value):
    base, variant = Globetrotter(2), Globetrotter(2, {option: value})
    found = find_divergence(base, variant, range(5), MAX_STEPS)
    assert found is not None
    trace, divergence = found
    assert divergence.what == LEGAL_ACTIONS and divergence.action is None
    assert len(trace.actions) == divergence.step
    state = replay(base, trace)
    actions = [base.parse_action(text) for text in trace.actions]
    assert first_divergence(base, variant, actions) == divergence

    other = variant.initial_state()
    for action in actions:
        other = variant.apply(other, action)
    assert variant.encode_state(other) == base.encode_state(state)
    legal, other_legal = set(base.legal_actions(state)), set(variant.legal_actions(other))
    gained, lost = gained_and_lost(divergence.detail, f"{option}={value}", f"{option}={base.options.text[option]}")
    assert gained or lost
    for text in lost:
        assert base.parse_action(text) in legal - other_legal
    for text in gained:
        assert variant.parse_action(text) in other_legal - legal


def test_an_action_with_different_outcomes_is_named():
    """A Fortification that covers itself changes the odds of a shot at it, not whether it may be shot."""
    base, variant = Globetrotter(2), Globetrotter(2, {"fortification_covers_itself": "yes"})
    trace, divergence = find_divergence(base, variant, range(5), MAX_STEPS)
    assert divergence.what == OUTCOME and len(trace.actions) == divergence.step
    state = replay(base, trace)
    action = base.parse_action(divergence.action)
    assert action in base.legal_actions(state) and base.legal_actions(state) == variant.legal_actions(state)
    assert base.encode_state(base.apply(state, action)) != variant.encode_state(variant.apply(state, action))
    assert first_divergence(base, variant, [base.parse_action(text) for text in trace.actions]) == divergence
    # In the game's words: the shot's roll needs more when the target covers itself, and chance then
    # leads to each reading's positions with exact odds that sum to 1.
    needs = re.search(r"pending\.0\.needs is (\d) under fortification_covers_itself=no, (\d) under", divergence.detail)
    assert needs is not None and int(needs[1]) < int(needs[2]), divergence.detail
    chance = divergence.detail.split("chance then leads under fortification_covers_itself=no to ", 1)[1]
    for side in chance.split("; under fortification_covers_itself=yes to "):
        odds = [Fraction(item.split(" ", 1)[0]) for item in side.split(" | ")]
        assert sum(odds) == 1 and len(odds) > 1, side


def test_identical_options_never_diverge():
    base, same = Globetrotter(2, {"shooting": "W0"}), Globetrotter(2, {"shooting": "W0"})
    assert first_divergence(base, same, random_game(base, 3, MAX_STEPS).actions) is None


def test_an_option_for_three_planets_does_not_matter_on_one():
    """planet_adjacency orders the orbits of 3 planets; 2 players have one planet."""
    assert find_divergence(Globetrotter(2), Globetrotter(2, {"planet_adjacency": "line"}), range(3), MAX_STEPS) is None


def test_only_readings_of_one_game_compare():
    with pytest.raises(IncomparableGames, match="for 2 players with globetrotter for 3"):
        first_divergence(Globetrotter(2), Globetrotter(3), [])


@pytest.fixture(scope="module")
def witness(tmp_path_factory):
    trace, divergence = find_divergence(Globetrotter(2), Globetrotter(2, {"removal": "edge5"}), range(5), MAX_STEPS)
    path = tmp_path_factory.mktemp("readings") / "witness.json"
    trace.save(path)
    return path, trace, divergence


def test_compare_names_the_divergence_at_the_end_of_the_witness(capsys, witness):
    path, trace, divergence = witness
    code, out, _ = run(capsys, "compare", str(path), "--set", "removal=edge5")
    assert code == 0
    first, clauses, *rest = out.splitlines()
    assert first == f"at step {divergence.step} (after {trace.actions[-1]}): legal actions differ: {divergence.detail}"
    assert clauses == "clauses the option reads:"
    cited = Globetrotter.option_space.get("removal").clauses
    assert [line.split(" ", 3)[2] for line in rest[: len(cited)]] == list(cited)
    assert rest[len(cited)] == f"the position after step {divergence.step}, under removal=ring15:"
    assert rest[len(cited) + 1 :] == [
        "  " + line for line in position_lines(Globetrotter(2), replay(Globetrotter(2), trace))
    ]
    code, out, _ = run(capsys, "compare", str(path), "--set", "removal=edge5", "--json")
    assert code == 0
    assert json.loads(out) == {
        "trace": str(path),
        "base": {"removal": "ring15"},
        "variant": {"removal": "edge5"},
        "divergence": divergence.to_data(),
        "clauses": list(Globetrotter.option_space.get("removal").clauses),
    }


def test_compare_without_a_difference(capsys, witness):
    path, trace, _ = witness
    code, out, _ = run(capsys, "compare", str(path), "--set", "planet_adjacency=line")
    assert (code, out) == (0, f"no difference along the {len(trace.actions)} steps\n")


def test_compare_with_the_traces_own_value_says_the_variant_is_the_base(capsys, witness):
    path, _, _ = witness
    code, out, err = run(capsys, "compare", str(path), "--set", "removal=ring15", "--json")
    assert (code, out) == (2, "") and "the trace already has removal=ring15" in err


def test_compare_with_an_unknown_option_is_a_usage_error(capsys, witness):
    path, _, _ = witness
    code, out, err = run(capsys, "compare", str(path), "--set", "range=far")
    assert (code, out) == (2, "")
    assert err.startswith("rulecheck: unknown option 'range' for globetrotter") and err.count("\n") == 1


def test_z3_finds_where_two_treasury_readings_part_in_the_engines_own_spend_rule():
    from rulecheck.check.proofs.symbolic_readings import divergences
    from rulecheck.registry import declaration, make_game

    declared = declaration("globetrotter")
    base, variant = make_game("globetrotter", 2), make_game("globetrotter", 2, {"treasury_spend": "saved-first"})
    found = {d.system: d for d in divergences(declared.symbolic_systems(base), declared.symbolic_systems(variant))}
    parted = found["at-most-4-actions-in-a-row"]
    last = parted.run[-1]["values"]
    assert parted.step == "act" and last["stolen"] > 0 and last["saved"] > 0 and last["own_used"]
    # stolen-first spends a stolen point, saved-first a saved one: the change only one reading
    # allows spends that reading's kind (which of the two Z3 shows is its choice)
    spent = {"base": "stolen", "variant": "saved"}[parted.allowed_under]
    assert parted.after[spent] == last[spent] - 1
    assert (
        divergences(
            declared.symbolic_systems(base), declared.symbolic_systems(make_game("globetrotter", 2, {"shooting": "W0"}))
        )
        == []
    )


def test_symbolic_compare_prints_where_the_readings_part(capsys):
    from rulecheck.cli import main

    assert main(["symbolic-compare", "globetrotter", "--variant", "saved_point_use=same-turn"]) == 0
    out = capsys.readouterr().out
    assert (
        "parts: saved-points-in-range" in out
        and "under saved_point_use=same-turn, not under saved_point_use=next-turn" in out
    )
    assert main(["symbolic-compare", "globetrotter", "--variant", "shooting=W2"]) == 0
    assert "no symbolic system parts shooting=W1 from shooting=W2" in capsys.readouterr().out


@pytest.mark.parametrize(
    "option, value, system",
    [
        ("treasury_spend", "saved-first", "at-most-4-actions-in-a-row"),
        ("destroying_action", "excluded", "at-most-4-actions-in-a-row"),
        ("cap_orbit", "not-counted", "manufacture-respects-rover-cap"),
        ("destruction_roll", "less-or-equal", "fire-counters-never-decrease"),
        ("saved_point_use", "same-turn", "saved-points-in-range"),
    ],
)
def test_readings_random_play_rarely_parts_part_in_the_engines_guards(option, value, system):
    from rulecheck.check.proofs.symbolic_readings import divergences
    from rulecheck.registry import declaration, make_game

    declared = declaration("globetrotter")
    base, variant = make_game("globetrotter", 2), make_game("globetrotter", 2, {option: value})
    found = {d.system for d in divergences(declared.symbolic_systems(base), declared.symbolic_systems(variant))}
    assert system in found
