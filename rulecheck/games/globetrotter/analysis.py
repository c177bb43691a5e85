"""Questions about Globetrotter answered by searching and measuring the engine itself.

Models: opening positions reached with the engine's own setup actions; a breadth-first
search over one player's actions (the turn handed back to that player after each
action, the others standing still), used for the earliest Build; the ordered
(shooter, target) pairs whose in-range status differs between two shooting readings;
and the exact odds that a firing destroys the planet, from the kernel's chance analysis
of a real Fire action.

Leaves out: presentation (the findings report and the CLI format these results).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import combinations

import attrs
import networkx as nx

from rulecheck.core.chance import distribution
from rulecheck.core.game import CHANCE
from rulecheck.core.notation import Action
from rulecheck.games.globetrotter import counters
from rulecheck.games.globetrotter.actions import Choose, Die, EndTurn, Fire, Move, PlaceFactory, PlaceRover, Shoot
from rulecheck.games.globetrotter.board import READINGS, in_range
from rulecheck.games.globetrotter.counters import BUILDING_HP
from rulecheck.games.globetrotter.game import Globetrotter
from rulecheck.games.globetrotter.state import (
    AIMED,
    DRILL_CANNON,
    SPACE_PORT,
    TREASURY,
    Building,
    GlobetrotterState,
    Turn,
)
from rulecheck.geometry.facts import automorphisms


def opening(game: Globetrotter, placements: Sequence[tuple[str, str]]) -> GlobetrotterState:
    """The state after setup with player i's Factory and Rover on placements[i]: player 0
    wins the roll-off (6 against 1s) and places first; the others place counter-clockwise."""
    state = game.initial_state()
    for player in range(game.players):
        state = game.apply(state, Die(6 if player == 0 else 1))
    if game.players == 2:
        state = game.apply(state, Choose("first"))
    while state.placing:
        factory, rover = placements[state.placing[0]]
        state = game.apply(state, PlaceFactory(factory))
        state = game.apply(state, PlaceRover(rover))
    return state


def far_opening(game: Globetrotter, factory: str, rover: str) -> GlobetrotterState:
    """A two-player opening with player 0 on (factory, rover) and player 1 on the HQ farthest
    from that Factory (ties by label order) and its first neighbour."""
    graph = game.rules.boards.graph
    distances = nx.single_source_shortest_path_length(graph, factory)
    hqs = [h for h in game.rules.boards.board.hq_spaces if h != factory and h in distances]
    far = max(hqs, key=lambda h: (distances[h], -hqs.index(h)))
    return opening(game, [(factory, rover), (far, sorted(graph[far])[0])])


def opening_placements(game: Globetrotter) -> list[tuple[str, str]]:
    """One (Factory HQ, Rover space) start per orbit of the board's symmetries."""
    graph = game.rules.boards.graph
    symmetries = automorphisms(graph)
    seen: set[tuple[str, str]] = set()
    representatives = []
    for hq in game.rules.boards.board.hq_spaces:
        for rover in sorted(graph[hq]):
            if (hq, rover) not in seen:
                representatives.append((hq, rover))
                seen |= {(g[hq], g[rover]) for g in symmetries}
    return representatives


def hand_turn_to(state: GlobetrotterState, player: int) -> GlobetrotterState:
    """The same position with `player` to act at the start of a fresh turn."""
    return attrs.evolve(state, turn=Turn(player, 0, 0, False, 0))


def _highest(outcomes: Sequence[Action]) -> Action:
    """The outcome with the highest face or total."""
    return max(outcomes, key=lambda a: getattr(a, "value", getattr(a, "total", getattr(a, "amount", 0))))


def _lucky(game: Globetrotter, state: GlobetrotterState) -> GlobetrotterState:
    """`state` after every pending die shows its highest face."""
    while game.to_move(state) == CHANCE:
        state = game.apply(state, _highest(game.legal_actions(state)))
    return state


def solo_search(
    game: Globetrotter,
    start: GlobetrotterState,
    player: int,
    allowed: Callable[[Action], bool],
    goal: Callable[[GlobetrotterState], bool],
    max_depth: int,
) -> tuple[Action, ...] | None:
    """The shortest sequence of `player`'s allowed actions from `start` that reaches `goal`,
    each action being legal in the engine when the turn is handed to that player and every die
    it rolls showing its highest face; None if there is none within `max_depth` actions."""
    first = hand_turn_to(start, player)
    parents: dict[GlobetrotterState, tuple[GlobetrotterState, Action] | None] = {first: None}
    frontier = deque([(first, 0)])
    while frontier:
        state, depth = frontier.popleft()
        if goal(state):
            plan: list[Action] = []
            while (link := parents[state]) is not None:
                state, action = link
                plan.append(action)
            return tuple(reversed(plan))
        if depth == max_depth:
            continue
        for action in game.legal_actions(state):
            if allowed(action):
                after = hand_turn_to(_lucky(game, game.apply(state, action)), player)
                if after not in parents:
                    parents[after] = (state, action)
                    frontier.append((after, depth + 1))
    return None


def reading_disagreements(removal: str) -> dict[tuple[str, str], int]:
    """For each two shooting readings, how many ordered (shooter, target) space pairs are in
    range under one and not the other."""
    reach = {r: in_range(removal, r) for r in READINGS}
    spaces = list(reach[READINGS[0]])
    return {
        (a.value, b.value): sum(
            1 for s in spaces for t in spaces if s != t and (t in reach[a][s]) != (t in reach[b][s])
        )
        for a, b in combinations(READINGS, 2)
    }


def firing_destroys_odds(game: Globetrotter, fires_before: int) -> Fraction:
    """The exact chance that a Drill Cannon firing destroys its planet when the planet's fire
    counter stood at `fires_before`: player 0's cannon, aimed at an empty space, fires."""
    board = game.rules.boards
    hqs = board.board.hq_spaces
    start = far_opening(game, hqs[0], sorted(board.graph[hqs[0]])[0])
    occupied = {space for _, space in start.occupied()}
    site = next(h for h in hqs if h not in occupied)
    aim = next(s for s in board.board.spaces if s not in occupied and s != site)
    cannon = Building(0, site, 0, DRILL_CANNON, BUILDING_HP, 0, AIMED, aim)
    state = hand_turn_to(start.with_pieces(buildings=start.buildings + (cannon,)), 0)
    state = attrs.evolve(state, planets=(attrs.evolve(state.planets[0], fires=fires_before),))
    outcome = distribution(game, state, Fire(board.token(0, site)), measure=lambda s: s.planets[0].destroyed)
    return outcome.get(True, Fraction(0))


Goal = tuple[int, Callable[[Action], bool], Callable[[GlobetrotterState], bool]]


def pursue(
    game: Globetrotter,
    start: GlobetrotterState,
    goals: Sequence[Goal],
    depth: int = 8,
    max_actions: int = 400,
) -> tuple[tuple[Action, ...], GlobetrotterState] | None:
    """Real play in which each (player, allowed actions, goal) is reached in turn. At that player's
    turns it takes the first action of the shortest plan (solo_search from the real position).
    Otherwise the mover waits: it ends its turn where it may (keeping saved points), or else steps
    one Rover out and back so as to stay where it is; dice show their highest face. None if the
    goals are not reached within `max_actions`, or a mover cannot wait."""
    state = start
    actions: list[Action] = []
    back: dict[int, Action] = {}

    def wait(mover: int) -> Action | None:
        legal = game.legal_actions(state)
        if mover == CHANCE:
            return _highest(legal)
        if EndTurn() in legal:
            return EndTurn()
        moves = [a for a in legal if isinstance(a, Move)]
        if back.get(mover) in moves:
            return back.pop(mover)
        if not moves:
            return None
        back[mover] = Move(moves[0].target, moves[0].source)
        return moves[0]

    for player, allowed, goal in goals:
        while not goal(state):
            if len(actions) >= max_actions or game.is_terminal(state):
                return None
            mover = game.to_move(state)
            plan = solo_search(game, state, player, allowed, goal, depth) if mover == player else None
            if plan and plan[0] in game.legal_actions(state):  # a plan assumes a fresh turn
                action: Action | None = plan[0]
                back.pop(player, None)
            else:
                action = wait(mover)
            if action is None:
                return None
            state = game.apply(state, action)
            actions.append(action)
    return tuple(actions), state


def _setup_actions(game: Globetrotter, start: GlobetrotterState) -> tuple[Action, ...]:
    """The setup actions that lead to a two-player `far_opening`."""
    first, second = (start.rovers_of(p)[0].space for p in (0, 1))
    assert first is not None and second is not None
    return (
        Die(6),
        Die(1),
        Choose("first"),
        PlaceFactory(start.buildings_of(0)[0].space),
        PlaceRover(first),
        PlaceFactory(start.buildings_of(1)[0].space),
        PlaceRover(second),
    )


def _verbs(*names: str) -> Callable[[Action], bool]:
    return lambda action: action.verb in names


def rover_cap_witness(game: Globetrotter) -> tuple[Action, ...] | None:
    """A two-player game in which player 0 ends with more Rovers, on the ground and in orbit, than
    Buildings after a Manufacture (legal only where orbiting Rovers do not count toward the cap);
    None for other player counts, whose openings this scenario does not set up."""
    if game.players != 2:
        return None
    board = game.rules.boards
    hq = board.board.hq_spaces[0]
    start = far_opening(game, hq, sorted(board.graph[hq])[0])

    def rovers(n: int) -> Callable[[GlobetrotterState], bool]:
        return lambda s: len(s.rovers_of(0)) == n

    goals: tuple[Goal, ...] = (
        (0, _verbs("move", "fortify", "build"), lambda s: bool(s.buildings_of(0, SPACE_PORT))),
        (0, _verbs("manufacture"), rovers(2)),
        (0, _verbs("move", "orbit"), lambda s: any(r.space is None for r in s.rovers_of(0))),
        (0, _verbs("manufacture"), rovers(3)),
    )
    found = pursue(game, start, goals)
    return None if found is None else _setup_actions(game, start) + found[0]


def five_in_a_row_witness(game: Globetrotter) -> tuple[Action, ...] | None:
    """A two-player game in which player 0 takes 5 actions in a row: it saves a point, spends it on
    the shot that destroys player 1's Treasury (3 points, 1 hit point left), and uses the 3 stolen
    points (possible only where the destroying action does not count toward the 4); None for other
    player counts."""
    if game.players != 2:
        return None
    board = game.rules.boards
    hq = board.board.hq_spaces[0]
    start = far_opening(game, hq, sorted(board.graph[hq])[0])
    build = _verbs("move", "fortify", "build")

    def treasury(player: int) -> Callable[[GlobetrotterState], bool]:
        return lambda s: bool(s.buildings_of(player, TREASURY))

    def their_treasury(s: GlobetrotterState) -> Building | None:
        return next(iter(s.buildings_of(1, TREASURY)), None)

    def in_range(s: GlobetrotterState) -> bool:
        target = their_treasury(s)
        return target is not None and any(
            isinstance(a, Shoot) and a.target == board.token(target.planet, target.space)
            for a in game.legal_actions(hand_turn_to(s, 0))
        )

    def saved(player: int, points: int) -> Callable[[GlobetrotterState], bool]:
        return lambda s: s.buildings_of(player, TREASURY)[0].points >= points

    def worn_down(hp: int) -> Callable[[GlobetrotterState], bool]:
        return lambda s: (t := their_treasury(s)) is not None and t.hp <= hp

    goals: tuple[Goal, ...] = (
        (1, build, treasury(1)),
        *((1, _verbs("save"), saved(1, n)) for n in range(1, counters.TREASURY_CAPACITY + 1)),
        (0, build, treasury(0)),
        (0, _verbs("move"), in_range),
        *((0, _verbs("shoot"), worn_down(hp)) for hp in range(counters.BUILDING_HP - 1, 0, -1)),
        (0, _verbs("save"), saved(0, 1)),
        (0, _verbs("shoot"), lambda s: their_treasury(s) is None),
    )
    found = pursue(game, start, goals, depth=12)
    if found is None:
        return None
    actions, state = found
    extra: list[Action] = []
    while state.turn is not None and state.turn.player == 0 and state.turn.taken < counters.ACTIONS_IN_A_ROW + 1:
        move = next((a for a in game.legal_actions(state) if isinstance(a, Move)), None)
        if move is None:
            return None
        state = game.apply(state, move)
        extra.append(move)
    return _setup_actions(game, start) + actions + tuple(extra)
