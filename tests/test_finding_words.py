"""What the report asks of the rule designer (rulecheck/check/campaign/decide.py): every finding's
title in the rulebook's words, never the engine's field names; a decision for every finding; a
rewording proposed from a clause no rulebook line states; and a game that can go on for ever
said to be the players' choice or forced by the rules, from its replayed witness."""

import re

import pytest

from rulecheck.check.campaign.decide import advice
from rulecheck.check.campaign.jobs import CONTRADICTION, DEAD_RULE, READING
from rulecheck.check.play.playthrough import random_game
from rulecheck.check.report.findings import WITNESS, Evidence
from rulecheck.check.watch.generic import BROKEN_INVARIANT, CYCLE, RULE_GAP, SELF_LOSS
from rulecheck.core.trace import record
from rulecheck.games.globetrotter import Globetrotter
from rulecheck.registry import DECLARATIONS

FIELD_NAMES = {
    "an identifier with underscores": re.compile(r"\b[A-Za-z]+_[A-Za-z0-9_]+\b"),
    "name=value": re.compile(r"\b\w+=\S"),
    "true or false": re.compile(r"\b(?:true|false)\b"),
}
"""What the engine's words look like in a title: field names, option settings, JSON booleans."""


def engine_words(title: str) -> list[str]:
    return [f"{what}: {m.group(0)!r}" for what, pattern in FIELD_NAMES.items() for m in pattern.finditer(title)]


def test_the_patterns_catch_the_engine_words_an_old_title_had():
    old = (
        "saved_point_use=same-turn against next-turn: in the engine's guards and effects, step act may go from "
        "(taken=1, counted=1, own_used=true, ...)"
    )
    assert len(engine_words(old)) >= 4
    assert engine_words("Two readings of the rulebook play differently: whether saved points may be spent") == []


def evidence(game, check, subject, players=2, variant=(), clauses=(), witness=None, title=""):
    return Evidence(
        game, check, subject, title, clauses, players, variant, witness or {}, f"rulecheck replay {WITNESS}"
    )


def every_title(name):
    """The title of a new finding of every kind whose subjects the game's data lists, with those subjects."""
    declared = DECLARATIONS[name]
    game = declared.game(declared.game.min_players)
    clauses = {c.id: c for c in declared.catalogue().clauses}
    options = declared.game.option_space.options
    titled = []
    for option in options:
        other = next(v for v in option.values if v != option.default)
        titled.append(advice(evidence(name, READING, option.name, variant=((option.name, other),)), clauses))
        titled.append(advice(evidence(name, BROKEN_INVARIANT, "a-promise", variant=((option.name, other),)), clauses))
    titled += [advice(evidence(name, DEAD_RULE, clause), clauses) for clause in clauses]
    titled += [advice(evidence(name, SELF_LOSS, cls.verb), clauses) for cls in declared.game.action_types]
    titled += [advice(evidence(name, BROKEN_INVARIANT, p.name), clauses) for p in declared.properties]
    if declared.statements is not None:
        titled += [
            advice(evidence(name, CONTRADICTION, q.id, players=game.players), clauses)
            for q in declared.statement_set(game).questions
        ]
    return [(a.title, a.decide) for a in titled]


@pytest.mark.parametrize("name", sorted(DECLARATIONS))
def test_every_title_a_new_finding_can_get_from_the_games_data_is_in_the_rulebooks_words(name):
    said = every_title(name)
    assert said and all(title and decide for title, decide in said)
    wrong = {title: found for title, _ in said if (found := engine_words(title))}
    assert not wrong, wrong


def test_every_finding_title_of_a_smoke_verify_is_in_the_rulebooks_words_and_says_what_to_decide(smoke_campaign):
    for game in ("globot-time-force",):
        _, verdict = smoke_campaign(game)
        assert verdict.findings
        for finding in verdict.findings:
            assert not engine_words(finding.title), (finding.id, finding.title, engine_words(finding.title))
            assert finding.decide, finding.id
        kinds = {f.kind for f in verdict.findings if not f.audited}
        assert RULE_GAP in kinds, kinds


def test_a_rule_gap_the_publisher_answers_proposes_stating_the_answer():
    clauses = {c.id: c for c in DECLARATIONS["mechanica"].catalogue().clauses}
    gap = evidence(
        "mechanica",
        RULE_GAP,
        "MEC-P9",
        clauses=("MEC-P9",),
        title="make: which Start Zone hole receives another player's gift",
    )
    said = advice(gap, clauses)
    assert said.title == "The rulebook does not say: which Start Zone hole receives another player's gift"
    assert "play met it at the action make" in said.decide
    assert not clauses["MEC-P9"].lines and f"\u201c{clauses['MEC-P9'].text}\u201d (MEC-P9)" in said.proposal


def test_a_reading_names_both_values_the_option_and_where_the_rulebook_says_it():
    clauses = {c.id: c for c in DECLARATIONS["mechanica"].catalogue().clauses}
    said = advice(
        evidence("mechanica", READING, "blueprint_once", variant=(("blueprint_once", "once-in-all"),)), clauses
    )
    assert said.decide.startswith("Which reading is meant (per-player, the most literal and the engine's default, or")
    assert "no player completes one blueprint twice" in said.decide and "MEC-B4 (line 173)" in said.decide
    assert said.proposal == ""  # every clause of the option has its rulebook line: no wording to propose


def test_a_loop_the_players_chose_is_said_to_be_their_choice_with_the_steps_that_had_another_action():
    """`rulecheck play globetrotter --seed 3` repeats a position after 4 steps (the guide shows it):
    the witness cut there is a loop the players could have left."""
    game = Globetrotter(2)
    played = random_game(game, 3)
    cut = record(game, played.actions[:30])
    cycle = evidence("globetrotter", CYCLE, "cycle", witness={"trace": cut.to_data()})
    clauses = {c.id: c for c in DECLARATIONS["globetrotter"].catalogue().clauses}
    said = advice(cycle, clauses)
    assert said.title == "Play can go on for ever: a position can recur with nothing that ends the game"
    assert "the position after step 26 recurs after step 30" in said.decide
    assert re.search(r"at [1-4] of steps 27 to 30 another action was legal, so the players chose the loop", said.decide)
    assert "A rule problem if the game must end" in said.decide
