"""A frozen attrs instance with some fields changed, made without attrs.evolve's per-call work.

Models: `attrs.evolve` for the classes engines build states from, whose every field their
`__init__` takes by position: a class's field names, a getter of all its field values at once
and each name's position are worked out on its first use and kept, so a call reads the values in
one go, puts the changed ones in their places and passes them all by position. Engines make a
changed state on most steps, and attrs.evolve inspects the class's fields on every call.

Leaves out: classes with a field their `__init__` does not take, or takes by keyword only (a
TypeError names the class; attrs.evolve serves them).
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar

import attrs

T = TypeVar("T")

Shape = tuple[Callable[[Any], Any], dict[str, int]]
"""A class's getter of all its field values (a tuple), and each field's position."""

_SHAPES: dict[type, Shape] = {}
"""Each class evolved so far, with its shape."""


def evolve(value: T, **changes: Any) -> T:
    """`value` with the fields named in `changes` set to their values, the others as they are; a
    TypeError for a name that is no field of its class."""
    cls: Any = type(value)
    shape = _SHAPES.get(cls)
    if shape is None:
        shape = _SHAPES[cls] = _shape(cls)
    read, index = shape
    values = list(read(value))
    for name, changed in changes.items():
        at = index.get(name)
        if at is None:
            raise TypeError(f"{cls.__name__} has no field {name!r}")
        values[at] = changed
    made: T = cls(*values)
    return made


def _shape(cls: type) -> Shape:
    fields = attrs.fields(cls)
    if any(not f.init or f.kw_only for f in fields):
        raise TypeError(f"{cls.__name__}: evolve needs every field taken by position by __init__")
    names = [f.name for f in fields]
    read = attrgetter(*names) if len(names) > 1 else (lambda value: (getattr(value, names[0]),))
    return read, {name: i for i, name in enumerate(names)}
