"""Globetrotter as a transition system: the whole rulebook behind the kernel's protocol.

Models: 2 to 6 players on 1 to 3 planets (GT-M1); setup with its roll-off (setup.py);
turns with one action, saved and stolen extra actions and the cap of 4 in a row
(turns.py); Move, orbit and descent (movement.py); Shoot and the Drill Cannon
(combat.py); Fortify, Build, Decommission, Manufacture, Repair and Save
(construction.py); Pass when nothing else is legal (GT-A16) and ending a turn early to
decline extra actions; losing (GT-E1, GT-E2) and the end of the game (GT-E3); the
board's rotations as symmetries (symmetry.py). Every ambiguity is an option (options.py).
The listings alone decide what is legal (each rule's `legal`, setup.py's); an action they leave
out is refused with the reason refusals.py finds, or under its kind's clause as not legal now,
so the rules cannot disagree with the listing.

Leaves out: 7 or more players (the rulebook's table stops at 6) and table talk.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from operator import attrgetter, itemgetter
from typing import Any

from rulecheck.core.clauses import coverage, touch
from rulecheck.core.codec import decode, encode
from rulecheck.core.errors import EncodingError, IllegalAction
from rulecheck.core.game import CHANCE, TERMINAL, Game
from rulecheck.core.notation import Action
from rulecheck.core.numbering import Domain
from rulecheck.core.traits import EXPLICIT_CHANCE, PERFECT, SEQUENTIAL, WIN_LOSS, Traits
from rulecheck.games.globetrotter import combat, construction, movement, refusals, setup
from rulecheck.games.globetrotter.actions import (
    ACTION_TYPES,
    Aim,
    Build,
    Choose,
    Damage,
    Decommission,
    Descend,
    Dice,
    Die,
    EndTurn,
    EnterOrbit,
    Fire,
    Fortify,
    Manufacture,
    Move,
    Pass,
    PlaceFactory,
    PlaceRover,
    Ready,
    Repair,
    Save,
    Shoot,
    Transfer,
)
from rulecheck.games.globetrotter.board import boards_for
from rulecheck.games.globetrotter.context import PLANETS_BY_PLAYERS, Listing, Mover, PlayRule, Rules, Table, actions_on
from rulecheck.games.globetrotter.counters import ROVER_HP
from rulecheck.games.globetrotter.options import OPTIONS, GlobetrotterOptions
from rulecheck.games.globetrotter.state import (
    BEFORE_PLAY,
    BUILDING_KINDS,
    CHOOSE,
    OVER,
    PLACE_FACTORY,
    PLACE_ROVER,
    PLAY,
    ROLL,
    TARGET_KINDS,
    GlobetrotterState,
    PlanetState,
    StateRecord,
)
from rulecheck.games.globetrotter.symmetry import Rotation, rotations
from rulecheck.games.globetrotter.turns import begin_turn, counted_turn, finish_action, next_player, spend
from rulecheck.games.globetrotter.written import written_problem
from rulecheck.geometry.planet import label_order

PLAY_RULES: tuple[PlayRule, ...] = movement.RULES + combat.RULES + construction.RULES
_RULE_BY_TYPE = {rule.action_type: rule for rule in PLAY_RULES}


def _rules_for(holds: int) -> tuple[tuple[PlayRule, ...], tuple[str, ...]]:
    """For what a mover holds (`Mover.holds`), the rules that may list an action, and the clauses the
    listings of the rules it holds what they need for read whatever they list (`PlayRule.reads`)."""
    held = [rule for rule in PLAY_RULES if rule.needs & holds]
    return tuple(rule for rule in held if rule.lists & holds), tuple(c for rule in held for c in rule.reads)


_RULES_FOR: Table[int, tuple[tuple[PlayRule, ...], tuple[str, ...]]] = Table(_rules_for)
"""`_rules_for` of each value of `Mover.holds`, worked out once."""
"""The phases before play, whose steps (rolls and setup actions) `_apply_chance_or_setup` applies."""
_BY_TEXT = attrgetter("text")
"""The key of the canonical order of actions."""
_ACTION = itemgetter(0)
"""The action of a listed action with its payload."""
MOST_DAMAGE = combat.DIE_FACES * combat.DIE_FACES
"""The most a Drill Cannon's hits can deal: a d6 of hits, each up to a d6 of damage."""


class Globetrotter(Game[GlobetrotterState, Action]):
    name = "globetrotter"
    version = 6
    min_players = min(PLANETS_BY_PLAYERS)
    max_players = max(PLANETS_BY_PLAYERS)
    campaign_players = (2, 4, 6)
    """2: the roll-off winner chooses the order (GT-S3); 4: two planets, 3 or more players place
    in turn (GT-S4, GT-M2); 6: three planets, so planets can lie in a line."""
    traits = Traits(chance=EXPLICIT_CHANCE, information=PERFECT, dynamics=SEQUENTIAL, outcome=WIN_LOSS)
    state_type = StateRecord
    """The state as its canonical JSON writes it: states are encoded and decoded through it."""
    action_types = ACTION_TYPES
    chance_action_types = (Die, Dice, Damage)
    option_space = OPTIONS
    options: GlobetrotterOptions
    legal_actions_sorted = True

    def _prepare(self) -> None:
        players = self.players
        boards = boards_for(self.options.removal, PLANETS_BY_PLAYERS[players], self.options.planet_adjacency)
        reach = boards.reach(self.options.shooting)
        self.rules = Rules(players, self.options, boards, self.rule_gap, actions_on(boards), reach)
        self._listing: tuple[Mover, dict[type[Action], Listing[Any]]] | None = None
        """The mover of the last state whose play actions were listed, with those actions by type
        (the types that have any), each with what its effect needs: applying one looks it up there."""
        self._end_turn = self.rules.actions.act(EndTurn)
        self._pass = self.rules.actions.act(Pass)
        """The actions with no argument, listed on most steps: made once."""

    def initial_state(self) -> GlobetrotterState:
        touch("GT-B1", "GT-B2", "GT-B3", "GT-M1")
        return GlobetrotterState(
            phase=ROLL,
            rolls=(0,) * self.players,
            contenders=tuple(range(self.players)),
            placing=(),
            turn=None,
            rover_codes=(),
            fortification_codes=(),
            building_codes=(),
            planets=tuple(PlanetState(0, False) for _ in range(self.rules.boards.count)),
            pending=(),
            lost=(),
        )

    def encode_state(self, state: GlobetrotterState) -> str:
        return encode(state.record())

    def decode_state(self, text: str) -> GlobetrotterState:
        """The state `text` writes; EncodingError, naming the field, for a value that is no place,
        seat, kind or count of this game (the integer state could not hold it, or the rules would
        index past the board or the seats with it)."""
        record = decode(StateRecord, text)
        problem = written_problem(record, self.players, self.rules.boards)
        if problem is not None:
            raise EncodingError(f"at {problem}")
        return GlobetrotterState.of(record)

    def to_move(self, state: GlobetrotterState) -> int:
        if state.phase == PLAY:
            if state.pending:
                return CHANCE
            assert state.turn is not None
            return state.turn.player
        if state.phase == OVER:
            return TERMINAL
        if state.phase == ROLL or state.pending:
            return CHANCE
        if state.phase == CHOOSE:
            return state.contenders[0]
        if state.phase in (PLACE_FACTORY, PLACE_ROVER):
            return state.placing[0]
        assert state.turn is not None
        return state.turn.player

    def losers(self, state: GlobetrotterState) -> frozenset[int]:
        return frozenset(state.lost)

    def _returns(self, state: GlobetrotterState) -> tuple[int, ...]:
        """1 for each player who has not lost when the game ends (the last one standing, or under
        `game_end=first-loss` everyone still in), -1 for the rest; all -1 when the last planet is
        destroyed (GT-E2)."""
        return tuple(-1 if p in state.lost else 1 for p in range(self.players))

    def progress(self, state: GlobetrotterState) -> tuple[float, ...]:
        """A heuristic, no rule: the returns at the end; before it, -1 for a player who has lost
        (GT-E1) and for the others their share of the hit points (GT-A8: Rovers 3, Buildings 5,
        Fortifications 1) of every piece on the table, since a player loses by running out of
        pieces and wins by outlasting the others, and building, fortifying and shooting move it."""
        if self.is_terminal(state):
            return tuple(float(r) for r in self.returns(state))
        held = [0] * self.players
        for pieces in (state.rovers, state.buildings, state.fortifications):
            for piece in pieces:
                held[piece.owner] += piece.hp
        total = sum(held) or 1
        return tuple(-1.0 if p in state.lost else held[p] / total for p in range(self.players))

    def blame(self, state: GlobetrotterState, action: Action) -> int | None:
        """A die rolled for an action is that action's player's (a Shoot's, a Fire's); setup rolls
        are nobody's."""
        if self.to_move(state) == CHANCE:
            return state.pending[0].by if state.pending else None
        return super().blame(state, action)

    def symmetries(self) -> tuple[Rotation, ...]:
        """The board's rotations (symmetry.py), each applied to every planet at once."""
        return rotations(self.rules.boards.removal.value)

    def action_domains(self) -> dict[type[Action], Sequence[Domain]]:
        """Spaces in label order (docs/board.md) on each planet in turn, orbits by planet letter."""
        boards = self.rules.boards
        spaces = tuple(boards.token(p, s) for p in range(boards.count) for s in sorted(boards.spaces, key=label_order))
        orbits = tuple(boards.orbit_token(p) for p in range(boards.count))
        hit_points = tuple(range(1, ROVER_HP + 1))
        faces = tuple(range(1, combat.DIE_FACES + 1))
        return {
            Die: (faces,),
            Dice: (tuple(range(2, 2 * combat.DIE_FACES + 1)),),
            Damage: (tuple(range(MOST_DAMAGE + 1)),),
            Choose: (setup.ORDERS,),
            PlaceFactory: (spaces,),
            PlaceRover: (spaces,),
            Move: (spaces, spaces),
            EnterOrbit: (spaces,),
            Descend: (hit_points, spaces),
            Transfer: (hit_points, orbits, orbits),
            Shoot: (spaces, spaces, TARGET_KINDS),
            Fortify: (spaces,),
            Build: (spaces, BUILDING_KINDS),
            Decommission: (spaces,),
            Manufacture: (spaces, spaces),
            Repair: (spaces,),
            Ready: (spaces,),
            Aim: (spaces, spaces),
            Fire: (spaces,),
            Save: (),
            Pass: (),
            EndTurn: (),
        }

    def _chance_outcomes(self, state: GlobetrotterState) -> tuple[tuple[Action, Fraction], ...]:
        if state.phase == ROLL:
            return combat.DIE_OUTCOMES
        return combat.chance_outcomes(self.rules, state)

    def _legal_actions(self, state: GlobetrotterState, player: int) -> list[Action]:
        """The legal actions sorted by their text (`legal_actions_sorted`): the rules list each one
        once (a piece, a space, a pair of spaces or a kind of piece tells each apart). Before play,
        setup.py's; in play (listed here, the common case, with no further call), each play rule's
        whose needs the mover holds, kept by type for `apply` (`_payload`), and EndTurn or Pass."""
        if state.phase == CHOOSE:
            found = list(setup.legal_choices(self.rules, state))
        elif state.phase == PLACE_FACTORY:
            found = list(setup.legal_factories(self.rules, state))
        elif state.phase == PLACE_ROVER:
            found = list(setup.legal_rovers(self.rules, state))
        else:
            mover = Mover(self.rules, state, player)
            every: list[tuple[Action, Any]] = []
            by_type: dict[type[Action], Listing[Any]] = {}
            asked, reads = _RULES_FOR[mover.holds]
            mover.touched += reads
            for rule in asked:
                listed = rule.legal(mover)
                if listed:
                    every += listed
                    by_type[rule.action_type] = listed
            if mover.touched:
                touch(*mover.touched)
            self._listing = (mover, by_type)
            found = list(map(_ACTION, every))
            assert state.turn is not None
            if state.turn.own_used:
                found.append(self._end_turn)
            elif not found:
                found.append(self._pass)

        found.sort(key=_BY_TEXT)
        return found

    def _mover_in(self, state: GlobetrotterState, player: int) -> Mover:
        """`player`, to move in `state`, with the facts the rules read (the last listing's, if it
        was of this state)."""
        listing = self._listing
        if listing is not None and listing[0].state is state and listing[0].player == player:
            return listing[0]
        return Mover(self.rules, state, player)

    def _payload(self, state: GlobetrotterState, player: int, action: Action) -> Any:
        """What the effect of `action`, a rule's legal action of `player` in `state`, needs: found
        in the listing the kernel's `apply` checked the action against, or, when another state was
        listed since, in its rule's listing made again, without counting the clauses that reads
        (a search applies a state's actions long after it listed them)."""
        listing = self._listing
        if listing is None or listing[0].state is not state or listing[0].player != player:
            listing = self._listing = (Mover(self.rules, state, player), {})
        mover, by_type = listing
        listed = by_type.get(type(action))
        if listed is None:  # of a listing made again: its rule's actions are listed on first use
            with coverage(isolated=True):
                listed = by_type[type(action)] = _RULE_BY_TYPE[type(action)].legal(mover)
        for candidate, payload in listed:
            if candidate is action:
                return payload
        for candidate, payload in listed:  # an equal action made elsewhere (parsed from its text, say)
            if candidate == action:
                return payload
        raise AssertionError(f"{action} is not a listed action")

    def _illegal(self, state: GlobetrotterState, action: Action) -> IllegalAction:
        """Why `action`, which the listing leaves out, is refused: the clause and reason refusals.py
        finds, or else "<action> is not legal now" under its kind's clause. Never None: the
        listing alone decides, so the rules cannot disagree with it. An explanation reads clauses
        without counting them (coverage counts what decides)."""
        mover = self.to_move(state)
        found: refusals.Refusal | None
        with coverage(isolated=True):
            if mover == TERMINAL:
                found = ("GT-E3", "the game is over")
            elif mover == CHANCE:
                found = refusals.at_chance(self.rules, state, action)
            elif state.phase in refusals.SETUP_PHASES:
                found = refusals.in_setup(self.rules, state, action)
            else:
                found = refusals.in_play(self._mover_in(state, mover), action)
        if found is None:
            return IllegalAction(refusals.CLAUSE_OF[type(action)], f"{action} is not legal now", action)
        return IllegalAction(*found, action)

    def _apply(self, state: GlobetrotterState, action: Action) -> GlobetrotterState:
        """The state after `action`, one the listing gave (the kernel's `apply` checked it). A player's
        action in play, the common case, is applied here with no further call: a rule's is looked up
        in the listing (`_payload`), its point paid (`spend`), and the turn counted and finished."""
        if state.pending or state.phase in BEFORE_PLAY:
            return self._apply_chance_or_setup(state, action)
        turn = state.turn
        assert turn is not None
        player = turn.player
        rule = _RULE_BY_TYPE.get(type(action))
        if rule is not None:
            found = self._payload(state, player, action)
            paid, spent = spend(self.rules, state)
            after = rule.effect(self.rules, paid, player, action, found)
            turn = spent if after.turn is paid.turn else counted_turn(spent, after)  # spent: the effect kept the turn
            fresh = after is not paid  # the effect's new state, which nobody else holds yet
            if after.pending:
                return after.settle_turn(turn) if fresh else after.with_turn(turn)
            return finish_action(self.rules, after, turn, fresh=fresh)
        if isinstance(action, EndTurn):
            if turn.stolen:
                touch("GT-T4")  # stolen points not used now are forfeit
            return begin_turn(self.rules, state, next_player(self.rules, state, player))
        assert isinstance(action, Pass)
        touch("GT-A16")  # listed when no other action is
        return finish_action(self.rules, *spend(self.rules, state))

    def _apply_chance_or_setup(self, state: GlobetrotterState, action: Action) -> GlobetrotterState:
        """The state after a chance outcome (a setup roll, a shot's or a fire's roll) or a setup action."""
        if self.to_move(state) == CHANCE:
            if state.phase == ROLL:
                assert isinstance(action, Die)
                return setup.apply_roll(self.rules, state, action)
            state = combat.resolve(self.rules, state, action)
            return state if state.pending else finish_action(self.rules, state)
        if state.phase == CHOOSE:
            assert isinstance(action, Choose)
            return setup.apply_choose(self.rules, state, action)
        if state.phase == PLACE_FACTORY:
            assert isinstance(action, PlaceFactory)
            return setup.apply_place_factory(self.rules, state, action)
        assert state.phase == PLACE_ROVER and isinstance(action, PlaceRover)
        return setup.apply_place_rover(self.rules, state, action)
