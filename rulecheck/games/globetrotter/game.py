"""Globetrotter as a transition system: the whole rulebook behind the kernel's protocol.

Models: 2 to 6 players on 1 to 3 planets (GT-M1); setup with its roll-off (setup.py);
turns with one action, saved and stolen extra actions and the cap of 4 in a row
(turns.py); Move, orbit and descent (movement.py); Shoot and the Drill Cannon
(combat.py); Fortify, Build, Decommission, Manufacture, Repair and Save
(construction.py); Pass when nothing else is legal (GT-A16) and ending a turn early to
decline extra actions; losing (GT-E1, GT-E2) and the end of the game (GT-E3); the
board's rotations as symmetries (symmetry.py). Every ambiguity is an option (options.py).

Leaves out: 7 or more players (the rulebook's table stops at 6) and table talk.
"""

from __future__ import annotations

from fractions import Fraction

from rulecheck.core.clauses import touch
from rulecheck.core.errors import IllegalAction
from rulecheck.core.game import CHANCE, TERMINAL, Game
from rulecheck.core.notation import Action, sort_actions
from rulecheck.games.globetrotter import combat, construction, movement, setup
from rulecheck.games.globetrotter.actions import (
    ACTION_TYPES,
    Choose,
    Die,
    EndTurn,
    Pass,
    PlaceFactory,
    PlaceRover,
)
from rulecheck.games.globetrotter.board import Boards
from rulecheck.games.globetrotter.context import PLANETS_BY_PLAYERS, PlayRule, Rules
from rulecheck.games.globetrotter.options import OPTIONS
from rulecheck.games.globetrotter.state import (
    CHOOSE,
    OVER,
    PLACE_FACTORY,
    PLACE_ROVER,
    ROLL,
    GlobetrotterState,
    PlanetState,
)
from rulecheck.games.globetrotter.symmetry import Rotation, rotations
from rulecheck.games.globetrotter.turns import begin_turn, finish_action, next_player, spend

PLAY_RULES: tuple[PlayRule, ...] = movement.RULES + combat.RULES + construction.RULES
_RULE_BY_TYPE = {rule.action_type: rule for rule in PLAY_RULES}


class Globetrotter(Game[GlobetrotterState, Action]):
    name = "globetrotter"
    version = 2
    min_players = min(PLANETS_BY_PLAYERS)
    max_players = max(PLANETS_BY_PLAYERS)
    campaign_players = (2, 4, 6)
    """2: the roll-off winner chooses the order (GT-S3); 4: two planets, 3 or more players place
    in turn (GT-S4, GT-M2); 6: three planets, so planets can lie in a line."""
    state_type = GlobetrotterState
    action_types = ACTION_TYPES
    option_space = OPTIONS

    def __init__(self, players: int, options: dict[str, str] | None = None, *, strict: bool = False) -> None:
        super().__init__(players, options, strict=strict)
        boards = Boards(self.options["removal"], PLANETS_BY_PLAYERS[players], self.options["planet_adjacency"])
        self.rules = Rules(players, self.options, boards, self.rule_gap)

    def initial_state(self) -> GlobetrotterState:
        for clause in ("GT-B1", "GT-B2", "GT-B3", "GT-M1"):
            touch(clause)
        return GlobetrotterState(
            phase=ROLL,
            rolls=(0,) * self.players,
            contenders=tuple(range(self.players)),
            placing=(),
            turn=None,
            rovers=(),
            fortifications=(),
            buildings=(),
            planets=tuple(PlanetState(0, False) for _ in range(self.rules.boards.count)),
            pending=(),
            lost=(),
        )

    def to_move(self, state: GlobetrotterState) -> int:
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

    def symmetries(self) -> tuple[Rotation, ...]:
        """The board's rotations (symmetry.py), each applied to every planet at once."""
        return rotations(self.rules.boards.removal)

    def chance_outcomes(self, state: GlobetrotterState) -> tuple[tuple[Action, Fraction], ...]:
        if self.to_move(state) != CHANCE:
            return ()
        if state.phase == ROLL:
            return tuple((Die(v), Fraction(1, setup.DIE_FACES)) for v in range(1, setup.DIE_FACES + 1))
        return combat.chance_outcomes(self.rules, state)

    def legal_actions(self, state: GlobetrotterState) -> tuple[Action, ...]:
        mover = self.to_move(state)
        if mover == TERMINAL:
            return ()
        if mover == CHANCE:
            return sort_actions(o for o, _ in self.chance_outcomes(state))
        if state.phase == CHOOSE:
            return sort_actions(setup.choose_candidates(self.rules, state))
        if state.phase == PLACE_FACTORY:
            return sort_actions(setup.factory_candidates(self.rules, state))
        if state.phase == PLACE_ROVER:
            return sort_actions(setup.rover_candidates(self.rules, state))
        return sort_actions(self._play_actions(state, mover))

    def _play_actions(self, state: GlobetrotterState, player: int) -> list[Action]:
        found: list[Action] = []
        for rule in PLAY_RULES:
            for action in set(rule.candidates(self.rules, state, player)):
                try:
                    rule.check(self.rules, state, player, action)
                except IllegalAction:
                    continue
                found.append(action)
        assert state.turn is not None
        if state.turn.own_used:
            found.append(EndTurn())
        elif not found:
            found.append(Pass())
        return found

    def apply(self, state: GlobetrotterState, action: Action) -> GlobetrotterState:
        mover = self.to_move(state)
        if mover == TERMINAL:
            raise IllegalAction("GT-E3", "the game is over", action)
        if mover == CHANCE:
            return self._apply_chance(state, action)
        if state.phase == CHOOSE:
            return setup.apply_choose(self.rules, state, self._expect(action, Choose, "GT-S1"))
        if state.phase == PLACE_FACTORY:
            return setup.apply_place_factory(self.rules, state, self._expect(action, PlaceFactory, "GT-S2"))
        if state.phase == PLACE_ROVER:
            return setup.apply_place_rover(self.rules, state, self._expect(action, PlaceRover, "GT-S2"))
        return self._apply_play(state, mover, action)

    def _expect(self, action: Action, kind: type[Action], clause: str) -> Action:
        if not isinstance(action, kind):
            raise IllegalAction(clause, f"the game expects {kind.verb!r} now", action)
        return action

    def _apply_chance(self, state: GlobetrotterState, action: Action) -> GlobetrotterState:
        if state.phase == ROLL:
            return setup.apply_roll(self.rules, state, self._expect(action, Die, "GT-S1"))  # type: ignore[arg-type]
        state = combat.resolve(self.rules, state, action)
        return state if state.pending else finish_action(self.rules, state)

    def _apply_play(self, state: GlobetrotterState, player: int, action: Action) -> GlobetrotterState:
        assert state.turn is not None
        if isinstance(action, EndTurn):
            if not state.turn.own_used:
                raise IllegalAction("GT-A0", "the turn's own action is still to take", action)
            if state.turn.stolen:
                touch("GT-T4")  # stolen points not used now are forfeit
            return begin_turn(self.rules, state, next_player(self.rules, state, player))
        if isinstance(action, Pass):
            touch("GT-A16")
            if state.turn.own_used or self._play_actions(state, player) != [Pass()]:
                raise IllegalAction("GT-A16", "Pass only when no other action is valid", action)
            return finish_action(self.rules, spend(self.rules, state))
        rule = _RULE_BY_TYPE.get(type(action))
        if rule is None:
            raise IllegalAction("GT-A0", f"{action.verb!r} is not an action of play", action)
        found = rule.check(self.rules, state, player, action)
        state = rule.effect(self.rules, spend(self.rules, state), player, action, found)
        return state if state.pending else finish_action(self.rules, state)
