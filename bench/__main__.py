"""`python -m bench [--seconds S] [--json]`: every benchmark, printed or as one JSON object.

Run with `make bench`, which installs python-chess first.
"""

from __future__ import annotations

import argparse
import json

from bench import explore, play, proofs


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description="rulecheck benchmarks")
    parser.add_argument("--seconds", type=float, default=20.0, help="CPU-time budget for each side of the play race")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = {"play": play.measure(args.seconds), "proofs": proofs.measure(), "explore": explore.measure()}
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print("== random play")
    play.report(results["play"])
    print("== proofs")
    proofs.report(results["proofs"])
    print("== exploration")
    explore.report(results["explore"])


if __name__ == "__main__":
    main()
