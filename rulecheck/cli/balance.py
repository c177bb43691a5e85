"""The command `balance`: who wins a game, and which readings of its rulebook change that.

Models: presentation of a balance run (rulecheck/check/balance/): a table of the figures per
seat and over the games, and with --readings a line per other reading with its test; --json
prints the run as one object and --plot writes its picture. The seats play by --policy (once:
every seat; once per seat: each its own).

Leaves out: playing and measuring the games, the statistics (rulecheck/check/balance/).
"""

from __future__ import annotations

import argparse
from typing import Any

from rulecheck.check.balance.compare import ALPHA, TEST
from rulecheck.check.balance.figures import Figures
from rulecheck.check.balance.games import Setup, checked
from rulecheck.check.balance.plot import balance_figure
from rulecheck.check.balance.run import Balance, balance
from rulecheck.check.play.playthrough import DEFAULT_MAX_STEPS
from rulecheck.check.running.parallel import check_dask
from rulecheck.check.running.signals import interruptible
from rulecheck.cli.args import at_least, writable_file
from rulecheck.cli.progress import progress_bar
from rulecheck.cli.shared import add_data, add_game, add_set, command, print_json
from rulecheck.core.options import parse_assignments
from rulecheck.model.picture import picture_path, save_picture
from rulecheck.registry import game_class

DEFAULT_GAMES = 1000


def _balance(args: argparse.Namespace) -> int:
    target = picture_path(writable_file(args.plot)) if args.plot is not None else None
    if args.dask is not None:
        check_dask(args.dask)
    setup = checked(
        Setup(
            args.game,
            max(2, game_class(args.game).min_players) if args.players is None else args.players,
            tuple(sorted(parse_assignments(args.set).items())),
            tuple(args.policy or ["random"]),
            args.max_steps,
            args.data,
        )
    )
    with interruptible(), progress_bar(f"balance {args.game}: games", args.json) as progress:
        run = balance(
            setup,
            args.games,
            args.seed,
            readings=args.readings,
            workers=args.workers,
            dask=args.dask,
            progress=progress,
        )
    if target is not None:
        save_picture(balance_figure(run), target)
    if args.json:
        print_json(run.to_data())
    else:
        print("\n".join(table(run)))
    return 0


def _percent(value: float) -> str:
    return f"{100 * value:5.1f}%"


def figure_lines(figures: Figures) -> list[str]:
    """The figures of one set of games, a line each."""
    lines = [
        f"seat {p}: won alone {seat.wins:>5} {_percent(seat.rate)}  95% [{_percent(seat.low)}, {_percent(seat.high)}]"
        f"  shared {seat.shared}"
        for p, seat in enumerate(figures.seats)
    ]
    decisive = "-" if figures.decisiveness is None else f"{figures.decisiveness:.3f}"
    lines += [
        f"seats equal (chi-square goodness of fit): p = {figures.seat_p:.3g}",
        f"draws {figures.draws}, everyone loses {figures.everyone_loses}, timeouts {figures.timeouts} (step cap)",
        f"length in steps (finished games): mean {figures.length_mean:.1f}, sd {figures.length_sd:.1f}, "
        f"longest {figures.longest}",
        f"lead changes per step {figures.lead_changes:.4f} ({figures.lead_changes_per_game:.2f} a game), "
        f"decisiveness {decisive}, branching factor {figures.branching:.2f}",
    ]
    return lines


def table(run: Balance) -> list[str]:
    """The run as the terminal shows it."""
    setup = run.setup
    lines = [
        f"{setup.game}, {run.figures.players} players, {run.games} games from seed {run.seed}, "
        f"policies {', '.join(setup.policies)}, step cap {setup.max_steps}; intervals: Wilson 95%",
        *figure_lines(run.figures),
    ]
    if run.readings:
        lines += [
            "",
            f"readings against these options ({TEST}; significant below {ALPHA}; "
            "each reading's every figure is in --json):",
        ]
        for r in sorted(run.readings, key=lambda r: (r.adjusted, r.p)):
            rates = " ".join(_percent(s.rate) for s in r.figures.seats)
            mark = "CHANGES WHO WINS" if r.significant else "no significant change"
            f = r.figures
            lines.append(
                f"  {r.option}={r.value}: seats won alone {rates}, draws {f.draws}, everyone loses "
                f"{f.everyone_loses}, timeouts {f.timeouts}, length {f.length_mean:.1f}  "
                f"p = {r.p:.3g}, adjusted {r.adjusted:.3g}  {mark}"
            )
    return lines


def add_commands(commands: Any) -> None:
    sub = command(
        commands,
        "balance",
        _balance,
        "who wins a game over many seeded games played by policies: per seat the win rate with a 95% interval, "
        "draws, length, lead changes, decisiveness, branching; with --readings, which readings change who wins",
    )
    add_game(sub)
    sub.add_argument(
        "--players",
        type=int,
        default=None,
        metavar="N",
        help="number of players (default: 2, or the game's minimum when that is more: one player has no rival)",
    )
    sub.add_argument("--seed", type=int, default=0, help="random seed of the first game (default: 0)")
    add_set(sub, "choose an option's value")
    add_data(sub)
    sub.add_argument(
        "--policy",
        action="append",
        metavar="P",
        help="the policy every seat plays by, given once; repeat it to give each seat its own, in seat order "
        "(default: random)",
    )
    sub.add_argument(
        "--games", type=at_least(1), default=DEFAULT_GAMES, help=f"games per reading (default: {DEFAULT_GAMES})"
    )
    sub.add_argument(
        "--max-steps",
        type=at_least(1),
        default=DEFAULT_MAX_STEPS,
        metavar="N",
        help=f"the step cap: a game cut by it is a timeout (default: {DEFAULT_MAX_STEPS})",
    )
    where = sub.add_mutually_exclusive_group()
    where.add_argument("--workers", type=at_least(1), default=1, metavar="N", help="local processes (default: 1)")
    where.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="play on the Dask scheduler at ADDRESS (needs rulecheck[dask]; default: local processes)",
    )
    sub.add_argument(
        "--plot",
        metavar="FILE",
        help="write a picture of the figures (.png or .svg; needs rulecheck[draw]; default: none)",
    )
    sub.add_argument(
        "--readings", action="store_true", help="also play every other value of every option and test the difference"
    )
