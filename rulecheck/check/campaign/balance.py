"""The balance section of a verify campaign: who wins each game under random play, and which
readings change that.

Models: the balance tasks of a game (random games under the defaults at the campaign player
counts of 2 or more the budget covers, and at the fewest of them under every other value of
every option, one at a time, when the budget compares readings; each task one setup with its
own seed, so workers share them), the job that plays one (jobs.py), and the section the report
shows: per game and player count, each seat's win rate with its Wilson 95% interval and the
chi-square test of equal seats, and the readings whose outcome distribution differs
significantly from the defaults' (Holm-corrected chi-square test of homogeneity), each with
its figures.

Leaves out: the statistics and figures (check/balance) and policies other than random play.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rulecheck.check.balance.compare import ALPHA, TEST, compared
from rulecheck.check.campaign.jobs import BALANCE, BALANCE_POLICY, Outcome, Task
from rulecheck.check.play.playthrough import DEFAULT_MAX_STEPS
from rulecheck.registry import declaration


def balance_tasks(game: str, games: int, players: int, readings: bool) -> list[Task]:
    """The balance tasks of `game`'s campaign: `games` random games under the defaults at each of
    the first `players` of its campaign player counts of 2 or more (a game of one has no seats to
    compare), and with `readings` under each other option value at the fewest."""
    counts = [p for p in declaration(game).game.campaign_players if p >= 2][:players]
    found = [Task(BALANCE, game, p, seed=p, size=games, max_steps=DEFAULT_MAX_STEPS) for p in counts]
    if readings and counts:
        options = declaration(game).game.option_space.options
        found += [
            Task(BALANCE, game, counts[0], ((o.name, v),), seed=counts[0], size=games, max_steps=DEFAULT_MAX_STEPS)
            for o in options
            for v in o.values
            if v != o.default
        ]
    return found


def balance_section(outcomes: Sequence[Outcome]) -> list[dict[str, Any]]:
    """Per game and player count: the defaults' figures and seat test, and the readings that
    change who wins, with their figures and test, Holm-corrected over the readings compared."""
    runs = [o for o in outcomes if o.task.job == BALANCE and o.balance is not None]
    section = []
    for base in (o for o in runs if not o.task.variant):
        assert base.balance is not None
        others = [
            (o.task.variant[0], o.balance)
            for o in runs
            if o.task.variant
            and (o.task.game, o.task.players) == (base.task.game, base.task.players)
            and o.balance is not None
        ]
        tested = compared(base.balance, others)
        section.append(
            {
                "game": base.task.game,
                "players": base.task.players,
                "policy": BALANCE_POLICY,
                "games": base.task.size,
                "interval": "Wilson score interval, 95%",
                "figures": base.balance.to_data(),
                "test": TEST,
                "alpha": ALPHA,
                "readings_compared": len(tested),
                "changes_who_wins": [c.to_data() for c in tested if c.significant],
            }
        )
    return sorted(section, key=lambda s: (s["game"], s["players"]))
