"""The ``rop legal`` question for Ruse and Bruise as a pure function: one column's
distribution (B18-B26), step by step, from a goal card, the column's cards and a values table
(record-format.md, "One column's distribution").

>>> from companion.games.ruse_and_bruise.values import EXAMPLE
>>> answer = legal("music-3a", "blue:KING,white:WIZ,blue:DOPPEL,red:MINNE", EXAMPLE)
>>> answer.to_json()["steps"]
[{'ability': 'WIZ', 'cards': [2], 'neutralized': False, 'removed': [1, 3, 4]}]
>>> legal("music-3a", "blue:KING,blue:king", EXAMPLE)
Traceback (most recent call last):
...
companion.contract.errors.IllegalMoveError: B1: blue has one King: each owner has one of each card
"""

from __future__ import annotations

from companion.contract.errors import IllegalMoveError, InvalidMoveError, UnknownCardError
from companion.games.ruse_and_bruise.cards import CARDS, Goal, Influence
from companion.games.ruse_and_bruise.distribution import ColumnDistribution, distribute
from companion.games.ruse_and_bruise.values import ValuesTable

__all__ = ["legal", "parse_column", "parse_goal"]


def parse_goal(text: str) -> Goal:
    """The goal card heading the column (``music-3a``, ``Music 3a``, B5)."""
    try:
        card = CARDS.parse(text)
    except UnknownCardError:
        return Goal.from_id(text)  # its refusal says how a goal card is written
    if not isinstance(card, Goal):
        raise UnknownCardError(text, f"--goal: {card.id} is an influence card; the goal card is an area and a value, as music-3a (B5)")
    return card


def parse_column(text: str) -> list[tuple[str, Influence]]:
    """The column's cards from the goal card down, ``owner:CARD`` separated by commas (any
    names for the owners: colours, players). Each owner has one of each card (B1)."""
    out: list[tuple[str, Influence]] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        owner, sep, card_text = part.partition(":")
        owner = owner.strip()
        if not sep or not owner or not card_text.strip():
            raise InvalidMoveError(f"--cards: write each card as owner:CARD (blue:KING), not {part!r}")
        card = CARDS.parse_influence(card_text.strip())
        if (owner, card) in out:
            raise IllegalMoveError("B1", f"{owner} has one {card.name}: each owner has one of each card")
        out.append((owner, card))
    return out


def legal(goal: str | Goal, cards: str | list[tuple[str, Influence]], values: ValuesTable) -> ColumnDistribution:
    """The distribution of one column: ``goal`` heading it, ``cards`` from the goal card down
    (``"blue:KING,white:WIZ"`` or (owner, card) pairs), with the table's ``values`` (B4)."""
    heading = goal if isinstance(goal, Goal) else parse_goal(goal)
    column = parse_column(cards) if isinstance(cards, str) else list(cards)
    return distribute(heading, column, values)
