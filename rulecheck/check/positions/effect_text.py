"""What actions do in a position, as lines of text: what `rulecheck apply` prints.

Models: the text of an answer of `apply` (the data of ask.py's Effect, or a chain of them): an
action refused, with its clause and the reason; or the positions it leads to, each with its
exact probability and the parts of the position it changes; and, in a chain, the part of the
positions in which an action was refused. Outcomes that differ in one part of the position only
(the card a refill drew, say) are grouped into one line, with their count and the sum of their
probabilities, the part that differs shown as `<one of N>` where a list differs only there.

Leaves out: working the answer out (ask.py), and JSON, which lists every outcome as it is.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from rulecheck.core.exact import readable
from rulecheck.core.words import counted

Changes = Sequence[tuple[str, Any]]


def changes_line(changed: Iterable[tuple[str, Any]]) -> str:
    """The parts of a written position an outcome changes, each `path = value` (JSON), in order."""
    return ", ".join(f"{path} = {json.dumps(value)}" for path, value in changed) or "nothing changes"


def effect_lines(data: Mapping[str, Any], grouped: bool = True) -> list[str]:
    """The lines of an answer of `apply`: one action's (`to_data` of an Effect) or a chain's (its
    `steps`, each action's answer in turn); `grouped`: outcomes that differ in one part only on one line."""
    if "steps" in data:
        lines = [line for step in data["steps"] for line in effect_lines(step, grouped)]
        if data.get("not_applied"):
            lines.append(f"not applied, after a refusal: {', '.join(data['not_applied'])}")
        return lines
    action = data["action"]
    refusals = [
        f"  refused in {readable(Fraction(r['probability']))} of the positions: illegal [{r['illegal']}]: {r['reason']}"
        for r in data.get("refused", ())
    ]
    if "outcomes" not in data:
        if refusals:  # a chain's action, refused in every position it reached, for several reasons
            return [f"{action}: refused in every position", *refusals]
        return [f"{action}: illegal [{data['illegal']}]: {data['reason']}"]
    outcomes = [(Fraction(o["probability"]), tuple(sorted(o["changed"].items()))) for o in data["outcomes"]]
    lines = [f"{action}: {counted(len(outcomes), 'outcome')}", *refusals]
    for group in _groups(outcomes) if grouped else [[o] for o in outcomes]:
        lines.append(_group_line(group))
    return lines


def _groups(outcomes: Sequence[tuple[Fraction, Changes]]) -> list[list[tuple[Fraction, Changes]]]:
    """The outcomes in groups that agree on every part but one: the one part, left out, that
    leaves the fewest groups (each outcome alone when no part merges any), in the order of the
    first outcome of each group."""
    paths = sorted({path for _, changed in outcomes for path, _ in changed})
    best: list[list[tuple[Fraction, Changes]]] = [[o] for o in outcomes]
    for path in paths:
        groups: dict[str, list[tuple[Fraction, Changes]]] = {}
        for outcome in outcomes:
            rest = [(p, v) for p, v in outcome[1] if p != path]
            key = json.dumps([rest, any(p == path for p, _ in outcome[1])])
            groups.setdefault(key, []).append(outcome)
        if len(groups) < len(best):
            best = list(groups.values())
    return best


def _group_line(group: Sequence[tuple[Fraction, Changes]]) -> str:
    if len(group) == 1:
        probability, changed = group[0]
        return f"  {readable(probability)}: {changes_line(changed)}"
    total = sum((p for p, _ in group), Fraction(0))
    values = [dict(changed) for _, changed in group]
    differ = sorted({path for found in values for path in found if any(v.get(path) != found[path] for v in values)})
    if not differ:  # positions that differ in no part the position format writes (a hidden deck's order)
        return f"  {readable(total)}: {len(group)} outcomes alike in every written part: {changes_line(group[0][1])}"
    [path] = differ  # a group agrees on every part but one
    first = values[0]
    parts = [f"{p} = {_varying([v[p] for v in values]) if p == path else json.dumps(first[p])}" for p in sorted(first)]
    return f"  {readable(total)}: {len(group)} outcomes differing only in {path}: {', '.join(parts)}"


def _varying(values: Sequence[Any]) -> str:
    """The values a group's one differing part takes: lists of one length that differ at some
    places only, written with `<one of N>` there; anything else, as `<one of N values>`."""
    distinct = len({json.dumps(v) for v in values})
    if all(isinstance(v, list) for v in values) and len({len(v) for v in values}) == 1:
        items = [
            json.dumps(column[0]) if len({json.dumps(c) for c in column}) == 1 else f"<one of {distinct}>"
            for column in zip(*values, strict=True)
        ]
        return f"[{', '.join(items)}]"
    return f"<one of {distinct} values>"
