"""A state seen through a window that lets only some of its fields be read, for testing what a
property's check reads; the state class's methods and properties run on the window, so what
they read is seen too."""

from __future__ import annotations

import inspect
import types
from typing import Any


class ReadOutside(AssertionError):
    """A check read a field of the state outside the window."""


class Window:
    """`state` with only `fields` readable (every field, when `fields` is None); `read` records
    every field read through it."""

    def __init__(self, state: Any, fields: frozenset[str] | None = None) -> None:
        object.__setattr__(self, "_state", state)
        object.__setattr__(self, "_fields", fields)
        object.__setattr__(self, "read", set())

    def __getattr__(self, name: str) -> Any:
        state = object.__getattribute__(self, "_state")
        fields = object.__getattribute__(self, "_fields")
        found = inspect.getattr_static(type(state), name, None)
        if isinstance(found, property):
            return found.fget(self)
        if inspect.isfunction(found):
            return types.MethodType(found, self)
        if hasattr(state, name):
            if fields is not None and name not in fields:
                raise ReadOutside(f"reads {name!r}, outside {sorted(fields)}")
            object.__getattribute__(self, "read").add(name)
            return getattr(state, name)
        raise AttributeError(name)
