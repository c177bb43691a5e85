"""What a tableau counts as: colours, requirements and score, from the data set's cards.

Models: a card counts as every colour it shows, a colourless card as none (GTF-C1, GTF-C2);
requirements of achievements and passive skills over a tableau (colour-count,
distinct-colours, cards, colourless); and a player's score in its parts (GTF-E5..E9):
printed VP, score skills, gears, 12 less the energy used, and achievements judged on the
final tableau. Under tableau_limit=scoring only the first 7 cards gained score.

Leaves out: play (game.py and the rule modules).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rulecheck.core.clauses import touch
from rulecheck.games.globot_time_force.components import (
    COLOUR_COUNT,
    COLOURLESS,
    DISTINCT_COLOURS,
    SCORE,
    SCORE_PER_COLOUR,
    Card,
    GameData,
    Requirement,
)
from rulecheck.games.globot_time_force.counters import ENERGY_CAP, TABLEAU_LIMIT
from rulecheck.games.globot_time_force.options import TableauLimit
from rulecheck.games.globot_time_force.state import GTFState

SCORE_PARTS = ("cards", "skills", "gears", "energy", "achievements")


def colour_count(cards: Mapping[str, Card], tableau: Sequence[str], colour: str) -> int:
    """GTF-C1: cards of `colour`, a multi-coloured card counting for each colour it shows."""
    found = 0
    single = False
    for key in tableau:
        colours = cards[key].colours
        single = single or len(colours) == 1
        found += colour in colours
    if single:
        touch("GTF-C3")
    return found


def meets(cards: Mapping[str, Card], requirement: Requirement, tableau: Sequence[str]) -> bool:
    """Whether `tableau` meets `requirement`."""
    if requirement.kind == COLOUR_COUNT:
        touch("GTF-C1")
        found = colour_count(cards, tableau, requirement.colour)
    elif requirement.kind == DISTINCT_COLOURS:
        touch("GTF-C1")
        found = len(set().union(*(cards[k].colours for k in tableau))) if tableau else 0
    elif requirement.kind == COLOURLESS:
        touch("GTF-C2")
        found = sum(not cards[k].colours for k in tableau)
    else:
        found = len(tableau)
    return found >= requirement.at_least


def scored_cards(tableau: Sequence[str], limit_reading: TableauLimit) -> tuple[str, ...]:
    """The cards that score: all of them, or under tableau_limit=scoring the first 7 gained."""
    return tuple(tableau[:TABLEAU_LIMIT]) if limit_reading is TableauLimit.SCORING else tuple(tableau)


def score_parts(data: GameData, state: GTFState, player: int, limit_reading: TableauLimit) -> dict[str, int]:
    """A player's score by source (GTF-E5..E9); IoM, TEC and charge score nothing."""
    touch("GTF-E9")
    me = state.players[player]
    tableau = scored_cards(me.tableau, limit_reading)
    cards = data.cards
    skills = 0
    for key in tableau:
        for skill in cards[key].skills_of(SCORE):
            touch("GTF-E11")
            for effect in skill.effects:
                per = colour_count(cards, tableau, effect.colour) if effect.effect == SCORE_PER_COLOUR else len(tableau)
                skills += effect.amount * per
    achievements = 0
    for board, holders in zip(state.boards, state.spaces, strict=True):
        achievement = data.achievements[board]
        for space, holder in enumerate(holders):
            if holder == player:
                touch("GTF-E8")
                if meets(cards, achievement.requires, tableau):
                    achievements += achievement.spaces[space]
    touch("GTF-E5", "GTF-E6", "GTF-E7")
    return {
        "cards": sum(cards[k].vp for k in tableau),
        "skills": skills,
        "gears": me.gears,
        "energy": ENERGY_CAP - me.used,
        "achievements": achievements,
    }
