"""Every example command of README.md and docs/*.md runs and prints what the page shows
(tests/docs_examples.py): one test per page; and the runner's own rules, on small pages
written here."""

import attrs
import pytest

from tests import docs_examples
from tests.docs_examples import DocsError, Example, examples, matches, refreshed, run_page, update
from tests.test_guide_readonly import GUIDE


@pytest.mark.parametrize(
    "page", [p for p in docs_examples.pages() if p != GUIDE], ids=lambda page: page.name
)  # the guide's examples run read-only, from outside the checkout: tests/test_guide_readonly.py
def test_every_example_of_the_page_prints_what_the_page_shows(page, tmp_path):
    results, skipped = run_page(page, tmp_path)
    failures = [result.explain() for result in results if not result.passed]
    assert not failures, (
        f"{len(failures)} of {len(results)} examples of {page.name} print something else"
        " (python -m tests.docs_examples --update rewrites them):\n\n" + "\n\n".join(failures)
    )
    if skipped:
        pytest.skip(
            f"{len(results)} examples passed; {len(skipped)} not run: "
            + "; ".join(f"{example.where} {reason}" for example, reason in skipped)
        )


def page(tmp_path, text):
    path = tmp_path / "page.md"
    path.write_text(text)
    return path


def test_the_wildcards_match_what_they_say_and_nothing_more():
    assert matches(["a", "...", "c"], ["a", "b", "x", "c"])
    assert matches(["a", "...", "c"], ["a", "c"])
    assert matches(["took [...] s"], ["took 1.25 s"])
    assert not matches(["took [...] s"], ["took 1.25 s", "more"])
    assert not matches(["a", "c"], ["a", "b", "c"])
    assert not matches(["took [...] s"], ["took 1.25 ms!"])
    assert not matches(["a.b"], ["axb"]), "only [...] is a wildcard; the rest is literal text"


def test_examples_are_read_with_their_exit_status_extra_and_continued_lines(tmp_path):
    text = (
        "intro\n\n```console\n$ rulecheck games --json \\\n  --help\nout\n\n$ rulecheck nope\nerr\n[exit 2]\n```\n\n"
        "```console extra=draw\n$ rulecheck show t.json --step 1 --draw p.png\n```\n"
    )
    first, second, third = examples(page(tmp_path, text))
    assert (first.command, first.expected, first.exit, first.line) == ("rulecheck games --json --help", ("out",), 0, 4)
    assert (second.command, second.expected, second.exit) == ("rulecheck nope", ("err",), 2)
    assert (third.extra, third.expected) == ("draw", ())


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("```sh\n$ rulecheck games\n```\n", "outside a ```console block"),
        ("```console\noutput first\n$ rulecheck games\n```\n", "must start with a command"),
        ("```console extra=colour\n$ rulecheck games\n```\n", "not an attribute of a console block"),
        ("```console\n$ rulecheck games\n", "never closed"),
        ("- a list\n\n  ```console\n  $ rulecheck games\n  ```\n", "outside a ```console block at the start"),
    ],
)
def test_a_block_that_cannot_be_run_is_an_error_naming_the_line(tmp_path, text, complaint):
    with pytest.raises(DocsError, match="page.md:[1-4]: ") as raised:
        examples(page(tmp_path, text))
    assert complaint in str(raised.value)


def test_a_page_runs_in_one_folder_in_process_and_in_a_shell_and_a_wrong_output_fails(tmp_path):
    text = (
        "```console\n$ rulecheck play globetrotter --seed 1 --out t.json\n"
        "globetrotter, 2 players, seed 1: [...] actions, ended\nthe game is over: [...]\ntrace written to t.json\n"
        "$ rulecheck show t.json --step 9999\nrulecheck: [...]\n[exit 2]\n"
        "$ ls\nscenarios\nt.json\ntests\n"
        "$ rulecheck games\nno such output\n```\n"
    )
    folder = tmp_path / "run"
    folder.mkdir()
    results, skipped = run_page(page(tmp_path, text), folder)
    assert not skipped
    assert [result.passed for result in results] == [True, True, True, False]
    assert "expected:\n    no such output\n  got:\n    globetrotter" in results[-1].explain()


def test_a_line_rewritten_in_place_counts_as_what_a_terminal_shows(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, lines = docs_examples.run("printf 'step 1\\rstep 2\\ndone\\n'")
    assert (status, lines) == (0, ["step 2", "done"])


def test_update_rewrites_only_what_changed_and_keeps_the_wildcards_that_still_fit(tmp_path):
    text = (
        "```console\n$ rulecheck games\nglobetrotter  v[...]\n...\nwrong\n```\n\n"
        "```console\n$ rulecheck --help\n...\n```\n"
    )
    path = page(tmp_path, text)
    folder = tmp_path / "run"
    folder.mkdir()
    results, _ = run_page(path, folder)
    assert [result.example.line for result in update(path, results)] == [2]
    rewritten = path.read_text()
    assert rewritten.startswith("```console\n$ rulecheck games\nglobetrotter  v[...]\n...\n```\n")
    assert rewritten.endswith("```console\n$ rulecheck --help\n...\n```\n"), "a matching output is left alone"
    folder = tmp_path / "again"
    folder.mkdir()
    assert all(result.passed for result in run_page(path, folder)[0])


def test_refreshing_keeps_matching_patterns_and_writes_new_lines_out():
    assert refreshed(["a", "...", "c", "t [...] s"], ["a", "b", "c", "new", "t 3 s"]) == [
        "a",
        "...",
        "c",
        "new",
        "t [...] s",
    ]
    assert refreshed(["gone"], ["z"]) == ["z"]


def test_an_example_needing_a_missing_extra_is_skipped_saying_which(monkeypatch):
    monkeypatch.setitem(docs_examples.EXTRAS, "draw", "no_such_module_for_docs")
    example = Example(docs_examples.ROOT / "README.md", 1, "rulecheck games", (), 0, "draw", (1, 1))
    assert docs_examples.needs(example) == "needs the draw extra (no_such_module_for_docs is not installed)"
    assert docs_examples.needs(attrs.evolve(example, extra=None)) is None
