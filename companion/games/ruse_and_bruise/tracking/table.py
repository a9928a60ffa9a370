"""The Ruse and Bruise table as the camera shows it, and as the game expects it to look.

The zones are the table spec's (:mod:`companion.games.ruse_and_bruise.table`): a goal stack
and a column for each player, numbered 1 to N from the left as the camera sees them (B7:
``goal-1``, ``column-1``, ...), and each player's stack, discard pile, goal cards won and hand
(``stack:ann``, ...). Only what lies face up for everyone is compared with the game: the goal
card turned up on each goal stack and the influence cards turned face up in the columns
(B10, B16). The cards placed face down, the stacks, the discard piles, the hands and the goal
cards won are never compared: the camera sees at most the back of a colour there.

A card the camera reports is its card and its copy: an influence card's copy is its colour
(B1), a goal card's none. The table's cards are counted as such pairs, zone by zone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from companion.games.ruse_and_bruise.cards import Goal, Influence
from companion.games.ruse_and_bruise.game import Phase, RabState
from companion.games.ruse_and_bruise.table import COLUMN, GOAL, column_of_zone, column_zone, goal_zone

__all__ = ["Seen", "Zones", "compared", "observed_zones", "expected_zones", "describe_difference", "colour_of"]

Seen = tuple[Influence | Goal, "str | None"]
"""A physical card as the camera names it: the card and its copy (an influence card's colour,
``None`` for a goal card)."""
Zones = dict[str, Counter[Seen]]
"""Physical cards face up, counted per compared zone."""

_ROUND = (Phase.PLACE, Phase.TURN, Phase.ABILITY, Phase.REVEAL, Phase.DISTRIBUTE)
"""The phases in which a round's cards lie on the table."""


def compared(zone: str | None) -> bool:
    """Whether cards face up in ``zone`` are compared with the game: the goal stacks and the
    columns."""
    return column_of_zone(zone, GOAL) is not None or column_of_zone(zone, COLUMN) is not None


def colour_of(game: RabState, player: str) -> str:
    """The colour of ``player``'s influence cards (B1)."""
    return game.setup.colours[game.players.index(player)]


def observed_zones(cards: Mapping[tuple[Any, str | None], str | None]) -> Zones:
    """The compared part of what the camera reports (the tracker's view: each physical card's
    zone), as physical cards per zone."""
    out: Zones = {}
    for key, zone in cards.items():
        if zone is not None and compared(zone) and isinstance(key[0], (Influence, Goal)):
            out.setdefault(zone, Counter())[key] += 1
    return out


def expected_zones(game: RabState) -> Zones:
    """How the compared part of the table should look in ``game``'s position: during a round,
    each goal card on its stack and every influence card turned face up in its column (B10);
    between rounds, nothing (the goal cards are won or out of the game, the influence cards in
    the discard piles, B27)."""
    out: Zones = {}
    if game.phase not in _ROUND:
        return out
    colours = dict(zip(game.players, game.setup.colours))
    for col in game.columns:
        if col.goal is not None:
            out[goal_zone(col.number)] = Counter([(col.goal, None)])
        up: Counter[Seen] = Counter((card, colours[owner]) for owner, card, face_up in col.cards if face_up and card is not None)
        if up:
            out[column_zone(col.number)] = up
    return out


def describe_difference(game: RabState, extra: Zones, missing: Zones) -> tuple[str, ...]:
    """Each difference in words: a card face up where the game has none, and a card the game
    has face up that is not seen."""
    lines = []
    for zone, cards in sorted(extra.items()):
        for card, copy in sorted(cards.elements(), key=_order):
            lines.append(f"{_name(card, copy)} lies face up {_zone_words(zone)}, but the game has it {_where(game, card, copy)}")
    for zone, cards in sorted(missing.items()):
        for card, copy in sorted(cards.elements(), key=_order):
            lines.append(f"{_name(card, copy)} should lie face up {_zone_words(zone)} but is not seen there")
    return tuple(lines)


def _order(seen: Seen) -> tuple[int, str]:
    return (seen[0].index, seen[1] or "")


def _name(card: Influence | Goal, copy: str | None) -> str:
    return f"{copy}'s {card.id}" if copy else card.id


def _zone_words(zone: str) -> str:
    goal = column_of_zone(zone, GOAL)
    if goal is not None:
        return f"on goal stack {goal}"
    return f"in column {column_of_zone(zone, COLUMN)}"


def _where(game: RabState, card: Influence | Goal, copy: str | None) -> str:
    """Where the game has a card, as far as what was seen tells."""
    if isinstance(card, Goal):
        for col in game.columns:
            if col.goal is card:
                return f"on goal stack {col.number}"
        for p in game.players:
            if card in game.won(p):
                return f"won by {p}"
        return "in a goal stack, face down, or out of the game"
    owner = next((p for p, c in zip(game.players, game.setup.colours) if c == copy), None)
    if owner is None:
        return f"nowhere: no player's colour is {copy}"
    for col in game.columns:
        for who, c, up in col.cards:
            if who == owner and c is card:
                return f"{'face up' if up else 'face down'} in column {col.number}"
    if card in game.hand(owner):
        return f"in {owner}'s hand"
    if card in game.discards(owner):
        return f"in {owner}'s discard pile"
    return f"in {owner}'s hand, stack or discard pile, or face down in a column"
