"""Globetrotter positions written by hand: the `[position]` table of a scenario file, read and written.

Models: a position as a rule designer writes it (docs/globetrotter.md#scenarios): the phase;
the turn (who moves, the actions taken in a row, stolen Treasury points, the point saved this
turn, Rovers that arrived from another orbit); each planet's fire counter and whether it is
destroyed; each player, in seat order, with their setup roll, whether they have lost, their
Rovers on the board by space (with hit points) and in orbit by planet letter, their
Fortifications, and their Buildings by space (type, by its key or its name as `rulecheck cards`
lists them, hit points, build or saved points, a Drill Cannon's readiness and aim); the
roll-off contenders and the placing order during setup; and the dice still to roll, first one
next. Spaces are board labels (`T14`, docs/board.md), with
the planet letter in front when there are several planets (`b:T14`). `read` fills every part
left out with the default the docs list and refuses, naming the clause and the entry, the
unreachable positions a designer is likely to write by mistake: a label no board of the game
has, two pieces where only one may stand, a Building off an HQ or twice of one type, counters
out of range, Fortifications side by side where Fortify forbids it, pieces on a destroyed
planet, setup pieces that setup never places, a player to move with no action left, a player
who meets the loss condition and plays on. `write` is its inverse on every reachable state,
and depends on the state alone (not on the options), so a sweep over readings compares like
with like.

Leaves out: the checks of the properties in properties/globetrotter.py that the scenario
reader runs on every position anyway (it repeats the clearest ones, with the entry that breaks
them); Rover identities (two orbiting Rovers of a player with equal hit points are one entry
twice, as in the state); which player caused a pending roll (always the player to move);
whether the turn's own action is spent (it is the first of the turn: spent once `actions` > 0).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Final, NoReturn

from rulecheck.core.evolve import evolve
from rulecheck.core.untrusted import shown
from rulecheck.games.globetrotter.board import PLANET_LETTERS, Boards
from rulecheck.games.globetrotter.combat import DAMAGE_ROLL, DESTRUCTION, DRILL_DAMAGE, DRILL_HITS, EXPLOSION, TO_HIT
from rulecheck.games.globetrotter.components import NAMES
from rulecheck.games.globetrotter.counters import (
    ACTIONS_IN_A_ROW,
    BUILDING_HP,
    COVERED_THRESHOLD,
    FACTORY_CAPACITY,
    FORTIFICATION_HP,
    HIT_THRESHOLD,
    ROVER_HP,
    TREASURY_CAPACITY,
)
from rulecheck.games.globetrotter.game import Globetrotter
from rulecheck.games.globetrotter.options import (
    DescendAfterOrbit,
    DestroyingAction,
    DestructionRoll,
    FortifyAdjacency,
    GameEnd,
    GlobetrotterOptions,
    LossCheck,
    LostPieces,
    RoversPerTurn,
)
from rulecheck.games.globetrotter.state import (
    AIMED,
    BEFORE_PLAY,
    BUILDING,
    BUILDING_KINDS,
    CHOOSE,
    DRILL_CANNON,
    FACTORY,
    FORTIFICATION,
    IDLE,
    OVER,
    PLACE_FACTORY,
    PLACE_ROVER,
    PLAY,
    READY,
    ROLL,
    ROVER,
    TARGET_KINDS,
    TREASURY,
    Building,
    Fortification,
    GlobetrotterState,
    Pending,
    PlanetState,
    Rover,
    Turn,
)
from rulecheck.games.globetrotter.turns import can_act
from rulecheck.geometry.planet import label_order, labelled_faces
from rulecheck.model.position import Fail, Path, PositionFormat

DOCS: Final = "docs/globetrotter.md#scenarios"
"""Where the format is documented; also the rule named when a document is not in the format
(an unknown key, a value of the wrong type), which breaks no rule of the game."""
PHASES: Final = (ROLL, CHOOSE, PLACE_FACTORY, PLACE_ROVER, PLAY, OVER)
ROLLS: Final = (TO_HIT, DAMAGE_ROLL, DRILL_HITS, DRILL_DAMAGE, EXPLOSION, DESTRUCTION)
"""The kinds of pending roll, in the engine's words."""
READINESS: Final = (IDLE, READY, AIMED)
DIE_FACES: Final = 6
ROLL_KEYS: Final = {
    TO_HIT: ("roll", "space", "target", "needs"),
    DAMAGE_ROLL: ("roll", "space", "target", "needs"),
    DRILL_HITS: ("roll", "space"),
    DRILL_DAMAGE: ("roll", "space", "hits"),
    EXPLOSION: ("roll", "space"),
    DESTRUCTION: ("roll", "planet"),
}
"""The keys of a pending roll of each kind."""
PLAYER_KEYS: Final = ("roll", "lost", "rovers", "orbit", "fortifications", "buildings")
BUILDING_KEYS: Final = ("kind", "hp", "points", "readiness", "aim")
BY_NAME: Final = {name: key for key, name in NAMES.items()}
"""A Building's kind by its name (`Space Port`): a position writes its key (`space-port`) or its name."""
POINT_CAPACITY: Final = {FACTORY: (FACTORY_CAPACITY, "GT-F1"), TREASURY: (TREASURY_CAPACITY, "GT-T2")}
"""The building types that hold points, with the most they hold and the clause saying so."""
TOP_KEYS: Final = ("phase", "contenders", "placing", "turn", "planets", "players", "pending")
TURN_KEYS: Final = (
    "player",
    "actions",
    "counted",
    "stolen",
    "saved_this_turn",
    "action_excluded",
    "arrived",
    "rover",
)
ORBIT_ROVER_KEYS: Final = ("orbit", "hp")


def _type_name(value: object) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, Mapping):
        return "a table"
    if isinstance(value, list | tuple):
        return "an array"
    return type(value).__name__


class _Reader:
    """One reading of a document, for one game: the helpers that check a value and name its path."""

    def __init__(self, game: Globetrotter, fail: Fail) -> None:
        self.game = game
        self.boards: Boards = game.rules.boards
        self.options: GlobetrotterOptions = game.options
        self.fail = fail
        self.destroyed: set[int] = set()
        """The planets the document destroys (read before the pieces)."""
        self.contenders: tuple[int, ...] = ()
        """The players rolling in this setup round (read before the players)."""

    def refuse(self, path: Path, message: str, rule: str = DOCS) -> NoReturn:
        self.fail(tuple(path), message, rule)

    def table(self, value: object, path: Path, keys: Sequence[str] | None = None) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            self.refuse(path, f"must be a table, not {_type_name(value)}")
        if keys is not None:
            for key in value:
                if key not in keys:
                    self.refuse((*path, key), f"unknown key {shown(str(key))}; keys: {', '.join(keys)}")
        return value

    def array(self, value: object, path: Path) -> Sequence[Any]:
        if not isinstance(value, list | tuple):
            self.refuse(path, f"must be an array, not {_type_name(value)}")
        return value

    def integer(self, value: object, path: Path, low: int, high: int | None, rule: str, what: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.refuse(path, f"must be an integer, not {_type_name(value)}")
        if value < low or (high is not None and value > high):
            bound = f"{low} or more" if high is None else f"{low} to {high}"
            self.refuse(path, f"{what}: {bound}, not {value}", rule)
        return value

    def boolean(self, value: object, path: Path) -> bool:
        if not isinstance(value, bool):
            self.refuse(path, f"must be true or false, not {_type_name(value)}")
        return value

    def string(self, value: object, path: Path, choices: Sequence[str] | None = None, rule: str = DOCS) -> str:
        if not isinstance(value, str):
            self.refuse(path, f"must be a string, not {_type_name(value)}")
        if choices is not None and value not in choices:
            self.refuse(path, f"{shown(value)} is none of {', '.join(choices)}", rule)
        return value

    def player(self, value: object, path: Path) -> int:
        return self.integer(
            value, path, 0, self.game.players - 1, DOCS, f"a player of this {self.game.players}-player game"
        )

    def space(self, value: object, path: Path) -> tuple[int, str]:
        """(planet, label) of a space token: `T14`, or `b:T14` with several planets."""
        token = self.string(value, path)
        where = self.boards.parse(token)
        if where is None:
            self.refuse(path, *self._no_space(token))
        if where[0] in self.destroyed:
            self.refuse(path, f"{token} is on a destroyed planet, which holds nothing", "GT-D6")
        return where

    def _no_space(self, token: str) -> tuple[str, str]:
        """Why a token names no space of this game, and the clause."""
        count = self.boards.count
        letter, _, label = token.rpartition(":")
        if count > 1 and not letter and label in self.boards.graph:
            letters = " or ".join(f"{PLANET_LETTERS[p]}:{label}" for p in range(count))
            return f"{shown(token)} needs its planet in a game of {count} planets: {letters}", DOCS
        if letter and (count == 1 or self.planet_index(letter) is None):
            where = "a one-planet game writes spaces without a letter" if count == 1 else f"planets: {self._letters()}"
            return f"{shown(token)}: no planet {shown(letter)} ({where})", "GT-M1"
        _, solid = labelled_faces()
        if label in solid:
            removal = self.options.removal
            return f"{label} is not a space of the board under removal={removal}", "GT-B2"
        return f"no space {shown(token)}: spaces are P0..P10 and T0..T79 (docs/board.md)", "GT-B1"

    def _letters(self) -> str:
        return ", ".join(PLANET_LETTERS[p] for p in range(self.boards.count))

    def planet_index(self, letter: str) -> int | None:
        return self.boards.parse_orbit(letter)

    def orbit(self, value: object, path: Path) -> int:
        letter = self.string(value, path)
        index = self.planet_index(letter)
        if index is None:
            self.refuse(path, f"no planet {shown(letter)}; planets: {self._letters()}", "GT-M1")
        if index in self.destroyed:
            self.refuse(path, f"planet {letter} is destroyed, and its orbit with it", "GT-D6")
        return index

    def token(self, where: tuple[int, str]) -> str:
        return self.boards.token(*where)


class _Pieces:
    """The pieces read so far, by space, each with the path of its entry: a piece is refused where
    another stands that the rules never let share its space."""

    def __init__(self, reader: _Reader) -> None:
        self.reader = reader
        self.rovers: list[Rover] = []
        self.fortifications: list[Fortification] = []
        self.buildings: list[Building] = []
        self.at: dict[tuple[int, str], dict[str, Rover | Fortification | Building]] = {}

    def _conflict(self, kind: str, owner: int, there: Mapping[str, Rover | Fortification | Building]) -> str | None:
        """The clause and reason a piece of `kind` may not join what stands `there`, as 'rule|reason'."""
        rover, fortification, building = there.get(ROVER), there.get(FORTIFICATION), there.get(BUILDING)
        if kind == ROVER:
            if rover is not None:
                return "GT-A2|holds another Rover already"
            if building is not None:
                return "GT-A2|holds a Building, which no Rover may enter"
            if fortification is not None and fortification.owner != owner:
                return f"GT-A3|holds player {fortification.owner}'s Fortification, which no enemy Rover may enter"
        elif kind == FORTIFICATION:
            if fortification is not None:
                return "GT-A9|holds another Fortification already"
            if building is not None:
                return "GT-A9|holds a Building; a Fortification goes on an unoccupied space"
            if rover is not None and rover.owner != owner:
                return f"GT-A3|holds player {rover.owner}'s Rover, which may not stand on an enemy Fortification"
        else:
            if building is not None:
                return "GT-A10|holds another Building already"
            if rover is not None:
                return "GT-A2|holds a Rover; a Building goes on an unoccupied HQ space"
            if fortification is not None:
                return "GT-A10|holds a Fortification; a Building goes on an unoccupied HQ space"
        return None

    def place(self, piece: Rover | Fortification | Building, kind: str, path: Path) -> None:
        assert piece.space is not None
        where = (piece.planet, piece.space)
        there = self.at.setdefault(where, {})
        conflict = self._conflict(kind, piece.owner, there)
        if conflict is not None:
            rule, reason = conflict.split("|", 1)
            self.reader.refuse(path, f"{self.reader.token(where)} {reason}", rule)
        there[kind] = piece


def _read_rovers(r: _Reader, pieces: _Pieces, owner: int, value: object, path: Path) -> None:
    """`rovers = { T14 = 3 }` (space and hit points) or `rovers = ["T14"]` (at full hit points)."""
    if isinstance(value, list | tuple):
        entries = [(item, ROVER_HP, (*path, i)) for i, item in enumerate(value)]
    else:
        entries = [(token, hp, (*path, token)) for token, hp in r.table(value, path).items()]
    for token, hp, where_path in entries:
        planet, space = r.space(token, where_path)
        hp = r.integer(hp, where_path, 1, ROVER_HP, "GT-A8", "a Rover's hit points")
        rover = Rover(planet, space, owner, hp)
        pieces.place(rover, ROVER, where_path)
        pieces.rovers.append(rover)


def _read_orbit(r: _Reader, pieces: _Pieces, owner: int, value: object, path: Path) -> None:
    """`orbit = { a = [3, 2] }`: the hit points of each Rover orbiting each planet; with one
    planet, `orbit = [3, 2]` too."""
    if isinstance(value, list | tuple) and r.boards.count == 1:
        entries: list[tuple[object, object, Path]] = [(PLANET_LETTERS[0], value, path)]
    else:
        entries = [(letter, hps, (*path, letter)) for letter, hps in r.table(value, path).items()]
    for letter, hps, letter_path in entries:
        planet = r.orbit(letter, letter_path)
        for i, hp in enumerate(r.array(hps, letter_path)):
            hp = r.integer(hp, (*letter_path, i), 1, ROVER_HP, "GT-A8", "a Rover's hit points")
            pieces.rovers.append(Rover(planet, None, owner, hp))


def _read_fortifications(r: _Reader, pieces: _Pieces, owner: int, value: object, path: Path) -> None:
    for i, token in enumerate(r.array(value, path)):
        planet, space = r.space(token, (*path, i))
        fortification = Fortification(planet, space, owner, FORTIFICATION_HP)
        pieces.place(fortification, FORTIFICATION, (*path, i))
        pieces.fortifications.append(fortification)


def _read_building(r: _Reader, owner: int, token: str, value: object, path: Path) -> Building:
    planet, space = r.space(token, path)
    if not r.boards.is_hq(space):
        r.refuse(path, f"{token} is not an HQ space: Buildings stand only on HQs", "GT-B3")
    entry = {"kind": value} if isinstance(value, str) else r.table(value, path, BUILDING_KEYS)
    if "kind" not in entry:
        r.refuse(path, f"the Building on {token} needs its kind: {', '.join(BUILDING_KINDS)}")
    written = entry["kind"]
    kind = r.string(
        BY_NAME.get(written, written) if isinstance(written, str) else written,
        (*path, "kind"),
        BUILDING_KINDS,
        "GT-A11",
    )
    hp = r.integer(entry.get("hp", BUILDING_HP), (*path, "hp"), 1, BUILDING_HP, "GT-A8", "a Building's hit points")
    points = 0
    if "points" in entry:
        if kind not in POINT_CAPACITY:
            r.refuse((*path, "points"), f"a {kind} holds no points: only Factories and Treasuries do", "GT-F1")
        capacity, rule = POINT_CAPACITY[kind]
        points = r.integer(entry["points"], (*path, "points"), 0, capacity, rule, f"a {kind}'s points")
    readiness, aim = IDLE, None
    if kind != DRILL_CANNON:
        for key in ("readiness", "aim"):
            if key in entry:
                r.refuse((*path, key), f"only a Drill Cannon is readied and aimed, not a {kind}", "GT-D1")
    else:
        if "aim" in entry:
            aim_planet, aim = r.space(entry["aim"], (*path, "aim"))
            if aim_planet != planet:
                r.refuse((*path, "aim"), "a Drill Cannon aims at a space on its own planet", "GT-D1")
        readiness = r.string(entry.get("readiness", AIMED if aim else IDLE), (*path, "readiness"), READINESS, "GT-D1")
        if (readiness == AIMED) != (aim is not None):
            message = "an aimed Drill Cannon needs its aim" if aim is None else f"a {readiness} Drill Cannon has no aim"
            r.refuse((*path, "readiness"), message, "GT-D1")
    return Building(planet, space, owner, kind, hp, points, readiness, aim)


def _read_player(r: _Reader, pieces: _Pieces, index: int, value: object) -> tuple[int, bool]:
    """One seat's entry: its pieces go to `pieces`; returns its setup roll (0: none) and whether it has lost."""
    path: Path = ("players", index)
    entry = r.table(value, path, PLAYER_KEYS)
    roll = r.integer(entry["roll"], (*path, "roll"), 1, DIE_FACES, "GT-S1", "a d6") if "roll" in entry else 0
    lost = r.boolean(entry.get("lost", False), (*path, "lost"))
    _read_rovers(r, pieces, index, entry.get("rovers", {}), (*path, "rovers"))
    _read_orbit(r, pieces, index, entry.get("orbit", {}), (*path, "orbit"))
    _read_fortifications(r, pieces, index, entry.get("fortifications", []), (*path, "fortifications"))
    buildings_path = (*path, "buildings")
    kinds: Counter[tuple[int, str]] = Counter()
    for token, building_value in r.table(entry.get("buildings", {}), buildings_path).items():
        building = _read_building(r, index, token, building_value, (*buildings_path, token))
        pieces.place(building, BUILDING, (*buildings_path, token))
        pieces.buildings.append(building)
        kinds[(building.planet, building.kind)] += 1
        if kinds[(building.planet, building.kind)] > 1:
            r.refuse((*buildings_path, token), f"player {index} has a {building.kind} on this planet already", "GT-A11")
        if building.kind == TREASURY and sum(n for (_, k), n in kinds.items() if k == TREASURY) > 1:
            r.refuse((*buildings_path, token), f"player {index} has a Treasury already: one in all", "GT-T6")
    return roll, lost


def _check_fortifications_apart(r: _Reader, pieces: _Pieces) -> None:
    """GT-A9 under `fortify_adjacency`: no two Fortifications side by side (space-any), none of one
    player's beside another of theirs (space-own); the Rover reading lets them touch."""
    reading = r.options.fortify_adjacency
    if reading is FortifyAdjacency.ROVER:
        return
    owners = {(f.planet, f.space): f.owner for f in pieces.fortifications}
    for f in pieces.fortifications:
        for near in r.boards.adjacent[f.space]:
            other = owners.get((f.planet, near))
            if other is not None and (reading is FortifyAdjacency.SPACE_ANY or other == f.owner):
                index = [g for g in pieces.fortifications if g.owner == f.owner].index(f)
                path = ("players", f.owner, "fortifications", index)
                whose = "another" if other == f.owner else f"player {other}'s"
                r.refuse(
                    path,
                    f"{r.token((f.planet, f.space))} is adjacent to {whose} Fortification on "
                    f"{r.token((f.planet, near))} (fortify_adjacency={reading.value})",
                    "GT-A9",
                )


def _read_turn(r: _Reader, value: object) -> Turn:
    entry = r.table(value, ("turn",), TURN_KEYS)
    player = r.player(entry.get("player", 0), ("turn", "player"))
    taken = r.integer(entry.get("actions", 0), ("turn", "actions"), 0, None, "GT-A0", "actions taken")
    excluded_reading = r.options.destroying_action is DestroyingAction.EXCLUDED
    counted = taken
    if "counted" in entry:
        counted = r.integer(
            entry["counted"], ("turn", "counted"), 0, min(taken, ACTIONS_IN_A_ROW), "GT-T5", "counted actions"
        )
        if counted != taken and not excluded_reading:
            r.refuse(("turn", "counted"), "every action counts toward the 4 (destroying_action=counts)", "GT-T5")
    if counted > ACTIONS_IN_A_ROW:
        r.refuse(("turn", "actions"), f"no player takes more than {ACTIONS_IN_A_ROW} actions in a row", "GT-T5")
    stolen = r.integer(
        entry.get("stolen", 0),
        ("turn", "stolen"),
        0,
        ACTIONS_IN_A_ROW - counted,
        "GT-T5",
        f"stolen points after {counted} counted actions",
    )
    if stolen and not taken:
        r.refuse(("turn", "stolen"), "points are stolen by an action of this turn, and none is taken yet", "GT-T4")
    saved_now = r.integer(
        entry.get("saved_this_turn", 0), ("turn", "saved_this_turn"), 0, 1, "GT-T1", "points saved this turn"
    )
    if saved_now and not taken:
        r.refuse(("turn", "saved_this_turn"), "saving spends the turn's own action, and none is taken yet", "GT-T1")
    excluded = r.boolean(entry.get("action_excluded", False), ("turn", "action_excluded"))
    if excluded and not excluded_reading:
        r.refuse(("turn", "action_excluded"), "only under destroying_action=excluded", "GT-T5")
    arrived: list[tuple[int, int]] = []
    if "arrived" in entry:
        if r.boards.count == 1 and r.options.descend_after_orbit is DescendAfterOrbit.SAME_TURN:
            r.refuse(
                ("turn", "arrived"),
                "with one planet no Rover waits to descend: none arrives from another orbit, and one that"
                " went into orbit may descend at once (descend_after_orbit=same-turn)",
                "GT-SP3",
            )
        for letter, hps in r.table(entry["arrived"], ("turn", "arrived")).items():
            planet = r.planet_index(letter)  # a planet destroyed since the Rover arrived stays listed
            if planet is None:
                r.refuse(("turn", "arrived", letter), f"no planet {shown(letter)}; planets: {r._letters()}", "GT-M1")
            for i, hp in enumerate(r.array(hps, ("turn", "arrived", letter))):
                path = ("turn", "arrived", letter, i)
                arrived.append((planet, r.integer(hp, path, 1, ROVER_HP, "GT-A8", "a Rover's hit points")))
    return Turn(player, taken, counted, taken > 0, stolen, excluded, tuple(sorted(arrived)), saved_now)


def _read_pending(r: _Reader, value: object, pieces: _Pieces, player: int) -> tuple[Pending, ...]:
    found: list[Pending] = []
    for i, item in enumerate(r.array(value, ("pending",))):
        path: Path = ("pending", i)
        if "roll" not in r.table(item, path):
            r.refuse(path, f"a pending roll names its kind: roll = one of {', '.join(ROLLS)}")
        kind = r.string(item["roll"], (*path, "roll"), ROLLS, DOCS)
        entry = r.table(item, path, ROLL_KEYS[kind])
        if kind == DESTRUCTION:
            if "planet" not in entry:
                r.refuse(path, "a destruction roll names its planet")
            found.append(Pending(kind, player, r.orbit(entry["planet"], (*path, "planet")), ""))
            continue
        if "space" not in entry:
            r.refuse(path, f"a {kind} roll names its space")
        planet, space = r.space(entry["space"], (*path, "space"))
        target, threshold, count = "", 0, 0
        if kind in (TO_HIT, DAMAGE_ROLL):
            target = r.string(entry.get("target", ROVER), (*path, "target"), TARGET_KINDS, "GT-A4")
            if kind == TO_HIT and target != ROVER:
                r.refuse((*path, "target"), "only a Rover is rolled to hit; others are hit automatically", "GT-A6")
            piece = pieces.at.get((planet, space), {}).get(target)
            if piece is None or piece.owner == player:
                r.refuse((*path, "space"), f"no enemy {target} on {r.token((planet, space))} to roll for", "GT-A4")
            threshold = r.integer(
                entry.get("needs", HIT_THRESHOLD),
                (*path, "needs"),
                HIT_THRESHOLD,
                COVERED_THRESHOLD,
                "GT-A7",
                "the roll needed",
            )
        elif kind == DRILL_DAMAGE:
            count = r.integer(entry.get("hits", 1), (*path, "hits"), 1, DIE_FACES, "GT-D2", "a d6 of hits")
        elif kind == EXPLOSION and not r.boards.is_hq(space):
            r.refuse((*path, "space"), "a Drill Cannon explodes on its own HQ space", "GT-D5")
        found.append(Pending(kind, player, planet, space, target, threshold, count))
    return tuple(found)


def _check_setup(r: _Reader, phase: str, placing: Sequence[int], pieces: _Pieces, rolls: Sequence[int]) -> None:
    """GT-S1, GT-S2, GT-S5: during setup only placed Factories and their Rovers stand, fresh."""
    if pieces.fortifications:
        f = pieces.fortifications[0]
        r.refuse(("players", f.owner, "fortifications"), "no Fortification stands during setup", "GT-S2")
    for b in pieces.buildings:
        building_path = ("players", b.owner, "buildings", r.token((b.planet, b.space)))
        if b.kind != FACTORY:
            r.refuse(building_path, f"setup places only Factories, not a {b.kind}", "GT-S2")
        if b.points or b.hp != BUILDING_HP:
            r.refuse(building_path, "a Factory starts with 5 hit points and no build points", "GT-S5")
    for rover in pieces.rovers:
        if rover.space is None:
            r.refuse(("players", rover.owner, "orbit"), "no Rover is in orbit during setup", "GT-S2")
        if rover.hp != ROVER_HP:
            rover_path = ("players", rover.owner, "rovers", r.token((rover.planet, rover.space)))
            r.refuse(rover_path, "a Rover starts with 3 hit points", "GT-S5")
    for player in range(r.game.players):
        factories = [b for b in pieces.buildings if b.owner == player]
        rovers = [x for x in pieces.rovers if x.owner == player]
        path: Path = ("players", player)
        placer = phase == PLACE_ROVER and bool(placing) and placing[0] == player
        if phase in (ROLL, CHOOSE) and (rovers or factories):
            r.refuse(path, "nothing is placed before the roll-off is settled", "GT-S2")
        if phase in (ROLL, CHOOSE) or player in placing:
            if rovers or (factories and not placer):
                r.refuse(path, f"player {player} has not placed yet (placing: {list(placing)})", "GT-S2")
            if placer and not factories:
                r.refuse(path, f"player {player} places a Rover next to the Factory they placed, and has none", "GT-S2")
            continue
        if len(factories) != 1 or len(rovers) != 1:
            r.refuse(path, f"player {player} has placed, so has one Factory and one Rover", "GT-S2")
        factory, rover = factories[0], rovers[0]
        assert rover.space is not None
        if rover.planet != factory.planet or rover.space not in r.boards.adjacent[factory.space]:
            r.refuse((*path, "rovers"), "a Rover is placed adjacent to its Factory", "GT-S2")
    if phase == ROLL:
        for player, roll in enumerate(rolls):
            if roll and player not in r.contenders:
                r.refuse(("players", player, "roll"), "only the players rolling this round have a roll", "GT-S1")


def _check_losses(r: _Reader, state: GlobetrotterState) -> None:
    """GT-E1, GT-E2, GT-E3: losers are marked (after every action, by default) and the game ends when
    the end rule says, in a position where a player decides."""
    players = r.game.players
    if all(p.destroyed for p in state.planets) and (state.phase != OVER or len(state.lost) < players):
        r.refuse(("planets",), "every planet is destroyed: the game is over and every player has lost", "GT-E2")
    if state.phase not in (PLAY, OVER) or state.pending:
        return
    alive = [p for p in range(players) if p not in state.lost]
    if r.options.lost_pieces is LostPieces.REMOVED:
        holding = {x.owner for x in state.rovers} | {x.owner for x in state.fortifications}
        holding |= {x.owner for x in state.buildings}
        for p in state.lost:
            if p in holding:
                r.refuse(
                    ("players", p), f"player {p} has lost, so holds no piece (a loser's pieces are removed)", "GT-E1"
                )
    if r.options.loss_check is LossCheck.AFTER_EVERY_ACTION:
        for p in alive:
            if not any(x.owner == p and x.space is not None for x in state.rovers) and not any(
                b.owner == p and b.kind == FACTORY for b in state.buildings
            ):
                r.refuse(
                    ("players", p),
                    f"player {p} has no Rover on a planet and no Factory, so has lost: give them a piece, "
                    "or write lost = true",
                    "GT-E1",
                )
    if state.phase == PLAY and not can_act(r.game.rules, state):
        r.refuse(
            ("turn",),
            f"player {state.turn.player if state.turn else 0} has no action left: the turn has passed "
            "(one action, and extra ones from stolen or saved points, at most 4 in a row)",
            "GT-A0",
        )
    ended = len(alive) <= 1 if r.options.game_end is GameEnd.LAST_STANDING else bool(state.lost)
    if ended and state.phase == PLAY:
        r.refuse(("phase",), f'the game is over (game_end={r.options.game_end.value}): write phase = "over"', "GT-E3")
    if not ended and state.phase == OVER:
        r.refuse(("phase",), f"players {alive} are still in (game_end={r.options.game_end.value})", "GT-E3")


def read(game: Globetrotter, document: Mapping[str, Any], fail: Fail) -> GlobetrotterState:
    """The state `document` describes, every part it leaves out at its default
    (docs/globetrotter.md#scenarios); `fail` for a document not in the format or a position the
    rules cannot reach."""
    r = _Reader(game, fail)
    doc = r.table(document, (), TOP_KEYS)
    players = game.players
    phase = r.string(doc.get("phase", PLAY), ("phase",), PHASES)

    planets = [PlanetState(0, False) for _ in range(r.boards.count)]
    for letter, value in r.table(doc.get("planets", {}), ("planets",)).items():
        index = r.planet_index(letter)
        if index is None:
            r.refuse(("planets", letter), f"no planet {shown(letter)}; planets: {r._letters()}", "GT-M1")
        entry = r.table(value, ("planets", letter), ("fires", "destroyed"))
        fires = r.integer(entry.get("fires", 0), ("planets", letter, "fires"), 0, None, "GT-D6", "a fire counter")
        destroyed = r.boolean(entry.get("destroyed", False), ("planets", letter, "destroyed"))
        lowest = 2 if r.options.destruction_roll is DestructionRoll.LESS_OR_EQUAL else 3
        if destroyed and fires < lowest:
            r.refuse(
                ("planets", letter, "fires"),
                f"a planet is destroyed only when 2d6 is below its fire count (destruction_roll="
                f"{r.options.destruction_roll.value}), so after {lowest} firings at least",
                "GT-D6",
            )
        planets[index] = PlanetState(fires, destroyed)
        if destroyed:
            r.destroyed.add(index)

    setup = phase in BEFORE_PLAY
    contenders: tuple[int, ...] = ()
    if "contenders" in doc and phase not in (ROLL, CHOOSE):
        r.refuse(("contenders",), "only the roll-off (phases roll and choose) has contenders", "GT-S1")
    if phase == CHOOSE and players != 2:
        r.refuse(("phase",), "only in a two-player game does the high roller choose the order", "GT-S1")
    if phase in (ROLL, CHOOSE):
        raw = r.array(doc.get("contenders", list(range(players)) if phase == ROLL else [0]), ("contenders",))
        contenders = tuple(r.player(p, ("contenders", i)) for i, p in enumerate(raw))
        if len(set(contenders)) != len(contenders) or not contenders:
            r.refuse(("contenders",), "each contender once, and at least one", "GT-S1")
        if phase == CHOOSE and len(contenders) != 1:
            r.refuse(("contenders",), "the high roller alone chooses the order", "GT-S1")
    r.contenders = contenders

    pieces = _Pieces(r)
    entries = r.array(doc.get("players", []), ("players",))
    if len(entries) > players:
        r.refuse(("players", players), f"a {players}-player game has {players} seats")
    rolls = [0] * players
    lost: list[int] = []
    for index, entry in enumerate(entries):
        rolls[index], has_lost = _read_player(r, pieces, index, entry)
        if has_lost:
            if setup:
                r.refuse(("players", index, "lost"), "nobody loses during setup", "GT-E1")
            lost.append(index)
    _check_fortifications_apart(r, pieces)

    placing: tuple[int, ...] = ()
    if "placing" in doc and phase not in (PLACE_FACTORY, PLACE_ROVER):
        r.refuse(("placing",), "only the placing phases (place-factory, place-rover) have a placing order", "GT-S2")
    if phase in (PLACE_FACTORY, PLACE_ROVER):
        if "placing" in doc:
            raw = r.array(doc["placing"], ("placing",))
            placing = tuple(r.player(p, ("placing", i)) for i, p in enumerate(raw))
        else:
            unplaced = [p for p in range(players) if not any(x.owner == p for x in pieces.rovers)]
            placing = tuple(sorted(unplaced, key=lambda p: not any(b.owner == p for b in pieces.buildings)))
        if len(set(placing)) != len(placing) or not placing:
            r.refuse(("placing",), "each player still to place once, and at least one", "GT-S2")
    if phase == ROLL and all(rolls[p] for p in contenders):
        r.refuse(("contenders",), "every contender has rolled: the roll-off round is settled", "GT-S1")
    if setup:
        _check_setup(r, phase, placing, pieces, rolls)

    turn: Turn | None = None
    if "turn" in doc and phase != PLAY:
        r.refuse(("turn",), "only the play phase has a turn", "GT-A0")
    if phase == PLAY:
        turn = _read_turn(r, doc.get("turn", {}))
        if turn.player in lost:
            r.refuse(("turn", "player"), f"player {turn.player} has lost and never moves again", "GT-E1")
        if "rover" in doc.get("turn", {}):
            turn = evolve(turn, rover=_read_turns_rover(r, doc["turn"]["rover"], pieces, turn))
    pending: tuple[Pending, ...] = ()
    if "pending" in doc:
        if turn is None:
            r.refuse(("pending",), "rolls are pending only during an action of the play phase", "GT-A0")
        if not turn.taken:
            r.refuse(("pending",), "a roll is pending for an action of this turn, and none is taken yet", "GT-A0")
        pending = _read_pending(r, doc["pending"], pieces, turn.player)

    state = GlobetrotterState(
        phase=phase,
        rolls=tuple(rolls),
        contenders=contenders,
        placing=placing,
        turn=turn,
        rover_codes=(),
        fortification_codes=(),
        building_codes=(),
        planets=tuple(planets),
        pending=pending,
        lost=tuple(sorted(lost)),
    ).with_pieces(pieces.rovers, pieces.fortifications, pieces.buildings)
    _check_losses(r, state)
    return state


def _read_turns_rover(r: _Reader, value: object, pieces: _Pieces, turn: Turn) -> tuple[int, str, int]:
    """GT-F4 under `rovers_per_turn=one`: the code of the turn's Rover, written as its space, or as
    `{ orbit = LETTER, hp = N }` for one in orbit; it must be a Rover of the player to move, in a turn
    that has taken an action."""
    path = ("turn", "rover")
    if r.options.rovers_per_turn is not RoversPerTurn.ONE:
        r.refuse(path, "only under rovers_per_turn=one does a turn keep the Rover that acted", "GT-F4")
    if not turn.taken:
        r.refuse(path, "a Rover acts by an action of this turn, and none is taken yet", "GT-F4")
    if isinstance(value, Mapping):
        entry = r.table(value, path, ORBIT_ROVER_KEYS)
        planet = r.orbit(entry.get("orbit", PLANET_LETTERS[0]), (*path, "orbit"))
        hp = r.integer(entry.get("hp", ROVER_HP), (*path, "hp"), 1, ROVER_HP, "GT-A8", "a Rover's hit points")
        rover = Rover(planet, None, turn.player, hp)
    else:
        planet, space = r.space(value, path)
        rover = Rover(planet, space, turn.player, 0)
    found = [x for x in pieces.rovers if (x.planet, x.space, x.owner) == (rover.planet, rover.space, turn.player)]
    found = [x for x in found if rover.space is not None or x.hp == rover.hp]
    if not found:
        r.refuse(path, f"player {turn.player} has no such Rover", "GT-F4")
    return found[0].planet, found[0].space or "", found[0].hp


def _write_turns_rover(boards: Boards, rover: Rover) -> str | dict[str, Any]:
    if rover.space is None:
        return {"orbit": boards.orbit_token(rover.planet), "hp": rover.hp}
    return boards.token(rover.planet, rover.space)


def _spaces(boards: Boards, pieces: Sequence[Rover | Fortification | Building]) -> list[Any]:
    """Pieces in the order of their spaces: by planet, then label (docs/board.md)."""
    return sorted(pieces, key=lambda p: (p.planet, label_order(p.space or "")))


def write(game: Globetrotter, state: GlobetrotterState) -> dict[str, Any]:
    """The document of a state, every part written out (docs/globetrotter.md#scenarios)."""
    boards: Boards = game.rules.boards
    doc: dict[str, Any] = {"phase": state.phase}
    if state.phase in (ROLL, CHOOSE):
        doc["contenders"] = list(state.contenders)
    if state.phase in (PLACE_FACTORY, PLACE_ROVER):
        doc["placing"] = list(state.placing)
    turn = state.turn
    if turn is not None:
        written: dict[str, Any] = {"player": turn.player, "actions": turn.taken}
        if turn.counted != turn.taken:  # only under destroying_action=excluded
            written["counted"] = turn.counted
        if turn.excluded:
            written["action_excluded"] = True
        written["stolen"] = turn.stolen
        written["saved_this_turn"] = turn.saved_now
        if boards.count > 1 or turn.arrived:
            arrived: dict[str, list[int]] = {}
            for planet, hp in turn.arrived:
                arrived.setdefault(boards.orbit_token(planet), []).append(hp)
            written["arrived"] = arrived
        if turn.rover is not None:  # only under rovers_per_turn=one
            planet, space, hp = turn.rover
            written["rover"] = _write_turns_rover(boards, Rover(planet, space or None, turn.player, hp))
        doc["turn"] = written
    doc["planets"] = {
        boards.orbit_token(i): {"fires": p.fires, "destroyed": p.destroyed} for i, p in enumerate(state.planets)
    }
    players: list[dict[str, Any]] = []
    for player in range(game.players):
        entry: dict[str, Any] = {}
        if state.rolls[player]:
            entry["roll"] = state.rolls[player]
        entry["lost"] = player in state.lost
        own_rovers = [x for x in state.rovers if x.owner == player]
        entry["rovers"] = {
            boards.token(x.planet, x.space): x.hp for x in _spaces(boards, [x for x in own_rovers if x.space])
        }
        orbit: dict[str, list[int]] = {}
        for x in own_rovers:
            if x.space is None:
                orbit.setdefault(boards.orbit_token(x.planet), []).append(x.hp)
        entry["orbit"] = {letter: sorted(hps) for letter, hps in orbit.items()}
        entry["fortifications"] = [
            boards.token(f.planet, f.space)
            for f in _spaces(boards, [f for f in state.fortifications if f.owner == player])
        ]
        buildings: dict[str, dict[str, Any]] = {}
        for b in _spaces(boards, [b for b in state.buildings if b.owner == player]):
            building: dict[str, Any] = {"kind": b.kind, "hp": b.hp}
            if b.kind in POINT_CAPACITY:
                building["points"] = b.points
            if b.kind == DRILL_CANNON:
                building["readiness"] = b.readiness
                if b.aim is not None:
                    building["aim"] = boards.token(b.planet, b.aim)
            buildings[boards.token(b.planet, b.space)] = building
        entry["buildings"] = buildings
        players.append(entry)
    doc["players"] = players
    if state.pending:
        doc["pending"] = [_write_pending(boards, event) for event in state.pending]
    return doc


def _write_pending(boards: Boards, event: Pending) -> dict[str, Any]:
    if event.kind == DESTRUCTION:
        return {"roll": event.kind, "planet": boards.orbit_token(event.planet)}
    entry: dict[str, Any] = {"roll": event.kind, "space": boards.token(event.planet, event.space)}
    if event.kind in (TO_HIT, DAMAGE_ROLL):
        entry["target"] = event.target
        entry["needs"] = event.threshold
    if event.kind == DRILL_DAMAGE:
        entry["hits"] = event.count
    return entry


FORMAT: Final = PositionFormat(read=read, write=write, defaults=DOCS)
