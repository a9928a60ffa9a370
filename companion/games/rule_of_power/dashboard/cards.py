"""How cards look on screen: a colour per suit, the value, the rank name and a mark for the
cards that score on their own (R1, R10-R12).

Colours are given as foreground *and* background pairs, so a card reads the same on a light
and on a dark terminal theme.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

from companion.games.rule_of_power.engine.cards import Card, FateCategory, Suit

__all__ = ["SUIT_STYLES", "card_block", "card_chip", "card_marks", "card_style", "cards_line"]

#: Suit -> Rich style (explicit foreground and background).
SUIT_STYLES: dict[Suit, str] = {
    Suit.POWERS: "bold #1a1a1a on #f0c040",
    Suit.MEN: "bold #ffffff on #2f5f9e",
    Suit.ELVES: "bold #ffffff on #2e7d4f",
    Suit.DARKNESS: "bold #ffffff on #5b3a8c",
}
FATE_STYLES: dict[FateCategory, str] = {
    FateCategory.MAGIC: "bold #ffffff on #0f7c8c",
    FateCategory.CREATURE: "bold #ffffff on #a83232",
    FateCategory.CHARACTER: "bold #1a1a1a on #d9822b",
    FateCategory.EVENT: "bold #ffffff on #4d4d4d",
}

RING_MARKS = {"W001": "o", "W002": "oo", "W003": "ooo"}


def card_style(card: Card) -> str:
    if card.is_fate:
        assert card.category is not None
        return FATE_STYLES[card.category]
    assert card.suit is not None
    return SUIT_STYLES[card.suit]


def card_marks(card: Card) -> str:
    """A short mark for what makes the card special: the rings of the Power Ring cards (1, 2
    and 3 rings, as printed on them), the Fire Dragon, Dragons (Pride of Dragons) and Wizards
    (empowered by the Mystic Crystal)."""
    if card.is_fate:
        return ""
    if card.id == "W007":
        return "!"
    if card.is_ring:
        return RING_MARKS[card.id]
    if card.is_dragon:
        return "*"
    if card.is_wizard:
        return "^"
    return ""


def card_label(card: Card) -> str:
    """'7P!' for the Fire Dragon, '2Poo' for the Sword of Power, 'Thief' for a Fate card."""
    if card.is_fate:
        return card.name or card.id
    return f"{card.short}{card_marks(card)}"


def card_chip(card: Card, *, names: bool = False, dim: bool = False) -> Text:
    """One card on one line: ' 7P! ' coloured by suit, with the rank name when ``names``."""
    if card.is_fate:
        label = f" {card.name} "
    elif names:
        label = f" {card_label(card)} {card.name or card.rank_name} "
    else:
        label = f" {card_label(card)} "
    style = card_style(card)
    if dim:
        style += " dim"
    return Text(label, style=style)


def cards_line(cards: Iterable[Card], *, names: bool = False, empty: str = "none") -> Text:
    """Cards as chips separated by a space."""
    out = Text()
    for card in cards:
        if out:
            out.append(" ")
        out.append_text(card_chip(card, names=names))
    if not out:
        out.append(empty, style="italic")
    return out


def card_block(card: Card, width: int = 15) -> list[Text]:
    """A card as three lines of ``width`` cells: value and suit with marks, name, suit."""
    style = card_style(card)
    if card.is_fate:
        assert card.category is not None
        top = f" {card.value} Fate" if card.value else " Fate"
        middle = f" {card.name}"
        bottom = f" {card.category.value} ".ljust(width - len(card.id) - 1) + card.id
    else:
        assert card.suit is not None
        top = f" {card.value} {card.suit.label[0]} {card_marks(card)}"
        name = card.name or card.rank_name or ""
        middle = f" {name}" if len(name) < width else name
        bottom = f" {card.suit.label} ".ljust(width - len(card.id) - 1) + card.id
    return [Text(line[:width].ljust(width), style=style) for line in (top, middle, bottom)]
