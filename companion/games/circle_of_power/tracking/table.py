"""The Circle of Power table as the camera shows it, and as the game expects it to look.

The table has four seats (C4), numbered clockwise from the bottom edge of the mat as the camera
sees it; whoever sits in a seat this season (a player or a dummy), its zones keep the seat's
number: ``city:<seat>``, ``battle:<seat>``, ``line:<seat>``; and the city deck in the middle,
``city-deck`` (vision/layout.py, docs/tracker.md). Everything there lies face up and is compared:
each emperor's city, the battle card they played in the action under way, the trophies in
their line, and the next available city. Hands, dummies' piles, the battle deck, the gathered
cards, discards and destroyed cities lie face down: never compared.
"""

from __future__ import annotations

from collections import Counter

from companion.games.circle_of_power.cards import Card
from companion.games.circle_of_power.game import CircleState, Phase
from companion.tracker.view import Zones, difference_words

__all__ = [
    "CITY_DECK",
    "compared",
    "seat_of_zone",
    "zone_of",
    "expected_zones",
    "table_zones",
    "act_zones",
    "describe_difference",
    "FACE_UP_KINDS",
]

CITY_DECK = "city-deck"
FACE_UP_KINDS = ("city", "battle", "line")
"""The zones of each seat."""


def compared(zone: str | None) -> bool:
    """Zones whose face-up cards are compared with the game: every seat's city, battle card
    and line, and the city deck."""
    if zone is None:
        return False
    kind, _, seat = zone.partition(":")
    return zone == CITY_DECK or (kind in FACE_UP_KINDS and seat.isdigit())


def seat_of_zone(zone: str) -> int | None:
    """The seat a zone belongs to (``"line:2"`` -> 2), ``None`` for the city deck."""
    kind, _, seat = zone.partition(":")
    return int(seat) if seat.isdigit() else None


def zone_of(kind: str, seat: int) -> str:
    return f"{kind}:{seat}"


def expected_zones(game: CircleState) -> Zones:
    """How the compared part of the table should look in ``game``'s position: during a season,
    each seat's city, the card it played in the action under way and its trophies, and the next
    available city on the city deck. Between seasons, nothing (the cards are taken up, C16)."""
    if game.phase in (Phase.SEASON, Phase.OVER):
        return {}
    return table_zones(game)


def table_zones(game: CircleState) -> Zones:
    """The face-up cards of ``game``'s season as the state holds them, also right after its
    last act, before the table is taken up."""
    out: Zones = {}
    if not game.seats:
        return out
    for seat, name in enumerate(game.seats):
        city = game.city(name)
        if city is not None:
            out[zone_of("city", seat)] = Counter([city])
        trophies = game.trophies(name)
        if trophies:
            out[zone_of("line", seat)] = Counter(trophies)
    if game.phase in (Phase.PLAY, Phase.ACT):
        for name, card in game.played:
            out.setdefault(zone_of("battle", game.seats.index(name)), Counter())[card] += 1
    if game.next_city is not None:
        out[CITY_DECK] = Counter([game.next_city])
    return out


def act_zones(zones: Zones) -> Zones:
    """The part of the table an act changes: the cities and the lines (the battle cards are
    gathered when they are, the next city is turned up after it)."""
    return {z: c for z, c in zones.items() if z.startswith(("city:", "line:")) and c}


def zone_words(game: CircleState, zone: str) -> str:
    if zone == CITY_DECK:
        return "on the city deck"
    kind, _, seat = zone.partition(":")
    name = game.seats[int(seat)] if game.seats and seat.isdigit() and int(seat) < len(game.seats) else f"seat {seat}"
    where = {"city": "as {}'s city", "battle": "as {}'s battle card", "line": "in {}'s line"}.get(kind, "in {}'s " + kind)
    return where.format(name)


def describe_difference(game: CircleState, extra: Zones, missing: Zones) -> tuple[str, ...]:
    """Each difference in words, saying where the game has the card; first, when others
    have laid battle cards while the emperor to play has not (C8), that card as unseen."""
    lines = difference_words(extra, missing, lambda zone: zone_words(game, zone), lambda card: where_words(game, card))
    me = game.to_move
    if game.phase is Phase.PLAY and me is not None and not extra.get(zone_of("battle", game.seats.index(me))):
        after = [name for seat, name in enumerate(game.seats) if name != me and extra.get(zone_of("battle", seat))]
        if after:
            lines = (f"{me}'s battle card is not seen, though it comes before {_and(after)}'s (C8): lay it where the camera reads it, or enter it",) + lines
    return lines


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def where_words(game: CircleState, card: Card) -> str:
    if not game.seats or game.phase in (Phase.SEASON, Phase.OVER):
        return "taken up for the next season" if game.season_number else "not dealt yet"
    for name in game.seats:
        if game.city(name) is card:
            return f"as {name}'s city"
        if card in game.trophies(name):
            return f"in {name}'s line"
        if card in game.destroyed_cities(name):
            return f"face down in {name}'s line (destroyed)"
    if card is game.next_city:
        return "on the city deck"
    if card in game.city_discards:
        return "discarded face down"
    played = [name for name, c in game.played if c is card]
    if played:
        return f"as {played[0]}'s battle card"
    if card.is_city:
        return "in the city deck, face down"
    if any(c is card for _, _, c in game.season_plays):
        return "played earlier this season"
    return "in a hand, a pile or the battle deck"
