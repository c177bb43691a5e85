"""The commands that compute what a rulebook comes to: `prove`, `symbolic-compare`,
`contradictions` and `table`.

Models: presentation of each invariant proved or refuted by Z3 (with its concrete trace), where
the engine's guards and effects part between two readings, which rulebook statements cannot
all hold, and a table the engine computes (odds, counts, searches).

Leaves out: the prover, the symbolic systems, the statements and the tables (rulecheck/check/proofs/,
the game's declaration).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from rulecheck.check.proofs.contradictions import ask
from rulecheck.check.proofs.game_proofs import WITNESS_GAMES, prove_game
from rulecheck.check.proofs.prove import PROVED
from rulecheck.check.proofs.symbolic_readings import DEPTH, divergences
from rulecheck.check.search.readings import reading_labels
from rulecheck.cli.args import at_least, path_named, writable_folder
from rulecheck.cli.progress import progress_bar
from rulecheck.cli.shared import EXIT_FAILED, add_game_setup, command, game_from, print_json
from rulecheck.core.exact import readable
from rulecheck.core.options import parse_assignments
from rulecheck.core.words import counted
from rulecheck.registry import DECLARATIONS, declaration, make_game


def _prove(args: argparse.Namespace) -> int:
    folder = writable_folder(args.traces) if args.traces is not None else None
    game = game_from(args)
    with progress_bar(f"prove {game.name}: systems", args.json) as progress:
        proofs = prove_game(game, args.seed, args.witness_games, progress)
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
        for proof in proofs:
            if proof.witness is not None:
                proof.witness.save(folder / f"{proof.result.property.replace(' ', '-')}.json")
    if args.json:
        print_json({"setup": game.setup, "results": [p.to_data() for p in proofs]})
    else:
        for p in proofs:
            r = p.result
            note = "" if p.promised else "  (not promised under these options)"
            print(f"{r.status:8} {r.seconds:6.3f}s  {r.basis:10}  {r.property} [{', '.join(r.clauses)}]{note}")
            if r.counterexample is not None:
                print(f"    induction fails at step {r.counterexample['step']}")
            if r.run is not None:
                print(f"    reachable in {counted(len(r.run) - 1, 'step')}: {' -> '.join(s['step'] for s in r.run)}")
            if p.witness is not None:
                print(f"    concrete trace: {counted(len(p.witness.actions), 'action')}")
            for mismatch in p.refinement_mismatches[:3]:
                print(f"    refinement mismatch: {mismatch}")
    failed = [p for p in proofs if p.promised and p.result.status != PROVED]
    return EXIT_FAILED if failed else 0


def _symbolic_compare(args: argparse.Namespace) -> int:
    """Where the engine's guards and effects part between the game's options and those with
    `--variant` applied over them, by Z3 on each symbolic system both declare."""
    base = game_from(args)
    variant = make_game(
        base.name, base.players, dict(base.options.text) | parse_assignments(args.variant), data=args.data
    )
    declared = declaration(base.name)
    found = divergences(declared.symbolic_systems(base), declared.symbolic_systems(variant))
    labels = reading_labels(base, variant)
    if args.json:
        print_json(
            {"setup": base.setup, "variant": dict(variant.options.text), "divergences": [d.to_data() for d in found]}
        )
    else:
        for parted in found:
            print(f"parts: {parted.describe(labels.base, labels.variant)} [{', '.join(parted.clauses)}]")
            print(f"    run: {' -> '.join(step['step'] for step in parted.run)}")
        if not found:
            print(f"no symbolic system parts {labels.base} from {labels.variant} within {DEPTH} steps")
    return 0


def _contradictions(args: argparse.Namespace) -> int:
    facts = declaration(args.game).statement_set(game_from(args))
    answers = ask(facts)
    if args.json:
        print_json(
            {
                "game": args.game,
                "statements": [
                    {"id": s.id, "clauses": list(s.clauses), "text": s.text, "reading": s.reading}
                    for s in facts.statements()
                ],
                "answers": [a.to_data() for a in answers],
            }
        )
    else:
        worded = {s.id: s for s in facts.statements()}
        for a in answers:
            if a.consistent:
                print(f"consistent    {a.title}; witness: {json.dumps(a.witness)}")
                continue
            print(f"CONTRADICTION {a.title}: {', '.join(a.core)} cannot all hold [{', '.join(a.clauses)}]")
            for name in a.core:
                said = worded[name]
                print(f"    {name} [{', '.join(said.clauses)}]: {said.text}")
    return 0


def _table_names() -> str:
    """Each game's tables by name, for `table --help`."""
    listed = [f"{name}: {', '.join(sorted(d.tables))}" for name, d in sorted(DECLARATIONS.items()) if d.tables]
    return "; ".join(listed)


def _table(args: argparse.Namespace) -> int:
    game = game_from(args)
    with progress_bar(f"table {args.game} {args.name}", args.json) as progress:
        table = declaration(args.game).table(args.name, game, progress)
    if args.json:
        print_json(table.to_data() | {"shows": [{"predicate": name, "seen": seen} for name, seen in table.shows()]})
    else:
        print(f"{table.title} [{', '.join(table.clauses)}]")
        rows = [table.columns, *(tuple(map(readable, row)) for row in table.rows)]
        widths = [max(len(str(row[i])) for row in rows) for i in range(len(table.columns))]
        for row in rows:
            print("  ".join(str(v).ljust(w) for v, w in zip(row, widths)).rstrip())
        for name, seen in table.shows():
            print(f"shows ({name}): {seen}")
    return 0


def add_commands(commands: Any) -> None:
    """`prove`, `symbolic-compare`, `contradictions` and `table`, on the command's sub-parsers."""
    prove_ = command(commands, "prove", _prove, "prove each invariant with Z3, or refute it with a bounded run")
    add_game_setup(prove_)
    prove_.add_argument(
        "--witness-games",
        type=at_least(0),
        default=WITNESS_GAMES,
        help="random games to search for each refutation's concrete trace when its symbolic system has none, "
        f"0 to search none (default: {WITNESS_GAMES})",
    )
    prove_.add_argument(
        "--traces",
        type=path_named,
        metavar="DIR",
        help="write each refutation's concrete trace to this folder (default: write none)",
    )

    symbolic = command(
        commands,
        "symbolic-compare",
        _symbolic_compare,
        "where the engine's guards and effects part between two readings, by Z3 on the symbolic systems",
    )
    add_game_setup(symbolic, seed=False)
    symbolic.add_argument(
        "--variant",
        action="append",
        required=True,
        metavar="NAME=VALUE",
        help="an option value of the other reading (repeat it for several options)",
    )

    contradictions = command(
        commands, "contradictions", _contradictions, "rulebook statements that cannot all hold, with unsat cores"
    )
    add_game_setup(contradictions, seed=False)

    table = command(commands, "table", _table, "a table the engine computes about a rulebook (odds, counts, searches)")
    add_game_setup(table, seed=False)
    table.add_argument("name", help=f"the table: {_table_names()}")
