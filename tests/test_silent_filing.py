"""How the silent job files what the finder finds: a finding no option decides is a silent
decision; one an option decides is evidence that the option's reading matters, filed with that
option's other evidence, never as a silent decision asking for an option that exists."""

from rulecheck.check.campaign.jobs import READING, SILENT_DECISION, Task, run_task


def test_a_finding_an_option_decides_is_that_options_reading_and_no_silent_decision():
    outcome = run_task(Task("silent", "globot-time-force", 1, seed=1, size=1, max_steps=300))
    silent = [e for e in outcome.evidence if e.check == SILENT_DECISION]
    readings = [e for e in outcome.evidence if e.check == READING]
    assert silent and readings
    assert all("decided without an option" in e.title for e in silent)
    assert all("decided by option" in e.title for e in readings)
    assert {e.subject for e in readings} >= {"passive_uses", "reserve_when_full"}
    assert all(f"{e.subject}=" in e.title for e in readings)
