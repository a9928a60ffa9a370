"""Hands the players told the companion privately, at a table kept by keyboard.

Hands are dealt face down (C6) and a keyboard names only what is played, so the coach has no
hand to judge a player's card from. A player who wants its hints tells the companion their
own hand (F8, typed hidden): the companion keeps the cards for the season, out of the record
(whose ``season`` event holds only the hands dealt as they were seen) and off the shared
screen, which says only how many cards were given. Each card they play afterwards leaves what
they told; a card drawn since is unknown until they tell it too. The coach judges a copy of
the game that knows the hand (:meth:`~companion.games.circle_of_power.game.CircleState.
with_hand`); the game itself, its record and its undo stay as the table kept them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from companion.contract.errors import IllegalMoveError, InvalidMoveError
from companion.games.circle_of_power.cards import Card
from companion.games.circle_of_power.game import CircleState, Phase
from companion.games.circle_of_power.dashboard.entry import EntryError, parse_card
from companion.games.circle_of_power.setup import is_dummy

__all__ = ["TellRefused", "ToldHands", "parse_hand"]


class TellRefused(ValueError):
    """Cards that cannot be the hand told; the message says why (with the ruling)."""


def parse_hand(text: str) -> tuple[Card, ...]:
    """Cards typed for a hand, separated by blanks or commas (C1: ``7h 10s 5c``, ``7♥,10♠``);
    :class:`EntryError` naming the word that is no card."""
    words = [w for w in re.split(r"[\s,]+", text.strip()) if w]
    if not words:
        raise EntryError("type the cards of the hand: 7h 10s 5c")
    return tuple(dict.fromkeys(parse_card(w) for w in words))


@dataclass(frozen=True, slots=True)
class _Told:
    season: int
    plays: int
    """How many cards of the season had been played when the hand was told."""
    cards: tuple[Card, ...]


class ToldHands:
    """The hands told so far, by player: each for the season it was told in."""

    def __init__(self) -> None:
        self._told: dict[str, _Told] = {}

    def held(self, state: CircleState, player: str) -> tuple[Card, ...]:
        """The cards ``player`` told that they still hold: told this season, not played since.
        A hand told at a point the game has since been taken back before is forgotten."""
        told = self._told.get(player)
        plays = state.season_plays
        if told is None or told.season != state.season_number or len(plays) < told.plays:
            return ()
        played = {card for _, name, card in plays[told.plays :] if name == player}
        return tuple(c for c in told.cards if c not in played)

    def given(self, state: CircleState) -> dict[str, int]:
        """How many cards each player has given and still holds (the shared screen's words)."""
        out = {}
        for name in self._told:
            n = len(self.held(state, name))
            if n:
                out[name] = n
        return out

    def tell(self, state: CircleState, player: str, cards: Iterable[Card]) -> int:
        """``player`` tells the companion ``cards`` of their hand: with what they told before and
        still hold (a card drawn since, told alone, adds to it), or, when that cannot be their
        hand, on their own (the whole hand told again). Returns how many cards the companion
        now knows of the hand. :class:`TellRefused` when ``cards`` cannot be in it."""
        if state.phase in (Phase.SEASON, Phase.OVER) or player not in state.seats:
            raise TellRefused("no hand is dealt now: a hand is told once the season is set up (C6)")
        if is_dummy(player):
            raise TellRefused(f"{player} is a dummy: its pile lies face down and plays itself (C8, C11)")
        new = tuple(dict.fromkeys(cards))
        tries = [tuple(dict.fromkeys(self.held(state, player) + new)), new]
        error: Exception | None = None
        for hand in tries:
            try:
                known = state.with_hand(player, hand)
            except (IllegalMoveError, InvalidMoveError) as exc:
                error = error or exc
                continue
            self._told[player] = _Told(state.season_number, len(state.season_plays), hand)
            return len(known.hand(player))
        raise TellRefused(str(error))

    def judged(self, state: CircleState, player: str) -> CircleState:
        """The game as the coach judges ``player``'s decision: a copy that knows the hand they
        told, or the game itself when they told none (or what they told no longer fits it:
        the table corrected a move since)."""
        held = self.held(state, player)
        if not held:
            return state
        try:
            return state.with_hand(player, held)
        except (IllegalMoveError, InvalidMoveError):
            return state

    def forget(self, player: str) -> None:
        self._told.pop(player, None)
