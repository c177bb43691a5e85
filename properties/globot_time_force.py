"""What the Globot Time Force rulebook promises of every reachable state and every step.

Each property names the clauses it guards and, where the promise holds only under some
readings, the option values it needs (the tableau holds at most 7 cards only under the hard
limit; the timeline is full at the start of a turn only when every gap is refilled). The
score is recomputed here from the state and the data, apart from the engine's own scoring.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any

from rulecheck.core.words import counted
from rulecheck.games.globot_time_force.counters import ENERGY_CAP, TABLEAU_LIMIT, TOKENS, TURNS_IN_A_ROW
from rulecheck.games.globot_time_force.options import (
    ConsecutiveTurns,
    GlobotTimeForceOptions,
    SecondTurnRefill,
    TableauLimit,
    TimelineActions,
    Tokens,
)
from rulecheck.games.globot_time_force.state import ACT, OFFER, REFILL, TIMELINE, GTFState
from rulecheck.model.properties import StateProperty, TransitionProperty


def _first(items: list[str]) -> str | None:
    return items[0] if items else None


def energy_in_range(game: Any, s: GTFState) -> str | None:
    return _first(
        [f"player {p} has used {me.used} energy" for p, me in enumerate(s.players) if not 0 <= me.used <= ENERGY_CAP]
    )


def tableau_within_limit(game: Any, s: GTFState) -> str | None:
    return _first(
        [
            f"player {p} holds {len(me.tableau)} cards"
            for p, me in enumerate(s.players)
            if len(me.tableau) > TABLEAU_LIMIT
        ]
    )


def one_reservation(game: Any, s: GTFState) -> str | None:
    return _first([f"player {p} has reserved {me.reserved}" for p, me in enumerate(s.players) if len(me.reserved) > 1])


def tokens_in_one_place(game: Any, s: GTFState) -> str | None:
    """Each of a player's 3 tokens is in hand, on one achievement space, locked on a reservation
    (when reserving takes a token) or spent on an extra turn."""
    on_boards = Counter(holder for holders in s.spaces for holder in holders)
    locks = game.options.tokens is not Tokens.ASSISTANT
    bad = []
    for p, me in enumerate(s.players):
        locked = len(me.reserved) if locks else 0
        if min(me.tokens, me.placed, me.spent) < 0 or me.tokens + me.placed + me.spent + locked != TOKENS:
            bad.append(f"player {p}: {me.tokens} in hand, {me.placed} placed, {me.spent} spent, {locked} locked")
        if on_boards[p] != me.placed:
            bad.append(f"player {p} has {on_boards[p]} tokens on achievement spaces but {me.placed} placed")
    return _first(bad)


def turns_in_a_row(game: Any, s: GTFState) -> str | None:
    return None if 1 <= s.in_row <= TURNS_IN_A_ROW else f"player {s.current} is in turn {s.in_row} in a row"


@lru_cache(maxsize=16)
def _deck_cards(game: Any) -> Counter[str]:
    """Every card of the game's deck list, counted once per game."""
    return Counter(game.data.deck_cards())


def cards_in_one_place(game: Any, s: GTFState) -> str | None:
    """Every card of the deck list is in exactly one of: the deck, the timeline, the discard pile,
    a tableau, a reservation."""
    found = s.deck.contents()
    found.update(s.timeline)
    found.update(s.discards)
    for me in s.players:
        found.update(me.tableau)
        found.update(me.reserved)
    expected = _deck_cards(game)
    if dict.__eq__(found, expected) or found == expected:  # Counter's == (a missing count is 0) runs in Python
        return None
    return f"cards out of place: extra {dict(found - expected)}, missing {dict(expected - found)}"


def full_timeline_at_turn_start(game: Any, s: GTFState, action: Any, t: GTFState) -> str | None:
    """A turn that is not a granted second turn starts with players+1 timeline cards while the deck lasts.
    A turn starts after the timeline's draws (a turn that starts straight after the last one
    took no card from the timeline, or found the deck empty)."""
    if s.stage not in (TIMELINE, REFILL) or t.stage not in (ACT, OFFER) or t.in_row != 1:
        return None
    if len(t.timeline) == game.players + 1 or t.deck.size == 0:
        return None
    return (
        f"player {t.current}'s turn starts with {counted(len(t.timeline), 'timeline card')}, not "
        f"{game.players + 1} ({counted(game.players, 'player')} and one), and {t.deck.size} in the deck"
    )


def _meets(game: Any, requirement: Any, tableau: tuple[str, ...]) -> bool:
    colours = [game.data.cards[k].colours for k in tableau]
    counts = {
        "colour-count": sum(requirement.colour in c for c in colours),
        "distinct-colours": len(set().union(*colours)) if colours else 0,
        "colourless": sum(not c for c in colours),
        "cards": len(tableau),
    }
    return bool(counts[requirement.kind] >= requirement.at_least)


def expected_score(game: Any, s: GTFState, p: int) -> int:
    """GTF-E5..E9 recomputed: printed VP, score skills, gears, 12 less energy used, achievements."""
    me = s.players[p]
    tableau = me.tableau[:TABLEAU_LIMIT] if game.options.tableau_limit is TableauLimit.SCORING else me.tableau
    cards = game.data.cards
    total = me.gears + ENERGY_CAP - me.used
    for key in tableau:
        total += cards[key].vp
        for skill in cards[key].skills:
            if skill.kind == "score":
                for e in skill.effects:
                    per = sum(e.colour in cards[k].colours for k in tableau) if e.colour else len(tableau)
                    total += e.amount * per
    for board, holders in zip(s.boards, s.spaces, strict=True):
        achievement = game.data.achievements[board]
        if _meets(game, achievement.requires, tableau):
            total += sum(achievement.spaces[i] for i, h in enumerate(holders) if h == p)
    return total


def score_is_sum_of_parts(game: Any, s: GTFState) -> str | None:
    if not game.is_terminal(s):
        return None
    returns = game.returns(s)
    return _first(
        [
            f"player {p} scores {r}, the parts add up to {expected_score(game, s, p)}"
            for p, r in enumerate(returns)
            if r != expected_score(game, s, p)
        ]
    )


def winners_have_top_score(game: Any, s: GTFState) -> str | None:
    if not game.is_terminal(s):
        return None
    returns = game.returns(s)
    top = max(returns)
    winners = game.winners(s)
    if winners and winners == {p for p, r in enumerate(returns) if r == top}:
        return None
    return f"winners {sorted(winners)} with scores {returns}"


def _hard(options: GlobotTimeForceOptions) -> bool:
    return options.tableau_limit is TableauLimit.HARD


def _single(options: GlobotTimeForceOptions) -> bool:
    return options.tokens is not Tokens.THREE_RESERVATIONS


def _out_of_order(options: GlobotTimeForceOptions) -> bool:
    return options.consecutive_turns is ConsecutiveTurns.OUT_OF_ORDER


def _every_gap(options: GlobotTimeForceOptions) -> bool:
    return (
        options.second_turn_refill is SecondTurnRefill.EVERY_GAP
        and options.timeline_actions is not TimelineActions.SKILL_EFFECTS
    )


PROPERTIES = (
    StateProperty(
        "energy-in-range",
        ("GTF-R5", "GTF-S4"),
        "every player's energy used is within 0..12",
        energy_in_range,
        reads=("players",),
    ),
    StateProperty(
        "tableau-limit",
        ("GTF-T8",),
        "no tableau holds more than 7 cards",
        tableau_within_limit,
        _hard,
        reads=("players",),
    ),
    StateProperty(
        "one-reservation",
        ("GTF-T7",),
        "no player has more than one reserved card",
        one_reservation,
        _single,
        reads=("players",),
    ),
    StateProperty(
        "tokens-in-one-place",
        ("GTF-S2", "GTF-E1", "GTF-E3"),
        "each player's 3 tokens are each in hand, on one achievement space, on a reservation or spent",
        tokens_in_one_place,
        reads=("spaces", "players"),
    ),
    StateProperty(
        "no-third-consecutive-turn",
        ("GTF-T13",),
        "a player can never gain a third consecutive turn during the game (L126): no skill's second turn nor "
        "end-game extra turn makes a third in a row",
        turns_in_a_row,
        _out_of_order,
        reads=("in_row", "current"),
    ),
    StateProperty(
        "no-third-granted-turn",
        ("GTF-T13",),
        "a turn granted by a skill never makes a third in a row (all that the reading limiting granted turns only "
        "promises: there each end-game extra turn starts the count again, and end-game-turns shows longer runs)",
        turns_in_a_row,
        reads=("in_row", "current"),
    ),
    StateProperty(
        "cards-in-one-place",
        ("GTF-S5", "GTF-S6", "GTF-T7", "GTF-T9", "GTF-T12"),
        "every card is in exactly one place: deck, timeline, discard pile, a tableau or a reservation",
        cards_in_one_place,
        reads=("deck", "timeline", "discards", "players"),
    ),
    TransitionProperty(
        "full-timeline-at-turn-start",
        ("GTF-S5", "GTF-T12", "GTF-T13"),
        "the timeline holds players+1 cards when a turn starts, while the deck lasts",
        full_timeline_at_turn_start,
        _every_gap,
    ),
    StateProperty(
        "score-is-sum-of-parts",
        ("GTF-E5", "GTF-E6", "GTF-E7", "GTF-E8", "GTF-E9"),
        "the score is the sum of its parts",
        score_is_sum_of_parts,
    ),
    StateProperty(
        "winners-have-top-score",
        ("GTF-E10",),
        "the winners are every player with the top score",
        winners_have_top_score,
    ),
)
