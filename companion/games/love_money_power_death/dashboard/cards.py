"""How Love, Money, Power, Death's cards look on screen: each card by its identifier (L3), on
its suit's colour (L2: Love, Money, Power, Death), an agent in grey; a card face down as a
block. Colours are given as foreground *and* background pairs, so a card reads the same on a
light and on a dark terminal theme.

>>> from companion.games.love_money_power_death.cards import Card
>>> card_chip(Card.from_id("N3P")).plain, cards_line([]).plain
('N3P', '-')
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

from companion.games.love_money_power_death.cards import SUIT_NAMES, Card

__all__ = ["CARD_STYLES", "FACE_DOWN", "TO_COMMIT", "card_chip", "cards_line", "suit_text", "face_down"]

#: A suit's letter (``None`` for an agent) -> Rich style (explicit foreground and background).
CARD_STYLES: dict[str | None, str] = {
    "L": "bold #ffffff on #b03060",
    "M": "bold #1a1a1a on #e0b030",
    "P": "bold #ffffff on #2e7d4f",
    "D": "bold #ffffff on #4a3f6b",
    None: "bold #1a1a1a on #b8bec8",
}
#: A suit's letter in words and figures: its colour, no background.
SUIT_STYLES: dict[str, str] = {"L": "bold #e0608a", "M": "bold #e0b030", "P": "bold #4caf72", "D": "bold #9a88d0"}

FACE_DOWN = "▮"
"""A card face down: committed, its card not shown (L6)."""
TO_COMMIT = "○"
"""A player still to commit this round (L6)."""


def card_chip(card: Card, *, dim: bool = False) -> Text:
    """One card: its identifier on its suit's colour (``N3P``, ``4Mb``, ``A2``)."""
    return Text(card.id, style=CARD_STYLES[card.suit] + (" dim" if dim else ""))


def cards_line(cards: Iterable[Card], *, empty: str = "-", sep: str = " ") -> Text:
    """Cards side by side, ``empty`` when there are none."""
    out = Text()
    for k, card in enumerate(cards):
        if k:
            out.append(sep)
        out.append_text(card_chip(card))
    return out if out.plain else Text(empty, style="dim")


def suit_text(suit: str, *, long: bool = True) -> Text:
    """A suit in its colour: ``Love`` (or ``L``)."""
    return Text(SUIT_NAMES[suit] if long else suit, style=SUIT_STYLES[suit])


def face_down() -> Text:
    """A committed card, face down (L6)."""
    return Text(FACE_DOWN, style="bold")
