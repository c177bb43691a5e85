"""verify's balance section: its tasks under each budget, the section built from their outcomes
(seat advantage with intervals, the readings that change who wins with their figures), its
lines in findings.md, and a balance outcome read back from the campaign's journal as written."""

from __future__ import annotations

from rulecheck.check.balance.figures import Played, figures
from rulecheck.check.campaign.balance import balance_section, balance_tasks
from rulecheck.check.campaign.jobs import BALANCE, Outcome, Task, run_task
from rulecheck.check.campaign.journal import Journal
from rulecheck.check.campaign.verify import BUDGETS
from rulecheck.check.report.markdown import markdown
from rulecheck.registry import declaration


def _sample(wins_0, wins_1):
    return figures([Played((0,), False, 5, 2, 4, 1, 1.0)] * wins_0 + [Played((1,), False, 5, 2, 4, 1, 1.0)] * wins_1, 2)


def _outcome(variant, figures_):
    return Outcome(Task(BALANCE, "mechanica", 2, variant, seed=2, size=100), balance=figures_)


def _tasks(budget, game="mechanica"):
    b = BUDGETS[budget]
    return balance_tasks(game, b.balance_games, b.balance_players, b.balance_readings)


def test_the_smoke_budget_plays_the_defaults_at_two_players_and_the_others_every_reading_too():
    assert [(t.players, t.variant, t.size) for t in _tasks("smoke")] == [(2, (), 30)]
    assert [(t.players, t.variant) for t in _tasks("smoke", "globot-time-force")] == [(2, ())]  # not 1 player
    quick = _tasks("quick")
    counts = [p for p in declaration("mechanica").game.campaign_players if p >= 2]
    options = declaration("mechanica").game.option_space.options
    assert [t.players for t in quick if not t.variant] == counts
    assert len(quick) == len(counts) + sum(len(o.values) - 1 for o in options)
    assert all(t.players == counts[0] for t in quick if t.variant)


def test_the_section_names_the_readings_that_change_who_wins_with_their_figures():
    outcomes = [
        _outcome((), _sample(70, 30)),
        _outcome((("game_end", "at-once"),), _sample(68, 32)),
        _outcome((("shop_rotation", "until-full"),), _sample(30, 70)),
    ]
    [entry] = balance_section(outcomes)
    assert (entry["game"], entry["players"], entry["readings_compared"]) == ("mechanica", 2, 2)
    assert entry["figures"]["seats"][0]["wins"] == 70
    [changed] = entry["changes_who_wins"]
    assert (changed["option"], changed["value"]) == ("shop_rotation", "until-full")
    assert changed["figures"]["seats"][1]["wins"] == 70 and changed["adjusted_p"] < 0.05
    text = markdown({"findings": [], "balance": [entry]}, {})
    assert "## Balance" in text and "seat 0 70 (70.0%, 95% 60.4-78.1%)" in text
    assert "readings that change who wins: 1 of 2 compared" in text and "shop_rotation=until-full" in text


def test_a_balance_task_runs_and_its_outcome_is_read_back_from_the_journal(tmp_path):
    outcome = run_task(Task(BALANCE, "globot-time-force", 2, seed=2, size=5, max_steps=3000))
    assert outcome.balance is not None and outcome.balance.games == 5
    journal = Journal.open(tmp_path, resume=False)
    journal.write(outcome)
    assert Journal.open(tmp_path, resume=True).outcome(outcome.task) == outcome
