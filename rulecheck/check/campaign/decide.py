"""What each finding asks the rule designer to decide, in the rulebook's words.

Models: for each piece of evidence, by its kind of check, the decision it puts to the designer
and, where the clause data carries the words, a proposed rewording; all of it built from the
evidence (its subject, option values, witness) and the game's declared data: the clauses'
sentences and lines (specs/<game>.toml), each option's one-line description, the statements'
sentences, the properties' descriptions. A reading that matters asks which reading is meant;
a rule gap asks what the rules say there; statements that cannot all hold ask which gives way;
a self-loss asks whether the action is allowed when it loses; a game that can go on for ever
is replayed to say whether the players chose the loop (another action was legal at some step
of it) or the rules forced it (a rule problem either way: nothing ends it); a dead rule asks
whether the clause is meant to apply; a silent decision asks for an option or the sentence
that forces it. A rewording is proposed where a clause involved is one
no rulebook line states (a publisher's fact or FAQ answer): the proposal is to state it. A new
finding's title is said the same way, never in the engine's field names.

Leaves out: judging the rulebook (the designer decides) and proposing words the data does not
hold: where no clause carries them, the decision names the clauses to reword and stops there.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

import attrs

from rulecheck.check.campaign.jobs import CONTRADICTION, DEAD_RULE, READING, SILENT_DECISION, TABLE
from rulecheck.check.report.findings import Evidence, Finding
from rulecheck.check.watch.generic import BROKEN_INVARIANT, CYCLE, DEADLOCK, RULE_GAP, SELF_LOSS
from rulecheck.core.clauses import Clause
from rulecheck.core.game import CHANCE
from rulecheck.core.trace import parse_trace, replay_steps
from rulecheck.registry import declaration, make_game

FINDING_REFERENCE: Final = re.compile(r"^[A-Z]+-F\d+(?: \([^)]*\))?: ")
"""An option description's opening reference to the finding it settles (`MEC-F08 (i): `), which
the description's words do not need."""


SILENT: Final = "the rulebook does not say "
"""How a rule gap's own words may open, which the report's words already say."""


@attrs.frozen
class Advice:
    """What one piece of evidence asks: the decision, a rewording (empty: none the data
    carries), and, for a new finding, its title in the rulebook's words."""

    decide: str
    proposal: str
    title: str


def _plain(description: str) -> str:
    return FINDING_REFERENCE.sub("", description)


def _lines(clause: Clause) -> str:
    """Where the rulebook says `clause`: `line 20`, `lines 30-36`, `lines 46-54` (runs of lines
    by twos, as a rulebook written one sentence a line pair has them), or that no line does."""
    if not clause.lines:
        return "no line of the rulebook states it"
    runs: list[list[int]] = []
    for line in sorted(clause.lines):
        if runs and line - runs[-1][-1] <= 2:
            runs[-1].append(line)
        else:
            runs.append([line])
    said = ", ".join(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs)
    return f"line{'s' if len(clause.lines) > 1 else ''} {said}"


def _stated(ids: Sequence[str], clauses: Mapping[str, Clause]) -> str:
    """`ids` with where the rulebook says each: `MEC-B3 (line 171), MEC-B4 (line 173)`."""
    return ", ".join(f"{i} ({_lines(clauses[i])})" if i in clauses else i for i in ids)


def _unstated(ids: Sequence[str], clauses: Mapping[str, Clause]) -> str:
    """A proposal to state the clauses of `ids` that no rulebook line states, or empty."""
    implicit = [clauses[i] for i in ids if i in clauses and not clauses[i].lines]
    said = "; ".join(f"\u201c{c.text}\u201d ({c.id})" for c in implicit)
    return f"Add to the rulebook, where that is the answer meant: {said}" if implicit else ""


def _reading(item: Evidence, clauses: Mapping[str, Clause]) -> Advice:
    option = declaration(item.game).game.option_space.get(item.subject)
    value = dict(item.variant).get(item.subject, "another value")
    words = _plain(option.description)
    decide = (
        f"Which reading is meant ({option.default}, the most literal and the engine's default, or {value}): "
        f"{words}; then say it in {_stated(option.clauses, clauses)}"
    )
    return Advice(decide, _unstated(option.clauses, clauses), f"Two readings of the rulebook play differently: {words}")


def _gap(item: Evidence, clauses: Mapping[str, Clause]) -> Advice:
    where, _, detail = item.title.partition(": ")
    detail = detail.removeprefix(SILENT)  # a gap that says so itself
    met = "when the legal actions are listed" if where == "the legal actions" else f"at the action {where}"
    cited = [c for c in item.clauses if c in clauses]
    decide = f"What the rules say here, which the rulebook does not: {detail} (play met it {met})"
    if cited:
        decide += f"; the nearest sentences are {_stated(cited, clauses)}"
    return Advice(decide, _unstated(item.clauses, clauses), f"The rulebook does not say: {detail}")


def _contradiction(item: Evidence, clauses: Mapping[str, Clause]) -> Advice:
    declared = declaration(item.game)
    facts = declared.statement_set(declared.game(item.players))
    [question] = [q for q in facts.questions if q.id == item.subject]
    said = {s.id: s.text for s in facts.statements()}
    core = item.witness.get("z3", {}).get("unsat_core", question.statements)
    statements = "; ".join(f"\u201c{said.get(s, s)}\u201d" for s in core)
    decide = f"Which of these statements gives way ({question.title}): {statements}"
    if item.clauses:
        decide += f"; then reword {_stated(item.clauses, clauses)} to match"
    title = f"Statements of the rulebook cannot all hold in {question.title}"
    return Advice(decide, _unstated(item.clauses, clauses), title)


def _self_loss(item: Evidence, clauses: Mapping[str, Clause]) -> Advice:
    where = f" ({_stated(item.clauses, clauses)})" if item.clauses else ""
    decide = (
        f"Whether a player may {item.subject} when it makes them lose at once{where}: "
        "if not, the rule for it should forbid it; if so, the rulebook may say that it can"
    )
    return Advice(decide, "", f"A player can lose through their own action: {item.subject}")


def _loop(trace: Mapping[str, Any]) -> tuple[int, int, int]:
    """A witness of a game that can go on for ever, replayed: the steps of its loop (its last
    state recurs), and how many of them were a player's choice among other legal actions."""
    parsed = parse_trace(json.dumps(trace), "a witness")
    game = make_game(parsed.game, parsed.players, dict(parsed.options))
    walked = list(replay_steps(game, parsed))
    states = [game.encode_state(walked[0][0])] + [game.encode_state(after) for _, _, after in walked]
    start = states.index(states[-1])
    loop = walked[start:]
    choices = sum(1 for before, _, _ in loop if game.to_move(before) != CHANCE and len(game.legal_actions(before)) > 1)
    return start, len(walked), choices


def _cycle(item: Evidence, clauses: Mapping[str, Clause]) -> Advice:
    trace = item.witness.get("trace")
    title = "Play can go on for ever: a position can recur with nothing that ends the game"
    if not trace or not trace.get("steps"):
        return Advice("Whether the rules should end play that repeats a position", "", title)
    start, end, choices = _loop(trace)
    steps = f"steps {start + 1} to {end}"
    if choices:
        decide = (
            f"Whether play that repeats a position must end: the position after step {start} recurs after "
            f"step {end}, and at {choices} of {steps} another action was legal, so the players chose the loop; "
            "no rule ends a game whose players keep repeating it. A rule problem if the game must end: add a "
            "limit (on turns, or on repeated positions)"
        )
    else:
        decide = (
            f"How play leaves the loop of {steps}: at every step of it the only legal action leads round "
            "again, so the rules force it, and the game cannot end from there. A rule problem: a rule must change"
        )
    return Advice(decide, "", title)


def _deadlock(item: Evidence, clauses: Mapping[str, Clause]) -> Advice:
    decide = "What a player with no legal action does (passes, loses, or the game ends)"
    return Advice(decide, "", "A player can be left with no legal action while the game goes on")


def _broken(item: Evidence, clauses: Mapping[str, Clause]) -> Advice:
    declared = declaration(item.game)
    described = {p.name: p.description for p in declared.properties}
    promise = described.get(item.subject, item.subject.replace("-", " "))
    options = declared.game.option_space
    readings = (
        "; ".join(
            f"the reading {value} of \u201c{_plain(options.get(name).description)}\u201d"
            for name, value in item.variant
        )
        or "the engine's defaults"
    )
    decide = (
        f"Whether {readings} can be meant, since under it the rulebook's promise fails: "
        f"{promise} ({_stated(item.clauses, clauses)})"
    )
    return Advice(decide, "", f"A promise of the rulebook fails under another reading: {promise}")


def _table(item: Evidence, clauses: Mapping[str, Clause]) -> Advice:
    table = item.witness.get("table", {})
    title = table.get("title", item.subject)
    decide = f"Whether the numbers the rules give are the ones meant: {title} ({_stated(item.clauses, clauses)})"
    return Advice(decide, "", f"A number the rulebook implies: {title}")


def _dead(item: Evidence, clauses: Mapping[str, Clause]) -> Advice:
    clause = clauses.get(item.subject)
    text = f": \u201c{clause.text}\u201d" if clause is not None else ""
    decide = (
        f"Whether {_stated([item.subject], clauses)} is meant to apply with {item.players} players{text}; "
        "no position reachable from the start lets it: if it is not meant to, say so there"
    )
    return Advice(decide, "", f"A rule that can never apply with {item.players} players{text}")


def _silent(item: Evidence, clauses: Mapping[str, Clause]) -> Advice:
    kind, _, what = item.title.partition(": ")
    decide = (
        f"Whether the engine's choice is the rulebook's ({_stated(item.clauses, clauses)}): {what}. "
        "Make it an option, or quote the sentence that forces it"
    )
    return Advice(
        decide, _unstated(item.clauses, clauses), f"The rulebook does not decide this; the engine does: {kind}"
    )


ADVICE: Final = {
    READING: _reading,
    RULE_GAP: _gap,
    CONTRADICTION: _contradiction,
    SELF_LOSS: _self_loss,
    CYCLE: _cycle,
    DEADLOCK: _deadlock,
    BROKEN_INVARIANT: _broken,
    TABLE: _table,
    DEAD_RULE: _dead,
    SILENT_DECISION: _silent,
}
"""How each kind of evidence that becomes a finding is put to the designer."""


def advice(item: Evidence, clauses: Mapping[str, Clause]) -> Advice:
    """What `item` asks of the designer, with `clauses` the game's clauses by id."""
    return ADVICE[item.check](item, clauses)


def decided(findings: Sequence[Finding]) -> list[Finding]:
    """`findings`, each with what to decide (one line per distinct decision its evidence asks) and
    the rewordings proposed; a new finding also gets its title in the rulebook's words."""
    told = []
    for finding in findings:
        clauses = {c.id: c for c in declaration(finding.game).catalogue().clauses}
        said = [advice(observed.evidence, clauses) for observed in finding.evidence]
        decide = tuple(dict.fromkeys(a.decide for a in said))
        proposal = tuple(dict.fromkeys(a.proposal for a in said if a.proposal))
        title = finding.title if finding.audited else said[0].title
        told.append(attrs.evolve(finding, title=title, decide=decide, proposal=proposal))
    return told
