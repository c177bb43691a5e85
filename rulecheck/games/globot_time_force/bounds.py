"""The least and the most a Globot Time Force score can be, derived from the rules and the data set.

Models: bounds on every player's final score in a game of at most a given number of steps,
from the data set's cards, achievements and bonuses and the rules' fixed numbers (counters.py);
OpenSpiel declares them as a game's utility bounds.

Leaves out: tight bounds. These are honest but loose: gears may grow with every step under
turn_end=voluntary, so the most grows with the length of the game.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rulecheck.games.globot_time_force import components, counters


def score_bounds(data: Any, players: int, max_steps: int) -> tuple[int, int]:
    """Every part of a Globot Time Force score (tableau.py) is at least 0: printed VP, skill
    amounts and board spaces are at least 0 by the schema, gears are coins held, and the
    energy used never passes 12. So 0 is the least, and the most is the sum of each part's most:
    - cards and score skills: a tableau holds gainable deck copies only, each at most once (no
      card comes back from the discard pile), and at most 7 of them score: under
      tableau_limit=hard no card is gained into 7, under forced-discard an 8th is discarded
      before the turn (so the game) can end, under scoring only the first 7 score. A score
      skill adds its amount per card, or per card of a colour: at most 7 times its amount.
      So: the 7 copies best by VP plus 7 times their score amounts;
    - achievements: a player has 3 tokens, one on each space held (GTF-S2, GTF-E1): the 3
      best spaces of all the boards;
    - energy: 12 less the energy used;
    - gears: the best starting bonus, the gear effects of each copy's when-gained and discard
      skills (each copy is gained and discarded at most once), and in each step at most one
      Dismiss (3 gears), one passive skill resolved and one turn ended, whose end-of-turn
      skills are at most those of every deck copy. Under turn_end=voluntary turns need not
      use up the deck, so the game's length is all that bounds the gears."""
    copies = [data.cards[key] for key in data.deck_cards() if data.cards[key].gainable]
    scoring = min(counters.TABLEAU_LIMIT, len(copies))

    def gears(skills: Iterable[Any]) -> int:
        return sum(e.amount for s in skills for e in s.effects if e.effect == components.GAIN_GEARS)

    def score_amounts(card: Any) -> int:
        return sum(e.amount for s in card.skills_of(components.SCORE) for e in s.effects)

    worth = sorted((c.vp + scoring * score_amounts(c) for c in copies), reverse=True)
    spaces = sorted((v for a in data.achievements.values() for v in a.spaces), reverse=True)
    once = sum(gears(c.skills_of(components.WHEN_GAINED) + c.skills_of(components.DISCARD)) for c in copies)
    passive = max((gears([s]) for c in copies for s in c.skills_of(components.PASSIVE)), default=0)
    turn_end = sum(gears(c.skills_of(components.PASSIVE_END)) for c in copies)
    per_step = counters.DISMISS_GEARS + passive + turn_end
    start = max(b.gears for b in data.bonuses[:players])
    cards = sum(worth[:scoring])
    achievements = sum(spaces[: counters.TOKENS])
    return 0, cards + achievements + counters.ENERGY_CAP + start + once + max_steps * per_step
