"""No function under rulecheck/cli is over 80 lines: the command is split into a module per group
of commands, each registering its own sub-commands, so no one function builds the whole parser.
Functions are read with `ast` (nested ones too), and the check is shown to fail on a synthetic one."""

import ast
from pathlib import Path

CLI = Path(__file__).resolve().parents[1] / "rulecheck" / "cli"
MOST_LINES = 80


def long_functions(path: str, source: str, most: int = MOST_LINES) -> list[str]:
    """`path:line: name is N lines` for every function or method in `source` longer than `most`
    lines, from its `def` (or first decorator) to its last line."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            size = (node.end_lineno or node.lineno) - first + 1
            if size > most:
                found.append(f"{path}:{first}: {node.name} is {size} lines")
    return found


def test_the_walk_reads_every_module_of_the_command():
    names = {path.name for path in CLI.glob("*.py")}
    assert {"__init__.py", "shared.py", "suites.py", "scenarios.py"} <= names


def test_no_function_under_rulecheck_cli_is_over_80_lines():
    problems = [
        problem
        for path in sorted(CLI.rglob("*.py"))
        for problem in long_functions(str(path.relative_to(CLI.parents[1])), path.read_text(encoding="utf-8"))
    ]
    assert problems == []


def test_the_check_reports_a_long_function_nested_or_not():
    body = "".join(f"    x{i} = {i}\n" for i in range(MOST_LINES - 1))
    assert long_functions("fake.py", f"def fits():\n{body}") == []
    over = long_functions("fake.py", f"def over():\n{body}    x = 0\n")
    assert over == [f"fake.py:1: over is {MOST_LINES + 1} lines"]
    inner = body.replace("    ", "            ") + "            x = 0\n"
    nested = f"class C:\n    @staticmethod\n    def outer():\n        def inner():\n{inner}"
    assert long_functions("fake.py", nested) == [
        f"fake.py:2: outer is {MOST_LINES + 3} lines",
        f"fake.py:4: inner is {MOST_LINES + 1} lines",
    ]
