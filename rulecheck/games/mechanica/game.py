"""Mechanica as a transition system: the rulebook's rules over a data set of components.

Models: 1 to 4 players (MEC-C1: four factory boards). Setup (MEC-S1..S6): the starting factory and
Wallet, the 27 tiles as one Pile of unseen tiles split into Stack and Extras by count, the first two
Shop spots and the two face-up blueprints, each a chance node. The workday (MEC-W1..W8): each player
with switches commits an exit for each of them (simultaneous dynamics, written as per-player commits
in seat order from the first player, each in square order), then every factory runs at once
(run.py), then each player's turn in seat order (MEC-T0): Sell, Buy (install, recycle), Make Bots,
Rotate (with the Recycler and Double Rotate), with blueprints, Trucks, Forks and demolishing at any
point of it (MEC-A1, MEC-P8); the end check, the blueprint refresh and the next workday (MEC-E1..E3);
the score (MEC-O2, MEC-E4) as returns, ties standing. Every ambiguity is an option (options.py).

Leaves out: solo rules (none are written; one player plays the same turns), money as coins (the
supply of money is unlimited), and choices the rulebook gives a player but no rule reads: the order
in which bots are sold. Where a gift of the Overactive Fabricator lands is not the receiver's choice
here: it goes into her first Start Zone hole with room from the top (a rule gap, MEC-P9).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

import attrs

from rulecheck.core.clauses import touch
from rulecheck.core.errors import IllegalAction
from rulecheck.core.game import CHANCE, TERMINAL, Game
from rulecheck.core.hidden import Pile
from rulecheck.core.notation import Action, ActionCache
from rulecheck.core.numbering import Domain, Sequences
from rulecheck.core.ops import INT_OPS
from rulecheck.core.traits import EXPLICIT_CHANCE, PERFECT, SCORES, SIMULTANEOUS, Traits
from rulecheck.games.mechanica import money
from rulecheck.games.mechanica.actions import (
    ACTION_TYPES,
    CHANCE_TYPES,
    BuyFork,
    BuyTruck,
    Complete,
    Demolish,
    Draw,
    Install,
    Make,
    Next,
    Place,
    Recycle,
    Reveal,
    Rotate,
    Route,
    Sell,
)
from rulecheck.games.mechanica.data import BELT, DOWN, FORMAT, SMALL, START, UP, MechanicaData
from rulecheck.games.mechanica.options import OPTIONS
from rulecheck.games.mechanica.rules import Rules
from rulecheck.games.mechanica.run import run_all
from rulecheck.games.mechanica.state import (
    BUY,
    EXTRAS,
    IN,
    MADE,
    OVER,
    PLACE,
    ROUTE,
    SELL,
    SETUP,
    STACK,
    TURN,
    Factory,
    MechanicaState,
)

ANY_TIME = (Complete, BuyTruck, BuyFork, Demolish)
"""MEC-A1, MEC-P8: actions of any step of one's own turn."""


def _without(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    index = items.index(item)
    return items[:index] + items[index + 1 :]


def _add_bots(factory: Factory, bots: Iterable[tuple[str, str, str]]) -> Factory:
    return attrs.evolve(factory, bots=tuple(sorted(factory.bots + tuple(bots))))


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
    data_format = FORMAT

    def _prepare(self) -> None:
        data: MechanicaData = self.data
        self.rules = Rules(self.players, self.options, data, self.rule_gap)
        self._act = ActionCache()

    # Setup (MEC-S1..S6).

    def initial_state(self) -> MechanicaState:
        for clause in (
            "MEC-C1",
            "MEC-S1",
            "MEC-S2",
            "MEC-S5",
            "MEC-S6",
            "MEC-P1",
            "MEC-P2",
            "MEC-P3",
            "MEC-P4",
            "MEC-P10",
        ):
            touch(clause)
        if self.options["truck_counts"] == "publisher":
            touch("MEC-P6")
        data: MechanicaData = self.data
        rules = self.rules
        factory = Factory(
            tiles=((data.start_square, data.start_fabricator),),
            trucks=tuple((d, SMALL) for d in sorted(rules.dock)),
            forks=(),
            bots=((data.start_square, IN, data.start_bot),),
            wallet=data.start_wallet,
            vault=0,
        )
        supply = tuple(m.supply - (m.name == data.start_bot) * self.players for m in data.models)
        tiles = [i.name for i in data.improvements for _ in range(i.copies)]
        stacks = tuple(Pile.shuffled(b.name for b in data.blueprints if b.stack == n) for n in (1, 2))
        return MechanicaState(
            phase=SETUP,
            factories=(factory,) * self.players,
            unseen=Pile.shuffled(tiles),
            stack=len(tiles) - data.extras,
            extras=data.extras,
            shop=("",) * len(data.prices),
            recycled=(),
            demolished=(),
            blueprint_stacks=(stacks[0], stacks[1]),
            blueprints=("", ""),
            sideways=False,
            completions=(),
            supply=supply,
            trucks_left=rules.truck_counts,
            forks_left=data.fork_count,
            workday=0,
            player=0,
            step=SELL,
            turns=(0,) * self.players,
            pending=(f"{STACK}:0", f"{STACK}:1", "bp:1", "bp:2"),
            placing=(),
            resume="",
            routes=(),
        )

    def to_move(self, state: MechanicaState) -> int:
        if state.pending:
            return CHANCE
        if state.phase == OVER:
            return TERMINAL
        return state.player

    def losers(self, state: MechanicaState) -> frozenset[int]:
        return frozenset()

    def score(self, state: MechanicaState, player: int) -> int:
        """MEC-O2, MEC-E4: Wallet, Vault and the value of the installed improvements."""
        factory = state.factories[player]
        return factory.wallet + factory.vault + sum(self.rules.improvement[t].value for _, t in factory.tiles)

    def _returns(self, state: MechanicaState) -> tuple[int, ...]:
        touch("MEC-O2")
        touch("MEC-E4")
        return tuple(self.score(state, p) for p in range(self.players))

    def action_domains(self) -> dict[type[Action], Sequence[Domain]]:
        rules = self.rules
        spots = tuple(range(len(self.data.prices)))
        placed = tuple(sorted(rules.start + rules.floor))
        longest = max(len(b.models) for b in self.data.blueprints)
        return {
            Route: (rules.squares, (BELT, DOWN, UP)),
            Sell: (tuple(sorted(rules.dock)), rules.models),
            Next: (),
            Install: (spots, placed),
            Recycle: (spots,),
            Demolish: (placed,),
            Make: (),
            Rotate: (),
            Complete: (rules.blueprint_names, Sequences(tuple(sorted(rules.dock)), longest)),
            BuyTruck: (tuple(sorted(rules.dock)), tuple(sorted(rules.truck))),
            BuyFork: (tuple(sorted(rules.floor)),),
            Place: (tuple(sorted(rules.start)),),
            Draw: (rules.tile_names,),
            Reveal: (rules.blueprint_names,),
        }

    # Chance.

    def _chance_outcomes(self, state: MechanicaState) -> list[tuple[Action, Fraction]]:
        due = state.pending[0]
        if due.startswith("bp:"):
            pile = state.blueprint_stacks[int(due[3:]) - 1]
            return [(self._act(Reveal, card), p) for card, p in pile.draw_outcomes()]
        return [(self._act(Draw, tile), p) for tile, p in state.unseen.draw_outcomes()]

    def _apply_chance(self, state: MechanicaState, action: Action) -> MechanicaState:
        due, rest = state.pending[0], state.pending[1:]
        if isinstance(action, Reveal):
            touch("MEC-S4")
            n = int(due[3:]) - 1
            stacks = list(state.blueprint_stacks)
            stacks[n] = stacks[n].without_top(action.card)
            shown = list(state.blueprints)
            shown[n] = action.card
            state = attrs.evolve(
                state, blueprint_stacks=(stacks[0], stacks[1]), blueprints=(shown[0], shown[1]), pending=rest
            )
        else:
            assert isinstance(action, Draw)
            source, spot = due.split(":")
            touch("MEC-S3" if state.phase == SETUP else "MEC-T9")
            shop = list(state.shop)
            shop[int(spot)] = action.tile
            state = attrs.evolve(
                state,
                unseen=state.unseen.without_top(action.tile),
                stack=state.stack - (source == STACK),
                extras=state.extras - (source == EXTRAS),
                shop=tuple(shop),
                pending=rest,
            )
            if state.phase == TURN and not rest:
                return self._after_rotation(state)
        if state.phase == SETUP and not state.pending:
            return self._begin_workday(state)
        return state

    # The workday (MEC-W1..W8, MEC-E1..E3).

    def _begin_workday(self, state: MechanicaState) -> MechanicaState:
        touch("MEC-W1")
        state = attrs.evolve(state, workday=state.workday + 1, routes=(), phase=ROUTE, player=0)
        return self._next_commit(state, 0)

    def _due_switches(self, state: MechanicaState, player: int) -> list[str]:
        done = {s for p, s, _ in state.routes if p == player}
        return [s for s in self.rules.switches(state.factories[player]) if s not in done]

    def _next_commit(self, state: MechanicaState, player: int) -> MechanicaState:
        for p in range(player, self.players):
            if self._due_switches(state, p):
                return attrs.evolve(state, player=p)
        return self._run(state)

    def _run(self, state: MechanicaState) -> MechanicaState:
        touch("MEC-W2")
        touch("MEC-P7")
        if state.workday == 1:
            touch("MEC-W5")
        results = run_all(self.rules, state.factories, state.routes)
        supply = list(state.supply)
        for result in results:
            for model, change in result.supply_change:
                supply[self.rules.rank[model]] += change
        self._check_supply(supply, state)
        touch("MEC-W7")
        return attrs.evolve(
            state,
            factories=tuple(r.factory for r in results),
            supply=tuple(supply),
            phase=TURN,
            player=0,
            step=SELL,
            routes=(),
        )

    def _check_supply(self, supply: Sequence[int], state: MechanicaState) -> None:
        short = [self.rules.models[i] for i, n in enumerate(supply) if n < 0]
        if short:
            self.rule_gap("MEC-F08", f"the supply has run out of {', '.join(short)} bots (stand-ins are used)", state)

    def _improvements_left(self, state: MechanicaState) -> bool:
        occupied = [bool(t) for t in state.shop]
        return bool(
            money.improvements_left(INT_OPS, state.stack, state.extras, self.rules.extras_after_stack, occupied)
        )

    def _end_turn(self, state: MechanicaState) -> MechanicaState:
        player = state.player
        turns = tuple(n + (p == player) for p, n in enumerate(state.turns))
        state = attrs.evolve(state, turns=turns, placing=(), resume="")
        if player + 1 < self.players:
            return attrs.evolve(state, player=player + 1, step=SELL)
        touch("MEC-W8")
        touch("MEC-E1")
        if not self._improvements_left(state):
            touch("MEC-O1")
            return attrs.evolve(state, phase=OVER)
        pending: tuple[str, ...] = ()
        if state.sideways:
            touch("MEC-E2")
            stacks = tuple(pile.put_bottom([card]) for pile, card in zip(state.blueprint_stacks, state.blueprints))
            state = attrs.evolve(state, blueprint_stacks=(stacks[0], stacks[1]), blueprints=("", ""), sideways=False)
            pending = ("bp:1", "bp:2")
        touch("MEC-E3")
        state = attrs.evolve(state, phase=SETUP, pending=pending, player=0, step=SELL)
        return state if pending else self._begin_workday(state)

    # Rotating the Shop (MEC-T8..T11).

    def _turn_once(self, state: MechanicaState) -> MechanicaState:
        """One spot clockwise: a tile in the last spot falls into the Recycler and is recycled by the
        player rotating (MEC-T10)."""
        touch("MEC-T8")
        fell = state.shop[-1]
        state = attrs.evolve(state, shop=("",) + state.shop[:-1])
        if fell:
            touch("MEC-T10")
            state = self._to_place(attrs.evolve(state, recycled=tuple(sorted(state.recycled + (fell,)))), fell)
        return state

    def _draw_due(self, state: MechanicaState) -> MechanicaState | None:
        """The state waiting for the next improvement into the 7-cost spot, or None when none is left."""
        from_stack, from_extras = money.draw_from(INT_OPS, state.stack, state.extras, self.rules.extras_after_stack)
        if from_stack:
            return attrs.evolve(state, pending=(f"{STACK}:0",))
        if from_extras:
            touch("MEC-S6")
            return attrs.evolve(state, pending=(f"{EXTRAS}:0",))
        return None

    def _rotate(self, state: MechanicaState) -> MechanicaState:
        state = self._turn_once(state)
        drawing = self._draw_due(state)
        return drawing if drawing is not None else self._after_rotation(state)

    def _after_rotation(self, state: MechanicaState) -> MechanicaState:
        occupied = [bool(t) for t in state.shop]
        if money.double_rotate_due(INT_OPS, occupied, self.rules.double_rotate, state.extras):
            touch("MEC-T11")
            return attrs.evolve(self._turn_once(state), pending=(f"{EXTRAS}:0",))
        if self.rules.until_full and not all(occupied):
            drawing = self._draw_due(state)
            if drawing is not None:
                return self._turn_once(drawing)
        return self._after_placing(self._settle_placing(attrs.evolve(state, resume="rotate")))

    # Recycled bots (MEC-T6, MEC-T10).

    def _to_place(self, state: MechanicaState, tile: str) -> MechanicaState:
        """The recycling-value bots of `tile`, taken from the supply, wait to be placed."""
        bots = self.rules.improvement[tile].recycle
        supply = list(state.supply)
        for model in bots:
            supply[self.rules.rank[model]] -= 1
        self._check_supply(supply, state)
        return attrs.evolve(state, placing=state.placing + bots, supply=tuple(supply))

    def _holes_with_room(self, factory: Factory) -> list[str]:
        held = Counter(s for s, _, _ in factory.bots)
        limit = 1 if self.rules.empty_holes_only else self.rules.hole
        return [s for s in self.rules.start if held[s] < limit]

    def _settle_placing(self, state: MechanicaState) -> MechanicaState:
        """Bots with no hole to go to return to the supply (a rule gap); the rest wait to be placed."""
        placing = state.placing
        if placing and not self._holes_with_room(state.factories[state.player]):
            self.rule_gap("MEC-F08", "recycled bots and no Start Zone hole with room for them", state)
            supply = list(state.supply)
            for model in placing:
                supply[self.rules.rank[model]] += 1
            return attrs.evolve(state, placing=(), supply=tuple(supply))
        return state

    def _after_placing(self, state: MechanicaState) -> MechanicaState:
        if state.placing:
            if self.rules.empty_holes_only:
                touch("MEC-P9")
            return attrs.evolve(state, phase=PLACE)
        state = attrs.evolve(state, phase=TURN)
        return self._end_turn(state) if state.resume == "rotate" else attrs.evolve(state, resume="")

    # Legal actions.

    def _legal_actions(self, state: MechanicaState, player: int) -> Iterable[Action]:
        act = self._act
        if state.phase == ROUTE:
            square = self._due_switches(state, player)[0]
            return [act(Route, square, e) for e in self.rules.exit_names(square)]
        if state.phase == PLACE:
            return [act(Place, s) for s in self._holes_with_room(state.factories[player])]
        found = self._any_time(state, player)
        if state.step == SELL:
            found += [act(Sell, s, m) for s, _, m in sorted(set(self._truck_bots(state.factories[player])))]
            found.append(act(Next))
        elif state.step == BUY:
            found += self._buys(state, player)
            found.append(act(Make))
        else:
            found.append(act(Rotate))
        return found

    def _truck_bots(self, factory: Factory) -> list[tuple[str, str, str]]:
        return [b for b in factory.bots if self.rules.is_dock(b[0])]

    def _buys(self, state: MechanicaState, player: int) -> list[Action]:
        factory = state.factories[player]
        rules = self.rules
        taken = {s for s, _ in factory.tiles} | set(factory.forks)
        found: list[Action] = []
        for spot, tile in enumerate(state.shop):
            if not tile or not money.can_pay(INT_OPS, factory.wallet, self.data.prices[spot]):
                continue
            found.append(self._act(Recycle, spot))
            squares = rules.start if rules.improvement[tile].zone == START else rules.floor
            found += [self._act(Install, spot, s) for s in squares if s not in taken]
        return found

    def _any_time(self, state: MechanicaState, player: int) -> list[Action]:
        factory = state.factories[player]
        rules = self.rules
        act = self._act
        found: list[Action] = [act(Demolish, s) for s, _ in factory.tiles]
        if state.forks_left > 0 and money.can_pay(INT_OPS, factory.wallet, self.data.fork_price):
            taken = {s for s, _ in factory.tiles} | set(factory.forks)
            found += [act(BuyFork, s) for s in rules.floor if s not in taken]
        for square, current in factory.trucks:
            for kind in rules.truck:
                if self._truck_price(state, factory, current, kind) is not None:
                    found.append(act(BuyTruck, square, kind))
        in_trucks = Counter((s, m) for s, _, m in self._truck_bots(factory))
        for card in state.blueprints:
            if card and self._may_complete(state, player, card):
                found += [act(Complete, card, t) for t in self._fillings(card, in_trucks)]
        return found

    def _truck_price(self, state: MechanicaState, factory: Factory, current: str, kind: str) -> int | None:
        """MEC-A3: a bought truck replaces a Small Truck, or upgrades the truck it names; None if not buyable."""
        truck = self.rules.truck[kind]
        index = self.data.trucks.index(truck)
        if state.trucks_left[index] <= 0:
            return None
        price = truck.price if current == SMALL else truck.upgrade_price if current == truck.upgrade_from else None
        if price is None or not money.can_pay(INT_OPS, factory.wallet, price):
            return None
        return price

    def _may_complete(self, state: MechanicaState, player: int, card: str) -> bool:
        """MEC-B4 under `blueprint_once`: not by this player before, or not by anybody before."""
        return all(c != card or (p != player and not self.rules.once_in_all) for p, c in state.completions)

    def _fillings(self, card: str, in_trucks: Counter[tuple[str, str]]) -> list[tuple[str, ...]]:
        """Each way of taking the card's bots from the Trucks (MEC-B1), the Trucks of equal models in order."""
        models = self.rules.blueprint[card].models
        options = [[s for (s, m), n in sorted(in_trucks.items()) if m == model] for model in models]
        found = []
        for trucks in itertools.product(*options):
            if Counter(zip(trucks, models)) - in_trucks:
                continue
            if any(models[i] == models[i + 1] and trucks[i] > trucks[i + 1] for i in range(len(models) - 1)):
                continue
            found.append(tuple(trucks))
        return found

    # Applying actions.

    def _apply(self, state: MechanicaState, action: Action) -> MechanicaState:
        if state.pending:
            after = self._apply_chance(state, action)
        else:
            after = self._apply_player(state, state.player, action)
        if (
            self.rules.at_once
            and after.phase in (TURN, PLACE)
            and not after.pending
            and not self._improvements_left(after)
        ):
            touch("MEC-O1")
            return attrs.evolve(after, phase=OVER)
        return after

    def _with_factory(self, state: MechanicaState, player: int, factory: Factory, **changes: Any) -> MechanicaState:
        factories = state.factories[:player] + (factory,) + state.factories[player + 1 :]
        return attrs.evolve(state, factories=factories, **changes)

    def _apply_player(self, state: MechanicaState, player: int, action: Action) -> MechanicaState:
        factory = state.factories[player]
        rules = self.rules
        if isinstance(action, Route):
            touch("MEC-A2")
            state = attrs.evolve(state, routes=state.routes + ((player, action.square, action.exit),))
            return self._next_commit(state, player)
        if isinstance(action, Place):
            touch("MEC-T6")
            factory = _add_bots(factory, [(action.square, IN, state.placing[0])])
            state = self._with_factory(state, player, factory, placing=state.placing[1:])
            return self._after_placing(self._settle_placing(state))
        if isinstance(action, Sell):
            touch("MEC-T1")
            bots = list(factory.bots)
            bots.remove((action.truck, IN, action.model))
            wallet = money.sold(INT_OPS, factory.wallet, rules.value[action.model])
            return self._with_factory(
                state,
                player,
                attrs.evolve(factory, bots=tuple(bots), wallet=wallet),
                supply=self._supply(state, action.model, 1),
            )
        if isinstance(action, Next):
            touch("MEC-T0")
            return attrs.evolve(state, step=BUY)
        if isinstance(action, Make):
            touch("MEC-T0")
            return attrs.evolve(self._make_bots(state, player), step=MADE)
        if isinstance(action, Rotate):
            touch("MEC-T0")
            return self._rotate(state)
        if isinstance(action, Install | Recycle):
            touch("MEC-T2")
            touch("MEC-T3")
            tile = state.shop[action.spot]
            shop = state.shop[: action.spot] + ("",) + state.shop[action.spot + 1 :]
            factory = attrs.evolve(factory, wallet=money.paid(INT_OPS, factory.wallet, self.data.prices[action.spot]))
            if isinstance(action, Install):
                touch("MEC-T4")
                touch("MEC-T5")
                factory = attrs.evolve(factory, tiles=tuple(sorted(factory.tiles + ((action.square, tile),))))
                return self._with_factory(state, player, factory, shop=shop)
            touch("MEC-T6")
            state = self._with_factory(
                state,
                player,
                factory,
                shop=shop,
                recycled=tuple(sorted(state.recycled + (tile,))),
                resume="buy",
            )
            return self._after_placing(self._settle_placing(self._to_place(state, tile)))
        touch("MEC-A1")
        if isinstance(action, Demolish):
            touch("MEC-T12")
            touch("MEC-P8")
            tile = dict(factory.tiles)[action.square]
            lost = [b for b in factory.bots if b[0] == action.square]
            supply = list(state.supply)
            for _, _, model in lost:
                supply[rules.rank[model]] += 1
            factory = attrs.evolve(
                factory,
                tiles=tuple(t for t in factory.tiles if t[0] != action.square),
                bots=tuple(b for b in factory.bots if b[0] != action.square),
            )
            return self._with_factory(
                state, player, factory, demolished=tuple(sorted(state.demolished + (tile,))), supply=tuple(supply)
            )
        if isinstance(action, BuyFork):
            factory = attrs.evolve(
                factory,
                forks=tuple(sorted(factory.forks + (action.square,))),
                wallet=money.paid(INT_OPS, factory.wallet, self.data.fork_price),
            )
            return self._with_factory(state, player, factory, forks_left=state.forks_left - 1)
        if isinstance(action, BuyTruck):
            touch("MEC-A3")
            current = dict(factory.trucks)[action.square]
            price = self._truck_price(state, factory, current, action.kind)
            assert price is not None
            left = list(state.trucks_left)
            left[self.data.trucks.index(rules.truck[action.kind])] -= 1
            if current != SMALL:
                left[self.data.trucks.index(rules.truck[current])] += 1
            trucks = tuple((s, action.kind if s == action.square else t) for s, t in factory.trucks)
            factory = attrs.evolve(factory, trucks=trucks, wallet=money.paid(INT_OPS, factory.wallet, price))
            return self._with_factory(state, player, factory, trucks_left=tuple(left))
        assert isinstance(action, Complete)
        for clause in ("MEC-B1", "MEC-B2", "MEC-B3", "MEC-B4"):
            touch(clause)
        blueprint = rules.blueprint[action.card]
        bots = list(factory.bots)
        supply = list(state.supply)
        for truck, model in zip(action.trucks, blueprint.models):
            bots.remove((truck, IN, model))
            supply[rules.rank[model]] += 1
        factory = attrs.evolve(factory, bots=tuple(bots), vault=money.vaulted(INT_OPS, factory.vault, blueprint.payout))
        return self._with_factory(
            state,
            player,
            factory,
            supply=tuple(supply),
            sideways=True,
            completions=state.completions + ((player, action.card),),
        )

    def _supply(self, state: MechanicaState, model: str, change: int) -> tuple[int, ...]:
        index = self.rules.rank[model]
        return state.supply[:index] + (state.supply[index] + change,) + state.supply[index + 1 :]

    def _make_bots(self, state: MechanicaState, player: int) -> MechanicaState:
        """MEC-T7: one bot into each Fabricator's centre hole (a full hole keeps what `crowded_hole`
        allows); an Overactive Fabricator's extra bots go to the other players (MEC-P5, MEC-P9)."""
        touch("MEC-T7")
        rules = self.rules
        factories = list(state.factories)
        supply = list(state.supply)
        for square, tile in state.factories[player].tiles:
            effect = rules.improvement[tile].effect
            if effect.kind != "make":
                continue
            held = sum(1 for s, _, _ in factories[player].bots if s == square)
            if money.kept(INT_OPS, held, 1, rules.hole, rules.keep_some):
                factories[player] = _add_bots(factories[player], [(square, IN, effect.model)])
                supply[rules.rank[effect.model]] -= 1
            if not effect.gift:
                continue
            touch("MEC-P5")
            for other in range(self.players):
                if other == player:
                    continue
                self.rule_gap("MEC-P9", "which Start Zone hole receives another player's gift", state)
                holes = self._holes_with_room(factories[other])
                if holes:
                    touch("MEC-P9")
                    factories[other] = _add_bots(factories[other], [(holes[0], IN, effect.gift)])
                    supply[rules.rank[effect.gift]] -= 1
        self._check_supply(supply, state)
        return attrs.evolve(state, factories=tuple(factories), supply=tuple(supply))

    # Why an action is not legal.

    def _illegal(self, state: MechanicaState, action: Action) -> IllegalAction | None:
        mover = self.to_move(state)
        if mover == TERMINAL:
            return IllegalAction("MEC-E4", "the game is over", action)
        if (mover == CHANCE) != isinstance(action, Draw | Reveal):
            return IllegalAction("MEC-S2", "improvements and blueprints are drawn only when one is due", action)
        if mover == CHANCE:
            due = state.pending[0]
            wanted = Reveal if due.startswith("bp:") else Draw
            if not isinstance(action, wanted):
                return IllegalAction("MEC-S4", f"the draw due is {due}", action)
            return IllegalAction("MEC-S2", "that is not among the unseen items", action)
        if (state.phase == ROUTE) != isinstance(action, Route):
            return IllegalAction("MEC-W2", "fork exits are chosen at the start of a workday, and only then", action)
        if (state.phase == PLACE) != isinstance(action, Place):
            return IllegalAction("MEC-T6", "recycled bots are placed before anything else", action)
        if isinstance(action, Route):
            return IllegalAction("MEC-A2", "that is not the next switch's exit to choose", action)
        if isinstance(action, Place):
            return IllegalAction("MEC-T6", "that Start Zone hole has no room", action)
        wanted_step = {Sell: SELL, Next: SELL, Install: BUY, Recycle: BUY, Make: BUY, Rotate: MADE}.get(type(action))
        if wanted_step is not None and wanted_step != state.step:
            return IllegalAction(
                "MEC-T0", f"{action.verb} belongs to the {wanted_step} step; this is the {state.step} step", action
            )
        return self._illegal_in_step(state, state.player, action)

    def _illegal_in_step(self, state: MechanicaState, player: int, action: Action) -> IllegalAction | None:
        factory = state.factories[player]
        rules = self.rules
        taken = {s for s, _ in factory.tiles} | set(factory.forks)
        if isinstance(action, Sell) and (action.truck, IN, action.model) not in factory.bots:
            return IllegalAction("MEC-T1", f"no {action.model} bot in a Truck on {action.truck}", action)
        if isinstance(action, Install | Recycle):
            if not 0 <= action.spot < len(state.shop) or not state.shop[action.spot]:
                return IllegalAction("MEC-T2", "no improvement in that Shop spot", action)
            if not money.can_pay(INT_OPS, factory.wallet, self.data.prices[action.spot]):
                return IllegalAction("MEC-T2", "the Wallet cannot pay that price", action)
        if isinstance(action, Install):
            zone = rules.improvement[state.shop[action.spot]].zone
            if rules.zone.get(action.square) != zone:
                return IllegalAction("MEC-T4", f"this improvement goes on a {zone} square", action)
            if action.square in taken:
                return IllegalAction("MEC-T12", "the square is taken: demolish first", action)
        if isinstance(action, Demolish) and action.square not in dict(factory.tiles):
            return IllegalAction("MEC-T12", "no improvement of yours on that square", action)
        if isinstance(action, BuyFork):
            if state.forks_left <= 0:
                return IllegalAction("MEC-A2", "no Fork is left", action)
            if not money.can_pay(INT_OPS, factory.wallet, self.data.fork_price):
                return IllegalAction("MEC-A2", "the Wallet cannot pay for a Fork", action)
            if not rules.is_floor(action.square) or action.square in taken:
                return IllegalAction("MEC-A2", "a Fork goes on a free Factory Floor square", action)
        if isinstance(action, BuyTruck):
            current = dict(factory.trucks).get(action.square)
            if current is None or action.kind not in rules.truck:
                return IllegalAction("MEC-A3", "no such truck or Loading Dock square", action)
            if self._truck_price(state, factory, current, action.kind) is None:
                return IllegalAction("MEC-A3", f"a {action.kind} truck cannot replace the {current} truck now", action)
        if isinstance(action, Complete):
            if action.card not in state.blueprints or not action.card:
                return IllegalAction("MEC-B1", "that blueprint is not face up", action)
            if not self._may_complete(state, player, action.card):
                return IllegalAction("MEC-B4", "that blueprint was completed before", action)
            in_trucks = Counter((s, m) for s, _, m in self._truck_bots(factory))
            if action.trucks not in self._fillings(action.card, in_trucks):
                return IllegalAction("MEC-B1", "the Trucks named do not hold the blueprint's models", action)
        return None
