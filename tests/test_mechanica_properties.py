"""Mechanica's properties on states that break them, and the engine keeping a part of the state the
very object it was when a step leaves it as it was (which lets a run skip the properties reading it).

The checks that count or compare (tiles-in-one-place, trucks-within-capacity, money-accounted,
vault-never-decreases) must still catch each way their promise can break; the per-factory checks
that keep their findings by factory must find what they find afresh; which properties a run skips
is tested for every game in tests/test_property_reads.py."""

from __future__ import annotations

import attrs
import pytest

from properties import mechanica as properties
from rulecheck.check.play.playthrough import random_game
from rulecheck.core.hidden import Pile
from rulecheck.games.mechanica.actions import Make, Sell
from rulecheck.games.mechanica.state import IN
from rulecheck.model.properties import StateProperty
from rulecheck.registry import declaration, make_game

GAME = make_game("mechanica", 2)
PLAY = random_game(GAME, 0)
CHECKS = {p.name: p.check for p in declaration("mechanica").properties}


def _state(wanted):
    return next(s for s in PLAY.states if wanted(s))


def _with_factory(state, player, **changes):
    factories = list(state.factories)
    factories[player] = attrs.evolve(factories[player], **changes)
    return attrs.evolve(state, factories=tuple(factories))


def test_random_play_breaks_none_of_them():
    for before, action, after in zip(PLAY.states, PLAY.actions, PLAY.states[1:]):
        for prop in declaration("mechanica").properties:
            if isinstance(prop, StateProperty):
                assert prop.check(GAME, after) is None, prop.name
            else:
                assert prop.check(GAME, before, action, after) is None, prop.name


def _tiles(state):
    return CHECKS["tiles-in-one-place"](GAME, state)


def test_tiles_in_one_place_catches_a_tile_lost_or_doubled():
    state = _state(lambda s: any(s.shop) and s.unseen.layers)
    spot = next(i for i, t in enumerate(state.shop) if t)
    tile = state.shop[spot]
    lost = attrs.evolve(state, shop=state.shop[:spot] + ("",) + state.shop[spot + 1 :])
    assert _tiles(lost) == f"tiles counted {{}} too many and {{'{tile}': 1}} too few"
    doubled = attrs.evolve(state, demolished=(*state.demolished, tile))
    assert _tiles(doubled) == f"tiles counted {{'{tile}': 1}} too many and {{}} too few"


def test_tiles_in_one_place_catches_unseen_counts_that_do_not_add_up():
    state = _state(lambda s: s.unseen.layers and s.stack > 0)
    assert _tiles(attrs.evolve(state, stack=state.stack - 1)).endswith("Extras")
    top, *below = state.unseen.layers
    with_zero = Pile((top + (("no such tile", 0),), *below))  # a layer count of 0, which no Pile should hold
    assert _tiles(attrs.evolve(state, unseen=with_zero))


def test_trucks_within_capacity_catches_a_full_truck_overloaded():
    state = _state(lambda s: s.factories[0].trucks)
    square, truck = state.factories[0].trucks[0]
    room = GAME.rules.capacity[truck]
    bots = tuple(sorted(state.factories[0].bots + ((square, IN, GAME.data.models[0].name),) * (room + 1)))
    found = CHECKS["trucks-within-capacity"](GAME, _with_factory(state, 0, bots=bots))
    assert found is not None and found.startswith(f"player 0's {truck} truck on {square} holds")


def test_money_accounted_catches_a_sale_that_pays_nothing_and_a_wallet_that_moves_alone():
    i = next(i for i, a in enumerate(PLAY.actions) if isinstance(a, Sell))
    before, action, after = PLAY.states[i], PLAY.actions[i], PLAY.states[i + 1]
    check = CHECKS["money-accounted"]
    assert check(GAME, before, action, after) is None
    player = before.player
    unpaid = _with_factory(after, player, wallet=before.factories[player].wallet)
    assert check(GAME, before, action, unpaid).startswith(f"player {player}'s Wallet changed by 0")
    other = 1 - player
    gift = _with_factory(after, other, wallet=after.factories[other].wallet + 1)
    assert check(GAME, before, action, gift).startswith(f"player {other}'s Wallet changed by 1")


def test_vault_never_decreases_catches_a_vault_emptied():
    state = _with_factory(PLAY.states[-1], 1, vault=3)  # a vault built here: random play need not fill one
    emptied = _with_factory(state, 1, vault=0)
    assert CHECKS["vault-never-decreases"](GAME, state, Make(), emptied) == (
        f"player 1's Vault went from {state.factories[1].vault} to 0"
    )


@pytest.mark.parametrize("seed", range(3))
def test_a_step_that_leaves_the_factories_equal_leaves_the_very_same_objects(seed):
    play = random_game(GAME, seed)
    kept = 0
    for before, action, after in zip(play.states, play.actions, play.states[1:]):
        for b, a in zip(before.factories, after.factories):
            assert (a == b) == (a is b), action
        assert (after.factories == before.factories) == (after.factories is before.factories), action
        if isinstance(action, Make):
            assert (after.supply == before.supply) == (after.supply is before.supply)
            kept += after.factories is before.factories
    assert kept > 0


@pytest.mark.parametrize("faults", [properties._overloaded_trucks, properties._overfull_holes])
def test_a_kept_factory_check_finds_what_it_finds_afresh(faults):
    """On the factories of random games at every player count, and on one made to break it."""
    checked = 0
    for players in (1, 2, 3, 4):
        game = make_game("mechanica", players)
        for state in random_game(game, players).states:
            for f in state.factories:
                assert faults(game, f) == faults.__wrapped__(game, f)
                checked += 1
    assert checked > 1000
    state = _state(lambda s: s.factories[0].trucks)
    square, _ = state.factories[0].trucks[0]
    start = GAME.rules.start[0]
    model = GAME.data.models[0].name
    many = (square, IN, model), (start, IN, model)
    crowded = attrs.evolve(state.factories[0], bots=tuple(sorted(state.factories[0].bots + many * 20)))
    assert faults(GAME, crowded) == faults.__wrapped__(GAME, crowded) != ()
    assert faults(GAME, crowded) == faults(GAME, attrs.evolve(crowded))  # an equal factory, found again


def test_bots_conserved_catches_a_bot_that_vanishes_or_is_counted_twice():
    state = _state(lambda s: s.factories[0].bots)
    check = CHECKS["bots-conserved"]
    (_, _, model), *rest = state.factories[0].bots
    assert check(GAME, _with_factory(state, 0, bots=tuple(rest))).startswith(f"{model}: ")
    waiting = attrs.evolve(state, placing=(*state.placing, model))  # in play twice: in a hole and waiting
    assert check(GAME, waiting).startswith(f"{model}: ")
