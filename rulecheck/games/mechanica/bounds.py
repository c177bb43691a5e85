"""The least and the most a Mechanica score can be, derived from the rules, the board and the data set.

Models: bounds on every player's final score in a game of at most a given number of steps, from
the layout's graph (the longest run of Factory Floor squares), the improvements, blueprints,
bot models and starting Wallet of the data set; OpenSpiel declares them as a game's utility bounds.

Leaves out: tight bounds. These are honest but very loose: bots may keep entering a factory at
every step, so the most grows with the length of the game.
"""

from __future__ import annotations

from typing import Any

import networkx as nx

from rulecheck.games.mechanica.data import FLOOR


def score_bounds(data: Any, max_steps: int) -> tuple[int, int]:
    """A Mechanica score is Wallet + Vault + the value of the installed improvements (game.py).
    None is below 0: the Wallet pays only what it holds, the Vault only gains, and values are at
    least 0 by the schema; so 0 is the least. The most is the sum of:
    - the starting Wallet;
    - improvements: one on each Start Zone and Factory Floor square, each worth at most the
      best value;
    - blueprints: a player completes each at most once (MEC-B4 under either reading), so at
      most every payout;
    - money from bots: a bot turns into money once, sold from a Truck or wrapped, for at most
      the best model's value. A factory starts with 1 bot, and in each step at most E more
      enter it: as many as the Start Zone has squares (one Make: a bot from each Fabricator,
      or another player's gifts) or twice the most bots a recycled tile gives (a step turns
      the Shop at most twice). A bot rides forward along the belts, which have no cycle, and
      an improvement makes at most two bots of one, so each bot that enters yields at most
      2**d, d the most Factory Floor squares on one path of the board."""
    layout = data.layout
    graph: Any = layout.graph
    floors: dict[str, int] = {}
    for square in reversed(list(nx.topological_sort(graph))):
        after = max((floors[s] for s in graph.successors(square)), default=0)
        floors[square] = after + (layout.zone(square) == FLOOR)
    squares = len(layout.start) + len(layout.floor)
    entering = max(len(layout.start), 2 * max(len(i.recycle) for i in data.improvements))
    bots = (1 + max_steps * entering) * 2 ** max(floors.values())
    improvements = squares * max(i.value for i in data.improvements)
    payouts = sum(b.payout for b in data.blueprints)
    return 0, data.start_wallet + improvements + payouts + bots * max(m.value for m in data.models)
