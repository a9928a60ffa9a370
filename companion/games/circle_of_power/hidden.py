"""The cards a player cannot see: what ``player`` may know (their :class:`~companion.games.
circle_of_power.view.CircleView`), and a position dealt again around it for searches that
sample the hidden cards (the coach's worlds): the other hands and the dummies' piles from the
battle deck (C6, C8), keeping apart after the reshuffle the cards of the new battle deck and
those kept from before it (C15)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TYPE_CHECKING, cast

from companion.contract.errors import IllegalMoveError, InvalidMoveError
from companion.games.circle_of_power.cards import Card, cards_of_mask
from companion.games.circle_of_power.moves import UNSEEN
from companion.games.circle_of_power.position import _OVER, _SEASON, SEATS, CircleBase, PileCard

if TYPE_CHECKING:
    from companion.games.circle_of_power.game import CircleState
    from companion.games.circle_of_power.view import CircleView

__all__ = ["Hidden"]


class Hidden(CircleBase):
    """The state's part for hidden cards: a player's view, and the position resampled."""

    if TYPE_CHECKING:

        def copy(self, *, keep_history: bool = True) -> CircleState: ...

        def _where(self, card: Card, slot: object) -> str: ...

    def view(self, player: str) -> CircleView:
        """What ``player`` may know, and nothing more: the public table, their own hand as the
        companion saw it, and the battle cards they cannot place."""
        from companion.games.circle_of_power.view import make_view

        return make_view(cast("CircleState", self), player)

    def resample(self, player: str, rng: random.Random, *, own_unseen: bool = False) -> CircleState:
        """A copy of this position (its move stack empty) in which every card ``player`` cannot
        see is dealt again at random, consistently with their view: the other hands, the
        dummies' piles, and the battle deck. Cards of ``player``'s own hand that the companion
        never saw stay unseen (the view does not hold them), unless ``own_unseen``: then they
        are dealt too, as the public table allows (a decision that does not depend on them,
        an act, is judged so). After the reshuffle, cards kept from before it and cards of the
        new deck stay apart (C15)."""
        new = self.copy(keep_history=False)
        c = new._core
        if c.phase is _SEASON or c.phase is _OVER or not c.seats:
            return new
        me = c.seat_of.get(player, -1)
        if c.reshuffled:
            new._redeal_after_reshuffle(me, rng, own_unseen)
        else:
            new._redeal_before_reshuffle(me, rng, own_unseen)
        return new

    def with_hand(self, player: str, cards: Iterable[Card]) -> CircleState:
        """A copy of this position (its move stack empty) in which ``player``'s hand holds
        ``cards``, as the player told the companion privately: a card it saw there stays, each
        other card takes the place of one it had not seen (C6, C8; after the reshuffle, one kept
        from before it or one drawn from the new deck, C15). Some of the hand may be told, or
        all of it. :class:`IllegalMoveError` naming the ruling when the hand cannot hold them:
        more cards than it holds, or a card known to be elsewhere."""
        c = self._core
        i = self._seat(player)
        if c.dummy[i]:
            raise InvalidMoveError(f"{player} is a dummy: its pile is dealt face down and no one tells it (C6)")
        told = list(dict.fromkeys(cards))
        held = c.hands[i]
        size = len(held) + c.hidden[i] + c.hidden_old[i]
        if len(told) > size:
            raise IllegalMoveError("C6", f"{player} holds {size} card{'s' if size != 1 else ''}, and {len(told)} were told")
        new = self.copy(keep_history=False)
        n = new._core
        hand = list(held)
        for card in told:
            if card in held:
                continue
            if not card.is_battle:
                raise IllegalMoveError("C2", f"{card.id} is a city card: a hand holds battle cards (2-10)")
            if n.hidden[i] and n.pool & card.bit:
                n.hidden[i] -= 1
                n.pool &= ~card.bit
            elif n.hidden_old[i] and n.old_pool & card.bit:
                n.hidden_old[i] -= 1
                n.old_pool &= ~card.bit
            else:
                raise IllegalMoveError("C8", f"{card.id} cannot be in {player}'s hand{self._where(card, UNSEEN)}")
            hand.append(card)
        n.hands[i] = tuple(hand)
        return new

    def _cards_of_others(self, me: int) -> int:
        """The cards the companion saw in the hands and piles of every seat but ``me``."""
        c = self._core
        cards = 0
        for s in range(SEATS):
            if s == me:
                continue
            for x in c.hands[s]:
                cards |= x.bit
            for y in c.piles[s]:
                if isinstance(y, Card):
                    cards |= y.bit
        return cards

    def _redeal_before_reshuffle(self, me: int, rng: random.Random, own_unseen: bool) -> None:
        """Before the reshuffle (C6, C8): the cards seat ``me`` cannot see, in the other hands
        and piles and in the battle deck, are shuffled together and dealt again, as many to
        each hand and pile as it holds (with ``own_unseen``, to ``me``'s unseen cards too)."""
        c = self._core
        cards = cards_of_mask(c.pool | self._cards_of_others(me))
        rng.shuffle(cards)
        for s in range(SEATS):
            if s == me:
                if own_unseen:
                    c.hands[s] += tuple(cards.pop() for _ in range(c.hidden[s]))
                    c.hidden[s] = 0
                continue
            if c.dummy[s]:
                c.piles[s] = tuple(cards.pop() for _ in c.piles[s])
            else:
                n = len(c.hands[s]) + c.hidden[s]
                c.hands[s] = tuple(cards.pop() for _ in range(n))
                c.hidden[s] = 0
        c.pool = sum(x.bit for x in cards)

    def _redeal_after_reshuffle(self, me: int, rng: random.Random, own_unseen: bool) -> None:
        """After the reshuffle (C15) the same, keeping apart the cards of the new battle deck
        (the 24 of actions 1-6) and those from before it, which hands and piles kept: each
        card seat ``me`` cannot see is dealt again from its own kind."""
        c = self._core
        played_a = c.played_a
        others = self._cards_of_others(me)
        olds = cards_of_mask(c.old_pool | (others & ~played_a))
        news = cards_of_mask(c.pool | (others & played_a))
        rng.shuffle(olds)
        rng.shuffle(news)
        for s in range(SEATS):
            if s == me:
                if own_unseen:
                    c.hands[s] += tuple(olds.pop() for _ in range(c.hidden_old[s])) + tuple(news.pop() for _ in range(c.hidden[s]))
                    c.hidden[s] = c.hidden_old[s] = 0
                continue
            if c.dummy[s]:
                pile: list[PileCard] = []
                for y in c.piles[s]:
                    is_new = y is UNSEEN or (isinstance(y, Card) and y.bit & played_a)
                    pile.append(news.pop() if is_new else olds.pop())
                c.piles[s] = tuple(pile)
            else:
                known_new = sum(1 for x in c.hands[s] if x.bit & played_a)
                n_new = known_new + c.hidden[s]
                n_old = len(c.hands[s]) - known_new + c.hidden_old[s]
                c.hands[s] = tuple(olds.pop() for _ in range(n_old)) + tuple(news.pop() for _ in range(n_new))
                c.hidden[s] = 0
                c.hidden_old[s] = 0
        c.old_pool = sum(x.bit for x in olds)
        c.pool = sum(x.bit for x in news)
