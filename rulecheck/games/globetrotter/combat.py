"""Globetrotter's combat: Shoot, the Drill Cannon, damage, explosions and planet destruction.

Models: GT-A4 to GT-A8 (targets in range under `shooting`, shooters under `shooter`,
to-hit and damage rolls on 3+ or 4+ under cover, `cover` and
`fortification_covers_itself`, damage per success under `damage`); GT-D1 to GT-D6 (Ready,
Aim, Fire, d6 automatic hits shared under `drill_hits`, the explosion of a cannon
destroyed while ready or aimed (by its own hits too, under `fire_readiness`), the 2d6
destruction roll against the fire counter under `destruction_roll`); GT-T4 (a destroyed
Treasury's points go to the destroyer).

Every die is a chance node: to-hit, damage and explosion rolls show a d6 face; a
Drill Cannon's hits are a d6 and their damage one outcome whose exact probability is
that of all the dice together (the order of the dice cannot matter); the destruction
roll is the 2d6 total.

Leaves out: line of sight (the rulebook says none is needed).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from fractions import Fraction
from functools import cache
from typing import Final, cast

from rulecheck.core.clauses import touch
from rulecheck.core.errors import IllegalAction
from rulecheck.core.evolve import evolve
from rulecheck.core.notation import Action
from rulecheck.core.ops import INT_OPS
from rulecheck.games.globetrotter.actions import Aim, Damage, Dice, Die, Fire, Ready, Shoot
from rulecheck.games.globetrotter.board import in_range
from rulecheck.games.globetrotter.context import NOTHING, Listing, Mover, PlayRule, Rules, Where
from rulecheck.games.globetrotter.counters import (
    COVERED_THRESHOLD,
    EXPLOSION_THRESHOLD,
    HIT_THRESHOLD,
    damaged_hp,
    fires_after_firing,
    planet_destroyed,
    stolen_after_theft,
)
from rulecheck.games.globetrotter.options import (
    Cover,
    DamageAmount,
    DestroyingAction,
    DestructionRoll,
    DrillHits,
    FireReadiness,
    FortificationCoversItself,
    Shooter,
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
    Rover,
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


def _shooter_spaces(m: Mover) -> Collection[Where]:
    """GT-A4: where the player's shooting pieces stand (orbiting Rovers never shoot, GT-SP4)."""
    if m.rules.options.shooter is Shooter.ANY_PIECE:
        spaces = set(m.on_board)
        spaces |= {(f.planet, f.space) for f in m.fortifications}
        spaces |= {(b.planet, b.space) for b in m.buildings}
        return spaces
    return m.on_board.keys()


PIECE_KINDS: Final = (ROVER, FORTIFICATION, BUILDING)
"""The kind of each piece `GlobetrotterState.pieces_at` gives, in its order."""
_KIND_OF: Final = {Rover: ROVER, Fortification: FORTIFICATION, Building: BUILDING}
"""The kind a shot names for each class of piece."""
_SHOT_CLAUSES: Final = ("GT-A4", "GT-B5", "GT-B6")


def _pieces_at(state: GlobetrotterState, planet: int, space: str) -> list[tuple[str, Piece]]:
    return [(kind, piece) for kind, piece in zip(PIECE_KINDS, state.pieces_at(planet, space)) if piece is not None]


def _reach(rules: Rules) -> Mapping[str, frozenset[str]]:
    """GT-A4, GT-B5, GT-B6: the spaces within shooting distance of each space, under `shooting`."""
    return in_range(rules.boards.removal.value, rules.options.shooting)


def legal_shots(m: Mover) -> Listing[Piece]:
    """Each shot with the piece it targets: every enemy piece on a surface within reach of a space
    holding one of the mover's shooters."""
    m.touched.append("GT-SP4")
    boards = m.rules.boards
    reach, enemy_spaces = boards.reach(m.rules.options.shooting), m.enemy_spaces
    aiming = [(source, covered) for source in _shooter_spaces(m) if (covered := reach[source]) & enemy_spaces]
    if not aiming:
        return NOTHING
    m.touched += _SHOT_CLAUSES
    act, tokens, bit = m.rules.actions.act, boards.tokens, boards.bit
    found: list[tuple[Action, Piece]] = []
    for piece in m.enemies:
        target = (piece.planet, cast(str, piece.space))
        there = bit[target]
        for source, covered in aiming:
            if there & covered:
                found.append((act(Shoot, tokens[source], tokens[target], _KIND_OF[type(piece)]), piece))
    return found


def check_shoot(m: Mover, action: Shoot) -> None:
    rules, state = m.rules, m.state
    touch("GT-A4")
    source = rules.space(action.source, "GT-A4", action, state)
    planet, space = rules.space(action.target, "GT-A4", action, state)
    touch("GT-SP4")
    if source not in _shooter_spaces(m):
        raise IllegalAction("GT-A4", f"you have no piece that may shoot on {action.source}", action)
    target = dict(_pieces_at(state, planet, space)).get(action.kind)
    if target is None or target.owner == m.player:
        raise IllegalAction("GT-A4", f"no enemy {action.kind} on {action.target}", action)
    touch("GT-B5", "GT-B6")
    if source[0] != planet or space not in _reach(rules)[source[1]]:
        raise IllegalAction("GT-A4", f"{action.target} is beyond shooting distance 3 of {action.source}", action)


def _has_cover(rules: Rules, state: GlobetrotterState, shooter: int, target: Piece, kind: str) -> bool:
    """GT-A7: the target shares a space with, or is adjacent to, an enemy Fortification."""
    touch("GT-A7")
    assert target.space is not None

    def gives_cover(f: Fortification | None) -> bool:
        if f is None:
            return False
        if rules.options.cover is Cover.TARGETS_OWN:
            return f.owner == target.owner
        return f.owner != shooter

    sharing = state.fortification_at(target.planet, target.space)
    if kind == FORTIFICATION and rules.options.fortification_covers_itself is FortificationCoversItself.NO:
        sharing = None
    return gives_cover(sharing) or any(
        gives_cover(state.fortification_at(target.planet, n)) for n in rules.boards.neighbours(target.space)
    )


def apply_shoot(rules: Rules, state: GlobetrotterState, player: int, action: Shoot, target: Piece) -> GlobetrotterState:
    touch("GT-A4", "GT-SP4", "GT-B5", "GT-B6")
    threshold = COVERED_THRESHOLD if _has_cover(rules, state, player, target, action.kind) else HIT_THRESHOLD
    assert target.space is not None
    if action.kind == ROVER:
        touch("GT-A5")
        first = Pending(TO_HIT, player, target.planet, target.space, action.kind, threshold)
    else:
        touch("GT-A6")
        first = Pending(DAMAGE_ROLL, player, target.planet, target.space, action.kind, threshold)
    return state.with_pending((first,))


# The Drill Cannon


def _own_cannon(m: Mover, token: str, action: Action) -> Building:
    touch("GT-D1")
    planet, space = m.rules.space(token, "GT-D1", action, m.state)
    cannon = m.state.building_at(planet, space)
    if cannon is None or cannon.owner != m.player or cannon.kind != DRILL_CANNON:
        raise IllegalAction("GT-D1", f"you have no Drill Cannon on {token}", action)
    return cannon


def _cannons(m: Mover, *readiness: str) -> list[Building]:
    """The mover's Drill Cannons that stand at one of these readinesses."""
    cannons = m.kinds.get(DRILL_CANNON)
    return [c for c in cannons if c.readiness in readiness] if cannons else []


def _one_per_cannon(m: Mover, cls: type[Action], readiness: str) -> Listing[Building]:
    """The action of `cls` for each of the mover's Drill Cannons in `readiness` (Ready, Fire), with
    the cannon."""
    found: list[tuple[Action, Building]] = []
    for c in _cannons(m, readiness):
        m.touched.append("GT-D1")
        found.append((m.rules.actions.at(cls)[(c.planet, c.space)], c))
    return found


def legal_readies(m: Mover) -> Listing[Building]:
    return _one_per_cannon(m, Ready, IDLE) if DRILL_CANNON in m.kinds else NOTHING


def check_ready(m: Mover, action: Ready) -> None:
    cannon = _own_cannon(m, action.cannon, action)
    if cannon.readiness != IDLE:
        raise IllegalAction("GT-D1", "the Drill Cannon is already ready", action)


def apply_ready(
    rules: Rules, state: GlobetrotterState, player: int, action: Ready, cannon: Building
) -> GlobetrotterState:
    touch("GT-D1")
    return state.replace(cannon, evolve(cannon, readiness=READY))


def legal_aims(m: Mover) -> Listing[Building]:
    """Each Aim with the cannon that aims."""
    if DRILL_CANNON not in m.kinds:
        return NOTHING
    found: list[tuple[Action, Building]] = []
    for c in _cannons(m, READY, AIMED):
        m.touched.append("GT-D1")
        if c.readiness == AIMED:
            m.touched.append("GT-D3")
        found += [(aim, c) for (_, space), aim in m.rules.actions.across(Aim)[(c.planet, c.space)] if space != c.aim]
    return found


def check_aim(m: Mover, action: Aim) -> None:
    cannon = _own_cannon(m, action.cannon, action)
    if cannon.readiness == IDLE:
        raise IllegalAction("GT-D1", "the Drill Cannon must be readied before it aims", action)
    planet, space = m.rules.space(action.target, "GT-D1", action, m.state)
    if planet != cannon.planet:
        raise IllegalAction("GT-D1", "a Drill Cannon aims at a space on its own planet", action)
    if cannon.readiness == AIMED:
        touch("GT-D3")
        if cannon.aim == space:
            raise IllegalAction("GT-D3", "re-aiming needs another space", action)


def apply_aim(rules: Rules, state: GlobetrotterState, player: int, action: Aim, cannon: Building) -> GlobetrotterState:
    _, space = rules.boards.places[action.target]
    touch("GT-D1")
    if cannon.readiness == AIMED:
        touch("GT-D3")
    return state.replace(cannon, evolve(cannon, readiness=AIMED, aim=space))


def legal_fires(m: Mover) -> Listing[Building]:
    return _one_per_cannon(m, Fire, AIMED) if DRILL_CANNON in m.kinds else NOTHING


def check_fire(m: Mover, action: Fire) -> None:
    cannon = _own_cannon(m, action.cannon, action)
    if cannon.readiness != AIMED:
        raise IllegalAction("GT-D1", "the Drill Cannon must be aimed before it fires", action)


def apply_fire(
    rules: Rules, state: GlobetrotterState, player: int, action: Fire, cannon: Building
) -> GlobetrotterState:
    touch("GT-D1", "GT-D2", "GT-D4")
    assert cannon.aim is not None
    state = state.replace(cannon, evolve(cannon, readiness=IDLE, aim=None))
    planets = list(state.planets)
    planets[cannon.planet] = evolve(
        planets[cannon.planet], fires=fires_after_firing(INT_OPS, planets[cannon.planet].fires)
    )
    pending = (
        Pending(DRILL_HITS, player, cannon.planet, cannon.aim),
        Pending(DESTRUCTION, player, cannon.planet, ""),
    )
    return evolve(state, planets=tuple(planets), pending=pending)


RULES: tuple[PlayRule, ...] = (
    PlayRule(Shoot, legal_shots, check_shoot, apply_shoot),
    PlayRule(Ready, legal_readies, check_ready, apply_ready),
    PlayRule(Aim, legal_aims, check_aim, apply_aim),
    PlayRule(Fire, legal_fires, check_fire, apply_fire),
)


# Chance events


@cache
def drill_damage_distribution(hits: int, mode: DamageAmount) -> tuple[tuple[int, Fraction], ...]:
    """The exact distribution of the damage `hits` dice deal, each on 3+ ignoring cover (GT-D2)."""
    one_die: dict[int, Fraction] = {0: Fraction(HIT_THRESHOLD - 1, DIE_FACES)}
    for face in range(HIT_THRESHOLD, DIE_FACES + 1):
        amount = 1 if mode is DamageAmount.ONE else face
        one_die[amount] = one_die.get(amount, Fraction(0)) + Fraction(1, DIE_FACES)
    total: dict[int, Fraction] = {0: Fraction(1)}
    for _ in range(hits):
        step: dict[int, Fraction] = {}
        for sofar, p in total.items():
            for amount, q in one_die.items():
                step[sofar + amount] = step.get(sofar + amount, Fraction(0)) + p * q
        total = step
    return tuple(sorted(total.items()))


DIE_OUTCOMES: Final = tuple((Die(v), Fraction(1, DIE_FACES)) for v in range(1, DIE_FACES + 1))
"""One d6: every face with probability 1/6."""
TWO_DICE_OUTCOMES: Final = tuple(
    (Dice(t), Fraction(DIE_FACES - abs(t - DIE_FACES - 1), DIE_FACES**2)) for t in range(2, 2 * DIE_FACES + 1)
)
"""The total of 2d6, from 2 to 12."""


@cache
def drill_damage_outcomes(hits: int, mode: DamageAmount) -> tuple[tuple[Action, Fraction], ...]:
    return tuple((Damage(k), p) for k, p in drill_damage_distribution(hits, mode))


def chance_outcomes(rules: Rules, state: GlobetrotterState) -> tuple[tuple[Action, Fraction], ...]:
    event = state.pending[0]
    if event.kind == DESTRUCTION:
        return TWO_DICE_OUTCOMES
    if event.kind == DRILL_DAMAGE:
        return drill_damage_outcomes(event.count, rules.options.damage)
    return DIE_OUTCOMES


def resolve(rules: Rules, state: GlobetrotterState, outcome: Action) -> GlobetrotterState:
    """Apply a chance outcome to the first pending event."""
    event, rest = state.pending[0], state.pending[1:]
    if outcome not in [o for o, _ in chance_outcomes(rules, state)]:
        raise IllegalAction(EVENT_CLAUSES[event.kind], f"not an outcome of the {event.kind} roll", outcome)
    if event.kind == TO_HIT:
        assert isinstance(outcome, Die)
        if outcome.value >= event.threshold:
            return state.with_pending((evolve(event, kind=DAMAGE_ROLL),) + rest)
        return state.with_pending(rest)
    state = state.with_pending(rest)
    if event.kind == DAMAGE_ROLL:
        assert isinstance(outcome, Die)
        if outcome.value < event.threshold:
            return state
        amount = 1 if rules.options.damage is DamageAmount.ONE else outcome.value
        target = dict(_pieces_at(state, event.planet, event.space))[event.target]
        return damage(rules, state, target, amount, event.by)
    if event.kind == DRILL_HITS:
        assert isinstance(outcome, Die)
        if not _pieces_at(state, event.planet, event.space):
            return state
        return state.with_pending((evolve(event, kind=DRILL_DAMAGE, count=outcome.value),) + rest)
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
    or_equal = rules.options.destruction_roll is DestructionRoll.LESS_OR_EQUAL
    if planet_destroyed(INT_OPS, outcome.total, fires, or_equal):
        return destroy_planet(rules, state, event.planet, event.by)
    return state


def _firing_cannon(rules: Rules, state: GlobetrotterState, event: Pending) -> Building | None:
    """GT-D4, GT-D5 under `fire_readiness=aimed-until-hits-land`: the cannon whose hits land on its
    own space (a player has one Drill Cannon per planet, so the firer's cannon there is the one that
    fired) counts as still Aimed while they land; None when the hits land elsewhere."""
    building = state.building_at(event.planet, event.space)
    if building is None or building.kind != DRILL_CANNON or building.owner != event.by:
        return None
    touch("GT-D4")
    return building if rules.options.fire_readiness is FireReadiness.AIMED_UNTIL_HITS_LAND else None


def _drill_damage(rules: Rules, state: GlobetrotterState, event: Pending, amount: int) -> GlobetrotterState:
    touch("GT-D2")
    firing = _firing_cannon(rules, state, event)
    if firing is None:
        return _share_drill_damage(rules, state, event, amount)
    aimed = evolve(firing, readiness=AIMED, aim=event.space)
    state = _share_drill_damage(rules, state.replace(firing, aimed), event, amount)
    survivor = state.building_at(event.planet, event.space)
    return state if survivor is None else state.replace(survivor, evolve(survivor, readiness=IDLE, aim=None))


def _share_drill_damage(rules: Rules, state: GlobetrotterState, event: Pending, amount: int) -> GlobetrotterState:
    """The drill's damage on the pieces of the aimed space, under `drill_hits`."""
    pieces = [piece for _, piece in _pieces_at(state, event.planet, event.space)]
    if rules.options.drill_hits is DrillHits.EVERY_PIECE:
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
        return state.replace(piece, evolve(piece, hp=hp))
    return _remove(rules, state, piece, by, explode=True)


def _remove(rules: Rules, state: GlobetrotterState, piece: Piece, by: int, explode: bool) -> GlobetrotterState:
    state = state.replace(piece, None)
    if not isinstance(piece, Building):
        return state
    if piece.kind == TREASURY and piece.points > 0:
        state = _steal(rules, state, piece, by)
    if explode and piece.kind == DRILL_CANNON and piece.readiness in (READY, AIMED):
        touch("GT-D5")
        state = state.with_pending((Pending(EXPLOSION, by, piece.planet, piece.space),) + state.pending)
    return state


def _steal(rules: Rules, state: GlobetrotterState, treasury: Building, by: int) -> GlobetrotterState:
    """GT-T4, GT-T5: the destroyer gets the points, capped so that no more than 4 actions in a row
    are counted; under `destroying_action=excluded` the destroying action stops counting."""
    touch("GT-T4", "GT-T5")
    turn = state.turn
    assert turn is not None and turn.player == by
    if treasury.owner == by:
        rules.rule_gap("GT-F06", "a player destroyed their own Treasury: do they get its points back?", state)
    exclude = rules.options.destroying_action is DestroyingAction.EXCLUDED and not turn.excluded
    counted = turn.counted - 1 if exclude else turn.counted
    stolen = stolen_after_theft(INT_OPS, turn.stolen, counted, treasury.points)
    return state.with_turn(evolve(turn, counted=counted, stolen=stolen, excluded=turn.excluded or exclude))


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
    planets[planet] = evolve(planets[planet], destroyed=True)
    return evolve(state, planets=tuple(planets), pending=tuple(p for p in state.pending if p.planet != planet))
