"""Every finding's replay, for every registered game: it fits a screen, cites a clause, and shows the
position at its witness's step. Each game is checked on a tiny campaign at the player count its
declaration names, sweeping the options it names (Tested.replays: enough for readings that matter
among the findings), every other option left at its default and the computed tables left out."""

import json

import attrs
import pytest

from rulecheck.check.campaign.verify import verify
from rulecheck.registry import DECLARATIONS, declaration
from tests.readable_replays import every_replay_is_readable
from tests.test_verify import TINY


def report(out, specs, game):
    players, swept = declaration(game).tests().replays

    def chosen(task):
        return task.players == players and task.job != "table" and all(name in swept for name, _ in task.variant)

    specs.mkdir()  # an empty ledger folder: verify refuses one that is not there
    every_count = attrs.evolve(TINY, variant_players=len(declaration(game).game.campaign_players))
    verify(out, every_count, games=[game], select=chosen, ledgers=specs)
    return out


@pytest.mark.parametrize("game", sorted(DECLARATIONS))
def test_every_findings_replay_cites_a_clause_shows_the_position_at_its_step_and_fits_a_screen(game, tmp_path, capsys):
    out = report(tmp_path / "report", tmp_path / "specs", game)
    findings = json.loads((out / "findings.json").read_text())["findings"]
    assert {f["game"] for f in findings} == {game}
    commands = {item["replay"].split()[1] for f in findings for item in f["evidence"] if "file" in item["witness"]}
    assert {"replay", "compare"} <= commands  # witnesses told as stories, and readings that part
    every_replay_is_readable(out, capsys)
