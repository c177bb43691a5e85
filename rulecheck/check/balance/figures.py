"""The figures of a set of played games, per seat and over the games.

Models: what one game leaves for the report (`Played`: its winners, whether the step cap cut it,
its length, the legal actions at its player steps, and Ludii's two measures of a lead over the
game's own `progress`), and what many games come to (`Figures`): per seat the games won alone
with a 95% Wilson interval and the games shared; draws (several winners), everyone-loses,
timeouts (games the step cap cut, counted apart from every other figure of length and lead);
length as mean, standard deviation and longest; lead changes and decisiveness; the branching
factor; and each game's outcome as a category for the tests of statistics.py.

Lead change and decisiveness follow Ludii's Evaluation metrics (metrics/single/stateEvaluation:
LeadChange, DecisivenessThreshold, DecisivenessMoves), with the game's `progress` in place of
Ludii's UCT state evaluation: the leaders of a state are the seats of highest progress; lead
change is the number of times the set of leaders differs from the previous state's, divided by
the game's steps (Ludii also counts the first state, against an empty set: here only changes
between states count); decisiveness is the share of a won game's steps played before some
winner's progress first exceeds the most any non-winner reached in that game (1 when that
happens only at the end or never).

Leaves out: playing the games (games.py) and comparing sets of games (compare.py).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import attrs

from rulecheck.check.balance.statistics import chi_square_equal_shares, chi_square_p, wilson
from rulecheck.check.play.playthrough import Playthrough
from rulecheck.core.game import TERMINAL

DRAW = "draw"
NOBODY = "everyone loses"
TIMEOUT = "timeout"


@attrs.frozen
class Played:
    """What one game leaves for the figures: `winners` (empty for a timeout or when everyone
    loses), `timed_out` when the step cap cut it, `steps` (every action, chance included: what the
    cap counts), `moves` (its player steps) and `legal` (the legal actions at them, summed),
    `lead_changes` and `decisive_at` (None for a game without a winner)."""

    winners: tuple[int, ...]
    timed_out: bool
    steps: int
    moves: int
    legal: int
    lead_changes: int
    decisive_at: float | None


def measured(played: Playthrough) -> Played:
    """The figures of one played game."""
    game = played.game
    last = played.states[-1]
    timed_out = game.to_move(last) != TERMINAL
    winners = () if timed_out else tuple(sorted(game.winners(last)))
    standings = [game.progress(state) for state in played.states]
    leaders = [frozenset(p for p, v in enumerate(s) if v == max(s)) for s in standings]
    changes = sum(1 for before, after in zip(leaders, leaders[1:]) if before != after)
    legal = [len(game.legal_actions(s)) for s in played.states[:-1] if game.to_move(s) >= 0]
    return Played(
        winners, timed_out, len(played.actions), len(legal), sum(legal), changes, _decisive_at(standings, winners)
    )


def _decisive_at(standings: Sequence[tuple[float, ...]], winners: tuple[int, ...]) -> float | None:
    """Ludii's DecisivenessMoves for one game: the share of its steps before a winner's standing
    first exceeds the best a non-winner ever reached."""
    if not winners:
        return None
    steps = len(standings) - 1
    others = [v for s in standings for p, v in enumerate(s) if p not in winners]
    threshold = max(others, default=-math.inf)
    first = next((i for i, s in enumerate(standings) if any(s[w] > threshold for w in winners)), steps)
    return first / steps if steps else 1.0


def outcome(played: Played, players: int) -> int:
    """The game's outcome as a category: a seat's index for a win alone, then a draw, everyone
    losing and a timeout (`categories`)."""
    if played.timed_out:
        return players + 2
    if not played.winners:
        return players + 1
    return played.winners[0] if len(played.winners) == 1 else players


def categories(players: int) -> tuple[str, ...]:
    """The names of the outcome categories, in `outcome`'s order."""
    return (*(f"seat {p} wins" for p in range(players)), DRAW, NOBODY, TIMEOUT)


@attrs.frozen
class Seat:
    """One seat: the games it won alone, its Wilson 95% interval over every game played, and the
    games it shared a win in."""

    wins: int
    rate: float
    low: float
    high: float
    shared: int

    def to_data(self) -> dict[str, Any]:
        return attrs.asdict(self)


@attrs.frozen
class Figures:
    """What a set of games of one game under one reading and one set of policies comes to."""

    players: int
    games: int
    seats: tuple[Seat, ...]
    outcomes: tuple[int, ...]
    """How many games ended in each category of `categories`."""
    length_mean: float
    length_sd: float
    longest: int
    lead_changes: float
    """Ludii's LeadChange: the mean over finished games of lead changes per step."""
    lead_changes_per_game: float
    decisiveness: float | None
    """Ludii's DecisivenessMoves: the mean over won games of the share of steps before the lead was decisive."""
    branching: float
    seat_p: float
    """The p-value of Pearson's chi-square test that the seats win alone equally often."""

    @property
    def draws(self) -> int:
        return self.outcomes[self.players]

    @property
    def everyone_loses(self) -> int:
        return self.outcomes[self.players + 1]

    @property
    def timeouts(self) -> int:
        return self.outcomes[self.players + 2]

    def to_data(self) -> dict[str, Any]:
        found = attrs.asdict(self, recurse=False)
        found["seats"] = [s.to_data() for s in self.seats]
        found["outcomes"] = dict(zip(categories(self.players), self.outcomes))
        return found


def figures(played: Sequence[Played], players: int) -> Figures:
    """The figures of `played`, games of `players` seats; ValueError for no games."""
    if not played:
        raise ValueError("no games to measure")
    total = len(played)
    counts = [0] * (players + 3)
    for one in played:
        counts[outcome(one, players)] += 1
    shared = [sum(1 for g in played if len(g.winners) > 1 and p in g.winners) for p in range(players)]
    seats = tuple(Seat(counts[p], counts[p] / total, *wilson(counts[p], total), shared[p]) for p in range(players))
    finished = [g for g in played if not g.timed_out]
    lengths = [g.steps for g in finished]
    mean = sum(lengths) / len(lengths) if lengths else 0.0
    spread = math.sqrt(sum((n - mean) ** 2 for n in lengths) / (len(lengths) - 1)) if len(lengths) > 1 else 0.0
    won = [g.decisive_at for g in finished if g.decisive_at is not None]
    moves = sum(g.moves for g in played)
    return Figures(
        players=players,
        games=total,
        seats=seats,
        outcomes=tuple(counts),
        length_mean=mean,
        length_sd=spread,
        longest=max(lengths, default=0),
        lead_changes=sum(g.lead_changes / g.steps for g in finished if g.steps) / len(finished) if finished else 0.0,
        lead_changes_per_game=sum(g.lead_changes for g in finished) / len(finished) if finished else 0.0,
        decisiveness=sum(won) / len(won) if won else None,
        branching=sum(g.legal for g in played) / moves if moves else 0.0,
        seat_p=chi_square_p(*chi_square_equal_shares(counts[:players])),
    )
