"""A running `rulecheck verify`, stopped at random moments by SIGINT (to its process group, as
Ctrl-C in a terminal sends it), SIGTERM and SIGKILL (to the main process alone): every file it
leaves is complete and valid, or a hidden partial file only SIGKILL leaves; no worker outlives
it; and `--resume` finishes the campaign with the report of an uninterrupted run.

The campaign is the smoke budget on Globot Time Force, in two worker processes: about ten seconds.
The moments are drawn from a seeded random number generator: once the run's journal holds
between a tenth and three quarters of the outcomes an uninterrupted run records, plus up to the
time one outcome takes on average. Counted in outcomes rather than seconds, every moment falls
inside the run however busy the machine is (under pytest-xdist, the other workers' tests come
and go)."""

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from importlib import resources
from pathlib import Path

import psutil
import pytest

from rulecheck.check.campaign.journal import FOLDER, Journal
from rulecheck.core.files import PARTIAL_SUFFIX

GAME = "globot-time-force"
SIGNALS = {"SIGINT": signal.SIGINT, "SIGTERM": signal.SIGTERM, "SIGKILL": signal.SIGKILL}


def ledgers(folder: Path) -> Path:
    """A fresh copy of the shipped ledgers, so every run gives new findings the same ids."""
    folder.mkdir(parents=True)
    for item in resources.files("rulecheck.specs").iterdir():
        if item.name.endswith("-ledger.toml"):
            shutil.copyfile(str(item), folder / item.name)
    return folder


def command(out: Path, ledger_folder: Path, resume: bool = False) -> list[str]:
    """The campaign, in two worker processes; resumed, in the command's own process (the report
    does not depend on the workers: tests/test_parallel_campaign.py)."""
    where = ["--resume", str(out)] if resume else ["--out", str(out)]
    return [
        *(sys.executable, "-m", "rulecheck.cli", "verify", *where),
        *("--budget", "smoke", "--game", GAME, "--workers", "1" if resume else "2", "--ledgers", str(ledger_folder)),
    ]


def finish(argv: list[str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done


def report(out: Path) -> tuple[str, str]:
    """The report's two files, with the folder's own name taken out of the replay commands."""
    return tuple((out / name).read_text().replace(str(out), "OUT") for name in ("findings.json", "findings.md"))


def recorded(out: Path) -> int:
    """How many outcomes the journal in `out` holds (a partial file is hidden: .NAME.json.partial)."""
    return len(list((out / FOLDER).glob("*.json")))


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    """The report of a run nobody stops, how long that run took and how many outcomes it recorded."""
    root = tmp_path_factory.mktemp("uninterrupted")
    began = time.monotonic()
    finish(command(root / "out", ledgers(root / "specs")))
    return report(root / "out"), time.monotonic() - began, recorded(root / "out")


def stop_at(argv: list[str], out: Path, outcomes: int, delay: float, kind: str) -> tuple[int, str, set[int]]:
    """Run `argv` (a campaign into `out`), send signal `kind` `delay` seconds after its journal holds
    `outcomes` outcomes, and return its exit status, its stderr and the process ids of every worker
    it started."""
    process = subprocess.Popen(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    workers: set[int] = set()
    main = psutil.Process(process.pid)
    deadline = None
    while process.poll() is None and (deadline is None or time.monotonic() < deadline):
        try:
            workers |= {child.pid for child in main.children(recursive=True)}
        except psutil.NoSuchProcess:
            break
        if deadline is None and recorded(out) >= outcomes:
            deadline = time.monotonic() + delay
        time.sleep(0.05)
    assert process.poll() is None, "the run ended before the signal; the moment is too late"
    if kind == "SIGINT":
        os.killpg(process.pid, signal.SIGINT)
    else:
        process.send_signal(SIGNALS[kind])
    _, stderr = process.communicate(timeout=60)
    return process.returncode, stderr, workers


def survivors(workers: set[int], patience: float = 10.0) -> list[int]:
    """The workers still running after `patience` seconds."""
    deadline = time.monotonic() + patience
    while True:
        alive = [pid for pid in workers if psutil.pid_exists(pid) and psutil.Process(pid).status() != "zombie"]
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.1)


def check_files_left(out: Path, kind: str) -> None:
    """Every file is whole: the journal reads back, each JSON file parses; partial files only after SIGKILL."""
    partial = [path for path in out.rglob(f"*{PARTIAL_SUFFIX}")]
    assert not partial or kind == "SIGKILL", partial
    assert all(path.name.startswith(".") for path in partial)
    for path in out.rglob("*.json"):
        if not path.name.endswith(PARTIAL_SUFFIX):
            json.loads(path.read_text())
    Journal.open(out, resume=True)  # every outcome file reads back as its own task's


@pytest.mark.parametrize("kind", list(SIGNALS))
def test_a_stopped_campaign_leaves_whole_files_no_worker_and_resumes_to_the_same_report(
    uninterrupted, tmp_path, kind, record_property
):
    expected, seconds, total = uninterrupted
    draw = random.Random(kind)
    outcomes, delay = max(1, round(draw.uniform(0.1, 0.75) * total)), draw.uniform(0, seconds / total)
    out = tmp_path / "out"
    status, stderr, workers = stop_at(command(out, ledgers(tmp_path / "specs")), out, outcomes, delay, kind)
    record_property("faults", (f"{kind} to a running verify", 1))
    assert status == (-signal.SIGKILL if kind == "SIGKILL" else 128 + SIGNALS[kind])
    if kind != "SIGKILL":
        assert "Traceback" not in stderr
        [line] = stderr.strip().splitlines()
        assert f"stopped by {kind}" in line and f"--resume {out}" in line
    assert workers, "the run started no worker before the signal"
    assert survivors(workers) == []
    check_files_left(out, kind)
    assert not (out / "findings.json").exists()
    done = finish(command(out, ledgers(tmp_path / "specs-resumed"), resume=True))
    assert report(out) == expected
    assert not list(out.rglob(f"*{PARTIAL_SUFFIX}"))
    print(f"{kind} {delay:.1f} s after outcome {outcomes} of {total}; {done.stdout.splitlines()[-1]}")
