"""Globetrotter's combat: Shoot, the Drill Cannon, damage, explosions and planet destruction.

Models: GT-A4 to GT-A8 (targets in range under `shooting`, shooters under `shooter`,
to-hit and damage rolls on 3+ or 4+ under cover, `cover` and
`fortification_covers_itself`, damage per success under `damage`); GT-D1 to GT-D6 (Ready,
Aim, Fire, d6 automatic hits shared under `drill_hits`, the explosion of a cannon
destroyed while ready or aimed, the 2d6 destruction roll against the fire counter under
`destruction_roll`); GT-T4 (a destroyed Treasury's points go to the destroyer).

Every die is a chance node: to-hit, damage and explosion rolls show a d6 face; a
Drill Cannon's hits are a d6 and their damage one outcome whose exact probability is
that of all the dice together (the order of the dice cannot matter); the destruction
roll is the 2d6 total.

Leaves out: line of sight (the rulebook says none is needed).
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from functools import cache
from typing import Final

import attrs

from rulecheck.core.clauses import touch
from rulecheck.core.errors import IllegalAction
from rulecheck.core.notation import Action
from rulecheck.core.ops import INT_OPS
from rulecheck.games.globetrotter.actions import Aim, Damage, Dice, Die, Fire, Ready, Shoot
from rulecheck.games.globetrotter.board import in_range
from rulecheck.games.globetrotter.context import PlayRule, Rules
from rulecheck.games.globetrotter.counters import (
    COVERED_THRESHOLD,
    EXPLOSION_THRESHOLD,
    HIT_THRESHOLD,
    damaged_hp,
    fires_after_firing,
    planet_destroyed,
    stolen_after_theft,
)
from rulecheck.games.globetrotter.state import (
    AIMED,
    BUILDING,
    DRILL_CANNON,
    FORTIFICATION,
    IDLE,
    READY,
    ROVER,
    TREASURY,
    Building,
    Fortification,
    GlobetrotterState,
    Pending,
    Piece,
)

DIE_FACES: Final = 6
TO_HIT: Final = "to-hit"
DAMAGE_ROLL: Final = "damage"
DRILL_HITS: Final = "drill-hits"
DRILL_DAMAGE: Final = "drill-damage"
EXPLOSION: Final = "explosion"
DESTRUCTION: Final = "destruction"

EVENT_CLAUSES: Final = {
    TO_HIT: "GT-A5",
    DAMAGE_ROLL: "GT-A5",
    DRILL_HITS: "GT-D2",
    DRILL_DAMAGE: "GT-D2",
    EXPLOSION: "GT-D5",
    DESTRUCTION: "GT-D6",
}


# Shoot


def _shooter_spaces(rules: Rules, state: GlobetrotterState, player: int) -> set[tuple[int, str]]:
    """GT-A4: where the player's shooting pieces stand (orbiting Rovers never shoot, GT-SP4)."""
    touch("GT-SP4")
    spaces = {(r.planet, r.space) for r in state.rovers_of(player) if r.space is not None}
    if rules.options["shooter"] == "any-piece":
        spaces |= {(f.planet, f.space) for f in state.fortifications if f.owner == player}
        spaces |= {(b.planet, b.space) for b in state.buildings_of(player)}
    return spaces  # type: ignore[return-value]


def _pieces_at(state: GlobetrotterState, planet: int, space: str) -> list[tuple[str, Piece]]:
    found: list[tuple[str, Piece]] = []
    for kind, piece in (
        (ROVER, state.rover_at(planet, space)),
        (FORTIFICATION, state.fortification_at(planet, space)),
        (BUILDING, state.building_at(planet, space)),
    ):
        if piece is not None:
            found.append((kind, piece))
    return found


def shoot_candidates(rules: Rules, state: GlobetrotterState, player: int) -> Iterable[Action]:
    reach = in_range(rules.boards.removal, rules.options["shooting"])
    for planet, source in _shooter_spaces(rules, state, player):
        for target in reach[source]:
            for kind, piece in _pieces_at(state, planet, target):
                if piece.owner != player:
                    yield Shoot(rules.token(planet, source), rules.token(planet, target), kind)


def check_shoot(rules: Rules, state: GlobetrotterState, player: int, action: Shoot) -> Piece:
    touch("GT-A4")
    source = rules.space(action.source, "GT-A4", action, state)
    planet, space = rules.space(action.target, "GT-A4", action, state)
    if source not in _shooter_spaces(rules, state, player):
        raise IllegalAction("GT-A4", f"you have no piece that may shoot on {action.source}", action)
    target = dict(_pieces_at(state, planet, space)).get(action.kind)
    if target is None or target.owner == player:
        raise IllegalAction("GT-A4", f"no enemy {action.kind} on {action.target}", action)
    touch("GT-B5")
    touch("GT-B6")
    if source[0] != planet or space not in in_range(rules.boards.removal, rules.options["shooting"])[source[1]]:
        raise IllegalAction("GT-A4", f"{action.target} is beyond shooting distance 3 of {action.source}", action)
    return target


def _has_cover(rules: Rules, state: GlobetrotterState, shooter: int, target: Piece, kind: str) -> bool:
    """GT-A7: the target shares a space with, or is adjacent to, an enemy Fortification."""
    touch("GT-A7")
    assert target.space is not None

    def gives_cover(f: Fortification | None) -> bool:
        if f is None:
            return False
        if rules.options["cover"] == "targets-own":
            return f.owner == target.owner
        return f.owner != shooter

    sharing = state.fortification_at(target.planet, target.space)
    if kind == FORTIFICATION and rules.options["fortification_covers_itself"] == "no":
        sharing = None
    return gives_cover(sharing) or any(
        gives_cover(state.fortification_at(target.planet, n)) for n in rules.boards.neighbours(target.space)
    )


def apply_shoot(rules: Rules, state: GlobetrotterState, player: int, action: Shoot, target: Piece) -> GlobetrotterState:
    threshold = COVERED_THRESHOLD if _has_cover(rules, state, player, target, action.kind) else HIT_THRESHOLD
    assert target.space is not None
    if action.kind == ROVER:
        touch("GT-A5")
        first = Pending(TO_HIT, player, target.planet, target.space, action.kind, threshold)
    else:
        touch("GT-A6")
        first = Pending(DAMAGE_ROLL, player, target.planet, target.space, action.kind, threshold)
    return attrs.evolve(state, pending=(first,))


# The Drill Cannon


def _own_cannon(rules: Rules, state: GlobetrotterState, player: int, token: str, action: Action) -> Building:
    touch("GT-D1")
    planet, space = rules.space(token, "GT-D1", action, state)
    cannon = state.building_at(planet, space)
    if cannon is None or cannon.owner != player or cannon.kind != DRILL_CANNON:
        raise IllegalAction("GT-D1", f"you have no Drill Cannon on {token}", action)
    return cannon


def _cannons(rules: Rules, state: GlobetrotterState, player: int, *readiness: str) -> list[Building]:
    return [b for b in state.buildings_of(player, DRILL_CANNON) if b.readiness in readiness]


def ready_candidates(rules: Rules, state: GlobetrotterState, player: int) -> Iterable[Action]:
    return [Ready(rules.token(c.planet, c.space)) for c in _cannons(rules, state, player, IDLE)]


def check_ready(rules: Rules, state: GlobetrotterState, player: int, action: Ready) -> Building:
    cannon = _own_cannon(rules, state, player, action.cannon, action)
    if cannon.readiness != IDLE:
        raise IllegalAction("GT-D1", "the Drill Cannon is already ready", action)
    return cannon


def apply_ready(
    rules: Rules, state: GlobetrotterState, player: int, action: Ready, cannon: Building
) -> GlobetrotterState:
    return state.replace(cannon, attrs.evolve(cannon, readiness=READY))


def aim_candidates(rules: Rules, state: GlobetrotterState, player: int) -> Iterable[Action]:
    for c in _cannons(rules, state, player, READY, AIMED):
        for space in rules.boards.graph:
            yield Aim(rules.token(c.planet, c.space), rules.token(c.planet, space))


def check_aim(rules: Rules, state: GlobetrotterState, player: int, action: Aim) -> Building:
    cannon = _own_cannon(rules, state, player, action.cannon, action)
    if cannon.readiness == IDLE:
        raise IllegalAction("GT-D1", "the Drill Cannon must be readied before it aims", action)
    planet, space = rules.space(action.target, "GT-D1", action, state)
    if planet != cannon.planet:
        raise IllegalAction("GT-D1", "a Drill Cannon aims at a space on its own planet", action)
    if cannon.readiness == AIMED:
        touch("GT-D3")
        if cannon.aim == space:
            raise IllegalAction("GT-D3", "re-aiming needs another space", action)
    return cannon


def apply_aim(rules: Rules, state: GlobetrotterState, player: int, action: Aim, cannon: Building) -> GlobetrotterState:
    _, space = rules.space(action.target, "GT-D1", action, state)
    return state.replace(cannon, attrs.evolve(cannon, readiness=AIMED, aim=space))


def fire_candidates(rules: Rules, state: GlobetrotterState, player: int) -> Iterable[Action]:
    return [Fire(rules.token(c.planet, c.space)) for c in _cannons(rules, state, player, AIMED)]


def check_fire(rules: Rules, state: GlobetrotterState, player: int, action: Fire) -> Building:
    cannon = _own_cannon(rules, state, player, action.cannon, action)
    if cannon.readiness != AIMED:
        raise IllegalAction("GT-D1", "the Drill Cannon must be aimed before it fires", action)
    return cannon


def apply_fire(
    rules: Rules, state: GlobetrotterState, player: int, action: Fire, cannon: Building
) -> GlobetrotterState:
    touch("GT-D2")
    touch("GT-D4")
    assert cannon.aim is not None
    state = state.replace(cannon, attrs.evolve(cannon, readiness=IDLE, aim=None))
    planets = list(state.planets)
    planets[cannon.planet] = attrs.evolve(
        planets[cannon.planet], fires=fires_after_firing(INT_OPS, planets[cannon.planet].fires)
    )
    pending = (
        Pending(DRILL_HITS, player, cannon.planet, cannon.aim),
        Pending(DESTRUCTION, player, cannon.planet, ""),
    )
    return attrs.evolve(state, planets=tuple(planets), pending=pending)


RULES = (
    PlayRule(Shoot, shoot_candidates, check_shoot, apply_shoot),
    PlayRule(Ready, ready_candidates, check_ready, apply_ready),
    PlayRule(Aim, aim_candidates, check_aim, apply_aim),
    PlayRule(Fire, fire_candidates, check_fire, apply_fire),
)


# Chance events


@cache
def drill_damage_distribution(hits: int, mode: str) -> tuple[tuple[int, Fraction], ...]:
    """The exact distribution of the damage `hits` dice deal, each on 3+ ignoring cover (GT-D2)."""
    one_die: dict[int, Fraction] = {0: Fraction(HIT_THRESHOLD - 1, DIE_FACES)}
    for face in range(HIT_THRESHOLD, DIE_FACES + 1):
        amount = 1 if mode == "one" else face
        one_die[amount] = one_die.get(amount, Fraction(0)) + Fraction(1, DIE_FACES)
    total: dict[int, Fraction] = {0: Fraction(1)}
    for _ in range(hits):
        step: dict[int, Fraction] = {}
        for sofar, p in total.items():
            for amount, q in one_die.items():
                step[sofar + amount] = step.get(sofar + amount, Fraction(0)) + p * q
        total = step
    return tuple(sorted(total.items()))


def chance_outcomes(rules: Rules, state: GlobetrotterState) -> tuple[tuple[Action, Fraction], ...]:
    event = state.pending[0]
    if event.kind == DESTRUCTION:
        return tuple(
            (Dice(t), Fraction(DIE_FACES - abs(t - DIE_FACES - 1), DIE_FACES**2)) for t in range(2, 2 * DIE_FACES + 1)
        )
    if event.kind == DRILL_DAMAGE:
        return tuple((Damage(k), p) for k, p in drill_damage_distribution(event.count, rules.options["damage"]))
    return tuple((Die(v), Fraction(1, DIE_FACES)) for v in range(1, DIE_FACES + 1))


def resolve(rules: Rules, state: GlobetrotterState, outcome: Action) -> GlobetrotterState:
    """Apply a chance outcome to the first pending event."""
    event, rest = state.pending[0], state.pending[1:]
    if outcome not in dict(chance_outcomes(rules, state)):
        raise IllegalAction(EVENT_CLAUSES[event.kind], f"not an outcome of the {event.kind} roll", outcome)
    state = attrs.evolve(state, pending=rest)
    if event.kind == TO_HIT:
        assert isinstance(outcome, Die)
        if outcome.value >= event.threshold:
            return attrs.evolve(state, pending=(attrs.evolve(event, kind=DAMAGE_ROLL),) + rest)
        return state
    if event.kind == DAMAGE_ROLL:
        assert isinstance(outcome, Die)
        if outcome.value < event.threshold:
            return state
        amount = 1 if rules.options["damage"] == "one" else outcome.value
        target = dict(_pieces_at(state, event.planet, event.space))[event.target]
        return damage(rules, state, target, amount, event.by)
    if event.kind == DRILL_HITS:
        assert isinstance(outcome, Die)
        if not _pieces_at(state, event.planet, event.space):
            return state
        return attrs.evolve(state, pending=(attrs.evolve(event, kind=DRILL_DAMAGE, count=outcome.value),) + rest)
    if event.kind == DRILL_DAMAGE:
        assert isinstance(outcome, Damage)
        return _drill_damage(rules, state, event, outcome.amount)
    if event.kind == EXPLOSION:
        assert isinstance(outcome, Die)
        touch("GT-D5")
        if outcome.value < EXPLOSION_THRESHOLD:
            return state
        for neighbour in rules.boards.neighbours(event.space):
            for _, piece in _pieces_at(state, event.planet, neighbour):
                state = damage(rules, state, piece, 1, event.by)
        return state
    assert event.kind == DESTRUCTION and isinstance(outcome, Dice)
    touch("GT-D6")
    fires = state.planets[event.planet].fires
    or_equal = rules.options["destruction_roll"] == "less-or-equal"
    if planet_destroyed(INT_OPS, outcome.total, fires, or_equal):
        return destroy_planet(rules, state, event.planet, event.by)
    return state


def _drill_damage(rules: Rules, state: GlobetrotterState, event: Pending, amount: int) -> GlobetrotterState:
    touch("GT-D2")
    pieces = [piece for _, piece in _pieces_at(state, event.planet, event.space)]
    if rules.options["drill_hits"] == "every-piece":
        for piece in pieces:
            state = damage(rules, state, piece, amount, event.by)
        return state
    for piece in pieces:  # rover-first: a Rover, if any, comes first in _pieces_at
        share = min(amount, piece.hp)
        state = damage(rules, state, piece, share, event.by)
        amount -= share
    return state


def damage(rules: Rules, state: GlobetrotterState, piece: Piece, amount: int, by: int) -> GlobetrotterState:
    """GT-A8: remove hit points; a piece at 0 is destroyed."""
    touch("GT-A8")
    if amount <= 0:
        return state
    hp = damaged_hp(INT_OPS, piece.hp, amount)
    if hp > 0:
        return state.replace(piece, attrs.evolve(piece, hp=hp))
    return _remove(rules, state, piece, by, explode=True)


def _remove(rules: Rules, state: GlobetrotterState, piece: Piece, by: int, explode: bool) -> GlobetrotterState:
    state = state.replace(piece, None)
    if not isinstance(piece, Building):
        return state
    if piece.kind == TREASURY and piece.points > 0:
        state = _steal(rules, state, piece, by)
    if explode and piece.kind == DRILL_CANNON and piece.readiness in (READY, AIMED):
        touch("GT-D5")
        state = attrs.evolve(state, pending=(Pending(EXPLOSION, by, piece.planet, piece.space),) + state.pending)
    return state


def _steal(rules: Rules, state: GlobetrotterState, treasury: Building, by: int) -> GlobetrotterState:
    """GT-T4, GT-T5: the destroyer gets the points, capped so that no more than 4 actions in a row
    are counted; under `destroying_action=excluded` the destroying action stops counting."""
    touch("GT-T4")
    touch("GT-T5")
    turn = state.turn
    assert turn is not None and turn.player == by
    if treasury.owner == by:
        rules.rule_gap("GT-F06", "a player destroyed their own Treasury: do they get its points back?", state)
    exclude = rules.options["destroying_action"] == "excluded" and not turn.excluded
    counted = turn.counted - 1 if exclude else turn.counted
    stolen = stolen_after_theft(INT_OPS, turn.stolen, counted, treasury.points)
    return attrs.evolve(
        state, turn=attrs.evolve(turn, counted=counted, stolen=stolen, excluded=turn.excluded or exclude)
    )


def destroy_planet(rules: Rules, state: GlobetrotterState, planet: int, by: int) -> GlobetrotterState:
    """GT-D6: every Rover and Building on the planet and in its orbit goes, and its
    Fortifications with them (the rulebook does not list them, but no board is left)."""
    for building in [b for b in state.buildings if b.planet == planet]:
        state = _remove(rules, state, building, by, explode=False)
    state = state.with_pieces(
        rovers=[r for r in state.rovers if r.planet != planet],
        fortifications=[f for f in state.fortifications if f.planet != planet],
    )
    planets = list(state.planets)
    planets[planet] = attrs.evolve(planets[planet], destroyed=True)
    return attrs.evolve(state, planets=tuple(planets), pending=tuple(p for p in state.pending if p.planet != planet))
