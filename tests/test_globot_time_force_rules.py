"""Globot Time Force's rules on built positions: payment and the energy cap, the turn's shape, skills,
second turns, the refill, tokens and the end; and for every option, a position where its values differ."""

from collections import Counter

import attrs
import pytest

from rulecheck.check.play.playthrough import random_game
from rulecheck.core.clauses import coverage
from rulecheck.core.errors import IllegalAction, RuleGap
from rulecheck.core.game import CHANCE, TERMINAL
from rulecheck.core.hidden import Pile
from rulecheck.games.globot_time_force import costs
from rulecheck.games.globot_time_force.actions import (
    Choose,
    Discard,
    Dismiss,
    EndTurn,
    Exchange,
    ExtraTurn,
    Gain,
    PayReserved,
    PayReservedIoM,
    Place,
    Reserve,
    Resolve,
)
from rulecheck.games.globot_time_force.game import GlobotTimeForce
from rulecheck.games.globot_time_force.state import ACT, OFFER, Draft, GTFState, Player
from rulecheck.registry import declaration

BOARDS = ("collector", "small-start", "harmony")


def position(game, timeline, players=None, **fields):
    """A state in the first player's turn with this timeline, these boards and player fields."""
    held = [p.get("tableau", ()) + p.get("reserved", ()) for p in players or []]
    rest = Counter(game.data.deck_cards()) - Counter(timeline) - Counter(c for h in held for c in h)
    state = game.initial_state()
    chosen = [Player(**p) for p in players or []]
    chosen += [Player() for _ in range(game.players - len(chosen))]
    boards = fields.pop("boards", BOARDS)
    spaces = fields.pop("spaces", ((),) * len(boards))
    return attrs.evolve(
        state,
        stage=ACT,
        deck=Pile.shuffled(rest.elements()),
        boards_left=Pile(),
        boards=boards,
        spaces=spaces,
        timeline=tuple(timeline),
        players=tuple(chosen),
        **fields,
    )


def texts(game, state):
    return {a.text for a in game.legal_actions(state)}


def settle(game, state):
    """Draw the first outcome at each chance node until a player is to move."""
    while game.to_move(state) == CHANCE:
        state = game.apply(state, game.legal_actions(state)[0])
    return state


ROW = ("seed-vault", "gear-smith", "root-courier")


def test_paying_mixes_energy_gears_and_charge_and_never_passes_12():
    game = GlobotTimeForce(2)
    state = position(game, ROW, [{"used": 10, "coins": (2, 0, 0), "charge": 1}])
    legal = texts(game, state)
    assert {"gain 0 2 1 0", "gain 0 2 0 1", "gain 0 1 2 0", "gain 0 1 1 1", "gain 0 0 2 1"} <= legal
    assert "gain 0 3 0 0" not in legal  # 13 energy used
    with pytest.raises(IllegalAction) as caught:
        game.apply(state, Gain(0, 3, 0, 0))
    assert caught.value.clause == "GTF-R5"
    me = game.apply(state, Gain(0, 2, 0, 1)).players[0]
    assert (me.used, me.gears, me.charge, me.tableau) == (12, 2, 0, ("seed-vault",))


def test_a_timeline_action_ends_the_turn_and_the_timeline_is_refilled():
    game = GlobotTimeForce(2)
    state = game.apply(position(game, ROW), Dismiss("gears"))
    assert game.to_move(state) == CHANCE and state.refill == 1
    state = settle(game, state)
    assert state.current == 1 and len(state.timeline) == 3 and state.timeline[:2] == ROW[1:]
    assert state.players[0].gears == 3


def test_discard_skills_resolve_in_order_and_a_choice_waits_for_the_player():
    game = GlobotTimeForce(2)
    state = position(game, ROW, [{"tableau": ("balance-keeper", "seed-vault", "m-natsuwa")}])
    state = game.apply(state, Discard(0))  # balance-keeper: discard a card, then 3 gears
    assert texts(game, state) == {"choose 0", "choose 1"}
    state = game.apply(state, Choose(0))  # seed-vault: its IoM comes after balance-keeper's gears
    me = state.players[0]
    assert me.tableau == ("m-natsuwa",) and me.gears == 3 and me.iom == 1
    assert state.stage == ACT and state.current == 0


def test_a_second_turn_skips_the_refill_and_a_third_is_never_taken():
    game = GlobotTimeForce(2)
    state = position(game, ("loop-pruner",) + ROW[1:], [{"tableau": ("chrono-gardener",)}])
    state = game.apply(state, Gain(0, 3, 0, 0))  # loop-pruner: another turn
    assert state.current == 0 and state.in_row == 2 and len(state.timeline) == 2 and state.stage == ACT
    state = game.apply(state, Discard(0))  # chrono-gardener: another turn, but it would be the third
    state = settle(game, game.apply(state, Dismiss("gears")))
    assert state.current == 1 and state.in_row == 1 and len(state.timeline) == 3


@pytest.mark.parametrize("reading, extra_turns", [("out-of-order", 2), ("granted-only", 3)])
def test_the_third_token_triggers_the_end_and_the_others_take_one_turn_per_token(reading, extra_turns):
    """L126: in a 2-player game the remaining player's third extra turn in a row is not taken
    under the literal reading (its token is discarded); granted-only takes all three."""
    game = GlobotTimeForce(2, {"consecutive_turns": reading})
    me = {"tableau": ("seed-vault", "m-natsuwa"), "tokens": 1, "placed": 2}
    state = position(game, ROW, [me], spaces=((), (0, 0), ()))
    state = game.apply(state, Place("small-start"))
    assert state.triggered == 0
    state = settle(game, game.apply(state, Dismiss("gears")))
    assert state.current == 1 and state.extra and state.players[1].tokens == 2
    for _ in range(extra_turns - 1):
        assert state.current == 1 and game.to_move(state) == 1
        state = settle(game, game.apply(state, Dismiss("gears")))
    state = settle(game, game.apply(state, Dismiss("gears")))
    assert game.to_move(state) == TERMINAL and state.players[1].spent == 3 and state.players[1].tokens == 0


def test_an_empty_deck_is_a_rule_gap_in_strict_mode():
    game = GlobotTimeForce(1, strict=True)
    state = attrs.evolve(position(game, ROW[:2]), deck=Pile())
    with pytest.raises(RuleGap) as caught:
        game.apply(state, Dismiss("gears"))
    assert caught.value.gap == "GTF-G1"


# Each option changes behaviour in a position.


def test_tokens_reading_decides_what_a_reservation_holds():
    pool, assistant, three = (GlobotTimeForce(2, {"tokens": v}) for v in ("pool", "assistant", "three-reservations"))
    for game, tokens, second in ((pool, 2, False), (assistant, 3, False), (three, 2, True)):
        state = game.apply(position(game, ROW), Reserve(0))
        assert state.players[0].tokens == tokens
        state = settle(game, game.apply(settle(game, state), Dismiss("gears")))
        assert any(a.startswith("reserve") for a in texts(game, state)) == second


def test_timeline_actions_reading_decides_whether_a_discard_ends_the_turn():
    players = [{"tableau": ("m-natsuwa",)}]
    listed = GlobotTimeForce(2)
    discards = GlobotTimeForce(2, {"timeline_actions": "discards"})
    assert listed.apply(position(listed, ROW, players), Discard(0)).stage == ACT
    assert discards.apply(position(discards, ROW, players), Discard(0)).current == 1
    skills = GlobotTimeForce(2, {"timeline_actions": "skill-effects"})
    state = skills.apply(position(skills, ROW, [{"tableau": ("echo-loom",)}]), Discard(0))
    assert skills.to_move(skills.apply(state, Choose(0))) == CHANCE


def test_turn_end_reading_decides_whether_a_turn_may_end_without_a_timeline_action():
    strict, voluntary = GlobotTimeForce(2), GlobotTimeForce(2, {"turn_end": "voluntary"})
    assert "end" not in texts(strict, position(strict, ROW))
    state = voluntary.apply(position(voluntary, ROW), EndTurn())
    assert state.current == 1 and state.timeline == ROW


def _triggered(options):
    game = GlobotTimeForce(3, options)
    me = {"tableau": ("seed-vault", "m-natsuwa"), "tokens": 1, "placed": 2}
    state = position(game, ROW + ("minoru",), [me, {}, {}], spaces=((), (0, 0), ()))
    state = game.apply(state, Place("small-start"))
    return game, settle(game, game.apply(state, Dismiss("gears")))


def test_extra_turns_reading_decides_how_many_tokens_a_turn_takes():
    assert _triggered({})[1].players[1].tokens == 2
    assert _triggered({"extra_turns": "all-at-once"})[1].players[1].tokens == 0


def test_extra_turn_choice_reading_lets_a_player_decline():
    game, state = _triggered({"extra_turn_choice": "optional"})
    assert state.stage == OFFER and texts(game, state) == {"extra take", "extra decline"}
    state = game.apply(state, ExtraTurn("decline"))
    assert state.current == 2 and state.players[1].declined


def test_extra_turn_order_reading_decides_who_goes_next():
    for order, next_player in (("round-robin", 2), ("consecutive", 1)):
        game, state = _triggered({"extra_turn_order": order})
        assert state.current == 1
        assert settle(game, game.apply(state, Dismiss("gears"))).current == next_player


def test_second_turn_refill_reading_decides_how_many_gaps_are_filled():
    for reading, length in (("every-gap", 3), ("one-gap", 2)):
        game = GlobotTimeForce(2, {"second_turn_refill": reading})
        state = game.apply(position(game, ("loop-pruner",) + ROW[1:]), Gain(0, 3, 0, 0))
        state = settle(game, game.apply(state, Dismiss("gears")))
        assert state.current == 1 and len(state.timeline) == length


def test_one_gap_reads_the_double_turn_only_a_single_turn_with_two_gaps_refills_both():
    """GTF-F06 (i): "the empty space" after both turns of a double turn; a single turn in which a
    skill also took a timeline card refills every gap under both readings."""
    for reading in ("every-gap", "one-gap"):
        game = GlobotTimeForce(2, {"second_turn_refill": reading})
        players = [{"tableau": ("scale-warden", "seed-vault"), "coins": (3, 0, 0)}]
        state = game.apply(position(game, ROW, players), Resolve(0, 0))  # a skill reserves from the timeline
        state = game.apply(state, Choose(0))
        assert len(state.timeline) == 2
        state = settle(game, game.apply(state, Dismiss("gears")))
        assert state.current == 1 and len(state.timeline) == 3


SEVEN = ("seed-vault", "root-courier", "prism-choir", "assembly-drone", "entropy-sink", "heat-lamp", "minoru")


def test_tableau_limit_reading_decides_what_an_eighth_card_does():
    hard = GlobotTimeForce(2)
    assert not any(a.startswith("gain") for a in texts(hard, position(hard, ROW, [{"tableau": SEVEN}])))
    forced = GlobotTimeForce(2, {"tableau_limit": "forced-discard"})
    state = forced.apply(position(forced, ("m-natsuwa",) + ROW[1:], [{"tableau": SEVEN}]), Gain(0, 2, 0, 0))
    assert len(texts(forced, state)) == 8 and all(a.startswith("choose") for a in texts(forced, state))
    scoring = GlobotTimeForce(2, {"tableau_limit": "scoring"})
    state = scoring.apply(
        position(scoring, ("monument",) + ROW[1:], [{"tableau": SEVEN, "coins": (0, 0, 1)}]), Gain(0, 4, 10, 0)
    )
    assert len(state.players[0].tableau) == 8
    assert scoring.score_parts(state, 0)["cards"] == sum(scoring.data.cards[k].vp for k in SEVEN)


def test_gear_payment_reading_decides_change():
    found = {}
    for reading in ("exact", "change", "no-change"):
        game = GlobotTimeForce(2, {"gear_payment": reading})
        state = position(game, ROW, [{"coins": (0, 0, 1)}])
        found[reading] = "gain 0 0 3 0" in texts(game, state)
        if found[reading]:
            found[reading] = game.apply(state, Gain(0, 0, 3, 0)).players[0].gears
    assert found == {"exact": False, "change": 7, "no-change": 0}


def test_charge_reading_decides_whether_charge_carries_over():
    for reading, left in (("carries", 2), ("expires", 0)):
        game = GlobotTimeForce(2, {"charge": reading})
        state = settle(game, game.apply(position(game, ROW, [{"charge": 2}]), Dismiss("gears")))
        assert state.players[0].charge == left


def test_passives_reading_decides_whether_a_met_passive_must_resolve_first():
    players = [{"tableau": ("prism-choir", "prism-choir")}]
    optional, mandatory = GlobotTimeForce(2), GlobotTimeForce(2, {"passives": "mandatory"})
    assert "dismiss gears" in texts(optional, position(optional, ROW, players))
    state = position(mandatory, ROW, players)
    assert "dismiss gears" not in texts(mandatory, state)
    state = mandatory.apply(mandatory.apply(state, Resolve(0, 0)), Resolve(1, 0))
    assert "dismiss gears" in texts(mandatory, state) and state.players[0].charge == 2


def test_gear_exchange_reading_adds_the_exchange():
    off, on = GlobotTimeForce(2), GlobotTimeForce(2, {"gear_exchange": "on"})
    assert "exchange" not in texts(off, position(off, ROW, [{"coins": (2, 0, 0)}]))
    state = on.apply(position(on, ROW, [{"coins": (2, 0, 0)}]), Exchange())
    assert state.players[0].gears == 0 and state.players[0].charge == on.data.exchange_charge


def test_tokens_per_board_reading_decides_whether_a_player_fills_two_spaces():
    players = [{"tableau": ("seed-vault", "m-natsuwa")}]
    for reading, again in (("any", True), ("one", False)):
        game = GlobotTimeForce(2, {"tokens_per_board": reading})
        state = game.apply(position(game, ROW, players), Place("small-start"))
        assert ("place small-start" in texts(game, state)) == again


def test_only_under_granted_only_do_the_extra_turns_make_more_than_two_consecutive_turns():
    """GTF-F18 and GTF-T13 read alike: the table, counting movers on the trace, finds runs
    above 2 only under consecutive_turns=granted-only, where the prover's system is named for
    what it proves (no third granted turn) and not for L126."""
    from rulecheck.games.globot_time_force.tables import end_game_movers, end_game_turns, longest_run

    literal = GlobotTimeForce(2)
    granted_only = GlobotTimeForce(2, {"consecutive_turns": "granted-only"})
    assert end_game_movers(literal) == [0, 1, 1]
    assert end_game_movers(granted_only) == [0, 1, 1, 1]
    assert longest_run(end_game_movers(literal, skill_turns=True)) == 2
    assert longest_run(end_game_movers(granted_only, skill_turns=True)) == 6
    assert longest_run(end_game_movers(GlobotTimeForce(3))) == 1
    table = end_game_turns()
    assert [name for name, _ in table.shows()] == ["a player takes more than 2 consecutive turns"]
    column = table.columns.index("consecutive_turns")
    run = table.columns.index("longest run")
    assert {row[column] for row in table.rows if row[run] > 2} == {"granted-only"}
    systems = {s.property for s in declaration("globot-time-force").symbolic_systems(literal)}
    assert {"no-third-consecutive-turn", "no-third-granted-turn"} <= systems
    systems = {s.property for s in declaration("globot-time-force").symbolic_systems(granted_only)}
    assert "no-third-granted-turn" in systems and "no-third-consecutive-turn" not in systems
    described = {p.name: p for p in declaration("globot-time-force").properties}
    assert "third consecutive turn during the game (L126)" in described["no-third-consecutive-turn"].description
    assert described["no-third-consecutive-turn"].applies(literal.options)
    assert not described["no-third-consecutive-turn"].applies(granted_only.options)
    assert "each end-game extra turn starts the count again" in described["no-third-granted-turn"].description
    assert described["no-third-granted-turn"].applies(granted_only.options)


def test_a_reserved_card_is_paid_on_a_later_turn_and_returns_the_token():
    game = GlobotTimeForce(1)
    state = game.apply(position(game, ROW, [{"coins": (3, 0, 0)}]), Reserve(0))
    assert state.players[0].reserved == ("seed-vault",) and state.players[0].tokens == 2
    state = settle(game, state)
    assert "pay 0 0 3 0" in texts(game, state)
    state = game.apply(state, PayReserved(0, 0, 3, 0))
    me = state.players[0]
    assert (me.reserved, me.tableau, me.tokens, me.gears) == ((), ("seed-vault",), 3, 0)


def test_a_reservation_cannot_be_paid_in_the_turn_it_was_made():
    game = GlobotTimeForce(1)
    players = [{"tableau": ("scale-warden", "seed-vault"), "coins": (3, 0, 0)}]
    state = game.apply(position(game, ROW, players), Resolve(0, 0))  # a skill reserves: no timeline action
    state = game.apply(state, Choose(0))
    assert state.stage == ACT and state.players[0].reserved == ("seed-vault",)
    assert not any(a.startswith("pay") for a in texts(game, state))
    with pytest.raises(IllegalAction) as caught:
        game.apply(state, PayReserved(0, 0, 3, 0))
    assert caught.value.clause == "GTF-T3c"


def test_the_gear_payment_table_shows_the_three_readings_apart():
    from rulecheck.games.globot_time_force.tables import gear_payment

    table = gear_payment()
    rows = {(r[0], r[2]): (r[3], r[4]) for r in table.rows}
    assert rows[(3, "exact")] == (False, "-")
    assert rows[(3, "change")] == (True, 7)
    assert rows[(3, "no-change")] == (True, 0)
    assert [name for name, _ in table.shows()] == ["readings of reading differ"]


def test_a_draft_keeps_every_field_of_the_state_in_order():
    """The rules change a Draft in place and make the state from it once a step: a draft of any
    state gives back an equal state, with no field lost, added or moved."""
    game = GlobotTimeForce(3, {"tokens": "three-reservations"})
    assert Draft.__slots__ == tuple(f.name for f in attrs.fields(GTFState))
    played = random_game(game, 4, max_steps=120)
    for state in played.states:
        assert Draft(state).state() == state
    marked = GTFState(*(("field", i) for i in range(len(Draft.__slots__))))
    assert attrs.astuple(Draft(marked).state(), recurse=False) == attrs.astuple(marked, recurse=False)


def test_the_initial_state_is_set_up_once_and_its_clauses_touched_at_every_call():
    game = GlobotTimeForce(2)
    with coverage() as first:
        state = game.initial_state()
    with coverage() as again:
        assert game.initial_state() is state
    assert first == again and "GTF-S1" in again


def test_working_out_payments_touches_no_clause():
    """The payments are kept by purse, so the clauses of paying are touched where a payment is
    made (costs.paid), never while the payments are worked out."""
    game = GlobotTimeForce(1, {"gear_payment": "no-change"})
    me = Player(used=9, coins=(2, 1, 1), charge=2)
    with coverage() as seen:
        found = costs.payments(game.rules, Gain, 0, 8, me)
    assert found and not seen


def test_under_one_gap_a_turn_starts_short_only_after_a_double_turn():
    """GTF-F06's witness: random play under second_turn_refill=one-gap breaks
    full-timeline-at-turn-start, and the refill that left the timeline short ended a second turn."""
    from rulecheck.check.search.fuzz import fuzz
    from rulecheck.check.watch.generic import BROKEN_INVARIANT
    from rulecheck.core.trace import replay_steps

    game = GlobotTimeForce(1, {"second_turn_refill": "one-gap"})
    watched = [p for p in declaration("globot-time-force").properties if p.name == "full-timeline-at-turn-start"]
    report = fuzz(game, watched, games=60, seed=0, kinds=frozenset({BROKEN_INVARIANT}))
    assert report.found
    for found in report.found:
        steps = list(replay_steps(game, found.trace))
        refill = next(s for s, _, _ in reversed(steps) if s.stage == "refill")
        assert refill.in_row == 2


def _in_extra_turn(options, **player):
    """2 players: player 0 triggered the end (a token on each board), player 1 in an extra turn
    holding `player` and meeting small-start's requirement."""
    game = GlobotTimeForce(2, options)
    mine = {"tableau": ("seed-vault", "m-natsuwa"), "spent": 1, **player}
    state = position(
        game, ROW, [{"placed": 3, "tokens": 0}, mine], spaces=((0,), (0,), (0,)), current=1, triggered=0, extra=True
    )
    return game, state


@pytest.mark.parametrize("reading, goes_on", [("no-other-actions", False), ("turn-goes-on", True)])
def test_last_token_in_extra_turn_reading_decides_whether_the_turn_goes_on(reading, goes_on):
    game, state = _in_extra_turn({"last_token_in_extra_turn": reading}, tokens=1, placed=1)
    assert "place small-start" in texts(game, state)
    state = settle(game, game.apply(state, Place("small-start")))
    assert ("dismiss gears" in texts(game, state)) == goes_on
    assert (game.to_move(state) == TERMINAL) != goes_on
    assert state.timeline == ROW


def test_a_locked_token_left_to_discard_lets_the_extra_turn_go_on_after_the_last_placed():
    game, state = _in_extra_turn({}, tokens=1, placed=0, reserved=("minoru",))
    state = settle(game, game.apply(state, Place("small-start")))
    assert "dismiss gears" in texts(game, state)


@pytest.mark.parametrize("reading, extra", [("remaining", True), ("ignored", False)])
def test_locked_token_at_end_reading_decides_whether_a_reservation_gives_an_extra_turn(reading, extra):
    game = GlobotTimeForce(2, {"locked_token_at_end": reading}, strict=not extra)
    me = {"placed": 3, "tokens": 0}
    state = position(game, ROW, [me, {"placed": 2, "tokens": 0, "reserved": ("minoru",)}], triggered=0)
    state = attrs.evolve(state, spaces=((0, 1), (0, 1), (0,)))
    if not extra:
        with pytest.raises(RuleGap) as caught:
            settle(game, game.apply(state, Dismiss("gears")))
        assert caught.value.gap == "GTF-F05"
        return
    state = settle(game, game.apply(state, Dismiss("gears")))
    me = state.players[1]
    assert state.current == 1 and state.extra and me.reserved == () and me.spent == 1
    assert "minoru" in state.discards


@pytest.mark.parametrize("reading, reserves", [("allowed", True), ("needs-room", False)])
def test_reserve_when_full_reading_decides_whether_a_full_tableau_reserves(reading, reserves):
    game = GlobotTimeForce(2, {"reserve_when_full": reading})
    state = position(game, ("gear-smith", "loop-pruner", "chrono-gardener"), [{"tableau": SEVEN}])
    assert ("reserve 0" in texts(game, state)) == reserves
    if not reserves:
        with pytest.raises(IllegalAction, match="reserve_when_full=needs-room"):
            game.apply(state, Reserve(0))


@pytest.mark.parametrize("reading, second_turn", [("taken", True), ("lost", False)])
def test_trigger_second_turn_reading_decides_whether_the_double_turn_completes(reading, second_turn):
    game = GlobotTimeForce(2, {"trigger_second_turn": reading})
    me = {"tableau": ("seed-vault", "m-natsuwa"), "tokens": 1, "placed": 2}
    state = position(game, ROW, [me], spaces=((), (0, 0), ()), granted=True)
    state = game.apply(state, Place("small-start"))
    assert state.triggered == 0 and state.granted
    state = settle(game, game.apply(state, Dismiss("gears")))
    if second_turn:
        assert (state.current, state.in_row, state.extra, len(state.timeline)) == (0, 2, False, 2)
    else:
        assert (state.current, state.in_row, state.extra, len(state.timeline)) == (1, 1, True, 3)


@pytest.mark.parametrize("reading, pays", [("any-card", True), ("timeline-only", False)])
def test_iom_reserved_reading_decides_whether_an_iom_pays_for_a_reserved_card(reading, pays):
    game = GlobotTimeForce(2, {"iom_reserved": reading})
    me = {"used": 12, "iom": 1, "tokens": 2, "reserved": ("minoru",)}
    state = position(game, ROW, [me])
    assert ("pay-iom 0" in texts(game, state)) == pays
    assert not any(a.startswith("pay 0") for a in texts(game, state))
    if not pays:
        with pytest.raises(IllegalAction, match="iom_reserved=timeline-only"):
            game.apply(state, PayReservedIoM(0))
        return
    state = game.apply(state, PayReservedIoM(0))
    paid = state.players[0]
    assert (paid.iom, paid.tokens, paid.reserved, paid.tableau, paid.used) == (0, 3, (), ("minoru",), 12)
    assert state.stage == ACT and state.timeline == ROW


@pytest.mark.parametrize("reading, turns", [("ends-at-once", 1), ("round-completes", 2)])
def test_exhaustion_reading_decides_whether_the_round_completes(reading, turns):
    game = GlobotTimeForce(2, {"exhaustion": reading})
    state = attrs.evolve(position(game, ()), deck=Pile())
    movers = []
    while game.to_move(state) != TERMINAL:
        movers.append(state.current)
        assert texts(game, state) == {"end"}
        state = game.apply(state, EndTurn())
    assert movers == list(range(turns))


def test_on_traces_of_random_play_no_player_takes_three_turns_in_a_row_under_the_literal_reading():
    """L126 checked on the movers of successive turns, read off the trace (not the engine's
    in_row): with 2 players turns in player order alternate, so a run of 3 is a third
    consecutive turn. The same search finds one under consecutive_turns=granted-only."""
    from rulecheck.games.globot_time_force.tables import longest_run, turn_movers

    def runs(options):
        game = GlobotTimeForce(2, options)
        plays = [random_game(game, seed, 3000) for seed in range(40)]
        return [longest_run(turn_movers(play.states, play.actions)) for play in plays]

    literal = runs({})
    assert max(literal) == 2
    assert max(runs({"consecutive_turns": "granted-only"})) == 3
