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


@attrs.frozen
class Action:
    """Base of every action class; subclasses are `@attrs.frozen` and set `verb`."""

    verb: ClassVar[str] = ""

    def __str__(self) -> str:
        tokens = [self.verb]
        for field in attrs.fields(type(self)):
            value = getattr(self, field.name)
            if isinstance(value, tuple):
                tokens.extend(str(v) for v in value)
            else:
                tokens.append(str(value))
        return " ".join(tokens)


A = TypeVar("A", bound=Action)


def sort_actions(actions: Iterable[A]) -> tuple[A, ...]:
    """Actions in canonical order (by their text), each once."""
    return tuple(sorted(set(actions), key=str))


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
            attrs.resolve_types(cls)
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
        fields = attrs.fields(cls)
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
