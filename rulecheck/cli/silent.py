"""`rulecheck silent`: where the engine decides what the rulebook's text does not (search/silent.py).

Models: the command's arguments (the game, a player count, seeded games and their step cap, and
the shipped scenarios, or none of them, or one scenario file whose position, successors and
continuations are searched instead), and its output: each silent decision with its clause, what the text says
and what the engine does, how it is decided (without an option, or by which option value), its
witness and the command that shows it; then the clauses no text contract speaks for. It exits 1
when it finds a decision no option makes (one an option makes is that option's to decide).

Leaves out: the finder itself (rulecheck/check/search/silent.py) and the contracts (each game's texts.py).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rulecheck.check.positions.scenario import load_scenario
from rulecheck.check.search.silent import contracts, corpus, find, origin, scenario_files, unaudited
from rulecheck.cli.args import at_least
from rulecheck.cli.shared import EXIT_FAILED, add_game, command, print_json
from rulecheck.core.errors import ScenarioError
from rulecheck.core.words import counted
from rulecheck.registry import make_game

GAMES = 20
MAX_STEPS = 400


def _silent(args: argparse.Namespace) -> int:
    game = make_game(args.game, args.players)
    scenarios = [] if args.no_scenarios else scenario_files(game)
    seeds = range(args.seed, args.seed + args.games)
    if args.scenario is not None:
        scenario = load_scenario(Path(args.scenario))
        if scenario.game.name != game.name:
            raise ScenarioError(f"{scenario.source}: a scenario of {scenario.game.name}, not of {game.name}")
        if scenario.game.options.text != scenario.game.option_space.defaults().text:
            raise ScenarioError(f"{scenario.source}: sets options; the finder searches under the defaults only")
        scenarios, seeds = [Path(args.scenario)], range(0)
    found = find(game, corpus(game, seeds, args.max_steps, scenarios))
    gap = unaudited(game)
    if args.json:
        entries = [
            {
                "subject": f.candidate.subject,
                "kind": f.candidate.kind,
                "what": f.candidate.what,
                "verdict": f.verdict,
                "witness": f.witness,
                "replay": f.replay,
            }
            for f in found
        ]
        print_json(
            {"game": game.name, "contracts": len(contracts(game)), "silent_decisions": entries, "unaudited": list(gap)}
        )
    elif not contracts(game):
        print(f"{game.name} declares no text contracts (its declaration's texts): nothing to search for; every clause")
        print(f"is unaudited: {', '.join(gap)}")
    else:
        for f in found:
            print(f"{f.candidate.subject}: {f.candidate.kind}: {f.candidate.what} ({f.verdict})")
            actions = ", ".join(f.witness["actions"]) or "no action"
            print(f"   witness: {actions} from {origin(f.candidate)}; show it: {f.replay}")
        silent = [f for f in found if not f.decided_by]
        decided = counted(len(found) - len(silent), "finding")
        print(f"{counted(len(silent), 'silent decision')} and {decided} an option decides; ", end="")
        print(f"{counted(len(gap), 'clause')} with no text contract (unaudited): {', '.join(gap)}")
    return EXIT_FAILED if any(not f.decided_by for f in found) else 0


def add_commands(commands: object) -> None:
    """`silent`, on the command's sub-parsers."""
    silent = command(
        commands,
        "silent",
        _silent,
        "where the engine decides what the rulebook's text leaves open or says otherwise, with no option",
    )
    add_game(silent)
    silent.add_argument(
        "--players", type=int, default=None, metavar="N", help="number of players (default: the game's minimum)"
    )
    silent.add_argument("--seed", type=int, default=0, help="the first random game's seed (default: 0)")
    silent.add_argument(
        "--games", type=at_least(0), default=GAMES, help=f"random games from the start (default: {GAMES})"
    )
    silent.add_argument(
        "--max-steps", type=at_least(1), default=MAX_STEPS, help=f"each random game's step cap (default: {MAX_STEPS})"
    )
    searched = silent.add_mutually_exclusive_group()
    searched.add_argument(
        "--scenario",
        metavar="FILE",
        help="search only this scenario file's position, its successors and continuations (default: every "
        "shipped scenario of the game, and the random games)",
    )
    searched.add_argument(
        "--no-scenarios",
        action="store_true",
        help="search only the random games from the start, not the shipped scenarios (default: both)",
    )
