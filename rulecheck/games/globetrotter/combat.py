"""Globetrotter's combat: Shoot, the Drill Cannon, damage, explosions and planet destruction.

Models: GT-A4 to GT-A8 (targets in range under `shooting`, shooters under `shooter` (under
`rovers_per_turn=one` and `shooter=rover`, the turn's Rover alone, GT-F4),
to-hit and damage rolls on 3+ or 4+ under cover, `cover` and
`fortification_covers_itself`, damage per success under `damage`); GT-D1 to GT-D6 (Ready,
Aim, Fire, d6 automatic hits shared under `drill_hits`, the explosion of a cannon
destroyed while ready or aimed (by its own hits too, under `fire_readiness`), its point on
each adjacent space shared under `drill_hits` as the drill's hits are, the 2d6
destruction roll against the fire counter under `destruction_roll`); GT-T4 (a destroyed
Treasury's points go to the destroyer; one a planet's destruction destroys, under
`planet_treasuries`).

Every die is a chance node: to-hit, damage and explosion rolls show a d6 face; a
Drill Cannon's hits are a d6 and their damage one outcome whose exact probability is
that of all the dice together (the order of the dice cannot matter); the destruction
roll is the 2d6 total.

Each listing (`legal_*`) alone decides which Shoots and Drill Cannon actions are legal,
with what the effect needs; the effects check nothing again. The predicates a listing reads
are named, so that refusals.py explains a refusal by the same ones.

Leaves out: line of sight (the rulebook says none is needed).
"""

from __future__ import annotations

from collections.abc import Collection
from fractions import Fraction
from functools import cache
from typing import Final

from rulecheck.core.clauses import touch
from rulecheck.core.evolve import evolve
from rulecheck.core.notation import Action
from rulecheck.core.ops import INT_OPS
from rulecheck.games.globetrotter.acting import acted, acting_on_board
from rulecheck.games.globetrotter.actions import Aim, Damage, Dice, Die, Fire, Ready, Shoot
from rulecheck.games.globetrotter.context import (
    DRILL_CANNONS,
    NOTHING,
    Listing,
    Mover,
    PlayRule,
    Rules,
    Where,
)
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
    PlanetTreasuries,
    RoversPerTurn,
    Shooter,
)
from rulecheck.games.globetrotter.state import (
    AIMED,
    B_OWNER,
    B_POINTS,
    BUILDING,
    BUILDING_PLACE,
    DRILL_CANNON,
    FIELD,
    FORTIFICATION,
    IDLE,
    OWNER,
    READY,
    ROVER,
    SPACE_BITS,
    SPACE_MASK,
    TREASURY,
    UNIT_PLACE,
    GlobetrotterState,
    Pending,
    aimed,
    building_kind,
    building_readiness,
    hp_of,
    owner_of,
    place,
    space_label,
    spot,
    with_hp,
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

# Readings compared on every step, kept as globals (why: Reading, rulecheck/core/options.py).
_ANY_PIECE: Final = Shooter.ANY_PIECE
_TARGETS_OWN: Final = Cover.TARGETS_OWN
_COVERS_ITSELF_NO: Final = FortificationCoversItself.NO
_ONE_ROVER: Final = RoversPerTurn.ONE
_ROVER_SHOOTS: Final = Shooter.ROVER


Target = tuple[str, int]
"""A piece as a shot or a roll names it: its kind (ROVER, FORTIFICATION, BUILDING) and its code."""


def shooter_spaces(m: Mover) -> Collection[Where]:
    """GT-A4: where the player's shooting pieces stand (orbiting Rovers never shoot, GT-SP4)."""
    if m.rules.options.shooter is _ANY_PIECE:
        spaces = set(m.on_board)
        spaces |= {f >> UNIT_PLACE for f in m.fortifications}
        spaces |= {b >> BUILDING_PLACE for b in m.buildings}
        return spaces
    return acting_on_board(m).keys()


PIECE_KINDS: Final = (ROVER, FORTIFICATION, BUILDING)
"""The kind of each piece `GlobetrotterState.codes_at` gives, in its order."""
_SHOT_CLAUSES: Final = ("GT-A4", "GT-B5", "GT-B6")


def _pieces_at(state: GlobetrotterState, where: Where) -> list[Target]:
    return [(kind, code) for kind, code in zip(PIECE_KINDS, state.codes_at(where)) if code is not None]


def legal_shots(m: Mover) -> Listing[Target]:
    """Each shot with the piece it targets: every enemy piece on a surface within reach of a space
    holding one of the mover's shooters."""
    m.touched.append("GT-SP4")
    reach, enemy_spaces = m.rules.reach, m.enemy_spaces
    aiming = []  # each shooter's space with the set in its reach, where an enemy piece is in reach
    for source in shooter_spaces(m):
        covered = reach[source]
        if covered & enemy_spaces:
            aiming.append((source, covered))
    if not aiming:
        return NOTHING
    m.touched += _SHOT_CLAUSES
    boards = m.rules.boards
    act, tokens, bit = m.rules.actions.act, boards.tokens, boards.bit
    found: list[tuple[Action, Target]] = []
    for piece in m.enemies:
        kind, code = piece
        target = code >> (BUILDING_PLACE if kind == BUILDING else UNIT_PLACE)
        there = bit[target]
        for source, covered in aiming:
            if there & covered:
                found.append((act(Shoot, tokens[source], tokens[target], kind), piece))
    return found


def _has_cover(rules: Rules, state: GlobetrotterState, shooter: int, target: Target) -> bool:
    """GT-A7: the target shares a space with, or is adjacent to, an enemy Fortification."""
    touch("GT-A7")
    kind, code = target
    where = code >> (BUILDING_PLACE if kind == BUILDING else UNIT_PLACE)
    owner = owner_of(kind, code)

    def gives_cover(f: int | None) -> bool:
        if f is None:
            return False
        if rules.options.cover is _TARGETS_OWN:
            return f >> OWNER & FIELD == owner
        return f >> OWNER & FIELD != shooter

    sharing = state.codes_at(where)[1]
    if kind == FORTIFICATION and rules.options.fortification_covers_itself is _COVERS_ITSELF_NO:
        sharing = None
    if gives_cover(sharing):
        return True
    touch("GT-B4")
    return any(gives_cover(state.codes_at(n)[1]) for n in rules.boards.around[where])


def apply_shoot(
    rules: Rules, state: GlobetrotterState, player: int, action: Shoot, target: Target
) -> GlobetrotterState:
    touch("GT-A4", "GT-SP4", "GT-B5", "GT-B6")
    threshold = COVERED_THRESHOLD if _has_cover(rules, state, player, target) else HIT_THRESHOLD
    kind, code = target
    where = code >> (BUILDING_PLACE if kind == BUILDING else UNIT_PLACE)
    planet, space = spot(where)
    if kind == ROVER:
        touch("GT-A5")
        first = Pending(TO_HIT, player, planet, space, kind, threshold)
    else:
        touch("GT-A6")
        first = Pending(DAMAGE_ROLL, player, planet, space, kind, threshold)
    if rules.options.rovers_per_turn is _ONE_ROVER and rules.options.shooter is _ROVER_SHOOTS:
        shooter = state.codes_at(rules.boards.places[action.source])[0]
        assert shooter is not None  # the listing offers shots from the mover's Rovers only
        state = acted(rules, state, shooter)
    return state.with_pending((first,))


# The Drill Cannon


def cannons(m: Mover, *readiness: str) -> list[int]:
    """The mover's Drill Cannons that stand at one of these readinesses."""
    cannons = m.kinds.get(DRILL_CANNON)
    return [c for c in cannons if building_readiness(c) in readiness] if cannons else []


def _one_per_cannon(m: Mover, cls: type[Action], readiness: str) -> Listing[int]:
    """The action of `cls` for each of the mover's Drill Cannons in `readiness` (Ready, Fire), with
    the cannon."""
    found: list[tuple[Action, int]] = []
    for c in cannons(m, readiness):
        m.touched.append("GT-D1")
        found.append((m.rules.actions.at(cls)[c >> BUILDING_PLACE], c))
    return found


def legal_readies(m: Mover) -> Listing[int]:
    return _one_per_cannon(m, Ready, IDLE) if DRILL_CANNON in m.kinds else NOTHING


def apply_ready(rules: Rules, state: GlobetrotterState, player: int, action: Ready, cannon: int) -> GlobetrotterState:
    touch("GT-D1")
    return state.replace_building(cannon, aimed(cannon, READY, cannon & SPACE_MASK))


def aims_anew(cannon: int, number: int) -> bool:
    """GT-D3: whether aiming the cannon at the space numbered `number` on its planet is a new aim
    (re-aiming needs another space; a cannon not yet aimed holds no aim)."""
    return number != cannon & SPACE_MASK


def legal_aims(m: Mover) -> Listing[int]:
    """Each Aim with the cannon that aims."""
    if DRILL_CANNON not in m.kinds:
        return NOTHING
    found: list[tuple[Action, int]] = []
    for c in cannons(m, READY, AIMED):
        m.touched.append("GT-D1")
        if building_readiness(c) == AIMED:
            m.touched.append("GT-D3")
        found += [
            (action, c) for number, action in m.rules.actions.across(Aim)[c >> BUILDING_PLACE] if aims_anew(c, number)
        ]
    return found


def apply_aim(rules: Rules, state: GlobetrotterState, player: int, action: Aim, cannon: int) -> GlobetrotterState:
    where = rules.boards.places[action.target]
    touch("GT-D1")
    if building_readiness(cannon) == AIMED:
        touch("GT-D3")
    return state.replace_building(cannon, aimed(cannon, AIMED, where & SPACE_MASK))


def legal_fires(m: Mover) -> Listing[int]:
    return _one_per_cannon(m, Fire, AIMED) if DRILL_CANNON in m.kinds else NOTHING


def apply_fire(rules: Rules, state: GlobetrotterState, player: int, action: Fire, cannon: int) -> GlobetrotterState:
    touch("GT-D1", "GT-D2", "GT-D4")
    aim = space_label(cannon)  # the aim's space number is the code's lowest bits
    assert aim
    planet = cannon >> BUILDING_PLACE >> SPACE_BITS
    state = state.replace_building(cannon, aimed(cannon, IDLE, 0))
    planets = list(state.planets)
    planets[planet] = evolve(planets[planet], fires=fires_after_firing(INT_OPS, planets[planet].fires))
    pending = (
        Pending(DRILL_HITS, player, planet, aim),
        Pending(DESTRUCTION, player, planet, ""),
    )
    return evolve(state, planets=tuple(planets), pending=pending)


RULES: tuple[PlayRule, ...] = (
    PlayRule(Shoot, legal_shots, apply_shoot),
    PlayRule(Ready, legal_readies, apply_ready, DRILL_CANNONS),
    PlayRule(Aim, legal_aims, apply_aim, DRILL_CANNONS),
    PlayRule(Fire, legal_fires, apply_fire, DRILL_CANNONS),
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
    """Apply a chance outcome of the first pending event (one `chance_outcomes` gives) to it."""
    event, rest = state.pending[0], state.pending[1:]
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
        target = dict(_pieces_at(state, place(event.planet, event.space)))[event.target]
        return damage(rules, state, (event.target, target), amount, event.by)
    if event.kind == DRILL_HITS:
        assert isinstance(outcome, Die)
        if not _pieces_at(state, place(event.planet, event.space)):
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
        touch("GT-B4")
        for neighbour in rules.boards.around[place(event.planet, event.space)]:
            state = _share_damage(rules, state, neighbour, 1, event.by)
        return state
    assert event.kind == DESTRUCTION and isinstance(outcome, Dice)
    touch("GT-D6")
    fires = state.planets[event.planet].fires
    or_equal = rules.options.destruction_roll is DestructionRoll.LESS_OR_EQUAL
    if planet_destroyed(INT_OPS, outcome.total, fires, or_equal):
        return destroy_planet(rules, state, event.planet, event.by)
    return state


def _firing_cannon(rules: Rules, state: GlobetrotterState, event: Pending) -> int | None:
    """GT-D4, GT-D5 under `fire_readiness=aimed-until-hits-land`: the cannon whose hits land on its
    own space (a player has one Drill Cannon per planet, so the firer's cannon there is the one that
    fired) counts as still Aimed while they land; None when the hits land elsewhere."""
    building = state.codes_at(place(event.planet, event.space))[2]
    if building is None or building_kind(building) != DRILL_CANNON or building >> B_OWNER & FIELD != event.by:
        return None
    touch("GT-D4")
    return building if rules.options.fire_readiness is FireReadiness.AIMED_UNTIL_HITS_LAND else None


def _drill_damage(rules: Rules, state: GlobetrotterState, event: Pending, amount: int) -> GlobetrotterState:
    touch("GT-D2")
    firing = _firing_cannon(rules, state, event)
    where = place(event.planet, event.space)
    if firing is None:
        return _share_damage(rules, state, where, amount, event.by)
    state = _share_damage(
        rules, state.replace_building(firing, aimed(firing, AIMED, where & SPACE_MASK)), where, amount, event.by
    )
    survivor = state.codes_at(where)[2]
    return state if survivor is None else state.replace_building(survivor, aimed(survivor, IDLE, 0))


def _share_damage(rules: Rules, state: GlobetrotterState, where: Where, amount: int, by: int) -> GlobetrotterState:
    """Damage dealt to a space rather than to a piece (the drill's hits on the aimed space, GT-D2; an
    explosion's point on each adjacent space, GT-D5) on the pieces there, under `drill_hits`: each
    piece takes all of it, or the Rover takes it until destroyed and the rest goes on."""
    pieces = _pieces_at(state, where)
    if rules.options.drill_hits is DrillHits.EVERY_PIECE:
        for piece in pieces:
            state = damage(rules, state, piece, amount, by)
        return state
    for piece in pieces:  # rover-first: a Rover, if any, comes first in _pieces_at
        share = min(amount, hp_of(*piece))
        state = damage(rules, state, piece, share, by)
        amount -= share
    return state


def damage(rules: Rules, state: GlobetrotterState, piece: Target, amount: int, by: int) -> GlobetrotterState:
    """GT-A8: remove hit points; a piece at 0 is destroyed."""
    touch("GT-A8")
    if amount <= 0:
        return state
    kind, code = piece
    hp = damaged_hp(INT_OPS, hp_of(kind, code), amount)
    if hp > 0:
        return state.replace_piece(kind, code, with_hp(kind, code, hp))
    return _remove(rules, state, piece, by, explode=True)


def _remove(
    rules: Rules, state: GlobetrotterState, piece: Target, by: int, explode: bool, steal: bool = True
) -> GlobetrotterState:
    kind, code = piece
    state = state.replace_piece(kind, code, None)
    if kind != BUILDING:
        return state
    building = building_kind(code)
    if building == TREASURY and code >> B_POINTS & FIELD:
        if steal:
            state = _steal(rules, state, code, by)
        else:
            touch("GT-T4")  # planet_treasuries=lost: the points go with the planet
    if explode and building == DRILL_CANNON and building_readiness(code) in (READY, AIMED):
        touch("GT-D5")
        where = code >> BUILDING_PLACE
        explosion = Pending(EXPLOSION, by, *spot(where))
        state = state.with_pending((explosion,) + state.pending)
    return state


def _steal(rules: Rules, state: GlobetrotterState, treasury: int, by: int) -> GlobetrotterState:
    """GT-T4, GT-T5: the destroyer gets the points, capped so that no more than 4 actions in a row
    are counted; under `destroying_action=excluded` the destroying action stops counting."""
    touch("GT-T4", "GT-T5")
    turn = state.turn
    assert turn is not None and turn.player == by
    if treasury >> B_OWNER & FIELD == by:
        rules.rule_gap("GT-F06", "a player destroyed their own Treasury: do they get its points back?", state)
    exclude = rules.options.destroying_action is DestroyingAction.EXCLUDED and not turn.excluded
    counted = turn.counted - 1 if exclude else turn.counted
    stolen = stolen_after_theft(INT_OPS, turn.stolen, counted, treasury >> B_POINTS & FIELD)
    return state.with_turn(evolve(turn, counted=counted, stolen=stolen, excluded=turn.excluded or exclude))


def destroy_planet(rules: Rules, state: GlobetrotterState, planet: int, by: int) -> GlobetrotterState:
    """GT-D6: every Rover and Building on the planet and in its orbit goes, and its
    Fortifications with them (the rulebook does not list them, but no board is left). Under
    `planet_treasuries=to-firer` the firer gets the points of the Treasuries destroyed (GT-T4);
    under `lost` they go with the planet."""
    steal = rules.options.planet_treasuries is PlanetTreasuries.TO_FIRER
    for building in [b for b in state.building_codes if b >> BUILDING_PLACE >> SPACE_BITS == planet]:
        state = _remove(rules, state, (BUILDING, building), by, explode=False, steal=steal)
    state = state.with_codes(
        rovers=[r for r in state.rover_codes if r >> UNIT_PLACE >> SPACE_BITS != planet],
        fortifications=[f for f in state.fortification_codes if f >> UNIT_PLACE >> SPACE_BITS != planet],
    )
    planets = list(state.planets)
    planets[planet] = evolve(planets[planet], destroyed=True)
    return evolve(state, planets=tuple(planets), pending=tuple(p for p in state.pending if p.planet != planet))
