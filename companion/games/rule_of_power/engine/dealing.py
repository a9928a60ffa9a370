"""Rounds and deals (R15, R18): a new round with its dealer, the deal moving to the left, and
each player's Fate deck, the same seven cards for the whole game (R18); then deals of three
cards each, one at a time from the dealer's left, or what the deck has left, with four to the
centre on a round's first deal (R15). Checked and carried out; the next deal made from a known
deck (:func:`deal_from`) or as a camera sees it (:meth:`Dealing.unseen_deal`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.moves import UNSEEN, Deal, NewRound, _Unseen
from companion.games.rule_of_power.engine.position import GameBase, Phase, _add, _all_seen, _phase_problem
from companion.contract.errors import IllegalMoveError, InvalidMoveError

if TYPE_CHECKING:
    from companion.games.rule_of_power.engine.game import GameState

__all__ = ["FATE_DECK_SIZE", "Dealing", "deal_from", "deal_sizes"]

FATE_DECK_SIZE = 7
"""The cards of a Fate deck, the same seven for the whole game (R18)."""


def deal_sizes(players: int, deck: int, first: bool) -> list[int]:
    """How many cards each player gets in a deal, from the dealer's left (R15): three each,
    or one at a time until the deck runs out; four more go to the centre on a round's first
    deal."""
    left = deck - (4 if first else 0)
    if left >= 3 * players:
        return [3] * players
    left = max(left, 0)
    return [min(3, left // players + (1 if i < left % players else 0)) for i in range(players)]


def deal_from(deck: list[Card], game: GameState) -> Deal:
    """The next deal of ``game`` from the top of ``deck`` (its last card), taken off it: one
    card at a time, clockwise from the dealer's left, three each or what is left, and four to
    the centre on a round's first deal (R15). For a table that knows its deck's order (a
    virtual table, the companion as dealer, a sampled deal)."""
    players = game.players
    n = len(players)
    first = game.deal_number == 0
    sizes = deal_sizes(n, len(deck), first)
    start = players.index(game.dealer or players[0]) + 1
    order = [players[(start + k) % n] for k in range(n)]
    hands: dict[str, list[Card]] = {p: [] for p in players}
    for r in range(3):
        for k, p in enumerate(order):
            if sizes[k] > r:
                hands[p].append(deck.pop())
    centre = [deck.pop() for _ in range(4)] if first else []
    return Deal.make(hands, centre)


class Dealing(GameBase):
    """The state's part for new rounds and deals (R15, R18)."""

    if TYPE_CHECKING:

        def whereabouts(self, card: Card) -> str: ...

    @property
    def deals_in_round(self) -> int:
        """How many deals this round has, as things stand (a Renewal can shorten it)."""
        c = self._core
        left = c.deck_count
        deals = c.deal_no
        first = c.deal_no == 0
        while left > 0:
            left -= sum(deal_sizes(self._n, left, first)) + (4 if first else 0)
            first = False
            deals += 1
        return deals

    def unseen_deal(self) -> Deal:
        """The next deal with every hand face down, as a camera sees it (R15's sizes), and no
        centre cards."""
        players = self.players
        n = self._n
        c = self._core
        sizes = deal_sizes(n, c.deck_count, c.deal_no == 0)
        start = max(c.dealer, 0) + 1
        hands = {players[(start + k) % n]: (UNSEEN,) * sizes[k] for k in range(n)}
        return Deal(tuple((p, hands[p]) for p in players))

    def _check_deal(self, move: Deal) -> None:
        c = self._core
        if c.phase is not Phase.DEAL:
            raise IllegalMoveError(*_phase_problem(c.phase, "no deal is due now"))
        n = self._n
        by_seat: list[tuple[Card | _Unseen, ...] | None] = [None] * n
        seat = self._seat
        for name, cards in move.hands:
            i = seat.get(name) if type(name) is str else None
            if i is None:
                i = self.player_seat(name)
            if by_seat[i] is not None:
                raise InvalidMoveError(f"{name} is dealt twice in one deal")
            by_seat[i] = cards
        first = c.deal_no == 0
        sizes = deal_sizes(n, c.deck_count, first)
        dealt: list[object] = []
        for k in range(n):
            i = (c.dealer + 1 + k) % n
            cards = by_seat[i] or ()
            if len(cards) != sizes[k]:
                raise IllegalMoveError(
                    "R15", f"{self.players[i]} must be dealt {sizes[k]} card{'s' if sizes[k] != 1 else ''}, not {len(cards)}"
                )
            dealt.extend(cards)
        if first:
            if len(move.centre) != 4:
                raise IllegalMoveError("R15", f"the first deal of a round puts 4 cards in the centre, not {len(move.centre)}")
            dealt.extend(move.centre)
        elif move.centre:
            raise IllegalMoveError("R15", "only the first deal of a round puts cards in the centre")
        known = [x for x in dealt if x is not UNSEEN]
        # The pool holds only World cards of this game's deck, so one subset test covers it all.
        if len(set(known)) == len(known) and c.pool.issuperset(known):
            return
        seen: set[object] = set()
        for card in known:
            if not isinstance(card, Card) or not card.is_world:
                raise IllegalMoveError("R15", f"only World cards are dealt, not {card}")
            if card in seen:
                raise IllegalMoveError("R15", f"{card.id} is dealt twice")
            seen.add(card)
            if card not in c.pool:
                raise IllegalMoveError("R15", f"{card.id} is not in the World deck{self.whereabouts(card)}")

    def _check_round(self, move: NewRound) -> None:
        c = self._core
        if c.phase is not Phase.ROUND:
            raise IllegalMoveError(*_phase_problem(c.phase, "a new round cannot start now"))
        d = self.player_seat(move.dealer)
        if c.round_no > 0:
            expected = (c.dealer + 1) % self._n
            if d != expected:
                raise IllegalMoveError(
                    "R15", f"the deal moves to the left: {self.players[expected]} deals this round, not {move.dealer}"
                )
        decks = {}
        for name, cards in move.fate_decks:
            self.player_seat(name)
            if name in decks:
                raise InvalidMoveError(f"{name}'s Fate deck is given twice")
            decks[name] = cards
            if not cards:
                continue
            if any(not x.is_fate for x in cards):
                raise IllegalMoveError("R18", f"{name}'s Fate deck holds a World card")
            if len(set(cards)) != len(cards):
                raise IllegalMoveError("R18", f"{name}'s Fate deck holds two copies of a card")
            if len(cards) != FATE_DECK_SIZE:
                raise IllegalMoveError("R18", f"a Fate deck has {FATE_DECK_SIZE} cards; {name}'s has {len(cards)}")
        if c.fate_sets is not None:
            for k, name in enumerate(self.players):
                if frozenset(decks.get(name, ())) != c.fate_sets[k]:
                    raise IllegalMoveError("R18", f"{name}'s Fate deck must stay the same for the whole game")

    def _carry_out_deal(self, move: Deal) -> None:
        """R15: the cards dealt go to the hands, face up or face down, and on a round's first
        deal four to the centre; the deal that empties the deck is the last (R7). Every
        player may draw a Fate card again (R17), and the dealer's left plays first."""
        c = self._core
        seat = self._seat
        dealt: list[Card] = []
        for name, cards in move.hands:
            i = seat[name]
            known: tuple[Card, ...]
            if _all_seen(cards):
                known = cards
            else:
                known = tuple(x for x in cards if not isinstance(x, _Unseen))
                c.hidden = _add(c.hidden, i, len(cards) - len(known))
            c.hands[i] = c.hands[i] + known
            dealt.extend(known)
            c.deck_count -= len(cards)
        if move.centre:
            c.centre = c.centre + move.centre
            dealt.extend(move.centre)
            c.deck_count -= len(move.centre)
        c.pool = c.pool.difference(dealt)
        c.deal_no += 1
        c.last_deal = c.deck_count == 0
        c.drew_fate = (False,) * self._n
        c.turn = (c.dealer + 1) % self._n
        c.phase = Phase.TURN

    def _carry_out_round(self, move: NewRound) -> None:
        """R15, R18: a new round starts with every card back: the dealer, each player's Fate
        deck (fixed for the game, reshuffled), the whole World deck, and nothing on the
        table; the first deal is due."""
        c = self._core
        n = self._n
        c.round_no += 1
        c.dealer = self._seat[move.dealer]
        c.deal_no = 0
        c.last_deal = False
        c.turn = -1
        c.hands = [()] * n
        c.hidden = (0,) * n
        c.fate_hands = [()] * n
        c.fate_hidden = (0,) * n
        c.fate_decks = [move.deck_of(p) for p in self.players]
        c.fate_order_known = move.fate_order_known
        if c.fate_sets is None:
            c.fate_sets = tuple(frozenset(d) for d in c.fate_decks)
        c.drew_fate = (False,) * n
        c.centre = ()
        c.centre_fate = ()
        c.stacks = [()] * n
        c.sweeps = ((),) * n
        c.in_play = ()
        c.discards = ()
        c.pool = frozenset(self._deck)
        c.deck_count = len(self._deck)
        c.last_capturer = None
        c.revealed = ()
        c.phase = Phase.DEAL
