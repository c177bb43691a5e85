"""The packaging lists every package, and the clause catalogues ship with it."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_directory_is_listed_in_pyproject():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(init.parent.relative_to(ROOT).parts) for init in (ROOT / "rulecheck").rglob("__init__.py")}
    assert found | {"rulecheck.specs", "rulecheck.properties"} == listed


def test_every_spec_file_is_found_through_the_package():
    from importlib import resources

    shipped = {p.name for p in resources.files("rulecheck.specs").iterdir() if p.name.endswith(".toml")}
    assert shipped == {p.name for p in (ROOT / "specs").glob("*.toml")}
