"""Integer ids for actions, computed from each action class's declared argument domains.

Models: a game declares, for every action class, the values each field can take (a
tuple of values, or for a last field that is a tuple, a `Sequences` domain: sequences
of up to `longest` items drawn from given values). The ids of one numbering run from 0
to `count - 1`: the action classes take consecutive blocks in the order given, and
within a block an action's id is the mixed-radix number of its fields' positions in
their domains, the first field most significant (a sequence's length first, then its
items). Players' actions and chance outcomes are numbered apart, as OpenSpiel numbers
them, each from 0. The numbering depends only on the declared domains, so it is stable
for a game version: another engine reproduces it from docs alone.

Leaves out: which actions are legal; an id exists for every combination of values,
legal or not, as OpenSpiel's `num_distinct_actions` does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from rulecheck.core.errors import NotationError
from rulecheck.core.notation import Action, action_fields


@attrs.frozen
class Sequences:
    """The domain of a tuple field: every sequence of at most `longest` items from `values`."""

    values: tuple[Any, ...]
    longest: int

    @property
    def size(self) -> int:
        return sum(len(self.values) ** n for n in range(self.longest + 1))


Domain = tuple[Any, ...] | Sequences


def _size(domain: Domain) -> int:
    return domain.size if isinstance(domain, Sequences) else len(domain)


class Numbering:
    """The ids of the actions of some classes, from their fields' domains."""

    def __init__(self, domains: Mapping[type[Action], Sequence[Domain]]) -> None:
        self._blocks: list[tuple[type[Action], tuple[Domain, ...], int, int]] = []
        self._by_class: dict[type[Action], tuple[int, tuple[Domain, ...], tuple[dict[Any, int], ...]]] = {}
        offset = 0
        for cls, fields in domains.items():
            fields = tuple(fields)
            names = [f.name for f in action_fields(cls)]
            if len(fields) != len(names):
                raise ValueError(f"{cls.__name__}: {len(names)} fields, {len(fields)} domains")
            size = 1
            for domain in fields:
                size *= _size(domain)
            positions = tuple({v: i for i, v in enumerate(d.values if isinstance(d, Sequences) else d)} for d in fields)
            self._blocks.append((cls, fields, offset, size))
            self._by_class[cls] = (offset, fields, positions)
            offset += size
        self.count = offset

    def id(self, action: Action) -> int:
        """The id of `action`; NotationError if its class or a field value has no place here."""
        entry = self._by_class.get(type(action))
        if entry is None:
            raise NotationError(f"{str(action)!r}: no id for a {type(action).__name__} here")
        offset, fields, positions = entry
        number = 0
        for field, domain, position in zip(action_fields(type(action)), fields, positions):
            value = getattr(action, field.name)
            if isinstance(domain, Sequences):
                if not isinstance(value, tuple) or len(value) > domain.longest:
                    raise NotationError(f"{str(action)!r}: {field.name} has no id (at most {domain.longest} items)")
                digits = 0
                for item in value:
                    if item not in position:
                        raise NotationError(f"{str(action)!r}: {item!r} is not a value of {field.name}")
                    digits = digits * len(domain.values) + position[item]
                shorter = sum(len(domain.values) ** n for n in range(len(value)))
                number = number * domain.size + shorter + digits
            else:
                if value not in position:
                    raise NotationError(f"{str(action)!r}: {value!r} is not a value of {field.name}")
                number = number * len(domain) + position[value]
        return offset + number

    def action(self, number: int) -> Action:
        """The action whose id is `number`; NotationError if there is none."""
        if not 0 <= number < self.count:
            raise NotationError(f"no action has id {number}; ids run from 0 to {self.count - 1}")
        for cls, fields, offset, size in self._blocks:
            if number < offset + size:
                rest = number - offset
                values: list[Any] = []
                for domain in reversed(fields):
                    rest, index = divmod(rest, _size(domain))
                    values.append(_nth(domain, index))
                return cls(*reversed(values))
        raise AssertionError("unreachable: the blocks cover every id")


def _nth(domain: Domain, index: int) -> Any:
    if not isinstance(domain, Sequences):
        return domain[index]
    base = len(domain.values)
    length = 0
    while index >= base**length:
        index -= base**length
        length += 1
    items = []
    for _ in range(length):
        index, digit = divmod(index, base)
        items.append(domain.values[digit])
    return tuple(reversed(items))
