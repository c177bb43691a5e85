"""The findings report: audit files, filing evidence under audited and new ids, the ledger that
keeps new ids stable, writing it whole."""

import json
import zipfile

import attrs
import pytest

from rulecheck.check.campaign.jobs import CONTRADICTION, DEAD_RULE, READING, TABLE
from rulecheck.check.report.findings import (
    WITNESS,
    AuditEntry,
    Evidence,
    LedgerEntry,
    assemble,
    ledger_header,
    load_audit,
    new_entries,
    open_ledger,
    parse_audit,
    specs_folder,
    write_ledger,
    write_report,
)
from rulecheck.check.report.words import seen_under, witness_length
from rulecheck.check.watch.generic import KINDS
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
        {},
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
        {},
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
    assert "1. **A player can lose through their own action** (self-loss)" in markdown


def test_the_page_holds_every_finding_escaped_with_each_witness_picture_inline(tmp_path):
    found = assemble(
        "globetrotter",
        [
            evidence("self-loss", "orbit", witness={"trace": {"format": "rulecheck-trace", "steps": []}}),
            attrs.evolve(evidence("rule gap", "GT-F13", witness={"z3": {}}), title="<b>tie</b> & more"),
        ],
        AUDIT,
        {},
    )
    drawn = []

    def draw(trace):
        drawn.append(trace)
        return '<svg id="the-picture"></svg>'

    write_report(found, tmp_path / "report", draw=draw)
    page = (tmp_path / "report" / "findings.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert all(f'<h2 id="{f.id}">' in page for f in found)
    summary = page.split("<h2>Summary</h2>", 1)[1].split("</table>", 1)[0]
    assert [f'<a href="#{f.id}">{f.id}</a>' in summary for f in found] == [True] * len(found)
    assert page.index("<h2>Summary</h2>") < page.index(f'<h2 id="{found[0].id}">')
    assert "figure svg { display: block; width: 100%; height: auto; }" in page  # as wide as the text, not 36em
    assert "&lt;b&gt;tie&lt;/b&gt; &amp; more" in page and "<b>tie</b>" not in page
    assert drawn == [{"format": "rulecheck-trace", "steps": []}]
    assert page.count('<svg id="the-picture"></svg>') == 1
    assert not list((tmp_path / "report").rglob(".*.partial"))


@pytest.mark.parametrize(
    ("seen", "tried", "said"),
    [
        ([{"players": 2}], [{"players": 2}, {"players": 2, "a": "x"}], "at 2 players under the defaults"),
        (
            [{"players": 2}, {"players": 2, "a": "x"}],
            [{"players": 2}, {"players": 2, "a": "x"}],
            "at 2 players under every reading tried (2)",
        ),
        (
            [{"players": 1}, *({"players": 1, "a": v} for v in "pqrst")],
            [{"players": 1}, *({"players": 1, "a": v} for v in "pqrstu")],
            "at 1 player under every reading tried (7) but a=u",
        ),
        (
            [{"players": 3, "a": v} for v in "pqrstu"],
            [{"players": 3, "a": v} for v in "pqrstuvwxyz"],
            "at 3 players under a=p, a=q, a=r, a=s and 2 more",
        ),
    ],
)
def test_where_a_finding_was_seen_is_said_against_the_readings_tried(seen, tried, said):
    assert seen_under(seen, tried) == said


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


def ids(found):
    """Each finding's id by the key of its first piece of evidence."""
    return {f.evidence[0].evidence.key: f.id for f in found}


def test_a_key_keeps_its_ledger_id_whatever_else_the_run_finds():
    """Two runs that find different keys: every key both find has one id, and a key the ledger
    lacks is numbered after the highest of the audit and the ledger, in order of key."""
    ledger = {"self-loss:decommission": "GT-F16", "non-termination:cycle": "GT-F18"}
    small = [evidence("non-termination", "cycle"), evidence("self-loss", "decommission")]
    larger = [
        evidence("deadlock", "end"),
        evidence("self-loss", "decommission", players=4),
        evidence("dead rule", "GT-A16"),
        evidence("non-termination", "cycle"),
        evidence("self-loss", "orbit"),
    ]
    first, second = assemble("globetrotter", small, AUDIT, ledger), assemble("globetrotter", larger, AUDIT, ledger)
    assert ids(first) == {"non-termination:cycle": "GT-F18", "self-loss:decommission": "GT-F16"}
    assert ids(second) == {
        "self-loss:orbit": "GT-F09",
        "dead rule:GT-A16": "GT-F19",  # after GT-F18, the ledger's highest, in order of key
        "deadlock:end": "GT-F20",
        "non-termination:cycle": "GT-F18",
        "self-loss:decommission": "GT-F16",
    }
    assert [f.id for f in second] == ["GT-F09", "GT-F16", "GT-F18", "GT-F19", "GT-F20"]
    assert new_entries(first, ledger) == ()
    assert new_entries(second, ledger) == (
        LedgerEntry("GT-F19", "dead rule:GT-A16"),
        LedgerEntry("GT-F20", "deadlock:end"),
    )


def test_a_ledger_key_the_audit_comes_to_list_is_filed_under_the_audit_and_its_id_is_not_given_again():
    ledger = {"self-loss:orbit": "GT-F16"}
    found = assemble("globetrotter", [evidence("self-loss", "orbit"), evidence("deadlock", "end")], AUDIT, ledger)
    assert ids(found) == {"self-loss:orbit": "GT-F09", "deadlock:end": "GT-F17"}


LEDGER = "globetrotter-ledger.toml"


def test_verify_appends_new_keys_to_the_users_ledger_and_the_next_run_reuses_them(tmp_path):
    shipped, mine = tmp_path / "shipped", tmp_path / "mine"
    shipped.mkdir()
    mine.mkdir()
    runs = [
        [evidence("self-loss", "decommission"), evidence("non-termination", "cycle")],
        [evidence("deadlock", "end"), evidence("self-loss", "decommission")],
        [evidence("non-termination", "cycle"), evidence("deadlock", "end")],
    ]
    seen = []
    for run in runs:
        ledger = open_ledger("globetrotter", LEDGER, AUDIT, shipped, mine)
        assert ledger.target == mine / LEDGER
        found = assemble("globetrotter", run, AUDIT, ledger.ids)
        written = write_ledger(ledger, new_entries(found, ledger.ids))
        seen.append((ids(found), written, (mine / LEDGER).read_text()))
    assert [s[0] for s in seen] == [
        {"non-termination:cycle": "GT-F12", "self-loss:decommission": "GT-F13"},
        {"deadlock:end": "GT-F14", "self-loss:decommission": "GT-F13"},
        {"deadlock:end": "GT-F14", "non-termination:cycle": "GT-F12"},
    ]
    assert [s[1] for s in seen] == [True, True, False]  # the last run gave no new id
    first, second, third = (s[2] for s in seen)
    assert first.startswith(ledger_header("globetrotter")) and second.startswith(first) and third == second
    assert second.endswith('[[finding]]\nid = "GT-F14"\nkey = "deadlock:end"\n')
    assert not list(mine.glob(".*.partial")) and not list(shipped.iterdir())


SHIPPED = ledger_header("globetrotter") + '\n[[finding]]\nid = "GT-F12"\nkey = "non-termination:cycle"\n'


def zipped_specs(tmp_path, text=SHIPPED):
    """A read-only specs folder, as an installed package may have: a folder in a zip."""
    package = tmp_path / "package.zip"
    with zipfile.ZipFile(package, "w") as archive:
        archive.writestr(f"specs/{LEDGER}", text)
    return zipfile.Path(package, "specs/")


def test_without_a_ledger_folder_nothing_is_written_and_a_new_key_gets_a_provisional_id(tmp_path):
    """The shipped ledger is only read: its keys keep their ids; every other new key gets an id of
    the run (GT-N01, ...), which no ledger records, so no run writes anything."""
    ledger = open_ledger("globetrotter", LEDGER, AUDIT, zipped_specs(tmp_path), None)
    assert ledger.target is None
    run = [evidence("self-loss", "decommission"), evidence("non-termination", "cycle"), evidence("deadlock", "end")]
    found = assemble("globetrotter", run, AUDIT, ledger.ids, permanent=False)
    assert [(f.id, f.provisional) for f in found] == [("GT-F12", False), ("GT-N01", True), ("GT-N02", True)]
    assert ids(found) == {
        "non-termination:cycle": "GT-F12",
        "deadlock:end": "GT-N01",
        "self-loss:decommission": "GT-N02",
    }
    assert new_entries(found, ledger.ids) == ()
    assert not write_ledger(ledger, new_entries(found, ledger.ids))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["package.zip"]


def test_a_users_new_ledger_starts_from_the_shipped_one_and_numbers_after_it(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    ledger = open_ledger("globetrotter", LEDGER, AUDIT, zipped_specs(tmp_path), mine)
    found = assemble(
        "globetrotter", [evidence("non-termination", "cycle"), evidence("deadlock", "end")], AUDIT, ledger.ids
    )
    assert ids(found) == {"non-termination:cycle": "GT-F12", "deadlock:end": "GT-F13"}
    assert write_ledger(ledger, new_entries(found, ledger.ids))
    assert (mine / LEDGER).read_text() == SHIPPED + '\n[[finding]]\nid = "GT-F13"\nkey = "deadlock:end"\n'


def entries(*pairs):
    return "".join(f'[[finding]]\nid = "{i}"\nkey = "{k}"\n' for i, k in pairs)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (entries(("GT-F16", "deadlock:end"), ("GT-F16", "self-loss:x")), "finding #2: id GT-F16 repeats"),
        (entries(("GT-F16", "deadlock:end"), ("GT-F17", "deadlock:end")), "#2: key 'deadlock:end' is given two ids"),
        (entries(("GT-F16", "deadlock:end"), ("GT-F09", "self-loss:x")), "#2: id GT-F09 is an audited finding's id"),
        (entries(("GT-F16", "deadlock:end"), ("XY-F17", "self-loss:x")), "#2: id XY-F17 must start with GT-F"),
        (entries(("F16", "deadlock:end")), "finding #1: id 'F16' must look like GT-F16"),
        (entries(("GT-F16", "deadlock")), "finding #1: key 'deadlock' must look like CHECK:SUBJECT"),
        ('[[finding]]\nid = "GT-F16"\n', "finding #1: missing key 'key'"),
        ('[[finding]]\nid = 16\nkey = "deadlock:end"\n', "finding #1: 'id' must be str, got int"),
        (entries(("GT-F16", "deadlock:end")) + "seen = 1\n", "finding #1: unknown keys \\['seen'\\]"),
        ("finding = 3", "'finding' must be list, got int"),
        ("ids = []", "unknown keys \\['ids'\\]; a ledger holds only"),
        ("[[finding]\n", "not valid TOML"),
    ],
)
def test_a_broken_ledger_is_named_with_its_file_entry_and_problem(tmp_path, text, problem):
    (tmp_path / LEDGER).write_text(text)
    with pytest.raises(SpecError, match=problem) as raised:
        open_ledger("globetrotter", LEDGER, AUDIT, tmp_path, None)
    assert str(raised.value).startswith(f"specs/{LEDGER}")


def test_a_users_ledger_that_contradicts_the_shipped_one_names_both_files(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / LEDGER).write_text(entries(("GT-F12", "self-loss:x")))
    with pytest.raises(
        SpecError, match=f"^{mine / LEDGER}: finding #1: id GT-F12 repeats \\(specs/{LEDGER}: finding #1"
    ):
        open_ledger("globetrotter", LEDGER, AUDIT, zipped_specs(tmp_path), mine)


def test_the_shipped_ledger_continues_the_shipped_audit():
    """The committed ledger reads cleanly against the committed audit, numbers on from the audit's
    highest id without a gap, and names only kinds of check verify runs."""
    audit = load_audit(declaration("globetrotter").audit)
    ledger = open_ledger("globetrotter", declaration("globetrotter").ledger, audit, specs_folder(), None)
    highest = max(int(e.id[4:]) for e in audit)
    assert [int(e.id[4:]) for e in ledger.entries] == list(range(highest + 1, highest + 1 + len(ledger.entries)))
    assert {e.key.split(":")[0] for e in ledger.entries} <= KINDS | {READING, DEAD_RULE, CONTRADICTION, TABLE}


def test_a_witness_says_shrunk_from_only_when_shrinking_made_it_shorter():
    steps = [{}] * 20
    assert witness_length({"steps": steps, "shows": {"shrunk_from": 20}}) == "a game of 20 steps"
    assert witness_length({"steps": steps, "shows": {"shrunk_from": 185}}) == "a game of 20 steps, shrunk from 185"
    assert witness_length({"steps": steps[:1], "shows": None}) == "a game of 1 step"
    assert witness_length({"steps": []}) == "the initial state"
