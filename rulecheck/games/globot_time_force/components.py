"""Globot Time Force's data set: the cards, events and achievement boards the rulebook leaves out.

Models: the typed, frozen value built from a data file in the format of data/schema.json:
the colour spectrum; cards (name, cost, printed VP, colours, whether they can be gained,
skills of five kinds with effects from a small vocabulary); event cards (never gained,
GTF-T10); the deck (copies of each card and event); achievement boards (a requirement over
the tableau and the VP of each token space); how many boards are drawn by player count,
with the rulebook line it comes from; the starting bonus of each turn-order position; the
gear exchange rate. `build` checks what the schema cannot: unique names and keys, every
card and event in the deck and every deck entry naming one, at most MAX_DECK cards in the
deck, colours from the spectrum, score effects only in score skills and nothing else there,
effect fields that belong to the effect, enough boards for every player count, and
positions 1 to 5 in order.

Leaves out: what the skills do in play (skills.py) and any real card list: the shipped data
set is illustrative (its `provenance` field says so).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import attrs

from rulecheck.core.data import DataFormat
from rulecheck.core.words import counted
from rulecheck.model.components import Component

DATA_DIR: Final = Path(__file__).parent / "data"

DISCARD: Final = "discard"
SCORE: Final = "score"
WHEN_GAINED: Final = "when-gained"
PASSIVE: Final = "passive"
PASSIVE_END: Final = "passive-end-of-turn"
SKILL_KINDS: Final = (DISCARD, SCORE, WHEN_GAINED, PASSIVE, PASSIVE_END)

GAIN_GEARS: Final = "gain-gears"
GAIN_CHARGE: Final = "gain-charge"
GAIN_IOM: Final = "gain-iom"
GAIN_TEC: Final = "gain-tec"
RESET_ENERGY: Final = "reset-energy"
RESTORE_ENERGY: Final = "restore-energy"
EXTRA_TURN: Final = "extra-turn"
GAIN_FROM_TIMELINE: Final = "gain-from-timeline"
RESERVE_FROM_TIMELINE: Final = "reserve-from-timeline"
DISCARD_CARD: Final = "discard"
SCORE_PER_COLOUR: Final = "score-per-colour"
SCORE_PER_CARD: Final = "score-per-card"
SCORE_EFFECTS: Final = (SCORE_PER_COLOUR, SCORE_PER_CARD)
WITH_AMOUNT: Final = (GAIN_GEARS, GAIN_CHARGE, GAIN_IOM, GAIN_TEC, RESTORE_ENERGY, SCORE_PER_COLOUR, SCORE_PER_CARD)
CHOICE_EFFECTS: Final = (GAIN_FROM_TIMELINE, RESERVE_FROM_TIMELINE, DISCARD_CARD)
"""Effects that need the player to choose a card."""
EFFECTS: Final = (
    GAIN_GEARS,
    GAIN_CHARGE,
    GAIN_IOM,
    GAIN_TEC,
    RESET_ENERGY,
    RESTORE_ENERGY,
    EXTRA_TURN,
    GAIN_FROM_TIMELINE,
    RESERVE_FROM_TIMELINE,
    DISCARD_CARD,
    SCORE_PER_COLOUR,
    SCORE_PER_CARD,
)

COLOUR_COUNT: Final = "colour-count"
DISTINCT_COLOURS: Final = "distinct-colours"
CARDS: Final = "cards"
COLOURLESS: Final = "colourless"
MAX_PLAYERS: Final = 5
MAX_DECK: Final = 1_000
"""The most cards (copies of cards and events) a deck may hold: each card put into the timeline
is a chance node with every card left in the deck as an outcome, and a game deals the deck
out, so a larger deck (a table-top one holds a few hundred at most) makes every step that much
slower, and one of millions would not fit in memory."""
_DECK_LIMIT: Final = f"a deck holds at most {MAX_DECK:,} cards (each draw lists every card left)"


def key_of(name: str) -> str:
    """A name as one notation token: `Grand Douchebrarian` -> `grand-douchebrarian`."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


@attrs.frozen
class Requirement:
    """A condition over a tableau: at least `at_least` cards of `colour` (colour-count), colours
    (distinct-colours), cards (cards) or colourless cards (colourless)."""

    kind: str
    at_least: int
    colour: str = ""


@attrs.frozen
class Effect:
    effect: str
    amount: int = 1
    colour: str = ""


@attrs.frozen
class Skill:
    kind: str
    effects: tuple[Effect, ...]
    requires: Requirement | None = None


@attrs.frozen
class Card:
    key: str
    """The card as a notation token (from its name)."""
    name: str
    cost: int
    vp: int
    colours: frozenset[str]
    gainable: bool
    skills: tuple[Skill, ...]
    event: bool = False

    def skills_of(self, kind: str) -> tuple[Skill, ...]:
        return tuple(s for s in self.skills if s.kind == kind)


@attrs.frozen
class Achievement:
    key: str
    name: str
    requires: Requirement
    spaces: tuple[int, ...]
    """The VP of each token space, in the order they fill."""


@attrs.frozen
class Bonus:
    gears: int = 0
    charge: int = 0
    iom: int = 0
    tec: int = 0


@attrs.frozen
class GameData:
    provenance: str
    spectrum: tuple[str, ...]
    cards: Mapping[str, Card]
    """Every card and event by key."""
    deck: tuple[tuple[str, int], ...]
    """(card key, copies), sorted by key."""
    achievements: Mapping[str, Achievement]
    boards_by_players: tuple[int, ...]
    """How many achievement boards n players draw, at index n-1."""
    boards_source: str
    bonuses: tuple[Bonus, ...]
    """The starting bonus of turn-order position 1 to 5, at index 0 to 4."""
    exchange_gears: int
    exchange_charge: int

    def deck_cards(self) -> tuple[str, ...]:
        """Every copy in the deck, by key."""
        return tuple(key for key, copies in self.deck for _ in range(copies))


Fail = Callable[[Sequence[str | int], str], Any]


def _requirement(table: Mapping[str, Any], where: list[str | int], spectrum: Sequence[str], fail: Fail) -> Requirement:
    colour = table.get("colour", "")
    if colour and colour not in spectrum:
        fail([*where, "colour"], f"{colour!r} is not a colour of the spectrum {list(spectrum)}")
    return Requirement(table["kind"], table["at_least"], colour)


def _effect(table: Mapping[str, Any], where: list[str | int], kind: str, spectrum: Sequence[str], fail: Fail) -> Effect:
    effect = table["effect"]
    if (effect in SCORE_EFFECTS) != (kind == SCORE):
        fail([*where, "effect"], f"{effect!r} cannot be an effect of a {kind} skill")
    if "amount" in table and effect not in WITH_AMOUNT:
        fail([*where, "amount"], f"{effect!r} takes no amount")
    colour = table.get("colour", "")
    if (effect == SCORE_PER_COLOUR) != bool(colour):
        fail([*where, "colour"], "score-per-colour, and only it, names a colour")
    if colour and colour not in spectrum:
        fail([*where, "colour"], f"{colour!r} is not a colour of the spectrum {list(spectrum)}")
    return Effect(effect, table.get("amount", 1), colour)


def _card(table: Mapping[str, Any], where: list[str | int], spectrum: Sequence[str], fail: Fail) -> Card:
    for colour in table["colours"]:
        if colour not in spectrum:
            fail([*where, "colours"], f"{colour!r} is not a colour of the spectrum {list(spectrum)}")
    skills = []
    for s, skill in enumerate(table.get("skills", ())):
        at: list[str | int] = [*where, "skills", s]
        requires = skill.get("requires")
        if requires is not None and skill["kind"] not in (PASSIVE, PASSIVE_END):
            fail([*at, "requires"], "only passive skills have a condition")
        effects = tuple(
            _effect(e, [*at, "effects", i], skill["kind"], spectrum, fail) for i, e in enumerate(skill["effects"])
        )
        skills.append(
            Skill(
                skill["kind"],
                effects,
                None if requires is None else _requirement(requires, [*at, "requires"], spectrum, fail),
            )
        )
    return Card(
        key_of(table["name"]),
        table["name"],
        table["cost"],
        table["vp"],
        frozenset(table["colours"]),
        table.get("gainable", True),
        tuple(skills),
    )


def build(document: Mapping[str, Any], fail: Fail) -> GameData:
    """The typed data of a schema-valid document; `fail` for what the schema cannot check."""
    spectrum = tuple(document["spectrum"])
    cards: dict[str, Card] = {}
    for section in ("cards", "events"):
        for index, table in enumerate(document[section]):
            key = key_of(table["name"])
            if key in cards:
                fail([section, index, "name"], f"a second card named {table['name']!r} (as a key: {key!r})")
            if section == "cards":
                cards[key] = _card(table, [section, index], spectrum, fail)
            else:
                cards[key] = Card(key, table["name"], 0, 0, frozenset(), False, (), event=True)
    copies: dict[str, int] = {}
    for index, entry in enumerate(document["deck"]):
        key = key_of(entry["card"])
        if key not in cards:
            fail(["deck", index, "card"], f"no card or event named {entry['card']!r}")
        if key in copies:
            fail(["deck", index, "card"], f"{entry['card']!r} is in the deck twice")
        if entry["copies"] > MAX_DECK:
            fail(["deck", index, "copies"], f"{entry['copies']:,} copies: {_DECK_LIMIT}")
        copies[key] = entry["copies"]
    if sum(copies.values()) > MAX_DECK:
        fail(["deck"], f"{sum(copies.values()):,} cards in all: {_DECK_LIMIT}")
    for section in ("cards", "events"):
        for index, table in enumerate(document[section]):
            if key_of(table["name"]) not in copies:
                fail([section, index, "name"], f"{table['name']!r} is in no deck")
    achievements: dict[str, Achievement] = {}
    for index, table in enumerate(document["achievements"]):
        key = key_of(table["name"])
        if key in achievements:
            fail(["achievements", index, "name"], f"a second achievement named {table['name']!r}")
        requires = _requirement(table["requires"], ["achievements", index, "requires"], spectrum, fail)
        achievements[key] = Achievement(key, table["name"], requires, tuple(table["spaces"]))
    boards = document["achievement_boards"]
    for index, count in enumerate(boards["by_players"]):
        if count > len(achievements):
            fail(
                ["achievement_boards", "by_players", index],
                f"{count} boards for {index + 1} players, but only {len(achievements)} exist",
            )
    bonuses = []
    for index, table in enumerate(document["starting_bonuses"]):
        if table["position"] != index + 1:
            fail(["starting_bonuses", index, "position"], f"position {table['position']} where {index + 1} is due")
        bonuses.append(Bonus(table.get("gears", 0), table.get("charge", 0), table.get("iom", 0), table.get("tec", 0)))
    exchange = document["gear_exchange"]
    return GameData(
        document["provenance"],
        spectrum,
        cards,
        tuple(sorted(copies.items())),
        achievements,
        tuple(boards["by_players"]),
        boards["source"],
        tuple(bonuses),
        exchange["gears"],
        exchange["charge"],
    )


def listing(data: GameData) -> tuple[Component, ...]:
    """The data set's cards (in the order of the file, each with its cost, copies in the deck,
    VP and colours) and achievement boards (each with its requirement and token spaces), for
    `rulecheck cards`."""
    copies = dict(data.deck)
    found = []
    for card in data.cards.values():
        facts = [f"cost {card.cost}", counted(copies.get(card.key, 0), "copy", "copies"), f"{card.vp} VP"]
        facts += sorted(card.colours)
        facts += [] if card.gainable else ["never gained"]
        found.append(Component("event" if card.event else "card", card.key, card.name, ", ".join(facts)))
    for board in data.achievements.values():
        need = board.requires
        what = {
            COLOUR_COUNT: f"{need.colour} cards",
            DISTINCT_COLOURS: "colours",
            CARDS: "cards",
            COLOURLESS: "colourless cards",
        }[need.kind]
        spaces = " ".join(map(str, board.spaces))
        found.append(
            Component(
                "achievement board", board.key, board.name, f"needs {need.at_least} {what}; token spaces {spaces} VP"
            )
        )
    return tuple(found)


DATA_FORMAT: DataFormat[GameData] = DataFormat(
    "globot-time-force", DATA_DIR / "schema.json", DATA_DIR / "illustrative.toml", build
)
