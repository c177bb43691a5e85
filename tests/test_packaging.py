"""The packaging lists every package, the clause catalogues and the scenarios ship with it, and the
user guide's test (tests/test_guide_readonly.py) lays out its install copy as pyproject.toml
ships the folders."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_directory_is_listed_in_pyproject():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(init.parent.relative_to(ROOT).parts) for init in (ROOT / "rulecheck").rglob("__init__.py")}
    assert found | {"rulecheck.specs", "rulecheck.properties", "rulecheck.scenarios"} == listed


def test_every_spec_file_is_found_through_the_package():
    from importlib import resources

    shipped = {p.name for p in resources.files("rulecheck.specs").iterdir() if p.name.endswith(".toml")}
    assert shipped == {p.name for p in (ROOT / "specs").glob("*.toml")}


def test_every_scenario_ships_as_package_data_and_the_guide_s_install_copy_lays_out_what_ships():
    from fnmatch import fnmatch

    from tests.test_guide_readonly import PACKAGE_PARTS

    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    scenarios = [p.relative_to(ROOT / "scenarios").as_posix() for p in (ROOT / "scenarios").rglob("*.toml")]
    assert scenarios and all(
        any(fnmatch(name, pattern) for pattern in setuptools["package-data"]["rulecheck.scenarios"])
        for name in scenarios
    )
    folders = {package: folder for package, folder in setuptools["package-dir"].items()}
    assert {folder: place.replace("/", ".") for folder, place in PACKAGE_PARTS.items()} == {
        folder: package for package, folder in folders.items()
    }
