"""No input becomes code: nothing under rulecheck/ calls eval or exec, or loads pickles, marshal
data or YAML (whose tags can build objects). Between its own worker processes the standard
library pickles tasks and outcomes; files and other processes' messages are JSON or TOML.
The scan, with `ast`, is shown to catch each call on a synthetic module."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CALLS = {"eval", "exec", "compile", "__import__"}
"""Built-in functions that run or build code from text."""
LOADERS = {"pickle", "cPickle", "dill", "marshal", "shelve", "yaml", "jsonpickle"}
"""Modules whose loaders build objects from their input; importing one at all is refused."""


def code_from_input(source: str) -> list[str]:
    """Each call of CALLS and each import of LOADERS in `source`, as `line: what`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in CALLS:
            found.append(f"{node.lineno}: {node.func.id}()")
        elif isinstance(node, ast.Import):
            found += [f"{node.lineno}: import {a.name}" for a in node.names if a.name.split(".")[0] in LOADERS]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in LOADERS:
            found.append(f"{node.lineno}: from {node.module} import")
    return found


def test_no_module_of_rulecheck_turns_input_into_code():
    modules = sorted((ROOT / "rulecheck").rglob("*.py")) + sorted((ROOT / "properties").rglob("*.py"))
    assert len(modules) > 50
    found = {str(path.relative_to(ROOT)): code_from_input(path.read_text()) for path in modules}
    assert {path: calls for path, calls in found.items() if calls} == {}


@pytest.mark.parametrize(
    "source",
    [
        "eval(text)",
        "exec(text)",
        "import pickle\npickle.loads(b)",
        "from yaml import load",
        "import marshal",
        "import yaml.constructor",
    ],
)
def test_the_scan_catches_each_way_of_running_input(source):
    assert code_from_input(source)
