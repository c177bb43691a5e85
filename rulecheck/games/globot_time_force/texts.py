"""What the Globot Time Force rulebook's turn and end-game sentences say, as text contracts for the
silent-decision finder (rulecheck/model/texts.py), each quoting its line of globot-time-force.txt.

Models: a passive skill resolved whenever its condition is met (L34); an IoM paying for any card,
a reserved one too (L110); reserving with 7 cards in the tableau, which the text leaves open
(L104, L111); no action after the last token is placed in an extra turn (L130); no
third consecutive turn (L126); the end only when no token remains, in hand or on a reservation
(L130, with L53's tokens "that can be used to reserve cards"). Each reads the written position
(docs/globot-time-force.md#scenarios) and the card data, never the engine.

Leaves out: every other clause (the finder lists them as unaudited), and skill conditions other
than the three kinds the card data has (colour count, distinct colours, card count).
"""

from __future__ import annotations

from typing import Any, Final

from rulecheck.model.texts import At, End, Forbid, Open, Permit, Run, TextContract

TIMELINE_VERBS: Final = frozenset({"gain", "iom", "reserve", "dismiss", "end"})
"""The actions that affect the timeline and so end a turn (L26, L118; `end` on an empty timeline)."""
TABLEAU: Final = 7
"""L104: "a tableau of up to 7 cards"."""


def _acting(at: At) -> int | None:
    """The player taking a turn, where one may act now (no skill effect waiting, the game not over)."""
    waiting = any(path.startswith("pending.") for path in at.position)
    return None if waiting or at.position.get("stage") != "act" else int(at.position["current"])


def _cards_by_name(data: Any) -> dict[str, Any]:
    return {card.name: card for card in data.cards.values()}


def _condition_met(requires: Any, tableau: list[Any]) -> bool:
    """A skill's condition on the tableau, read as GTF-C1/C2 word it: a card counts for each colour it shows."""
    if requires is None:
        return True
    if requires.kind == "colour-count":
        found = sum(requires.colour in card.colours for card in tableau)
    elif requires.kind == "distinct-colours":
        found = len(set().union(*(card.colours for card in tableau))) if tableau else 0
    elif requires.kind == "colourless":
        found = sum(not card.colours for card in tableau)
    else:
        found = len(tableau)
    return bool(found >= requires.at_least)


def _passive_offered(at: At) -> str | None:
    """L34: a passive skill of a tableau card whose condition holds may be resolved."""
    me = _acting(at)
    if me is None:
        return None
    cards = _cards_by_name(at.data)
    tableau = [cards[name] for name in at.player(me, "tableau", [])]
    holding = bool(at.player(me, "reserved", []))
    for position, card in enumerate(tableau):
        for number, skill in enumerate(card.skills):
            reserving = any(e.effect == "reserve-from-timeline" for e in skill.effects)
            if skill.kind == "passive" and _condition_met(skill.requires, tableau):
                if not (reserving and (holding or not at.position.get("timeline"))):
                    return f"resolve {position} {number}"
    return None


def _iom_on_reserved(at: At) -> str | None:
    """L110: an IoM covers the entire cost of any card, a card reserved on a previous turn (L33) too."""
    me = _acting(at)
    if me is None or at.player(me, "iom", 0) < 1 or not at.player(me, "reserved", []):
        return None
    if at.player(me, "reserved_this_turn", 0) or len(at.player(me, "tableau", [])) >= TABLEAU:
        return None
    return f"paying for the reserved {at.player(me, 'reserved')[0]} with an IoM"


def _paid_with_an_iom(at: At) -> bool:
    """The step put the mover's first reserved card into the tableau for one IoM, spending nothing else
    (no energy used, no charge or gear given up; a skill of the card gained may add some, L21)."""
    before = at.before
    assert before is not None
    me = int(before["current"])
    card = before[f"players.{me}.reserved"][0]
    held = ("charge", "gears.bronze", "gears.silver", "gears.gold")
    kept = at.player(me, "energy_used") == before.get(f"players.{me}.energy_used") and all(
        at.player(me, part, 0) >= before.get(f"players.{me}.{part}", 0) for part in held
    )
    gained = at.player(me, "tableau", []) == [*before[f"players.{me}.tableau"], card]
    return kept and gained and at.player(me, "iom", 0) == before[f"players.{me}.iom"] - 1


def _placed_last_token_in_extra_turn(at: At) -> bool:
    """L130: in an extra turn, a Place left its player no token to discard."""
    before = at.before
    if before is None or at.verb != "place" or not before.get("extra_turn") or not at.position.get("extra_turn"):
        return False
    me = int(before["current"])
    return bool(at.position.get("current") == me and at.player(me, "tokens", 0) == 0)


def _turn_ended_by(at: At) -> int | None:
    """The player whose turn the step ended: a timeline action ends the turn (L26, L118)."""
    if at.before is None or at.verb not in TIMELINE_VERBS:
        return None
    return int(at.before["current"])


def _reserving_with_a_full_tableau(at: At) -> bool:
    """L104, L111: the mover's tableau holds 7 cards and she holds no reservation, with a card and
    a token to reserve with: the text says nothing of reserving a card that can be added only
    after a discard (L121)."""
    me = _acting(at)
    if me is None or at.player(me, "reserved", []) or not at.position.get("timeline"):
        return False
    return len(at.player(me, "tableau", [])) >= TABLEAU and at.player(me, "tokens", 0) > 0


def _no_token_in_hand(at: At) -> bool:
    return all(not at.player(p, "tokens", 0) for p in range(at.players))


def _no_token_on_a_reservation(at: At) -> bool:
    """Where no token is left in hand (the other condition's case), none holds a reservation either."""
    in_hand = not _no_token_in_hand(at)
    return in_hand or all(not at.player(p, "reserved", []) for p in range(at.players))


CONTRACTS: Final = (
    TextContract(
        "GTF-T3a",
        34,
        "Resolve any skills on cards in your tableau whenever their individual conditions are met.",
        permits=(Permit("resolve", _passive_offered),),
    ),
    TextContract(
        "GTF-R4",
        110,
        "to cover the entire cost of any card without spending any",
        permits=(Permit("pay-iom", _iom_on_reserved, _paid_with_an_iom),),
    ),
    TextContract(
        "GTF-T2c",
        111,
        "they still must pay the cost on a later turn to add the card to their tableau",
        open=(Open("reserve", _reserving_with_a_full_tableau, "whether a player with 7 cards may reserve a card"),),
    ),
    TextContract(
        "GTF-E3",
        130,
        "they will not be able to take any other actions if they do not have another token to discard",
        forbids=(Forbid(frozenset(), _placed_last_token_in_extra_turn, "the last token was placed in an extra turn"),),
    ),
    TextContract(
        "GTF-T13",
        126,
        "a player can never gain a third consecutive turn during the game",
        run=Run(2, _turn_ended_by, lambda at: at.players > 1, "a player can never gain a third consecutive turn"),
    ),
    TextContract(
        "GTF-E4",
        130,
        "When no tokens remain for any player, proceed to end-game scoring.",
        ends=(
            End("token-in-hand", _no_token_in_hand, "a player still holds a token in hand"),
            End(
                "token-on-a-reservation",
                _no_token_on_a_reservation,
                "a player's token still holds a reserved card (L53: tokens 'can be used to reserve cards')",
            ),
        ),
    ),
)
