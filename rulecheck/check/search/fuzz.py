"""Fuzzing: Hypothesis plays random whole games, watching every step with the generic checks.

Models: a campaign of N games from one seed. Each game is a Hypothesis example that
first draws how its players lean (swarm testing: verbs they avoid while they can, a verb
they favour; rare rules get their chance in games that skip the common moves or dwell
on one), then an action at every step
(draw_action of play/strategies.py) until the game ends or a step cap is hit. Every step is watched
(generic.Watch): properties, deadlocks, self-losses, rule gaps, recurring states,
engine errors. Each distinct issue is reported once, with a replayable trace that shows
it at its last step. When a violation shows, Hypothesis shrinks the game to a short one
that still shows it, and the campaign runs again without that issue; findings are
shrunk the same way only on request (see `fuzz`).

A campaign runs in chunks (`chunk_games`: a hundred games first, then about CHUNK_STEPS
steps' worth), each a Hypothesis run of its own with a seed drawn from the campaign's
seed and the chunk's index (`chunk_seed`), so the same seed plays the same games on
every machine, and Hypothesis's memory of a run (every example's choices, kept to avoid
repeating one) is let go at the end of each chunk instead of growing with the campaign.
A violation shown in a chunk is shrunk, and that chunk alone runs again without it: the
chunks before it never showed it, so they would play the very same games again.

Counted and played: the games that count toward N are the games of each chunk's last
run that Hypothesis generated and played to their end (the game's end or the step
cap) before any issue was shrunk, and whose choice sequence no earlier chunk counted.
So every counted game is a distinct choice sequence: Hypothesis never runs one twice
while it generates, and a game an earlier chunk played (every run starts with the same
simplest games) is rejected, so that Hypothesis plays another in its place; two
sequences may still play the same game (a swarm leaning toward a verb never offered
changes nothing). A complete campaign counts exactly N, fewer only if a chunk runs out
of games no chunk played (as a tiny game can), which ends the campaign. Games, steps,
games stopped at the step cap and clause coverage are of the counted games. Every
other game played is reported too, as played but not counted: the repeats rejected,
games cut short where the choices Hypothesis gave them ran out (most of them: it mutates
a game it played by copying one stretch of its choices over another and replays the
result with no room to go on, and it keeps a run's first games near the length of
their simplest extension), games stopped to shrink the issue they showed, the games
of shrinking and Hypothesis's replay of the shortest, and a chunk's runs before it ran
again without a violation.

Each issue's trace is handed to `on_found` as soon as it shows (and again each time
shrinking finds a shorter one), so a caller can save it before the campaign ends; a
campaign stopped by a signal (signals.Interrupted) returns what it found so far, marked
as interrupted, the violation it was shrinking included at its shortest yet, and counts
the games its chunks finished and the finished games of the chunk it stopped in.

A broken property the rulebook promises, and an engine error, are violations: the
engine is at fault. Every other issue is a finding about the rulebook.

Leaves out: exhaustive search (explore) and proofs (prove).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Final

import attrs
from hypothesis import HealthCheck, Phase, Verbosity, given, reject, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable

from rulecheck.check.play.playthrough import DEFAULT_MAX_STEPS
from rulecheck.check.play.strategies import draw_action, draw_swarm
from rulecheck.check.running.signals import Interrupted
from rulecheck.check.running.signals import check as check_signals
from rulecheck.check.watch.generic import ENGINE_ERROR, KINDS, Checks, Found, Issue, IssueReport
from rulecheck.core.clauses import coverage
from rulecheck.core.game import Game
from rulecheck.core.notation import Action
from rulecheck.core.progress import Progress, no_progress
from rulecheck.core.trace import record
from rulecheck.model.properties import Property

CHUNK_GAMES: Final = 100
"""The games of a campaign's first chunk, and the fewest of any chunk but its last."""

MAX_CHUNK_GAMES: Final = 1000
"""The most games of a chunk."""

CHUNK_STEPS: Final = 100_000
"""About how many steps a chunk after the first plays: as many games as the counted games so far
play in that many steps on average, from CHUNK_GAMES to MAX_CHUNK_GAMES. Hypothesis's memory of
a run grows with its steps, and each run spends its first tenth of games (50 at most) near
its simplest games, many of them cut short or played already: chunks of long games are kept
small, chunks of short games large."""


def chunk_games(counted_games: int, counted_steps: int) -> int:
    """The games of the next chunk, after `counted_games` games of `counted_steps` steps."""
    if not counted_games:
        return CHUNK_GAMES
    return max(CHUNK_GAMES, min(MAX_CHUNK_GAMES, CHUNK_STEPS * counted_games // max(counted_steps, 1)))


def chunk_seed(seed: int, index: int) -> int:
    """The seed of chunk `index` of the campaign of `seed`: the same on every machine and Python."""
    digest = hashlib.sha256(f"rulecheck fuzz {seed} chunk {index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@attrs.frozen
class FuzzReport(IssueReport):
    setup: dict[str, Any]
    games: int
    """The games that count toward the campaign's N (see the module's docstring)."""
    steps: int
    """The steps of the counted games."""
    capped: int
    """Counted games stopped by the step cap before they ended."""
    found: tuple[Found, ...]
    clause_counts: dict[str, int]
    """How often the counted games exercised each clause."""
    clause_ids: tuple[str, ...]
    played_games: int = 0
    """Every game the campaign started, counted or not: at least `games`."""
    played_steps: int = 0
    """Every step the campaign applied, in all the games it played: at least `steps`."""
    interrupted: str | None = None
    """The signal that stopped the campaign before its last game, if one did."""

    def to_data(self) -> dict[str, Any]:
        return {
            "setup": self.setup,
            "games": self.games,
            "steps": self.steps,
            "capped": self.capped,
            "played_games": self.played_games,
            "played_steps": self.played_steps,
            "interrupted": self.interrupted,
            **self.issues_data(),
        }


@attrs.define
class _Tally:
    """Games and steps, and for counted games the games capped, the clauses exercised and the
    choice sequences played."""

    games: int = 0
    steps: int = 0
    capped: int = 0
    clauses: Counter[str] = attrs.Factory(Counter)
    choices: set[int] = attrs.Factory(set)
    """The hashes of the counted games' choice sequences."""

    def add(self, other: _Tally) -> None:
        self.games += other.games
        self.steps += other.steps
        self.capped += other.capped
        self.clauses.update(other.clauses)
        self.choices |= other.choices


class _Shown(Exception):
    pass


def fuzz(
    game: Game[Any, Any],
    properties: Sequence[Property],
    games: int,
    seed: int,
    max_steps: int = DEFAULT_MAX_STEPS,
    kinds: frozenset[str] = KINDS,
    shrink_findings: bool = False,
    on_found: Callable[[Found], None] | None = None,
    progress: Progress = no_progress,
) -> FuzzReport:
    """Play `games` random games of `game` from `seed`, watching for issues of `kinds`; each
    issue's trace goes to `on_found` as soon as it shows.

    A violation is always shrunk. A finding is shrunk only with `shrink_findings`: shrinking a
    long game can take Hypothesis minutes, so by default a finding's trace is the first game
    that showed it, cut at that step, and that game plays on.

    `progress` hears the counted games finished of `games` as they finish; shrinking replays
    games, which count no further, and a chunk run again without an issue it shrank starts its
    count again from where the chunk began."""
    campaign = _Campaign(game, Checks(game, tuple(properties), kinds), max_steps, shrink_findings, on_found, progress)
    index, counted = 0, campaign.counted
    while counted.games < games:
        size = min(chunk_games(counted.games, counted.steps), games - counted.games)
        if not campaign.chunk(chunk_seed(seed, index), size, games):
            break
        index += 1
    played = campaign.played
    return FuzzReport(
        setup=game.setup,
        games=counted.games,
        steps=counted.steps,
        capped=counted.capped,
        found=tuple(campaign.violations) + tuple(campaign.noted.values()),
        clause_counts=dict(counted.clauses),
        clause_ids=game.catalogue().ids,
        played_games=played.games,
        played_steps=played.steps,
        interrupted=campaign.interrupted,
    )


@attrs.define
class _Campaign:
    """What a campaign has found and counted so far, and its chunks' runs."""

    game: Game[Any, Any]
    checks: Checks
    max_steps: int
    shrink_findings: bool
    on_found: Callable[[Found], None] | None
    progress: Progress
    noted: dict[tuple[str, str], Found] = attrs.Factory(dict)
    violations: list[Found] = attrs.Factory(list)
    shortest: dict[tuple[str, str], int] = attrs.Factory(dict)
    counted: _Tally = attrs.Factory(_Tally)
    played: _Tally = attrs.Factory(_Tally)
    interrupted: str | None = None

    def chunk(self, seed: int, size: int, games: int) -> bool:
        """Run one chunk of `size` games from `seed` to its end, again without each violation it
        shrinks; whether the campaign goes on after it (not after an engine error, a signal, once
        nothing is left to find, or once the chunk found fewer than `size` games no chunk played)."""
        while True:
            tally = _Tally()
            shown: list[tuple[Issue, list[Action]]] = []

            def play(data: st.DataObject) -> None:
                self._play(data, tally, shown, games)

            run = hypothesis_seed(seed)(
                settings(
                    max_examples=size,
                    database=None,
                    deadline=None,
                    derandomize=False,
                    phases=(Phase.generate, Phase.shrink),
                    verbosity=Verbosity.quiet,
                    report_multiple_bugs=False,
                    suppress_health_check=list(HealthCheck),
                )(given(st.data())(play))
            )
            try:
                run()
            except Unsatisfiable:  # every game it played was played before
                return False
            except _Shown:
                issue, actions = shown[-1]  # Hypothesis's replay of the shortest
                self.checks = self.checks.without(issue.key)
                self._keep(Found(issue, record(self.game, actions)))
                if issue.kind != ENGINE_ERROR and not self.checks.exhausted:  # an engine that raised cannot be trusted
                    continue
                self.counted.add(tally)
                return False
            except Interrupted as stop:
                self.interrupted = stop.name
                if shown:  # the shortest game yet of the issue being shrunk
                    issue, actions = min(shown, key=lambda seen: len(seen[1]))
                    self._keep(Found(issue, record(self.game, actions)))
                self.counted.add(tally)
                return False
            self.counted.add(tally)
            return tally.games == size

    def _play(self, data: st.DataObject, tally: _Tally, shown: list[tuple[Issue, list[Action]]], games: int) -> None:
        """One game, counted in `tally` if it ends before any issue of this run was shown."""
        game = self.game
        actions: list[Action] = []
        capped = False
        choices: list[int] = []
        # The run's own draw, under `data.draw`: that one also writes a note for Hypothesis's
        # failure report and checks that the strategy left the global random generator alone
        # (two copies of its state) at every draw, which cost more than the draw itself, for a
        # report this run never prints and strategies that use no random generator.
        choose = data.conjecture_data.draw

        def draw(strategy: st.SearchStrategy[int]) -> int:
            choices.append(choice := choose(strategy))
            return choice

        self.played.games += 1
        with coverage() as clauses:
            watch = self.checks.watch(game.initial_state())
            try:
                swarm = draw_swarm(draw, game)
                visits = Counter[Any]()
                while True:
                    for issue in watch.issues:
                        if issue.is_defect or self.shrink_findings:
                            shown.append((issue, list(actions)))
                            self._announce(issue, actions)
                            raise _Shown(issue.message)
                        if issue.key not in self.noted:
                            self.noted[issue.key] = found = Found(issue, record(game, actions))
                            if self.on_found is not None:
                                self.on_found(found)
                    if len(actions) == self.max_steps:
                        capped = True
                        break
                    check_signals()
                    action = draw_action(draw, game, watch.state, swarm, watch.legal, visits)
                    if action is None:
                        break
                    watch.step(action)
                    if watch.steps > len(actions):  # not an engine error
                        actions.append(action)
            finally:  # a game Hypothesis cuts short, or one stopped at an issue, was played all the same
                self.played.steps += watch.steps
        digest = hash(tuple(choices))
        if shown:  # shrinking, or Hypothesis's replay of the shortest game
            return
        if digest in self.counted.choices:  # an earlier chunk played it: Hypothesis plays another instead
            reject()
        tally.add(_Tally(1, len(actions), int(capped), Counter(clauses), {digest}))
        self.progress(self.counted.games + tally.games, games)

    def _keep(self, found: Found) -> None:
        if found.is_violation:
            self.violations.append(found)
        else:
            self.noted[found.issue.key] = found

    def _announce(self, issue: Issue, actions: list[Action]) -> None:
        """Hand a violation's game to `on_found` when it is the first, or shorter than any before."""
        if self.on_found is not None and len(actions) < self.shortest.get(issue.key, len(actions) + 1):
            self.shortest[issue.key] = len(actions)
            self.on_found(Found(issue, record(self.game, actions)))
