"""The campaign journal: every finished task's outcome on disk as it arrives, read back by
`resume` so that only unfinished tasks run and the report is the uninterrupted run's; a
journal file that is not its task's outcome is refused by name."""

import json

import pytest

from rulecheck.check.campaign.journal import FOLDER, Journal, JournalError, task_key
from rulecheck.check.campaign.verify import BUDGETS, verify
from rulecheck.core.files import PARTIAL_SUFFIX

SMOKE = BUDGETS["smoke"]
GAME = "globot-time-force"


@pytest.fixture
def campaign(smoke_campaign):
    """A smoke campaign of one game: its folder, its verdict and its report's text."""
    out, verdict = smoke_campaign(GAME)
    return out, verdict, (out / "findings.json").read_text(), (out / "findings.md").read_text()


def test_every_task_of_the_campaign_has_its_outcome_in_the_journal(campaign):
    out, verdict, _, _ = campaign
    journal = Journal.open(out, resume=True)
    assert verdict.resumed == 0
    assert sorted(journal.recorded) == sorted(task_key(o.task) for o in verdict.outcomes)
    for outcome in verdict.outcomes:
        assert journal.outcome(outcome.task).evidence == outcome.evidence


def test_a_resumed_run_runs_only_the_missing_tasks_and_writes_the_same_report(campaign, tmp_path):
    out, verdict, report, markdown = campaign
    dropped = [o.task for o in verdict.outcomes[::3]]
    for task in dropped:
        (out / FOLDER / f"{task_key(task)}.json").unlink()
    (out / FOLDER / f".{task_key(dropped[0])}.json{PARTIAL_SUFFIX}").write_text('{"half": ')
    (out / "findings.json").unlink()
    again = verify(out, SMOKE, games=[GAME], resume=True, ledgers=tmp_path)
    assert again.resumed == len(verdict.outcomes) - len(dropped)
    assert (out / "findings.json").read_text() == report
    assert (out / "findings.md").read_text() == markdown
    assert not [p for p in (out / FOLDER).iterdir() if p.name.endswith(PARTIAL_SUFFIX)]


def test_a_run_without_resume_starts_a_new_journal(campaign, tmp_path):
    out, verdict, _, _ = campaign
    fresh = tmp_path / "fresh"
    (fresh / FOLDER).mkdir(parents=True)
    stale = fresh / FOLDER / "0123.json"
    stale.write_text("{}")
    journal = Journal.open(fresh, resume=False)
    assert journal.recorded == {} and not stale.exists()


@pytest.mark.parametrize(
    "damage, words",
    [
        (lambda text: text[: len(text) // 2].encode(), "not valid JSON"),
        (lambda text: json.dumps({"format": "other"}).encode(), "not a rulecheck-outcome file"),
        (lambda text: text.replace('"players": ', '"players": "two", "x": ').encode(), "not an outcome"),
        (lambda text: b"\xff\xfe" + text.encode(), "not UTF-8"),
    ],
    ids=["cut in half", "another format", "a field of the wrong type", "not UTF-8"],
)
def test_a_damaged_journal_file_is_refused_by_name(campaign, tmp_path, damage, words):
    out, verdict, _, _ = campaign
    copy = tmp_path / "copy"
    (copy / FOLDER).mkdir(parents=True)
    key = task_key(verdict.outcomes[0].task)
    text = (out / FOLDER / f"{key}.json").read_text()
    target = copy / FOLDER / f"{key}.json"
    target.write_bytes(damage(text))
    with pytest.raises(JournalError, match=words) as caught:
        Journal.open(copy, resume=True)
    assert str(target) in str(caught.value) and "\n" not in str(caught.value)


def test_an_outcome_filed_under_another_tasks_name_is_refused(campaign, tmp_path):
    out, verdict, _, _ = campaign
    first, second = (task_key(o.task) for o in verdict.outcomes[:2])
    (tmp_path / FOLDER).mkdir()
    (tmp_path / FOLDER / f"{second}.json").write_text((out / FOLDER / f"{first}.json").read_text())
    with pytest.raises(JournalError, match="the outcome of another task"):
        Journal.open(tmp_path, resume=True)
