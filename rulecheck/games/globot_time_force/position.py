"""Globot Time Force positions written by hand: the `[position]` of a scenario file, read and written.

Models: a position as a rule designer writes it (docs/globot-time-force.md#scenarios): the
stage of the turn, whose turn it is, the players in seat order (energy used, gear coins,
charge, IoM, TEC, tableau, reserved cards, Globot tokens in hand), the timeline (oldest card
first), the discard pile, the drawn achievement boards with the players on their token
spaces, and the turn's bookkeeping (a second turn, passives used, skill effects waiting, the
refill, the end trigger, extra turns). Cards and boards are named as the data set names them
(`Seed Vault`) or by their keys, as actions and traces write them (`seed-vault`);
every key may be left out and takes the default the docs give. `read` refuses, naming the
clause or property, a position the rules make impossible: energy used above 12, a card in two
places or not in the data set's deck, an event in a tableau, more reservations or tableau
cards than the reading allows, tokens that do not add up to 3, a board not drawn or a token
space that does not exist, an end trigger or extra turn that cannot be, a waiting effect that
no card of the data set has, stages no play stops at, and `gears` written as a number of 5 or
more (which does not say which coins); and, as the reader's own limit, coins
making more than 100,000 sets to pay from. `write` is the reverse: every part of the state, so that reading it
back gives the same state (`pending` and `end_triggered_by` only when there are any).

Leaves out: the deck and the undrawn boards as keys of their own: the deck holds every card of
the data set in no other place, in an order nobody knows (a `deck` key may say which cards
those are, the discard pile then holding the rest), and the undrawn boards are the rest of the
data set's. Tokens on boards and tokens discarded for extra turns are counted from the boards
and the tokens in hand, not written.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Final

from rulecheck.core.evolve import evolve
from rulecheck.core.hidden import Pile
from rulecheck.core.untrusted import shown
from rulecheck.games.globot_time_force import counters, skills, turns
from rulecheck.games.globot_time_force.components import (
    CHOICE_EFFECTS,
    DISCARD_CARD,
    EFFECTS,
    PASSIVE,
    SCORE_EFFECTS,
    Achievement,
    Card,
    GameData,
)
from rulecheck.games.globot_time_force.context import ops
from rulecheck.games.globot_time_force.game import GlobotTimeForce
from rulecheck.games.globot_time_force.options import (
    ExtraTurnChoice,
    TableauLimit,
    Tokens,
    TokensPerBoard,
)
from rulecheck.games.globot_time_force.payment import NAMES, VALUES, greedy
from rulecheck.games.globot_time_force.state import (
    ACT,
    BOARDS,
    CLOSING,
    ENDING,
    OFFER,
    OVER,
    REFILL,
    TIMELINE,
    GTFState,
    Pending,
    Player,
)
from rulecheck.model.position import DocumentReader, Fail, Path, PositionFormat, described, dotted

DOCS: Final = "docs/globot-time-force.md#scenarios"
FORMAT_RULE: Final = DOCS
"""The `rule` of a document the format does not describe (an unknown key, a wrong type)."""

STAGES: Final = (ACT, ENDING, CLOSING, OFFER, REFILL, BOARDS, TIMELINE, OVER)
TURN_STAGES: Final = (ACT, ENDING, CLOSING)
"""The stages of a turn in progress, where skill effects may wait."""
COINS: Final = NAMES
MAX_COIN_SETS: Final = 100_000
"""The most sets of coins a player's coins make ((bronze+1)(silver+1)(gold+1)): paying in gears
looks through every set of the coins held (payment.py), so a hand-written hoard of thousands of
each kind would stall every question. Play reaches a few hundred."""
SILVER: Final = VALUES[1]
"""A silver coin's worth: `gears = N` is read as coins of 1 only below it (GTF-R1)."""
PLAYER_KEYS: Final = (
    "energy_used",
    "gears",
    "charge",
    "iom",
    "tec",
    "tableau",
    "reserved",
    "reserved_this_turn",
    "tokens",
    "declined",
)
KEYS: Final = (
    "stage",
    "current",
    "players",
    "timeline",
    "discards",
    "deck",
    "achievements",
    "second_turn",
    "second_turn_granted",
    "passives_used",
    "pending",
    "refill",
    "end_triggered_by",
    "extra_turn",
)
PENDING_KEYS: Final = ("card", "effect", "amount")


# Writing.


def write(game: GlobotTimeForce, state: GTFState) -> dict[str, Any]:
    """The position of `state` with every part written out (see the module docstring)."""
    data: GameData = game.data
    cards = data.cards

    def names(keys: Sequence[str]) -> list[str]:
        return [cards[k].name for k in keys]

    document: dict[str, Any] = {
        "stage": state.stage,
        "current": state.current,
        "players": [_write_player(data, me) for me in state.players],
        "timeline": names(state.timeline),
        "discards": names(state.discards),
        "achievements": {
            data.achievements[board].name: list(holders)
            for board, holders in zip(state.boards, state.spaces, strict=True)
        },
        "second_turn": state.in_row == counters.TURNS_IN_A_ROW,
        "second_turn_granted": state.granted,
        "passives_used": names(state.fired),
        "refill": state.refill,
        "extra_turn": state.extra,
    }
    if state.pending:
        document["pending"] = [_write_pending(data, p) for p in state.pending]
    if state.triggered >= 0:
        document["end_triggered_by"] = state.triggered
    return document


def _write_player(data: GameData, me: Player) -> dict[str, Any]:
    return {
        "energy_used": me.used,
        "gears": dict(zip(COINS, me.coins, strict=True)),
        "charge": me.charge,
        "iom": me.iom,
        "tec": me.tec,
        "tableau": [data.cards[k].name for k in me.tableau],
        "reserved": [data.cards[k].name for k in me.reserved],
        "reserved_this_turn": me.fresh,
        "tokens": me.tokens,
        "declined": me.declined,
    }


def _write_pending(data: GameData, pending: Pending) -> dict[str, Any]:
    found: dict[str, Any] = {"effect": pending.effect, "amount": pending.amount}
    if pending.card:
        found = {"card": data.cards[pending.card].name, **found}
    return found


# Reading: the shapes of values.


class _Reader(DocumentReader):
    """The document's values, type-checked, and the data set's names."""

    def __init__(self, game: GlobotTimeForce, fail: Fail) -> None:
        super().__init__(fail, FORMAT_RULE, game.players)
        self.game = game
        self.data: GameData = game.data
        self.card_keys = _by_name_or_key(self.data.cards)
        self.board_keys = _by_name_or_key(self.data.achievements)

    def card(self, value: Any, path: Path) -> str:
        if not isinstance(value, str):
            self.fail(path, f"a card name is expected, not {described(value)}", FORMAT_RULE)
        key = self.card_keys.get(value)
        if key is None:
            self.fail(
                path,
                f"the data set has no card named {shown(value)}{_like(value, self.card_keys)}",
                "cards-in-one-place",
            )
        return key

    def cards(self, table: Mapping[str, Any], key: str, path: Path) -> tuple[str, ...]:
        return tuple(self.card(v, [*path, key, i]) for i, v in enumerate(self.items(table, key, path)))


def _by_name_or_key(entries: Mapping[str, Card | Achievement]) -> dict[str, str]:
    """Each entry's key by its name and by its key itself: a position may write either (the data
    set's checks keep names and keys from naming two entries)."""
    return {entry.name: key for key, entry in entries.items()} | {key: key for key in entries}


def _like(value: str, known: Mapping[str, str]) -> str:
    """A hint naming the entries of `known` (each key by name and by key) whose name matches
    `value` but for case, spacing or dashes, or else up to three whose name or key is nearest to
    it, each by its name; or else every name."""
    folded = value.lower().replace("-", " ").split()
    found = [name for name in known if name.lower().replace("-", " ").split() == folded]
    if found:
        return f" (did you mean {shown(found[0])}?)"
    name_of = {key: text for text, key in known.items() if text != key}
    near = difflib.get_close_matches(value, list(known), n=6)
    named = list(dict.fromkeys(name_of.get(known[text], known[text]) for text in near))[:3]
    if named:
        return f" (did you mean {' or '.join(map(shown, named))}?)"
    return f"; the names are {', '.join(sorted({name_of.get(key, key) for key in known.values()}))}"


# Reading: the position.


def read(game: GlobotTimeForce, document: Mapping[str, Any], fail: Fail) -> GTFState:
    """The state `document` describes, every part left out at its default (the docs' Scenarios).
    Its parts are read in the order a reader checks them: the stage and seat, the achievement
    boards, the end trigger, the players, where every card is, and the turn's bookkeeping."""
    r = _Reader(game, fail)
    top = r.table(document, (), KEYS)
    stage = r.text(top.get("stage", ACT), ("stage",))
    if stage not in STAGES:
        fail(("stage",), f"no stage {shown(stage)}; the stages are {', '.join(STAGES)}", FORMAT_RULE)
    current = r.seat(top.get("current", 0), ("current",), "GTF-S1")
    drawn = _read_boards(r, top, stage)
    boards = tuple(sorted(drawn))
    spaces = tuple(drawn[b] for b in boards)
    placed = Counter(h for holders in spaces for h in holders)
    for p, count in sorted(placed.items()):
        if count > counters.TOKENS:
            fail(("achievements",), f"player {p} has {count} tokens on achievements, of {counters.TOKENS}", "GTF-S2")
    triggered = _read_trigger(r, top, placed)
    listed = r.items(top, "players", ())
    if len(listed) > game.players:
        fail(("players",), f"{len(listed)} players in a game of {game.players}", "GTF-S1")
    players = tuple(
        _read_player(r, listed[p] if p < len(listed) else {}, ("players", p), placed[p], triggered)
        for p in range(game.players)
    )
    timeline, discards, deck = _read_card_places(r, top, players)
    in_row = counters.TURNS_IN_A_ROW if r.boolean(top, "second_turn", ()) else 1
    granted = r.boolean(top, "second_turn_granted", ())
    extra = r.boolean(top, "extra_turn", ())
    fired = _read_passives_used(r, top, current, players[current])
    pending = tuple(_read_pending(r, entry, ("pending", i)) for i, entry in enumerate(r.items(top, "pending", ())))
    state = GTFState(
        stage=stage,
        deck=Pile.shuffled(deck),
        boards_left=Pile.shuffled(k for k in r.data.achievements if k not in drawn),
        boards=boards,
        spaces=spaces,
        timeline=timeline,
        discards=discards,
        players=players,
        current=current,
        in_row=in_row,
        granted=granted,
        fired=fired,
        pending=pending,
        refill=0,
        triggered=triggered,
        extra=extra,
    )
    refill = r.count(top, "refill", (), "GTF-T12", _refill_due(game, state))
    state = evolve(state, refill=refill)
    _check(r, state)
    return state


def _read_boards(r: _Reader, top: Mapping[str, Any], stage: str) -> dict[str, tuple[int, ...]]:
    """The drawn achievement boards by key, each with the players on its token spaces in order:
    as written, else (outside the boards stage) the data set's first boards, no token on them."""
    game, data, fail = r.game, r.data, r.fail
    board_count = data.boards_by_players[game.players - 1]
    if "achievements" not in top:
        drawn: dict[str, tuple[int, ...]] = (
            {} if stage == BOARDS else {key: () for key in list(data.achievements)[:board_count]}
        )
    else:
        drawn = {}
        for name, holders in r.table(top["achievements"], ("achievements",)).items():
            at = ("achievements", name)
            board = r.board_keys.get(name)
            if board is None:
                fail(
                    at,
                    f"the data set has no achievement board named {shown(name)}{_like(name, r.board_keys)}",
                    "GTF-S7",
                )
            if not isinstance(holders, list):
                fail(
                    at,
                    f"a list of the players on the board's token spaces is expected, not {described(holders)}",
                    FORMAT_RULE,
                )
            printed = data.achievements[board].spaces
            seats = tuple(r.seat(h, [*at, i], "GTF-S1") for i, h in enumerate(holders))
            if len(seats) > len(printed):
                fail(at, f"{len(seats)} tokens on {shown(name)}, which has {len(printed)} token spaces", "GTF-E1")
            if game.options.tokens_per_board is TokensPerBoard.ONE and len(set(seats)) < len(seats):
                fail(at, f"a player has two tokens on {shown(name)} (tokens_per_board=one)", "GTF-E1")
            drawn[board] = seats
    if stage == BOARDS and len(drawn) >= board_count:
        fail(("achievements",), f"all {board_count} boards are drawn: the stage is not {BOARDS}", "GTF-S7")
    if stage != BOARDS and len(drawn) != board_count:
        fail(("achievements",), f"{len(drawn)} boards for {game.players} players, who draw {board_count}", "GTF-S7")
    return drawn


def _read_trigger(r: _Reader, top: Mapping[str, Any], placed: Counter[int]) -> int:
    """The seat of the player who triggered the end (placed every token first), -1 for none."""
    if "end_triggered_by" in top:
        triggered = r.seat(top["end_triggered_by"], ("end_triggered_by",), "GTF-S1")
        if placed[triggered] != counters.TOKENS:
            r.fail(
                ("end_triggered_by",),
                f"player {triggered} has {placed[triggered]} tokens on achievements, not all {counters.TOKENS}",
                "GTF-E2",
            )
        return triggered
    finished = [p for p in range(r.game.players) if placed[p] == counters.TOKENS]
    if len(finished) > 1:
        r.fail(("end_triggered_by",), f"players {finished} have placed every token: say who was first", "GTF-E2")
    return finished[0] if finished else -1


def _read_card_places(
    r: _Reader, top: Mapping[str, Any], players: Sequence[Player]
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """The timeline, the discard pile (sorted) and the deck: each card of the data set's deck list
    in one place, those written nowhere in the deck (or, when the deck is written, the discards)."""
    data, fail = r.data, r.fail
    row = r.game.players + 1
    timeline = r.cards(top, "timeline", ())
    if len(timeline) > row:
        fail(("timeline",), f"{len(timeline)} cards in a timeline of {row} ({r.game.players} players + 1)", "GTF-S5")
    discards_given = "discards" in top
    discards = r.cards(top, "discards", ())
    deck_given = "deck" in top
    deck = r.cards(top, "deck", ())
    copies = Counter(data.deck_cards())
    seen: dict[str, list[Path]] = {}
    places: list[tuple[Path, tuple[str, ...]]] = [(("timeline",), timeline)]
    for p, me in enumerate(players):
        places += [(("players", p, "tableau"), me.tableau), (("players", p, "reserved"), me.reserved)]
    places += [(("discards",), discards), (("deck",), deck)]
    for path, keys in places:
        for i, key in enumerate(keys):
            found = seen.setdefault(key, [])
            found.append([*path, i])
            if len(found) > copies[key]:
                where = ", ".join(dotted(f) for f in found[:-1])
                fail(
                    [*path, i],
                    f"{shown(data.cards[key].name)} is already at {where}: the deck list has {copies[key]}",
                    "cards-in-one-place",
                )
    left = copies - Counter({key: len(found) for key, found in seen.items()})
    rest = tuple(sorted(left.elements()))
    if deck_given and not discards_given:
        discards = rest
    elif deck_given and rest:
        fail(
            ("deck",),
            f"cards in no place: {', '.join(data.cards[k].name for k in rest)} (the deck and the discard pile "
            "both given)",
            "cards-in-one-place",
        )
    else:
        deck = rest
    return timeline, tuple(sorted(discards)), deck


def _read_passives_used(r: _Reader, top: Mapping[str, Any], current: int, me: Player) -> tuple[str, ...]:
    """The cards whose passive skill has resolved this turn (sorted), each at most once a turn for
    each copy in the tableau of `me`, the player to move (GTF-T5)."""
    data, fail = r.data, r.fail
    written = r.cards(top, "passives_used", ())
    used = Counter(written)
    for i, key in enumerate(written):
        if not any(s.kind == PASSIVE for s in data.cards[key].skills):
            fail(("passives_used", i), f"{shown(data.cards[key].name)} has no passive skill", "GTF-T3a")
        if used[key] > me.tableau.count(key):
            fail(
                ("passives_used", i),
                f"{shown(data.cards[key].name)} used {used[key]} times, and player {current}'s tableau holds "
                f"{me.tableau.count(key)}: a passive skill resolves once a turn for each card",
                "GTF-T5",
            )
    return tuple(sorted(written))


def _bronze_only(gears: int, at: Path, fail: Fail) -> tuple[int, int, int]:
    """`gears` written as a number: bronze coins, the only coins a number below a silver's worth
    can be; a larger number is refused, since it does not say which coins (one silver coin or
    five bronze pay different costs exactly, GTF-R1, GTF-R6)."""
    if gears >= SILVER:
        fail(
            at,
            f"gears = {gears} does not say which coins: write them, as gears = {{ bronze = {gears} }} "
            f"({gears} coins of 1) or gears = {{ {_fewest(gears)} }} (the fewest coins); a number is read "
            f"only below {SILVER}, as coins of 1",
            "GTF-R1",
        )
    return (gears, 0, 0)


def _fewest(gears: int) -> str:
    """The fewest coins worth `gears`, as the inside of a TOML table (`silver = 1, bronze = 2`)."""
    bronze, silver, gold = greedy(gears)
    held = (("gold", gold), ("silver", silver), ("bronze", bronze))
    return ", ".join(f"{name} = {count}" for name, count in held if count)


def _refill_due(game: GlobotTimeForce, state: GTFState) -> int:
    """The cards still to draw into the timeline: in the refill stage, every gap (or, after a
    second turn in a row under second_turn_refill=one-gap, one); none in any other stage."""
    if state.stage != REFILL:
        return 0
    missing = max(game.players + 1 - len(state.timeline), 0)
    return int(counters.gaps_refilled(ops, missing, state.in_row, game.rules.one_gap))


def _read_player(r: _Reader, value: Any, at: Path, placed: int, triggered: int) -> Player:
    game, fail = r.game, r.fail
    options = game.options
    table = r.table(value, at, PLAYER_KEYS)
    used = r.count(table, "energy_used", at, "GTF-R5")
    if used > counters.ENERGY_CAP:
        fail([*at, "energy_used"], f"{used} energy used: it can never exceed {counters.ENERGY_CAP}", "energy-in-range")
    gears = table.get("gears", 0)
    if isinstance(gears, Mapping):
        coin_table = r.table(gears, [*at, "gears"], COINS)
        bronze, silver, gold = (r.count(coin_table, c, [*at, "gears"], "GTF-R1") for c in COINS)
        coins = (bronze, silver, gold)
    else:
        coins = _bronze_only(r.count(table, "gears", at, "GTF-R1"), [*at, "gears"], fail)
    sets = (coins[0] + 1) * (coins[1] + 1) * (coins[2] + 1)
    if sets > MAX_COIN_SETS:
        fail(
            [*at, "gears"],
            f"{coins[0]} bronze, {coins[1]} silver and {coins[2]} gold coins make {sets:,} sets of coins to pay "
            f"from: a position holds at most {MAX_COIN_SETS:,} (paying looks through every one)",
            FORMAT_RULE,
        )
    tableau = r.cards(table, "tableau", at)
    reserved = r.cards(table, "reserved", at)
    for key, part in [*((k, "tableau") for k in tableau), *((k, "reserved") for k in reserved)]:
        card = r.data.cards[key]
        if not card.gainable:
            keys = tableau if part == "tableau" else reserved
            fail([*at, part, keys.index(key)], f"{shown(card.name)} can never be gained or reserved", "GTF-T10")
    limit = counters.TOKENS if options.tokens is Tokens.THREE_RESERVATIONS else 1
    if len(reserved) > limit:
        fail(
            [*at, "reserved"], f"{len(reserved)} reserved cards: a player reserves at most {limit} at a time", "GTF-T7"
        )
    fresh = r.count(table, "reserved_this_turn", at, "GTF-T7")
    if fresh > len(reserved):
        fail([*at, "reserved_this_turn"], f"{fresh} reserved this turn, of {len(reserved)} reserved", "GTF-T7")
    locked = len(reserved) if options.tokens is not Tokens.ASSISTANT else 0
    tokens = r.count(table, "tokens", at, "tokens-in-one-place", counters.TOKENS - placed - locked)
    spent = counters.TOKENS - tokens - placed - locked
    if spent < 0:
        where = f"{placed} on achievements" + (f" and {locked} on a reservation" if locked else "")
        fail(
            [*at, "tokens"],
            f"{tokens} tokens in hand and {where}: a player has {counters.TOKENS}",
            "tokens-in-one-place",
        )
    if spent and triggered < 0:
        fail(
            [*at, "tokens"],
            f"{spent} of the player's tokens are on no achievement: tokens are discarded only for the extra "
            "turns after the end is triggered",
            "GTF-E3",
        )
    declined = r.boolean(table, "declined", at)
    if declined and (options.extra_turn_choice is not ExtraTurnChoice.OPTIONAL or triggered < 0):
        fail(
            [*at, "declined"],
            "a player declines extra turns only after the end is triggered, under extra_turn_choice=optional",
            "GTF-E3",
        )
    return Player(
        tableau=tableau,
        reserved=reserved,
        fresh=fresh,
        used=used,
        coins=coins,
        charge=r.count(table, "charge", at, "GTF-R7"),
        iom=r.count(table, "iom", at, "GTF-R4"),
        tec=r.count(table, "tec", at, "GTF-R3"),
        tokens=tokens,
        placed=placed,
        spent=spent,
        declined=declined,
    )


def _read_pending(r: _Reader, value: Any, at: Path) -> Pending:
    """A waiting effect: `amount` left out is the card's (its first effect of that name), else 1."""
    fail = r.fail
    table = r.table(value, at, PENDING_KEYS)
    effect = r.text(table.get("effect", DISCARD_CARD), [*at, "effect"])
    if effect not in EFFECTS or effect in SCORE_EFFECTS:
        effects = [e for e in EFFECTS if e not in SCORE_EFFECTS]
        fail([*at, "effect"], f"no effect {shown(effect)}; the effects are {', '.join(effects)}", FORMAT_RULE)
    if "card" not in table:
        amount = r.count(table, "amount", at, "GTF-T4", 1)
        if effect != DISCARD_CARD or r.game.options.tableau_limit is not TableauLimit.FORCED_DISCARD:
            fail(
                [*at, "card"],
                "only the forced discard of an 8th card (tableau_limit=forced-discard) waits without a card",
                "GTF-T8",
            )
        if amount != 1:
            fail([*at, "amount"], f"{effect} takes no amount", FORMAT_RULE)
        return Pending("", effect, amount)
    key = r.card(table["card"], [*at, "card"])
    card = r.data.cards[key]
    printed = [e.amount for s in card.skills for e in s.effects if e.effect == effect]
    amount = r.count(table, "amount", at, "GTF-T4", printed[0] if printed else 1)
    if amount not in printed:
        fail(at, f"no skill of {shown(card.name)} has the effect {effect} (amount {amount})", "GTF-T4")
    return Pending(key, effect, amount)


def _check(r: _Reader, state: GTFState) -> None:
    """What the whole position must be for play to stop there: the stage against the rest."""
    game, fail = r.game, r.fail
    stage, row = state.stage, game.players + 1
    me = state.player()
    if state.pending:
        if stage not in TURN_STAGES:
            fail(("pending",), f"skill effects wait only during a turn, not in stage {stage}", "GTF-T4")
        first = state.pending[0]
        if first.effect not in CHOICE_EFFECTS:
            fail(("pending", 0, "effect"), f"{first.effect} needs no choice: it resolves at once", "GTF-T4")
        if not skills.options(game.rules, state, first):
            fail(("pending", 0), f"{first.effect} has nothing to choose from here: it is dropped at once", "GTF-T4")
    elif stage in (ENDING, CLOSING):
        fail(("stage",), f"in stage {stage} only a waiting skill effect stops play; none waits", "GTF-T1")
    if state.granted and stage not in TURN_STAGES:
        fail(("second_turn_granted",), "a second turn is granted during a turn", "GTF-T13")
    if state.refill and stage != REFILL:
        fail(("refill",), "cards are drawn into the timeline only once a turn is over (stage refill)", "GTF-T12")
    if stage == REFILL:
        if not state.refill or not state.deck.size:
            fail(("refill",), "nothing to draw: the next turn begins", "GTF-T12")
        if len(state.timeline) + state.refill > row:
            fail(
                ("refill",),
                f"{state.refill} cards to draw into a timeline of {len(state.timeline)} of {row}",
                "GTF-T12",
            )
    if stage == TIMELINE and (len(state.timeline) >= row or not state.deck.size):
        fail(("timeline",), "the setup's timeline is full (or the deck is empty): the first turn begins", "GTF-S5")
    if stage in (BOARDS, TIMELINE) and (state.current or state.in_row != 1 or state.triggered >= 0):
        fail(("stage",), f"stage {stage} is part of the setup: nobody has had a turn", "GTF-S5")
    if stage == BOARDS and state.timeline:
        fail(("timeline",), "the timeline is drawn after the achievement boards", "GTF-S7")
    if state.extra and (state.triggered < 0 or state.current == state.triggered):
        fail(("extra_turn",), "extra turns follow the end trigger, for the other players", "GTF-E3")
    if state.extra and stage in TURN_STAGES and not me.spent:
        fail(
            ("players", state.current, "tokens"),
            f"player {state.current} is in an extra turn but has discarded no token for it "
            f"({me.tokens} in hand, {me.placed} on achievements)",
            "GTF-E3",
        )
    if stage == OFFER:
        if game.options.extra_turn_choice is not ExtraTurnChoice.OPTIONAL:
            fail(("stage",), "extra turns are offered only under extra_turn_choice=optional", "GTF-E3")
        if state.triggered < 0 or state.current not in turns.waiting_players(game.rules, state):
            fail(("current",), f"player {state.current} cannot be offered an extra turn", "GTF-E3")
    scored_only = game.options.tableau_limit is TableauLimit.SCORING
    for p, player in enumerate(state.players):
        forced = sum(not x.card for x in state.pending) if p == state.current else 0
        allowed = counters.TABLEAU_LIMIT + forced
        if not scored_only and len(player.tableau) > allowed:
            fail(
                ("players", p, "tableau"),
                f"{len(player.tableau)} cards in a tableau of up to {counters.TABLEAU_LIMIT}"
                + (f" ({forced} forced discards waiting)" if forced else ""),
                "GTF-T8",
            )
    if stage == OVER and state.timeline:
        if state.triggered < 0 or turns.waiting_players(game.rules, state):
            fail(
                ("stage",),
                "the game ends once the end is triggered and no player has a token left for an extra turn "
                "(or when the deck and the timeline are empty)",
                "GTF-E4",
            )


FORMAT: PositionFormat[GTFState] = PositionFormat(read=read, write=write, defaults=DOCS)
