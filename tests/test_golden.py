"""Each game's golden file replays step for step: the engine's behaviour is what was pinned.

A mismatch names the setting, the step and what differs; after a deliberate behaviour
change, bump the game's version and regenerate (`python -m tests.golden_record GAME`).
"""

import json

import pytest

from rulecheck.core.trace import digest
from rulecheck.registry import make_game
from tests.golden_record import GOLDEN_DIR, SETTINGS, observe


def _settings(name):
    header, steps = None, []
    for line in (GOLDEN_DIR / f"{name}.jsonl").read_text(encoding="ascii").splitlines():
        record = json.loads(line)
        if "game" in record:
            if header is not None:
                yield header, steps
            header, steps = record, []
        else:
            steps.append(record)
    if header is not None:
        yield header, steps


@pytest.mark.parametrize("name", sorted(SETTINGS))
def test_golden_file_replays(name):
    pinned = list(_settings(name))
    assert len(pinned) == len(SETTINGS[name])
    for header, steps in pinned:
        game = make_game(name, header["players"], header["options"])
        where = f"{name} {header['players']}p seed {header['seed']}"
        assert game.version == header["version"], f"{where}: golden file is for version {header['version']}"
        assert header["steps"] == len(steps)
        state = game.initial_state()
        for index, step in enumerate(steps, start=1):
            expected = {k: v for k, v in step.items() if k not in ("action", "digest")}
            assert observe(game, state) == expected, f"{where}, step {index}: before {step['action']!r}"
            state = game.apply(state, game.parse_action(step["action"]))
            assert digest(game.encode_state(state)) == step["digest"], f"{where}, step {index}: {step['action']!r}"
