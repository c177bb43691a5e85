"""Canonical text notation for actions: a verb and its arguments, separated by spaces.

Models: every action is a frozen attrs class with a class-level `verb`; its text is the
verb followed by each field in declaration order (`move T14 T15`, `roll 4`). Fields may
be `str` (one token without spaces), `int`, or, as the last field only, a tuple of
either (zero or more trailing tokens). Text parses back to an equal action, so another
engine needs only this grammar and the game's verbs. Only the canonical text parses:
single ASCII spaces between tokens and none around them, whole numbers as ASCII digits
with an optional `-` and no leading zeros (at most MAX_INT_DIGITS of them), at most
MAX_ACTION_TEXT characters; anything else is refused, with the canonical spelling where
there is one (`'move  T1 T2': not canonical; write 'move T1 T2'`). Legal-action tuples
are sorted by this text, code point by code point, which any language can reproduce.

Leaves out: what an action means; that belongs to each game's rules.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, ClassVar, TypeVar, get_args, get_origin

import attrs

from rulecheck.core.errors import NotationError
from rulecheck.core.untrusted import MAX_INT_DIGITS, shown

MAX_ACTION_TEXT = 1_000
"""The most characters of action text parsed; longer text is refused before it is split."""

WHOLE_NUMBER = re.compile(r"-?[0-9]+")
"""A whole-number token: ASCII digits only (`str.isdigit` also accepts '²', which `int` refuses)."""


class Action:
    """Base of every action class; subclasses are `@attrs.frozen` and set `verb`. An action's
    text is computed once, when it is made, and kept beside its fields (not part of
    equality or hashing): sorting and matching legal actions read it often. A
    subclass that defines `__attrs_post_init__` calls this one's."""

    __slots__ = ("text",)
    verb: ClassVar[str] = ""
    text: str

    def __attrs_post_init__(self) -> None:
        tokens = [self.verb]
        for field in type(self).__attrs_attrs__:  # type: ignore[attr-defined]
            value = getattr(self, field.name)
            if isinstance(value, tuple):
                tokens.extend(str(v) for v in value)
            else:
                tokens.append(str(value))
        object.__setattr__(self, "text", " ".join(tokens))

    def __str__(self) -> str:
        return self.text

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its class and fields, so that unpickling makes it anew, text and all (attrs'
        own pickling restores the fields alone). This rather than a `__getattr__` that writes the
        text on first read: a class that defines `__getattr__` has every attribute read take
        Python's slow path (about 300 machine instructions more a read), and play reads an
        action's text and fields several times a step."""
        return type(self), tuple(getattr(self, field.name) for field in type(self).__attrs_attrs__)  # type: ignore[attr-defined]


A = TypeVar("A", bound=Action)


def action_fields(cls: type[Action]) -> tuple[attrs.Attribute[Any], ...]:
    """The fields of an action class, in declaration order (its text's argument order)."""
    return attrs.fields(cls)  # type: ignore[arg-type]


class ActionCache:
    """One instance per distinct action of a game, made on first use: a game whose legal
    actions come from a fixed universe (moves between board spaces) builds each action and
    its text once, not on every step. Safe to share between threads (a race makes an equal
    action twice, which is harmless)."""

    def __init__(self) -> None:
        self._made: dict[tuple[Any, ...], Action] = {}

    def __call__(self, cls: type[A], *args: Any) -> A:
        key = (cls, *args)
        action = self._made.get(key)
        if action is None:
            action = self._made[key] = cls(*args)
        return action  # type: ignore[return-value]


def _convert(token: str, kind: Any, text: str) -> str | int:
    if kind is int:
        if not WHOLE_NUMBER.fullmatch(token):
            raise NotationError(f"{shown(text)}: expected a whole number, got {shown(token)}")
        if len(token.lstrip("-")) > MAX_INT_DIGITS:
            raise NotationError(f"{shown(text)}: a whole number of more than {MAX_INT_DIGITS} digits")
        return int(token)
    return token


class Notation:
    """Parser for one game's action classes."""

    def __init__(self, action_types: Iterable[type[Action]]) -> None:
        self._types: dict[str, type[Action]] = {}
        for cls in action_types:
            if not cls.verb or cls.verb in self._types or " " in cls.verb:
                raise ValueError(f"action class {cls.__name__} needs a unique one-word verb, has {cls.verb!r}")
            attrs.resolve_types(cls)  # type: ignore[type-var]
            self._types[cls.verb] = cls

    @property
    def verbs(self) -> tuple[str, ...]:
        return tuple(sorted(self._types))

    def parse(self, text: str) -> Action:
        """The action whose canonical text is exactly `text`; NotationError otherwise. Text that
        splits at any whitespace into a valid action, but is not spelled canonically, is refused
        with the canonical spelling."""
        if len(text) > MAX_ACTION_TEXT:
            raise NotationError(f"{shown(text)}: action text is at most {MAX_ACTION_TEXT:,} characters")
        tokens = text.split()
        if not tokens:
            raise NotationError(f"empty action text {shown(text)}" if text else "empty action text")
        cls = self._types.get(tokens[0])
        if cls is None:
            raise NotationError(f"{shown(text)}: unknown verb {shown(tokens[0], 40)}; verbs: {', '.join(self.verbs)}")
        fields = action_fields(cls)
        args = tokens[1:]
        values: list[Any] = []
        for index, field in enumerate(fields):
            if get_origin(field.type) is tuple:
                if index != len(fields) - 1:
                    raise ValueError(f"{cls.__name__}: only the last field may be a tuple")
                values.append(tuple(_convert(t, get_args(field.type)[0], text) for t in args[index:]))
                break
            if index >= len(args):
                raise NotationError(f"{shown(text)}: {cls.verb} takes {len(fields)} argument(s), got {len(args)}")
            values.append(_convert(args[index], field.type, text))
        else:
            if len(args) != len(fields):
                raise NotationError(f"{shown(text)}: {cls.verb} takes {len(fields)} argument(s), got {len(args)}")
        action = cls(*values)
        if action.text != text:
            raise NotationError(f"{shown(text)}: not canonical; write {shown(action.text)}")
        return action
