"""The benchmark's quick mode on two cheap measurements: the JSON it writes has the figures of
every game asked, and the counts in it agree with each other (no timing is asserted)."""

import json
import platform

from bench.__main__ import chosen, main, parser

GAME = "globot-time-force"


def test_quick_measurements_write_consistent_json(tmp_path, capsys):
    out = tmp_path / "bench.json"
    returned = main(
        ["--quick", "--only", "checked,lengths,hypothesis", "--game", GAME, "--seconds", "0.2", "--json", str(out)]
    )
    written = json.loads(out.read_text(encoding="utf-8"))
    assert written == json.loads(json.dumps(returned))
    assert set(written) == {"meta", "checked", "lengths", "hypothesis"}
    assert written["meta"]["quick"] is True
    assert written["meta"]["python"] == f"{platform.python_implementation()} {platform.python_version()}"

    checked = written["checked"][GAME]
    assert checked["raw"]["games"] > 0 and checked["raw"]["steps"] > 0
    assert checked["same_games"] is True
    assert checked["watched"]["steps"] == checked["raw"]["steps"]
    assert checked["watched"]["games"] == checked["raw"]["games"]
    assert checked["ratio"] > 0 and checked["verdict"] in ("met", "NOT met")

    lengths = written["lengths"][GAME]
    assert lengths["steps"] == sum(lengths["lengths"]) > 0
    assert lengths["games"] == len(lengths["lengths"]) == sum(b["games"] for b in lengths["buckets"])
    assert sum(b["steps"] for b in lengths["buckets"]) == lengths["steps"]
    bounds = [b["lengths"] for b in lengths["buckets"]]
    assert all(low <= high for low, high in bounds)
    assert all(a[1] <= b[0] for a, b in zip(bounds, bounds[1:]))

    hypothesis = written["hypothesis"][GAME]
    assert hypothesis["hypothesis"]["counted_games"] == hypothesis["raw"]["games"]  # as many games as raw play
    assert 0 < hypothesis["hypothesis"]["counted_games"] <= hypothesis["hypothesis"]["played_games"]
    assert 0 < hypothesis["hypothesis"]["counted_steps"] <= hypothesis["hypothesis"]["played_steps"]

    table = capsys.readouterr().out
    assert f"python: {platform.python_implementation()}" in table
    assert f"{GAME}  " in table and "every property checked" in table and "verify: skipped" not in table


def test_quick_leaves_verify_out_unless_named():
    run, left_out = chosen(parser().parse_args(["--quick", "--skip", "memory"]))
    assert "verify" not in run and "memory" not in run and "play" in run
    assert set(left_out) == {"verify", "memory"}
    run, left_out = chosen(parser().parse_args(["--quick", "--only", "verify"]))
    assert run == ["verify"] and left_out == {}


def test_a_skipped_measurement_is_named_in_the_table(tmp_path, capsys):
    written = main(["--only", "lengths", "--skip", "lengths", "--json", str(tmp_path / "b.json")])
    assert written["meta"]["skipped"] == {"lengths": "--skip"} and "lengths" not in written
    assert "lengths: skipped (--skip)" in capsys.readouterr().out


def test_the_behaviour_digest_is_the_same_for_the_same_games_and_tells_others_apart():
    import hashlib

    from bench.digest import play, runs
    from rulecheck.registry import declaration, make_game

    def digest(seed: int, options: dict[str, str]) -> str:
        one = hashlib.sha256()
        play(one, make_game("mechanica", 2, options), seed)
        return one.hexdigest()

    assert digest(0, {}) == digest(0, {})
    assert digest(0, {}) != digest(1, {})
    game = declaration("mechanica").game
    players = game.campaign_players
    played = list(runs("mechanica", 2))
    defaults = [(count, {}, seed) for count in players for seed in range(2)]
    assert played[: len(defaults)] == defaults
    other_values = {
        (option.name, value)
        for option in game.option_space.options
        for value in option.values
        if value != option.default
    }
    assert {next(iter(options.items())) for _, options, _ in played[len(defaults) :]} == other_values
