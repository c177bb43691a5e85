"""Globot Time Force's proofs and contradictions: the invariants are proved over the engine's own
guards under the defaults, a dropped energy cap or another reading refutes them, and the token and
colour statements clash with cores naming their clauses."""

import pytest

from rulecheck.check.proofs.contradictions import ask
from rulecheck.check.proofs.prove import PROVED, REFUTED, prove
from rulecheck.games.globot_time_force import counters
from rulecheck.registry import declaration, make_game

NAME = "globot-time-force"


def _results(options=None):
    game = make_game(NAME, 2, options or {})
    return {s.property: prove(s) for s in declaration(NAME).symbolic_systems(game)}


def test_every_invariant_is_proved_under_the_defaults():
    results = _results()
    assert set(results) == {
        "energy-in-range",
        "tableau-limit",
        "one-reservation",
        "tokens-in-one-place",
        "no-third-consecutive-turn",
        "no-third-granted-turn",
    }
    assert {r.status for r in results.values()} == {PROVED}


def test_dropping_the_energy_cap_from_the_pay_rule_refutes_the_energy_proof(monkeypatch):
    monkeypatch.setattr(counters, "energy_fits", lambda ops, used, energy: True)
    result = _results()["energy-in-range"]
    assert result.status == REFUTED
    assert "pay" in str(result.to_data())


@pytest.mark.parametrize(
    "options, refuted",
    [
        ({"tableau_limit": "forced-discard"}, "tableau-limit"),
        ({"tableau_limit": "scoring"}, "tableau-limit"),
        ({"tokens": "three-reservations"}, "one-reservation"),
    ],
)
def test_other_readings_refute_their_invariant(options, refuted):
    results = _results(options)
    assert results[refuted].status == REFUTED
    assert all(r.status == PROVED for name, r in results.items() if name != refuted)


def test_token_and_colour_statements_clash_with_cores_as_clause_ids():
    game = make_game(NAME, 2)
    answers = {a.id: a for a in ask(declaration(NAME).statement_set(game))}
    assert not answers["tokens-as-stated"].consistent
    assert set(answers["tokens-as-stated"].clauses) == {"GTF-S2", "GTF-T7"}
    assert not answers["trigger-with-reservation"].consistent
    assert "reservation-holds-token" in answers["trigger-with-reservation"].core
    assert answers["trigger-with-reservation-assistant"].consistent
    assert not answers["null-colour"].consistent
    assert {"GTF-C1", "GTF-C2"} <= set(answers["null-colour"].clauses)
    assert not answers["null-colour-in-data"].consistent


def test_the_data_question_reads_the_data_sets_spectrum(tmp_path):
    from rulecheck.games.globot_time_force.components import DATA_DIR

    text = (DATA_DIR / "illustrative.toml").read_text()
    path = tmp_path / "with-null.toml"
    path.write_text(text.replace('spectrum = ["biogenics",', 'spectrum = ["radiant", "null", "biogenics",', 1))
    game = make_game(NAME, 2, data=path)
    answers = {a.id: a for a in ask(declaration(NAME).statement_set(game))}
    assert answers["null-colour-in-data"].consistent
    assert not answers["null-colour"].consistent


def test_under_granted_only_the_turn_system_is_named_for_what_it_proves():
    results = _results({"consecutive_turns": "granted-only"})
    assert "no-third-consecutive-turn" not in results
    assert results["no-third-granted-turn"].status == PROVED


def test_taking_every_extra_turn_refutes_the_no_third_consecutive_turn_proof(monkeypatch):
    monkeypatch.setattr(counters, "turn_allowed", lambda ops, in_row: True)
    result = _results()["no-third-consecutive-turn"]
    assert result.status == REFUTED
    assert "extra-turn" in str(result.to_data())
