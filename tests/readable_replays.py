"""What a person reading a finding's replay needs, checked on every finding of a report: the output
fits a screen, cites at least one clause of the game's catalogue, and for a finding with a witness
trace shows the position at the witness's last step, as the game writes positions."""

import json
import re
import shlex
from pathlib import Path

from rulecheck.check.positions.describe import position_lines
from rulecheck.cli import main
from rulecheck.core.trace import load_trace, replay
from rulecheck.registry import DECLARATIONS, make_game

WITNESS_LINES = 60
"""The most lines the replay of a finding may print: a person reads it whole."""

CLAUSE_ID = re.compile(r"[A-Z]+-[A-Z]+\d+[a-z]?")


def every_replay_is_readable(out: Path, capsys) -> None:
    """Run each distinct replay command of the report in `out` once and check what it prints."""
    data = json.loads((out / "findings.json").read_text())
    shown: dict[str, list[str]] = {}
    for finding in data["findings"]:
        ids = set(DECLARATIONS[finding["game"]].catalogue().ids)
        for item in finding["evidence"]:
            where = f"{finding['id']}: {item['replay']}"
            if item["replay"] not in shown:
                _, command, *args = shlex.split(item["replay"])
                capsys.readouterr()
                main([command, *args])
                shown[item["replay"]] = capsys.readouterr().out.splitlines()
            lines = shown[item["replay"]]
            assert len(lines) < WITNESS_LINES, f"{where}: {len(lines)} lines"
            assert ids & set(CLAUSE_ID.findall("\n".join(lines))), f"{where} cites no clause"
            if "file" not in item["witness"]:
                continue
            trace = load_trace(Path(item["witness"]["file"]))
            game = make_game(trace.game, trace.players, dict(trace.options))
            step = len(trace.actions)
            heading = [i for i, line in enumerate(lines) if line.startswith(f"the position after step {step}")]
            assert heading, f"{where} shows no position at step {step}"
            expected = ["  " + line for line in position_lines(game, replay(game, trace))]
            assert lines[heading[0] + 1 : heading[0] + 1 + len(expected)] == expected, where
