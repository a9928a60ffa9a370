"""How Circle of Power's cards look on screen: each card by its id (C1), coloured by its colour
(red hearts and diamonds, black spades and clubs, gold jokers), and the trump suits by letter.

Colours are given as foreground *and* background pairs, so a card reads the same on a light
and on a dark terminal theme.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

from companion.games.circle_of_power.cards import SUIT_NAMES, Card

__all__ = ["CARD_STYLES", "card_chip", "card_style", "cards_line", "suit_text"]

#: A card's colour -> Rich style (explicit foreground and background).
CARD_STYLES: dict[str | None, str] = {
    "red": "bold #ffffff on #b3261e",
    "black": "bold #ffffff on #3a3a3a",
    None: "bold #1a1a1a on #e8b923",
}
#: A suit's letter as a trump suit: the colour of the suit, no background.
SUIT_STYLES: dict[str, str] = {"H": "bold #e04a3f", "D": "bold #e04a3f", "S": "bold", "C": "bold"}


def card_style(card: Card) -> str:
    return CARD_STYLES[card.colour]


def card_chip(card: Card, *, dim: bool = False) -> Text:
    """One card: its id on its colour (``QS``, ``10H``, ``X1``)."""
    return Text(card.id, style=card_style(card) + (" dim" if dim else ""))


def cards_line(cards: Iterable[Card], *, empty: str = "-", sep: str = " ") -> Text:
    """Cards side by side, ``empty`` when there are none."""
    out = Text()
    for k, card in enumerate(cards):
        if k:
            out.append(sep)
        out.append_text(card_chip(card))
    return out if out.plain else Text(empty, style="dim")


def suit_text(suit: str | None, *, long: bool = False) -> Text:
    """A trump suit: its letter (``H``), or its name (``hearts``) when ``long``; ``-`` for
    none (C9)."""
    if suit is None:
        return Text("none" if long else "-", style="dim")
    return Text(SUIT_NAMES[suit] if long else suit, style=SUIT_STYLES[suit])
