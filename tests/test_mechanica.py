"""Mechanica: the data format's checks, the factory run, and every option changing behaviour on a built position."""

from __future__ import annotations

import tomllib
from pathlib import Path

import attrs
import pytest

from rulecheck.core.codec import canonical_json
from rulecheck.core.errors import DataError, IllegalAction
from rulecheck.games.mechanica.actions import (
    BuyFork,
    Complete,
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
from rulecheck.games.mechanica.data import DATA_DIR, START
from rulecheck.games.mechanica.run import run_all, run_factory
from rulecheck.games.mechanica.state import BUY, IN, MADE, OVER, PLACE, ROUTE, TURN
from rulecheck.registry import make_game

DEFAULT = tomllib.loads((DATA_DIR / "default.toml").read_text())


def _write(tmp_path: Path, document: dict) -> Path:
    path = tmp_path / "broken.json"
    path.write_text(canonical_json(document))
    return path


def _broken(tmp_path: Path, change) -> str:
    document = tomllib.loads((DATA_DIR / "default.toml").read_text())
    change(document)
    with pytest.raises(DataError) as caught:
        make_game("mechanica", 2, data=_write(tmp_path, document))
    return str(caught.value)


def test_a_belt_to_a_square_that_does_not_exist_is_rejected(tmp_path):
    message = _broken(tmp_path, lambda d: d["board"]["belts"][1]["path"].__setitem__(2, "F99"))
    assert "broken.json" in message and 'board.belts[1] "middle".path[2]' in message and "F99" in message


def test_an_improvement_with_no_copies_is_rejected(tmp_path):
    message = _broken(tmp_path, lambda d: d["improvements"][3].__setitem__("copies", 0))
    assert 'improvements[3] "duplicator".copies' in message


def test_a_negative_price_is_rejected(tmp_path):
    message = _broken(tmp_path, lambda d: d["trucks"][0].__setitem__("price", -3))
    assert 'trucks[0] "big".price' in message and "-3" in message


def test_a_blueprint_needing_an_unknown_model_is_rejected(tmp_path):
    message = _broken(tmp_path, lambda d: d["blueprints"][4]["models"].__setitem__(0, "golden"))
    assert 'blueprints[4] "bp05".models[0]' in message and "golden" in message


def test_a_layout_that_lets_a_bot_ride_for_ever_is_rejected_naming_the_cycle(tmp_path):
    """The middle belt joins the top one at F11, so a Fork on F11 sent down would feed F11 again."""
    message = _broken(
        tmp_path, lambda d: d["board"]["belts"][1].__setitem__("path", ["S2", "F21", "F11", "F12", "F13", "D1"])
    )
    assert "broken.json: board.belts: a bot could ride for ever" in message
    assert "F11 -> F11" in message or "F13 -> F13" in message


def test_the_default_data_splits_its_tiles_as_the_rulebook_says():
    """MEC-S2: 21 in the Stack and 6 Extras, from the data's copies and Extras (9 types of 3, publisher)."""
    game = make_game("mechanica", 2)
    state = game.initial_state()
    copies = sum(i.copies for i in game.data.improvements)
    assert (state.stack, state.extras) == (copies - game.data.extras, game.data.extras)
    assert state.unseen.size == copies == len(game.data.improvements) * 3
    stacks = tuple(sum(1 for b in game.data.blueprints if b.stack == n) for n in (1, 2))
    assert tuple(p.size for p in state.blueprint_stacks) == stacks


def _after_setup(game, tiles=("upgrader", "duplicator"), cards=("bp01", "bp08")):
    state = game.initial_state()
    for action in (Draw(tiles[0]), Draw(tiles[1]), Reveal(cards[0]), Reveal(cards[1])):
        state = game.apply(state, action)
    return state


def test_the_first_run_takes_the_starting_bot_to_the_middle_truck():
    """MEC-W5, MEC-P3: the middle belt's Truck, as the data's layout says."""
    game = make_game("mechanica", 3)
    state = _after_setup(game)
    middle = dict(game.data.layout.belts)["middle"]
    assert state.phase == TURN and all(f.bots == ((middle[-1], IN, game.data.start_bot),) for f in state.factories)


def _factory(game, **changes):
    return attrs.evolve(game.initial_state().factories[0], **changes)


def test_running_all_factories_together_equals_running_each_alone():
    game = make_game("mechanica", 3)
    rules = game.rules
    first = _factory(game, tiles=(("F12", "duplicator"), ("S2", "basic-fabricator")), bots=(("F12", IN, "plus"),))
    second = _factory(game, forks=("F11",), bots=(("S1", IN, "basic"), ("S2", IN, "plus")))
    third = _factory(game, tiles=(("F22", "gift-wrapper"),), bots=(("S2", IN, "deluxe"), ("D1", IN, "basic")))
    routes = ((0, "F12", "down"), (1, "F11", "down"))
    together = run_all(rules, (first, second, third), routes)
    alone = (
        run_factory(rules, first, {"F12": "down"}),
        run_factory(rules, second, {"F11": "down"}),
        run_factory(rules, third, {}),
    )
    assert together == alone
    assert together[0].factory.bots == (("F12", "out", "plus"), ("F12", "out", "plus"))
    assert together[2].factory.vault == rules.value["deluxe"]


def _turn(game, state, **changes):
    return attrs.evolve(state, phase=TURN, player=0, **changes)


def test_extras_small_games_decides_whether_double_rotate_draws_an_extra():
    """MEC-F01: a 2-player Shop emptied by buying, then rotated."""
    results = {}
    for value in ("double-rotate", "never"):
        game = make_game("mechanica", 2, {"extras_small_games": value})
        state = _turn(game, _after_setup(game), step=MADE, shop=("", "", "", ""))
        state = game.apply(game.apply(state, Rotate()), Draw("reducer"))
        results[value] = state
    assert results["double-rotate"].pending == ("extras:0",) and results["double-rotate"].shop[1] == "reducer"
    assert results["never"].pending == () and results["never"].player == 1


def test_game_end_decides_whether_the_game_stops_mid_workday():
    """MEC-F03: the first player buys the last improvement with the Stack empty."""
    phases = {}
    for value in ("end-of-workday", "at-once"):
        game = make_game("mechanica", 2, {"game_end": value})
        state = _after_setup(game)
        state = _turn(game, state, step=BUY, stack=0, unseen=state.unseen.without_top("mega-upgrader"), extras=0)
        state = attrs.evolve(state, unseen=type(state.unseen)(), shop=("upgrader", "", "", ""))
        phases[value] = game.apply(state, Install(0, "F11")).phase
    assert phases == {"end-of-workday": TURN, "at-once": OVER}


def test_blueprint_once_decides_whether_a_second_player_may_complete_the_same_card():
    """MEC-F04: player 1 holds bp08's bot after player 0 completed it."""
    legal = {}
    for value in ("per-player", "once-in-all"):
        game = make_game("mechanica", 2, {"blueprint_once": value})
        state = _after_setup(game, cards=("bp01", "bp08"))
        state = attrs.evolve(state, player=1, completions=((0, "bp08"),), sideways=True)
        legal[value] = Complete("bp08", ("D2",)) in game.legal_actions(state)
    assert legal == {"per-player": True, "once-in-all": False}


def test_hole_capacity_decides_whether_make_bots_fills_an_occupied_centre_hole():
    """MEC-F08 (v): a recycled bot already in the Fabricator's centre hole."""
    bots = {}
    for value in ("1", "unlimited"):
        game = make_game("mechanica", 1, {"hole_capacity": value})
        state = _after_setup(game)
        square = game.data.start_square
        factory = attrs.evolve(state.factories[0], bots=((square, IN, "plus"),))
        state = _turn(game, state, step=BUY, factories=(factory,))
        bots[value] = game.apply(state, Make()).factories[0].bots
    assert len(bots["1"]) == 1 and len(bots["unlimited"]) == 2


def test_crowded_hole_decides_what_a_full_truck_keeps():
    """MEC-F08 (ii, iii): two bots reach one Small Truck in the same run."""
    kept = {}
    for value in ("extra-to-supply", "all-to-supply"):
        game = make_game("mechanica", 1, {"crowded_hole": value})
        factory = _factory(game, tiles=(), forks=("F11",), bots=(("S1", IN, "plus"), ("S2", IN, "basic")))
        kept[value] = run_factory(game.rules, factory, {"F11": "down"}).factory.bots
    assert kept == {"extra-to-supply": (("D2", IN, "plus"),), "all-to-supply": ()}


def test_recycled_bots_decides_whether_an_occupied_hole_takes_one():
    """MEC-F08 (v) against the publisher's FAQ, with holes of unlimited capacity."""
    holes = {}
    for value in ("any-hole", "empty-hole"):
        game = make_game("mechanica", 1, {"recycled_bots": value, "hole_capacity": "unlimited"})
        state = _after_setup(game)
        factory = attrs.evolve(state.factories[0], bots=(("S2", IN, "basic"),), wallet=20)
        state = game.apply(_turn(game, state, step=BUY, factories=(factory,)), Recycle(0))
        assert state.phase == PLACE
        holes[value] = {a.square for a in game.legal_actions(state) if isinstance(a, Place)}
    starts = set(make_game("mechanica", 1).data.layout.start)
    assert holes == {"any-hole": starts, "empty-hole": starts - {"S2"}}


def test_shop_rotation_decides_how_far_the_shop_turns():
    """MEC-F09: one spot and one draw, or turning and drawing until every spot holds an improvement."""
    after = {}
    for value in ("one-spot", "until-full"):
        game = make_game("mechanica", 1, {"shop_rotation": value})
        state = _turn(game, _after_setup(game), step=MADE)
        state = game.apply(game.apply(state, Rotate()), Draw("reducer"))
        after[value] = state
    assert after["one-spot"].pending == () and after["one-spot"].turns == (1,)
    assert after["until-full"].pending == ("stack:0",) and after["until-full"].turns == (0,)


def test_truck_counts_come_from_the_chosen_source():
    for value in ("rulebook", "publisher"):
        game = make_game("mechanica", 2, {"truck_counts": value})
        assert game.initial_state().trucks_left == tuple(dict(t.counts)[value] for t in game.data.trucks)
    assert (
        make_game("mechanica", 2).initial_state().trucks_left
        != make_game("mechanica", 2, {"truck_counts": "publisher"}).initial_state().trucks_left
    )


@pytest.mark.parametrize(
    ("fork_exits", "side", "routes"),
    [
        ("two", ("up",), {"route F21 belt", "route F21 up"}),
        ("every-exit", (), {"route F21 belt", "route F21 down", "route F21 up"}),
    ],
)
def test_forks_are_committed_each_workday_before_the_run(fork_exits, side, routes):
    """MEC-A2 and the simultaneous commits: a Fork bought today is routed at the next workday's start; on
    the middle belt over its belt's exit and the side it was bought with (`fork_exits=two`, L149 "either
    exit arrow"), or over every exit of its square."""
    game = make_game("mechanica", 1, {"fork_exits": fork_exits})
    state = _turn(game, _after_setup(game), step=MADE)
    state = game.apply(state, BuyFork("F21", side))
    state = game.apply(game.apply(state, Rotate()), Draw("reducer"))
    assert state.phase == ROUTE and {a.text for a in game.legal_actions(state)} == routes
    state = game.apply(state, Route("F21", "up"))
    assert state.phase == TURN and state.factories[0].forks == ("F21",)
    assert Next() in game.legal_actions(state)


def test_improvements_go_in_their_zone():
    """MEC-T4: a Fabricator only in the Start Zone, a floor improvement only on the Factory Floor."""
    game = make_game("mechanica", 1)
    state = _after_setup(game, tiles=("advanced-fabricator", "upgrader"))
    state = _turn(game, state, step=BUY, factories=(attrs.evolve(state.factories[0], wallet=20),))
    installs = [a for a in game.legal_actions(state) if isinstance(a, Install)]
    assert {game.rules.zone[a.square] for a in installs if a.spot == 0} == {START}
    assert {game.rules.zone[a.square] for a in installs if a.spot == 1} == {"floor"}


@pytest.mark.parametrize("players", [1, 2, 4])
def test_each_listing_lists_only_its_kinds_where_it_says(players):
    """A rule module's `Listing` says which kinds of action it lists and where (phase, step); game.py
    explains an action tried elsewhere from that alone, so a listing must list nothing else."""
    from rulecheck.check.play.playthrough import random_game
    from rulecheck.games.mechanica.game import listings

    game = make_game("mechanica", players)
    found = listings(game.options)
    for seed in range(4):
        for state in random_game(game, seed).states:
            if game.to_move(state) < 0:
                continue
            for listing in found:
                here = listing.phase == state.phase and listing.step in (None, state.step)
                listed = listing.legal(game.rules, state, state.player) if here else ()
                assert all(type(a) in listing.kinds for a in listed), (listing.kinds, listed)
            kinds = {type(a) for a in game.legal_actions(state)}
            assert kinds <= {k for x in found if x.phase == state.phase for k in x.kinds}


def test_a_bot_outside_a_truck_is_not_sold():
    """MEC-T1: the listing and the check share what may be sold, so a bot in a Start Zone hole is refused
    naming the clause (a check of its own once let it through to a disagreement with the listing)."""
    game = make_game("mechanica", 1)
    state = _after_setup(game)
    state = _turn(game, state, factories=(attrs.evolve(state.factories[0], bots=(("S1", IN, "basic"),)),))
    assert not [a for a in game.legal_actions(state) if isinstance(a, Sell)]
    with pytest.raises(IllegalAction) as caught:
        game.apply(state, Sell("S1", "basic"))
    assert caught.value.clause == "MEC-T1"


@pytest.mark.parametrize("players", [1, 2, 4])
def test_every_proof_system_is_proved_under_the_defaults(players):
    from rulecheck.check.proofs.prove import prove
    from rulecheck.registry import declaration

    game = make_game("mechanica", players)
    results = {s.property: prove(s).status for s in declaration("mechanica").symbolic_systems(game)}
    assert set(results.values()) == {"proved"}, results


def test_the_turn_bound_z3_computes_is_the_engines_rank_at_setup():
    from rulecheck.games.mechanica.symbolic import counted_bound, turn_bound

    for players in (1, 2, 3, 4):
        game = make_game("mechanica", players)
        assert turn_bound(game) == counted_bound(game)


def test_the_extras_contradiction_has_its_unsat_core_at_two_players():
    """MEC-F01: L50, L137-139 and L103 cannot all hold in a 2-player game; with 4 players they can."""
    from rulecheck.check.proofs.contradictions import ask
    from rulecheck.registry import declaration

    game = make_game("mechanica", 2)
    answers = {a.id: a for a in ask(declaration("mechanica").statement_set(game))}
    assert set(answers["extras-in-2-players"].core) == {
        "setup-no-extras",
        "double-rotate",
        "buy-what-you-afford",
        "two-players",
    }
    assert not answers["extras-in-2-players"].consistent
    assert answers["extras-in-4-players"].consistent and answers["extras-in-4-players"].witness["players"] == 4


def test_an_improvement_falling_into_the_recycler_is_recycled_by_the_player_rotating():
    """MEC-T10: the last spot's improvement falls, and its recycling-value bots come to the rotating player
    (one player, so that no Double Rotate follows)."""
    game = make_game("mechanica", 1)
    state = _after_setup(game)
    last = len(state.shop) - 1
    state = _turn(game, state, step=MADE, shop=("",) * last + ("mega-upgrader",))
    state = game.apply(game.apply(state, Rotate()), Draw("reducer"))
    assert state.phase == PLACE and state.placing == game.rules.improvement["mega-upgrader"].recycle
    assert "mega-upgrader" in state.recycled and state.player == 0


def test_sideways_blueprints_are_replaced_when_the_workday_ends():
    """MEC-B3, MEC-E2: after a completion both blueprints go under their stacks and new ones are turned up."""
    game = make_game("mechanica", 1)
    state = _after_setup(game, cards=("bp01", "bp08"))
    bot = dict(game.data.layout.belts)["middle"][-1]
    state = game.apply(state, Complete("bp08", (bot,)))
    assert state.sideways and state.factories[0].vault == game.rules.blueprint["bp08"].payout
    state = game.apply(game.apply(game.apply(game.apply(state, Next()), Make()), Rotate()), Draw("reducer"))
    assert state.pending == ("bp:1", "bp:2") and state.blueprints == ("", "")
    assert [pile.layers[-1] for pile in state.blueprint_stacks] == [(("bp01", 1),), (("bp08", 1),)]


def test_starting_fabricators_cannot_be_tiles_if_every_tile_is_shuffled():
    """L38, L212 shuffle every improvement; L36 gives each player a Fabricator: not both from the 27 tiles."""
    from rulecheck.check.proofs.contradictions import ask
    from rulecheck.registry import declaration

    answers = {a.id: a for a in ask(declaration("mechanica").statement_set(make_game("mechanica", 2)))}
    assert set(answers["starting-fabricators"].core) == {
        "all-tiles-shuffled",
        "a-fabricator-each",
        "starting-fabricator-is-a-tile",
        "two-players",
    }
    assert answers["starting-fabricators-apart"].consistent


@pytest.mark.parametrize(("reading", "scores"), [("improvement", True), ("printed", False)])
def test_the_starting_fabricator_scores_as_the_option_says(reading, scores):
    """MEC-O2, MEC-E4 under `starting_fabricator`: the Basic Fabricator a player starts with scores its
    value as one of her improvements (L201), or nothing as part of the board; a bought one scores either way."""
    game = make_game("mechanica", 1, {"starting_fabricator": reading})
    state = _after_setup(game)
    factory = state.factories[0]
    value = game.rules.improvement[game.data.start_fabricator].value
    assert value > 0
    start = value if scores else 0
    assert game.score(state, 0) == factory.wallet + factory.vault + start
    bought = attrs.evolve(factory, tiles=(*factory.tiles, ("S1", game.data.start_fabricator)))
    state = attrs.evolve(state, factories=(bought,))
    assert game.score(state, 0) == factory.wallet + factory.vault + start + value


def test_a_solo_game_plays_the_same_turns_or_is_refused():
    """MEC-F12 under `solo`: the Single Player Chips (L12) have no rule; by default one player plays the same
    turns (strict mode names the gap when play returns to her), and under `refused` a 1-player game is not
    made at all; with more players the option changes nothing."""
    from rulecheck.core.errors import OptionError, RuleGap

    game = make_game("mechanica", 1)
    state = game.apply(_turn(game, _after_setup(game), step=MADE), Rotate())
    assert game.apply(state, Draw("reducer")).workday == 2
    with pytest.raises(RuleGap) as gap:
        make_game("mechanica", 1, strict=True).apply(state, Draw("reducer"))
    assert gap.value.gap == "MEC-F12"
    with pytest.raises(OptionError, match="Single Player Chips"):
        make_game("mechanica", 1, {"solo": "refused"})
    two = make_game("mechanica", 2, {"solo": "refused"})
    assert two.initial_state() == make_game("mechanica", 2).initial_state()


@pytest.mark.parametrize("reading", ["allowed", "place-first"])
def test_while_placing_the_turns_steps_wait_and_any_point_actions_follow_the_option(reading):
    """MEC-A1, MEC-T6 under `anytime_while_placing`: while a recycled bot waits, a Fork may be bought under
    `allowed` (L143 "at any point during your turn") and the bot still waits to be placed; Make Bots, a step
    of the turn, waits under either value, refused by MEC-T6."""
    game = make_game("mechanica", 1, {"anytime_while_placing": reading})
    state = _after_setup(game)
    factory = attrs.evolve(state.factories[0], wallet=5)
    state = attrs.evolve(
        _turn(game, state), phase=PLACE, step=BUY, resume="buy", placing=("plus",), factories=(factory,)
    )
    with pytest.raises(IllegalAction) as refused:
        game.apply(state, Make())
    assert refused.value.clause == "MEC-T6"
    if reading == "place-first":
        with pytest.raises(IllegalAction) as refused:
            game.apply(state, BuyFork("F11"))
        assert refused.value.clause == "MEC-T6"
        return
    state = game.apply(state, BuyFork("F11"))
    assert (state.phase, state.placing, state.factories[0].forks) == (PLACE, ("plus",), ("F11",))
    state = game.apply(state, Place("S1", ("plus",)))
    assert (state.phase, state.step, state.placing) == (TURN, BUY, ())


def test_a_middle_belt_fork_names_its_side_only_when_it_has_two_exits():
    """MEC-A2 under `fork_exits=two`: a Fork on F22 must name a side, one on F12 names none."""
    game = make_game("mechanica", 1)
    state = _turn(game, _after_setup(game), step=MADE)
    for wrong in (BuyFork("F22"), BuyFork("F22", ("belt",)), BuyFork("F12", ("down",))):
        with pytest.raises(IllegalAction) as refused:
            game.apply(state, wrong)
        assert refused.value.clause == "MEC-A2"
    assert game.apply(state, BuyFork("F22", ("down",))).factories[0].fork_sides == (("F22", "down"),)
