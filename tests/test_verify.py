"""`rulecheck verify` on a small campaign: the report, each item the evidence that produced it and
its replay command showing that evidence, ids that stay put between budgets and task subsets, and
the same results from local processes and from a Dask cluster as from a serial run."""

import json
import re
import shlex
import shutil
from fractions import Fraction
from pathlib import Path

import attrs
import pytest

from rulecheck.check.campaign.explain import check_audit_keys, dead_rules, not_reproduced
from rulecheck.check.campaign.jobs import DEAD_RULE, NOT_REACHED, RARE_RULE, SILENT_DECISION, Outcome, Task
from rulecheck.check.campaign.verify import Budget, tasks_for, verify, with_shrunk_witnesses
from rulecheck.check.report.findings import WITNESS, load_audit, parse_audit
from rulecheck.check.watch.generic import BROKEN_INVARIANT
from rulecheck.cli import main
from rulecheck.core.errors import SpecError
from rulecheck.core.exact import readable
from rulecheck.core.trace import load_trace, replay
from rulecheck.model.tables import Predicate
from rulecheck.registry import DECLARATIONS, make_game
from tests.readable_replays import every_replay_is_readable

TINY = Budget(
    "tiny",
    games=3,
    variant_games=1,
    max_steps=300,
    variant_steps=300,
    explore_states=300,
    reading_seeds=2,
    directed_games=1,
    lockstep_states=10,
    pursuit_games=1,
    witness_games=0,
    self_checks=1,
    variant_players=1,
    proof_players=1,
    shrink_steps=2_000,
)
SWEPT = ("fortify_adjacency", "shooting", "treasury_spend")
SLOW_TABLES = DECLARATIONS["globetrotter"].tests().slow_tables  # tested in test_globetrotter_numbers


def small(task: Task) -> bool:
    """Two players; every option but three left at its default; the fast tables."""
    return task.players == 2 and all(name in SWEPT for name, _ in task.variant) and task.subject not in SLOW_TABLES


LEDGER = "globetrotter-ledger.toml"


@pytest.fixture(scope="module")
def no_shipped_ledgers(tmp_path_factory):
    """The shipped ledgers left out (an empty specs folder), so that new ids start after the audit's."""
    from rulecheck.check.campaign import verify as campaign

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(campaign, "specs_folder", lambda: tmp_path_factory.mktemp("shipped"))
        yield


@pytest.fixture(scope="module")
def report(tmp_path_factory, no_shipped_ledgers):
    """The tiny campaign's report, with the user's ledger (empty at the start) it wrote."""
    out, specs = tmp_path_factory.mktemp("report"), tmp_path_factory.mktemp("specs")
    verdict = verify(out, TINY, games=["globetrotter"], select=small, ledgers=specs)
    return out, verdict, specs


def test_the_report_holds_audited_and_new_findings_with_every_required_field(report):
    out, verdict, _ = report
    assert verdict.defects == ()
    data = json.loads((out / "findings.json").read_text())
    ids = {f["id"] for f in data["findings"]}
    assert {"GT-F01", "GT-F02", "GT-F10", "GT-F11", "GT-F12"} <= ids
    for finding in data["findings"]:
        assert {"id", "game", "kind", "title", "clauses", "options", "witness", "replay"} <= set(finding)
    new = [f for f in data["findings"] if not f["audited"]]
    assert new and all(int(f["id"][4:]) > 15 for f in new)
    assert "non-termination" in {f["kind"] for f in new}
    assert all(f["decide"] for f in data["findings"])
    notes = data["unreached"]
    assert notes and {n["check"] for n in notes} <= {NOT_REACHED, RARE_RULE} and not any("id" in n for n in notes)
    markdown = (out / "findings.md").read_text()
    assert "## GT-F11 (globetrotter, ambiguity): Next to what must a Fortification be placed?" in markdown
    summary, rest = markdown.split("\n## Summary\n\n", 1)[1].split("\n\n", 1)
    assert [line.split(" | ")[0] for line in summary.splitlines()[2:]] == [
        f"| [{f['id']}](#{f['id']})" for f in data["findings"]
    ]
    assert all(f'<a id="{f["id"]}"></a>' in rest for f in data["findings"])
    unreached = markdown.split("## Not reached within this budget", 1)[1]
    assert all(f"| {n['subject']} | globetrotter |" in unreached for n in notes)


def test_the_page_draws_the_last_position_of_every_witness_trace(report):
    """findings.html: every finding, and beside each witness trace the picture of its last position,
    whose marks are the pieces of that position (read back from the SVG's text) and whose title
    says the step."""
    out, _, _ = report
    data = json.loads((out / "findings.json").read_text())
    page = (out / "findings.html").read_text()
    assert all(f'<h2 id="{f["id"]}">' in page for f in data["findings"])
    files = [item["witness"]["file"] for f in data["findings"] for item in f["evidence"] if "file" in item["witness"]]
    assert files and page.count("<figure><svg") == len(files)
    trace = load_trace(Path(files[0]))
    game = make_game(trace.game, trace.players, dict(trace.options))
    state = replay(game, trace)
    first = page.split("<figure><svg", 1)[1].split("</svg>", 1)[0]
    marks = [f">R{rover.hp}<" for rover in state.rovers if rover.space is not None]
    assert marks and all(mark in first for mark in marks)
    assert f"Globetrotter, step {len(trace.actions)} of the witness: " in first  # the title says which step


def test_fortify_adjacency_is_found_by_a_proof_and_by_a_reading_under_the_rover_value(report):
    out, _, _ = report
    data = json.loads((out / "findings.json").read_text())
    [adjacency] = [f for f in data["findings"] if f["id"] == "GT-F11"]
    checks = {e["check"]: e for e in adjacency["evidence"]}
    assert {"players": 2, "fortify_adjacency": "rover"} in checks["broken invariant"]["options"]
    assert "reading that matters" in checks


def produced(verdict):
    """Every piece of evidence the campaign produced, in the order verify files it, each witness
    that was shrunk in place of the first."""
    pursued = [o for o in verdict.outcomes if o.task.job in ("pursue", "play")]
    shrunk = [o for o in verdict.outcomes if o.task.job == "shrink"]
    found = [e for o in verdict.outcomes if o.task.job not in ("pursue", "play", "shrink") for e in o.evidence]
    return with_shrunk_witnesses(found, shrunk) + dead_rules("globetrotter", verdict.outcomes, pursued)


def trace_step_shows(evidence, shown):
    """`rulecheck replay`: the witness's last step shows the issue: its check and message (for a broken
    invariant, which may come from a proof with a title of its own: the property)."""
    if evidence.check == RARE_RULE:  # the witness's last step exercises the clause
        [line] = [line for line in shown.splitlines() if line.startswith("clauses the last step exercised: ")]
        return evidence.subject in line.split(": ", 1)[1].split(", ")
    last = len(evidence.witness["trace"]["steps"])
    [line] = [line for line in shown.splitlines() if line.startswith(f"at step {last} it shows: ")]
    if evidence.check == BROKEN_INVARIANT:
        return f"shows: {evidence.subject} broken" in line
    return line.endswith(f"shows: {evidence.check}: {evidence.title} [{', '.join(evidence.clauses)}]")


def divergence_shows(evidence, shown):
    """`rulecheck compare`: the readings part where the reading check found them part."""
    divergence = evidence.title.split(": ", 1)[1]
    first = shown.splitlines()[0]
    return first.startswith("at step ") and first.endswith(f": {divergence}")


def symbolic_shows(evidence, shown):
    """`rulecheck symbolic-compare`: the divergence the reading check found in the engine's guards."""
    described = evidence.title.split("in the engine's guards and effects, ", 1)[1]
    return any(line.startswith(f"parts: {described} [") for line in shown.splitlines())


def table_cell(cell):
    """A cell of a table witness as the command prints it: an exact fraction with its decimal beside it."""
    if isinstance(cell, str) and re.fullmatch(r"-?\d+/\d+", cell):
        return readable(Fraction(cell))
    return str(cell)


def table_shows(evidence, shown):
    """`rulecheck table`: the table's title, then its columns and every row, as the witness holds them
    (compared word by word: the columns are padded and a cell may be empty), then what each predicate
    that holds saw, as the evidence says."""
    table = evidence.witness["table"]
    title, *lines = shown.splitlines()
    rows = [line for line in lines if not line.startswith("shows (")]
    shows = [line for line in lines if line.startswith("shows (")]
    words = [" ".join(map(table_cell, row)).split() for row in (table["columns"], *table["rows"])]
    seen = [f"shows ({s['predicate']}): {s['seen']}" for s in evidence.witness["shows"]]
    return title.startswith(f"{table['title']} [") and [line.split() for line in rows] == words and shows == seen


def contradiction_shows(evidence, shown):
    """`rulecheck contradictions`: this question's line, with the core its witness holds."""
    core = ", ".join(evidence.witness["z3"]["unsat_core"])
    return any(
        line.startswith(f"CONTRADICTION {evidence.title}") and f": {core} cannot" in line for line in shown.splitlines()
    )


def dead_rule_shows(evidence, shown):
    """`rulecheck fuzz`: the clause is among those never reached, as in the coverage the witness holds."""
    [never] = [line.split("never: ")[1] for line in shown.splitlines() if line.startswith("clauses reached:")]
    return evidence.subject in never.split(", ") and evidence.subject not in evidence.witness["coverage"]["counts"]


def refutation_shows(evidence, shown):
    """`rulecheck prove`: the property's line says refuted."""
    return any(line.startswith("refuted") and f"  {evidence.subject} [" in line for line in shown.splitlines())


def silent_shows(evidence, shown):
    """`rulecheck silent`: the finding's line, its subject then its title, as the finder found it; a
    finding an option decides is filed as that option's reading, and its line names the option."""
    lines = shown.splitlines()
    if evidence.check == SILENT_DECISION:
        return f"{evidence.subject}: {evidence.title}" in lines
    deciding = evidence.title.rpartition("(decided by option ")[2]
    return f"{evidence.subject}=" in deciding and any(line.endswith(f": {evidence.title}") for line in lines)


SHOWS = {
    "silent": silent_shows,
    "replay": trace_step_shows,
    "compare": divergence_shows,
    "symbolic-compare": symbolic_shows,
    "table": table_shows,
    "contradictions": contradiction_shows,
    "fuzz": dead_rule_shows,
    "explore": dead_rule_shows,
    "prove": refutation_shows,
}


def test_every_item_of_the_report_is_the_evidence_that_produced_it_and_its_replay_shows_that_evidence(report, capsys):
    out, verdict, _ = report
    data = json.loads((out / "findings.json").read_text())
    evidence = produced(verdict)
    commands = set()
    ran = {}  # each distinct replay command runs once: the dead rules of one setting share a fuzz command
    notes = {"id": "the rules not reached", "evidence": data["unreached"]}
    for finding in [*data["findings"], notes]:
        for item in finding["evidence"]:
            pieces = [e for e in evidence if (e.check, e.subject) == (item["check"], item["subject"])]
            assert pieces, f"{finding['id']}: no check produced {item['check']}:{item['subject']}"
            first = pieces[0]
            assert (item["title"], item["clauses"]) == (first.title, list(first.clauses))
            settings = [{"players": e.players, **dict(e.variant)} for e in pieces]
            assert item["options"] == [s for i, s in enumerate(settings) if s not in settings[:i]]
            if "trace" in first.witness:
                path = item["witness"]["file"]
                assert json.loads(Path(path).read_text()) == first.witness["trace"]
                assert item["replay"] == first.replay.replace(WITNESS, path)
            else:
                assert (item["witness"], item["replay"]) == (first.witness, first.replay)
            program, command, *args = shlex.split(item["replay"])
            assert program == "rulecheck"
            if item["replay"] not in ran:
                capsys.readouterr()
                code = main([command, *args])
                ran[item["replay"]] = code, capsys.readouterr().out
            code, shown = ran[item["replay"]]
            assert code in (0, 1), item["replay"]
            assert SHOWS[command](first, shown), f"{finding['id']}: {item['replay']} does not show {item['title']}"
            commands.add(command)
    assert commands >= {"replay", "compare", "symbolic-compare", "table", "contradictions", "fuzz"}


def test_every_findings_replay_cites_a_clause_shows_the_position_at_its_step_and_fits_a_screen(report, capsys):
    out, _, _ = report
    assert {f["game"] for f in json.loads((out / "findings.json").read_text())["findings"]} == {"globetrotter"}
    every_replay_is_readable(out, capsys)


SMALLER = attrs.evolve(TINY, name="smaller", games=1, explore_states=30)


def ids(out):
    """Each finding's id, by the key of each piece of its evidence."""
    data = json.loads((out / "findings.json").read_text())
    return {f"{e['check']}:{e['subject']}": f["id"] for f in data["findings"] for e in f["evidence"]}


def test_a_smaller_budget_on_other_tasks_gives_every_finding_both_runs_show_the_same_id(report, tmp_path):
    """The second run drops proofs and the jobs that file none of the first run's evidence (the
    players' policies, pursuit, the silent-decision finder, balance), and sweeps one more option
    (saved_point_use, whose reading no audited finding lists): the keys both runs show keep their
    ids, and its new key is numbered after the first run's highest and appended to the user's
    ledger."""
    out, _, specs = report
    ledgers = tmp_path / "specs"
    shutil.copytree(specs, ledgers)
    before = (ledgers / LEDGER).read_text()
    swept = (*SWEPT, "saved_point_use")
    verdict = verify(
        tmp_path / "report",
        SMALLER,
        games=["globetrotter"],
        select=lambda task: (
            small(task) | (task.players == 2 and task.subject == "saved_point_use")
            and task.job not in ("prove", "play", "pursue", "silent", "balance")
            and all(name in swept for name, _ in task.variant)
        ),
        ledgers=ledgers,
    )
    first, second = ids(out), ids(tmp_path / "report")
    shared, added = first.keys() & second.keys(), sorted(second.keys() - first.keys())
    assert {key: second[key] for key in shared} == {key: first[key] for key in shared}
    new_in_both = {key for key in shared if int(first[key][4:]) > 15}
    assert new_in_both and "reading that matters:saved_point_use" in added
    [recorded] = verdict.ledgers
    assert [e.key for e in recorded.added] == added and recorded.ledger.target == ledgers / LEDGER
    assert min(int(e.id[4:]) for e in recorded.added) > max(int(first[key][4:]) for key in first)
    appended = "".join(f'\n[[finding]]\nid = "{e.id}"\nkey = "{e.key}"\n' for e in recorded.added)
    assert (ledgers / LEDGER).read_text() == before + appended


TABLES_ONLY = ("boards", "shooting-readings")


def tables_only(task: Task) -> bool:
    return task.job == "table" and task.subject in TABLES_ONLY


def test_a_table_is_evidence_only_where_its_predicate_holds_and_an_unproduced_finding_is_not_reproduced(
    tmp_path, monkeypatch
):
    data = verify(tmp_path / "shown", TINY, games=["globetrotter"], select=tables_only).data
    assert {f["id"] for f in data["findings"]} == {"GT-F01", "GT-F02"}
    for finding in data["findings"]:
        [item] = finding["evidence"]
        shows = item["witness"]["shows"]
        assert shows and all(s["seen"] in item["title"] for s in shows)
    absent = {entry["id"] for entry in data["not_reproduced"]}
    assert "GT-F01" not in absent and {"GT-F08", "GT-F12"} <= absent
    [f08] = [entry for entry in data["not_reproduced"] if entry["id"] == "GT-F08"]
    assert f08["searched"] == {"computed table:earliest-build": "no task ran"} and f08["budget"] == "tiny"

    declared = DECLARATIONS["globetrotter"]
    blind = Predicate("never", lambda table: None)
    tables = dict(declared.tables)
    tables["boards"] = lambda game, progress: attrs.evolve(
        declared.tables["boards"](game, progress), predicates=(blind,)
    )
    monkeypatch.setitem(DECLARATIONS, "globetrotter", attrs.evolve(declared, tables=tables))
    data = verify(tmp_path / "blind", TINY, games=["globetrotter"], select=tables_only).data
    assert {f["id"] for f in data["findings"]} == {"GT-F02"}
    [f01] = [entry for entry in data["not_reproduced"] if entry["id"] == "GT-F01"]
    assert f01["searched"]["computed table:boards"] == "1 table task"
    assert "### GT-F01 (globetrotter, contradiction)" in (tmp_path / "blind" / "findings.md").read_text()


@pytest.mark.parametrize(
    "key, message",
    [
        ("computed table:odds", "globetrotter has no computed table subject 'odds'"),
        ("reading that matters:colour", "globetrotter has no reading that matters subject 'colour'"),
        ("table:boards", "no check is called 'table'"),
    ],
)
def test_an_audit_key_no_check_can_produce_is_an_error_naming_the_finding_and_the_key(key, message):
    audit = parse_audit(
        f'[[finding]]\nid = "GT-F01"\nkind = "gap"\ntitle = "?"\nclauses = []\nevidence = ["{key}"]\n', "audit"
    )
    with pytest.raises(SpecError, match=re.escape(f"GT-F01: evidence {key!r}: {message}")):
        check_audit_keys("globetrotter", audit)


def test_every_declared_audit_names_only_keys_its_checks_can_produce():
    for name, declared in DECLARATIONS.items():
        check_audit_keys(name, load_audit(declared.audit))


def test_a_dead_rule_is_unreachable_where_a_whole_state_space_was_explored_rare_where_a_search_reached_it():
    """Only the first is a finding; a rare rule and one not reached are notes of coverage. A search
    policy's game that reaches a clause makes it rare too, and a dead rule's witness and a rule not
    reached name every policy that played, with its budget."""
    clauses = [c.id for c in DECLARATIONS["globetrotter"].catalogue().clauses]
    covered = {c: 1 for c in clauses if c not in ("GT-A16", "GT-E2", "GT-T4")}
    fuzzing = Outcome(Task("fuzz", "globetrotter", 2, size=1, max_steps=10), coverage=covered)
    whole = Outcome(Task("explore", "globetrotter", 4, size=50), coverage=covered, exhaustive_states=42)
    fuzz_4 = Outcome(Task("fuzz", "globetrotter", 4, size=1, max_steps=10), coverage=covered)
    trace = {"format": "rulecheck-trace", "steps": []}
    played = {"format": "rulecheck-trace", "steps": ["played"]}
    chased = [
        Outcome(
            Task("pursue", "globetrotter", 2, size=3, max_steps=9, subject="GT-E2"),
            verdicts=({"clause": "GT-E2", "players": 2, "reached": 7, "trace": trace},),
        ),
        Outcome(
            Task("pursue", "globetrotter", 2, size=3, max_steps=9, subject="GT-T4"),
            verdicts=({"clause": "GT-T4", "players": 2},),
        ),
        Outcome(
            Task("play", "globetrotter", 2, size=4, max_steps=9, subject="greedy", targets=("GT-A16", "GT-T4")),
            verdicts=({"clause": "GT-A16", "players": 2, "policy": "greedy", "reached": 5, "trace": played},),
        ),
        Outcome(
            Task("play", "globetrotter", 2, size=1, max_steps=9, subject="mcts:2", targets=("GT-A16", "GT-T4")),
        ),
    ]
    found = {(e.subject, e.players): e for e in dead_rules("globetrotter", [fuzzing, whole, fuzz_4], chased)}
    assert set(found) == {(c, n) for c in ("GT-A16", "GT-E2", "GT-T4") for n in (2, 4)}
    fuzzed = "random: 2 fuzzed games of up to 10 actions at 2, 4 players"
    for clause in ("GT-A16", "GT-E2", "GT-T4"):
        assert found[(clause, 4)].check == DEAD_RULE
        assert found[(clause, 4)].title.startswith("A rule that can never apply at 4 players: an exploration")
        assert f"all 42 positions and none applied {clause}" in found[(clause, 4)].title
        assert found[(clause, 4)].witness["policies"][0] == fuzzed
    assert found[("GT-T4", 4)].witness["policies"] == [
        fuzzed,
        "clause-directed: 3 games of up to 9 actions at each of 2 players",
        "greedy: 4 games of up to 9 actions at each of 2 players",
        "mcts:2: 1 game of up to 9 actions at each of 2 players",
    ]
    rare = found[("GT-E2", 2)]
    assert rare.check == RARE_RULE and rare.witness == {"trace": trace}
    assert rare.title.startswith("reached only by a game of the clause-directed policy at 2 players, after 7 actions")
    by_policy = found[("GT-A16", 2)]
    assert by_policy.check == RARE_RULE and by_policy.witness == {"trace": played}
    assert by_policy.title.startswith("reached only by a game of the greedy policy at 2 players, after 5 actions")
    unreached = found[("GT-T4", 2)]
    assert unreached.check == NOT_REACHED
    assert unreached.title.startswith(f"not reached within this budget by any policy that played: {fuzzed}; ")
    assert unreached.witness["policies"] == found[("GT-T4", 4)].witness["policies"]
    for policy in unreached.witness["policies"]:
        assert policy in unreached.title


def test_an_audit_entry_citing_a_silent_decision_is_accepted_and_reported_when_not_reproduced():
    audit = parse_audit(
        '[[finding]]\nid = "MEC-F90"\nkind = "gap"\ntitle = "?"\nclauses = ["MEC-T12"]\n'
        'evidence = ["silent decision:MEC-T12:demolish"]\n',
        "audit",
    )
    check_audit_keys("mechanica", audit)
    tasks = tasks_for("mechanica", TINY)
    [missing] = not_reproduced("mechanica", audit, [], tasks, "tiny")
    assert missing["searched"] == {"silent decision:MEC-T12:demolish": "1 silent task"}
    wrong = parse_audit(
        '[[finding]]\nid = "MEC-F90"\nkind = "gap"\ntitle = "?"\nclauses = []\n'
        'evidence = ["silent decision:MEC-T12:fly"]\n',
        "audit",
    )
    with pytest.raises(SpecError, match="mechanica has no silent decision subject 'MEC-T12:fly'"):
        check_audit_keys("mechanica", wrong)
