"""Canonical text notation for actions: a verb and its arguments, separated by spaces.

Models: every action is a frozen attrs class with a class-level `verb`; its text is the
verb followed by each field in declaration order (`move T14 T15`, `roll 4`). Fields may
be `str` (one token without spaces), `int`, or, as the last field only, a tuple of
either (zero or more trailing tokens). Text parses back to an equal action, so another
engine needs only this grammar and the game's verbs. Legal-action tuples are sorted by
this text, code point by code point, which any language can reproduce.

Leaves out: what an action means; that belongs to each game's rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar, TypeVar, get_args, get_origin

import attrs

from rulecheck.core.errors import NotationError


class Action:
    """Base of every action class; subclasses are `@attrs.frozen` and set `verb`. An action's
    text is computed once, when it is made, and kept beside its fields (not part of
    equality, hashing or pickling): sorting and matching legal actions read it often. A
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

    def __getattr__(self, name: str) -> Any:
        """Only for `text` after unpickling, which restores the fields alone."""
        if name != "text":
            raise AttributeError(name)
        self.__attrs_post_init__()
        return self.text


A = TypeVar("A", bound=Action)


def action_fields(cls: type[Action]) -> tuple[attrs.Attribute[Any], ...]:
    """The fields of an action class, in declaration order (its text's argument order)."""
    return attrs.fields(cls)  # type: ignore[arg-type]


def sorted_by_text(actions: Iterable[A]) -> tuple[tuple[A, ...], dict[str, A]]:
    """Actions in canonical order (by their text), each once, and the same actions by their text."""
    found = {a.text: a for a in actions}
    return tuple(map(found.__getitem__, sorted(found))), found


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
        if not token.lstrip("-").isdigit():
            raise NotationError(f"{text!r}: expected a whole number, got {token!r}")
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
        tokens = text.split()
        if not tokens:
            raise NotationError("empty action text")
        cls = self._types.get(tokens[0])
        if cls is None:
            raise NotationError(f"{text!r}: unknown verb {tokens[0]!r}; verbs: {', '.join(self.verbs)}")
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
                raise NotationError(f"{text!r}: {cls.verb} takes {len(fields)} argument(s), got {len(args)}")
            values.append(_convert(args[index], field.type, text))
        else:
            if len(args) != len(fields):
                raise NotationError(f"{text!r}: {cls.verb} takes {len(fields)} argument(s), got {len(args)}")
        action = cls(*values)
        if str(action) != " ".join(tokens):
            raise NotationError(f"{text!r}: not canonical; write {str(action)!r}")
        return action
