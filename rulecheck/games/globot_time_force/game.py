"""Globot Time Force as a transition system: the rulebook behind the kernel's protocol.

Models: 1 to 5 players (GTF-S1); setup and its chance draws (setup.py); turns of any number
of non-timeline actions (discard and pay for a reserved card, cards.py; TEC and the gear
exchange, costs.py; place a token, achievements.py; resolve a passive skill, skills.py) and
one timeline action that ends the turn (timeline.py; GTF-T1..T3); the skill effects waiting
in `pending`, the player choosing where an effect needs a card (skills.py); the end of a
turn, second turns, refills and the end game's extra turns (turns.py); scoring
(tableau.py). Which action is legal when, and which clause an illegal one breaks, is here.
Every ambiguity is an option (options.py); where the text is silent, a rule gap.

Leaves out: what an event card does (not in the text: it only sits in the timeline, a rule
gap), looking through the discard pile (no skill of the format does), and table talk.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from operator import attrgetter
from typing import Any

from rulecheck.core.clauses import coverage, touch
from rulecheck.core.errors import IllegalAction
from rulecheck.core.game import CHANCE, TERMINAL, Game
from rulecheck.core.notation import Action
from rulecheck.core.numbering import Domain
from rulecheck.core.traits import EXPLICIT_CHANCE, IMPERFECT, SCORES, SEQUENTIAL, Traits
from rulecheck.games.globot_time_force import (
    achievements,
    bounds,
    cards,
    costs,
    counters,
    refusals,
    setup,
    skills,
    timeline,
    turns,
)
from rulecheck.games.globot_time_force.actions import (
    ACTION_TYPES,
    CHANCE_ACTIONS,
    Choose,
    Discard,
    Dismiss,
    DrawBoard,
    EndTurn,
    Exchange,
    ExtraTurn,
    Gain,
    PayReserved,
    Place,
    Reserve,
    Resolve,
    Reveal,
    UseIoM,
    UseTEC,
)
from rulecheck.games.globot_time_force.components import DATA_FORMAT
from rulecheck.games.globot_time_force.context import Rules, ops
from rulecheck.games.globot_time_force.options import OPTIONS, GearExchange, GlobotTimeForceOptions
from rulecheck.games.globot_time_force.state import ACT, DRAWS, OFFER, OVER, Draft, GTFState
from rulecheck.games.globot_time_force.tableau import score_parts

Step = Callable[[Rules, Draft, Any], None]
"""A rule module's effect of one kind of action (given only actions of that kind), made on a draft
of the state."""
_STEPS: dict[type[Action], Step] = {
    DrawBoard: setup.draw_board,
    Reveal: setup.reveal,
    ExtraTurn: turns.answer,
    Choose: skills.choose,
    Gain: timeline.gain,
    UseIoM: timeline.use_iom,
    Reserve: timeline.reserve,
    Dismiss: timeline.dismiss,
    Discard: cards.discard_action,
    PayReserved: cards.pay_reserved,
    UseTEC: costs.use_tec,
    Place: achievements.place,
    Resolve: skills.resolve,
    Exchange: costs.exchange,
    EndTurn: timeline.end_turn,
}
_TEXT = attrgetter("text")
_CLAUSE_OF = {
    Gain: "GTF-T2a",
    UseIoM: "GTF-T2b",
    Reserve: "GTF-T7",
    Dismiss: "GTF-T2d",
    Discard: "GTF-T3b",
    PayReserved: "GTF-T3c",
    UseTEC: "GTF-T3d",
    Place: "GTF-E1",
    Resolve: "GTF-T3a",
    Choose: "GTF-T4",
    Exchange: "GTF-R2",
    EndTurn: "GTF-T1",
    ExtraTurn: "GTF-E3",
}


class GlobotTimeForce(Game[GTFState, Action]):
    name = "globot-time-force"
    version = 3
    min_players = 1
    max_players = 5
    campaign_players = (1, 2, 5)
    """1: no remaining players at the end and a 2-card timeline; 2: 3 boards; 5: the most boards
    and the longest timeline."""
    traits = Traits(
        chance=EXPLICIT_CHANCE,
        information=IMPERFECT,
        dynamics=SEQUENTIAL,
        outcome=SCORES,
        hidden=("the deck's order, from everyone (the state keeps only its contents)",),
    )
    state_type = GTFState
    action_types = ACTION_TYPES
    chance_action_types = CHANCE_ACTIONS
    option_space = OPTIONS
    options: GlobotTimeForceOptions
    data_format = DATA_FORMAT
    legal_actions_sorted = True

    def _prepare(self) -> None:
        self.rules = Rules(self.data, self.players, self.options, self.rule_gap)
        self._last_chance: tuple[GTFState, tuple[tuple[Action, Fraction], ...]] | None = None
        self._initial: tuple[GTFState, tuple[str, ...]] | None = None

    def initial_state(self) -> GTFState:
        """The state before the first draw, set up once (a state never changes) with the clauses
        setting it up touched again on every call."""
        if self._initial is not None:
            state, touched = self._initial
            if touched:
                touch(*touched)
            return state
        with coverage() as seen:
            draft = Draft(setup.initial_state(self.rules))
            turns.advance(self.rules, draft)
            state = draft.state()
        self._initial = (state, tuple(seen))
        return state

    # The protocol.

    def to_move(self, state: GTFState) -> int:
        if state.stage in DRAWS:
            return CHANCE
        if state.stage == OVER:
            return TERMINAL
        return state.current

    def score_parts(self, state: GTFState, player: int) -> dict[str, int]:
        return score_parts(self.data, state, player, self.options.tableau_limit)

    def progress(self, state: GTFState) -> tuple[float, ...]:
        """The running score: each player's score parts as GTF-E10 sums them, at any state."""
        return tuple(float(sum(self.score_parts(state, p).values())) for p in range(self.players))

    def return_bounds(self, max_steps: int) -> tuple[int, int]:
        """Scores from 0 up to a bound derived from the rules and the data set (bounds.py)."""
        return bounds.score_bounds(self.data, self.players, max_steps)

    def _returns(self, state: GTFState) -> tuple[int, ...]:
        touch("GTF-E10")
        return tuple(sum(self.score_parts(state, p).values()) for p in range(self.players))

    def action_domains(self) -> dict[type[Action], Sequence[Domain]]:
        data = self.data
        every = tuple(sorted(data.cards))
        boards = tuple(sorted(data.achievements))
        most = max(c.cost for c in data.cards.values())
        many = max(len(data.deck_cards()), counters.TABLEAU_LIMIT + 1)
        slots = tuple(range(self.rules.row))
        spend = (tuple(range(counters.ENERGY_CAP + 1)), tuple(range(most + 1)), tuple(range(most + 1)))
        skill_indices = tuple(range(max((len(c.skills) for c in data.cards.values()), default=0) or 1))
        return {
            Gain: (slots, *spend),
            UseIoM: (slots,),
            Reserve: (slots,),
            Dismiss: (timeline.REWARDS,),
            Discard: (tuple(range(many)),),
            PayReserved: (tuple(range(counters.TOKENS)), *spend),
            UseTEC: (),
            Place: (boards,),
            Resolve: (tuple(range(many)), skill_indices),
            Choose: (tuple(range(many)),),
            Exchange: (),
            EndTurn: (),
            ExtraTurn: (("decline", "take"),),
            DrawBoard: (boards,),
            Reveal: (every,),
        }

    def _chance_outcomes(self, state: GTFState) -> tuple[tuple[Action, Fraction], ...]:
        """The outcomes of the state's draw (kept for the last state asked: play asks for them and
        then applies one, which lists them again)."""
        last = self._last_chance
        if last is not None and last[0] is state:
            return last[1]
        found = setup.draws(self.rules, state)
        self._last_chance = (state, found)
        return found

    # Legal actions.

    def _legal_actions(self, state: GTFState, player: int) -> list[Action]:
        """The legal actions in canonical order (each is made once, so none repeats)."""
        return sorted(self._listed_actions(state, player), key=_TEXT)

    def _listed_actions(self, state: GTFState, player: int) -> list[Action]:
        rules = self.rules
        make = rules.make
        if state.stage == OFFER:
            return [make(ExtraTurn, "take"), make(ExtraTurn, "decline")]
        if state.pending:
            return [make(Choose, option) for option in skills.options(rules, state, state.pending[0])]
        if state.stage != ACT:
            return []
        me = state.player()
        found = [*cards.discards(rules, len(me.tableau)), *cards.reserved_payments(rules, me)]
        if me.tec:
            found.append(make(UseTEC))
        if counters.may_place(ops, me.tokens):
            found += [make(Place, board) for board in achievements.placeable(rules, state, player)]
        found += [make(Resolve, position, skill) for position, skill in skills.passives(rules, state)]
        if rules.options.gear_exchange is GearExchange.ON and costs.exchanged(rules, me) is not None:
            found.append(make(Exchange))
        if rules.mandatory_passives and skills.passives(rules, state):
            touch("GTF-T3a")
            return found
        return found + timeline.legal(rules, state, me)

    def _illegal(self, state: GTFState, action: Action) -> IllegalAction | None:
        mover = self.to_move(state)
        if mover == TERMINAL:
            return IllegalAction("GTF-E4", "the game is over", action)
        if (mover == CHANCE) != isinstance(action, CHANCE_ACTIONS):
            return IllegalAction("GTF-S5", "cards and boards are drawn only when one is due", action)
        if isinstance(action, CHANCE_ACTIONS):
            return IllegalAction("GTF-S5", f"{action} cannot come next", action)
        if state.pending and not isinstance(action, Choose):
            return IllegalAction("GTF-T4", "a skill effect must resolve first", action)
        if isinstance(action, Gain | PayReserved):
            me = state.player()
            if not counters.energy_fits(ops, me.used, action.energy):
                return IllegalAction("GTF-R5", f"energy used would be {me.used + action.energy}, over 12", action)
        why = refusals.reason(self.rules, state, action) if mover >= 0 else None
        return IllegalAction(
            _CLAUSE_OF[type(action)], f"{action} is not legal now" + (f": {why}" if why else ""), action
        )

    # Applying.

    def _apply(self, state: GTFState, action: Action) -> GTFState:
        rules = self.rules
        draft = Draft(state)
        _STEPS[type(action)](rules, draft, action)
        turns.advance(rules, draft)
        return draft.state()
