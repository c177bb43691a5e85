"""The rulebook lines each game's catalogue (specs/<game>.toml) names hold text: every line is in
the rulebook, and each clause's first and last lines are not blank (a range may span a blank
line between its list items). The rulebooks do not ship with rulecheck: they lie beside the
checkout (../shared/rulebooks, where the scenarios cite them), and a game whose rulebook is not
there is skipped (a test game's, named from the project's root, is read there).

Leaves out: whether a line of text is the clause's own (the catalogue quotes no line, only
paraphrases it; the text contracts, tests/test_silent.py, check their quotes on their lines)."""

from pathlib import Path

import pytest

from rulecheck.registry import DECLARATIONS

ROOT = Path(__file__).resolve().parents[1]
RULEBOOKS = ROOT.parent / "shared" / "rulebooks"


@pytest.mark.parametrize("name", sorted(DECLARATIONS))
def test_each_clause_names_lines_of_text_in_its_rulebook(name: str) -> None:
    catalogue = DECLARATIONS[name].catalogue()
    path = next((p for p in (ROOT / catalogue.rulebook, RULEBOOKS / catalogue.rulebook) if p.is_file()), ROOT)
    if not path.is_file():
        pytest.skip(f"{catalogue.rulebook} is not beside the checkout ({RULEBOOKS})")
    lines = path.read_text(encoding="utf-8").splitlines()
    wrong = []
    for clause in catalogue.clauses:
        past = [n for n in clause.lines if n > len(lines)]
        if past:
            wrong.append(f"{clause.id}: L{past[0]} is past the end ({len(lines)} lines)")
        elif clause.lines and not all(lines[n - 1].strip() for n in (min(clause.lines), max(clause.lines))):
            wrong.append(f"{clause.id}: lines {clause.lines} start or end on a blank line")
    assert not wrong, "; ".join(wrong)
