"""`python -m rulecheck.core.native_build`: compile the engine's NATIVE_MODULES with mypyc, in place.

Models: one build of every module in native.NATIVE_MODULES, type-checked under the project's mypy
settings and compiled as one group; the extension modules are put beside their sources and,
last, the record of the sources they were built from (native.BUILD_RECORD), so that an
interrupted build leaves no record and the engine keeps running from source. Nothing is built
when the record already matches the sources. `--force` builds anyway.

Leaves out: wheels and other platforms (a build is for the Python that runs it); the guard that
decides at import time whether the build is used (native.py).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

from rulecheck.core import native

PROJECT_ROOT = native.PACKAGE_ROOT.parent
EXTENSION = ".so"
"""The suffix every compiled file of a build ends with (mypyc builds on POSIX here)."""
TREE = PROJECT_ROOT / "build" / "native-tree"
"""Where a build lays the package out as installed (`_laid_out_as_installed`); kept after the
build, as the compiled code's tracebacks name its files by their paths there."""


def _folders() -> set[Path]:
    """The folders a build writes to, or an earlier one wrote to: those of the compiled modules
    (the last build's too) and of the group's library."""
    packages = {m.rpartition(".")[0] for m in native.built_modules()} | {native.GROUP.rpartition(".")[0]}
    return {native.package_folder(p) for p in packages}


def compiled_files() -> list[Path]:
    """The compiled files there now: each module's extension, a module's that the last build
    compiled and the list has dropped since, and the group's library."""
    return sorted(p for folder in _folders() for p in folder.glob(f"*{EXTENSION}"))


def _laid_out_as_installed(root: Path) -> Path:
    """A tree of links under `root` where every module of rulecheck sits at its installed place
    (rulecheck.properties in rulecheck/properties/, though a checkout keeps it in properties/),
    so that mypyc, which names a module after its path, names each one as Python imports it."""
    package = root / native.PACKAGE_ROOT.name
    package.mkdir(parents=True)
    for entry in native.PACKAGE_ROOT.iterdir():
        (package / entry.name).symlink_to(entry)
    for module in native.NATIVE_MODULES:
        parent = module.rpartition(".")[0]
        folder = native.package_folder(parent)
        placed = root.joinpath(*parent.split("."))
        if not placed.exists():
            placed.symlink_to(folder, target_is_directory=True)
    return root


def build() -> list[Path]:
    """Compile NATIVE_MODULES into the package; the files written."""
    from mypyc.build import mypycify
    from setuptools import setup

    digests = native.source_digests()
    stale = compiled_files()  # found before the record goes, as it names the last build's modules
    native.BUILD_RECORD.unlink(missing_ok=True)
    for old in stale:
        old.unlink()
    config = str(PROJECT_ROOT / "pyproject.toml")
    shutil.rmtree(TREE, ignore_errors=True)
    tree = _laid_out_as_installed(TREE)
    paths = [str(tree.joinpath(*m.split(".")).with_suffix(".py")) for m in native.NATIVE_MODULES]
    with tempfile.TemporaryDirectory(prefix="rulecheck-native-") as work:
        here = os.getcwd()
        os.chdir(work)  # setuptools reads the project file of the directory it runs in: none here
        try:
            extensions = mypycify(
                ["--config-file", config, *paths], opt_level="3", group_name=native.GROUP, target_dir="c"
            )
            setup(
                name="rulecheck-native",
                script_args=["--quiet", "build_ext", "--build-lib", "lib", "--build-temp", "temp"],
                ext_modules=extensions,  # type: ignore[arg-type]  # mypyc types them as distutils or setuptools Extensions
            )
        finally:
            os.chdir(here)
        built = sorted(Path(work, "lib").rglob(f"*{EXTENSION}"))
        placed = []
        for path in built:
            inside = path.relative_to(Path(work, "lib"))
            target = native.package_folder(".".join(inside.parts[:-1])) / inside.name
            shutil.copyfile(path, target)
            placed.append(target)
    record = native.BUILD_RECORD.with_suffix(".tmp")
    record.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    record.replace(native.BUILD_RECORD)
    return placed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rulecheck.core.native_build", description=__doc__)
    parser.add_argument("--force", action="store_true", help="build even when the build is of the present sources")
    args = parser.parse_args(argv)
    if native.build_is_fresh() and not args.force:
        print(f"native build: up to date ({len(native.NATIVE_MODULES)} modules)")
        return 0
    placed = build()
    print(f"native build: {len(native.NATIVE_MODULES)} modules compiled, {len(placed)} files written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
