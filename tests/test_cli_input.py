"""Bad command-line input ends before any work: exit status 2, a last line on stderr that names
the problem, no traceback, and no file left behind. Every work function the command calls is
replaced by one that fails the test, so each case holds by construction that nothing ran
(verify --out at a file fails before the campaign, not after it)."""

import os
from pathlib import Path

import pytest

from rulecheck import cli
from rulecheck.check.play.playthrough import random_game
from rulecheck.cli import analysis, balance, campaign, scenarios, searches, suites, traces
from rulecheck.core.trace import record
from rulecheck.registry import make_game

WORK = {
    traces: ("random_game", "replay", "replay_steps", "first_divergence"),
    searches: ("fuzz", "explore", "replay"),
    analysis: ("prove_game",),
    campaign: ("verify",),
    scenarios: ("replay_steps",),
    suites: ("export_suite",),
    balance: ("balance",),
}
"""The names in the command's modules that play games or run checks."""

CASES = {
    "balance --games 0": (("balance", "mechanica", "--games", "0"), ("--games", "1 or more", "'0'")),
    "balance unknown option": (("balance", "mechanica", "--set", "nothing=1"), ("unknown option", "'nothing'")),
    "balance unknown value": (("balance", "mechanica", "--set", "game_end=soon"), ("game_end", "no value 'soon'")),
    "balance unknown policy": (("balance", "mechanica", "--policy", "best"), ("no policy 'best'", "random")),
    "balance policies for seats": (
        ("balance", "mechanica", "--players", "2", "--policy", "random", "--policy", "random", "--policy", "random"),
        ("3 policies for 2 players",),
    ),
    "balance --players 9": (("balance", "mechanica", "--players", "9"), ("1 to 4 players", "not 9")),
    "balance --plot suffix": (("balance", "mechanica", "--plot", "{dir}/plot.txt"), ("'.txt'", ".png or .svg")),
    "balance --workers with --dask": (
        ("balance", "mechanica", "--workers", "2", "--dask", "tcp://127.0.0.1:1"),
        ("not allowed with argument",),
    ),
    "fuzz --games 0": (("fuzz", "globetrotter", "--games", "0"), ("--games", "1 or more", "'0'")),
    "fuzz --games -1": (("fuzz", "globetrotter", "--games", "-1"), ("--games", "1 or more", "'-1'")),
    "fuzz --max-steps 0": (("fuzz", "globetrotter", "--max-steps", "0"), ("--max-steps", "1 or more", "'0'")),
    "fuzz --max-steps -1": (("fuzz", "globetrotter", "--max-steps", "-1"), ("--max-steps", "1 or more")),
    "fuzz --games x": (("fuzz", "globetrotter", "--games", "x"), ("--games", "whole number", "'x'")),
    "prove --witness-games -1": (("prove", "globetrotter", "--witness-games", "-1"), ("--witness-games", "0 or more")),
    "play --players 1": (("play", "globetrotter", "--players", "1"), ("2 to 6 players", "not 1")),
    "fuzz --players 7": (("fuzz", "globetrotter", "--players", "7"), ("2 to 6 players", "not 7")),
    "explore --players -1": (("explore", "globetrotter", "--players", "-1"), ("2 to 6 players", "not -1")),
    "explore --depth -1": (("explore", "globetrotter", "--depth", "-1"), ("--depth", "0 or more")),
    "explore --states 0": (("explore", "globetrotter", "--states", "0"), ("--states", "1 or more")),
    "verify --workers 0": (("verify", "--workers", "0"), ("--workers", "1 or more")),
    "verify --workers with --dask": (
        ("verify", "--workers", "2", "--dask", "tcp://127.0.0.1:8786"),
        ("--workers 2 --dask tcp://127.0.0.1:8786", "give one or the other"),
    ),
    "verify --data malformed": (("verify", "--data", "globot-time-force"), ("NAME=VALUE", "'globot-time-force'")),
    "play --out a folder": (("play", "globetrotter", "--out", "{dir}"), ("{dir}", "is a folder, not a file")),
    "play --out in a missing folder": (
        ("play", "globetrotter", "--out", "{dir}/missing/game.json"),
        ("{dir}/missing", "does not exist"),
    ),
    "play --out in a file": (("play", "globetrotter", "--out", "{file}/game.json"), ("{file}", "is not a folder")),
    "play --out unwritable": (
        ("play", "globetrotter", "--out", "{read_only}/game.json"),
        ("{read_only}", "cannot write"),
    ),
    "fuzz --traces a file": (("fuzz", "globetrotter", "--traces", "{file}"), ("{file}", "is a file, not a folder")),
    "explore --traces a file": (
        ("explore", "globetrotter", "--traces", "{file}"),
        ("{file}", "is a file, not a folder"),
    ),
    "prove --traces a file": (("prove", "globetrotter", "--traces", "{file}"), ("{file}", "is a file, not a folder")),
    "fuzz --traces unwritable": (
        ("fuzz", "globetrotter", "--traces", "{read_only}/issues/new"),
        ("{read_only}", "cannot write"),
    ),
    "verify --out a file": (("verify", "--out", "{file}"), ("{file}", "is a file, not a folder")),
    "verify --out in a file": (("verify", "--out", "{file}/report"), ("{file}", "is a file, not a folder")),
    "verify --out unwritable": (("verify", "--out", "{read_only}/report"), ("{read_only}", "cannot write")),
    "show --step -1": (("show", "{trace}", "--step", "-1"), ("--step", "0 or more")),
    "show --player -1": (("show", "{trace}", "--step", "0", "--player", "-1"), ("--player", "0 or more")),
    "show --player past the last": (("show", "{trace}", "--step", "0", "--player", "2"), ("--player 2", "0 to 1")),
    "show --draw a folder": (("show", "{trace}", "--step", "0", "--draw", "{dir}"), ("{dir}", "is a folder")),
    "show --draw a .jpg": (
        ("show", "{trace}", "--step", "0", "--draw", "{dir}/x.jpg"),
        ("x.jpg", ".png or .svg", "'.jpg'"),
    ),
    "board --draw no suffix": (("board", "globetrotter", "--draw", "{dir}/map"), ("map", ".png or .svg", "no suffix")),
    "board --draw in a missing folder": (
        ("board", "globetrotter", "--draw", "{dir}/missing/map.svg"),
        ("{dir}/missing", "does not exist"),
    ),
    "board --draw with --json": (
        ("board", "globetrotter", "--draw", "{dir}/map.svg", "--json"),
        ("--draw", "give one"),
    ),
    "show --frames a file": (("show", "{trace}", "--frames", "{file}"), ("{file}", "is a file, not a folder")),
    "show --frames unwritable": (
        ("show", "{trace}", "--frames", "{read_only}/frames"),
        ("{read_only}", "cannot write"),
    ),
    "show --frames and --draw": (
        ("show", "{trace}", "--frames", "{dir}/frames", "--draw", "{dir}/x.svg"),
        ("--frames", "--draw", "give one"),
    ),
    "show --frames and --step": (("show", "{trace}", "--frames", "{dir}/frames", "--step", "0"), ("not allowed",)),
    "show without --step or --frames": (("show", "{trace}"), ("--step", "--frames", "required")),
    "compare --set the trace's value": (
        ("compare", "{trace}", "--set", "shooting=W1"),
        ("--set shooting=W1", "trace already has shooting=W1"),
    ),
    "compare --set malformed": (("compare", "{trace}", "--set", "shooting"), ("NAME=VALUE", "'shooting'")),
    "fuzz --set malformed": (("fuzz", "globetrotter", "--set", "shooting"), ("NAME=VALUE", "'shooting'")),
    "table with an unknown name": (("table", "globetrotter", "odds"), ("no table 'odds'", "destruction-odds")),
    "play --data a folder": (("play", "globot-time-force", "--data", "{data_folder}"), ("{data_folder}", "folder")),
    "play --out ''": (("play", "globetrotter", "--out", ""), ("--out", "an empty path")),
    "fuzz --traces ''": (("fuzz", "globetrotter", "--traces", ""), ("--traces", "an empty path")),
    "explore --traces ''": (("explore", "globetrotter", "--traces", ""), ("--traces", "an empty path")),
    "prove --traces ''": (("prove", "globetrotter", "--traces", ""), ("--traces", "an empty path")),
    "show --draw ''": (("show", "{trace}", "--step", "0", "--draw", ""), ("--draw", "an empty path")),
    "show --frames ''": (("show", "{trace}", "--frames", ""), ("--frames", "an empty path")),
    "board --draw ''": (("board", "globetrotter", "--draw", ""), ("--draw", "an empty path")),
    "scenario new --out ''": (
        ("scenario", "new", "globetrotter", "--from", "{trace}", "--out", ""),
        ("--out", "an empty path"),
    ),
    "suite export --out ''": (("suite", "export", "globetrotter", "--out", ""), ("--out", "an empty path")),
    "verify --out ''": (("verify", "--out", ""), ("--out", "an empty path")),
    "verify --resume ''": (("verify", "--resume", ""), ("--resume", "an empty path")),
    "verify --ledgers ''": (("verify", "--ledgers", ""), ("--ledgers", "an empty path")),
}


@pytest.fixture(autouse=True)
def no_work(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the command started work before it checked its input")

    for module, names in WORK.items():
        for name in names:
            monkeypatch.setattr(module, name, refuse)


@pytest.fixture(scope="module")
def trace(tmp_path_factory):
    """A 3-step trace of globetrotter for 2 players under its default options (shooting=W1)."""
    game = make_game("globetrotter")
    path = tmp_path_factory.mktemp("trace") / "game.json"
    record(game, random_game(game, 0, max_steps=3).actions).save(path)
    return path


@pytest.fixture
def read_only(tmp_path):
    """A folder this process cannot write in: a read-only one, or /proc where the process is
    root (which writes in any folder its mode allows)."""
    folder = tmp_path / "read-only"
    folder.mkdir(mode=0o500)
    if os.access(folder, os.W_OK):
        if not Path("/proc/self").is_dir():
            pytest.skip("no folder this process cannot write in")
        yield Path("/proc")
    else:
        yield folder
    folder.chmod(0o700)


def _files(folder):
    return {path: path.read_bytes() if path.is_file() else None for path in folder.rglob("*")}


@pytest.mark.parametrize("argv,words", CASES.values(), ids=CASES.keys())
def test_bad_input_is_one_clear_error_before_any_work(capsys, monkeypatch, tmp_path, trace, read_only, argv, words):
    monkeypatch.chdir(tmp_path)  # a file written in the current folder (for `--out ''`, say) is seen too
    (tmp_path / "existing.txt").write_text("kept")
    (tmp_path / "deck.toml").mkdir()
    paths = {
        "dir": tmp_path,
        "file": tmp_path / "existing.txt",
        "data_folder": tmp_path / "deck.toml",
        "read_only": read_only,
        "trace": trace,
    }
    before = _files(tmp_path)
    try:
        code = cli.main([arg.format(**paths) for arg in argv])
    except SystemExit as exc:  # argparse's own errors: usage, then the error
        code = exc.code
    _, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert code == 2 and "Traceback" not in err
    assert len(lines) == 1 or lines[0].startswith("usage: rulecheck")
    assert all(word.format(**paths) in lines[-1] for word in words), lines[-1]
    assert _files(tmp_path) == before
