"""Progress of long jobs: the library's callbacks hear sensible totals, and the command draws a bar on
stderr only when stderr is a terminal and the output is not JSON."""

import io
import json

import pytest

from rulecheck.check.proofs.game_proofs import prove_game
from rulecheck.check.search.explore import explore
from rulecheck.check.search.fuzz import fuzz
from rulecheck.cli import main
from rulecheck.cli.progress import progress_bar, shows_bar
from rulecheck.core.progress import no_progress, part
from rulecheck.games.globetrotter import analysis
from rulecheck.games.globetrotter import tables as globetrotter_tables
from rulecheck.registry import declaration, make_game
from rulecheck.suite.export import export_suite
from rulecheck.suite.format import save_suite
from rulecheck.suite.protocol import REFERENCE, open_engine
from rulecheck.suite.replay import replay_suite


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


@pytest.fixture
def terminal(monkeypatch):
    """A terminal to stand for stderr (stdout stays pytest's, not one), with a terminal type rich
    draws on; a test puts it in place itself, as pytest sets sys.stderr again once a test starts."""
    monkeypatch.setenv("TERM", "xterm")
    for name in ("TTY_COMPATIBLE", "TTY_INTERACTIVE", "NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
    return Terminal()


class Heard(list):
    def __call__(self, done, total):
        self.append((done, total))


def steady(calls):
    """done never falls."""
    return all(a[0] <= b[0] for a, b in zip(calls, calls[1:]))


@pytest.mark.parametrize(("tty", "as_json", "shown"), [(True, False, True), (True, True, False), (False, False, False)])
def test_a_bar_only_on_a_terminal_and_never_under_json(tty, as_json, shown):
    stream = Terminal() if tty else io.StringIO()
    assert shows_bar(stream, as_json) is shown
    with progress_bar("counting", as_json, stream) as tell:
        assert (tell is no_progress) is not shown
        for done in range(1, 5):
            tell(done, 4)
    drawn = stream.getvalue()
    assert ("counting" in drawn and "4/4" in drawn) is shown
    assert drawn if shown else drawn == ""


def test_explore_draws_its_bar_on_a_terminal_stderr(capsys, monkeypatch, terminal):
    monkeypatch.setattr("sys.stderr", terminal)
    assert main(["explore", "globot-time-force", "--states", "20"]) == 0
    drawn = terminal.getvalue()
    assert "explore globot-time-force: states" in drawn and "20/20" in drawn
    assert "explore globot-time-force" not in capsys.readouterr().out


def test_no_bar_under_json_even_on_a_terminal(capsys, monkeypatch, terminal):
    monkeypatch.setattr("sys.stderr", terminal)
    assert main(["explore", "globot-time-force", "--states", "20", "--json"]) == 0
    assert terminal.getvalue() == ""
    assert json.loads(capsys.readouterr().out)["states"] == 20


def test_no_bar_when_stderr_is_not_a_terminal(capsys):
    assert main(["explore", "globot-time-force", "--states", "20"]) == 0
    assert "states" not in capsys.readouterr().err


def test_explore_hears_the_states_known_of_its_limit_and_ends_full():
    heard = Heard()
    report = explore(make_game("globot-time-force"), depth=None, states=30, progress=heard)
    assert steady(heard) and heard[-1] == (report.states, report.states) == (30, 30)
    assert {total for _, total in heard} == {30}


def test_explore_to_a_depth_has_no_total_until_it_ends():
    heard = Heard()
    report = explore(make_game("globot-time-force"), depth=2, states=None, progress=heard)
    assert steady(heard) and {total for _, total in heard[:-1]} == {None}
    assert heard[-1] == (report.states, report.states)


def test_fuzz_hears_the_games_finished_of_all():
    heard = Heard()
    report = fuzz(make_game("globot-time-force"), (), games=3, seed=0, max_steps=30, progress=heard)
    assert report.games == 3 and heard[-1] == (3, 3) and steady(heard) and {t for _, t in heard} == {3}


def test_prove_hears_the_systems_done_of_all():
    game = make_game("globot-time-force")
    heard = Heard()
    proofs = prove_game(game, 0, 0, heard)
    systems = len(declaration(game.name).symbolic_systems(game))
    assert heard == [(done, systems) for done in range(systems + 1)] and len(proofs) == systems


def test_earliest_build_hears_each_opening_searched_twice_over(monkeypatch):
    monkeypatch.setattr(globetrotter_tables, "solo_search", lambda *args, **kwargs: None)
    openings = len(analysis.opening_placements(make_game("globetrotter")))
    heard = Heard()
    declaration("globetrotter").table("earliest-build", make_game("globetrotter"), heard)
    assert heard == [(done, 2 * openings) for done in range(1, 2 * openings + 1)]


def test_a_part_counts_after_the_parts_before_it():
    heard = Heard()
    part(heard, 5, 9)(2, 4)
    assert heard == [(7, 9)]


def test_suite_export_and_replay_hear_games_and_traces(tmp_path):
    exported, replayed = Heard(), Heard()
    suite = export_suite("globot-time-force", searched=2, max_steps=8, progress=exported)
    assert steady(exported) and exported[-1][0] == exported[-1][1] > 2
    path = tmp_path / "small.suite.jsonl"
    save_suite(path, list(suite.traces))
    engine = open_engine(REFERENCE)
    try:
        result = replay_suite(path, engine, progress=replayed)
    finally:
        engine.close()
    lines = len(suite.traces)
    assert result.passed and replayed == [(done, lines) for done in range(1, lines + 1)]
