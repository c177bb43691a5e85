"""Each registered game's page shows its clauses, options and data set as the code has them now: the generated
sections of docs/<game>.md equal what tests/docs_tables.py renders, and the renderer itself says what
it reads (a changed clause shows up, a source of no known kind is refused)."""

import pytest

from rulecheck.registry import DECLARATIONS, declaration
from tests import docs_tables
from tests.docs_tables import UPDATE, lines_text, page_name, page_path, rendered, source_parts


@pytest.mark.parametrize("game", sorted(DECLARATIONS))
def test_the_generated_sections_are_up_to_date(game):
    page = page_path(game).read_text(encoding="utf-8")
    assert rendered(game, page) == page, f"{page_name(game)} is out of date: run {UPDATE}"


@pytest.mark.parametrize("game", sorted(DECLARATIONS))
def test_every_clause_and_option_is_on_the_page(game):
    page = page_path(game).read_text(encoding="utf-8")
    decl = declaration(game)
    for clause in decl.catalogue().clauses:
        assert f"| `{clause.id}` | {lines_text(clause.lines)} |" in page
    for option in decl.game.option_space.options:
        assert f"- `{option.name}`: default `{option.default}`;" in page


def test_a_changed_clause_makes_the_page_stale(monkeypatch):
    page = page_path("mechanica").read_text(encoding="utf-8")
    real = docs_tables.clauses
    monkeypatch.setitem(docs_tables.SECTIONS, "clauses", lambda game: real(game).replace("Tidybot", "Tidy bot"))
    assert rendered("mechanica", page) != page


def test_a_page_without_its_sections_is_refused():
    with pytest.raises(ValueError, match="needs each of"):
        rendered("mechanica", "# Mechanica\n\n<!-- generated: clauses -->\n<!-- end generated: clauses -->\n")


def test_line_numbers_and_sources_read_as_documented():
    assert lines_text([]) == "none"
    assert lines_text([13]) == "L13"
    assert lines_text([139, 137, 138, 20]) == "L20, L137-L139"
    assert source_parts("rulebook L157 (price), L6 (15); publisher: 8") == {
        "rulebook": "L157 (price), L6 (15)",
        "publisher": "8",
    }
    assert source_parts("globot-time-force.txt L95-L98") == {"rulebook": "globot-time-force.txt L95-L98"}
    assert source_parts("publisher: name; assumption: holes; assumption: end value") == {
        "publisher": "name",
        "assumption": "holes; end value",
    }
    with pytest.raises(ValueError, match="names no kind"):
        source_parts("folklore: everyone knows")
