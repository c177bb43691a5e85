"""A game's variation points: every ambiguity in a rulebook is a named option, resolved once into a
frozen, typed record.

Models: a game declares its options as one frozen attrs class (a subclass of `Options`) whose every
field is an option: its type is an enum of the option's values (a subclass of `Reading`, whose
members' values are the text users write, `--set shooting=W1`), its default is one member, and
`option(...)` files the clause ids it reads and a one-line description with the field. The rules
read `options.shooting is Shooting.W1`, so a mistyped value is a type error and no rule compares
text. `OptionSpace` is what the record declares, seen as text (each option's name, default,
values, clauses and description), and resolves the user's choices (from code or from
`--set NAME=VALUE`) into a record, with errors that list what is allowed; `Options.text` is a
record seen as text again, for the edges (traces, suites, JSON, the command).

Leaves out: the meaning of each value, which lives in the game's rules.
"""

from __future__ import annotations

import difflib
import enum
from collections.abc import Iterable, Iterator, Mapping
from functools import cached_property
from typing import Final, TypeVar

import attrs

from rulecheck.core.errors import OptionError
from rulecheck.core.untrusted import shown


class Reading(enum.Enum):
    """One value of an option, one reading of the rulebook's text; its `value` is the text users
    write and traces record. Under Python 3.11 a member read from its class (`Shooter.ROVER`) takes
    the slow path of attribute lookup, since the metaclass (EnumType) defines __getattr__: about 900
    machine instructions, so engine code that compares a reading on every step keeps the member in
    a module global."""


R = TypeVar("R", bound=Reading)

_FACTS: Final = "option"
"""The metadata key under which `option` files an option's clauses and description on its field."""


def option(default: R, clauses: tuple[str, ...], description: str) -> R:
    """A field of an `Options` record: the option whose values are `default`'s enum, defaulting to
    `default`, reading the clauses `clauses`, described in one line by `description`."""
    facts = {_FACTS: (clauses, description)}
    return attrs.field(default=default, metadata=facts)


@attrs.frozen
class OptionText(Mapping[str, str]):
    """Resolved option values as text, one for every declared option; hashable and ordered by name."""

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


class _TextKept:
    """Where an `Options` record keeps its text once written: a slot of its own, outside the attrs
    fields (so not compared, hashed or pickled)."""

    __slots__ = ("_text",)
    _text: OptionText


@attrs.frozen
class Options(_TextKept):
    """A game's resolved options: the base of the frozen attrs record each game declares, whose
    every field is an `option`. Rules read the fields on every step: the text is a property that
    keeps what it wrote in a slot, not a `cached_property`, for which attrs gives a slotted class a
    `__getattr__`, and a class with one has every attribute read take Python's slow path (about 300
    machine instructions more a read)."""

    @property
    def text(self) -> OptionText:
        """Every option's value as text, ordered by name, for the edges (traces, suites, JSON);
        written on first use and kept."""
        try:
            return self._text
        except AttributeError:
            text = OptionText(tuple(sorted((f.name, getattr(self, f.name).value) for f in attrs.fields(type(self)))))
            object.__setattr__(self, "_text", text)
            return text


@attrs.frozen
class Option:
    """One variation point, as text. `values` lists every allowed value; the default is one of them."""

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


NAME_SHOWN: Final = 40
"""How much of an unknown option's name its error repeats: option names are short identifiers,
and the message lists every option of the game beside it, so a long name must not push the line
past what one line of an error holds."""
OPTIONS_LISTED: Final = 300
"""How long the list of a game's options in that error may be: a game with more lists the names
near the unknown one and says which command lists them all."""


def _declared(record: type[Options]) -> tuple[tuple[Option, type[Reading]], ...]:
    """Each field of `record` as an Option, with its enum; a field that is not an `option` of a
    Reading enum is an OptionError naming it."""
    found = []
    for field in attrs.fields(attrs.resolve_types(record)):
        kind, facts = field.type, field.metadata.get(_FACTS)
        if not (isinstance(kind, type) and issubclass(kind, Reading)) or facts is None:
            raise OptionError(f"{record.__name__}.{field.name} is not an option(...) of a Reading enum")
        clauses, description = facts
        values = tuple(member.value for member in kind)
        found.append((Option(field.name, field.default.value, values, clauses, description), kind))
    return tuple(found)


@attrs.frozen
class OptionSpace:
    """The options a game declares (its record class), and resolution of user choices into a record."""

    game: str
    record: type[Options]
    options: tuple[Option, ...] = attrs.field(init=False)
    _kinds: Mapping[str, type[Reading]] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        declared = _declared(self.record)
        object.__setattr__(self, "options", tuple(o for o, _ in declared))
        object.__setattr__(self, "_kinds", {o.name: kind for o, kind in declared})

    def get(self, name: str) -> Option:
        for option in self.options:
            if option.name == name:
                return option
        names = [o.name for o in self.options]
        allowed = "options: " + (", ".join(names) or "(none)")
        if len(allowed) > OPTIONS_LISTED:
            near = difflib.get_close_matches(name, names, n=3)
            allowed = (f"near it: {', '.join(near)}; " if near else "") + (
                f"`rulecheck options {self.game}` lists its {len(names)} options"
            )
        raise OptionError(f"unknown option {shown(name, NAME_SHOWN)} for {self.game}; {allowed}")

    def defaults(self) -> Options:
        return self.resolve({})

    def resolve(self, chosen: Mapping[str, str]) -> Options:
        """The record of every option's value: the chosen one where given, else the default."""
        values = {}
        for name, value in chosen.items():
            option = self.get(name)
            if value not in option.values:
                raise OptionError(
                    f"option {name!r} of {self.game} has no value {shown(value)}; allowed: {', '.join(option.values)}"
                )
            values[name] = self._kinds[name](value)
        return attrs.evolve(self.record(), **values)


def parse_assignments(assignments: Iterable[str]) -> dict[str, str]:
    """`["a=b", "c=d"]` as `{"a": "b", "c": "d"}`; a malformed or repeated one is an OptionError,
    and so is one with whitespace around its name or value (`' shooting = W0 '`): nothing is
    trimmed, so what is refused or accepted is what was typed."""
    chosen: dict[str, str] = {}
    for text in assignments:
        name, sep, value = text.partition("=")
        if not sep or not name or not value:
            raise OptionError(f"expected NAME=VALUE, got {shown(text)}")
        if name != name.strip() or value != value.strip():
            raise OptionError(f"expected NAME=VALUE without whitespace around the name or value, got {shown(text)}")
        if name in chosen:
            raise OptionError(f"option {shown(name)} set twice")
        chosen[name] = value
    return chosen
