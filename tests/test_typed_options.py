"""Options are typed: every game's rules, tables and properties read an option as a member of its
enum, never as text. mypy rejects a mistyped value or a comparison with text in a game module,
and no module of a registered game or its properties compares an option's value as a string
literal (read with `ast`, for every value each game declares)."""

import ast
import importlib
import sys
from pathlib import Path

import pytest
from mypy import api

from rulecheck.games.globetrotter.options import Removal
from rulecheck.geometry.planet import REMOVALS
from rulecheck.registry import DECLARATIONS

ROOT = Path(__file__).resolve().parents[1]


def _mypy(source: str, tmp_path: Path) -> str:
    """What mypy says of `source`, run in this process; the recursion limit, which mypy raises to
    16,384 and leaves there, is put back (the JSON readers' depth check leans on it: a later test
    of this worker would see it)."""
    module = tmp_path / "reads_an_option.py"
    module.write_text(source, encoding="utf-8")
    limit = sys.getrecursionlimit()
    try:
        out, err, _ = api.run(
            [
                "--config-file",
                str(ROOT / "pyproject.toml"),
                "--follow-imports=silent",
                "--cache-dir",
                str(tmp_path / "cache"),
                str(module),
            ]
        )
    finally:
        sys.setrecursionlimit(limit)
    return out + err


READ = """
from rulecheck.games.mechanica.options import HoleCapacity, MechanicaOptions


def unlimited(options: MechanicaOptions) -> bool:
    return {}
"""


def test_mypy_rejects_a_mistyped_option_value_and_a_comparison_with_text(tmp_path):
    assert "Success" in _mypy(READ.format("options.hole_capacity is HoleCapacity.UNLIMITED"), tmp_path)
    mistyped = _mypy(READ.format("options.hole_capacity is HoleCapacity.UNLIMTED"), tmp_path)
    assert 'has no attribute "UNLIMTED"' in mistyped
    as_text = _mypy(READ.format('options.hole_capacity == "unlimited"'), tmp_path)
    assert "Non-overlapping equality check" in as_text


def _game_modules(name: str) -> list[Path]:
    """The source files of the game `name`: its package and its properties module."""
    game = DECLARATIONS[name].game
    package = Path(importlib.import_module(game.__module__.rpartition(".")[0]).__file__ or "").parent
    properties = ROOT / "properties" / f"{package.name}.py"
    return sorted(package.glob("*.py")) + ([properties] if properties.exists() else [])


def text_comparisons(source: str, values: set[str]) -> list[tuple[int, str]]:
    """(line, code) of each comparison with a string literal that is one of `values`, and of each
    read of an option by its name as text (`options["name"]`)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            # `x == "a"` and `x in ("a", "b")` compare x with text; `"a" in document` asks for a key.
            equal = [o for o in operands if not any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops)]
            members = [e for o in node.comparators if isinstance(o, (ast.Tuple, ast.Set, ast.List)) for e in o.elts]
            if any(isinstance(lit, ast.Constant) and lit.value in values for lit in equal + members):
                found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.Subscript) and ast.unparse(node.value).endswith("options"):
            if isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
                found.append((node.lineno, ast.unparse(node)))
    return found


@pytest.mark.parametrize("name", sorted(DECLARATIONS))
def test_no_game_module_compares_an_option_value_as_text(name):
    values = {v for option in DECLARATIONS[name].game.option_space.options for v in option.values}
    found = [
        f"{path.relative_to(ROOT)}:{line}: {code}"
        for path in _game_modules(name)
        for line, code in text_comparisons(path.read_text(encoding="utf-8"), values)
    ]
    assert found == []


def test_the_text_comparison_check_finds_what_it_looks_for():
    source = (
        'a = rules.options["damage"]\nb = reading == "space-any"\nc = mode in ("one", "x")\nd = kind == "other"\n'
        'e = "one" in document\nf = mode not in ("one",)\n'
    )
    assert [line for line, _ in text_comparisons(source, {"space-any", "one"})] == [1, 2, 3, 6]


def test_the_removal_readings_are_the_planets_removals():
    assert [r.value for r in Removal] == list(REMOVALS)
