"""The Love, Money, Power, Death table as the camera shows it, and as the game expects it to
look.

Each seat has its pile, its commit place and its court, named after its player
(``commit:ann``, ``court:ann``, ``pile:ann``); the noble pile, the turned noble and the discards
lie in the middle (``nobles``, ``noble``, ``discards``; :mod:`companion.games.
love_money_power_death.table`). What lies face up for everyone is compared: the round's noble
once turned (L7), the cards turned face up in the commit places at the reveal (L7), and each
court's nobles (L10). Piles, hands, the noble pile and committed cards lie face down; the
discards are out of play (L10): never compared.

Cards the game has done with may lie where they were until they are taken up: the last round's
revealed cards in their commit places, and its noble in the middle, where it may still lie
instead of in its winner's court (:func:`lingering`).
"""

from __future__ import annotations

from collections import Counter

from companion.games.love_money_power_death.cards import Card
from companion.games.love_money_power_death.state import LmpdState, Phase
from companion.games.love_money_power_death.table import COMMIT, COURT, NOBLE
from companion.tracker.view import Zones, difference_words

__all__ = ["compared", "zone_of", "player_of_zone", "expected_zones", "lingering", "describe_difference"]

_SEATED = (COMMIT, COURT)


def compared(zone: str | None) -> bool:
    """Zones whose face-up cards are compared with the game: the turned noble, each commit
    place and each court."""
    if zone is None:
        return False
    kind, _, player = zone.partition(":")
    return zone == NOBLE or (kind in _SEATED and bool(player))


def zone_of(kind: str, player: str) -> str:
    """A seat's zone of ``kind`` (``commit``, ``court``, ``pile``) for ``player``."""
    return f"{kind}:{player}"


def player_of_zone(zone: str, kind: str) -> str | None:
    """The player whose zone of ``kind`` ``zone`` is (``"commit:ann"`` -> ``"ann"``), else ``None``."""
    found, _, player = zone.partition(":")
    return player if found == kind and player else None


def expected_zones(game: LmpdState) -> Zones:
    """How the compared part of the table should look in ``game``'s position: each court's
    nobles (L10) and, once it is turned and until its round is revealed, the round's noble
    (L7). A committed card lies face down (L6): no commit place shows one."""
    out: Zones = {}
    for player, court in game.courts.items():
        if court:
            out[zone_of(COURT, player)] = Counter(court)
    noble = game.noble
    if noble is not None and game.phase is Phase.REVEAL:
        out[NOBLE] = Counter([noble])
    return out


def lingering(game: LmpdState) -> Zones:
    """What may still lie face up where it lay once the game is done with it: the last
    round's revealed cards in their commit places, and its noble in the middle (L10: until
    they go to the discards, or the noble to its winner's court)."""
    last = game.last_round
    if last is None:
        return {}
    out: Zones = {zone_of(COMMIT, player): Counter([card]) for player, card in last.plays}
    out[NOBLE] = Counter([last.noble])
    return out


def noble_in_transit(game: LmpdState, observed: Zones) -> Zones:
    """The last noble won, still seen in the middle: its winner's court may lack it until it
    is moved there (L10)."""
    last = game.last_round
    if last is None or last.winner is None or not observed.get(NOBLE, Counter())[last.noble]:
        return {}
    return {zone_of(COURT, last.winner): Counter([last.noble])}


def _zone_words(zone: str) -> str:
    if zone == NOBLE:
        return "turned up in the middle"
    kind, _, player = zone.partition(":")
    return {COMMIT: f"face up in {player}'s commit place", COURT: f"in {player}'s court"}.get(kind, f"in {zone}")


def describe_difference(game: LmpdState, extra: Zones, missing: Zones) -> tuple[str, ...]:
    """Each difference in words, saying where the game has the card."""
    return difference_words(extra, missing, _zone_words, lambda card: _where(game, card))


def _where(game: LmpdState, card: Card) -> str:
    for player, court in game.courts.items():
        if card in court:
            return f"in {player}'s court"
    known = game.where(card)
    if known is not None:
        return known
    if card.is_noble:
        return "face down in the noble pile" if card in game.nobles_left else "not in use (L4)"
    return "face down, in a pile or a hand"
