"""The compiled engine modules: they play exactly as their source does, and run only while they are
the build of the present source."""

import ast
import json
import os
import subprocess
import sys

import pytest

from rulecheck.core import native

PLAYED = """
import hashlib
from rulecheck.check.play.playthrough import random_game
from rulecheck.check.watch.property_checks import failures
from rulecheck.core.codec import encode
from rulecheck.core.native import status
from rulecheck.registry import declaration, make_game

LEAP = 7
CASES = [
    ("globetrotter", 2, {}),
    ("globetrotter", 4, {"fortify_adjacency": "rover", "open_space": "friendly-fortification",
        "cap_scope": "this-planet"}),
    ("globetrotter", 6, {"planet_adjacency": "line", "damage": "die-value", "drill_hits": "rover-first",
        "shooting": "W4"}),
    ("globetrotter", 3, {"saved_point_use": "same-turn", "treasury_spend": "saved-first",
        "destroying_action": "excluded", "removal": "edge5", "orbit_moves": "descend-only", "shooter": "any-piece"}),
    ("globot-time-force", 1, {}),
    ("globot-time-force", 2, {"tableau_limit": "forced-discard", "tokens": "three-reservations"}),
    ("globot-time-force", 3, {"extra_turns": "all-at-once", "gear_payment": "change", "passives": "mandatory"}),
    ("mechanica", 2, {}),
    ("mechanica", 3, {"shop_rotation": "until-full", "hole_capacity": "unlimited", "game_end": "at-once"}),
]
digest = hashlib.sha256()
verdicts = 0
for name, players, options in CASES:
    game = make_game(name, players=players, options=options)
    properties = declaration(name).properties
    for seed in range(4):
        played = random_game(game, seed)
        states = played.states
        for i, (state, action) in enumerate(zip(states, played.actions)):
            digest.update("|".join(a.text for a in game.legal_actions(state)).encode())
            digest.update(action.text.encode())
            # every property on the step, and on a step that leaps LEAP states ahead, which few
            # properties let through: their verdicts, failures included, must agree too
            for after in (states[i + 1], states[min(i + LEAP, len(states) - 1)]):
                found = failures(game, properties, state, action, after)
                verdicts += len(found)
                digest.update(repr([(p.name, message) for p, message in found]).encode())
        digest.update(encode(states[-1]).encode())
print(status())
print(verdicts)
print(digest.hexdigest())
"""


def play(pure: bool) -> tuple[str, int, str]:
    """How the engine ran, how many property failures it found, and a digest of every legal-action
    list, action, end state and property verdict of 36 games of the three games under several
    option sets."""
    env = {k: v for k, v in os.environ.items() if k != native.PURE_ENV}
    if pure:
        env[native.PURE_ENV] = "1"
    done = subprocess.run([sys.executable, "-c", PLAYED], capture_output=True, text=True, env=env, check=True)
    how, verdicts, digest = done.stdout.split("\n")[:3]
    return how, int(verdicts), digest


@pytest.mark.skipif(not native.wanted_compiled(), reason="no compiled build of the present source (make builds it)")
def test_the_compiled_engine_plays_exactly_as_its_source():
    compiled, pure = play(pure=False), play(pure=True)
    assert compiled[0].startswith("compiled")
    assert pure[0] == f"from source ({native.PURE_ENV}=1)"
    assert compiled[1] > 100, "the leaps ahead must break properties for their verdicts to be compared"
    assert compiled[1:] == pure[1:]


def test_the_source_runs_when_pure_is_asked():
    env = {**os.environ, native.PURE_ENV: "1"}
    script = "import json; from rulecheck.core.native import running_compiled; print(json.dumps(running_compiled()))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    assert json.loads(done.stdout) == {m: False for m in native.NATIVE_MODULES}


def test_a_build_of_other_sources_is_not_fresh(tmp_path, monkeypatch):
    record = tmp_path / "native-build.json"
    monkeypatch.setattr(native, "BUILD_RECORD", record)
    assert not native.build_is_fresh()  # no record
    digests = native.source_digests()
    record.write_text(json.dumps(digests))
    assert native.build_is_fresh()
    edited = next(iter(digests))
    record.write_text(json.dumps({**digests, edited: "0" * 64}))
    assert not native.build_is_fresh()
    record.write_text("not json")
    assert not native.build_is_fresh()


def test_every_native_module_is_found_as_its_source_when_the_build_is_not_used():
    finder = native._FromSource()
    for module in native.NATIVE_MODULES:
        spec = finder.find_spec(module)
        assert spec is not None and spec.origin == str(native.source_path(module))
        assert native.source_path(module).is_file()
    assert finder.find_spec("rulecheck.check.play.strategies") is None


def test_a_module_the_last_build_compiled_and_the_list_dropped_runs_from_source_till_a_build_clears_it(
    tmp_path, monkeypatch
):
    """Its compiled file stays beside its source until the next build, and holds the group's old
    code: while the build is not of the present list, it loads from its source, and the next
    build looks for old files in its folder too (one no module of the list is in)."""
    from rulecheck.core import native_build

    dropped = "rulecheck.suite.format"
    folder = native.package_folder("rulecheck.suite")
    assert folder not in native_build._folders()
    record = tmp_path / "native-build.json"
    record.write_text(json.dumps({**native.source_digests(), dropped: "0" * 64}))
    monkeypatch.setattr(native, "BUILD_RECORD", record)
    assert dropped in native.built_modules() and not native.build_is_fresh()
    spec = native._FromSource(native.built_modules()).find_spec(dropped)
    assert spec is not None and spec.origin == str(native.source_path(dropped))
    assert folder in native_build._folders()


FIELD_TYPES = """
import attrs
from typing import get_args
from rulecheck.core.codec import field_types
from rulecheck.core.native import status
from rulecheck.registry import DECLARATIONS

seen, todo = {}, [d.game.state_type for d in DECLARATIONS.values()]
while todo:
    kind = todo.pop()
    if isinstance(kind, type) and attrs.has(kind) and kind not in seen:
        seen[kind] = field_types(kind)
        todo += [a for t in seen[kind].values() for a in (t, *get_args(t))]
    else:
        todo += get_args(kind)
print(status())
print(len(seen))
print(sorted((k.__module__, k.__qualname__, repr(v)) for k, v in seen.items()))
"""


@pytest.mark.skipif(not native.wanted_compiled(), reason="no compiled build of the present source (make builds it)")
def test_the_codec_reads_the_same_field_types_from_compiled_state_classes_as_from_their_source():
    """A compiled class keeps erased annotations (`tuple` for `tuple[Rover, ...]`); the codec's
    types for every attrs class inside every game's state are those the source declares."""
    found = {}
    for pure in (False, True):
        env = {k: v for k, v in os.environ.items() if k != native.PURE_ENV} | ({native.PURE_ENV: "1"} if pure else {})
        done = subprocess.run([sys.executable, "-c", FIELD_TYPES], capture_output=True, text=True, env=env, check=True)
        found[pure] = done.stdout.split("\n")[:3]
    assert found[False][0].startswith("compiled") and found[True][0].startswith("from source")
    assert int(found[False][1]) >= 8  # the three states and the pieces, players and factories inside them
    assert found[False][1:] == found[True][1:]
    assert "tuple[rulecheck.games.globetrotter.state.Rover, ...]" in found[False][2]


def test_a_class_that_runs_from_source_keeps_its_own_annotations():
    from rulecheck.core.trace import Trace

    assert native.declared_annotations(Trace) is None


def _decorators(source: str) -> set[str]:
    """The name of every decorator in `source` (`functools.cached_property` as `cached_property`)."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        for decorator in getattr(node, "decorator_list", []):
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            found.add(target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", ""))
    return found


def test_no_compiled_module_uses_cached_property():
    """mypyc compiles a `cached_property` into a plain property that works its value out again on
    every read (the kernel's action numberings were rebuilt on every action id, which made
    OpenSpiel play 60 times slower): a compiled module keeps such values by hand."""
    assert "cached_property" in _decorators(
        "from functools import cached_property\nclass C:\n    @cached_property\n    def x(self): ..."
    )
    users = [m for m in native.NATIVE_MODULES if "cached_property" in _decorators(native.source_path(m).read_text())]
    assert users == []


def test_a_game_numbers_its_actions_once():
    from rulecheck.registry import make_game

    game = make_game("globetrotter", players=2)
    numbered = game._numberings()
    action = game.parse_action("pass")
    assert game.action_from_id(game.action_id(action)) == action
    assert all(again is first for again, first in zip(game._numberings(), numbered))  # the very same, kept
