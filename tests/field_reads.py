"""A state seen through a window that lets only some of its fields be read, for testing what a
property's check reads. The window watches the state object itself (its class's attribute
lookup is hooked while the window is open), so the class's methods and properties that the
check calls read through it too."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import attrs


class ReadOutside(AssertionError):
    """A check read a field of the state outside the window."""


@contextmanager
def window(state: Any, fields: frozenset[str] | None = None) -> Iterator[set[str]]:
    """While open, a read of a field of `state` outside `fields` (every field, when `fields` is
    None) raises ReadOutside, and every field read is recorded in the set it gives."""
    cls = type(state)
    assert "__getattribute__" not in vars(cls), f"{cls.__name__} is watched already"
    names = frozenset(f.name for f in attrs.fields(cls))
    read: set[str] = set()

    def __getattribute__(self: Any, name: str) -> Any:
        if self is state and name in names:
            if fields is not None and name not in fields:
                raise ReadOutside(f"reads {name!r}, outside {sorted(fields)}")
            read.add(name)
        return object.__getattribute__(self, name)

    cls.__getattribute__ = __getattribute__
    try:
        yield read
    finally:
        del cls.__getattribute__
