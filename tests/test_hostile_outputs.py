"""Hostile output folders: what rulecheck writes goes into the output a user names and nowhere
else. A symbolic link planted among the parts of an output (a folder of the campaign's report,
a file in it, the hidden `.NAME.partial` file a write goes through) is refused with one line
naming it and exit status 2, and the folder it points to is left as it was; so is anything in
the campaign's journal that is not a journal file (a folder). Every case runs the command as a
user does, through `rulecheck.cli.main`."""

from pathlib import Path

import pytest

from rulecheck import cli
from rulecheck.check.campaign.journal import FOLDER
from rulecheck.check.campaign.verify import BUDGETS, verify
from rulecheck.check.play.playthrough import random_game
from rulecheck.check.report.findings import write_report
from rulecheck.core.errors import OutputError
from rulecheck.core.trace import record
from rulecheck.registry import make_game

GAME = "globot-time-force"
VERIFY = ("verify", "--game", GAME, "--budget", "smoke", "--workers", "1")


def _victim(folder: Path) -> Path:
    """A folder outside every output, with a file in it: what a planted link points to."""
    folder.mkdir()
    (folder / "kept.txt").write_text("kept")
    return folder


def _snapshot(folder: Path) -> dict[Path, bytes | None]:
    return {path: None if path.is_dir() else path.read_bytes() for path in folder.rglob("*") if not path.is_symlink()}


LINKS = {
    "verify --out: the journal folder": (VERIFY + ("--out", "{out}"), "{out}/journal", "victim"),
    "verify --resume: the journal folder": (VERIFY + ("--resume", "{out}"), "{out}/journal", "victim"),
    "verify --out: the witnesses folder": (VERIFY + ("--out", "{out}"), "{out}/witnesses", "victim"),
    "verify --out: findings.md": (VERIFY + ("--out", "{out}"), "{out}/findings.md", "victim/kept.txt"),
    "verify --out: a witness": (VERIFY + ("--out", "{out}"), "{out}/witnesses/GTF-F01-1.json", "victim/kept.txt"),
    "play --out: the file": (
        ("play", "globetrotter", "--out", "{out}/game.json"),
        "{out}/game.json",
        "victim/kept.txt",
    ),
    "play --out: its partial file": (
        ("play", "globetrotter", "--out", "{out}/game.json"),
        "{out}/.game.json.partial",
        "victim/kept.txt",
    ),
    "fuzz --traces: a trace's partial file": (
        ("fuzz", "mechanica", "--games", "20", "--traces", "{out}"),
        "{out}/.issue-1.json.partial",
        "victim/kept.txt",
    ),
    "scenario new --out: its partial file": (
        ("scenario", "new", "globetrotter", "--from", "{trace}", "--out", "{out}/case.toml"),
        "{out}/.case.toml.partial",
        "victim/kept.txt",
    ),
    "suite export --out: the playthrough beside it": (
        ("suite", "export", "globetrotter", "--traces", "1", "--max-steps", "10", "--out", "{out}/g.suite.jsonl"),
        "{out}/g.suite.txt",
        "victim/kept.txt",
    ),
}
"""The command, the output part it writes that is planted as a link, and what the link points to."""


@pytest.mark.parametrize("argv,planted,target", LINKS.values(), ids=LINKS.keys())
def test_a_planted_link_in_an_output_is_refused_and_nothing_is_written_through_it(
    capsys, tmp_path, argv, planted, target
):
    victim = _victim(tmp_path / "victim")
    paths = {"out": tmp_path / "out", "trace": tmp_path / "game.json"}
    paths["out"].mkdir()
    game = make_game("globetrotter")
    record(game, random_game(game, 0, max_steps=4).actions).save(paths["trace"])
    link = Path(planted.format(**paths))
    link.parent.mkdir(exist_ok=True)
    link.symlink_to(tmp_path / target)
    before, outside = _snapshot(paths["out"]), _snapshot(victim)
    capsys.readouterr()
    code = cli.main([arg.format(**paths) for arg in argv])
    _, err = capsys.readouterr()
    assert _snapshot(victim) == outside, "written through the link"
    assert code == 2 and "Traceback" not in err, err
    [line] = err.strip().splitlines()
    assert str(link) in line and "symbolic link" in line, line
    assert link.is_symlink() and _snapshot(paths["out"]) == before


def test_the_report_is_not_written_through_a_linked_witnesses_folder(smoke_campaign, tmp_path):
    """The library refuses too (a link made after the command checked its output, say)."""
    _, verdict = smoke_campaign(GAME)
    assert any(finding.evidence for finding in verdict.findings)
    victim = _victim(tmp_path / "victim")
    out = tmp_path / "out"
    out.mkdir()
    (out / "witnesses").symlink_to(victim)
    with pytest.raises(OutputError, match="witnesses: is a symbolic link"):
        write_report(verdict.findings, out)
    assert _snapshot(victim) == {victim / "kept.txt": b"kept"}


def test_the_campaign_deletes_nothing_through_a_linked_journal(tmp_path):
    victim = _victim(tmp_path / "victim")
    out = tmp_path / "out"
    out.mkdir()
    (out / FOLDER).symlink_to(victim)
    with pytest.raises(OutputError, match="journal: is a symbolic link"):
        verify(out, BUDGETS["smoke"], games=[GAME], select=lambda task: False, ledgers=tmp_path)
    assert _snapshot(victim) == {victim / "kept.txt": b"kept"}


@pytest.mark.parametrize("where", ["--out", "--resume"])
@pytest.mark.parametrize("name", ["folder", "folder.json", ".folder.json.partial"])
def test_a_folder_in_the_journal_is_refused_by_name(capsys, tmp_path, where, name):
    inside = tmp_path / FOLDER / name
    (inside / "kept").mkdir(parents=True)
    code = cli.main([*VERIFY, where, str(tmp_path)])
    _, err = capsys.readouterr()
    assert "Traceback" not in err
    [line] = err.strip().splitlines()
    assert code == 2 and f"{inside}: is a folder" in line, line
    assert (inside / "kept").is_dir() and sorted(tmp_path.rglob("*")) == [tmp_path / FOLDER, inside, inside / "kept"]
