"""The dead-rule search plays with the policies: a task per policy and player count, seeded, that
watches for the clauses nothing under the defaults exercised; Mechanica's plan reaches Double
Rotate (MEC-T11) there at two and three players, with a trace that replays to it; the same task
plays the same games wherever it runs."""

from __future__ import annotations

import json

import attrs

from rulecheck.check.campaign.explain import MCTS_GAMES, POLICY_GAMES, SEARCH_PLAYOUTS, dead_rules, pursuit_tasks
from rulecheck.check.campaign.jobs import RARE_RULE, Outcome, Task, run_task
from rulecheck.core.clauses import coverage
from rulecheck.core.trace import parse_trace, replay
from rulecheck.registry import DECLARATIONS, make_game


def _fuzzed(game: str, players: int, unexercised: set[str]) -> Outcome:
    covered = {c.id: 1 for c in DECLARATIONS[game].catalogue().clauses if c.id not in unexercised}
    return Outcome(Task("fuzz", game, players, seed=players, size=2, max_steps=800), coverage=covered)


def test_the_search_plays_each_policy_at_each_fuzzed_player_count_with_seeds_of_its_own():
    outcomes = [_fuzzed("mechanica", n, {"MEC-T11", "MEC-P6"}) for n in (2, 4)]
    tasks = pursuit_tasks(outcomes, ["mechanica"], size=3, max_steps=800)
    plays = {(t.subject, t.players): t for t in tasks if t.job == "play"}
    assert set(plays) == {(p, n) for p in ("greedy", "plan", f"mcts:{SEARCH_PLAYOUTS}") for n in (2, 4)}
    for (policy, players), task in plays.items():
        assert set(task.targets) == {"MEC-P6", "MEC-T11"} and task.seed == players and task.variant == ()
        assert task.size == (MCTS_GAMES if policy.startswith("mcts:") else POLICY_GAMES)
    assert {(t.subject, t.players) for t in tasks if t.job == "pursue"} == {
        (c, n) for c in ("MEC-P6", "MEC-T11") for n in (2, 4)
    }
    assert not [t for t in pursuit_tasks(outcomes[:0], ["mechanica"], 3, 800) if t.job == "play"]


def test_mechanicas_plan_reaches_double_rotate_at_two_and_three_players_and_its_trace_replays_to_it():
    for players in (2, 3):
        task = Task("play", "mechanica", players, seed=players, size=POLICY_GAMES, max_steps=800, subject="plan")
        task = attrs.evolve(task, targets=("MEC-T11",))
        outcome = run_task(task)
        [verdict] = outcome.verdicts
        assert verdict["clause"] == "MEC-T11" and verdict["policy"] == "plan" and verdict["players"] == players
        trace = parse_trace(json.dumps(verdict["trace"]))
        assert len(trace.actions) == verdict["reached"]
        game = make_game("mechanica", players)
        with coverage() as counted:
            replay(game, trace)
        assert counted.get("MEC-T11")
        assert run_task(task).verdicts == outcome.verdicts
        explained = dead_rules("mechanica", [_fuzzed("mechanica", players, {"MEC-T11"})], [outcome])
        assert [(e.check, e.subject) for e in explained] == [(RARE_RULE, "MEC-T11")]
        assert "the plan policy" in explained[0].title
