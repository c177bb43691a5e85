"""Which engine modules run compiled, and the guard that runs them compiled only when the build is
of their present source.

Models: the engine modules that play every step (NATIVE_MODULES) can be compiled to C extension
modules with mypyc (`python -m rulecheck.core.native_build`, which `make` runs). The source stays
the single definition of the rules; the compiled build is the same code made faster, and Python
runs it only while it is exactly the build of the source files beside it. The build writes the
sha256 of each module's source to BUILD_RECORD; when any source differs from its record (an edit
since the build), or the record is missing, or RULECHECK_PURE=1 is set, every module of the
group loads from its source, and so does a module the last build compiled that the list has
dropped since (its compiled file stays until the next build removes it). The group goes as a
whole because compiled modules call one another's compiled functions directly, so one stale
module would leak old rules into the rest.

Leaves out: building (native_build.py), and modules outside NATIVE_MODULES, which run from
source (once a build without them has removed their compiled files).
"""

from __future__ import annotations

import ast
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Final

NATIVE_MODULES: Final = (
    "rulecheck.check.play.playthrough",
    "rulecheck.check.watch.property_checks",
    "rulecheck.core.clauses",
    "rulecheck.core.evolve",
    "rulecheck.core.game",
    "rulecheck.core.ops",
    "rulecheck.games.globetrotter.board",
    "rulecheck.games.globetrotter.combat",
    "rulecheck.games.globetrotter.construction",
    "rulecheck.games.globetrotter.context",
    "rulecheck.games.globetrotter.game",
    "rulecheck.games.globetrotter.movement",
    "rulecheck.games.globetrotter.setup",
    "rulecheck.games.globetrotter.state",
    "rulecheck.games.globetrotter.symmetry",
    "rulecheck.games.globetrotter.turns",
    "rulecheck.games.globot_time_force.context",
    "rulecheck.games.globot_time_force.costs",
    "rulecheck.games.globot_time_force.game",
    "rulecheck.games.globot_time_force.setup",
    "rulecheck.games.globot_time_force.skills",
    "rulecheck.games.globot_time_force.state",
    "rulecheck.games.globot_time_force.tableau",
    "rulecheck.games.globot_time_force.timeline",
    "rulecheck.games.globot_time_force.turns",
    "rulecheck.games.mechanica.anytime",
    "rulecheck.games.mechanica.blueprints",
    "rulecheck.games.mechanica.game",
    "rulecheck.games.mechanica.money",
    "rulecheck.games.mechanica.pieces",
    "rulecheck.games.mechanica.recycling",
    "rulecheck.games.mechanica.rules",
    "rulecheck.games.mechanica.run",
    "rulecheck.games.mechanica.setup",
    "rulecheck.games.mechanica.shop",
    "rulecheck.games.mechanica.state",
    "rulecheck.games.mechanica.steps",
    "rulecheck.games.mechanica.workday",
    "rulecheck.properties.globetrotter",
    "rulecheck.properties.globot_time_force",
    "rulecheck.properties.mechanica",
)
"""The modules compiled: every game's engine (listing, checks and effects, the most of a step,
by the profile) and its state classes, the kernel's protocol, clause counting, boolean ops and
state evolving it calls on every step, seeded random play, the checks' choice of the properties
a step may have changed, and every game's properties (run on every step of a watched run;
rulecheck.properties, which a checkout keeps in properties/). A compiled class keeps only erased
annotations at run time (`tuple` for `tuple[Rover, ...]`), so the codec reads a compiled state
class's field types from its source (`declared_annotations`). Left out, in every game: the
predicates that the engine and the prover share (`counters`), which a mutation check replaces to
see a proof fail, and a compiled caller would not see the replacement; and what runs once per
game or per check rather than per step (geometry, data sets, positions, pictures, symbolic
models)."""

GROUP: Final = "rulecheck.core.compiled"
"""mypyc's group name: the compiled code of every module lives in one shared library,
`rulecheck/core/compiled__mypyc.*.so`, and each module is a small extension that loads it."""

PURE_ENV: Final = "RULECHECK_PURE"
"""Set to 1 to run every module from its source even where a fresh build exists."""

PACKAGE_ROOT: Final = Path(__file__).resolve().parents[1]
BUILD_RECORD: Final = PACKAGE_ROOT / "core" / "native-build.json"
"""What the last build compiled: each module's name with the sha256 of the source it was built from."""


@cache
def package_folder(package: str) -> Path:
    """Where the modules of `package` are (found without running the package's own code: a
    package may live outside rulecheck/, as rulecheck.properties does in a checkout)."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(f"no package {package}")
    return Path(next(iter(spec.submodule_search_locations)))


def source_path(module: str) -> Path:
    """The source file of `module`, one of NATIVE_MODULES."""
    package, _, name = module.rpartition(".")
    return package_folder(package) / f"{name}.py"


def source_digests(modules: Sequence[str] = NATIVE_MODULES) -> dict[str, str]:
    """Each module's name with the sha256 of its source as it is now."""
    return {m: hashlib.sha256(source_path(m).read_bytes()).hexdigest() for m in modules}


def recorded_digests() -> dict[str, str] | None:
    """The digests the last build recorded, or None when there is no readable record."""
    try:
        found = json.loads(BUILD_RECORD.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None


def build_is_fresh() -> bool:
    """Whether the last build was of exactly the present sources."""
    return recorded_digests() == source_digests()


def wanted_compiled() -> bool:
    """Whether the compiled build is to be used: it is fresh and RULECHECK_PURE is not set."""
    return os.environ.get(PURE_ENV, "") != "1" and build_is_fresh()


def declared_annotations(cls: type) -> dict[str, str] | None:
    """The annotations of the body of `cls`, a top-level class, as its source writes them, when its
    module runs compiled: mypyc keeps only erased ones at run time (`tuple` for `tuple[Rover, ...]`),
    and the guard holds the source to what was compiled. None for a class that runs from source,
    whose own annotations stand."""
    module = sys.modules.get(cls.__module__)
    if cls.__module__ not in NATIVE_MODULES or str(getattr(module, "__file__", "")).endswith(".py"):
        return None
    return _written_annotations(cls.__module__)[cls.__qualname__]


@cache
def _written_annotations(module: str) -> dict[str, dict[str, str]]:
    """Each top-level class of `module`'s source with the annotations of its body, as written."""
    tree = ast.parse(source_path(module).read_text(encoding="utf-8"))
    return {
        node.name: {
            line.target.id: ast.unparse(line.annotation)
            for line in node.body
            if isinstance(line, ast.AnnAssign) and isinstance(line.target, ast.Name)
        }
        for node in tree.body
        if isinstance(node, ast.ClassDef)
    }


def built_modules() -> frozenset[str]:
    """Every module that may have a compiled file beside its source: NATIVE_MODULES, and the
    modules the last build recorded (one since dropped from the list keeps its compiled file
    until the next build, which removes it)."""
    return frozenset(NATIVE_MODULES) | frozenset(recorded_digests() or ())


class _FromSource(importlib.abc.MetaPathFinder):
    """Finds `modules` as their source files, ahead of any compiled build beside them."""

    def __init__(self, modules: frozenset[str] = frozenset(NATIVE_MODULES)) -> None:
        self.modules = modules

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.modules:
            return None
        source = source_path(fullname)
        return importlib.util.spec_from_file_location(fullname, source) if source.is_file() else None


def guard() -> None:
    """Unless the compiled build is wanted, make every module that may have a compiled file load
    from its source. Called once, when the rulecheck package is imported, before any of those
    modules is."""
    if any(isinstance(finder, _FromSource) for finder in sys.meta_path):
        return
    if not wanted_compiled():
        sys.meta_path.insert(0, _FromSource(built_modules()))


def running_compiled() -> dict[str, bool]:
    """Each native module with whether it runs compiled in this process (imported to find out)."""
    found = {}
    for module in NATIVE_MODULES:
        loaded = importlib.import_module(module)
        found[module] = not str(getattr(loaded, "__file__", "")).endswith(".py")
    return found


def status() -> str:
    """One line saying how the engine runs: compiled, or from source and why."""
    compiled = running_compiled()
    if all(compiled.values()):
        return f"compiled ({len(compiled)} modules, mypyc)"
    if os.environ.get(PURE_ENV, "") == "1":
        why = f"{PURE_ENV}=1"
    elif recorded_digests() is None:
        why = "no compiled build"
    elif not build_is_fresh():
        why = "the compiled build is older than the source"
    else:
        why = "the compiled build is incomplete"
    return f"from source ({why})"
