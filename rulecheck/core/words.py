"""Counts in words: a number and its noun, singular or plural as the number asks.

Models: English plural agreement for the nouns rulecheck's output counts ("1 player",
"2 players", "1 gear"), with an irregular plural given where a noun needs one.

Leaves out: every other wording; nouns are given as the caller spells them.
"""

from __future__ import annotations


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """`number` and `noun`, the noun plural unless the number is 1 (`plural`, or the noun with an
    s): counted(1, "player") is "1 player", counted(3, "match", "matches") "3 matches"."""
    word = noun if number == 1 else plural if plural is not None else f"{noun}s"
    return f"{number} {word}"
