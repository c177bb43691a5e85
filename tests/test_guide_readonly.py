"""The user guide's commands (docs/guide.md), as a user runs them with the installed tool: from a
folder outside the checkout, with rulecheck imported from a read-only copy laid out as an
installed package (the package, its specs, properties and scenarios inside it, as pyproject.toml
ships them) and nothing of the checkout in that folder: the guide's `scenarios/...` paths reach
the copy's shipped scenarios by name. Every command must print what the guide shows (the runner
of tests/docs_examples.py, in a process of its own that imports the copy), and nothing under
the copy, or the checkout's specs and scenarios, may change: no command writes into the
package or the checkout unless told to (`verify --ledgers DIR`).

Leaves out: the other pages' examples (tests/test_docs_examples.py runs them in the checkout's
environment) and commands the guide does not show.
"""

import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

from tests.docs_examples import ROOT, examples

GUIDE = ROOT / "docs" / "guide.md"

PACKAGE_PARTS = {
    "rulecheck": "rulecheck",
    "specs": "rulecheck/specs",
    "properties": "rulecheck/properties",
    "scenarios": "rulecheck/scenarios",
}
"""Each folder of the checkout, and where an installed package has it."""

RUNNER = """
import json, sys
from pathlib import Path
sys.dont_write_bytecode = True
site, checkout, page, folder = sys.argv[1:]
sys.path.insert(0, site)
sys.path.append(checkout)  # for tests.docs_examples only: rulecheck is found in the copy first
import rulecheck
from tests.docs_examples import run_page
results, skipped = run_page(Path(page), Path(folder), {})  # nothing of the checkout linked
print(json.dumps({
    "rulecheck": rulecheck.__file__,
    "failures": [r.explain() for r in results if not r.passed],
    "run": len(results),
    "skipped": [f"{e.where} {why}" for e, why in skipped],
}))
"""


def snapshot(*folders: Path) -> dict[str, str]:
    """Every file and folder under `folders`, with a digest of each file's bytes."""
    seen = {}
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            seen[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "folder"
    return seen


def read_only(root: Path) -> None:
    for path in [root, *root.rglob("*")]:
        path.chmod(path.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))


def writable(root: Path) -> None:
    for path in [root, *root.rglob("*")]:
        path.chmod(path.stat().st_mode | stat.S_IWUSR)


def test_the_guide_runs_from_anywhere_with_the_package_and_the_checkout_read_only(tmp_path):
    copy, work = tmp_path / "installed", tmp_path / "work"
    work.mkdir()
    junk = shutil.ignore_patterns("__pycache__", "*.pyc")
    for part, place in PACKAGE_PARTS.items():
        shutil.copytree(ROOT / part, copy / "site" / place, ignore=junk)
    read_only(copy)
    checkout = [ROOT / "specs", ROOT / "scenarios"]
    before = snapshot(copy, *checkout)
    environment = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    try:
        done = subprocess.run(
            [
                sys.executable,
                "-c",
                RUNNER,
                str(copy / "site"),
                str(ROOT),
                str(GUIDE),
                str(work),
            ],
            cwd=work,
            capture_output=True,
            text=True,
            env=environment,
            timeout=900,
        )
        after = snapshot(copy, *checkout)
    finally:
        writable(copy)
    assert done.returncode == 0, done.stderr
    ran = json.loads(done.stdout.splitlines()[-1])
    assert Path(ran["rulecheck"]).is_relative_to(copy / "site"), ran["rulecheck"]
    assert not ran["failures"], "\n\n".join(ran["failures"])
    assert ran["run"] and ran["run"] + len(ran["skipped"]) == len(examples(GUIDE)), ran
    changed = sorted(set(before.items()) ^ set(after.items()))
    assert not changed, f"the guide's commands changed the package or the checkout: {changed[:5]}"
    assert (work / "report" / "findings.md").is_file()
    assert not (work / "scenarios").exists(), "the guide's scenarios were reached through a folder in the work folder"
