"""A game's variation points: every ambiguity in a rulebook is a named option.

Models: an option's name, default, allowed values, the clause ids it reads and a
one-line description; the set of options a game declares; and resolution of the user's
choices (from code or from `--set NAME=VALUE`) against that set, with errors that list
what is allowed.

Leaves out: the meaning of each value, which lives in the game's rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from functools import cached_property
from typing import Final

import attrs

from rulecheck.core.errors import OptionError
from rulecheck.core.untrusted import shown


@attrs.frozen
class Option:
    """One variation point. `values` lists every allowed value; the default is one of them."""

    name: str
    default: str
    values: tuple[str, ...]
    clauses: tuple[str, ...]
    description: str

    def __attrs_post_init__(self) -> None:
        if self.default not in self.values:
            raise OptionError(f"option {self.name!r}: default {self.default!r} is not among {self.values}")
        if len(set(self.values)) != len(self.values):
            raise OptionError(f"option {self.name!r}: repeated values in {self.values}")


@attrs.frozen
class Options(Mapping[str, str]):
    """Resolved option values, one for every declared option; hashable and ordered by name."""

    items_: tuple[tuple[str, str], ...]

    @cached_property
    def _by_name(self) -> dict[str, str]:
        return dict(self.items_)

    def __getitem__(self, name: str) -> str:
        return self._by_name[name]

    def __iter__(self) -> Iterator[str]:
        return (key for key, _ in self.items_)

    def __len__(self) -> int:
        return len(self.items_)


NAME_SHOWN: Final = 40
"""How much of an unknown option's name its error repeats: option names are short identifiers,
and the message lists every option of the game beside it, so a long name must not push the line
past what one line of an error holds."""


@attrs.frozen
class OptionSpace:
    """The options a game declares, and resolution of user choices against them."""

    game: str
    options: tuple[Option, ...]

    def __attrs_post_init__(self) -> None:
        names = [o.name for o in self.options]
        if len(set(names)) != len(names):
            raise OptionError(f"{self.game}: option names repeat: {names}")

    def get(self, name: str) -> Option:
        for option in self.options:
            if option.name == name:
                return option
        allowed = ", ".join(o.name for o in self.options) or "(none)"
        raise OptionError(f"unknown option {shown(name, NAME_SHOWN)} for {self.game}; options: {allowed}")

    def defaults(self) -> Options:
        return self.resolve({})

    def resolve(self, chosen: Mapping[str, str]) -> Options:
        """Every option's value: the chosen one where given, else the default."""
        for name, value in chosen.items():
            option = self.get(name)
            if value not in option.values:
                raise OptionError(
                    f"option {name!r} of {self.game} has no value {shown(value)}; allowed: {', '.join(option.values)}"
                )
        return Options(tuple(sorted((o.name, chosen.get(o.name, o.default)) for o in self.options)))


def parse_assignments(assignments: Iterable[str]) -> dict[str, str]:
    """`["a=b", "c=d"]` as `{"a": "b", "c": "d"}`; a malformed or repeated one is an OptionError."""
    chosen: dict[str, str] = {}
    for text in assignments:
        name, sep, value = text.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name or not value:
            raise OptionError(f"expected NAME=VALUE, got {shown(text)}")
        if name in chosen:
            raise OptionError(f"option {shown(name)} set twice")
        chosen[name] = value
    return chosen
