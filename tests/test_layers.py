"""Imports point down the layers of docs/kernel.md: every module's imports, and every module it
names in a string (for `importlib.import_module`, `python -m`, or an engine or a worker another
process loads), read with `ast`, and a checker that is shown to fail on synthetic modules that
import or name a module upwards."""

import ast
import re
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAME = "<game>"
"""In the table, stands for each game's package."""
FOLDERS = {"rulecheck": "rulecheck", "properties": "rulecheck.properties", "specs": "rulecheck.specs", "bench": "bench"}
"""Each folder read, and the package it is shipped as."""
OURS = {"rulecheck", "bench", "tests", "properties", "specs"}
"""Top-level names an import of our own code starts with (a third-party import is not checked)."""
_TOP = "|".join(sorted(OURS))
NAMED = re.compile(rf"(?:{_TOP})(?:\.[A-Za-z_]\w*)+(?::[A-Za-z_][\w.]*)?|(?:{_TOP}):[A-Za-z_][\w.]*")
"""A string that names a module of ours: a dotted path (`rulecheck.check.search.fuzz`, or one
ending in an attribute), or `module:attribute` (an engine or a worker's function to load)."""
NAMED_PREFIX = re.compile(rf"(?:{_TOP})(?:\.[A-Za-z_]\w*)*\.")
"""The constant start of an f-string that names a module of ours by a computed last part
(`f"rulecheck.games.{package}"` names a module of rulecheck.games)."""
DATA_READS = {"files"}
"""Calls whose string argument names a package for its data files, not its code
(`importlib.resources.files("rulecheck.specs")` reads the clause and audit files)."""
NAMING_ALLOWED = {
    "bench.mutation": (
        "rulecheck.cli",
        "runs the `rulecheck` command (`python -m rulecheck.cli`) on mutated copies of the code, each in a "
        "process of its own, as a user runs it: its command line, not its code",
    ),
}
"""Modules that may name, in a string, modules (the package given, and what it holds) their layer
could not import, and why. Their imports, and the other modules they name, are checked all the same."""
NAMESPACE = "rulecheck"
"""The root package: in no layer, and it imports nothing of ours but the bottom layer."""


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


def _named(text: str, known: set[str]) -> str:
    """The module a naming string names: the part before `:`, or the whole dotted path, or that
    path without its last part when that is a module and the last part one of its attributes."""
    if ":" in text:
        return text.partition(":")[0]
    if text not in known and text.rpartition(".")[0] in known:
        return text.rpartition(".")[0]
    return text


def named_modules(source: str, known: set[str]) -> list[tuple[int, str]]:
    """(line, module) for every module of ours that a string in `source` names (NAMED, or an
    f-string starting with NAMED_PREFIX), but for the argument of a data read (DATA_READS)."""
    tree = ast.parse(source)
    data = {
        id(arg)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and (node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)) in DATA_READS
        for arg in node.args
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in data:
            if NAMED.fullmatch(node.value):
                found.append((node.lineno, _named(node.value, known)))
        elif isinstance(node, ast.JoinedStr) and node.values and isinstance(first := node.values[0], ast.Constant):
            if isinstance(first.value, str) and NAMED_PREFIX.fullmatch(first.value):
                found.append((node.lineno, first.value.rstrip(".")))
    return found


def violations(
    path: str,
    module: str,
    is_package: bool,
    source: str,
    known: set[str],
    layers: list[tuple[str, tuple[str, ...]]],
    allowed: Mapping[str, tuple[str, str]] | None = None,
) -> list[str]:
    """Every import in `source` that points up or across the layers, or at code in no layer; and
    every module named in a string that does, or that is no module of ours, but for those
    `allowed` lets `module` name (its package, and what that holds)."""
    importer = unit(module, layers)
    problems = []
    imports = [(line, name, "imports") for line, name in imported_modules(module, is_package, source, known)]
    may_name = (allowed or {}).get(module, ("\0", ""))[0]
    names = [
        (line, name, "names")
        for line, name in named_modules(source, known)
        if name != may_name and not name.startswith(f"{may_name}.")
    ]
    for line, name, verb in imports + names:
        target = unit(name, layers)
        where = f"{path}:{line}: {module} {verb} {name}"
        if verb == "names" and name not in known:
            problems.append(f"{where}, which is no module of ours")
        elif importer is None:
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
        "check: search, balance",
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
            str(path.relative_to(ROOT)),
            module,
            is_package,
            path.read_text(encoding="utf-8"),
            KNOWN,
            LAYERS,
            NAMING_ALLOWED,
        )
    ]
    assert problems == []


def test_modules_are_named_in_strings_and_the_allowances_are_real_modules():
    """The walk sees the strings that name modules across processes (the reference engine's
    `module:attribute`, the benchmarks run as `python -m`), and each allowance is a module."""
    named = {
        module: {name for _, name in named_modules(path.read_text(encoding="utf-8"), KNOWN)}
        for path, module, _ in MODULES
    }
    assert "rulecheck.suite.reference" in named["rulecheck.suite.protocol"]
    assert "bench.memory" in named["bench.memory"]
    assert {"rulecheck.games", "rulecheck.cli", "rulecheck.suite.reference"} <= named["bench.mutation"]
    assert "rulecheck.specs" not in named["rulecheck.core.clauses"]  # a data read
    assert set(NAMING_ALLOWED) <= KNOWN
    assert {package for package, _ in NAMING_ALLOWED.values()} <= KNOWN


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
    assert _problems(NAMESPACE, "from rulecheck.core.errors import RuleGap\n", is_package=True) == []
    [up] = _problems(NAMESPACE, "from rulecheck.check.proofs import prove\n", is_package=True)
    assert up.endswith("but rulecheck is in no layer")


def test_the_checker_reports_modules_named_upwards_in_strings():
    source = (
        "import importlib\n"
        "ENGINE = 'rulecheck.suite.reference:ReferenceEngine'\n"
        "def load(name):\n"
        "    importlib.import_module('rulecheck.check.search.fuzz')\n"
        "    return importlib.import_module(f'rulecheck.games.{name}')\n"
    )
    assert _problems("rulecheck.model.fake", source) == [
        "fake.py:2: rulecheck.model.fake names rulecheck.suite.reference: up from model, geometry to suite",
        "fake.py:4: rulecheck.model.fake names rulecheck.check.search.fuzz: "
        "up from model, geometry to check: search, balance",
        "fake.py:5: rulecheck.model.fake names rulecheck.games: up from model, geometry to games",
    ]
    command = "import sys\nARGV = [sys.executable, '-m', 'rulecheck.cli', 'suite', 'replay']\n"
    [across] = _problems("bench.fake", command)
    assert across.endswith("names rulecheck.cli: across cli, bench, from bench to rulecheck.cli")
    [worker] = _problems("rulecheck.check.play.fake", "TASK = 'rulecheck.check.campaign.jobs.run_task'\n")
    assert "names rulecheck.check.campaign.jobs: up from check: running, play, watch to check: campaign" in worker


def test_the_checker_reports_a_string_naming_no_module_and_leaves_data_reads_and_prose_alone():
    [stale] = _problems("rulecheck.suite.fake", "ENGINE = 'rulecheck.check.fuzz:fuzz'\n")
    assert stale == "fake.py:1: rulecheck.suite.fake names rulecheck.check.fuzz, which is no module of ours"
    source = (
        "from importlib import resources\n"
        "SPECS = resources.files('rulecheck.specs')\n"
        "WHY = 'rulecheck.suite.openspiel needs open-spiel'\n"
        "def f(extra):\n"
        "    return f'rulecheck.suite.openspiel needs {extra}'\n"
    )
    assert _problems("rulecheck.core.fake", source) == []


def test_an_allowance_lets_a_module_name_what_it_could_not_import_but_not_import_it():
    source = "import importlib\nMODULES = ['rulecheck.games.globetrotter.game']\n"
    allowed = {"rulecheck.core.fake": ("rulecheck", "a list of every module, in every layer")}
    assert _problems("rulecheck.core.fake", source) != []
    assert violations("fake.py", "rulecheck.core.fake", False, source, KNOWN, LAYERS, allowed) == []
    imported = "from rulecheck.games.globetrotter import game\n"
    assert violations("fake.py", "rulecheck.core.fake", False, imported, KNOWN, LAYERS, allowed) != []
    cli_and_stale = "ARGV = ['-m', 'rulecheck.cli']\nTASK = 'rulecheck.check.jobs:run_task'\n"
    [other] = violations("fake.py", "bench.mutation", False, cli_and_stale, KNOWN, LAYERS, NAMING_ALLOWED)
    assert other == "fake.py:2: bench.mutation names rulecheck.check.jobs, which is no module of ours"
