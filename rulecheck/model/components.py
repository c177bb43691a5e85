"""The components of a game's data set as a list to read: what `rulecheck cards` prints.

Models: one component of a data set (a card, an achievement board, an improvement tile, a
blueprint, a truck, a bot model): its kind, its key (how actions, traces and positions write
it), its name (how the data set writes it; a scenario file takes either), and a short line of
its facts (cost, copies, zone).

Leaves out: what a component does in play (each game's rules) and reading data sets
(rulecheck/core/data.py).
"""

from __future__ import annotations

from typing import Any

import attrs


@attrs.frozen
class Component:
    """One entry of a data set, as listed."""

    kind: str
    key: str
    name: str
    facts: str
    """Its facts in a few words (`cost 3, 2 copies, biogenics`)."""

    def to_data(self) -> dict[str, Any]:
        return {"kind": self.kind, "key": self.key, "name": self.name, "facts": self.facts}
