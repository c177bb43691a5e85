"""Random play counted in machine instructions: a game's cost per step beside python-chess's,
free of the machine's noise.

`python -m bench.instructions [GAME] [--games N]` runs, each under `valgrind --tool=callgrind`,
N seeded random games of GAME (at its fewest campaign players, as play.py) and N seeded random
chess games (play.py's `chess_game`), and each side once more with no game counted; the
difference of the two counts over the steps played is the instructions per step with process
startup, imports, making the game and a first game (what is made on first use and then kept)
left out. The ratio of chess's figure to the game's follows the speed ratio play.py measures in
time only roughly, since an instruction of one program costs other time than one of another (at
174k instructions per step Globetrotter was 2.4x python-chess by count and 1.8x by time), but it
does not move with a busy or throttled machine, so it shows what a change to a game's code gains.

Leaves out: what callgrind cannot see (cache misses, branch mispredictions) counts for nothing;
the targets are judged by play.py's times.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

CHESS = "chess"
"""The name that plays python-chess rather than a registered game."""


WARM_UP_SEED = 1_000_000
"""The seed of the game each process plays before the games counted, whatever their number."""


def play(name: str, games: int) -> int:
    """Plays `games` seeded random games of `name` (or chess), seeds 0 to games - 1; their steps.
    Everything but those games is done first (the imports, the game, one game of WARM_UP_SEED, so
    that what is made on first use and then kept is made), so that a run of 0 games counts only that."""
    from bench import games as chosen
    from bench import play as timed
    from rulecheck.check.play.playthrough import random_game

    if name == CHESS:
        player = timed.chess_game
    else:
        game = chosen.campaign_game(name)

        def player(seed: int) -> int:
            return len(random_game(game, seed).actions)

    player(WARM_UP_SEED)
    return sum(player(seed) for seed in range(games))


def counted(name: str, games: int) -> tuple[int, int]:
    """The instructions callgrind counts for a process playing `games` games of `name`, and the steps."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        command = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            sys.executable,
            "-m",
            "bench.instructions",
            "--inner",
            name,
            "--games",
            str(games),
        ]
        run = subprocess.run(command, capture_output=True, text=True, check=True)
        found = re.search(r"^summary: (\d+)", out.read_text(encoding="utf-8"), re.MULTILINE)
        if found is None:
            raise RuntimeError(f"callgrind wrote no summary for {name}: {run.stderr[-500:]}")
        return int(found.group(1)), int(run.stdout.split()[-1])


def per_step(name: str, games: int) -> tuple[float, int]:
    """Instructions per step of `games` random games of `name`, startup subtracted; and the steps.
    A process outside callgrind imports everything first, so that neither count includes
    compiling a changed module's bytecode (the first process to import it would pay for that)."""
    warm = [sys.executable, "-m", "bench.instructions", "--inner", name, "--games", "0"]
    subprocess.run(warm, check=True, capture_output=True)
    total, steps = counted(name, games)
    startup, _ = counted(name, 0)
    return (total - startup) / steps, steps


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.instructions", description=__doc__.split("\n\n")[0])
    parser.add_argument("game", nargs="?", default="globetrotter")
    parser.add_argument("--games", type=int, default=10, help="seeded games on each side (default 10)")
    parser.add_argument("--inner", metavar="NAME", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.inner:
        print(play(args.inner, args.games))
        return
    ours, our_steps = per_step(args.game, args.games)
    theirs, their_steps = per_step(CHESS, args.games)
    print(f"{args.game}: {ours / 1000:.1f}k instructions per step ({args.games} games, {our_steps} steps)")
    print(f"python-chess: {theirs / 1000:.1f}k instructions per step ({args.games} games, {their_steps} steps)")
    print(f"ratio: {theirs / ours:.3f}x chess")


if __name__ == "__main__":
    main()
