"""The findings report: audit files, filing evidence under audited and new ids, writing it whole."""

import json

import pytest

from rulecheck.check.findings import WITNESS, AuditEntry, Evidence, assemble, load_audit, parse_audit, write_report
from rulecheck.core.errors import SpecError
from rulecheck.games.globetrotter import Globetrotter
from rulecheck.registry import declaration

AUDIT = (
    AuditEntry("GT-F02", "ambiguity", "Shooting", ("GT-A4",), ("reading that matters:shooting",)),
    AuditEntry("GT-F09", "gap", "Loss", ("GT-E1",), ("self-loss:orbit",)),
    AuditEntry("GT-F11", "ambiguity", "Fortify", ("GT-A9",), ("broken invariant:no-adjacent",)),
)


def evidence(check, subject, players=2, variant=(), witness=None, replay="rulecheck replay " + WITNESS):
    return Evidence(
        "globetrotter", check, subject, f"{check} {subject}", (), players, variant, witness or {"trace": {}}, replay
    )


def test_evidence_is_filed_under_the_audit_id_it_bears_on_and_the_rest_numbered_after_the_audit():
    found = assemble(
        "globetrotter",
        [
            evidence("self-loss", "orbit"),
            evidence("self-loss", "decommission"),
            evidence("reading that matters", "shooting", variant=(("shooting", "W0"),)),
            evidence("non-termination", "cycle"),
            evidence("reading that matters", "shooting", variant=(("shooting", "W2"),)),
            evidence("self-loss", "orbit", players=4),
        ],
        AUDIT,
    )
    assert [(f.id, f.audited) for f in found] == [
        ("GT-F02", True),
        ("GT-F09", True),
        ("GT-F12", False),  # non-termination:cycle, then self-loss:decommission, in key order
        ("GT-F13", False),
    ]
    assert found[2].kind == "non-termination" and found[3].evidence[0].evidence.subject == "decommission"
    [shooting] = found[0].evidence
    assert shooting.under == ({"players": 2, "shooting": "W0"}, {"players": 2, "shooting": "W2"})
    assert found[1].evidence[0].under == ({"players": 2}, {"players": 4})


def test_the_report_is_written_whole_with_witness_files_named_in_the_replay_commands(tmp_path):
    table = {"table": {"name": "odds", "title": "t", "clauses": [], "columns": ["a", "b"], "rows": [[1, "1/2"]]}}
    found = assemble(
        "globetrotter",
        [
            evidence("self-loss", "orbit", witness={"trace": {"format": "rulecheck-trace"}}),
            evidence("computed table", "odds", witness=table, replay="rulecheck table globetrotter odds"),
        ],
        AUDIT,
    )
    data = write_report(found, tmp_path / "report")
    written = json.loads((tmp_path / "report" / "findings.json").read_text())
    assert written == json.loads(json.dumps(data))
    loss = next(f for f in written["findings"] if f["id"] == "GT-F09")
    path = tmp_path / "report" / "witnesses" / "GT-F09-1.json"
    assert loss["replay"] == f"rulecheck replay {path}" and loss["witness"] == {"file": str(path)}
    assert json.loads(path.read_text()) == {"format": "rulecheck-trace"}
    odds = next(f for f in written["findings"] if f["kind"] == "computed table")
    assert odds["witness"] == table and odds["options"] == [{"players": 2}]
    assert written["summary"] == {"globetrotter": {"computed table": 1, "gap": 1}}
    markdown = (tmp_path / "report" / "findings.md").read_text()
    assert "## GT-F09 (globetrotter, gap): Loss" in markdown and "| 1 | 1/2 |" in markdown
    assert not list((tmp_path / "report").rglob(".*.partial"))


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("finding = 3", "'finding' must be list, got int"),
        ('[[finding]]\nid = "F1"\nkind = "gap"\ntitle = "t"\nclauses = []\nevidence = []', "must look like GT-F01"),
        ('[[finding]]\nid = "GT-F01"\nkind = "gap"\ntitle = "t"\nclauses = []\nevidence = [1]', "lists of strings"),
        ('[[finding]]\nid = "GT-F01"\nkind = "gap"\ntitle = "t"\nclauses = []\nevidence = []\nwhy = 1', "unknown keys"),
        ("[[finding]\n", "not valid TOML"),
    ],
)
def test_a_broken_audit_file_is_named_with_its_problem(text, problem):
    with pytest.raises(SpecError, match=problem) as raised:
        parse_audit(text, "specs/x-audit.toml")
    assert "specs/x-audit.toml" in str(raised.value)


def test_the_shipped_audit_names_real_clauses_and_real_options():
    """Every clause an audited finding cites is in the catalogue, and every reading it expects
    evidence from is an option of the game."""
    audit = load_audit(declaration("globetrotter").audit)
    clauses = set(Globetrotter.catalogue().ids)
    options = {o.name for o in Globetrotter.option_space.options}
    assert {c for entry in audit for c in entry.clauses} <= clauses
    readings = {key.split(":", 1)[1] for entry in audit for key in entry.evidence if key.startswith("reading")}
    assert readings <= options
