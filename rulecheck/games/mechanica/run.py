"""One factory's run at the start of a workday, as a pure function of the factory and its fork choices.

Models: run step 1 (MEC-W3, MEC-P7): every bot in a Start Zone hole or an improvement's output holes
rides the belts at once, passing empty Factory Floor squares and taking at each Fork (and out of each
improvement that sends bots above or below) the exit its owner chose for the workday, until it reaches
an improvement's input holes or a Truck; bots already in Trucks stay. Arrivals at one hole are settled
together: the hole keeps what `money.kept` allows, the most valuable bots first, and the rest go back to
the supply (MEC-F08). Run step 2 (MEC-W4, MEC-W6): every improvement with bots in its input holes
destroys them and fills its output holes by its effect (upgrade, downgrade, duplicate, split; a wrapped
bot's value goes into the Vault). Outputs never feed another improvement's inputs in the same step, so
the order of activation does not matter (MEC-F08 vi). The data set's graph has no cycle, so every ride
ends.

Leaves out: the bot supply's limit (workday.py applies every run's change to the supply and raises a
rule gap if a model runs short) and other players' factories: a run reads and writes one factory only,
which is why running all of them together equals running each alone, and why a run is kept and
reused for the same factory and exits (`RUNS_KEPT`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from functools import lru_cache

import attrs

from rulecheck.core.clauses import touch
from rulecheck.core.evolve import evolve
from rulecheck.core.ops import INT_OPS
from rulecheck.games.mechanica import money
from rulecheck.games.mechanica.data import BELT, CHOICE, Improvement
from rulecheck.games.mechanica.pieces import as_before
from rulecheck.games.mechanica.rules import Rules
from rulecheck.games.mechanica.state import IN, OUT, Bot, Factory


@attrs.frozen
class RunResult:
    factory: Factory
    supply_change: tuple[tuple[str, int], ...]
    """Bots back to the supply (positive) or taken from it (negative), by model."""
    activated: int
    """How many improvements ran (MEC-W6)."""


def _ride(
    rules: Rules, tiles: Mapping[str, str], forks: frozenset[str], square: str, exit: str, routes: Mapping[str, str]
) -> str:
    """Where a bot leaving `square` by `exit` stops: the next improvement or Truck along the belts."""
    here = rules.exits[square][exit]
    while not (here in tiles and rules.is_floor(here)) and not rules.is_dock(here):
        here = rules.exits[here][routes.get(here, BELT) if here in forks else BELT]
    return here


def _effect(rules: Rules, improvement: Improvement, model: str) -> tuple[list[str], int]:
    """The bots an improvement makes of one input bot, and the money it puts into the Vault."""
    kind = improvement.effect.kind
    rank = rules.rank[model]
    top = len(rules.models) - 1
    if kind == "upgrade":
        return [rules.models[min(rank + improvement.effect.steps, top)]], 0
    if kind == "downgrade":
        return [rules.models[max(rank - 1, 0)]], 0
    if kind == "duplicate":
        return [model, model], 0
    if kind == "split":
        return ([rules.models[rank - 1]] * 2 if rank else [model]), 0
    assert kind == "wrap"
    return [], rules.value[model]


def _settle(rules: Rules, held: int, arriving: list[str], capacity: int) -> tuple[list[str], list[str]]:
    """The arrivals a hole keeps (the most valuable first) and those that go back to the supply."""
    ordered = sorted(arriving, key=lambda m: (-rules.rank[m], m))
    count = money.kept(INT_OPS, held, len(ordered), capacity, rules.keep_some)
    return ordered[:count], ordered[count:]


RUNS_KEPT = 512
"""How many factory runs `run_factory` keeps (functools.lru_cache): a run is a function of the rules, the
factory and its owner's exits alone, and a search runs the same factories from many states."""


def run_factory(rules: Rules, factory: Factory, routes: Mapping[str, str]) -> RunResult:
    """Both run steps for one factory, with its owner's exit for each of its switches this workday."""
    result = _run(rules, factory, tuple(routes.items()))
    touch("MEC-W3", "MEC-W4")
    for _ in range(result.activated):
        touch("MEC-W6")
    return result


@lru_cache(maxsize=RUNS_KEPT)
def _run(rules: Rules, factory: Factory, chosen: tuple[tuple[str, str], ...]) -> RunResult:
    routes = dict(chosen)
    tiles = dict(factory.tiles)
    forks = frozenset(factory.forks)
    change: Counter[str] = Counter()
    staying: list[Bot] = []
    arriving: dict[str, list[str]] = {}
    waiting: dict[str, list[str]] = {}
    """Bots already in an improvement's input holes (none in play: every activation empties them)."""
    for square, hole, model in factory.bots:
        if rules.is_start(square) or hole == OUT:
            exit = BELT
            if hole == OUT and rules.improvement[tiles[square]].exits == CHOICE:
                exit = routes.get(square, BELT)
            arriving.setdefault(_ride(rules, tiles, forks, square, exit, routes), []).append(model)
        elif rules.is_dock(square):
            staying.append((square, hole, model))
        else:
            waiting.setdefault(square, []).append(model)
    held = Counter(square for square, _, _ in staying)
    trucks = dict(factory.trucks)
    inputs: dict[str, list[str]] = dict(waiting)
    for square, models in sorted(arriving.items()):
        capacity = (
            rules.capacity[trucks[square]]
            if rules.is_dock(square)
            else rules.tile_capacity(rules.improvement[tiles[square]], IN)
        )
        kept, lost = _settle(rules, held[square] + len(waiting.get(square, ())), models, capacity)
        change.update(lost)
        if rules.is_dock(square):
            staying += [(square, IN, m) for m in kept]
        else:
            inputs[square] = waiting.get(square, []) + kept
    vault = factory.vault
    activated = 0
    for square, models in sorted(inputs.items()):
        if not models:
            continue
        activated += 1
        improvement = rules.improvement[tiles[square]]
        made: list[str] = []
        for model in models:
            outputs, amount = _effect(rules, improvement, model)
            made += outputs
            vault = money.vaulted(INT_OPS, vault, amount)
        change.update(models)
        kept, _ = _settle(rules, 0, made, rules.tile_capacity(improvement, OUT))
        change.subtract(kept)
        staying += [(square, OUT, m) for m in kept]
    after = as_before(factory, evolve(factory, bots=tuple(sorted(staying)), vault=vault))
    return RunResult(after, tuple(sorted((m, n) for m, n in change.items() if n)), activated)


def run_all(
    rules: Rules, factories: Iterable[Factory], routes: Iterable[tuple[int, str, str]]
) -> tuple[RunResult, ...]:
    """Every factory's run at once (MEC-W2): each reads only its own factory and its owner's routes."""
    chosen: dict[int, dict[str, str]] = {}
    for player, square, exit in routes:
        chosen.setdefault(player, {})[square] = exit
    return tuple(run_factory(rules, f, chosen.get(p, {})) for p, f in enumerate(factories))
