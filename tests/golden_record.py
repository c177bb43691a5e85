"""Golden files: seeded games of each game pinned step by step, perft-style.

Models: for each game, a list of settings (player count, option values, seed, a leaning
policy); each setting plays one game from a seeded generator and records, at every
step, who moves, the sorted legal actions (at a chance node, the outcomes with their
exact probabilities), the action taken and the digest of the state after it. The file
`tests/golden/<game>.jsonl` holds one JSON line per setting, then one per step.
`tests/test_golden.py` replays every recorded action list and stops at the first step
where the engine disagrees, printing that step. A behaviour change therefore shows in
the diff of this file, and comes with a bump of the game's version.

Regenerate with `python -m tests.golden_record GAME` (it rewrites the whole file).

Leaves out: choosing good moves. A policy only leans: `uniform` picks any legal action,
`lean:<verb>,...` picks one of those verbs half the time they are offered, so that rare
rules (building, firing, raiding a Treasury) show up within a few hundred steps, and
`avoid:<verb>,...` takes those verbs only when nothing else is legal.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rulecheck.core.files import write_whole
from rulecheck.core.game import CHANCE, Game
from rulecheck.core.trace import digest
from rulecheck.registry import game_class, make_game

GOLDEN_DIR = Path(__file__).parent / "golden"
MAX_STEPS = 300


def other_values(game: type[Game[Any, Any]]) -> dict[str, str]:
    """Every option of `game` at its first value other than the default."""
    return {o.name: next(v for v in o.values if v != o.default) for o in game.option_space.options}


_ALL_SECOND = other_values(game_class("globetrotter"))
_BUILDERS = "lean:build,fortify,manufacture,save,ready,aim,fire,shoot,orbit,descend,transfer,repair avoid:decommission"

SETTINGS: dict[str, tuple[tuple[int, dict[str, str], int, str], ...]] = {
    "globetrotter": (
        (2, {}, 1, "uniform"),
        (2, {}, 2, _BUILDERS),
        (2, {}, 3, _BUILDERS),
        (3, {}, 4, _BUILDERS),
        (4, {}, 5, _BUILDERS),
        (5, {}, 6, "uniform"),
        (6, {}, 7, _BUILDERS),
        (2, _ALL_SECOND, 8, _BUILDERS),
        (4, _ALL_SECOND, 9, _BUILDERS),
        (2, {"removal": "ring14-edge", "shooting": "W2", "fortify_adjacency": "rover"}, 10, _BUILDERS),
        (2, {"removal": "ring14-hq", "shooting": "W3", "destroying_action": "excluded"}, 11, _BUILDERS),
        (2, {"removal": "ring14-snub", "shooting": "W4", "treasury_spend": "saved-first"}, 12, _BUILDERS),
        (6, {"planet_adjacency": "line", "cap_scope": "this-planet"}, 13, _BUILDERS),
    ),
    "globot-time-force": (
        (1, {}, 1, "uniform"),
        (2, {}, 2, "uniform"),
        (3, {}, 3, "uniform"),
        (5, {}, 4, "uniform"),
        (3, {"tokens": "assistant", "gear_payment": "change", "tableau_limit": "forced-discard"}, 5, "uniform"),
        (2, {"extra_turns": "all-at-once", "extra_turn_order": "consecutive", "charge": "expires"}, 6, "uniform"),
    ),
    "mechanica": (
        (1, {}, 1, "uniform"),
        (2, {}, 2, "uniform"),
        (3, {}, 3, "avoid:demolish"),
        (4, {}, 4, "avoid:demolish"),
        (2, other_values(game_class("mechanica")), 5, "avoid:demolish"),
        (3, {"shop_rotation": "until-full", "crowded_hole": "all-to-supply"}, 6, "uniform"),
    ),
}


def _choose(rng: random.Random, legal: tuple[Any, ...], policy: str) -> Any:
    parts = dict(part.split(":") for part in policy.split() if ":" in part)
    avoided = set(parts.get("avoid", "").split(","))
    legal = tuple(a for a in legal if a.verb not in avoided) or legal
    leaned = [a for a in legal if a.verb in set(parts.get("lean", "").split(","))]
    if leaned and rng.random() < 0.5:
        return rng.choice(leaned)
    return rng.choice(legal)


def observe(game: Game[Any, Any], state: Any) -> dict[str, Any]:
    mover = game.to_move(state)
    if mover == CHANCE:
        return {"to_move": mover, "chance": [[game.action_text(o), str(p)] for o, p in game.chance_outcomes(state)]}
    return {"to_move": mover, "legal": [game.action_text(a) for a in game.legal_actions(state)]}


def play(game: Game[Any, Any], seed: int, policy: str) -> Iterator[dict[str, Any]]:
    """The recorded steps of one seeded game."""
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(MAX_STEPS):
        if game.is_terminal(state):
            return
        step = observe(game, state)
        if "chance" in step:
            outcomes, weights = zip(*game.chance_outcomes(state))
            action = rng.choices(outcomes, weights=[float(w) for w in weights])[0]
        else:
            action = _choose(rng, game.legal_actions(state), policy)
        state = game.apply(state, action)
        yield {**step, "action": game.action_text(action), "digest": digest(game.encode_state(state))}


def lines(name: str) -> Iterator[str]:
    for players, options, seed, policy in SETTINGS[name]:
        game = make_game(name, players, options)
        steps = list(play(game, seed, policy))
        header = {**game.setup, "seed": seed, "policy": policy, "steps": len(steps)}
        yield json.dumps(header, sort_keys=True, separators=(",", ":"))
        for step in steps:
            yield json.dumps(step, sort_keys=True, separators=(",", ":"))


def write(name: str) -> Path:
    GOLDEN_DIR.mkdir(exist_ok=True)
    path = GOLDEN_DIR / f"{name}.jsonl"
    write_whole(path, "".join(line + "\n" for line in lines(name)))
    return path


if __name__ == "__main__":
    for game_name in sys.argv[1:] or sorted(SETTINGS):
        print(write(game_name))
