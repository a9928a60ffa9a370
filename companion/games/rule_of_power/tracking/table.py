"""The table as the camera shows it, and as the game expects it to look.

Only what lies face up can be compared: the centre, and the Fate cards in play in front of
their owners (zones ``"fate:<player>"``). Capture stacks lie face down, hands are held, the deck
is face down: those zones are never compared. A card spent for the round (a Fate card used for
its effect, a discard) may still lie face up for a moment: it is ignored, by physical card
(card and owner), since several players may own the same Fate card.
"""

from __future__ import annotations

from collections import Counter

from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.game import GameState, Phase
from companion.games.rule_of_power.engine.moves import Move, Play
from companion.tracker.view import Key, TableView, Zones, difference_words

__all__ = ["compared", "expected_zones", "physical", "spent_keys", "describe_difference"]


def compared(zone: str | None) -> bool:
    """Zones whose face-up cards are compared with the game: the centre and the Fate cards in
    front of each player."""
    return zone == "centre" or (zone is not None and zone.startswith("fate:"))


def expected_zones(game: GameState) -> Zones:
    """How the compared part of the table should look in ``game``'s position. Between rounds
    nothing is expected: the Fate cards in play go back to their owners (R18)."""
    out: Zones = {}
    if game.phase in (Phase.ROUND, Phase.OVER):
        return out
    if game.centre:
        out["centre"] = Counter(game.centre)
    for player, card in game.in_play:
        out.setdefault(f"fate:{player}", Counter())[card] += 1
    return out


def physical(view: TableView, card: Card, owner: str | None) -> set[Key]:
    """The physical card the game names, as the sensors may report it. A Fate card carries
    its owner's seal, and several players may own the same one: it is that owner's. A World
    card is one of a kind in the game, whoever's seal its sticker bears (a player's own deck,
    printed for them, ``rop markers --owner``; the club's; none): it is every card the view
    shows by that name."""
    if card.is_fate:
        return {(card, owner)}
    return {(card, None), *(key for key in view.cards if key[0] is card)}


def spent_keys(game: GameState, move: Move, view: TableView) -> set[Key]:
    """The physical cards ``move``, played in ``game``'s position, puts out of play for the
    round, as the move's effects say (R19-R24): an event Fate card and what it discards, two
    Crystals meeting, the Creatures an Exorcist removes, the Exorcists a Minion sends away."""
    if not isinstance(move, Play):
        return set()
    out: set[Key] = set()
    for spent in game.effects(move).spent:
        if spent.card.is_fate and spent.player is None:
            # A Creature whose owner the game does not know: whichever the camera sees there.
            out.update((spent.card, o) for o in view.owners_in("centre", spent.card))
        else:
            out |= physical(view, spent.card, spent.owner)
    return out


def _zone_words(zone: str) -> str:
    if zone == "centre":
        return "in the centre"
    kind, _, player = zone.partition(":")
    return f"in front of {player}" if kind == "fate" else f"in {zone}"


def describe_difference(game: GameState, extra: Zones, missing: Zones) -> tuple[str, ...]:
    """Each difference in words, saying where the game has the card."""
    return difference_words(extra, missing, _zone_words, lambda card: _where(game, card))


def _where(game: GameState, card: Card) -> str:
    for p in game.players:
        if card in game.stack(p):
            return f"in {p}'s capture stack"
        if card in game.hand(p):
            return f"in {p}'s hand"
        if card in game.fate_hand(p):
            return f"in {p}'s hand"
    if card in game.centre:
        return "in the centre"
    if card.is_world and card in game.unlocated:
        return "unseen (in the deck or a hand)"
    if card.is_fate:
        return "in a hand or a Fate deck"
    return "out of play"
