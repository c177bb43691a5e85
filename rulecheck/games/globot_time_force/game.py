"""Globot Time Force as a transition system: the whole rulebook behind the kernel's protocol.

Models: 1 to 5 players (GTF-S1); setup with the achievement boards drawn at random (chance,
GTF-S7), the deck face down (a Pile: each card revealed is a chance node), the timeline of
players+1 cards (GTF-S5) and the starting bonuses by turn order (GTF-S3); turns of any
number of non-timeline actions (discard, pay for the reserved card, TEC, place a token,
resolve a passive skill, the gear exchange) and one timeline action that ends the turn
(gain by paying, IoM, reserve, the two dismiss actions; GTF-T1..T3); paying with energy,
gears and charge in any mix with the energy used never above 12 (counters.py); mandatory
discard skills in the order discarded and the other skill kinds (effects waiting in
`pending`, the player choosing where an effect needs a card); second turns and never a
third (GTF-T13); the slide and refill of the timeline, and an empty deck; tokens on
achievements, the end trigger and the extra turns (GTF-E1..E4); scoring (tableau.py).
Every ambiguity is an option (options.py); where the text is silent, a rule gap.

Leaves out: what an event card does (not in the text: it only sits in the timeline, a rule
gap), looking through the discard pile (no skill of the format does), and table talk.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any, TypeVar

from rulecheck.core.clauses import coverage, touch
from rulecheck.core.errors import IllegalAction
from rulecheck.core.game import CHANCE, TERMINAL, Game
from rulecheck.core.hidden import Pile
from rulecheck.core.notation import Action, ActionCache
from rulecheck.core.numbering import Domain
from rulecheck.core.ops import INT_OPS
from rulecheck.core.traits import EXPLICIT_CHANCE, IMPERFECT, SCORES, SEQUENTIAL, Traits
from rulecheck.games.globot_time_force import counters, payment
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
from rulecheck.games.globot_time_force.components import (
    CHOICE_EFFECTS,
    DATA_FORMAT,
    DISCARD,
    DISCARD_CARD,
    EXTRA_TURN,
    GAIN_CHARGE,
    GAIN_FROM_TIMELINE,
    GAIN_GEARS,
    GAIN_IOM,
    GAIN_TEC,
    PASSIVE,
    PASSIVE_END,
    RESET_ENERGY,
    RESTORE_ENERGY,
    WHEN_GAINED,
    Effect,
    GameData,
)
from rulecheck.games.globot_time_force.options import OPTIONS
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
    evolve,
)
from rulecheck.games.globot_time_force.tableau import meets, score_parts

ops = INT_OPS
T = TypeVar("T")
CACHE_LIMIT = 20_000
"""Entries each per-game cache of legal-action parts keeps before it starts afresh."""
RECOVER = "recover"
GEARS = "gears"
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
    data_format = DATA_FORMAT

    def _prepare(self) -> None:
        data: GameData = self.data
        self.cards = data.cards
        self.row = self.players + 1
        self.board_count = data.boards_by_players[self.players - 1]
        o = self.options
        self.hard_limit = o["tableau_limit"] == "hard"
        self.uses_token = o["tokens"] != "assistant"
        self.reservation_limit = counters.TOKENS if o["tokens"] == "three-reservations" else 1
        self.gear_reading = o["gear_payment"]
        self.mandatory_passives = o["passives"] == "mandatory"
        self.all_at_once = o["extra_turns"] == "all-at-once"
        self.make = ActionCache()
        self._payment_cache: dict[Any, tuple[Any, tuple[str, ...]]] = {}
        self._discard_actions: dict[int, tuple[Action, ...]] = {}
        self._last_chance: tuple[GTFState, tuple[tuple[Action, Fraction], ...]] | None = None

    # Setup.

    def initial_state(self) -> GTFState:
        for clause in ("GTF-S1", "GTF-S2", "GTF-S3", "GTF-S4", "GTF-R1"):
            touch(clause)
        bonuses = self.data.bonuses
        players = tuple(
            Player(coins=payment.greedy(b.gears), charge=b.charge, iom=b.iom, tec=b.tec)
            for b in bonuses[: self.players]
        )
        return self._advance(
            GTFState(
                stage=BOARDS,
                deck=Pile.shuffled(self.data.deck_cards()),
                boards_left=Pile.shuffled(tuple(self.data.achievements)),
                boards=(),
                spaces=(),
                timeline=(),
                discards=(),
                players=players,
            )
        )

    # The protocol.

    def to_move(self, state: GTFState) -> int:
        if state.stage in (BOARDS, TIMELINE, REFILL):
            return CHANCE
        if state.stage == OVER:
            return TERMINAL
        return state.current

    def losers(self, state: GTFState) -> frozenset[int]:
        return frozenset()

    def observation(self, state: GTFState, player: int) -> GTFState:
        """Everything: the state keeps no order of the deck, the one thing hidden from everyone."""
        return state

    def score_parts(self, state: GTFState, player: int) -> dict[str, int]:
        return score_parts(self.data, state, player, self.options["tableau_limit"])

    def _returns(self, state: GTFState) -> tuple[int, ...]:
        touch("GTF-E10")
        return tuple(sum(self.score_parts(state, p).values()) for p in range(self.players))

    def action_domains(self) -> dict[type[Action], Sequence[Domain]]:
        cards = tuple(sorted(self.cards))
        boards = tuple(sorted(self.data.achievements))
        most = max(c.cost for c in self.cards.values())
        many = max(len(self.data.deck_cards()), counters.TABLEAU_LIMIT + 1)
        slots = tuple(range(self.row))
        spend = (tuple(range(counters.ENERGY_CAP + 1)), tuple(range(most + 1)), tuple(range(most + 1)))
        skills = tuple(range(max((len(c.skills) for c in self.cards.values()), default=0) or 1))
        return {
            Gain: (slots, *spend),
            UseIoM: (slots,),
            Reserve: (slots,),
            Dismiss: ((GEARS, RECOVER),),
            Discard: (tuple(range(many)),),
            PayReserved: (tuple(range(counters.TOKENS)), *spend),
            UseTEC: (),
            Place: (boards,),
            Resolve: (tuple(range(many)), skills),
            Choose: (tuple(range(many)),),
            Exchange: (),
            EndTurn: (),
            ExtraTurn: (("decline", "take"),),
            DrawBoard: (boards,),
            Reveal: (cards,),
        }

    def _chance_outcomes(self, state: GTFState) -> tuple[tuple[Action, Fraction], ...]:
        """The outcomes of the state's draw (kept for the last state asked: play asks for them and
        then applies one, which lists them again)."""
        last = self._last_chance
        if last is not None and last[0] is state:
            return last[1]
        found = self._draws(state)
        self._last_chance = (state, found)
        return found

    def _draws(self, state: GTFState) -> tuple[tuple[Action, Fraction], ...]:
        if state.stage == BOARDS:
            return tuple((self.make(DrawBoard, b), p) for b, p in state.boards_left.draw_outcomes())
        layers = state.deck.layers
        if len(layers) != 1:
            return tuple((self.make(Reveal, c), p) for c, p in state.deck.draw_outcomes())
        # The one layer of a deck nobody has put cards under: Pile.draw_outcomes, with each exact
        # probability made once (they repeat from game to game) rather than at every draw.
        total = sum(count for _, count in layers[0])
        return tuple((self.make(Reveal, c), _odds(n, total)) for c, n in layers[0])

    # Legal actions.

    def _legal_actions(self, state: GTFState, player: int) -> Iterator[Action]:
        make = self.make
        if state.stage == OFFER:
            yield make(ExtraTurn, "take")
            yield make(ExtraTurn, "decline")
            return
        if state.pending:
            for option in self._options(state, state.pending[0]):
                yield make(Choose, option)
            return
        me = state.player()
        if state.stage != ACT:
            return
        yield from self._discards(len(me.tableau))
        if self._room(me):
            for index in range(len(me.reserved) - me.fresh):
                yield from self._payments(PayReserved, index, self.cards[me.reserved[index]].cost, me)
        if me.tec:
            yield make(UseTEC)
        if counters.may_place(ops, me.tokens):
            for board in self._placeable(state, player):
                yield make(Place, board)
        for position, skill in self._passives(state):
            yield make(Resolve, position, skill)
        if self.options["gear_exchange"] == "on" and self._exchanged(me) is not None:
            yield make(Exchange)
        if self.mandatory_passives and any(True for _ in self._passives(state)):
            touch("GTF-T3a")
            return
        yield from self._timeline_actions(state, me)

    def _timeline_actions(self, state: GTFState, me: Player) -> Iterator[Action]:
        make = self.make
        room = self._room(me)
        for slot, key in enumerate(state.timeline):
            card = self.cards[key]
            if not card.gainable:
                touch("GTF-T10")
                continue
            if room:
                yield from self._payments(Gain, slot, card.cost, me)
                if me.iom:
                    yield make(UseIoM, slot)
            if self._may_reserve(me):
                yield make(Reserve, slot)
        if state.timeline:
            yield make(Dismiss, RECOVER)
            yield make(Dismiss, GEARS)
        if self.options["turn_end"] == "voluntary" or not state.timeline:
            yield make(EndTurn)

    def _payments(self, cls: type[Gain] | type[PayReserved], first: int, cost: int, me: Player) -> tuple[Action, ...]:
        key = (cls, first, cost, me.used, me.coins, me.charge)
        return self._cached(self._payment_cache, key, lambda: tuple(self._list_payments(cls, first, cost, me)))

    def _list_payments(
        self, cls: type[Gain] | type[PayReserved], first: int, cost: int, me: Player
    ) -> Iterator[Action]:
        """Every mix of energy, charge and gears that pays `cost` (GTF-R5..R8)."""
        held = me.gears
        for energy in range(min(cost, counters.ENERGY_CAP - me.used) + 1):
            for charge in range(min(me.charge, cost - energy) + 1):
                gears = cost - energy - charge
                if gears > held:
                    continue
                if counters.can_pay(ops, cost, me.used, energy, gears, charge, held, me.charge) and (
                    payment.after_paying(me.coins, gears, self.gear_reading) is not None
                ):
                    yield self.make(cls, first, energy, gears, charge)

    def _cached(self, cache: dict[Any, tuple[Any, tuple[str, ...]]], key: Any, compute: Callable[[], T]) -> T:
        """`compute()`, kept by `key`, with the clauses computing it touched, touched again on every use."""
        found = cache.get(key)
        if found is None:
            with coverage() as seen:
                value = compute()
            if len(cache) >= CACHE_LIMIT:
                cache.clear()
            found = cache[key] = (value, tuple(seen))
        for clause in found[1]:
            touch(clause)
        result: T = found[0]
        return result

    def _discards(self, count: int) -> tuple[Action, ...]:
        """`discard 0` .. `discard count-1`, made once for each count."""
        found = self._discard_actions.get(count)
        if found is None:
            found = self._discard_actions[count] = tuple(self.make(Discard, p) for p in range(count))
        return found

    def _room(self, me: Player) -> bool:
        return bool(counters.tableau_room(ops, len(me.tableau), self.hard_limit))

    def _may_reserve(self, me: Player) -> bool:
        return bool(counters.may_reserve(ops, len(me.reserved), self.reservation_limit, me.tokens, self.uses_token))

    def _placeable(self, state: GTFState, player: int) -> Iterator[str]:
        tableau = state.players[player].tableau
        for board, holders in zip(state.boards, state.spaces, strict=True):
            achievement = self.data.achievements[board]
            if len(holders) >= len(achievement.spaces):
                continue
            if self.options["tokens_per_board"] == "one" and player in holders:
                continue
            if meets(self.cards, achievement.requires, tableau):
                yield board

    def _passives(self, state: GTFState) -> Iterator[tuple[int, int]]:
        """The passive skills of the mover's tableau that may resolve now: condition met, and not
        yet resolved this turn as often as the mover holds the card (GTF-T3a, GTF-T5)."""
        me = state.player()
        if me.reserved:
            touch("GTF-T5")
        tableau = me.tableau
        fired = Counter(state.fired)
        seen: Counter[str] = Counter()
        for position, key in enumerate(tableau):
            seen[key] += 1
            if seen[key] <= fired[key]:
                continue
            for index, skill in enumerate(self.cards[key].skills):
                if skill.kind == PASSIVE and (skill.requires is None or meets(self.cards, skill.requires, tableau)):
                    yield position, index

    def _options(self, state: GTFState, pending: Pending) -> tuple[int, ...]:
        """The choices a waiting effect offers: timeline slots or tableau positions."""
        me = state.player()
        if pending.effect == DISCARD_CARD:
            if not pending.card and len(me.tableau) <= counters.TABLEAU_LIMIT:
                return ()
            return tuple(range(len(me.tableau)))
        gainable = tuple(s for s, k in enumerate(state.timeline) if self.cards[k].gainable)
        if pending.effect == GAIN_FROM_TIMELINE:
            return gainable if self._room(me) else ()
        return gainable if self._may_reserve(me) else ()

    def _exchanged(self, me: Player) -> tuple[int, int, int] | None:
        return payment.after_paying(me.coins, self.data.exchange_gears, self.gear_reading)

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
        return IllegalAction(_CLAUSE_OF[type(action)], f"{action} is not legal now", action)

    # Applying.

    def _apply(self, state: GTFState, action: Action) -> GTFState:
        if isinstance(action, DrawBoard):
            touch("GTF-S7")
            state = evolve(
                state,
                boards_left=state.boards_left.without_top(action.board),
                boards=tuple(sorted(state.boards + (action.board,))),
                spaces=state.spaces + ((),),
            )
        elif isinstance(action, Reveal):
            state = self._reveal(state, action.card)
        elif isinstance(action, ExtraTurn):
            state = self._answer(state, action.answer)
        elif isinstance(action, Choose):
            state = self._choose(state, action.option)
        else:
            state = self._act(state, action)
        return self._advance(state)

    def _reveal(self, state: GTFState, card: str) -> GTFState:
        touch("GTF-S5" if state.stage == TIMELINE else "GTF-T12")
        if self.cards[card].event:
            self.rule_gap("GTF-G3", f"event {card!r} entered the timeline: what it does is not in the text", state)
        return evolve(
            state,
            deck=state.deck.without_top(card),
            timeline=state.timeline + (card,),
            refill=max(state.refill - 1, 0),
        )

    def _act(self, state: GTFState, action: Action) -> GTFState:
        me = state.player()
        if isinstance(action, Gain):
            touch("GTF-T2a")
            me = self._paid(me, action.energy, action.gears, action.charge)
            return self._take(state.with_player(me), action.slot, ENDING)
        if isinstance(action, UseIoM):
            touch("GTF-T2b")
            touch("GTF-R4")
            return self._take(state.with_player(evolve(me, iom=me.iom - 1)), action.slot, ENDING)
        if isinstance(action, Reserve):
            touch("GTF-T2c")
            return evolve(self._reserve(state, action.slot), stage=ENDING)
        if isinstance(action, Dismiss):
            touch("GTF-T11")
            touch("GTF-T16")
            if action.reward == RECOVER:
                touch("GTF-T2d")
                me = evolve(me, used=counters.used_after_reset(ops, me.used))
            else:
                touch("GTF-T2e")
                me = evolve(me, coins=payment.gained(me.coins, counters.DISMISS_GEARS))
            return state.with_player(
                me, timeline=state.timeline[1:], discards=_sorted(state.discards, state.timeline[0]), stage=ENDING
            )
        if isinstance(action, Discard):
            state = self._discard(state, action.position)
            if self.options["timeline_actions"] == "discards":
                touch("GTF-T1")
                state = evolve(state, stage=ENDING)
            return state
        if isinstance(action, PayReserved):
            touch("GTF-T3c")
            touch("GTF-T7")
            me = self._paid(me, action.energy, action.gears, action.charge)
            card = me.reserved[action.index]
            hand, _ = counters.tokens_after_payment(ops, me.tokens, len(me.reserved), self.uses_token)
            me = evolve(me, reserved=me.reserved[: action.index] + me.reserved[action.index + 1 :], tokens=hand)
            return self._into_tableau(state.with_player(me), card)
        if isinstance(action, UseTEC):
            touch("GTF-T3d")
            touch("GTF-R3")
            return state.with_player(evolve(me, tec=me.tec - 1, used=counters.used_after_reset(ops, me.used)))
        if isinstance(action, Place):
            return self._place(state, action.board)
        if isinstance(action, Resolve):
            touch("GTF-T3a")
            key = me.tableau[action.position]
            skill = self.cards[key].skills[action.skill]
            fired = tuple(sorted(state.fired + (key,)))
            return evolve(state, fired=fired, pending=state.pending + _queued(key, skill.effects))
        if isinstance(action, Exchange):
            touch("GTF-R2")
            coins = self._exchanged(me)
            assert coins is not None
            return state.with_player(evolve(me, coins=coins, charge=me.charge + self.data.exchange_charge))
        assert isinstance(action, EndTurn)
        touch("GTF-T1")
        if state.timeline:
            touch("GTF-T16")
        else:
            self.rule_gap("GTF-G2", "the timeline is empty: no timeline action can end the turn", state)
        return evolve(state, stage=ENDING)

    def _paid(self, me: Player, energy: int, gears: int, charge: int) -> Player:
        """GTF-R5..R8: the player after paying."""
        for clause, amount in (("GTF-R5", energy), ("GTF-R6", gears), ("GTF-R7", charge)):
            if amount:
                touch(clause)
        if sum(map(bool, (energy, gears, charge))) > 1:
            touch("GTF-R8")
        if gears:
            touch("GTF-R1")
        coins = payment.after_paying(me.coins, gears, self.gear_reading)
        assert coins is not None
        return evolve(me, used=counters.used_after_pay(ops, me.used, energy), coins=coins, charge=me.charge - charge)

    def _take(self, state: GTFState, slot: int, stage: str) -> GTFState:
        """The timeline card in `slot` into the mover's tableau (the rest slide, GTF-T12)."""
        card = state.timeline[slot]
        state = evolve(state, timeline=state.timeline[:slot] + state.timeline[slot + 1 :], stage=stage)
        return self._into_tableau(state, card)

    def _into_tableau(self, state: GTFState, card: str) -> GTFState:
        """GTF-T9: a gained card goes into the tableau; its when-gained skills wait to resolve, and
        under tableau_limit=forced-discard an 8th card forces a discard."""
        touch("GTF-T9")
        me = state.player()
        tableau = me.tableau + (card,)
        if len(me.tableau) < counters.TABLEAU_LIMIT:
            touch("GTF-T8")
        pending = state.pending
        for skill in self.cards[card].skills_of(WHEN_GAINED):
            pending += _queued(card, skill.effects)
        if self.options["tableau_limit"] == "forced-discard" and len(tableau) > counters.TABLEAU_LIMIT:
            pending += (Pending("", DISCARD_CARD),)
        return state.with_player(evolve(me, tableau=tableau), pending=pending)

    def _reserve(self, state: GTFState, slot: int) -> GTFState:
        touch("GTF-T7")
        me = state.player()
        card = state.timeline[slot]
        hand, _ = counters.tokens_after_reserve(ops, me.tokens, len(me.reserved), self.uses_token)
        me = evolve(me, reserved=me.reserved + (card,), fresh=me.fresh + 1, tokens=hand)
        if self.uses_token:
            touch("GTF-S2")
        return state.with_player(me, timeline=state.timeline[:slot] + state.timeline[slot + 1 :])

    def _discard(self, state: GTFState, position: int) -> GTFState:
        """GTF-T3b, GTF-T4, GTF-S6: the card goes to the discard pile; its discard skills wait, after
        those of cards discarded before it."""
        touch("GTF-T3b")
        touch("GTF-S6")
        me = state.player()
        card = me.tableau[position]
        pending = state.pending
        for skill in self.cards[card].skills_of(DISCARD):
            touch("GTF-T4")
            pending += _queued(card, skill.effects)
        me = evolve(me, tableau=me.tableau[:position] + me.tableau[position + 1 :])
        fired = list(state.fired)
        if card in fired and Counter(fired)[card] > Counter(me.tableau)[card]:
            fired.remove(card)
        return state.with_player(me, discards=_sorted(state.discards, card), pending=pending, fired=tuple(fired))

    def _place(self, state: GTFState, board: str) -> GTFState:
        touch("GTF-T3e")
        touch("GTF-E1")
        me = state.player()
        index = state.boards.index(board)
        hand, placed = counters.tokens_after_place(ops, me.tokens, me.placed)
        me = evolve(me, tokens=hand, placed=placed)
        spaces = state.spaces[:index] + (state.spaces[index] + (state.current,),) + state.spaces[index + 1 :]
        state = state.with_player(me, spaces=spaces)
        if me.placed == counters.TOKENS and state.triggered < 0:
            touch("GTF-E2")
            state = evolve(state, triggered=state.current)
        if state.extra:
            touch("GTF-E3")
        return state

    def _choose(self, state: GTFState, option: int) -> GTFState:
        """The first waiting effect takes `option`."""
        pending = state.pending[0]
        state = evolve(state, pending=state.pending[1:])
        if pending.effect == DISCARD_CARD:
            if not pending.card:
                touch("GTF-T8")
            return self._discard(state, option)
        if pending.effect == GAIN_FROM_TIMELINE:
            state = self._take(state, option, state.stage)
        else:
            state = self._reserve(state, option)
        if self.options["timeline_actions"] == "skill-effects" and state.stage == ACT:
            touch("GTF-T1")
            if state.pending:
                self.rule_gap("GTF-F02", "a skill ended the turn while mandatory skill effects still wait", state)
            state = evolve(state, stage=ENDING)
        return state

    def _effect(self, state: GTFState, pending: Pending) -> GTFState:
        """An effect that needs no choice (GTF-T3a: skills of the tableau only, GTF-T5)."""
        me = state.player()
        effect, amount = pending.effect, pending.amount
        if effect == GAIN_GEARS:
            return state.with_player(evolve(me, coins=payment.gained(me.coins, amount)))
        if effect == GAIN_CHARGE:
            touch("GTF-R7")
            return state.with_player(evolve(me, charge=me.charge + amount))
        if effect == GAIN_IOM:
            return state.with_player(evolve(me, iom=me.iom + amount))
        if effect == GAIN_TEC:
            return state.with_player(evolve(me, tec=me.tec + amount))
        if effect == RESET_ENERGY:
            return state.with_player(evolve(me, used=counters.used_after_reset(ops, me.used)))
        if effect == RESTORE_ENERGY:
            return state.with_player(evolve(me, used=counters.used_after_restore(ops, me.used, amount)))
        assert effect == EXTRA_TURN
        touch("GTF-T13")
        return evolve(state, granted=True)

    # Moving on: effects, the end of a turn, refills and the next turn.

    def _advance(self, state: GTFState) -> GTFState:
        while True:
            stage = state.stage
            if stage == BOARDS:
                if len(state.boards) < self.board_count:
                    return state
                state = evolve(state, stage=TIMELINE)
            elif stage in (TIMELINE, REFILL):
                want = self.row - len(state.timeline) if stage == TIMELINE else state.refill
                if want > 0 and state.deck.size:
                    return state
                if want > 0:
                    self.rule_gap("GTF-G1", "the deck is empty: the timeline cannot be filled", state)
                state = self._begin(state, 0, 1, False) if stage == TIMELINE else self._next_turn(state)
            elif stage in (ACT, ENDING, CLOSING):
                if state.pending:
                    first = state.pending[0]
                    if first.effect not in CHOICE_EFFECTS:
                        state = self._effect(evolve(state, pending=state.pending[1:]), first)
                        continue
                    if self._options(state, first):
                        return state
                    state = evolve(state, pending=state.pending[1:])
                    continue
                if stage == ACT:
                    return state
                if stage == ENDING:
                    state = self._end_passives(state)
                else:
                    state = self._finish(state)
            else:
                return state

    def _end_passives(self, state: GTFState) -> GTFState:
        """GTF-T6: passive skills that trigger at the end of the owner's turn, condition met."""
        touch("GTF-T15")
        me = state.player()
        if me.reserved:
            touch("GTF-T5")
        tableau = me.tableau
        pending: tuple[Pending, ...] = ()
        for key in tableau:
            for skill in self.cards[key].skills_of(PASSIVE_END):
                if skill.requires is None or meets(self.cards, skill.requires, tableau):
                    touch("GTF-T6")
                    pending += _queued(key, skill.effects)
        if not pending:
            return self._finish(state)
        return evolve(state, pending=pending, stage=CLOSING)

    def _finish(self, state: GTFState) -> GTFState:
        """The turn is over: charge may expire; a granted second turn follows at once, never a
        third (GTF-T13); otherwise the timeline slides and its gaps are refilled (GTF-T12)."""
        me = state.player()
        if self.options["charge"] == "expires" and me.charge:
            state = state.with_player(evolve(me, charge=0))
        if state.granted:
            touch("GTF-T13")
            if counters.second_turn_allowed(ops, state.in_row):
                return self._begin(state, state.current, counters.turns_in_row(ops, state.in_row, True), state.extra)
        touch("GTF-T12")
        missing = self.row - len(state.timeline)
        need = missing if self.options["second_turn_refill"] == "every-gap" else min(missing, 1)
        return evolve(state, stage=REFILL, refill=max(need, 0), granted=False)

    def _begin(self, state: GTFState, player: int, in_row: int, extra: bool) -> GTFState:
        me = state.players[player]
        if me.fresh:
            state = state.with_player(evolve(me, fresh=0), player)
        return evolve(
            state,
            refill=0,
            stage=ACT,
            current=player,
            in_row=in_row,
            granted=False,
            fired=(),
            pending=(),
            extra=extra,
        )

    def _next_turn(self, state: GTFState) -> GTFState:
        """GTF-T14, GTF-E3, GTF-E4: the next player in order; after the trigger, the remaining
        players' extra turns; scoring when no token remains."""
        if not state.timeline:
            self.rule_gap("GTF-G2", "the deck and the timeline are empty: the game ends", state)
            return evolve(state, stage=OVER, refill=0)
        n = self.players
        if state.triggered < 0:
            touch("GTF-T14")
            return self._begin(state, (state.current + 1) % n, counters.turns_in_row(ops, state.in_row, False), False)
        waiting = [q for q, p in enumerate(state.players) if q != state.triggered and p.tokens and not p.declined]
        if not waiting:
            touch("GTF-E4")
            if any(p.tokens or (self.uses_token and p.reserved) for p in state.players):
                self.rule_gap(
                    "GTF-F05", "tokens remain (declined, or locked on a reservation) but no turn follows", state
                )
            return evolve(state, stage=OVER, refill=0)
        if self.options["extra_turn_order"] == "consecutive" and state.extra and state.current in waiting:
            player = state.current
        else:
            player = min(waiting, key=lambda q: (q - state.current - 1) % n)
        if self.options["extra_turn_choice"] == "optional":
            return evolve(state, stage=OFFER, current=player, pending=(), fired=(), granted=False, refill=0)
        return self._extra_turn(state, player)

    def _extra_turn(self, state: GTFState, player: int) -> GTFState:
        """GTF-E3: an extra turn begins by discarding one token (or, all-at-once, every token)."""
        touch("GTF-E3")
        me = state.players[player]
        hand, spent = counters.tokens_after_extra_turn(ops, me.tokens, me.spent, self.all_at_once)
        state = state.with_player(evolve(me, tokens=hand, spent=spent), player)
        return self._begin(state, player, 1, True)

    def _answer(self, state: GTFState, answer: str) -> GTFState:
        if answer == "take":
            return self._extra_turn(state, state.current)
        touch("GTF-E3")
        return self._next_turn(state.with_player(evolve(state.player(), declined=True)))


@lru_cache(maxsize=None)
def _odds(count: int, total: int) -> Fraction:
    return Fraction(count, total)


def _queued(card: str, effects: Sequence[Effect]) -> tuple[Pending, ...]:
    return tuple(Pending(card, e.effect, e.amount) for e in effects)


def _sorted(pile: tuple[str, ...], card: str) -> tuple[str, ...]:
    return tuple(sorted(pile + (card,)))
