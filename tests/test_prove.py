"""The prover on Globetrotter: proofs under the defaults, refutations under other readings,
and a deleted guard turning a proof into a refutation."""

import json

import pytest

from rulecheck.check.proofs.game_proofs import prove_game
from rulecheck.check.proofs.prove import PROVED, REFUTED, prove
from rulecheck.cli import main
from rulecheck.games.globetrotter import Globetrotter, counters
from rulecheck.games.globetrotter.symbolic import saved_points

EXPECTED = {
    "hit-points-in-range (rover)",
    "hit-points-in-range (building)",
    "hit-points-in-range (fortification)",
    "build-points-in-range",
    "saved-points-in-range",
    "at-most-4-actions-in-a-row",
    "fortifications-never-adjacent",
    "one-treasury-per-player",
    "one-building-per-type-and-planet",
    "manufacture-respects-rover-cap",
    "fire-counters-never-decrease",
}


def _by_name(proofs):
    return {p.result.property: p for p in proofs}


def _replay_shows(proof, tmp_path, capsys, message):
    """The refutation's concrete trace replays from the command line and shows `message`; the
    exit status is 0, as for `prove`: the options under which it was refuted do not promise it."""
    assert proof.witness is not None and not proof.promised
    path = tmp_path / "witness.json"
    proof.witness.save(path)
    assert main(["replay", str(path)]) == 0
    assert message in capsys.readouterr().out


def test_every_invariant_is_proved_under_the_defaults():
    proofs = _by_name(prove_game(Globetrotter(2), witness_games=0))
    assert set(proofs) == EXPECTED
    for name, proof in proofs.items():
        assert proof.result.status == PROVED, name
        assert proof.promised, name
    fortifications = proofs["fortifications-never-adjacent"]
    assert fortifications.result.basis == "refinement"
    assert fortifications.refinement_steps > 0 and fortifications.refinement_mismatches == ()
    assert {p.result.basis for n, p in proofs.items() if n != "fortifications-never-adjacent"} == {"ops"}


def test_fortify_rover_reading_lets_fortifications_touch_with_a_replayable_trace(tmp_path, capsys):
    proofs = _by_name(prove_game(Globetrotter(2, {"fortify_adjacency": "rover"}), witness_games=100))
    proof = proofs["fortifications-never-adjacent"]
    assert proof.result.status == REFUTED and not proof.promised
    steps = [s["step"] for s in proof.result.run]
    assert steps[0] == "initial" and len(steps) == 3
    assert all(step in ("fortify-p0", "fortify-p1") for step in steps[1:])
    _replay_shows(proof, tmp_path, capsys, "fortifications-never-adjacent broken")


def test_rovers_in_orbit_not_counting_breaks_the_cap_with_a_replayable_trace(tmp_path, capsys):
    proofs = _by_name(prove_game(Globetrotter(2, {"cap_orbit": "not-counted"}), witness_games=0))
    proof = proofs["manufacture-respects-rover-cap"]
    assert proof.result.status == REFUTED
    run = proof.result.run
    assert run[-1]["step"] == "manufacture"
    last = run[-1]["values"]
    assert last["ground"] + last["orbit"] > last["buildings"]
    assert "enter-orbit" in [s["step"] for s in run]
    _replay_shows(proof, tmp_path, capsys, "Manufacture left 3 Rovers against 2 Buildings [GT-F5]")


def test_excluding_the_destroying_action_allows_five_actions_in_a_row(tmp_path, capsys):
    proofs = _by_name(prove_game(Globetrotter(2, {"destroying_action": "excluded"}), witness_games=0))
    proof = proofs["at-most-4-actions-in-a-row"]
    assert proof.result.status == REFUTED
    assert proof.result.run[-1]["values"]["taken"] == 5
    assert "destroy-a-treasury" in [s["step"] for s in proof.result.run]
    _replay_shows(proof, tmp_path, capsys, "player 0 takes action 5 in a row")


def test_deleting_the_treasury_cap_from_the_save_guard_turns_the_proof_into_a_refutation(monkeypatch):
    game = Globetrotter(2)
    assert prove(saved_points(game)).status == PROVED

    def can_save_without_cap(ops, saved, own_used):
        return ops.not_(own_used)  # the guard with `saved < TREASURY_CAPACITY` deleted

    with monkeypatch.context() as patch:
        patch.setattr(counters, "can_save", can_save_without_cap)
        broken = prove(saved_points(game))
        assert broken.status == REFUTED
        assert broken.counterexample["step"] == "save"
        assert broken.run[-1]["values"]["saved"] == counters.TREASURY_CAPACITY + 1
    assert prove(saved_points(game)).status == PROVED


def test_prove_json_lists_results_with_their_basis(capsys):
    assert main(["prove", "globetrotter", "--witness-games", "0", "--json"]) == 0
    results = json.loads(capsys.readouterr().out)["results"]
    assert {r["property"] for r in results} == EXPECTED
    for r in results:
        assert set(r) >= {"property", "clauses", "status", "seconds", "basis"}
        assert r["basis"] in ("ops", "refinement") and r["status"] == PROVED


def test_prove_exits_1_when_a_promised_property_is_not_proved(capsys, monkeypatch):
    monkeypatch.setattr(counters, "can_save", lambda ops, saved, own_used: ops.not_(own_used))
    assert main(["prove", "globetrotter", "--witness-games", "0"]) == 1
    assert "refuted" in capsys.readouterr().out


def test_a_game_without_a_symbolic_model_is_named(monkeypatch):
    from rulecheck import registry
    from rulecheck.core.errors import SpecError
    from tests.fixtures.pig import Pig
    from tests.fixtures.pig_declaration import PIG

    monkeypatch.setitem(registry.DECLARATIONS, "pig", PIG)
    with pytest.raises(SpecError, match="pig has no symbolic model"):
        prove_game(Pig(2))


def test_refinement_catches_a_symbolic_model_that_differs_from_the_engine():
    """Steps of an engine that lets Fortifications touch do not fit the default reading's model."""
    from rulecheck.check.proofs.prove import refinement_violations
    from rulecheck.core.trace import replay_steps
    from rulecheck.games.globetrotter.symbolic import fortifications_apart

    loose = Globetrotter(2, {"fortify_adjacency": "rover"})
    witness = _by_name(prove_game(loose, witness_games=100))["fortifications-never-adjacent"].witness
    transitions = list(replay_steps(loose, witness))
    strict_model = fortifications_apart(Globetrotter(2))
    problems = refinement_violations(strict_model, Globetrotter(2), transitions)
    assert len(problems) == 1 and problems[0].startswith("fortify")
    assert refinement_violations(fortifications_apart(loose), loose, transitions) == []


def test_contradictions_find_gt_f01_with_unsat_cores(capsys):
    assert main(["contradictions", "globetrotter", "--json"]) == 0
    answers = {a["id"]: a for a in json.loads(capsys.readouterr().out)["answers"]}
    stated = answers["as-stated"]
    assert stated["consistent"] and len(stated["witness"]["removed_triangles"]) == 14
    symmetric = answers["symmetric-14"]
    assert not symmetric["consistent"]
    assert set(symmetric["core"]) == {"removes-14", "surrounding", "symmetric"}
    assert "GT-B2" in symmetric["clauses"]
    regular = answers["three-neighbours-14"]
    assert not regular["consistent"] and "three-neighbours" in regular["core"]


def test_every_consistent_fourteen_removal_is_one_of_the_three_asymmetric_boards():
    """Enumerate every model of the stated facts: 15 boards, 3 up to the pentagon's turn."""
    import z3

    from rulecheck.geometry.planet import removed_faces
    from rulecheck.registry import declaration, make_game

    facts = declaration("globetrotter").statement_set(make_game("globetrotter"))
    v = facts.variables(z3.main_ctx())
    chosen = [s for s in facts.statements() if s.id in ("removes-14", "leaves-66", "surrounding")]
    solver = z3.Solver()
    solver.add(*(s.constraint(v) for s in chosen))
    boards = []
    while solver.check() == z3.sat:
        model = solver.model()
        removed = frozenset(t for t, r in v.items() if z3.is_true(model.eval(r, model_completion=True)))
        boards.append(removed)
        solver.add(z3.Or(*(r != model.eval(r, model_completion=True) for r in v.values())))
    assert len(boards) == 15
    named = {name: removed_faces(name) - {"P11"} for name in ("ring14-edge", "ring14-hq", "ring14-snub")}
    assert all(board in boards for board in named.values())
