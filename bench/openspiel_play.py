"""Anchor: OpenSpiel's Python tic-tac-toe through pyspiel, and our games through our pyspiel wrapper.

Random play from Python (uniform over `legal_actions()`, chance by `chance_outcomes()`), a step
being one legal-action listing plus one `apply_action`, as in play.py, timed in CPU time
rounds alternating between the games. `python_tic_tac_toe` is OpenSpiel's own game written in
Python (`import open_spiel.python.games` registers it); ours are rulecheck/suite/openspiel.py's
`python_rulecheck_<name>` at their fewest campaign players. Skipped, with a line saying so, when
open-spiel cannot be imported.

Leaves out: OpenSpiel's C++ games (they run without Python in the loop: no peer for ours).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from importlib.metadata import version
from typing import Any

from bench import games as chosen
from bench.rounds import Round, timed_round, totals
from bench.table import row, section

ROUNDS = 4
TIC_TAC_TOE = "python_tic_tac_toe"


def player(game: Any) -> Callable[[int], int]:
    """Plays one random game of the pyspiel `game` from a seed; its length."""

    def play(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, weights=weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        return steps

    return play


def measure(seconds: float, games: list[str] | None = None) -> dict[str, Any]:
    """Tic-tac-toe and each of our games (or `games`) for about `seconds` of CPU time each."""
    try:
        import open_spiel.python.games  # noqa: F401 - registers python_tic_tac_toe
        import pyspiel

        from rulecheck.suite.openspiel import load_game
    except ImportError as exc:
        return {"skipped": f"open-spiel is not importable ({exc}); pip install 'rulecheck[openspiel]'"}
    loaded = {TIC_TAC_TOE: pyspiel.load_game(TIC_TAC_TOE)}
    for name in chosen.names(games):
        loaded[name] = load_game(name, players=chosen.players(name))
    players = {name: player(game) for name, game in loaded.items()}
    rounds: dict[str, list[Round]] = {name: [] for name in loaded}
    for _ in range(ROUNDS):
        for name, play in players.items():
            rounds[name].append(timed_round(play, seconds / ROUNDS, sum(r[0] for r in rounds[name])))
    anchor = totals(rounds[TIC_TAC_TOE])["steps_per_second"]
    result: dict[str, Any] = {"version": version("open_spiel")}
    for name, found in rounds.items():
        figures = totals(found)
        result[name] = {**figures, "ratio": round(figures["steps_per_second"] / anchor, 3)}
    return result


def report(result: dict[str, Any]) -> None:
    section("anchor: OpenSpiel through pyspiel, random play from Python")
    if "skipped" in result:
        row("(all)", "pyspiel random play", "skipped", result["skipped"])
        return
    for name, r in result.items():
        if name == "version":
            continue
        what = "OpenSpiel's Python game" if name == TIC_TAC_TOE else "our pyspiel wrapper"
        anchor = "anchor" if name == TIC_TAC_TOE else f"{r['ratio']}x tic-tac-toe"
        row(name, what, f"{r['steps_per_second']} steps/s, {r['games_per_second']} games/s", anchor)
