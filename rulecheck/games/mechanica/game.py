"""Mechanica as a transition system: the rulebook's rules over a data set of components.

Models: 1 to 4 players (MEC-C1: four factory boards). Setup (MEC-S1..S6, setup.py), its draws into the
Shop and of the two face-up blueprints each a chance node (shop.py). The workday (MEC-W1..W8,
workday.py): each player with switches commits an exit for each of them (simultaneous dynamics, written
as per-player commits in seat order from the first player, each in square order), then every factory
runs at once (run.py), then each player's turn in seat order (MEC-T0, steps.py): Sell, Buy (install,
recycle; recycled bots, recycling.py), Make Bots, Rotate (the Recycler and Double Rotate, shop.py), with
Trucks, Forks and demolishing (anytime.py) and blueprints (blueprints.py) at any point of it (MEC-A1,
MEC-P8); the end check, the blueprint refresh and the next workday (MEC-E1..E3, workday.py); under
`game_end=at-once` the end as soon as no improvement is left (MEC-O1); the score (MEC-O2, MEC-E4) as
returns, ties standing. Here: the listings of each phase and step (each rule module's `LISTINGS` say
where its actions are legal) and the dispatch to the rule modules. Every ambiguity is an option
(options.py).

Leaves out: solo rules (none are written; one player plays the same turns), money as coins (the
supply of money is unlimited), and choices the rulebook gives a player but no rule reads: the order
in which bots are sold. Where a gift of the Overactive Fabricator lands is not the receiver's choice
here: it goes into her first Start Zone hole with room from the top (a rule gap, MEC-P9).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

from rulecheck.core.clauses import touch
from rulecheck.core.errors import IllegalAction
from rulecheck.core.evolve import evolve
from rulecheck.core.game import CHANCE, TERMINAL, Game
from rulecheck.core.notation import Action
from rulecheck.core.numbering import Domain
from rulecheck.core.traits import EXPLICIT_CHANCE, PERFECT, SCORES, SIMULTANEOUS, Traits
from rulecheck.games.mechanica import anytime, blueprints, bounds, recycling, setup, shop, steps, workday
from rulecheck.games.mechanica.actions import ACTION_TYPES, CHANCE_TYPES, Draw, Reveal, domains
from rulecheck.games.mechanica.data import FORMAT, MechanicaData
from rulecheck.games.mechanica.options import OPTIONS, MechanicaOptions
from rulecheck.games.mechanica.rules import Listing, PlayRule, Rules
from rulecheck.games.mechanica.state import OVER, PLACE, ROUTE, STEPS, TURN, MechanicaState

PLAY_RULES: tuple[PlayRule, ...] = workday.RULES + recycling.RULES + steps.RULES + anytime.RULES + blueprints.RULES
_RULE_BY_TYPE = {rule.action_type: rule for rule in PLAY_RULES}
LISTINGS: tuple[Listing, ...] = (
    workday.LISTINGS + recycling.LISTINGS + anytime.LISTINGS + blueprints.LISTINGS + steps.LISTINGS
)
_WHERE = {kind: (listing.phase, listing.step) for listing in LISTINGS for kind in listing.kinds}
"""The phase and the step (None: any) where each kind of player action is legal."""
_LISTED_AT = {
    (phase, step): tuple(x.legal for x in LISTINGS if x.phase == phase and x.step in (None, step))
    for phase in (ROUTE, PLACE, TURN)
    for step in STEPS
}
"""The listings of each phase and step."""


class Mechanica(Game[MechanicaState, Action]):
    name = "mechanica"
    version = 1
    min_players = 1
    max_players = 4
    campaign_players = (2, 4)
    """2: Double Rotate (MEC-T11); 4: the Extras after the Stack (MEC-S6). One player plays the same rules
    with neither (no rule of its own), so the campaign leaves it to `rulecheck fuzz --players 1` and the tests,
    to keep the campaign within its time."""
    traits = Traits(
        chance=EXPLICIT_CHANCE,
        information=PERFECT,
        dynamics=SIMULTANEOUS,
        outcome=SCORES,
        commit_order=(
            "at the start of each workday, before the factories run, each player in seat order from the first "
            "player commits one exit for each of her switches (Forks, improvements that send bots above or below) "
            "in square order; a commit reads and changes only its owner's factory's run, so none depends on another"
        ),
    )
    state_type = MechanicaState
    action_types = ACTION_TYPES
    chance_action_types = CHANCE_TYPES
    option_space = OPTIONS
    options: MechanicaOptions
    data_format = FORMAT

    def _prepare(self) -> None:
        data: MechanicaData = self.data
        self.rules = Rules(self.players, self.options, data, self.rule_gap)

    def initial_state(self) -> MechanicaState:
        return setup.initial_state(self.rules, self.options)

    def to_move(self, state: MechanicaState) -> int:
        if state.pending:
            return CHANCE
        if state.phase == OVER:
            return TERMINAL
        return state.player

    def score(self, state: MechanicaState, player: int) -> int:
        """MEC-O2, MEC-E4: Wallet, Vault and the value of the installed improvements."""
        factory = state.factories[player]
        return factory.wallet + factory.vault + sum(self.rules.improvement[t].value for _, t in factory.tiles)

    def progress(self, state: MechanicaState) -> tuple[float, ...]:
        """The running score: each player's score as MEC-O2 counts it, at any state."""
        return tuple(float(self.score(state, p)) for p in range(self.players))

    def return_bounds(self, max_steps: int) -> tuple[int, int]:
        """Scores from 0 up to a bound derived from the rules and the data set (bounds.py)."""
        return bounds.score_bounds(self.data, max_steps)

    def _returns(self, state: MechanicaState) -> tuple[int, ...]:
        touch("MEC-O2", "MEC-E4")
        return tuple(self.score(state, p) for p in range(self.players))

    def action_domains(self) -> dict[type[Action], Sequence[Domain]]:
        return domains(self.rules)

    def _chance_outcomes(self, state: MechanicaState) -> Sequence[tuple[Action, Fraction]]:
        return shop.chance_outcomes(self.rules, state)

    def _legal_actions(self, state: MechanicaState, player: int) -> Iterable[Action]:
        found: list[Action] = []
        for legal in _LISTED_AT[state.phase, state.step]:
            found += legal(self.rules, state, player)
        return found

    def _apply(self, state: MechanicaState, action: Action) -> MechanicaState:
        if state.pending:
            after = shop.apply_chance(self.rules, state, action)
        else:
            after = _RULE_BY_TYPE[type(action)].effect(self.rules, state, state.player, action)
        if (
            self.rules.at_once
            and after.phase in (TURN, PLACE)
            and not after.pending
            and not workday.improvements_left(self.rules, after)
        ):
            touch("MEC-O1")
            return evolve(after, phase=OVER)
        return after

    def _illegal(self, state: MechanicaState, action: Action) -> IllegalAction | None:
        mover = self.to_move(state)
        if mover == TERMINAL:
            return IllegalAction("MEC-E4", "the game is over", action)
        if (mover == CHANCE) != isinstance(action, CHANCE_TYPES):
            return IllegalAction("MEC-S2", "improvements and blueprints are drawn only when one is due", action)
        if mover == CHANCE:
            due = state.pending[0]
            wanted = Reveal if due.startswith("bp:") else Draw
            if not isinstance(action, wanted):
                return IllegalAction("MEC-S4", f"the draw due is {due}", action)
            return IllegalAction("MEC-S2", "that is not among the unseen items", action)
        where = _WHERE.get(type(action))
        phase, step = (None, None) if where is None else where
        if (state.phase == ROUTE) != (phase == ROUTE):
            return IllegalAction("MEC-W2", "fork exits are chosen at the start of a workday, and only then", action)
        if (state.phase == PLACE) != (phase == PLACE):
            return IllegalAction("MEC-T6", "recycled bots are placed before anything else", action)
        if where is None:
            return None
        if step is not None and step != state.step:
            return IllegalAction(
                "MEC-T0", f"{action.verb} belongs to the {step} step; this is the {state.step} step", action
            )
        return _RULE_BY_TYPE[type(action)].check(self.rules, state, state.player, action)
