"""What a written Globetrotter state must hold before it becomes a state: every value in range.

Models: the checks `decode_state` makes on a state read from JSON (a suite's start state, a
trace's, an engine's report), field by field: each piece on a planet of the game and a space of
its board (a Rover may be in orbit), owned by a seat of the game, with hit points and points
that fit the integer state's fields; Building kinds and readiness the rules know, and an aim at a
space of the board; the turn's player, the players placing, rolling and lost, and the causes
of pending events among the seats; one record per planet. A value outside these would either not
fit the packed integer state (and come back as another piece) or send the rules past the end of
the board or of the seats.

Leaves out: whether the state can arise in play (a Rover with 9 hit points fits the state and
breaks a state property: `suite.reference.start_state` checks those).
"""

from __future__ import annotations

from collections.abc import Iterable

from rulecheck.games.globetrotter.board import Boards
from rulecheck.games.globetrotter.state import (
    FIELD,
    KIND_NUMBERS,
    READINESS_NUMBERS,
    Building,
    Fortification,
    Rover,
    StateRecord,
)


def written_problem(record: StateRecord, players: int, boards: Boards) -> str | None:
    """What is wrong with `record` as a state of a game of `players` on `boards`, naming the field
    (`.rovers[0].space: ...`); None when every value is in range."""
    if len(record.planets) != boards.count:
        return f".planets: {len(record.planets)} planets written, and the game has {boards.count}"
    if len(record.rolls) != players:
        return f".rolls: {len(record.rolls)} rolls written for {players} players"
    seats = range(players)
    for name, values in (("contenders", record.contenders), ("placing", record.placing), ("lost", record.lost)):
        for i, seat in enumerate(values):
            if seat not in seats:
                return f".{name}[{i}]: {seat} is no seat of a {players}-player game"
    if record.turn is not None and record.turn.player not in seats:
        return f".turn.player: {record.turn.player} is no seat of a {players}-player game"
    for i, event in enumerate(record.pending):
        if event.by not in seats:
            return f".pending[{i}].by: {event.by} is no seat of a {players}-player game"
    for i, event in enumerate(record.pending):
        if event.planet not in range(boards.count) or (event.space and event.space not in boards.spaces):
            return f".pending[{i}]: {event.planet}, {event.space!r} is no planet and space of the game"
    for i, rover in enumerate(record.rovers):
        found = _piece_problem(rover, seats, boards)
        if found is not None:
            return f".rovers[{i}].{found}"
    for i, fortification in enumerate(record.fortifications):
        found = _piece_problem(fortification, seats, boards)
        if found is not None:
            return f".fortifications[{i}].{found}"
    for i, building in enumerate(record.buildings):
        found = _piece_problem(building, seats, boards) or _building_problem(building, boards)
        if found is not None:
            return f".buildings[{i}].{found}"
    return None


def _piece_problem(piece: Rover | Fortification | Building, seats: Iterable[int], boards: Boards) -> str | None:
    if piece.planet not in range(boards.count):
        return f"planet: {piece.planet} is no planet of the game, which has {boards.count}"
    if piece.space is not None and piece.space not in boards.spaces:  # only a Rover's is None: in orbit
        return f"space: {piece.space!r} is no space of the board"
    if piece.owner not in seats:
        return f"owner: {piece.owner} is no seat of the game"
    return _count_problem("hp", piece.hp)


def _building_problem(building: Building, boards: Boards) -> str | None:
    if building.kind not in KIND_NUMBERS:
        return f"kind: no kind of Building {building.kind!r}; the kinds are {', '.join(KIND_NUMBERS)}"
    if building.readiness not in READINESS_NUMBERS:
        return f"readiness: {building.readiness!r} is none of {', '.join(READINESS_NUMBERS)}"
    if building.aim is not None and building.aim not in boards.spaces:
        return f"aim: {building.aim!r} is no space of the board"
    return _count_problem("points", building.points)


def _count_problem(name: str, value: int) -> str | None:
    """A count a piece's code holds in a field of 4 bits."""
    if not 0 <= value <= FIELD:
        return f"{name}: {value} is outside 0 to {FIELD}"
    return None
