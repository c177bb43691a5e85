"""Runs stopped by a signal: fuzzing and exploration report what they found so far and exit with
the signal's status, each issue's trace already on disk, whole; a second signal while a run
unwinds ends the process at once; workers of a run that stops early are gone when it returns."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable

import psutil
import pytest

from rulecheck.check.running.parallel import run_tasks
from rulecheck.check.running.signals import Interrupted, interruptible
from rulecheck.check.search.explore import explore
from rulecheck.check.search.fuzz import fuzz
from rulecheck.check.watch.generic import Found
from rulecheck.core.files import PARTIAL_SUFFIX
from rulecheck.core.trace import load_trace, replay
from rulecheck.registry import declaration, make_game

GAME = "globetrotter"


def signal_self_after(seconds: float, number: int = signal.SIGINT) -> threading.Timer:
    timer = threading.Timer(seconds, os.kill, (os.getpid(), number))
    timer.start()
    return timer


def stop_on_first(seen: list[Found], number: int) -> Callable[[Found], None]:
    """An `on_found` that keeps each issue and sends the process signal `number` at the first."""

    def found(issue: Found) -> None:
        seen.append(issue)
        if len(seen) == 1:
            os.kill(os.getpid(), number)

    return found


def test_a_fuzz_campaign_stopped_by_a_signal_reports_the_games_it_played_and_every_issue_it_saw():
    seen: list[Found] = []
    with interruptible():
        report = fuzz(
            make_game(GAME), declaration(GAME).properties, 100_000, 0, on_found=stop_on_first(seen, signal.SIGTERM)
        )
    assert report.interrupted == "SIGTERM" and report.games < 100_000
    assert len(seen) == 1 and {f.issue.key for f in seen} == {f.issue.key for f in report.found}
    assert report.to_data()["interrupted"] == "SIGTERM"


def test_an_exploration_stopped_by_a_signal_is_not_exhaustive_and_keeps_its_issues():
    seen: list[Found] = []
    with interruptible():
        signal_self_after(1.0)
        report = explore(make_game(GAME), depth=None, states=None, on_found=seen.append)
    assert report.interrupted == "SIGINT" and not report.exhaustive and report.states > 1
    assert [f.issue.key for f in seen] == [f.issue.key for f in report.found]


class SignalsWhenCollected:
    """An object whose finaliser sends the process SIGINT and lets the handler run inside it, where
    Python reports and drops the exception the handler raises."""

    def __del__(self) -> None:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)


def test_a_signal_whose_exception_a_finaliser_drops_still_stops_the_search(monkeypatch):
    dropped = []

    def recorder(unraisable) -> None:
        dropped.append(unraisable.exc_type)

    monkeypatch.setattr(sys, "unraisablehook", recorder)

    def found(issue: Found) -> None:
        SignalsWhenCollected()  # made and collected at once: the signal lands in its __del__

    with interruptible():
        report = explore(make_game("globot-time-force"), depth=None, states=10**7, on_found=found)
    assert dropped == []  # the handler's raise was lost in the finaliser, and not reported on stderr
    assert report.interrupted == "SIGINT" and not report.exhaustive
    assert sys.unraisablehook is recorder  # put back after the block


@pytest.mark.parametrize(
    "command, game, limit",
    [("fuzz", GAME, ["--games", "100000"]), ("explore", "globot-time-force", ["--states", "10000000"])],
)
def test_a_stopped_command_exits_with_the_signals_status_and_its_traces_are_whole(tmp_path, command, game, limit):
    """Each game finds an issue within seconds there (the explored one, a rule gap at depth 4)."""
    argv = [sys.executable, "-m", "rulecheck.cli", command, game, *limit, "--traces", str(tmp_path), "--json"]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not list(tmp_path.glob("issue-*.json")) and time.monotonic() < deadline:
        time.sleep(0.1)
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 128 + signal.SIGTERM
    [line] = err.strip().splitlines()
    assert "stopped by SIGTERM" in line and str(tmp_path) in line
    data = json.loads(out)
    assert data["interrupted"] == "SIGTERM"
    files = sorted(tmp_path.iterdir())
    assert files and not [p for p in files if p.name.endswith(PARTIAL_SUFFIX)]
    assert len(files) == len(data["violations"]) + len(data["findings"])
    for path in files:
        trace = load_trace(path)
        replay(make_game(trace.game, trace.players, dict(trace.options)), trace)


SECOND_SIGNAL = textwrap.dedent(
    """
    import os, signal, time
    from rulecheck.check.running.signals import Interrupted, interruptible
    with interruptible():
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(30)
        except Interrupted:
            print("unwinding", flush=True)
            time.sleep(30)  # a slow clean-up, cut short by the second signal
    """
)


def test_a_second_signal_while_a_run_unwinds_ends_the_process_at_once():
    process = subprocess.Popen([sys.executable, "-c", SECOND_SIGNAL], stdout=subprocess.PIPE, text=True)
    assert process.stdout.readline() == "unwinding\n"
    began = time.monotonic()
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=10) == 128 + signal.SIGINT
    assert time.monotonic() - began < 5


def sleep_forever(task: int) -> int:
    time.sleep(3600)
    return task


def test_workers_of_a_run_stopped_early_are_gone_when_it_returns():
    me = psutil.Process()
    before = {child.pid for child in me.children(recursive=True)}
    with interruptible():
        signal_self_after(3.0)
        with pytest.raises(Interrupted):
            run_tasks(sleep_forever, [1, 2], workers=2)
    left = [child for child in me.children(recursive=True) if child.pid not in before and child.is_running()]
    workers = [child for child in left if "resource_tracker" not in " ".join(child.cmdline())]  # one per parent
    assert [child for child in workers if child.status() != psutil.STATUS_ZOMBIE] == []
