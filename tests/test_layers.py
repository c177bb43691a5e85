"""Imports point down the layers of docs/kernel.md: every module's imports, read with `ast`, and
a checker that is shown to fail on a synthetic module that imports upwards."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAME = "<game>"
"""In the table, stands for each game's package."""
FOLDERS = {"rulecheck": "rulecheck", "properties": "rulecheck.properties", "specs": "rulecheck.specs", "bench": "bench"}
"""Each folder read, and the package it is shipped as."""
OURS = {"rulecheck", "bench", "tests", "properties", "specs"}
"""Top-level names an import of our own code starts with (a third-party import is not checked)."""
NAMESPACE = "rulecheck"
"""The root package: in no layer, and it imports nothing of ours but the bottom layer (it runs
the guard on compiled modules, rulecheck.core.native, before any other module loads)."""


def layer_table(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """(layer, packages) for each row of the table under "## Layers", bottom row first."""
    section = text.split("\n## Layers\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")][2:]
    table = []
    for row in rows:
        layer, packages, _ = (cell.strip() for cell in row.strip("|").split("|"))
        table.append((layer, tuple(re.findall(r"`([^`]+)`", packages))))
    return table


LAYERS = layer_table((ROOT / "docs" / "kernel.md").read_text(encoding="utf-8"))


def unit(module: str, layers: list[tuple[str, tuple[str, ...]]]) -> tuple[int, str, str] | None:
    """(row, layer, package) of the package of the table that holds `module`, the most specific
    one; `<game>` makes each game's package its own. None when no package of the table holds it."""
    found = []
    for row, (layer, packages) in enumerate(layers):
        for package in packages:
            if package.endswith(f".{GAME}"):
                base = package[: -len(GAME) - 1]
                if module.startswith(f"{base}."):
                    found.append((row, layer, f"{base}.{module[len(base) + 1 :].split('.')[0]}"))
            elif module == package or module.startswith(f"{package}."):
                found.append((row, layer, package))
    return max(found, key=lambda f: len(f[2])) if found else None


def imported_modules(module: str, is_package: bool, source: str, known: set[str]) -> list[tuple[int, str]]:
    """(line, module) for every import of our own code anywhere in `source`, at module level or
    inside functions; a relative import resolved against `module`, and `from X import y` read as
    X.y when that is a module."""
    package = module if is_package else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        found += [(node.lineno, name) for name in dict.fromkeys(names) if name.split(".")[0] in OURS]
    return found


def violations(
    path: str, module: str, is_package: bool, source: str, known: set[str], layers: list[tuple[str, tuple[str, ...]]]
) -> list[str]:
    """Every import in `source` that points up or across the layers, or at code in no layer."""
    importer = unit(module, layers)
    problems = []
    for line, name in imported_modules(module, is_package, source, known):
        target = unit(name, layers)
        where = f"{path}:{line}: {module} imports {name}"
        if importer is None:
            if module == NAMESPACE and target is not None and target[0] == 0:
                continue
            problems.append(f"{where}, but {module} is in no layer")
        elif target is None:
            problems.append(f"{where}, which is in no layer")
        elif target[0] > importer[0]:
            problems.append(f"{where}: up from {importer[1]} to {target[1]}")
        elif target[0] == importer[0] and target[2] != importer[2]:
            problems.append(f"{where}: across {importer[1]}, from {importer[2]} to {target[2]}")
    return problems


def our_modules() -> list[tuple[Path, str, bool]]:
    """(file, module, whether it is a package's __init__) for every module we ship or bench."""
    found = []
    for folder, package in FOLDERS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            is_package = parts[-1] == "__init__"
            found.append((path, ".".join((package, *parts[: -1 if is_package else None])), is_package))
    return found


MODULES = our_modules()
KNOWN = {module for _, module, _ in MODULES}


def test_the_table_names_the_layers_bottom_first():
    assert [layer for layer, _ in LAYERS] == [
        "core",
        "model, geometry",
        "games",
        "properties",
        "registry",
        "check: running, play, watch",
        "check: positions",
        "check: search",
        "check: proofs, report",
        "check: campaign",
        "suite",
        "cli, bench",
    ]
    assert unit("rulecheck.games.globetrotter.game", LAYERS) == (2, "games", "rulecheck.games.globetrotter")


def test_every_module_is_in_a_layer():
    outside = [module for _, module, _ in MODULES if module != NAMESPACE and unit(module, LAYERS) is None]
    assert outside == []


def test_imports_point_down_the_layers():
    problems = [
        problem
        for path, module, is_package in MODULES
        for problem in violations(
            str(path.relative_to(ROOT)), module, is_package, path.read_text(encoding="utf-8"), KNOWN, LAYERS
        )
    ]
    assert problems == []


def _problems(module, source, is_package=False):
    return violations("fake.py", module, is_package, source, KNOWN, LAYERS)


def test_the_checker_reports_an_upward_import_with_file_line_and_module():
    source = '"""A model module that reaches up."""\n\n\ndef f():\n    from rulecheck.check.proofs import prove\n'
    [problem] = _problems("rulecheck.model.fake", source)
    assert problem == (
        "fake.py:5: rulecheck.model.fake imports rulecheck.check.proofs.prove: "
        "up from model, geometry to check: proofs, report"
    )


def test_the_checker_reports_imports_across_a_row_and_resolves_relative_ones():
    assert _problems("rulecheck.geometry.fake", "import rulecheck.model.proof\n") == [
        "fake.py:1: rulecheck.geometry.fake imports rulecheck.model.proof: "
        "across model, geometry, from rulecheck.geometry to rulecheck.model"
    ]
    [across] = _problems("rulecheck.games.other.fake", "from ..globetrotter import counters\n")
    assert "imports rulecheck.games.globetrotter.counters: across games" in across
    [up] = _problems("rulecheck.games.globetrotter", "from ...check.proofs.prove import prove\n", is_package=True)
    assert "imports rulecheck.check.proofs.prove: up from games to check" in up
    [stray] = _problems("rulecheck.check.fake", "from tests.fixtures.pig import Pig\n")
    assert stray.endswith("which is in no layer")


def test_the_checker_allows_its_own_package_and_the_rows_below():
    source = "from rulecheck.core.game import Game\nfrom . import fuzz\nimport rulecheck.registry\nimport z3\n"
    assert _problems("rulecheck.check.fake", source) == []


def test_the_root_package_may_import_the_bottom_layer_only():
    assert _problems(NAMESPACE, "from rulecheck.core.native import guard\n", is_package=True) == []
    [up] = _problems(NAMESPACE, "from rulecheck.check.proofs import prove\n", is_package=True)
    assert up.endswith("but rulecheck is in no layer")
