"""Hidden order as chance: a face-down deck or stack as multisets of unseen items.

Models: a pile is a sequence of layers from the top down; each layer is a multiset of
items whose order among themselves nobody knows (the shuffled deck is one layer; cards
later put at the bottom form layers below it, in the order they were put there). The
pile never stores an order that nobody has seen: drawing from the top is a chance node
over the distinct items of the top layer, each with the exact probability of its count
over the layer's size, so a 40-card deck costs at most 40 outcomes per draw and never
40! shuffles. Everyone may know a pile's layers as multisets, since it stores nothing
more; but where players hold cards drawn from it in secret, the pile's contents give
those cards away, so a game's observation shows a player the pile's size and the
multiset of everything that player has not seen, not the pile itself.

Leaves out: what the items are (card or tile names, a game's data) and who may draw; a
game calls `draw_outcomes` at its chance node and `without_top` for the outcome.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from fractions import Fraction

import attrs

Layer = tuple[tuple[str, int], ...]
"""A multiset of items as (item, count) pairs, sorted by item, every count positive."""


def _layer(items: Iterable[str]) -> Layer:
    return tuple(sorted(Counter(items).items()))


@attrs.frozen(cache_hash=True)
class Pile:
    layers: tuple[Layer, ...] = ()
    """From the top down; no layer is empty."""

    @classmethod
    def shuffled(cls, items: Iterable[str]) -> Pile:
        """A face-down pile of `items` in an order nobody knows."""
        layer = _layer(items)
        return cls((layer,) if layer else ())

    @property
    def size(self) -> int:
        return sum(count for layer in self.layers for _, count in layer)

    def contents(self) -> Counter[str]:
        """Every item in the pile, with its count."""
        found: Counter[str] = Counter()
        for layer in self.layers:
            found.update(dict(layer))
        return found

    def draw_outcomes(self) -> tuple[tuple[str, Fraction], ...]:
        """The item on top, as chance: each distinct item of the top layer with its exact probability."""
        if not self.layers:
            raise ValueError("drawing from an empty pile")
        top = self.layers[0]
        total = sum(count for _, count in top)
        return tuple((item, Fraction(count, total)) for item, count in top)

    def without_top(self, item: str) -> Pile:
        """The pile after `item` was drawn from the top; ValueError if it could not have been there."""
        layer = self.layers[0] if self.layers else ()
        for at, (name, count) in enumerate(layer):
            if name == item:
                break
        else:
            raise ValueError(f"{item!r} cannot be on top of this pile")
        top = layer[:at] + (((item, count - 1),) if count > 1 else ()) + layer[at + 1 :]
        return Pile(((top,) if top else ()) + self.layers[1:])

    def put_bottom(self, items: Iterable[str]) -> Pile:
        """The pile with `items` put underneath it together (their order among themselves unknown)."""
        layer = _layer(items)
        return Pile(self.layers + ((layer,) if layer else ()))

    def put_top(self, items: Iterable[str]) -> Pile:
        """The pile with `items` put on top of it together."""
        layer = _layer(items)
        return Pile(((layer,) if layer else ()) + self.layers)

    def reshuffled(self) -> Pile:
        """The pile shuffled again: one layer of everything in it."""
        return Pile.shuffled(self.contents().elements())
