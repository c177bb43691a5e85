"""Players that choose: a policy picks one of the legal actions at a player's step.

Models: the one interface every player of a search or a balance run goes through (`Policy`: a
name that says what it is and its budget, and `choose`), and the policies behind it:
- `random`: each legal action alike;
- `greedy`: one step ahead on the game's own standing (`Game.progress`: the running scores of a
  game of scores, a heuristic of a win-loss game, the returns at the end), the mover's value
  being its standing less the best other player's; a step into chance is worth the exact
  expectation over the outcomes that follow it; ties broken by the rng;
- `plan`: the game's obvious plan, which its declaration names (`GameDeclaration.plan`), one of
  the actions it allows drawn by the rng; a game without one is refused (SpecError);
- `mcts:<playouts>`: the project's UCT search (mcts.py), `playouts` random playouts per move;
- `openspiel-mcts:<playouts>`: OpenSpiel's MCTS bot, known once rulecheck/suite/openspiel_mcts.py
  is imported (it registers itself: `register_budgeted`; the command imports it when asked for it).
`policy_named` reads these names from the command line. Look-ahead steps are counted apart from
clause coverage (`coverage(isolated=True)`): a step a policy only considers is no step of play.

Leaves out: what is measured over many games (the balance report), OpenSpiel's MCTS bot itself
(in the suite layer, above this one, beside the project's OpenSpiel game), and the play itself
(playthrough.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final, Protocol

import attrs

from rulecheck.check.play.mcts import Uct
from rulecheck.core.clauses import coverage
from rulecheck.core.errors import SpecError
from rulecheck.core.game import CHANCE, Game
from rulecheck.core.notation import Action
from rulecheck.registry import DECLARATIONS


class Policy(Protocol):
    """A player: `name` is what reports print (with the budget, if the policy has one), and
    `choose` picks one of the legal actions of the player to move in `state`, drawing any
    randomness from `rng` only."""

    @property
    def name(self) -> str: ...

    def choose(self, game: Game[Any, Any], state: Any, rng: random.Random) -> Action: ...


@attrs.frozen
class Uniform:
    """Each legal action alike."""

    name: str = "random"

    def choose(self, game: Game[Any, Any], state: Any, rng: random.Random) -> Action:
        return rng.choice(game.legal_actions(state))


def standing(game: Game[Any, Any], state: Any, player: int) -> float:
    """`player`'s progress less the best of the others' (its own alone in a one-player game)."""
    found = game.progress(state)
    others = [v for p, v in enumerate(found) if p != player]
    return found[player] - (max(others) if others else 0.0)


def _worth(game: Game[Any, Any], state: Any, player: int) -> float:
    """The standing of `player` in `state`, or at a chance node its expectation over the outcomes."""
    if game.to_move(state) != CHANCE:
        return standing(game, state, player)
    return sum(float(odds) * standing(game, game.apply(state, o), player) for o, odds in game.chance_outcomes(state))


@attrs.frozen
class Greedy:
    """The action whose next state (or its chance outcomes, by expectation) stands the mover best."""

    name: str = "greedy"

    def choose(self, game: Game[Any, Any], state: Any, rng: random.Random) -> Action:
        legal = game.legal_actions(state)
        mover = game.to_move(state)
        with coverage(isolated=True):
            worth = [_worth(game, game.apply(state, action), mover) for action in legal]
        best = max(worth)
        return rng.choice([action for action, value in zip(legal, worth) if value == best])


@attrs.frozen
class Plan:
    """One of the actions the game's obvious plan takes, drawn by the rng."""

    name: str = "plan"

    def choose(self, game: Game[Any, Any], state: Any, rng: random.Random) -> Action:
        declared = DECLARATIONS.get(game.name)
        if declared is None:
            raise SpecError(f"{game.name} has no plan policy (it is no registered game)")
        return rng.choice(tuple(declared.plan_choices(game, state, game.legal_actions(state))))


UNIFORM = Uniform()
GREEDY = Greedy()
PLAN = Plan()

POLICIES = {p.name: p for p in (UNIFORM, GREEDY, PLAN)}
"""The policies known by name alone."""

BUDGETED: Final[dict[str, Callable[[int], Policy]]] = {"mcts": Uct}
"""The policies named with a budget, `<name>:<playouts>`, by name: each is made from the playouts."""


OPENSPIEL_MCTS: Final = "openspiel-mcts"
"""The name of OpenSpiel's MCTS bot as a policy, which its module registers (`register_budgeted`)."""


def register_budgeted(kind: str, make: Callable[[int], Policy]) -> None:
    """Make `<kind>:<playouts>` name the policy `make(playouts)`: for a policy of a layer above
    this one (OpenSpiel's MCTS, rulecheck/suite/openspiel_mcts.py, registers itself so)."""
    if kind in BUDGETED or kind in POLICIES:
        raise ValueError(f"a policy is already called {kind!r}")
    BUDGETED[kind] = make


def policy_named(text: str) -> Policy:
    """The policy `text` names; ValueError naming the known forms for any other text."""
    found = POLICIES.get(text)
    if found is not None:
        return found
    kind, colon, budget = text.partition(":")
    known = ", ".join([*sorted(POLICIES), *(f"{k}:<playouts>" for k in sorted(BUDGETED))])
    if kind not in BUDGETED or not colon:
        raise ValueError(f"no policy {text!r}; policies: {known}")
    if not budget.isdigit() or int(budget) < 1:
        raise ValueError(f"policy {text!r}: the playouts must be a whole number of at least 1; policies: {known}")
    return BUDGETED[kind](int(budget))
