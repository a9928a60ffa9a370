"""Small builders for engine tests: a game set up at a chosen position."""

from __future__ import annotations

from companion.games.rule_of_power.engine.cards import FATE_CARDS, Card
from companion.games.rule_of_power.engine.game import GameSetup, GameState
from companion.games.rule_of_power.engine.moves import Deal, DrawFate, NewRound, Pass, Play


def ids(cards) -> list[str]:
    return [c.id for c in cards]


def fate_deck(*first: str) -> list[str]:
    """A seven-card Fate deck with the given cards on top, the rest filled from F001-F008."""
    rest = [c.id for c in FATE_CARDS if c.id not in first]
    return list(first) + rest[: 7 - len(first)]


def start(
    players=("ann", "bob"),
    hands=None,
    centre=("W031", "W032", "W033", "W036"),
    *,
    dealer=None,
    teams=None,
    target=11,
    expansion=False,
    fate=None,
    keep_history=True,
) -> GameState:
    """A game at the first turn of its first deal: ``hands`` maps players to card ids."""
    setup = GameSetup(tuple(players), teams, target, expansion)
    game = GameState(setup, keep_history=keep_history)
    dealer = dealer or players[-1]
    game.push(NewRound.make(dealer, fate or {}))
    game.push(Deal.make(hands, centre))
    return game


def play(game: GameState, player: str, card: str, capture=(), **kw) -> None:
    game.push(Play.from_ids(player, card, capture, **kw))


def draw(game: GameState, player: str) -> None:
    game.push(DrawFate(player))


def pass_(game: GameState, player: str) -> None:
    game.push(Pass(player))


def card(text: str) -> Card:
    return Card.from_id(text)
