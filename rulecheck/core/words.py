"""Counts in words: a number and its noun, singular or plural as the number asks.

Models: English plural agreement for the nouns rulecheck's output counts ("1 player",
"2 players", "1 gear"), with an irregular plural given where a noun needs one ("1 copy",
"2 copies").

Leaves out: every other wording, and how the number itself is written (a caller that groups
thousands writes the number and asks `noun` for the word).
"""

from __future__ import annotations


def noun(number: int, word: str, plural: str | None = None) -> str:
    """`word` as `number` of them asks: itself for 1, else `plural` (or the word with an s)."""
    return word if number == 1 else plural if plural is not None else f"{word}s"


def counted(number: int, word: str, plural: str | None = None) -> str:
    """`number` and its noun: counted(1, "player") is "1 player", counted(3, "copy", "copies")
    "3 copies"."""
    return f"{number} {noun(number, word, plural)}"
